"""rules/bolot.md §5, §7, §8 and §10: declarations compared, options both ways, impossible summaries."""

import pytest

from app.rules import IllegalAction, score_deal


def summary(
    taker=0, cp=(84, 68), tricks=(5, 3), last=0, decl=([], []), belote=(0, 0), eldest=1, trump="o"
):
    return {
        "contract": {"trump": trump, "taker_team": taker, "round": 1, "eldest_team": eldest},
        "card_points": list(cp),
        "tricks": list(tricks),
        "last_trick_team": last,
        "declarations": [list(decl[0]), list(decl[1])],
        "belote": list(belote),
        "carried_in": 0,
        "revoke_team": None,
    }


def run(length, top, suit):
    return {"kind": "sequence", "length": length, "top": top, "suit": suit}


def four(rank):
    return {"kind": "four", "rank": rank}


# ---------------------------------------------------------------- declarations between the pairs (§5)
def test_longer_run_wins_and_scores_all_its_runs():
    # pair 0: a tercera (20); pair 1: a cinquanta (50) and a tercera (20) -> pair 1 scores 70.
    s = summary(cp=(84, 68), decl=([run(3, "1", "c")], [run(4, "12", "e"), run(3, "9", "b")]))
    d = score_deal("bolot", {}, s)["detail"]
    assert d["declarations"] == [0, 70]
    # totals: 84 + 10 = 94 against 68 + 70 = 138; P = 232, 117 needed: takers fail.
    assert score_deal("bolot", {}, s)["points"] == [0, 232]


def test_runs_of_five_to_eight_count_alike_then_top_card():
    # a run of 8 (top 1) against a run of 5 with top 1: both "5", same top -> trump suit decides.
    s = summary(decl=([run(5, "1", "c")], [run(5, "1", "o")]))
    assert score_deal("bolot", {}, s)["detail"]["declarations"] == [0, 100]


def test_higher_top_card_beats():
    # sequence order 7 8 9 3 10 11 12 1: a tercera to the 10 (9-3-10) beats one to the 3 (8-9-3).
    s = summary(decl=([run(3, "3", "c")], [run(3, "10", "e")]))
    assert score_deal("bolot", {}, s)["detail"]["declarations"] == [0, 20]


def test_equal_plain_runs_go_to_the_eldest_pair():
    s = summary(decl=([run(3, "10", "c")], [run(3, "10", "e")]), eldest=0)
    assert score_deal("bolot", {}, s)["detail"]["declarations"] == [20, 0]
    s = summary(decl=([run(3, "10", "c")], [run(3, "10", "e")]), eldest=1)
    assert score_deal("bolot", {}, s)["detail"]["declarations"] == [0, 20]


def test_tied_runs_without_eldest_team_are_rejected():
    s = summary(decl=([run(3, "10", "c")], [run(3, "10", "e")]), eldest=None)
    with pytest.raises(IllegalAction, match="eldest_team"):
        score_deal("bolot", {}, s)


def test_fours_compared_apart_from_runs():
    # pair 0: four 11s (100) and a tercera 7-8-9 of copes; pair 1: four 10s (200) and no run.
    # fours: 10s beat 11s -> pair 1 scores 200; runs: only pair 0 has one -> 20.
    s = summary(decl=([four("11"), run(3, "9", "c")], [four("10")]))
    assert score_deal("bolot", {}, s)["detail"]["declarations"] == [20, 200]


def test_four_values():
    for rank, value in (("10", 200), ("9", 150), ("1", 100), ("3", 100), ("12", 100), ("11", 100)):
        s = summary(decl=([four(rank)], []))
        assert score_deal("bolot", {}, s)["detail"]["declarations"] == [value, 0], rank


# ---------------------------------------------------------------- options (§10)
def test_tie_rule_fail_and_half():
    # takers 76 + 5 ... exactly half: 71 + 10 = 81 against 81: P = 162, 2*81 == 162.
    s = summary(cp=(71, 81), tricks=(4, 4), last=0)
    r = score_deal("bolot", {"tie_rule": "fail"}, s)
    assert (r["points"], r["outcome"]) == ([0, 162], "failed")
    r = score_deal("bolot", {"tie_rule": "half"}, s)
    assert (r["points"], r["outcome"]) == ([0, 81], "tie")


