"""Belote contrée: the 3-2-3 deal and the auction (rules/contree.md §3-4).

Calls: ``pass``; ``bid`` a number (80 ... ``max_bid``, by tens) strictly above the
standing one, ``"capot"`` over every number, or ``"generale"`` (option) over all;
``coinche`` (double) by an opponent of the standing bid; ``surcoinche`` (redouble)
by the doubled team, which ends the auction. Three passes after a bid or a coinche
end it; four passes before any bid void the deal.

While the auction runs, ``state.extra`` holds the standing call: ``bid``, ``suit``,
``bidder``, ``coinche`` (0, 1, 2), ``coinched_by``, ``surcoinched_by`` and ``passes``
(passes in a row since the last other call).
"""

from __future__ import annotations

from typing import Any

from app.rules.belote_base import FrenchBeloteRules
from app.rules.errors import IllegalAction
from app.rules.state import State
from app.rules.types import Action, ActionIn

CAPOT, GENERALE = "capot", "generale"
#: How a bid ranks: numbers by value, then capot, then the générale (§4).
_RANK = {CAPOT: 10_000, GENERALE: 20_000}


def bid_rank(bid: int | str) -> int:
    """The rank of a bid value: its number, capot above every number, générale above all."""
    return bid if isinstance(bid, int) else _RANK[bid]


def bid_values(options: dict[str, Any]) -> list[int | str]:
    """Every bid value the options allow, low to high (§4): 80 ... ``max_bid``, capot,
    and the générale with option ``generale``."""
    values: list[int | str] = list(range(80, options["max_bid"] + 1, 10))
    values.append(CAPOT)
    if options["generale"]:
        values.append(GENERALE)
    return values


class ContreeAuction(FrenchBeloteRules):
    """Deal and auction of Belote contrée; the play, scoring and views live in the ruleset."""

    def seat_order(self, state: State) -> list[int]:
        """Seats from the eldest hand round to the dealer."""
        e = self.eldest(state)
        return [(e + i) % self.players for i in range(self.players)]

    def deal_cards(self, state: State, deck: list[str]) -> None:
        """§3: 3-2-3 from the eldest hand, all 32 cards before the auction; no card turned."""
        order = self.seat_order(state)
        i = 0
        for packet in (3, 2, 3):
            for seat in order:
                state.hands[seat].extend(deck[i : i + packet])
                i += packet
        state.extra = {
            "bid": None,
            "suit": None,
            "bidder": None,
            "coinche": 0,
            "coinched_by": None,
            "surcoinched_by": None,
            "passes": 0,
        }
        state.phase = "auction"
        state.to_act = order[0]

    # ------------------------------------------------------------------ calls
    def _frozen(self, state: State) -> bool:
        """Option ``coinche_freezes``: after a coinche nobody may bid again."""
        return state.extra["coinche"] >= 1 and bool(state.options["coinche_freezes"])

    def higher_bids(self, state: State) -> list[int | str]:
        """The bid values above the standing bid (§4 ``legal_calls``)."""
        standing = state.extra["bid"]
        values = bid_values(state.options)
        if standing is None:
            return values
        return [v for v in values if bid_rank(v) > bid_rank(standing)]

    def may_coinche(self, state: State, seat: int) -> bool:
        """An opponent of the standing bid, not yet coinched; a capot or générale only with
        option ``coinche_capot`` (§4)."""
        ex = state.extra
        return (
            ex["bid"] is not None
            and ex["coinche"] == 0
            and self.team_of(seat) != self.team_of(ex["bidder"])
            and (isinstance(ex["bid"], int) or bool(state.options["coinche_capot"]))
        )

    def may_surcoinche(self, state: State, seat: int) -> bool:
        """A player of the coinched team, while not yet surcoinched (§4)."""
        ex = state.extra
        return (
            ex["bid"] is not None
            and ex["coinche"] == 1
            and self.team_of(seat) == self.team_of(ex["bidder"])
        )

    def auction_actions(self, state: State) -> list[Action]:
        """The calls open to the seat to act (§4 ``legal_calls``): pass, every higher bid in
        each suit, coinche, surcoinche."""
        seat = state.to_act
        assert seat is not None
        actions: list[Action] = [{"type": "pass"}]
        if not self._frozen(state):
            suits = self.table.suits
            actions += [
                {"type": "bid", "value": v, "suit": s}
                for v in self.higher_bids(state)
                for s in suits
            ]
        if self.may_coinche(state, seat):
            actions.append({"type": "coinche"})
        if self.may_surcoinche(state, seat):
            actions.append({"type": "surcoinche"})
        return actions

    def do_auction(self, state: State, action: ActionIn) -> None:
        """Apply one call (§4). Raises IllegalAction with the reason."""
        seat = state.to_act
        assert seat is not None
        ex = state.extra
        kind = action.get("type")
        if kind == "pass":
            self.pass_in_bidding(state, seat)
            return
        if kind == "bid":
            self._bid(state, seat, action.get("value"), action.get("suit"))
        elif kind == "coinche":
            if not self.may_coinche(state, seat):
                raise IllegalAction(self._coinche_refusal(state, seat))
            state.auction.append({"seat": seat, "type": "coinche"})
            ex.update(coinche=1, coinched_by=seat)
        elif kind == "surcoinche":
            if not self.may_surcoinche(state, seat):
                raise IllegalAction("surcoinche_own_side")
            state.auction.append({"seat": seat, "type": "surcoinche"})
            ex.update(coinche=2, surcoinched_by=seat)
            self.close_auction(state)  # §4 End 2: a surcoinche ends the auction at once
            return
        else:
            raise IllegalAction("contree_calls")
        ex["passes"] = 0
        state.to_act = self.next_seat(seat)

    def _coinche_refusal(self, state: State, seat: int) -> str:
        ex = state.extra
        if ex["bid"] is None:
            return "no_bid_to_coinche"
        if self.team_of(seat) == self.team_of(ex["bidder"]):
            return "coinche_other_side"
        if ex["coinche"]:
            return "already_coinched"
        return "no_coinche_on_capot"

    def _bid(self, state: State, seat: int, value: object, suit: object) -> None:
        ex = state.extra
        values = bid_values(state.options)
        if isinstance(value, bool) or value not in values:
            raise IllegalAction("contree_bid_value", max_bid=state.options["max_bid"])
        if suit not in self.table.suits:
            raise IllegalAction("unknown_trump", trump=suit)
        if self._frozen(state):
            raise IllegalAction("bid_after_coinche")
        assert isinstance(value, int | str)  # one of bid_values
        if ex["bid"] is not None and bid_rank(value) <= bid_rank(ex["bid"]):
            raise IllegalAction("contree_bid_higher", value=ex["bid"])
        state.auction.append({"seat": seat, "type": "bid", "value": value, "suit": suit})
        ex.update(
            bid=value, suit=suit, bidder=seat, coinche=0, coinched_by=None, surcoinched_by=None
        )

    # ------------------------------------------------------------------ contract
    def close_auction(self, state: State) -> None:
        """Fix the contract (§4) and open trick 1: the eldest hand leads, the bidder after a
        générale (§6)."""
        ex = state.extra
        state.contract = {
            "trump": ex["suit"],
            "bid": ex["bid"],
            "bidder": ex["bidder"],
            "taker_team": self.team_of(ex["bidder"]),
            "coinche": ex["coinche"],
        }
        leader = ex["bidder"] if ex["bid"] == GENERALE else self.eldest(state)
        self.begin_play(state, leader)
