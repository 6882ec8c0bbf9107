"""Invariants over random legal playouts of Bridge-Belote (hypothesis picks seeds and options).

* the 32 cards are conserved at every step (tests/rules/invariants.py);
* legal_actions is never empty while a seat is to act, until the match ends,
  and apply refuses every card it does not list;
* a deal's game points add up: 16 (suit) / 26 (AT, NT) plus declarations and
  belots ÷ 10, plus 9 for a capot, times the multiplier; points written plus
  points left hanging minus points carried in equal that total;
* hanging points carry from one scored deal to the next, across passed-out deals;
* observe(state, seat) never names a card of another seat's hand or of the undealt cards
  (invariants.py; no card of a hand is public).
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules import (
    IllegalAction,
    apply,
    is_over,
    legal_actions,
    needs_deal,
    new_deck,
    new_game,
    to_act,
)
from tests.rules.invariants import assert_cards_conserved, assert_no_leak

GAME = "bridge-belote"
BASE = {"suit": 16, "all_trumps": 26, "no_trumps": 26}
OPTIONS = st.fixed_dictionaries(
    {
        name: st.booleans()
        for name in (
            "burgas_contra_lock",
            "recontra_closes_auction",
            "carre_kills_quint",
            "eight_card_run_120",
            "capot_multiplied_by_contra",
            "no_exit_on_capot",
        )
    }
)


def assert_deal_adds_up(entry, carried_in) -> None:
    d = entry["detail"]
    kind = entry["contract"]["kind"]
    assert d["carried_in"] == carried_in
    bonus = sum(d["declarations"]) + sum(d["belote"])
    raw_expected = {"suit": 162, "all_trumps": 258, "no_trumps": 260}[kind] + bonus
    raw_expected += 90 if d["capot"] is not None else 0
    assert sum(d["raw"]) == raw_expected
    assert bonus % 10 == 0
    total = BASE[kind] + bonus // 10 + (9 if d["capot"] is not None else 0)
    assert d["deal_total"] == total
    assert sum(entry["points"]) + entry["carried_out"] - carried_in == total * d["multiplier"]
    if entry["outcome"] != "hanging":
        assert entry["carried_out"] == 0


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
    carried = 0
    while not is_over(state):
        if needs_deal(state):
            if deals is not None and state.deal_no >= deals:
                break
            state = apply(state, {"type": "deal", "deck": new_deck(GAME, rng)})
            continue
        assert_cards_conserved(state)
        assert to_act(state) is not None
        actions = legal_actions(state)
        assert actions, "a seat is to act but has no legal action"
        if check_every_step:
            assert_no_leak(state)
            assert_only_listed_cards_accepted(state, actions)
        passes = [a for a in actions if a["type"] == "pass"]
        action = passes[0] if passes and rng.random() < 0.6 else rng.choice(actions)
        before = len(state.sheet)
        state = apply(state, action)
        if len(state.sheet) > before:
            entry = state.sheet[-1]
            if entry["void"]:
                assert entry["carried_out"] == carried == state.carried
            else:
                assert_deal_adds_up(entry, carried)
                carried = entry["carried_out"]
    return state


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32), OPTIONS)
def test_one_deal_conserves_cards_lists_exactly_the_legal_cards_and_never_leaks(seed, options):
    playout(seed, options, check_every_step=True, deals=1)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), OPTIONS)
def test_whole_match_reaches_a_winner_and_the_sheet_adds_up(seed, options):
    state = playout(seed, dict(options, target=151), check_every_step=False)
    assert is_over(state)
    a, b = state.scores
    assert max(a, b) >= 151 and a != b
    assert state.winner == (0 if a > b else 1)
    assert legal_actions(state) == [] and to_act(state) is None
    assert [sum(e["points"][i] for e in state.sheet) for i in (0, 1)] == state.scores
    if options["no_exit_on_capot"]:
        played = [e for e in state.sheet if not e["void"]]
        assert played[-1]["detail"]["capot"] is None
