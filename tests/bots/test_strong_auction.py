"""The strong bot's searched calls (app/bots/strong_auction.py): a drawn deal weighs by
the calls already made, the paired gain's arithmetic, and the search's guard."""

from __future__ import annotations

import random

import pytest

from app.bots import ARENA_NAMES, choose, heuristic_for, strong
from app.bots.auction_model import MISMATCH
from app.bots.strong_auction import (
    MAX_CALLS,
    MIN_SAMPLES,
    _replayed,
    evaluate_calls,
    margin,
    paired_gain,
    shortlist,
)
from app.rules import apply, new_deck, new_game, observe, to_act
from app.rules.cards import rank_of, suit_of
from app.rules.state import State


def _two_passes(deck: list[str]) -> State:
    """Belote dealt by seat 0 from ``deck``: seats 1 and 2 passed, seat 3 to call (the
    eldest hand, the seat after the dealer, speaks first: rules/belote.md §1, §4)."""
    state = apply(new_game("belote", {}, dealer=0), {"type": "deal", "deck": deck})
    for seat in (1, 2):
        assert to_act(state) == seat
        state = apply(state, {"type": "pass"})
    assert to_act(state) == 3
    return state


def _holding(hand: list[str], turned: str) -> set[str]:
    """The ranks of the turned card's suit in ``hand`` with the turned card."""
    return {rank_of(c) for c in [*hand, turned] if suit_of(c) == suit_of(turned)}


def _no_trump_no_ace(hand: list[str], turned: str) -> bool:
    return all(suit_of(c) != suit_of(turned) and rank_of(c) != "A" for c in hand)


def _deal_where(seat1_strong: bool) -> list[str]:
    """A Belote deck in which seat 2 holds no card of the turned suit and no ace (a pass
    for any player), and seat 1 holds, with the turned card, the jack, the nine and the
    ace of its suit (45 trump points: a take for any player) or, with
    ``seat1_strong=False``, no card of that suit and no ace either."""
    for seed in range(20_000):
        deck = new_deck("belote", random.Random(seed))
        state = apply(new_game("belote", {}, dealer=0), {"type": "deal", "deck": deck})
        turned = observe(state, None)["turned"]
        one, two = observe(state, 1)["hand"], observe(state, 2)["hand"]
        if not _no_trump_no_ace(two, turned):
            continue
        if seat1_strong and {"J", "9", "A"} <= _holding(one, turned):
            return deck
        if not seat1_strong and _no_trump_no_ace(one, turned):
            return deck
    raise AssertionError("no such deal in the seeds tried")


def test_a_drawn_deal_weighs_less_for_each_call_it_contradicts() -> None:
    heuristic = heuristic_for("belote")
    rng = random.Random(1)
    # seat 1 passed holding the jack, nine and ace of trumps: a call the heuristic would
    # not make from that hand; seat 2's pass with nothing agrees
    strong_deck = _deal_where(seat1_strong=True)
    view = observe(_two_passes(strong_deck), 3)
    replayed = _replayed(view, strong_deck, heuristic, rng)
    assert replayed is not None
    position, weight = replayed
    assert to_act(position) == 3 and weight == pytest.approx(MISMATCH)
    # both passes agree with hands of nothing: the deal keeps its whole weight
    weak_deck = _deal_where(seat1_strong=False)
    view = observe(_two_passes(weak_deck), 3)
    replayed = _replayed(view, weak_deck, heuristic, rng)
    assert replayed is not None and replayed[1] == 1.0


def test_the_paired_gain_of_two_calls_deal_by_deal() -> None:
    # differences 2, 4, 6: mean 4; variance 8/3 over three deals; standard error
    # sqrt((8/3) / 2) = sqrt(4/3)
    mean, se = paired_gain([3.0, 5.0, 7.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]) or (0, 0)
    assert mean == pytest.approx(4.0) and se == pytest.approx((4 / 3) ** 0.5)
    # the first deal twice as likely: mean (2*2 + 4 + 6) / 4 = 3.5; variance
    # (2 * 1.5**2 + 0.5**2 + 2.5**2) / 4 = 2.75; effective deals 4**2 / 6 = 8/3
    mean, se = paired_gain([3.0, 5.0, 7.0], [1.0, 1.0, 1.0], [2.0, 1.0, 1.0]) or (0, 0)
    assert mean == pytest.approx(3.5) and se == pytest.approx((2.75 / (8 / 3 - 1)) ** 0.5)
    # one deal, or weight on one deal only, says nothing about the error
    assert paired_gain([3.0], [1.0], [1.0]) is None
    assert paired_gain([3.0, 5.0], [1.0, 1.0], [1.0, 0.0]) is None


