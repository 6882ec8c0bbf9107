"""Invariants over random legal playouts of Bolot (hypothesis picks the seeds).

* the 32 cards are conserved at every step;
* legal_actions is never empty while a seat is to act, until the match ends;
* a deal's two scores add up to the points in play (default tie rule);
* observe(state, seat) never names a card of another seat's hidden hand or of the stock.
"""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules import apply, is_over, legal_actions, needs_deal, new_deck, new_game, observe, to_act
from app.rules.bolot import TABLE

DECK = set(TABLE.deck)


def cards_in_play(state) -> list[str]:
    cards = [c for h in state.hands for c in h]
    cards += [c for t in state.tricks for _, c in t["cards"]]
    cards += [c for _, c in state.trick] + list(state.stock)
    if state.turned:
        cards.append(state.turned)
    return cards


def public_cards_of(state, seat: int) -> set[str]:
    """Cards of ``seat``'s hand everyone may know: shown declarations, the taken turned card."""
    known = set()
    if state.tricks and state.declared and state.declared[seat]:
        from app.rules.declarations import combination_cards

        for combo in state.declared[seat]:
            known.update(combination_cards(combo, TABLE))
    if state.contract and state.contract["taker"] == seat:
        known.add(state.contract["turned"])
    return known


def assert_no_leak(state) -> None:
    for viewer in [None, 0, 1, 2, 3]:
        view = observe(state, viewer)
        view.pop("last_deal")  # a finished deal's record is public
        view.pop("sheet")
        text = json.dumps(view)
        hidden = set(state.stock)
        for other in range(4):
            if other != viewer:
                hidden |= set(state.hands[other]) - public_cards_of(state, other)
        for card in hidden:
            assert f'"{card}"' not in text, (viewer, card)


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
        assert sorted(cards_in_play(state)) == sorted(DECK)
        assert to_act(state) is not None
        actions = legal_actions(state)
        assert actions, "a seat is to act but has no legal action"
        if check_leaks:
            assert_no_leak(state)
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
