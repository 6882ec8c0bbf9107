"""Choosing trumps and the doubling ladder of Botifarra (rules/botifarra.md §4).

The game's words: *fer trumfo* is to choose trumps; *botifarra* (*buti*)
is the choice "no trumps", which counts double; *delegar* is the dealer
passing the choice, once, to his partner; *contrar*, *recontrar* and
*Sant Vicenç* are the double, the redouble and the re-redouble.

The auction phase holds these steps, kept in ``state.extra``:

* ``step``: ``"choose"`` (the dealer, or after ``delegate`` his partner),
  then ``"contrar"`` (the defenders), ``"recontrar"`` (the choosing pair),
  ``"sant_vicenc"`` (the defenders);
* ``asked``: the seats still to answer in the current doubling step, in
  playing order (a tuple; the first is to act);
* ``delegated``: whether the dealer delegated.

The contract is public from the choice on: ``{"trump": suit | None,
"botifarra": bool, "chooser": seat, "chooser_team": team, "taker": seat,
"taker_team": team, "delegated": bool, "doublings": 0..3, "multiplier": m}``
(``taker``/``taker_team`` repeat the chooser under the engine's common names).
"""

from __future__ import annotations

from app.rules.botifarra_score import max_doublings, multiplier
from app.rules.core import TrickGame
from app.rules.errors import IllegalAction
from app.rules.state import State
from app.rules.types import Action, ActionIn

#: doubling step -> (the action that takes it, the step after it). Each step asks the
#: pair that did not take the previous one, from the seat after its taker.
LADDER = {
    "contrar": ("double", "recontrar"),
    "recontrar": ("redouble", "sant_vicenc"),
    "sant_vicenc": ("sant_vicenc", None),
}
STEP_WORDS = {
    "contrar": "double (contrar)",
    "recontrar": "redouble (recontrar)",
    "sant_vicenc": "say Sant Vicenç",
}


class TrumpChoiceGame(TrickGame):
    """The trump choice by the dealer (or his partner) and the contrar/recontrar/Sant Vicenç ladder."""

    def partner(self, seat: int) -> int:
        """The partner of ``seat`` (across the table)."""
        return (seat + 2) % self.players

    def open_choice(self, state: State) -> None:
        """All cards are dealt: the dealer is to choose (rules/botifarra.md §4.1)."""
        state.phase = "auction"
        state.to_act = state.dealer
        state.extra = {"step": "choose", "asked": (), "delegated": False}

    def auction_actions(self, state: State) -> list[Action]:
        """The choices of the seat to act: suits, botifarra and (the dealer only) delegate; or a doubling step and pass."""
        step = state.extra["step"]
        if step == "choose":
            actions: list[Action] = [{"type": "trump", "suit": s} for s in self.table.suits]
            actions.append({"type": "botifarra"})
            if not state.extra["delegated"]:
                actions.append({"type": "delegate"})
            return actions
        return [{"type": LADDER[step][0]}, {"type": "pass"}]

    def do_auction(self, state: State, action: ActionIn) -> None:
        """Apply a choice, a doubling step or a pass. Raises IllegalAction with the reason."""
        if state.extra["step"] == "choose":
            self._choose(state, action)
        else:
            self._double_or_pass(state, action)

    def _choose(self, state: State, action: ActionIn) -> None:
        seat = state.to_act
        assert seat is not None
        kind = action.get("type")
        delegated = state.extra["delegated"]
        if kind == "delegate":
            if delegated:
                raise IllegalAction("delegated_back")
            state.auction.append({"seat": seat, "type": "delegate"})
            state.extra["delegated"] = True
            state.to_act = self.partner(seat)
            return
        if kind == "trump":
            suit = action.get("suit")
            if suit not in self.table.suits:
                raise IllegalAction("name_trump_suit", suits=list(self.table.suits))
            state.auction.append({"seat": seat, "type": "trump", "suit": suit})
        elif kind == "botifarra":
            suit = None
            state.auction.append({"seat": seat, "type": "botifarra"})
        else:
            raise IllegalAction("choose_trumps" if delegated else "choose_trumps_or_delegate")
        team = self.team_of(seat)
        state.contract = {
            "trump": suit,
            "botifarra": suit is None,
            "chooser": seat,
            "chooser_team": team,
            "taker": seat,
            "taker_team": team,
            "delegated": delegated,
            "doublings": 0,
            "multiplier": multiplier(state.options, suit is None, 0),
        }
        self._ask(state, "contrar", seat)

    def _ask(self, state: State, step: str, after: int) -> None:
        """Open doubling ``step``: the other pair than ``after``'s, from the seat after ``after``."""
        state.extra["step"] = step
        state.extra["asked"] = ((after + 1) % self.players, (after + 3) % self.players)
        state.to_act = state.extra["asked"][0]

    def _double_or_pass(self, state: State, action: ActionIn) -> None:
        seat = state.to_act
        assert seat is not None
        step = state.extra["step"]
        word, next_step = LADDER[step]
        kind = action.get("type")
        if kind == "pass":
            state.auction.append({"seat": seat, "type": "pass", "step": step})
            asked = state.extra["asked"][1:]
            state.extra["asked"] = asked
            if asked:
                state.to_act = asked[0]
            else:
                self._start_play(state)
            return
        if kind != word:
            raise IllegalAction("time_to_" + step)
        state.auction.append({"seat": seat, "type": word, "step": step})
        contract = state.contract or {}
        doublings = contract["doublings"] + 1
        state.contract = dict(
            contract,
            doublings=doublings,
            multiplier=multiplier(state.options, contract["botifarra"], doublings),
        )
        if next_step is None or doublings >= max_doublings(state.options, contract["botifarra"]):
            self._start_play(state)
        else:
            self._ask(state, next_step, seat)

    def _start_play(self, state: State) -> None:
        """Doubling is over: the seat after the dealer leads trick 1 (rules/botifarra.md §6)."""
        state.extra["step"] = None
        state.extra["asked"] = ()
        self.begin_play(state, self.eldest(state))