def test_few_drawn_deals_keep_the_heuristics_call() -> None:
    """Below MIN_SAMPLES deals no call overrides the heuristic's, whatever their results."""
    deck = _deal_where(seat1_strong=False)
    view = observe(_two_passes(deck), 3)
    heuristic = heuristic_for("belote")
    call = evaluate_calls(view, random.Random(5), heuristic, 10.0, MIN_SAMPLES - 1, 400)
    assert call == heuristic(view, random.Random(0))


def test_contrees_forty_opening_calls_are_cut_to_a_shortlist() -> None:
    """The eldest hand's first call in Contrée: pass, or a bid from 80 to 160 in steps of 10
    or capot, in any of the four suits (rules/contree.md §4; no bid yet, so no coinche):
    1 + 4 x 10 calls. Judged: pass, the 80 of each suit, and the heuristic's own call."""
    state = apply(
        new_game("contree", {}, dealer=0),
        {"type": "deal", "deck": new_deck("contree", random.Random(2))},
    )
    view = observe(state, to_act(state))
    actions = view["legal_actions"]
    assert len(actions) == 41 > MAX_CALLS
    eighties = [{"type": "bid", "value": 80, "suit": s} for s in "SHDC"]
    assert all(b in actions for b in eighties)
    assert shortlist(actions, {"type": "pass"}) == [
        {"type": "pass"},
        *(a for a in actions if a in eighties),
    ]
    raised = {"type": "bid", "value": 120, "suit": "H"}
    picked = shortlist(actions, raised)
    assert len(picked) == 6 and raised in picked and {"type": "pass"} in picked
    # later, over a standing 150: the next number, 160, is each suit's lowest bid
    over = [
        {"type": "pass"},
        *({"type": "bid", "value": v, "suit": s} for v in (160, "capot") for s in "SH"),
        {"type": "coinche"},
    ]
    assert shortlist(over, {"type": "pass"}) == [
        {"type": "pass"},
        {"type": "bid", "value": 160, "suit": "S"},
        {"type": "bid", "value": 160, "suit": "H"},
        {"type": "coinche"},
    ]


@pytest.mark.parametrize("game", ["belote", "bolot", "contree", "botifarra", "bridge-belote"])
def test_the_searched_call_is_one_of_the_legal_calls(game: str) -> None:
    assert "strong-bid" in ARENA_NAMES
    rng = random.Random(7)
    calls = 0
    for seed in range(4):
        state = new_game(game, {}, dealer=seed % 4)
        state = apply(state, {"type": "deal", "deck": new_deck(game, random.Random(seed))})
        while state.phase == "auction" and calls < 12:
            view = observe(state, to_act(state))
            action = strong.choose(view, rng, samples=MIN_SAMPLES, auction=True)
            assert action in view["legal_actions"]
            state = apply(state, action)
            calls += 1
    assert calls > 0
    # the heuristic's calls without the search
    state = apply(new_game(game, {}, dealer=0), {"type": "deal", "deck": new_deck(game, rng)})
    view = observe(state, to_act(state))
    assert choose("strong-dd", view, random.Random(3)) == heuristic_for(game)(view, rng)


def test_margin_is_the_own_points_less_the_other_sides_mean() -> None:
    # two teams: 102 against 60 is +42 for team 0 and -42 for team 1
    assert margin([102, 60], 0) == 42
    assert margin([102, 60], 1) == -42
    # Belote for three, each for himself (rules/belote-3p.md §7): 50 against the mean of
    # 80 and 32 (56) is -6; the third player, 32 against 65, is -33. Before, seat 2 of
    # three was judged against itself (0 whatever the deal) and seat 0 against seat 1 only
    assert margin([50, 80, 32], 0) == -6
    assert margin([50, 80, 32], 2) == -33
