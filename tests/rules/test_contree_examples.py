"""The worked examples of rules/contree.md §11, each under the presets it names.

Every expected value is the rules file's own (§11 tables and their notes), worked
out there from §7 ``score``: nothing here is copied from the engine's output.
"""

from __future__ import annotations

import pytest

from app.rules import IllegalAction, score_deal

GAME = "contree"


def summary(
    bid,
    cp,
    tricks,
    last,
    *,
    coinche=0,
    taker=0,
    belote=(0, 0),
    declarations=([], []),
    carried_in=0,
    bidder_tricks=None,
):
    """A §8 summary: trump hearts, eldest team 1 (§11's conventions)."""
    contract = {"trump": "H", "taker_team": taker, "bid": bid, "coinche": coinche, "eldest_team": 1}
    if bidder_tricks is not None:
        contract["bidder_tricks"] = bidder_tricks
    return {
        "contract": contract,
        "card_points": list(cp),
        "tricks": list(tricks),
        "last_trick_team": last,
        "declarations": [list(d) for d in declarations],
        "belote": list(belote),
        "carried_in": carried_in,
        "revoke_team": None,
    }


# id: (summary, ffb, coinche, colver) -- the first table of §11.
C = {
    "C1": (summary(100, [97, 55], [5, 3], 0), [210, 60], [207, 55], [207, 55]),
    "C2": (summary(120, [98, 54], [5, 3], 0), [0, 280], [0, 282], [0, 282]),
    "C3": (summary(100, [80, 72], [4, 4], 0, belote=(1, 0)), [210, 70], [210, 72], [210, 72]),
    "C4": (summary(110, [75, 77], [4, 4], 1, belote=(1, 0)), [0, 290], [20, 272], [0, 292]),
    "C5": (summary(90, [95, 57], [5, 3], 0, coinche=1), [500, 0], [504, 0], [342, 0]),
    "C6": (
        summary(130, [112, 40], [6, 2], 1, coinche=1, belote=(0, 1)),
        [0, 600],
        [0, 604],
        [0, 442],
    ),
    "C7": (
        summary(80, [102, 50], [6, 2], 0, coinche=2, belote=(0, 1)),
        [980, 0],
        [968, 20],
        [422, 0],
    ),
    "C8": (summary(140, [100, 52], [5, 3], 0, coinche=2), [0, 1200], [0, 1208], [0, 582]),
    "C9": (summary("capot", [152, 0], [8, 0], 0, belote=(1, 0)), [520, 0], [520, 0], [522, 0]),
    "C10": (summary("capot", [140, 12], [7, 1], 0, belote=(1, 0)), [0, 520], [20, 500], [0, 432]),
    "C11": (summary("capot", [146, 6], [7, 1], 0, coinche=1), [0, 1000], [0, 1000], [0, 662]),
    "C12": (summary(120, [152, 0], [8, 0], 0), [370, 0], [370, 0], [372, 0]),
    "C13": (summary(100, [152, 0], [8, 0], 0, coinche=1), [700, 0], [700, 0], [452, 0]),
    "C14": (summary(80, [71, 81], [4, 4], 0), [160, 80], [0, 242], [161, 81]),
}


@pytest.mark.parametrize("case", sorted(C))
@pytest.mark.parametrize("preset", ["ffb", "coinche", "colver"])
def test_the_first_table_under_each_preset(case: str, preset: str) -> None:
    s, ffb, coinche, colver = C[case]
    expected = {"ffb": ffb, "coinche": coinche, "colver": colver}[preset]
    assert score_deal(GAME, {"preset": preset}, s)["points"] == expected


def test_c1_detail_trick_points_and_rounding() -> None:
    # 97 + 10 = 107 trick points; ffb rounds 107 -> 110 but judges on 107 >= 100.
    out = score_deal(GAME, {}, C["C1"][0])
    assert out["outcome"] == "made"
    assert out["detail"]["trick_points"] == [107, 55]
    assert out["detail"]["totals"] == [107, 55]
    assert out["detail"]["needed"] == 100
    assert out["detail"]["multiplier"] == 1


def test_c2_failed_outcome() -> None:
    out = score_deal(GAME, {}, C["C2"][0])
    assert out["outcome"] == "failed" and out["detail"]["base"] == 160


def test_c14_made_under_ffb_failed_under_coinche() -> None:
    assert score_deal(GAME, {}, C["C14"][0])["outcome"] == "made"
    assert score_deal(GAME, {"preset": "coinche"}, C["C14"][0])["outcome"] == "failed"


LITIGE = {"preset": "coinche", "tie_rule": "litige"}


def test_c15_a_litige_holds_the_takers_points() -> None:
    out = score_deal(GAME, LITIGE, summary(80, [71, 81], [4, 4], 0))
    assert (out["points"], out["carried_out"], out["outcome"]) == ([0, 81], 81, "litige")


def test_c16_the_next_deal_s_winner_takes_the_held_points() -> None:
    s = summary(90, [40, 112], [2, 6], 1, taker=1, carried_in=81)
    out = score_deal(GAME, LITIGE, s)
    assert (out["points"], out["carried_out"], out["outcome"]) == ([40, 293], 0, "made")


QUARTE_A_CLUBS = {"kind": "sequence", "length": 4, "top": "A", "suit": "C"}
TIERCE_Q_DIAMONDS = {"kind": "sequence", "length": 3, "top": "Q", "suit": "D"}


