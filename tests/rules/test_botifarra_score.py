"""score_deal for Botifarra: multipliers, options, the paper-sheet revoke and every
rejection of rules/botifarra.md §8 (values worked out by hand from §4 and §7)."""

import pytest

from app.rules import IllegalAction, score_deal
from tests.rules.test_botifarra_examples import summary


def points(options, s):
    return score_deal("botifarra", options, s)["points"]


@pytest.mark.parametrize(
    "scale, doublings, expected",
    [
        ("2-4-8", 0, 9),
        ("2-4-8", 1, 18),
        ("2-4-8", 2, 36),
        ("2-4-8", 3, 72),
        ("2-3-4", 0, 9),
        ("2-3-4", 1, 18),
        ("2-3-4", 2, 27),
        ("2-3-4", 3, 36),
    ],
)
def test_doubling_scale_on_a_suit(scale, doublings, expected):
    """BT1 (45-27): 9 × scale[doublings]."""
    assert points({"doubling_scale": scale}, summary("o", doublings)) == [expected, 0]


@pytest.mark.parametrize(
    "scale, doublings, expected",
    [
        ("2-4-8", 0, 18),
        ("2-4-8", 1, 36),
        ("2-4-8", 2, 72),
        ("2-4-8", 3, 144),
        ("2-3-4", 0, 18),
        ("2-3-4", 1, 36),
        ("2-3-4", 2, 54),
        ("2-3-4", 3, 72),
    ],
)
def test_botifarra_doubles_the_base(scale, doublings, expected):
    """BT1's cards on a botifarra: 9 × 2 × scale[doublings]."""
    assert points({"doubling_scale": scale}, summary(None, doublings)) == [expected, 0]


def test_sant_vicenc_on_botifarra_option():
    assert points({"sant_vicenc_on_botifarra": True}, summary(None, 3)) == [144, 0]
    with pytest.raises(IllegalAction, match="Sant Vicenç is not allowed on botifarra"):
        score_deal("botifarra", {"sant_vicenc_on_botifarra": False}, summary(None, 3))
    assert points({"sant_vicenc_on_botifarra": False}, summary(None, 2)) == [72, 0]
    assert points({"sant_vicenc_on_botifarra": False}, summary("o", 3)) == [72, 0]


def test_the_other_pair_chose():
    """Pair 1 chose and took 27: pair 0's 45 scores 9 as defenders (failed)."""
    r = score_deal("botifarra", {}, summary("o", 0, chooser=1))
    assert r["points"] == [9, 0] and r["outcome"] == "failed"


def test_just_over_half():
    r = score_deal("botifarra", {}, summary("c", 0, (31, 29), (6, 6)))
    assert r["points"] == [1, 0] and r["detail"]["totals"] == [37, 35]


def test_defenders_capot():
    assert points({}, summary(None, 1, (0, 60), (0, 12))) == [0, 144]


@pytest.mark.parametrize(
    "revoke, doublings, trump, expected",
    [(0, 0, "o", [0, 36]), (1, 0, "o", [36, 0]), (1, 2, "o", [144, 0]), (0, 1, None, [0, 144])],
)
def test_revoke_from_a_paper_sheet(revoke, doublings, trump, expected):
    """36 × multiplier to the other pair; tricks and card points are not used."""
    s = summary(trump, doublings, (0, 0), (0, 0), revoke=revoke)
    r = score_deal("botifarra", {}, s)
    assert r["points"] == expected and r["outcome"] == "revoke" and r["detail"]["totals"] is None


def test_revoke_by_the_choosing_pair_even_when_it_took_more():
    s = summary("e", 0, (50, 10), (10, 2), revoke=0)
    assert points({}, s) == [0, 36]


def _with(s, **changes):
    contract = dict(s["contract"])
    for k in ("trump", "chooser_team", "doublings", "delegated"):
        if k in changes:
            contract[k] = changes.pop(k)
    return dict(s, contract=contract, **changes)


@pytest.mark.parametrize(
    "changes, reason",
    [
        ({"trump": "x"}, "contract.trump must be o, c, e or b"),
        ({"trump": "S"}, "contract.trump must be o, c, e or b"),
        ({"chooser_team": 2}, "chooser_team must be 0 or 1"),
        ({"chooser_team": None}, "chooser_team must be 0 or 1"),
        ({"chooser_team": True}, "chooser_team must be 0 or 1"),
        ({"doublings": 4}, "doublings must be 0"),
        ({"doublings": -1}, "doublings must be 0"),
        ({"doublings": "1"}, "doublings must be 0"),
        ({"delegated": "yes"}, "delegated must be true or false"),
        ({"declarations": [[{"kind": "four", "rank": "9"}], []]}, "no declarations"),
        ({"belote": [1, 0]}, "no belote"),
        ({"carried_in": 10}, "carries no points"),
        ({"revoke_team": 2}, "revoke_team must be 0, 1 or null"),
        ({"tricks": [7, 6]}, "tricks must be two whole numbers adding up to 12"),
        ({"tricks": [-1, 13]}, "tricks must be two whole numbers adding up to 12"),
        ({"card_points": [38, 23]}, "card points must add up to 60, not 61"),
        ({"card_points": [38]}, "card_points must be two whole numbers"),
        (
            {"card_points": [21, 39], "tricks": [1, 11]},
            "1 trick holds at most 20 card points, not 21",
        ),
        (
            {"card_points": [37, 23], "tricks": [2, 10]},
            "2 tricks hold at most 36 card points, not 37",
        ),
        (
            {"card_points": [49, 11], "tricks": [3, 9]},
            "3 tricks hold at most 48 card points, not 49",
        ),
        (
            {"card_points": [57, 3], "tricks": [4, 8]},
            "4 tricks hold at most 56 card points, not 57",
        ),
        (
            {"card_points": [4, 56], "tricks": [12, 0]},
            "0 tricks hold at most 0 card points, not 56",
        ),
    ],
)
def test_impossible_summaries_are_rejected_with_the_reason(changes, reason):
    with pytest.raises(IllegalAction, match=reason):
        score_deal("botifarra", {}, _with(summary(), **changes))


def test_caps_that_are_reachable_are_accepted():
    for tricks, cap in ((1, 20), (2, 36), (3, 48), (4, 56), (5, 60)):
        s = _with(summary(), card_points=[cap, 60 - cap], tricks=[tricks, 12 - tricks])
        score_deal("botifarra", {}, s)


def test_missing_contract_or_trump_is_rejected():
    with pytest.raises(IllegalAction, match="needs a contract"):
        score_deal("botifarra", {}, {"card_points": [30, 30]})
    s = summary()
    del s["contract"]["trump"]
    with pytest.raises(IllegalAction, match="null for botifarra"):
        score_deal("botifarra", {}, s)
    with pytest.raises(IllegalAction, match="must be an object"):
        score_deal("botifarra", {}, [1, 2])


def test_unknown_option_is_rejected():
    with pytest.raises(IllegalAction, match="unknown option"):
        score_deal("botifarra", {"tie_rule": "half"}, summary())
    with pytest.raises(IllegalAction, match="doubling_scale must be one of"):
        score_deal("botifarra", {"doubling_scale": "2-4-6"}, summary())


def test_minimal_summary_defaults():
    """declarations, belote, carried_in, last_trick_team and revoke_team may be left out."""
    s = {
        "contract": {"trump": "o", "chooser_team": 0, "doublings": 0},
        "card_points": [38, 22],
        "tricks": [7, 5],
    }
    assert points({}, s) == [9, 0]
