"""The worked examples of rules/botifarra.md §11 through score_deal and legal_cards.

Expected values are the rules file's (worked out by hand), not the code's.
"""

import pytest

from app.rules import GAMES, IllegalAction, legal_cards, score_deal

WESTERN: dict = {}
EASTERN = {"variant": "eastern"}
TRUMP_OROS = {"trump": "o", "chooser_team": 0, "delegated": False, "doublings": 0}


def summary(trump="o", doublings=0, cp=(38, 22), tricks=(7, 5), chooser=0, revoke=None):
    return {
        "contract": {
            "trump": trump,
            "chooser_team": chooser,
            "delegated": False,
            "doublings": doublings,
        },
        "card_points": list(cp),
        "tricks": list(tricks),
        "last_trick_team": None,
        "declarations": [[], []],
        "belote": [0, 0],
        "carried_in": 0,
        "revoke_team": revoke,
    }


@pytest.mark.parametrize(
    "name, s, totals, points, outcome",
    [
        ("BT1", summary("o", 0, (38, 22), (7, 5)), [45, 27], [9, 0], "made"),
        ("BT1 doubled", summary("o", 1, (38, 22), (7, 5)), [45, 27], [18, 0], "made"),
        ("BT1 twice doubled", summary("o", 2, (38, 22), (7, 5)), [45, 27], [36, 0], "made"),
        ("BT3", summary("c", 1, (18, 42), (4, 8)), [22, 50], [0, 28], "failed"),
        ("BT9", summary("e", 2, (30, 30), (6, 6)), [36, 36], [0, 0], "tie"),
        ("BT10", summary("b", 0, (60, 0), (12, 0)), [72, 0], [36, 0], "made"),
    ],
)
def test_worked_scores(name, s, totals, points, outcome):
    result = score_deal("botifarra", {}, s)
    assert result["points"] == points, name
    assert result["outcome"] == outcome, name
    assert result["detail"]["totals"] == totals, name
    assert result["carried_out"] == 0


def test_worked_multipliers_in_detail():
    assert score_deal("botifarra", {}, summary("o", 0))["detail"]["multiplier"] == 1
    assert score_deal("botifarra", {}, summary("o", 1))["detail"]["multiplier"] == 2
    assert score_deal("botifarra", {}, summary("o", 2))["detail"]["multiplier"] == 4
    assert (
        score_deal("botifarra", {}, summary("c", 1, (18, 42), (4, 8)))["detail"]["multiplier"] == 2
    )


@pytest.mark.parametrize(
    "name, trick, hand, western, eastern",
    [
        ("W1", ["7c"], ["4c", "1c", "9b"], {"1c"}, {"1c"}),
        ("W2", ["1c", "5c"], ["9c", "2c"], {"9c", "2c"}, {"9c", "2c"}),
        ("W3", ["7c"], ["2o", "1b"], {"2o"}, {"2o"}),
        ("W4", ["12c", "3o"], ["8o", "2o", "1b"], {"8o"}, {"8o"}),
        ("E1", ["9c"], ["1c", "12c", "4c"], {"1c", "12c", "4c"}, {"4c"}),
        (
            "E2",
            ["9c", "2c"],
            ["1c", "12c", "8c", "4c"],
            {"1c", "12c", "8c", "4c"},
            {"1c", "12c", "4c"},
        ),
    ],
)
def test_worked_legal_moves(name, trick, hand, western, eastern):
    assert set(legal_cards("botifarra", WESTERN, TRUMP_OROS, hand, trick)) == western, name
    assert set(legal_cards("botifarra", EASTERN, TRUMP_OROS, hand, trick)) == eastern, name


def test_deck_ranks_and_checksum():
    """§2: 48 cards, 15 card points per suit, 60 in all; 9 > 1 > 12 > 11 > 10 > 8 > ... > 2."""
    g = GAMES["botifarra"]
    assert len(g.deck) == 48 and len(set(g.deck)) == 48
    assert sum(g.table.points(c, None) for c in g.deck) == 60
    for suit in "ocbe":
        assert sum(g.table.points(r + suit, "o") for r in g.table.ranks) == 15
    ranked = sorted((r + "c" for r in g.table.ranks), key=lambda c: -g.card_power(c, "c", None))
    assert ranked == ["9c", "1c", "12c", "11c", "10c", "8c", "7c", "6c", "5c", "4c", "3c", "2c"]


def test_capot_has_no_bonus_even_doubled():
    """BT10 doubled: 36 × 2, no bonus (§7)."""
    assert score_deal("botifarra", {}, summary("b", 1, (60, 0), (12, 0)))["points"] == [72, 0]


def test_unknown_trump_in_legal_cards_is_rejected():
    with pytest.raises(IllegalAction, match="trump"):
        legal_cards("botifarra", {}, {"trump": "x"}, ["1c"], ["7c"])
    with pytest.raises(IllegalAction, match="null for botifarra"):
        legal_cards("botifarra", {}, {"chooser_team": 0}, ["1c"], ["7c"])
    assert legal_cards("botifarra", {}, {"trump": None}, ["1c", "2o"], ["7b"]) == ["1c", "2o"]
