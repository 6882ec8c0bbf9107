"""Invariants over random legal playouts of belote-3p, 24 and 32 cards (hypothesis picks
the seeds):

* the cards are conserved at every step (hands, tricks, stock, the retourne on the table
  with 32 cards; tests/rules/invariants.py);
* legal_actions is never empty while a seat is to act, until the match ends;
* points in play (rules/belote-3p.md §7): 24 cards, 152 card points in 8 tricks, plus 10
  (the dix de der) or 100 (a capot) in bonuses; 32 cards, 9 tricks and 85 to 152 card
  points; made or scored, each player scores his total; dedans, the taker keeps his belote
  and the two defenders the whole pot, in halves differing by at most 1;
* observe(state, seat) never names a card of another seat's hidden hand or of the stock;
* the match ends with a single highest score at or over the target (§9).
"""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules import apply, is_over, legal_actions, needs_deal, new_deck, new_game, to_act
from tests.rules.invariants import assert_cards_conserved, assert_no_leak, shown_cards_of

GAME = "belote-3p"


def check_deal(entry, options):
    summary, detail, points = entry["summary"], entry["detail"], entry["points"]
    long = options.get("deal") == "32"
    cp, tricks = summary["card_points"], summary["tricks"]
    assert sum(tricks) == (9 if long else 8)
    assert (85 <= sum(cp) <= 152) if long else sum(cp) == 152
    capot = any(t == 0 for t in tricks)
    assert sum(detail["bonus"]) == (100 if capot else 10)
    if entry["outcome"] in ("made", "scored"):
        assert points == detail["totals"]
    else:
        t = summary["contract"]["taker"]
        assert points[t] == detail["belote"][t]
        pot = sum(cp) + sum(detail["bonus"]) + sum(detail["valid_declarations"])
        assert detail["pot"] == pot
        a, b = (t + 1) % 3, (t + 2) % 3
        shares = [points[a] - detail["belote"][a], points[b] - detail["belote"][b]]
        assert sum(shares) == pot and 0 <= shares[0] - shares[1] <= 1


def playout(seed, options, check_leaks, deals=None):
    rng = random.Random(seed)
    state = new_game(GAME, dict(options, target=1000), dealer=rng.randrange(3))
    while not is_over(state):
        if needs_deal(state):
            if deals is not None and state.deal_no >= deals:
                break
            state = apply(state, {"type": "deal", "deck": new_deck(GAME, rng, options)})
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
            check_deal(state.sheet[-1], options)
    return state


OPTIONS = st.sampled_from(
    [{}, {"deal": "32"}, {"contract": False}, {"declarations": False, "must_undertrump": False}]
)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), OPTIONS)
def test_one_deal_conserves_cards_and_never_leaks(seed, options):
    playout(seed, options, check_leaks=True, deals=1)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32), OPTIONS)
def test_whole_match(seed, options):
    state = playout(seed, options, check_leaks=False)
    assert is_over(state) and legal_actions(state) == []
    assert [sum(e["points"][i] for e in state.sheet) for i in range(3)] == state.scores
    top = max(state.scores)
    assert top >= 1000 and state.scores.count(top) == 1
    assert state.winner == state.scores.index(top)
