"""Whole deals and whole games of Botifarra through the engine (rules/botifarra.md §6-9)."""

import json
import random

import pytest

from app.bots import choose
from app.rules import (
    IllegalAction,
    apply,
    is_over,
    legal_actions,
    needs_deal,
    new_deck,
    new_game,
    observe,
)
from tests.rules.test_botifarra_deal import PASS, act, deck_for

OROS = [f"{n}o" for n in range(1, 13)]
COPES = [f"{n}c" for n in range(1, 13)]
ESPASES = [f"{n}e" for n in range(1, 13)]
BASTOS = [f"{n}b" for n in range(1, 13)]

# W1 at the table: seat 0 leads the 7c; seat 1 holds 4c and 1c (and the 9b).
W1_HANDS = [
    ["7c", "2c", "3c", "5c", "6c", "8c", "1o", "2o", "3o", "4o", "5o", "6o"],
    ["4c", "1c", "9b", "7o", "8o", "9o", "10o", "11o", "12o", "1e", "2e", "3e"],
    ["9c", "10c", "11c", "12c", "4e", "5e", "6e", "7e", "8e", "9e", "10e", "11e"],
    ["12e", "1b", "2b", "3b", "4b", "5b", "6b", "7b", "8b", "10b", "11b", "12b"],
]


def w1_table(options=None):
    s = new_game("botifarra", options or {}, dealer=3)
    s = apply(s, {"type": "deal", "deck": deck_for(W1_HANDS, 3)})
    return act(s, {"type": "trump", "suit": "e"}, PASS, PASS, {"type": "play", "card": "7c"})


def test_a_rejected_card_names_the_rule_and_the_card():
    s = w1_table()
    assert legal_actions(s) == [{"type": "play", "card": "1c"}]
    with pytest.raises(IllegalAction) as exc:
        apply(s, {"type": "play", "card": "4c"})
    assert str(exc.value) == "you must beat the opponents' 7 of copes: you hold the 1 of copes"
    with pytest.raises(IllegalAction, match="you do not hold the 9c"):
        apply(s, {"type": "play", "card": "9c"})


def test_eastern_rejection_explains_rule_3():
    s = act(w1_table({"variant": "eastern"}), {"type": "play", "card": "1c"})
    # seat 2 (the leader's partner) holds the 9c, which beats the opponents' 1c
    with pytest.raises(
        IllegalAction, match="you must beat the opponents' 1 of copes: you hold the 9 of copes"
    ):
        apply(s, {"type": "play", "card": "10c"})
    s = act(s, {"type": "play", "card": "9c"})
    # seat 3, void in copes, must trump the opponents' 9c with his only trump (espases)
    assert {a["card"] for a in legal_actions(s)} == {"12e"}
    with pytest.raises(
        IllegalAction,
        match="you cannot follow copes, so you must trump to beat the opponents' 9 of copes",
    ):
        apply(s, {"type": "play", "card": "2b"})
    s = act(s, {"type": "play", "card": "12e"})
    assert observe(s, None)["last_trick"]["winner"] == 3 and observe(s, None)["to_act"] == 3


def test_eastern_lowest_card_message():
    hands = [
        ["9c", "2o", "3o", "4o", "5o", "6o", "7o", "8o", "9o", "10o", "11o", "12o"],
        ["1c", "12c", "4c", "1o", "1e", "2e", "3e", "4e", "5e", "6e", "7e", "8e"],
        ["2c", "3c", "5c", "6c", "7c", "8c", "10c", "11c", "9e", "10e", "11e", "12e"],
        BASTOS,
    ]
    s = new_game("botifarra", {"variant": "eastern"}, dealer=3)
    s = apply(s, {"type": "deal", "deck": deck_for(hands, 3)})
    s = act(s, {"type": "trump", "suit": "b"}, PASS, PASS, {"type": "play", "card": "9c"})
    with pytest.raises(IllegalAction) as exc:
        apply(s, {"type": "play", "card": "1c"})
    assert str(exc.value) == (
        "you cannot beat the opponents' 9 of copes, so you must follow with "
        "your lowest copes: you hold the 4 of copes"
    )


def _capot_table(doublings):
    """Seat 0 holds every oros; dealer 3 names oros: pair 0 takes all 12 tricks."""
    hands = [OROS, COPES, ESPASES, BASTOS]
    s = new_game("botifarra", {}, dealer=3)
    s = apply(s, {"type": "deal", "deck": deck_for(hands, 3)})
    s = act(s, {"type": "trump", "suit": "o"})
    s = act(s, {"type": "double"}, PASS, PASS) if doublings else act(s, PASS, PASS)
    while s.phase == "play":
        s = apply(s, legal_actions(s)[0])
    return s


