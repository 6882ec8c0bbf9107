"""Deal and auction around a turned card: Bolot and French Belote for four.

rules/bolot.md §3-4 and rules/belote.md §3-4 (4 players) state the same
mapping and the same two-round auction; only the words differ (*vaig* /
*prendre* is ``take``, *no vaig* / *passer* is ``pass``).
"""

from __future__ import annotations

from typing import Any

from app.rules.cards import suit_of
from app.rules.core import TrickGame
from app.rules.errors import IllegalAction
from app.rules.state import State
from app.rules.types import Action, ActionIn


class TurnedCardGame(TrickGame):
    """A game dealt 3+2 with a turned card and a two-round take/pass auction.

    Deck indices (top card first), dealer ``d``, eldest ``e``, four players: 0-11
    three each to ``e, e+1, e+2, d``; 12-19 two each, same order; 20 the turned
    card; 21-31 the stock. After a take the taker adds the turned card, then
    from ``e`` each seat takes 3 stock cards, the taker 2. With three players
    (rules/belote-3p.md §3) the same steps give 0-8, 9-14, 15 and 16-23.
    """

    #: Cards per seat in each round of the first deal (rules/belote.md §3: 3 + 2; 3 + 3 for two).
    packets: tuple[int, ...] = (3, 2)

    def seat_order(self, state: State) -> list[int]:
        """Seats from the eldest hand round to the dealer."""
        e = self.eldest(state)
        return [(e + i) % self.players for i in range(self.players)]

    def deal_packets(self, options: dict[str, Any]) -> tuple[int, ...]:
        """Cards per seat in each round of the first deal under ``options`` (``packets``
        unless an option changes the deal: rules/belote-3p.md §3)."""
        return self.packets

    def deal_cards(self, state: State, deck: list[str]) -> None:
        order = self.seat_order(state)
        i = 0
        for packet in self.deal_packets(state.options):
            for seat in order:
                state.hands[seat].extend(deck[i : i + packet])
                i += packet
        state.turned = deck[i]
        state.stock = deck[i + 1 :]
        state.phase = "auction"
        state.to_act = order[0]

    def round_two_suits(self, state: State) -> list[str]:
        """Suits that may be named in round 2 (rules/bolot.md §4, option second_round_other_suit)."""
        turned = suit_of(state.turned or "")
        if state.options.get("second_round_other_suit", True):
            return [s for s in self.table.suits if s != turned]
        return list(self.table.suits)

    def auction_round(self, state: State) -> int:
        """1 until every seat has passed once, then 2."""
        return 1 if len(state.auction) < self.players else 2

    def auction_actions(self, state: State) -> list[Action]:
        if self.auction_round(state) == 1:
            return [{"type": "take"}, {"type": "pass"}]
        actions: list[Action] = [{"type": "take", "suit": s} for s in self.round_two_suits(state)]
        return actions + [{"type": "pass"}]

    def do_auction(self, state: State, action: ActionIn) -> None:
        seat = state.to_act
        assert seat is not None
        rnd = self.auction_round(state)
        suit: str | None  # the allowed check below leaves only a suit
        kind = action.get("type")
        if kind == "pass":
            state.auction.append({"seat": seat, "type": "pass", "round": rnd})
            if len(state.auction) == 2 * self.players:
                self.void_deal(state)
            else:
                state.to_act = self.next_seat(seat)
            return
        if kind != "take":
            raise IllegalAction("take_or_pass")
        if rnd == 1:
            if "suit" in action and action["suit"] != suit_of(state.turned or ""):
                raise IllegalAction("first_round_turned_suit")
            suit = suit_of(state.turned or "")
        else:
            suit = action.get("suit")
            allowed = self.round_two_suits(state)
            if suit not in allowed:
                raise IllegalAction("second_round_suits", suits=list(allowed))
        state.auction.append({"seat": seat, "type": "take", "suit": suit, "round": rnd})
        state.contract = {
            "trump": suit,
            "taker": seat,
            "taker_team": self.team_of(seat),
            "round": rnd,
            "turned": state.turned,
        }
        self.complete_deal(state, seat)

    def complete_deal(self, state: State, taker: int) -> None:
        """The taker adds the turned card; from the eldest each takes 3 from the stock, the taker 2."""
        state.hands[taker].append(state.turned)  # type: ignore[arg-type]
        state.turned = None
        stock = state.stock
        i = 0
        for seat in self.seat_order(state):
            n = 2 if seat == taker else 3
            state.hands[seat].extend(stock[i : i + n])
            i += n
        state.stock = stock[i:]
        self.begin_play(state, self.eldest(state))
