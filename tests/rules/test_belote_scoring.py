"""score_deal for belote and belote-2p: options, declaration comparison, litige, capot, rejections.

Values worked out by hand from rules/belote.md §5, §7, §8 and §10 (trump hearts throughout).
"""

import pytest

from app.rules import IllegalAction, score_deal
from app.rules.belote import GAME as BELOTE
from app.rules.scoring import card_points_cap, played_card_points


def summary(
    cp=(92, 60),
    tricks=(5, 3),
    last=0,
    decl=([], []),
    belote=(0, 0),
    carried_in=0,
    taker=0,
    eldest=1,
    **extra,
):
    s = {
        "contract": {"trump": "H", "taker_team": taker, "eldest_team": eldest},
        "card_points": list(cp),
        "tricks": list(tricks),
        "last_trick_team": last,
        "declarations": [list(decl[0]), list(decl[1])],
        "belote": list(belote),
        "carried_in": carried_in,
        "revoke_team": None,
    }
    s.update(extra)
    return s


def run(length, top, suit, by=None):
    c = {"kind": "sequence", "length": length, "top": top, "suit": suit}
    if by is not None:
        c["by"] = by
    return c


def four(rank):
    return {"kind": "four", "rank": rank}


def points(game, s, options=None):
    return score_deal(game, options or {}, s)["points"]


# ---------------------------------------------------------------- options, 4 players (§10)
def test_tie_rule_litige_holds_the_takers_points():
    r = score_deal("belote", {"tie_rule": "litige"}, summary((71, 81), (4, 4), 0))
    assert (r["points"], r["carried_out"], r["outcome"]) == ([0, 81], 81, "litige")


def test_tie_rule_fail_makes_a_tie_dedans():
    r = score_deal("belote", {"tie_rule": "fail"}, summary((71, 81), (4, 4), 0))
    assert (r["points"], r["carried_out"], r["outcome"]) == ([0, 162], 0, "failed")


CAPOTED_WITH_CARRE = summary((152, 0), (8, 0), 0, decl=([], [four("J")]))


def test_capoted_team_loses_its_declarations_by_default():
    # team 1 holds the best declaration (carré of J, 200) but took no trick
    assert points("belote", CAPOTED_WITH_CARRE, {"capoted_keep_declarations": False}) == [252, 0]


def test_capoted_team_keeps_its_declarations_with_the_option():
    assert points("belote", CAPOTED_WITH_CARRE, {"capoted_keep_declarations": True}) == [252, 200]


EIGHT_RUN = run(8, "A", "H")


def test_eight_card_run_is_120_by_default():
    s = summary((100, 52), (5, 3), 0, decl=([EIGHT_RUN], []))
    assert points("belote", s, {"eight_card_run_120": True}) == [230, 52]


def test_eight_card_run_is_100_without_the_option():
    s = summary((100, 52), (5, 3), 0, decl=([EIGHT_RUN], []))
    assert points("belote", s, {"eight_card_run_120": False}) == [210, 52]


def test_seven_card_run_is_a_quinte_either_way():
    s = summary((100, 52), (5, 3), 0, decl=([run(7, "A", "H")], []))
    assert points("belote", s, {"eight_card_run_120": True}) == [210, 52]


# ---------------------------------------------------------------- capot, dedans, litige (§7)
def test_takers_capot_is_252():
    assert points("belote", summary((152, 0), (8, 0), 0)) == [252, 0]


def test_defenders_capot_is_252():
    r = score_deal("belote", {}, summary((0, 152), (0, 8), 1))
    assert (r["points"], r["outcome"]) == ([0, 252], "failed")


def test_dedans_gives_the_takers_winning_declarations_to_the_defenders_and_keeps_their_belote():
    # totals 60+20+20 = 100 against 92+10 = 102
    s = summary((60, 92), (3, 5), 1, decl=([run(3, "K", "S")], []), belote=(1, 0))
    r = score_deal("belote", {}, s)
    assert r["detail"]["totals"] == [100, 102]
    assert (r["points"], r["outcome"]) == ([20, 182], "failed")


def test_held_points_go_to_makers():
    r = score_deal("belote", {}, summary((92, 60), (5, 3), 0, carried_in=81))
    assert (r["points"], r["carried_out"]) == ([183, 60], 0)


def test_held_points_go_to_defenders_of_a_dedans():
    r = score_deal("belote", {}, summary((62, 90), (3, 5), 1, carried_in=81))
    assert (r["points"], r["carried_out"]) == ([0, 243], 0)


def test_a_new_litige_adds_to_the_held_points():
    r = score_deal("belote", {}, summary((71, 81), (4, 4), 0, carried_in=81))
    assert (r["points"], r["carried_out"], r["outcome"]) == ([0, 81], 162, "litige")