@pytest.mark.parametrize("doublings, points", [(0, [36, 0]), (1, [72, 0])])
def test_whole_deal_defenders_capot(doublings, points):
    """72-0 to the defenders: the choosing pair (1) failed; 36 × multiplier, no capot bonus."""
    v = observe(_capot_table(doublings), None)
    entry = v["sheet"][-1]
    assert entry["points"] == points and entry["outcome"] == "failed"
    assert entry["detail"]["totals"] == [72, 0]
    assert v["scores"] == points and v["phase"] == "deal" and v["dealer"] == 0
    assert v["last_deal"]["summary"] == {
        "contract": {"trump": "o", "chooser_team": 1, "delegated": False, "doublings": doublings},
        "card_points": [60, 0],
        "tricks": [12, 0],
        "last_trick_team": 0,
        "declarations": [[], []],
        "belote": [0, 0],
        "carried_in": 0,
        "revoke_team": None,
    }


def test_only_the_last_trick_is_shown():
    hands = [OROS, COPES, ESPASES, BASTOS]
    s = new_game("botifarra", {}, dealer=3)
    s = act(
        apply(s, {"type": "deal", "deck": deck_for(hands, 3)}),
        {"type": "trump", "suit": "o"},
        PASS,
        PASS,
    )
    first = []
    for _ in range(4):
        a = legal_actions(s)[0]
        first.append(a["card"])
        s = apply(s, a)
    for _ in range(4):
        s = apply(s, legal_actions(s)[0])
    for seat in (None, 0, 1):
        v = observe(s, seat)
        assert v["trick_number"] == 3 and len(v["last_trick"]["cards"]) == 4
        text = json.dumps({k: x for k, x in v.items() if k != "hand"})
        assert not any(f'"{c}"' in text for c in first), "trick 1 must be face down"


def _random_game(options, seed, stop=None):
    rng = random.Random(seed)
    s = new_game("botifarra", options, dealer=rng.randrange(4))
    while not is_over(s) and not (stop and stop(s)):
        if needs_deal(s):
            s = apply(s, {"type": "deal", "deck": new_deck("botifarra", rng)})
        else:
            s = apply(s, rng.choice(legal_actions(s)))
    return s


@pytest.mark.parametrize("target", [51, 101, 151])
def test_game_ends_with_the_hand_that_reaches_the_target(target):
    s = _random_game({"target": target}, seed=target)
    sheet = observe(s, None)["sheet"]
    assert max(sheet[-1]["scores_after"]) >= target
    assert all(max(e["scores_after"]) < target for e in sheet[:-1])
    assert s.winner == (0 if s.scores[0] > s.scores[1] else 1)


def test_target_must_be_51_101_or_151():
    with pytest.raises(IllegalAction, match="target must be one of 51, 101, 151"):
        new_game("botifarra", {"target": 100})
    assert new_game("botifarra", {}).options["target"] == 101


@pytest.mark.parametrize("max_hands", [None, 2])
def test_max_hands(max_hands):
    s = _random_game({"max_hands": max_hands, "target": 151}, seed=3)
    hands = len(s.sheet)
    if max_hands is None:
        assert max(s.scores) >= 151 and hands > 2
    else:
        assert hands == 2 or max(s.scores) >= 151
        assert s.winner == (None if s.scores[0] == s.scores[1] else int(s.scores[1] > s.scores[0]))


def test_max_hands_with_equal_scores_is_a_draw():
    for seed in range(300):
        s = _random_game({"max_hands": 1}, seed)
        if s.sheet[-1]["outcome"] == "tie":
            v = observe(s, None)
            assert v["phase"] == "over" and v["winner"] is None and v["draw"] is True
            assert v["scores"] == [0, 0] and legal_actions(s) == []
            return
    pytest.fail("no 36-36 hand in 300 seeded hands")


@pytest.mark.parametrize("cap, expect_capped", [(None, False), (60, True)])
def test_cap_score_limits_the_recorded_score(cap, expect_capped):
    s = _random_game({"cap_score": cap, "target": 151}, seed=11)
    v = observe(s, None)
    if expect_capped:
        assert v["recorded_scores"] == [min(x, 60) for x in v["scores"]]
        assert max(v["recorded_scores"]) == 60
    else:
        assert v["recorded_scores"] == v["scores"]
    assert max(v["scores"]) >= 151


def test_nullable_options_reject_bad_values():
    with pytest.raises(IllegalAction, match="max_hands must be a whole number"):
        new_game("botifarra", {"max_hands": 0})
    with pytest.raises(IllegalAction, match="cap_score must be a whole number"):
        new_game("botifarra", {"cap_score": "121"})
    assert (
        new_game("botifarra", {"max_hands": None, "cap_score": None}).options["max_hands"] is None
    )


@pytest.mark.parametrize("options", [{}, {"variant": "eastern"}])
def test_whole_match_with_heuristic_bots(options):
    rng = random.Random(42)
    s = new_game("botifarra", options, dealer=2)
    while not is_over(s):
        if needs_deal(s):
            s = apply(s, {"type": "deal", "deck": new_deck("botifarra", rng)})
        else:
            s = apply(s, choose("heuristic", observe(s, s.to_act), rng))
    v = observe(s, None)
    assert v["winner"] in (0, 1) and max(v["scores"]) >= 101
    assert [sum(e["points"][t] for e in v["sheet"]) for t in (0, 1)] == v["scores"]
    assert all(sum(e["detail"]["totals"]) == 72 for e in v["sheet"])
    assert [e["dealer"] for e in v["sheet"]] == [(2 + i) % 4 for i in range(len(v["sheet"]))]
