"""Bridge-Belote: the 3 + 2 deal, the auction and the last 3 cards (rules/bridge-belote.md §3-4).

Calls: ``bid`` (a contract strictly higher than the standing one), ``pass``,
``double`` (*контра*) and ``redouble`` (*реконтра*). A new bid clears the
doubling ("escaping the contra") unless option ``burgas_contra_lock``. Three
passes in a row after a call end the auction; so does a recontra with option
``recontra_closes_auction``. Four passes before any bid void the deal.

While the auction runs, ``state.extra`` holds the standing call: ``bid``,
``bidder``, ``multiplier``, ``doubled_by``, ``redoubled_by`` and ``passes``
(passes in a row since the last other call).
"""

from __future__ import annotations

from app.rules.bridge_belote_contract import BID_NAMES, BIDS, contract_of_bid
from app.rules.core import TrickGame
from app.rules.errors import IllegalAction
from app.rules.state import State
from app.rules.types import Action, ActionIn


class BridgeAuction(TrickGame):
    """Deal and auction of Bridge-Belote; the play and scoring live in the ruleset."""

    def seat_order(self, state: State) -> list[int]:
        """Seats from the eldest hand round to the dealer."""
        e = self.eldest(state)
        return [(e + i) % self.players for i in range(self.players)]

    def deal_cards(self, state: State, deck: list[str]) -> None:
        """§3: indices 0-11 three each from ``e``, 12-19 two each; 20-31 wait for a contract."""
        order = self.seat_order(state)
        for i, seat in enumerate(order):
            state.hands[seat].extend(deck[3 * i : 3 * i + 3] + deck[12 + 2 * i : 14 + 2 * i])
        state.stock = deck[20:]
        state.extra = {
            "bid": None,
            "bidder": None,
            "multiplier": 1,
            "doubled_by": None,
            "redoubled_by": None,
            "passes": 0,
        }
        state.phase = "auction"
        state.to_act = order[0]

    # ------------------------------------------------------------------ calls
    def _locked(self, state: State) -> bool:
        """Option ``burgas_contra_lock``: after a contra nobody may bid again."""
        return bool(state.options["burgas_contra_lock"]) and state.extra["multiplier"] > 1

    def auction_actions(self, state: State) -> list[Action]:
        """The calls open to the seat to act (§4): higher bids, double, redouble, pass."""
        seat = state.to_act
        assert seat is not None
        ex = state.extra
        actions: list[Action] = []
        if not self._locked(state):
            start = BIDS.index(ex["bid"]) + 1 if ex["bid"] else 0
            actions += [{"type": "bid", "contract": b} for b in BIDS[start:]]
        if ex["bid"] is not None:
            ours = self.team_of(ex["bidder"]) == self.team_of(seat)
            if not ours and ex["multiplier"] == 1:
                actions.append({"type": "double"})
            if ours and ex["multiplier"] == 2:
                actions.append({"type": "redouble"})
        actions.append({"type": "pass"})
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
            self._bid(state, seat, action.get("contract"))
        elif kind == "double":
            self._double(state, seat)
        elif kind == "redouble":
            self._redouble(state, seat)
            if state.options["recontra_closes_auction"]:
                self.close_auction(state)
                return
        else:
            raise IllegalAction("auction_calls")
        ex["passes"] = 0
        state.to_act = self.next_seat(seat)

    def _bid(self, state: State, seat: int, bid: object) -> None:
        ex = state.extra
        if bid not in BIDS:
            raise IllegalAction("name_a_contract")
        if self._locked(state):
            raise IllegalAction("bid_locked")
        if ex["bid"] is not None and BIDS.index(bid) <= BIDS.index(ex["bid"]):
            raise IllegalAction("bid_higher", bid=ex["bid"], bid_name=BID_NAMES[ex["bid"]])
        state.auction.append({"seat": seat, "type": "bid", "contract": bid})
        ex.update(bid=bid, bidder=seat, multiplier=1, doubled_by=None, redoubled_by=None)

    def _double(self, state: State, seat: int) -> None:
        ex = state.extra
        if ex["bid"] is None:
            raise IllegalAction("no_bid_to_double")
        if self.team_of(ex["bidder"]) == self.team_of(seat):
            raise IllegalAction("double_other_side")
        if ex["multiplier"] > 1:
            raise IllegalAction("already_doubled")
        state.auction.append({"seat": seat, "type": "double"})
        ex.update(multiplier=2, doubled_by=seat)

    def _redouble(self, state: State, seat: int) -> None:
        ex = state.extra
        if (
            ex["bid"] is None
            or ex["multiplier"] != 2
            or self.team_of(ex["bidder"]) != self.team_of(seat)
        ):
            if ex["multiplier"] == 4:
                raise IllegalAction("already_redoubled")
            raise IllegalAction("redouble_own_side")
        state.auction.append({"seat": seat, "type": "redouble"})
        ex.update(multiplier=4, redoubled_by=seat)

    # ------------------------------------------------------------------ contract
    def close_auction(self, state: State) -> None:
        """Fix the contract, deal cards 20-31 three each from ``e`` (§3), and open trick 1."""
        ex = state.extra
        state.contract = dict(
            contract_of_bid(ex["bid"]),
            bid=ex["bid"],
            bidder=ex["bidder"],
            declarer_team=self.team_of(ex["bidder"]),
            multiplier=ex["multiplier"],
            doubled_by=ex["doubled_by"],
            redoubled_by=ex["redoubled_by"],
        )
        for i, seat in enumerate(self.seat_order(state)):
            state.hands[seat].extend(state.stock[3 * i : 3 * i + 3])
        state.stock = []
        self.begin_play(state, self.eldest(state))
