"""The contrée heuristic (app/bots/contree.py): it bids, coinches and surcoinches from its
hand, not at random, and it wins against the random level."""

from __future__ import annotations

import random

from app.bots import choose
from app.bots.contree import defence_estimate, suit_estimate
from app.rules import apply, is_over, legal_actions, needs_deal, new_deck, new_game, observe, to_act


def dealt_with(hand: list[str], calls: list[dict] | None = None):
    """A deal with dealer 3 in which seat 0 (the eldest hand: deck 0-2, 12-13, 20-22,
    rules/contree.md §3) holds ``hand``, after ``calls``."""
    rest = iter(c for c in new_deck("contree", random.Random(0)) if c not in hand)
    placed = dict(zip([0, 1, 2, 12, 13, 20, 21, 22], hand, strict=True))
    deck = [placed.get(i) or next(rest) for i in range(32)]
    state = apply(new_game("contree", {}, 3), {"type": "deal", "deck": deck})
    for a in calls or []:
        state = apply(state, a)
    return state


def view_with(hand: list[str], calls: list[dict] | None = None) -> dict:
    """The view of the seat to act after ``calls``, seat 0 holding ``hand``."""
    state = dealt_with(hand, calls)
    return observe(state, to_act(state))


STRONG_HEARTS = ["JH", "9H", "AH", "TH", "KH", "AS", "AC", "7D"]
WEAK = ["7H", "8S", "9S", "7C", "8C", "8D", "9D", "QD"]


def test_a_strong_hand_bids_its_suit_at_its_value() -> None:
    # J 9 A 10 K of hearts (20 + 14 + 11 + 10 + 4 = 59, 5 trumps x 6 = 30) and two side aces
    # (22), plus 25 from a partner: 136, so a bid of 130 hearts.
    assert suit_estimate(STRONG_HEARTS, "H") == 25 + 59 + 30 + 22
    action = choose("heuristic", view_with(STRONG_HEARTS), random.Random(1))
    assert action == {"type": "bid", "value": 130, "suit": "H"}


def test_a_weak_hand_passes() -> None:
    action = choose("heuristic", view_with(WEAK), random.Random(1))
    assert action == {"type": "pass"}


PASS = {"type": "pass"}


def test_the_opponents_bid_in_my_trumps_is_coinched() -> None:
    hand = ["JH", "9H", "AH", "7H", "AS", "AC", "AD", "7S"]
    # 20 + 14 + 11 + 0 in trumps, three side aces 33, and 25: 103 >= 162 - 100 + 20.
    assert defence_estimate(hand, "H") == 25 + 45 + 33
    state = dealt_with(hand, [PASS, {"type": "bid", "value": 100, "suit": "H"}, PASS, PASS])
    assert to_act(state) == 0
    assert choose("heuristic", observe(state, 0), random.Random(1)) == {"type": "coinche"}


def test_a_weak_hand_does_not_coinche() -> None:
    state = dealt_with(WEAK, [PASS, {"type": "bid", "value": 80, "suit": "S"}, PASS, PASS])
    assert to_act(state) == 0
    assert choose("heuristic", observe(state, 0), random.Random(1)) == {"type": "pass"}


def test_a_surcoinche_needs_a_hand_far_over_the_contract() -> None:
    # seat 0 bids 80 hearts with the strong hand (estimate 136 >= 80 + 40); seat 1 coinches.
    state = dealt_with(
        STRONG_HEARTS, [{"type": "bid", "value": 80, "suit": "H"}, {"type": "coinche"}, PASS, PASS]
    )
    assert to_act(state) == 0
    assert choose("heuristic", observe(state, 0), random.Random(1)) == {"type": "surcoinche"}


def test_heuristic_matches_against_random_end_legally_and_mostly_won() -> None:
    rng = random.Random(5)
    won = 0
    for m in range(6):
        state = new_game("contree", {"target": 1000}, m % 4)
        while not is_over(state):
            if needs_deal(state):
                state = apply(state, {"type": "deal", "deck": new_deck("contree", rng)})
                continue
            seat = to_act(state)
            level = "heuristic" if seat % 2 == m % 2 else "random"
            action = choose(level, observe(state, seat), rng)
            assert action in legal_actions(state)
            state = apply(state, action)
        won += state.winner == m % 2
    assert won >= 5