def test_c17_declarations_make_the_contract() -> None:
    s = summary(100, [70, 82], [4, 4], 0, declarations=([QUARTE_A_CLUBS], [TIERCE_Q_DIAMONDS]))
    out = score_deal(GAME, {"preset": "coinche"}, s)
    assert (out["points"], out["carried_out"], out["outcome"]) == ([230, 82], 0, "made")
    assert out["detail"]["declarations"] == [50, 0]


def test_c18_without_them_counting_the_takers_fail() -> None:
    s = summary(100, [70, 82], [4, 4], 0, declarations=([QUARTE_A_CLUBS], [TIERCE_Q_DIAMONDS]))
    opts = {"preset": "coinche", "declarations_count_for_contract": False}
    out = score_deal(GAME, opts, s)
    assert (out["points"], out["carried_out"], out["outcome"]) == ([0, 312], 0, "failed")


def test_c19_the_defenders_carre_beats_the_takers() -> None:
    s = summary(90, [95, 57], [5, 3], 0, declarations=([], [{"kind": "four", "rank": "J"}]))
    out = score_deal(GAME, {"preset": "coinche"}, s)
    assert (out["points"], out["carried_out"], out["outcome"]) == ([0, 452], 0, "failed")


def test_c20_equal_plain_tierces_cancel() -> None:
    k_spades = {"kind": "sequence", "length": 3, "top": "K", "suit": "S"}
    k_diamonds = {"kind": "sequence", "length": 3, "top": "K", "suit": "D"}
    s = summary(80, [90, 62], [5, 3], 0, declarations=([k_spades], [k_diamonds]))
    out = score_deal(GAME, {"preset": "coinche"}, s)
    assert (out["points"], out["carried_out"], out["outcome"]) == ([180, 62], 0, "made")


def test_c21_eighty_needs_82() -> None:
    out = score_deal(GAME, {"eighty_needs_82": True}, summary(80, [71, 81], [4, 4], 0))
    assert out["points"] == [0, 240] and out["outcome"] == "failed"


@pytest.mark.parametrize(
    ("preset", "bidder_tricks", "expected"),
    [
        ("ffb", 8, [1000, 0]),
        ("colver", 8, [752, 0]),
        ("ffb", 6, [0, 1000]),
        ("colver", 6, [0, 662]),
    ],
)
def test_c22_the_generale(preset: str, bidder_tricks: int, expected: list[int]) -> None:
    s = summary("generale", [152, 0], [8, 0], 0, bidder_tricks=bidder_tricks)
    assert score_deal(GAME, {"preset": preset, "generale": True}, s)["points"] == expected


@pytest.mark.parametrize(("rounding", "expected"), [("six_up", [200, 80]), ("half_up", [210, 80])])
def test_c23_six_up_rounding(rounding: str, expected: list[int]) -> None:
    s = summary(100, [75, 77], [4, 4], 0, belote=(1, 0))
    assert score_deal(GAME, {"rounding": rounding}, s)["points"] == expected


# ---------------------------------------------------------------- §8 rejections


@pytest.mark.parametrize(
    ("options", "change", "code"),
    [
        ({}, {"bid": 85}, "contree_summary_bid"),
        ({}, {"bid": 170}, "contree_summary_bid"),
        ({}, {"bid": "generale"}, "contree_summary_bid"),
        ({}, {"coinche": 3}, "coinche_level"),
        ({"coinche_capot": False}, {"bid": "capot", "coinche": 1}, "no_coinche_on_capot"),
        ({"generale": True}, {"bid": "generale"}, "bidder_tricks"),
        ({}, {"trump": "X"}, "unknown_trump"),
    ],
)
def test_impossible_contracts_are_refused(options: dict, change: dict, code: str) -> None:
    s = summary(100, [97, 55], [5, 3], 0)
    s["contract"].update(change)
    with pytest.raises(IllegalAction) as refused:
        score_deal(GAME, options, s)
    assert refused.value.code == code


def test_declarations_while_off_carried_in_and_revoke_are_refused() -> None:
    s = summary(100, [70, 82], [4, 4], 0, declarations=([QUARTE_A_CLUBS], []))
    with pytest.raises(IllegalAction) as refused:
        score_deal(GAME, {}, s)
    assert refused.value.code == "declarations_off"
    with pytest.raises(IllegalAction) as refused:
        score_deal(GAME, {"preset": "coinche"}, summary(100, [97, 55], [5, 3], 0, carried_in=10))
    assert refused.value.code == "contree_no_carry"
    s = summary(100, [97, 55], [5, 3], 0)
    s["revoke_team"] = 1
    with pytest.raises(IllegalAction):
        score_deal(GAME, {}, s)


def test_an_eldest_tie_of_runs_needs_by() -> None:
    k_spades = {"kind": "sequence", "length": 3, "top": "K", "suit": "S"}
    k_diamonds = {"kind": "sequence", "length": 3, "top": "K", "suit": "D"}
    s = summary(80, [90, 62], [5, 3], 0, declarations=([k_spades], [k_diamonds]))
    opts = {"preset": "coinche", "declaration_tie": "eldest"}
    with pytest.raises(IllegalAction) as refused:
        score_deal(GAME, opts, s)
    assert refused.value.code == "runs_tie_by"
    # With by: the eldest hand (team 1, by 0) declared first, so only team 1's 20 count:
    # 90 + 10 = 100 >= 80 and > 62 + 20: 100 + 80 = 180, and 62 + 20 = 82.
    s["declarations"] = [[dict(k_spades, by=1)], [dict(k_diamonds, by=0)]]
    assert score_deal(GAME, opts, s)["points"] == [180, 82]
