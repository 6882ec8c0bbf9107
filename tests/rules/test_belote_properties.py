"""Invariants over random legal playouts of belote and belote-2p (hypothesis picks the seeds).

* the 32 cards are conserved at every step (2p: hands, tricks, stock, retourne, bottom card;
  tests/rules/invariants.py);
* legal_actions is never empty while a seat is to act, until the match ends;
* 4p: 152 card points + the 10 of the last trick = 162 (252 on a capot) in every deal, and
  the held *litige* points pass from one scored deal to the next, over void deals;
* 2p: 9 tricks, 18 to 146 card points, each player scores his own total;
* observe(state, seat) never names a card of another seat's hidden hand or of the stock
  (invariants.py; shown declarations, the taken or exchanged turned card are public).
"""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules import apply, is_over, legal_actions, needs_deal, new_deck, new_game, observe, to_act
from tests.rules.invariants import assert_cards_conserved, assert_no_leak, shown_cards_of


def check_four_player_deal(entry, carried_before):
    summary, detail, points = entry["summary"], entry["detail"], entry["points"]
    assert sum(summary["card_points"]) == 152 and sum(summary["tricks"]) == 8
    capot = detail["capot"]
    base = 252 if capot is not None else 162
    assert sum(summary["card_points"]) + (100 if capot is not None else 10) == base
    assert summary["carried_in"] == carried_before
    t = summary["contract"]["taker_team"]
    if entry["outcome"] == "made":
        assert sum(points) == sum(detail["totals"]) + carried_before
    elif entry["outcome"] == "failed":
        assert points[1 - t] >= 162 + carried_before and points[t] == detail["belote"][t]
    else:
        assert points[t] == 0 and entry["carried_out"] == carried_before + detail["totals"][t]


def check_two_player_deal(entry):
    summary, detail = entry["summary"], entry["detail"]
    assert sum(summary["tricks"]) == 9 and 18 <= sum(summary["card_points"]) <= 146
    assert entry["points"] == detail["totals"]


def playout(
    game: str, seed: int, check_leaks: bool, deals: int | None = None, claim_rate: float = 0.02
):
    rng = random.Random(seed)
    players = 4 if game == "belote" else 2
    state = new_game(game, {"target": 1000}, dealer=rng.randrange(players))
    carried = 0
    while not is_over(state):
        if needs_deal(state):
            if deals is not None and state.deal_no >= deals:
                break
            state = apply(state, {"type": "deal", "deck": new_deck(game, rng)})
            continue
        assert_cards_conserved(state)
        assert to_act(state) is not None
        actions = legal_actions(state)
        assert actions, "a seat is to act but has no legal action"
        if check_leaks:
            assert_no_leak(state, shown_cards_of)
        plays = [a for a in actions if a["type"] != "claim"]
        action = rng.choice(actions if not plays or rng.random() < claim_rate else plays)
        before = len(state.sheet)
        state = apply(state, action)
        if len(state.sheet) > before:
            entry = state.sheet[-1]
            if entry["void"]:
                assert entry["carried_out"] == carried
            elif game == "belote":
                check_four_player_deal(entry, carried)
                carried = entry["carried_out"]
            elif entry["outcome"] != "claim":
                check_two_player_deal(entry)
    return state


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32))
def test_belote_one_deal_conserves_cards_and_never_leaks(seed):
    playout("belote", seed, check_leaks=True, deals=1)


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32))
def test_belote_2p_one_deal_conserves_cards_and_never_leaks(seed):
    playout("belote-2p", seed, check_leaks=True, deals=1, claim_rate=0.0)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32))
def test_belote_whole_match(seed):
    state = playout("belote", seed, check_leaks=False)
    assert is_over(state) and legal_actions(state) == []
    a, b = state.scores
    assert max(a, b) >= 1000 and a != b and state.winner == (0 if a > b else 1)
    assert [sum(e["points"][i] for e in state.sheet) for i in (0, 1)] == state.scores
    assert observe(state, None)["held"] == 0


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32))
def test_belote_2p_whole_match(seed):
    state = playout("belote-2p", seed, check_leaks=False, claim_rate=0.01)
    assert is_over(state) and legal_actions(state) == []
    assert [sum(e["points"][i] for e in state.sheet) for i in (0, 1)] == state.scores
    last = state.sheet[-1]
    if last["outcome"] == "claim":
        claim = last["detail"]["claim"]
        assert state.winner == (claim["seat"] if claim["correct"] else 1 - claim["seat"])
        assert claim["correct"] == (claim["total"] >= 1000)
    else:
        a, b = state.scores
        assert max(a, b) >= 1000 and a != b and state.winner == (0 if a > b else 1)
