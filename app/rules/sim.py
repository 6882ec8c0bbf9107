"""Simulation helpers for bots that search: a position built from a seat's view and a guess
of the hidden cards, and a brief view for fast play-outs.

A searching bot sees only ``observe(state, seat)``. To think ahead it guesses
the cards it cannot see (a *determinization*), builds the position they
imply with :func:`position`, and plays it out with the engine's own
``legal_actions``/``apply``. Nothing here reveals a real state's hidden
cards: a position holds only what the caller passed in.
"""

from __future__ import annotations

from typing import Any

from app.rules.api import GAMES
from app.rules.state import State
from app.rules.types import View


def position(
    view: View,
    hands: list[list[str]],
    tricks: list[dict[str, Any]],
    declared: list[list[dict[str, Any]] | None] | None = None,
) -> State:
    """The play-phase position of ``view`` (a seat's ``observe``) if the seats held ``hands``.

    ``hands``: the cards each seat holds now (the viewer's own as in the view).
    ``tricks``: the deal's finished tricks, engine form ``{"leader", "cards":
    [(seat, card)], "winner"}``, as many as ``view["trick_number"] - 1``.
    ``declared``: each seat's declaration (``None``: not yet made), as the
    engine keeps them; default none declared where trick 1 is over, else
    nobody yet.

    Raises:
        ValueError: the view is not in the play phase, or ``tricks`` has the wrong length.
    """
    if view["phase"] != "play":
        raise ValueError("a position is built only in the play phase")
    if len(tricks) != view["trick_number"] - 1:
        raise ValueError("give every finished trick of the deal")
    g = GAMES[view["game"]]
    state = State(game=g.id, options=view["options"], players=g.players, dealer=view["dealer"])
    trump = g.trump(view["contract"])
    state.phase, state.seq, state.to_act = "play", view["seq"], view["to_act"]
    state.deal_no = len(view["sheet"]) + 1
    state.hands = [sorted(h, key=lambda c: g.table.sort_key(c, trump)) for h in hands]
    state.contract = view["contract"]
    state.auction = list(view["auction"])
    if not g.declarations_allowed(view["contract"], view["options"]):
        declared = []
    elif declared is None:
        declared = [[] for _ in range(g.players)] if tricks else [None] * g.players
    state.declared = list(declared)
    state.belote = list(view["belote"])
    state.trick = [(t["seat"], t["card"]) for t in view["trick"]]
    state.leader = view["leader"]
    state.tricks = list(tricks)
    won: list[list[str]] = [[], []]
    for t in tricks:
        won[g.team_of(t["winner"])].extend(c for _, c in t["cards"])
    state.won = won
    state.tricks_won = list(view["tricks_won"])
    state.scores = list(view["scores"])
    state.carried = view.get("held") or view.get("hanging_points") or 0
    played: list[list[str]] = [[] for _ in range(g.players)]
    for t in tricks:
        for s, c in t["cards"]:
            played[s].append(c)
    state.initial_hands = [played[s] + list(hands[s]) for s in range(g.players)]
    g.extra_from_view(state, view)
    return state


def brief_view(state: State, seat: int) -> View:
    """A play-phase view of ``seat`` with only what play decisions read: ``game``,
    ``options``, ``players``, ``phase``, ``seat``, ``to_act``, ``hand``, ``contract``,
    ``trick``, ``leader``, ``trick_number``, ``target``, ``legal_actions`` (same meanings
    as in ``observe``; ``claim_totals`` is None, so play-outs never claim)."""
    g = GAMES[state.game]
    # a partial View by design: only the keys the docstring lists (play-outs read no other)
    return {  # type: ignore[typeddict-item]
        "game": state.game,
        "options": state.options,
        "players": g.players,
        "phase": state.phase,
        "seat": seat,
        "to_act": state.to_act,
        "hand": state.hands[seat],
        "contract": state.contract,
        "trick": [{"seat": s, "card": c} for s, c in state.trick],
        "leader": state.leader,
        "trick_number": len(state.tricks) + 1,
        "target": state.options.get("target"),
        "claim_totals": None,
        "legal_actions": g.legal_actions(state) if seat == state.to_act else [],
    }


def in_play(state: State) -> bool:
    """True while the cards of a deal are being played (declarations included)."""
    return state.phase == "play"


def deal_points(state: State) -> list[int] | None:
    """The points of the last finished deal of the match (None before any): ``[team0, team1]``."""
    return list(state.sheet[-1]["points"]) if state.sheet else None


def deal_totals(state: State) -> list[int] | None:
    """The last finished deal's totals before the contract was judged (card points,
    declarations, last trick...; Bridge-Belote's raw points), or None: a finer measure
    than the points, for telling close results apart."""
    if not state.sheet:
        return None
    detail = state.sheet[-1].get("detail") or {}
    totals = detail.get("raw") or detail.get("totals")
    return list(totals) if totals else None
