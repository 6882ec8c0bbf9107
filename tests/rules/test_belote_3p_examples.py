"""The worked examples of rules/belote-3p.md §11 and the checks of its deal summary (§8).

Expected values are the rules file's (its §11 table and notes), not the code's.
"""

import pytest

from app.rules import IllegalAction, score_deal

GAME = "belote-3p"
#: §11: trump hearts, dealer 0, so seat 1 is the eldest hand; seat 1 takes.
HEARTS = {"trump": "H", "taker": 1, "eldest": 1}
QUARTE_AC = {"kind": "sequence", "length": 4, "top": "A", "suit": "C"}
TIERCE_KS = {"kind": "sequence", "length": 3, "top": "K", "suit": "S"}
TIERCE_QD = {"kind": "sequence", "length": 3, "top": "Q", "suit": "D"}
CARRE_9 = {"kind": "four", "rank": "9"}


def summary(cp, tricks, last, decl=([], [], []), belote=(0, 0, 0), contract=HEARTS):
    return {
        "contract": dict(contract),
        "card_points": list(cp),
        "tricks": list(tricks),
        "last_trick_player": last,
        "declarations": [list(d) for d in decl],
        "belote": list(belote),
        "carried_in": 0,
    }


# id, summary, options, totals, points, outcome: the §11 table, row by row
EXAMPLES = [
    ("T1", summary((40, 70, 42), (2, 4, 2), 1), {}, [40, 80, 42], [40, 80, 42], "made"),
    ("T2", summary((55, 50, 47), (3, 3, 2), 0), {}, [65, 50, 47], [81, 0, 81], "failed"),
    ("T3", summary((60, 60, 32), (3, 3, 2), 2), {}, [60, 60, 42], [81, 0, 81], "failed"),
    (
        "T4",
        summary((52, 48, 52), (3, 3, 2), 1, belote=(0, 1, 0)),
        {},
        [52, 78, 52],
        [52, 78, 52],
        "made",
    ),
    (
        "T5",
        summary((70, 35, 47), (3, 2, 3), 0, belote=(0, 1, 0)),
        {},
        [80, 55, 47],
        [81, 20, 81],
        "failed",
    ),
    ("T6", summary((0, 100, 52), (0, 5, 3), 1), {}, [0, 150, 102], [0, 150, 102], "made"),
    ("T7", summary((0, 152, 0), (0, 8, 0), 1), {}, [0, 252, 0], [0, 252, 0], "made"),
    ("T8", summary((80, 0, 72), (4, 0, 4), 2), {}, [130, 0, 122], [126, 0, 126], "failed"),
    (
        "T9",
        summary((50, 60, 42), (3, 3, 2), 2, decl=([], [QUARTE_AC], [TIERCE_KS])),
        {},
        [50, 110, 52],
        [50, 110, 52],
        "made",
    ),
    (
        "T10",
        summary((40, 70, 42), (2, 4, 2), 1, decl=([CARRE_9], [TIERCE_QD], [])),
        {},
        [190, 80, 42],
        [156, 0, 156],
        "failed",
    ),
    (
        "T11",
        summary((55, 50, 47), (3, 3, 2), 0),
        {"contract": False},
        [65, 50, 47],
        [65, 50, 47],
        "scored",
    ),
    (
        "T12",
        summary((40, 61, 30), (3, 4, 2), 1),
        {"deal": "32"},
        [40, 71, 30],
        [40, 71, 30],
        "made",
    ),
    (
        "T13",
        summary((45, 40, 46), (3, 3, 3), 0),
        {"deal": "32"},
        [55, 40, 46],
        [70, 0, 71],
        "failed",
    ),
]


@pytest.mark.parametrize("name, s, options, totals, points, outcome", EXAMPLES)
def test_worked_examples(name, s, options, totals, points, outcome):
    result = score_deal(GAME, options, s)
    assert result["detail"]["totals"] == totals, name
    assert result["points"] == points, name
    assert result["outcome"] == outcome, name
    assert result["carried_out"] == 0, name


