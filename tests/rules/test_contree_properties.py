"""Invariants over random legal playouts of Belote contrée (hypothesis picks seeds,
presets and options).

* the 32 cards are conserved at every step (tests/rules/invariants.py);
* legal_actions is never empty while a seat is to act, and apply refuses every card it
  does not list;
* observe never names a card of another seat's hand (declared cards are public once
  trick 1 is over, rules/belote.md §5);
* the points in play (rules/contree.md §2, §7): the trick points add up to 162, or to
  ``capot_points`` when one team took every trick; the sheet adds up to the scores;
* a whole match ends with a winner at the target (§9).
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules import (
    GAMES,
    IllegalAction,
    apply,
    is_over,
    legal_actions,
    needs_deal,
    new_deck,
    new_game,
)
from app.rules.declarations import combination_cards
from tests.rules.invariants import assert_cards_conserved, assert_no_leak

GAME = "contree"
OPTIONS = st.fixed_dictionaries(
    {
        "preset": st.sampled_from(["ffb", "coinche", "colver"]),
        "coinche_freezes": st.booleans(),
        "generale": st.booleans(),
        "tie_rule": st.sampled_from(["fail", "litige"]),
        "must_undertrump": st.booleans(),
    }
)


def declared_cards(state, seat: int) -> set[str]:
    """The cards of ``seat``'s declarations, public once trick 1 is over."""
    if not (state.tricks and state.declared and state.declared[seat]):
        return set()
    return {
        c for combo in state.declared[seat] for c in combination_cards(combo, GAMES[GAME].table)
    }


def assert_only_listed_cards_accepted(state, actions) -> None:
    listed = {a["card"] for a in actions if a["type"] == "play"}
    if not listed:
        return
    for card in state.hands[state.to_act]:
        if card not in listed:
            with pytest.raises(IllegalAction):
                apply(state, {"type": "play", "card": card})


def playout(seed: int, options: dict, check_every_step: bool, deals: int | None = None):
    rng = random.Random(seed)
    state = new_game(GAME, options, dealer=rng.randrange(4))
    while not is_over(state):
        if needs_deal(state):
            if deals is not None and state.deal_no >= deals:
                break
            state = apply(state, {"type": "deal", "deck": new_deck(GAME, rng)})
            continue
        assert_cards_conserved(state)
        actions = legal_actions(state)
        assert actions, "a seat is to act but has no legal action"
        if check_every_step:
            assert_no_leak(state, declared_cards)
            assert_only_listed_cards_accepted(state, actions)
        passes = [a for a in actions if a["type"] == "pass"]
        action = passes[0] if passes and rng.random() < 0.7 else rng.choice(actions)
        before = len(state.sheet)
        state = apply(state, action)
        if len(state.sheet) > before and not state.sheet[-1]["void"]:
            entry = state.sheet[-1]
            tp = entry["detail"]["trick_points"]
            capot = entry["detail"]["capot"]
            assert sum(tp) == (state.options["capot_points"] if capot is not None else 162)
            assert sum(entry["summary"]["card_points"]) == 152
    return state


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), OPTIONS)
def test_one_deal_conserves_cards_lists_exactly_the_legal_cards_and_never_leaks(seed, options):
    playout(seed, options, check_every_step=True, deals=2)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), OPTIONS)
def test_whole_match_reaches_a_winner_and_the_sheet_adds_up(seed, options):
    state = playout(seed, dict(options, target=1000), check_every_step=False)
    assert is_over(state)
    a, b = state.scores
    assert a != b and max(a, b) >= 1000
    assert state.winner == (0 if a > b else 1)
    assert legal_actions(state) == []
    assert [sum(e["points"][i] for e in state.sheet) for i in (0, 1)] == state.scores
