"""The heuristic bot for Bridge-Belote (rules/bridge-belote.md), from its seat's view only.

* auction: value the 5 cards for each contract (a suit, No Trumps, All Trumps)
  and bid the best one when it clears that contract's threshold and beats the
  standing bid; support a partner's bid rather than outbid it; double rarely
  (only with the top trumps of the opponents' contract), redouble almost never;
* declarations: declare the choice worth the most points;
* play: lead masters (the J in All Trumps, the trump J for the declarers, aces
  otherwise), win a trick as cheaply as possible when an opponent holds it,
  give points to a partner who holds it, otherwise throw the cheapest card;
  always announce a belot.
"""

from __future__ import annotations

import random

from app.rules import GAMES
from app.rules.bridge_belote_contract import ALL_TRUMPS
from app.rules.bridge_belote_scoring import FOUR_POINTS, run_points
from app.rules.cards import rank_of, suit_of
from app.rules.core import TrickGame
from app.rules.types import Action, View

GAME = "bridge-belote"
#: Hand value (see :func:`contract_values`) a contract needs before the bot bids it.
THRESHOLD = {"suit": 42, "NT": 38, "AT": 58}
#: Extra value needed to take a partner's bid away from him.
OVER_PARTNER = 18
#: Extra value needed, in the opponents' contract, to double it.
DOUBLE_MARGIN = 0


def contract_values(hand: list[str]) -> dict[str, int]:
    """A rough value of ``hand`` (5 or 8 cards) for each bid: trump points and length in the
    suit, side aces; top cards of every suit in All Trumps; aces and guarded tens in No Trumps."""
    table = GAMES[GAME].table
    values: dict[str, int] = {}
    for trump in table.suits:
        v = 0
        for c in hand:
            r = rank_of(c)
            if suit_of(c) == trump:
                v += table.trump_points[r] + 5
            elif r == "A":
                v += 10
        values[trump] = v
    values["AT"] = sum(
        table.trump_points[rank_of(c)] for c in hand if rank_of(c) in ("J", "9", "A")
    )
    held = set(hand)
    values["NT"] = sum(
        11 if rank_of(c) == "A" else 7 if rank_of(c) == "T" and "A" + suit_of(c) in held else 0
        for c in hand
    )
    return values


def _threshold(bid: str) -> int:
    return THRESHOLD.get(bid, THRESHOLD["suit"])


def _choose_call(view: View, actions: list[Action]) -> Action:
    seat, hand = view["seat"], view["hand"]
    assert seat is not None and hand is not None  # the bidder's own view
    standing = view.get("bidding") or {}
    values = contract_values(hand)
    mine = seat % 2
    partner_holds = standing.get("bid") is not None and standing["bidder"] % 2 == mine
    if {"type": "double"} in actions and standing.get("bid"):
        theirs = standing["bid"]
        if values[theirs] >= _threshold(theirs) + DOUBLE_MARGIN and _holds_top(hand, theirs):
            return {"type": "double"}
    if {"type": "redouble"} in actions and values[standing["bid"]] >= _threshold(
        standing["bid"]
    ) + 30:
        return {"type": "redouble"}
    extra = OVER_PARTNER if partner_holds else 0
    bids = [a for a in actions if a["type"] == "bid"]
    best = max(bids, key=lambda a: values[a["contract"]] - _threshold(a["contract"]), default=None)
    if best is not None and values[best["contract"]] >= _threshold(best["contract"]) + extra:
        return best
    return {"type": "pass"}


def _holds_top(hand: list[str], bid: str) -> bool:
    """The opponents' contract is in danger: we hold its J and 9 (a suit), two J (AT), three aces (NT)."""
    ranks = [rank_of(c) for c in hand]
    if bid == "AT":
        return ranks.count("J") >= 2
    if bid == "NT":
        return ranks.count("A") >= 3
    return "J" + bid in hand and "9" + bid in hand


def _declaration_points(action: Action) -> int:
    return sum(
        FOUR_POINTS[c["rank"]] if c["kind"] == "four" else run_points(c["length"], False)
        for c in action["combinations"]
    )


def _choose_card(view: View, actions: list[Action]) -> Action:
    game = GAMES[GAME]
    contract = view["contract"]
    trump = game.trump(contract)
    plays: dict[str, Action] = {}
    for a in actions:  # the belot form of a card when offered
        if a["card"] not in plays or a.get("belote"):
            plays[a["card"]] = a
    cards = list(plays)
    trick = [t["card"] for t in view["trick"]]

    def points(c: str) -> int:
        return game.table.points(c, trump)

    def is_trump(c: str) -> bool:
        return trump == ALL_TRUMPS or suit_of(c) == trump

    if not trick:
        return plays[_lead(game, view, cards, trump)]
    led = suit_of(trick[0])
    win = game.winning_index(trick, contract)
    partner_holds = win == len(trick) - 2
    last = len(trick) == 3
    if partner_holds and (last or _is_master(game, trick[win], led, trump)):
        keep = [c for c in cards if not (is_trump(c) and rank_of(c) in ("J", "9"))] or cards
        return plays[max(keep, key=points)]
    if not partner_holds:
        winners = [c for c in cards if game.winning_index(trick + [c], contract) == len(trick)]
        if winners:
            return plays[min(winners, key=lambda c: (game.card_power(c, led, trump), points(c)))]
    return plays[min(cards, key=lambda c: (points(c), is_trump(c), game.card_power(c, led, trump)))]


def _is_master(game: TrickGame, card: str, led: str, trump: str | None) -> bool:
    """A card no other card can beat in this trick: the J of trumps, or the suit's top card."""
    if trump == ALL_TRUMPS or suit_of(card) == trump:
        return rank_of(card) == "J"
    return rank_of(card) == "A" and (trump is None or suit_of(card) == led)


def _lead(game: TrickGame, view: View, cards: list[str], trump: str | None) -> str:
    contract, seat = view["contract"], view["seat"]
    assert contract is not None and seat is not None  # the bot's own view in the play
    declarers = contract["declarer_team"] == seat % 2
    if trump == ALL_TRUMPS:
        jacks = [c for c in cards if rank_of(c) == "J"]
        if jacks:
            return jacks[0]
    elif trump is not None and declarers and "J" + trump in cards:
        return "J" + trump
    aces = [c for c in cards if rank_of(c) == "A" and suit_of(c) != trump]
    if aces and trump != ALL_TRUMPS:
        return aces[0]
    plain = [c for c in cards if suit_of(c) != trump] or cards
    return min(
        plain, key=lambda c: (game.table.points(c, trump), game.card_power(c, suit_of(c), trump))
    )


def choose(view: View, rng: random.Random) -> Action:
    """The heuristic action for ``view`` (the bot's own seat's observe()); always one of its
    ``legal_actions``. Raises ValueError when the seat has nothing to do."""
    actions = view["legal_actions"]
    if not actions:
        raise ValueError("this seat has no action to take")
    kind = actions[0]["type"]
    if view["phase"] == "auction":
        return _choose_call(view, actions)
    if kind == "declare":
        return max(actions, key=_declaration_points)
    if kind == "play":
        return _choose_card(view, actions)
    return rng.choice(actions)