def test_litige_holds_the_takers_belote_too():
    # 61 + 20 + 10 = 91 against 91
    r = score_deal("belote", {}, summary((61, 91), (4, 4), 0, belote=(1, 0)))
    assert (r["points"], r["carried_out"], r["outcome"]) == ([0, 91], 91, "litige")


def test_taker_team_1_makes():
    assert points("belote", summary((60, 92), (4, 4), 0, taker=1)) == [70, 92]


# ---------------------------------------------------------------- comparison, 4 players (§5)
@pytest.mark.parametrize(
    "name, decl, vd",
    [
        ("carré beats a longer run", ([run(5, "J", "S")], [four("Q")]), [0, 100]),
        (
            "best team scores all its declarations",
            ([four("J"), run(3, "A", "D")], [four("9")]),
            [220, 0],
        ),
        ("longer run beats a higher top", ([run(4, "T", "S")], [run(3, "A", "D")]), [50, 0]),
        ("higher top among equal lengths", ([run(3, "K", "S")], [run(3, "A", "D")]), [0, 20]),
        ("trump run beats an equal plain run", ([run(3, "K", "S")], [run(3, "K", "H")]), [0, 20]),
        ("carrés: J beats 9", ([four("9")], [four("J")]), [0, 200]),
        ("carrés: A beats T", ([four("T")], [four("A")]), [0, 100]),
        (
            "equal plain runs: the eldest's first",
            ([run(3, "K", "S", by=1)], [run(3, "K", "D", by=0)]),
            [0, 20],
        ),
        (
            "equal plain runs: by 1 before by 2",
            ([run(3, "K", "S", by=1)], [run(3, "K", "D", by=2)]),
            [20, 0],
        ),
        (
            "runs of 5 and 6 count alike",
            ([run(6, "A", "S", by=3)], [run(5, "A", "D", by=2)]),
            [0, 100],
        ),
    ],
)
def test_only_the_best_declarations_team_scores(name, decl, vd):
    r = score_deal("belote", {}, summary((92, 60), (5, 3), 0, decl=decl))
    assert r["detail"]["declarations"] == vd, name


def test_equal_runs_without_by_are_rejected():
    with pytest.raises(IllegalAction, match="by"):
        score_deal("belote", {}, summary(decl=([run(3, "K", "S")], [run(3, "K", "D")])))


def test_by_must_be_a_player_of_the_declaring_team():
    with pytest.raises(IllegalAction, match="not a player of team 0"):
        score_deal("belote", {}, summary(decl=([run(3, "K", "S", by=0)], [])))  # eldest is team 1


# ---------------------------------------------------------------- 2 players (§5, §7)
def summary2(cp=(58, 45), tricks=(5, 4), last=0, decl=([], []), belote=(0, 0), eldest=0, **extra):
    return summary(cp, tricks, last, decl, belote, eldest=eldest, **extra)


@pytest.mark.parametrize(
    "name, decl, vd",
    [
        ("higher carré cancels the other", ([four("Q")], [four("9")]), [0, 150]),
        (
            "a carré voids the other's runs, even a longer one",
            ([four("Q"), run(3, "9", "S")], [run(5, "J", "D")]),
            [120, 0],
        ),
        (
            "a beaten carré still voids the runs",
            ([four("K"), run(5, "J", "D")], [four("A"), run(3, "9", "S")]),
            [0, 100],
        ),
        ("longer run wins", ([run(3, "A", "S")], [run(4, "T", "D")]), [0, 50]),
        ("trump run beats an equal plain run", ([run(3, "K", "H")], [run(3, "K", "S")]), [20, 0]),
        ("exact tie to the eldest hand", ([run(3, "K", "D")], [run(3, "K", "S")]), [20, 0]),
        (
            "the winner scores all his runs",
            ([run(4, "K", "S"), run(3, "9", "D")], [run(3, "A", "C")]),
            [70, 0],
        ),
    ],
)
def test_two_player_comparison(name, decl, vd):
    r = score_deal("belote-2p", {}, summary2(decl=decl))
    assert r["detail"]["declarations"] == vd, name


def test_two_player_exact_tie_goes_to_eldest_seat_1():
    r = score_deal(
        "belote-2p", {}, summary2(decl=([run(3, "K", "D")], [run(3, "K", "S")]), eldest=1)
    )
    assert r["detail"]["declarations"] == [0, 20]


def test_two_player_tie_without_eldest_team_is_rejected():
    s = summary2(decl=([run(3, "K", "D")], [run(3, "K", "S")]))
    del s["contract"]["eldest_team"]
    with pytest.raises(IllegalAction, match="eldest_team"):
        score_deal("belote-2p", {}, s)


def test_two_player_capot_and_a_trickless_player_keeps_declarations():
    s = summary2(cp=(146, 0), tricks=(9, 0), last=0, decl=([], [run(3, "9", "S")]))
    r = score_deal("belote-2p", {}, s)
    assert (r["points"], r["outcome"]) == ([246, 20], "scored")


