"""The heuristic bot for Belote contrée (rules/contree.md), from its seat's view only.

* auction: estimate, for each trump suit, the points the team can take (its own
  trumps and side aces, plus what a partner usually brings) and bid the best suit
  at that level, rounded down to ten, when it beats the standing bid; raise a
  partner's suit by ten for each ace or top trump held; coinche an opponents' bid
  only when the defence the hand promises leaves the takers short of it by a
  margin; surcoinche only a contract the hand beats by a wide margin; a capot
  only with an overwhelming hand; never the *générale*;
* declarations: the choice that uses the most cards;
* play: as the Belote family's heuristic (win cheaply, give points to a partner
  who holds the trick, lead masters, the takers lead their top trump).
"""

from __future__ import annotations

import random

from app.bots.belote_family import choose_card, choose_declaration
from app.rules import GAMES
from app.rules.cards import rank_of, suit_of
from app.rules.types import Action, View

GAME = "contree"
#: What a partner brings on average to a contract, in trick points.
PARTNER = 25
#: A trump's worth beyond its card points (length wins tricks).
TRUMP_LENGTH = 6
#: Side cards: an ace; a ten guarded by its ace.
SIDE_ACE, SIDE_TEN = 11, 6
#: The estimate needed to bid a capot.
CAPOT_AT = 200
#: How far below what the takers need the defence estimate may be and still coinche.
COINCHE_MARGIN = 20
#: How far over the contract the estimate must be to surcoinche.
SURCOINCHE_MARGIN = 40


def suit_estimate(hand: list[str], trump: str) -> int:
    """The trick points a team may expect with ``trump`` as trumps, from this hand: trump
    card points and length, side aces and guarded tens, and ``PARTNER``."""
    table = GAMES[GAME].table
    held = set(hand)
    value = PARTNER
    for c in hand:
        r, s = rank_of(c), suit_of(c)
        if s == trump:
            value += table.trump_points[r] + TRUMP_LENGTH
        elif r == "A":
            value += SIDE_ACE
        elif r == "T" and "A" + s in held:
            value += SIDE_TEN
    return value


def defence_estimate(hand: list[str], trump: str) -> int:
    """The trick points this hand may take against a contract in ``trump``: its trump honours
    when it holds three trumps or more, its side aces and guarded tens, and ``PARTNER``."""
    table = GAMES[GAME].table
    held = set(hand)
    trumps = [c for c in hand if suit_of(c) == trump]
    value = PARTNER
    if len(trumps) >= 3 or "J" + trump in held:
        value += sum(table.trump_points[rank_of(c)] for c in trumps)
    for c in hand:
        r, s = rank_of(c), suit_of(c)
        if s != trump and r == "A":
            value += SIDE_ACE
        elif s != trump and r == "T" and "A" + s in held:
            value += SIDE_TEN
    return value


def support(hand: list[str], trump: str) -> int:
    """A raise of a partner's bid in ``trump``: ten per side ace and per top trump (J, 9) held."""
    top = sum(1 for r in ("J", "9") if r + trump in hand)
    aces = sum(1 for c in hand if rank_of(c) == "A" and suit_of(c) != trump)
    return 10 * (top + aces)


def _rank(value: object) -> int:
    return value if isinstance(value, int) else 10_000


def _choose_call(view: View, actions: list[Action]) -> Action:
    seat, hand = view["seat"], view["hand"]
    assert seat is not None and hand is not None  # the bidder's own view
    standing = view.get("bidding") or {}
    bid, suit, bidder = standing.get("bid"), standing.get("suit"), standing.get("bidder")
    ours = bidder is not None and bidder % 2 == seat % 2
    kinds = {a["type"] for a in actions}
    need = 0 if bid is None else _rank(bid)
    if "surcoinche" in kinds and suit:
        if suit_estimate(hand, suit) + (support(hand, suit) if bidder != seat else 0) >= (
            need + SURCOINCHE_MARGIN
        ):
            return {"type": "surcoinche"}
    if "coinche" in kinds and suit:
        takers_need = 162 if bid == "capot" else need
        if defence_estimate(hand, suit) >= 162 - takers_need + COINCHE_MARGIN:
            return {"type": "coinche"}
    bids = {(a["value"], a["suit"]): a for a in actions if a["type"] == "bid"}
    if not bids:
        return {"type": "pass"}
    if ours:
        assert isinstance(suit, str)
        raised = need + support(hand, suit) if bidder != seat else 0
        level = min(raised // 10 * 10, 160)
        if level > need and (level, suit) in bids:
            return bids[(level, suit)]
        return {"type": "pass"}
    best = max(GAMES[GAME].table.suits, key=lambda s: suit_estimate(hand, s))
    estimate = suit_estimate(hand, best)
    if estimate >= CAPOT_AT and ("capot", best) in bids:
        return bids[("capot", best)]
    level = min(estimate // 10 * 10, int(view["options"].get("max_bid") or 160))
    if level >= 80 and (level, best) in bids:
        return bids[(level, best)]
    return {"type": "pass"}


def choose(view: View, rng: random.Random) -> Action:
    """The heuristic action for ``view`` (the bot's own seat's observe()); always one of its
    ``legal_actions``. Raises ValueError when the seat has nothing to do."""
    actions = view["legal_actions"]
    if not actions:
        raise ValueError("this seat has no action to take")
    game = GAMES[view["game"]]
    if view["phase"] == "auction":
        return _choose_call(view, actions)
    if actions[0]["type"] == "declare":
        return choose_declaration(game, actions)
    if any(a["type"] == "play" for a in actions):
        return choose_card(game, view, actions)
    return rng.choice(actions)