def test_t2_the_defenders_share_162():
    """§11 T2: the defenders share 152 + 10 = 162: 81 each."""
    result = score_deal(GAME, {}, EXAMPLES[1][1])
    assert result["detail"]["pot"] == 162


def test_t6_capot_bonus_shared():
    """§11 T6: seat 0 took no trick: no dix de der; seats 1 and 2 get 50 each."""
    result = score_deal(GAME, {}, EXAMPLES[5][1])
    assert result["detail"]["bonus"] == [0, 50, 50]
    assert result["detail"]["capot"] == [0]


def test_t8_pot_with_the_capot_bonus():
    """§11 T8: the defenders share 152 + 100 = 252."""
    result = score_deal(GAME, {}, EXAMPLES[7][1])
    assert result["detail"]["pot"] == 252 and result["detail"]["bonus"] == [50, 0, 50]


def test_t9_only_the_best_declaration_scores():
    """§11 T9: the quarte beats the tierce; only seat 1 scores declarations (50)."""
    result = score_deal(GAME, {}, EXAMPLES[8][1])
    assert result["detail"]["declarations"] == [0, 50, 0]
    assert result["detail"]["declaration_player"] == 1


def test_t10_carre_in_the_pot():
    """§11 T10: the pot is 152 + 10 + 150 = 312, 156 each."""
    result = score_deal(GAME, {}, EXAMPLES[9][1])
    assert result["detail"]["pot"] == 312


def test_t13_odd_pot_extra_point_after_the_taker():
    """§11 T13: the pot is 131 + 10 = 141: seat 2 (after the taker) 71, seat 0 70."""
    result = score_deal(GAME, {"deal": "32"}, EXAMPLES[12][1])
    assert result["detail"]["pot"] == 141


def test_a_capot_player_loses_his_declarations_unless_the_option():
    """§5/§7: a player with no trick loses his declarations (option
    capoted_keep_declarations keeps them). Seat 0 (no trick) declared a tierce, the best:
    without the option he scores 0; with it, 20."""
    s = summary((0, 100, 52), (0, 5, 3), 1, decl=([TIERCE_KS], [], []))
    assert score_deal(GAME, {}, s)["points"] == [0, 150, 102]
    kept = score_deal(GAME, {"capoted_keep_declarations": True}, s)
    assert kept["points"] == [20, 150, 102]


def test_the_belote_stays_with_a_defender_in_dedans():
    """§7: each defender adds his own belote to his half. T2 with seat 0's belote:
    totals 85, 50, 47, dedans; the pot 162 (the belote is not in it): 81 + 20 and 81."""
    s = summary((55, 50, 47), (3, 3, 2), 0, belote=(1, 0, 0))
    assert score_deal(GAME, {}, s)["points"] == [101, 0, 81]


def test_equal_best_runs_go_to_the_first_from_the_eldest():
    """§5: two equal best plain runs: the one declared first in playing order from the
    eldest hand wins. Eldest 1: seat 2 declares before seat 0."""
    a = {"kind": "sequence", "length": 3, "top": "K", "suit": "S"}
    b = {"kind": "sequence", "length": 3, "top": "K", "suit": "D"}
    s = summary((50, 60, 42), (3, 3, 2), 2, decl=([a], [], [b]))
    assert score_deal(GAME, {}, s)["detail"]["declarations"] == [0, 0, 20]
    s["contract"] = {"trump": "H", "taker": 1, "eldest": 0}
    assert score_deal(GAME, {}, s)["detail"]["declarations"] == [20, 0, 0]
    s["contract"] = {"trump": "H", "taker": 1}
    with pytest.raises(IllegalAction) as exc:
        score_deal(GAME, {}, s)
    assert exc.value.code == "runs_tie_needs_eldest"