def test_capoted_keep_declarations_true_and_false():
    # pair 1 takes all 8 tricks as takers; pair 0 declared a tercera.
    s = summary(taker=1, cp=(0, 152), tricks=(0, 8), last=1, decl=([run(3, "9", "c")], []))
    r = score_deal("bolot", {"capoted_keep_declarations": True}, s)
    # pair 0: 20; pair 1: 152 + 100 = 252; P = 272, pair 1 made.
    assert r["points"] == [20, 252]
    r = score_deal("bolot", {"capoted_keep_declarations": False}, s)
    assert r["points"] == [0, 252]


def test_capoted_pair_keeps_its_bolot_either_way():
    s = summary(taker=1, cp=(0, 152), tricks=(0, 8), last=1, belote=(1, 0))
    assert score_deal("bolot", {"capoted_keep_declarations": False}, s)["points"] == [20, 252]


def test_failed_takers_lose_their_bolot_to_the_defenders():
    # §7: defenders get everything, the takers' bolot included. 60+10+20 = 90 vs 92: P=182, needed 92.
    s = summary(cp=(60, 92), tricks=(4, 4), last=0, belote=(1, 0))
    r = score_deal("bolot", {}, s)
    assert r["points"] == [0, 182] and r["outcome"] == "failed"


def test_unknown_option_rejected():
    with pytest.raises(IllegalAction, match="unknown option"):
        score_deal("bolot", {"colour": "red"}, summary())


# ---------------------------------------------------------------- impossible summaries (§8)
@pytest.mark.parametrize(
    "change, reason",
    [
        (lambda s: s["contract"].update(trump="x"), "trump"),
        (lambda s: s["contract"].update(taker_team=2), "taker_team"),
        (lambda s: s.update(tricks=[5, 4]), "tricks"),
        (lambda s: s.update(tricks=[-1, 9]), "tricks"),
        (lambda s: s.update(card_points=[84, 60]), "add up to 152"),
        (lambda s: s.update(tricks=[1, 7], card_points=[60, 92]), "at most 56"),
        (lambda s: s.update(tricks=[2, 6], card_points=[99, 53]), "at most 98"),
        (lambda s: s.update(last_trick_team=2), "last_trick_team"),
        (lambda s: s.update(tricks=[8, 0], card_points=[152, 0], last_trick_team=1), "no trick"),
        (lambda s: s.update(carried_in=10), "carries no points"),
        (lambda s: s.update(revoke_team=0), "revoke"),
        (lambda s: s.update(belote=[1, 1]), "only one team"),
        (lambda s: s.update(belote=[2, 0]), "belote"),
        (lambda s: s.update(declarations=[[run(2, "9", "c")], []]), "3 to 8"),
        (lambda s: s.update(declarations=[[run(9, "1", "c")], []]), "3 to 8"),
        (lambda s: s.update(declarations=[[run(4, "9", "c")], []]), "top card"),
        (lambda s: s.update(declarations=[[four("7")], []]), "not a declaration"),
        (lambda s: s.update(declarations=[[four("8")], []]), "not a declaration"),
        (lambda s: s.update(declarations=[[run(3, "9", "x")], []]), "suit"),
        (lambda s: s.update(declarations=[[run(3, "10", "c")], [four("10")]]), "two declarations"),
        (lambda s: s.update(declarations=[[run(8, "1", s_) for s_ in "ocb"], []]), "more than 16"),
        (lambda s: s.update(belote=[1, 0], declarations=[[], [run(3, "12", "o")]]), "bolot"),
    ],
)
def test_impossible_summaries_are_rejected_with_the_reason(change, reason):
    s = summary()
    change(s)
    with pytest.raises(IllegalAction, match=reason):
        score_deal("bolot", {}, s)


def test_six_tricks_may_hold_every_card_point():
    # 6 or more tricks: up to 152, so the other pair may have 0 points with 2 tricks.
    s = summary(cp=(152, 0), tricks=(6, 2), last=0)
    assert score_deal("bolot", {}, s)["points"] == [162, 0]
