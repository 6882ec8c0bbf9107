"""What each seat may see of a state: the views of :class:`app.rules.core.TrickGame`.

``observe(state, seat)`` is the only way anything outside the engine sees a
state (docs/engine-face.md lists the keys). A mixin of the core ruleset,
kept apart so that the state machine and the views each stay one file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.rules.declarations import combination_cards, public_kind
from app.rules.state import State
from app.rules.types import Action, View


class Views:
    """The view hooks and ``observe`` of a ruleset (mixed into ``TrickGame``)."""

    # set by TrickGame
    id: str
    players: int
    table: Any
    tricks_public: bool
    if TYPE_CHECKING:  # defined by TrickGame

        def trump(self, contract: dict[str, Any] | None) -> str | None: ...
        def eldest(self, state: State) -> int: ...
        def legal_actions(self, state: State) -> list[Action]: ...

    # ------------------------------------------------------------------ views
    def declarations_shown(self, state: State) -> bool:
        """Declared cards become public when trick 1 is complete."""
        return bool(state.tricks)

    def observe(self, state: State, seat: int | None) -> View:
        """What ``seat`` may see (None: a spectator). See docs/engine-face.md."""
        trump = self.trump(state.contract)
        shown = self.declarations_shown(state)
        decl = []
        for s, combos in enumerate(state.declared):
            if combos is None:
                continue
            if shown:
                items = [dict(c, cards=combination_cards(c, self.table)) for c in combos]
            else:
                items = [public_kind(c) for c in combos]
            decl.append({"seat": s, "combinations": items, "shown": shown})
        last = state.sheet[-1] if state.sheet else None
        last_trick = state.tricks[-1] if state.tricks else None
        view: View = {
            "game": self.id,
            "options": state.options,
            "players": self.players,
            "phase": state.phase,
            "seq": state.seq,
            "seat": seat,
            "dealer": state.dealer,
            "eldest": self.eldest(state),
            "to_act": state.to_act,
            "hand": sorted(state.hands[seat], key=lambda c: self.table.sort_key(c, trump))
            if seat is not None and state.hands and not self.hand_hidden(state, seat)
            else None,
            "hand_counts": [len(h) for h in state.hands] if state.hands else [0] * self.players,
            "turned": state.turned if state.phase == "auction" else None,
            "stock_count": len(state.stock),
            "auction": list(state.auction),
            "contract": state.contract,
            "declarations": decl,
            "belote": list(state.belote),
            "trick": [{"seat": s, "card": c} for s, c in state.trick],
            "leader": state.leader if state.phase == "play" else None,
            "last_trick": {
                "cards": [{"seat": s, "card": c} for s, c in last_trick["cards"]],
                "winner": last_trick["winner"],
            }
            if last_trick and state.phase != "auction"
            else None,
            "tricks_won": list(state.tricks_won),
            "played": [
                {
                    "leader": t["leader"],
                    "cards": [{"seat": s, "card": c} for s, c in t["cards"]],
                    "winner": t["winner"],
                }
                for t in state.tricks
            ]
            if self.tricks_public and state.phase == "play"
            else None,
            "trick_number": len(state.tricks) + 1,
            "scores": list(state.scores),
            "target": state.options.get("target"),
            "sheet": [
                {k: v for k, v in e.items() if k not in ("hands", "declared", "tricks", "summary")}
                for e in state.sheet
            ],
            "last_deal": last,
            "winner": state.winner,
            "legal_actions": self.legal_actions(state)
            if seat is not None and seat == state.to_act
            else [],
        }
        self.observe_extra(state, seat, view)
        return view

    def extra_from_view(self, state: State, view: View) -> None:
        """Hook for :func:`app.rules.sim.position`: a game's own play-phase fields from a view."""

    def hand_hidden(self, state: State, seat: int) -> bool:
        """Hook: True while ``seat`` may not look at its own cards (its view's ``hand`` is None)."""
        return False

    def observe_extra(self, state: State, seat: int | None, view: View) -> None:
        """Hook: add game-specific public fields to a view."""
