"""Invariants over random legal playouts of Bolot (hypothesis picks the seeds).

* the 32 cards are conserved at every step (tests/rules/invariants.py);
* legal_actions is never empty while a seat is to act, until the match ends;
* a deal's two scores add up to the points in play (default tie rule);
* observe(state, seat) never names a card of another seat's hidden hand or of the stock
  (invariants.py; shown declarations and the taken turned card are public).
"""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules import apply, is_over, legal_actions, needs_deal, new_deck, new_game, to_act
from tests.rules.invariants import assert_cards_conserved, assert_no_leak, shown_cards_of


def playout(seed: int, check_leaks: bool, deals: int | None = None):
    rng = random.Random(seed)
    state = new_game("bolot", {"target": 1000}, dealer=rng.randrange(4))
    steps = 0
    while not is_over(state):
        if needs_deal(state):
            if deals is not None and state.deal_no >= deals:
                break
            state = apply(state, {"type": "deal", "deck": new_deck("bolot", rng)})
            continue
        assert_cards_conserved(state)
        assert to_act(state) is not None
        actions = legal_actions(state)
        assert actions, "a seat is to act but has no legal action"
        if check_leaks:
            assert_no_leak(state, shown_cards_of)
        before = len(state.sheet)
        state = apply(state, rng.choice(actions))
        if len(state.sheet) > before and not state.sheet[-1]["void"]:
            entry = state.sheet[-1]
            detail = entry["detail"]
            assert sum(detail["card_points"]) == 152
            assert sum(entry["points"]) == detail["points_in_play"]
            assert detail["points_in_play"] % 2 == 0
            assert detail["points_in_play"] == sum(detail["totals"])
        steps += 1
    return state, steps


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32))
def test_one_deal_conserves_cards_and_never_leaks(seed):
    playout(seed, check_leaks=True, deals=1)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32))
def test_whole_match_reaches_a_winner_with_points_in_play_conserved(seed):
    state, _ = playout(seed, check_leaks=False)
    assert is_over(state)
    a, b = state.scores
    assert max(a, b) >= 1000 and a != b
    assert state.winner == (0 if a > b else 1)
    assert legal_actions(state) == []
    # the sheet adds up to the match scores
    assert [sum(e["points"][i] for e in state.sheet) for i in (0, 1)] == state.scores