BAD = [
    ("unknown trump", {"contract": {"trump": "X", "taker": 1}}, {}, "unknown_trump"),
    ("taker 3", {"contract": {"trump": "H", "taker": 3}}, {}, "seat_field"),
    ("tricks add to 7", {"tricks": [2, 3, 2]}, {}, "player_tricks"),
    ("two tricks only", {"tricks": [4, 4]}, {}, "player_tricks"),
    ("24 cards: 151 card points", {"card_points": [40, 70, 41]}, {}, "card_points_total"),
    ("32 cards: 84 card points", {"card_points": [20, 40, 24]}, {"deal": "32"}, ""),
    ("one trick holds 3 cards", {"card_points": [60, 50, 42], "tricks": [1, 5, 2]}, {}, ""),
    (
        "last trick to a capot player",
        {"card_points": [0, 100, 52], "tricks": [0, 5, 3], "last_trick_player": 0},
        {},
        "last_trick_player_no_trick",
    ),
    ("last trick seat 3", {"last_trick_player": 3}, {}, "seat_field"),
    ("belote 2", {"belote": [0, 2, 0]}, {}, "player_belote_values"),
    ("two belotes", {"belote": [1, 1, 0]}, {}, "one_belote_player"),
    (
        "declarations off",
        {"declarations": [[TIERCE_KS], [], []]},
        {"declarations": False},
        "declarations_off",
    ),
    (
        "a run with an 8 in 24 cards",
        {"declarations": [[{"kind": "sequence", "length": 3, "top": "T", "suit": "S"}], [], []]},
        {},
        "declared_card_not_in_deck",
    ),
    (
        "a carré of 8s",
        {"declarations": [[{"kind": "four", "rank": "8"}], [], []]},
        {},
        "four_not_declaration",
    ),
    (
        "the same card twice",
        {"declarations": [[TIERCE_KS], [QUARTE_AC], [TIERCE_KS]]},
        {},
        "card_in_two_declarations",
    ),
    (
        "the belote's K in another's run",
        {
            "belote": [0, 1, 0],
            "declarations": [[{"kind": "sequence", "length": 3, "top": "K", "suit": "H"}], [], []],
        },
        {},
        "belote_in_other_declarations",
    ),
    (
        "eleven cards declared in 24",
        {
            "declarations": [
                [
                    CARRE_9,
                    {"kind": "four", "rank": "J"},
                    {"kind": "sequence", "length": 3, "top": "A", "suit": "S"},
                ],
                [],
                [],
            ]
        },
        {},
        "too_many_declared_cards_player",
    ),
    ("carried in", {"carried_in": 10}, {}, "belote_3p_no_carry"),
]


@pytest.mark.parametrize("name, change, options, code", BAD)
def test_impossible_summaries_are_refused(name, change, options, code):
    """§8 "Rejected", one line each (T1 changed)."""
    s = summary((40, 70, 42), (2, 4, 2), 1) | change
    with pytest.raises(IllegalAction) as exc:
        score_deal(GAME, options, s)
    if code:
        assert exc.value.code == code, name


def test_32_cards_card_points_range():
    """§8: with 32 cards the card points add up to 85 (152 less the trump J and 9 and
    three aces, 20 + 14 + 33 = 67) to 152."""
    low = summary((30, 30, 25), (3, 3, 3), 0)
    assert score_deal(GAME, {"deal": "32"}, low)["outcome"] in ("made", "failed")
    high = summary((50, 60, 42), (3, 3, 3), 0)
    assert score_deal(GAME, {"deal": "32"}, high)["outcome"] in ("made", "failed")
    with pytest.raises(IllegalAction) as exc:
        score_deal(GAME, {"deal": "32"}, summary((50, 60, 43), (3, 3, 3), 0))
    assert exc.value.code == "card_points_range"


def test_nine_cards_declared_with_32():
    """§8: a hand holds 9 cards with 32: a carré and a quinte hold 9 cards."""
    quinte = {"kind": "sequence", "length": 5, "top": "A", "suit": "S"}
    s = summary((50, 60, 42), (3, 3, 3), 0, decl=([CARRE_9, quinte], [], []))
    assert score_deal(GAME, {"deal": "32"}, s)["detail"]["declarations"] == [250, 0, 0]