def test_two_player_eight_card_run_option():
    s = summary2(cp=(100, 30), tricks=(6, 3), last=0, decl=([EIGHT_RUN], []))
    assert points("belote-2p", s, {"eight_card_run_120": True}) == [230, 30]
    assert points("belote-2p", s, {"eight_card_run_120": False}) == [210, 30]


def test_two_player_no_contract_to_make():
    # the taker scores less, and each still scores his own total
    assert points("belote-2p", summary2(cp=(20, 90), tricks=(2, 7), last=1)) == [20, 100]


# ---------------------------------------------------------------- card point bounds (§2, §8)
def test_card_point_caps_four_players():
    assert [card_points_cap(BELOTE, "H", n) for n in (1, 2, 3, 4, 5, 6)] == [
        56,
        98,
        126,
        140,
        150,
        152,
    ]


def test_two_players_play_18_to_146_card_points():
    from app.rules.belote import RULESETS

    assert played_card_points(RULESETS[1], "H") == (18, 146)
    assert played_card_points(BELOTE, "H") == (152, 152)


# ---------------------------------------------------------------- rejections (§8)
def reject(game, s, match):
    with pytest.raises(IllegalAction, match=match):
        score_deal(game, {}, s)


@pytest.mark.parametrize(
    "change, match",
    [
        (lambda s: s["contract"].update(trump="X"), "trump"),
        (lambda s: s["contract"].update(taker_team=2), "taker_team"),
        (lambda s: s.update(tricks=[5, 2]), "adding up to 8"),
        (lambda s: s.update(last_trick_team=2), "last_trick_team"),
        (lambda s: s.update(tricks=[8, 0], card_points=[152, 0], last_trick_team=1), "no trick"),
        (lambda s: s.update(card_points=[92, 58]), "add up to 152"),
        (lambda s: s.update(tricks=[1, 7], card_points=[57, 95]), "at most 56"),
        (lambda s: s.update(belote=[2, 0]), "0 or 1"),
        (lambda s: s.update(belote=[1, 1]), "only one"),
        (lambda s: s.update(declarations=[[run(9, "A", "S")], []]), "3 to 8"),
        (lambda s: s.update(declarations=[[run(2, "A", "S")], []]), "3 to 8"),
        (lambda s: s.update(declarations=[[run(4, "9", "S")], []]), "top card"),
        (lambda s: s.update(declarations=[[four("7")], []]), "not a declaration"),
        (lambda s: s.update(declarations=[[four("8")], []]), "not a declaration"),
        (lambda s: s.update(declarations=[[run(3, "A", "X")], []]), "unknown suit"),
        (
            lambda s: s.update(declarations=[[run(3, "K", "S")], [run(4, "K", "S")]]),
            "two declarations",
        ),
        (
            lambda s: s.update(
                declarations=[[four("J"), four("A"), four("K"), four("Q"), run(3, "9", "S")], []]
            ),
            "more than 16",
        ),
        (
            lambda s: s.update(belote=[1, 0], declarations=[[], [run(3, "K", "H")]]),
            "belote's cards",
        ),
        (lambda s: s.update(revoke_team=0), "revoke"),
        (lambda s: s.update(carried_in=-5), "carried_in"),
        (lambda s: s.update(declarations=[[run(3, "K", "S", by=7)], []]), "0 to 3"),
    ],
)
def test_four_player_rejections(change, match):
    s = summary()
    change(s)
    reject("belote", s, match)


@pytest.mark.parametrize(
    "change, match",
    [
        (lambda s: s.update(tricks=[5, 3]), "adding up to 9"),
        (lambda s: s.update(card_points=[10, 7]), "18 to 146"),
        (lambda s: s.update(card_points=[100, 50]), "18 to 146"),
        (lambda s: s.update(tricks=[1, 8], card_points=[35, 50], last_trick_team=1), "at most 34"),
        (
            lambda s: s.update(declarations=[[four("J"), four("Q"), run(3, "9", "S")], []]),
            "more than 9",
        ),
        (lambda s: s.update(carried_in=5), "holds no points"),
        (lambda s: s.update(revoke_team=1), "revoke"),
        (
            lambda s: s.update(belote=[0, 1], declarations=[[run(3, "K", "H")], []]),
            "belote's cards",
        ),
        (lambda s: s["contract"].update(taker_team=2), "taker_team"),
    ],
)
def test_two_player_rejections(change, match):
    s = summary2()
    change(s)
    reject("belote-2p", s, match)


def test_options_are_checked():
    with pytest.raises(IllegalAction, match="tie_rule"):
        score_deal("belote", {"tie_rule": "half"}, summary())
    with pytest.raises(IllegalAction, match="unknown option"):
        score_deal("belote", {"seven_of_trump_exchange": True}, summary())
    with pytest.raises(IllegalAction, match="unknown option"):
        score_deal("belote-2p", {"tie_rule": "fail"}, summary2())
