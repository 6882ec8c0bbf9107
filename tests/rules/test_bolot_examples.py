"""The worked examples of rules/bolot.md §11, and the deal mapping of §3.

Expected values are the rules file's, not the code's.
"""

import pytest

from app.rules import (
    IllegalAction,
    apply,
    legal_actions,
    legal_cards,
    new_game,
    observe,
    score_deal,
)

TRUMP_OROS = {"trump": "o", "taker_team": 0, "round": 1, "eldest_team": 1}


def summary(taker=0, cp=(84, 68), tricks=(5, 3), last=0, decl=([], []), belote=(0, 0)):
    return {
        "contract": dict(TRUMP_OROS, taker_team=taker),
        "card_points": list(cp),
        "tricks": list(tricks),
        "last_trick_team": last,
        "declarations": [list(decl[0]), list(decl[1])],
        "belote": list(belote),
        "carried_in": 0,
        "revoke_team": None,
    }


@pytest.mark.parametrize(
    "name, s, points, outcome",
    [
        ("B1", summary(cp=(84, 68), tricks=(5, 3), last=0), [94, 68], "made"),
        ("B2", summary(cp=(71, 81), tricks=(4, 4), last=1), [0, 162], "failed"),
        (
            "B4",
            summary(
                cp=(70, 82),
                tricks=(4, 4),
                last=0,
                decl=([{"kind": "sequence", "length": 3, "top": "9", "suit": "c"}], []),
                belote=(1, 0),
            ),
            [120, 82],
            "made",
        ),
        ("B6", summary(cp=(0, 152), tricks=(0, 8), last=1), [0, 252], "failed"),
        (
            "B8",
            summary(
                cp=(80, 72), tricks=(5, 3), last=0, decl=([{"kind": "four", "rank": "10"}], [])
            ),
            [290, 72],
            "made",
        ),
        ("B9", summary(taker=1, cp=(60, 92), tricks=(4, 4), last=0), [70, 92], "made"),
    ],
)
def test_worked_examples(name, s, points, outcome):
    result = score_deal("bolot", {}, s)
    assert result["points"] == points, name
    assert result["outcome"] == outcome, name
    assert result["carried_out"] == 0


def test_b1_detail_points_in_play_and_needed():
    d = score_deal("bolot", {}, summary())["detail"]
    assert d["points_in_play"] == 162 and d["needed"] == 82


def test_b4_points_in_play():
    s = summary(
        cp=(70, 82),
        tricks=(4, 4),
        last=0,
        decl=([{"kind": "sequence", "length": 3, "top": "9", "suit": "c"}], []),
        belote=(1, 0),
    )
    assert score_deal("bolot", {}, s)["detail"]["points_in_play"] == 202


def test_b8_points_in_play():
    s = summary(cp=(80, 72), decl=([{"kind": "four", "rank": "10"}], []))
    d = score_deal("bolot", {}, s)["detail"]
    assert d["points_in_play"] == 362 and d["needed"] == 182


@pytest.mark.parametrize(
    "name, trick, hand, legal",
    [
        ("BL1", ["12c"], ["1c", "7c", "10o"], {"1c", "7c"}),
        ("BL2", ["3o"], ["9o", "7o", "1c"], {"9o"}),
        ("BL3", ["3o"], ["8o", "7o", "1c"], {"8o", "7o"}),
        ("BL4", ["1o", "7o"], ["9o", "8o", "1b"], {"9o"}),
        ("BL5", ["12c"], ["7o", "10o", "1b"], {"7o", "10o"}),
    ],
)
def test_worked_legal_moves(name, trick, hand, legal):
    assert set(legal_cards("bolot", {}, TRUMP_OROS, hand, trick)) == legal, name


def test_deal_mapping_dealer_3_taker_2():
    """rules/bolot.md §3 example: seat 0 gets 21-23, seat 1 24-26, seat 2 27-28 + card 20, seat 3 29-31."""
    from app.rules.bolot import TABLE

    deck = list(TABLE.deck)
    s = new_game("bolot", {}, dealer=3)
    s = apply(s, {"type": "deal", "deck": deck})
    # eldest is seat 0: 0-2, then seat 1: 3-5, seat 2: 6-8, seat 3 (dealer): 9-11; then 2 each.
    assert observe(s, 0)["hand_counts"] == [5, 5, 5, 5]
    assert set(observe(s, 0)["hand"]) == set(deck[0:3] + deck[12:14])
    assert set(observe(s, 3)["hand"]) == set(deck[9:12] + deck[18:20])
    assert observe(s, None)["turned"] == deck[20]
    s = apply(s, {"type": "pass"})  # seat 0
    s = apply(s, {"type": "pass"})  # seat 1
    s = apply(s, {"type": "take"})  # seat 2 takes the turned suit
    hands = [set(observe(s, seat)["hand"]) for seat in range(4)]
    assert hands[0] == set(deck[0:3] + deck[12:14] + deck[21:24])
    assert hands[1] == set(deck[3:6] + deck[14:16] + deck[24:27])
    assert hands[2] == set(deck[6:9] + deck[16:18] + deck[27:29] + [deck[20]])
    assert hands[3] == set(deck[9:12] + deck[18:20] + deck[29:32])
    assert observe(s, 0)["contract"]["trump"] == deck[20][-1]


def test_eight_passes_void_the_deal_and_next_dealer_deals():
    from app.rules.bolot import TABLE

    s = apply(new_game("bolot", {}, dealer=3), {"type": "deal", "deck": list(TABLE.deck)})
    turned_suit = observe(s, None)["turned"][-1]
    for _ in range(4):
        s = apply(s, {"type": "pass"})
    acts = legal_actions(s)
    assert {"type": "pass"} in acts
    assert {a.get("suit") for a in acts if a["type"] == "take"} == {"o", "c", "e", "b"} - {
        turned_suit
    }
    for _ in range(4):
        s = apply(s, {"type": "pass"})
    v = observe(s, None)
    assert v["phase"] == "deal" and v["dealer"] == 0 and v["sheet"][-1]["void"] is True
    assert v["scores"] == [0, 0]


def test_round_two_may_name_turned_suit_with_option():
    from app.rules.bolot import TABLE

    s = apply(
        new_game("bolot", {"second_round_other_suit": False}, dealer=3),
        {"type": "deal", "deck": list(TABLE.deck)},
    )
    for _ in range(4):
        s = apply(s, {"type": "pass"})
    assert {a.get("suit") for a in legal_actions(s) if a["type"] == "take"} == {"o", "c", "e", "b"}


def test_illegal_play_names_the_rule():
    with pytest.raises(IllegalAction):
        score_deal("bolot", {}, summary(cp=(84, 60)))


def test_bad_deck_rejected():
    s = new_game("bolot", {}, dealer=0)
    with pytest.raises(IllegalAction, match="exactly once"):
        apply(s, {"type": "deal", "deck": ["1o"] * 32})
