"""score_deal for Bridge-Belote: declarations (§5), contra/recontra and hanging (§7),
the rejections of §8 and the scoring options of §10, each both ways."""

import pytest

from app.rules import IllegalAction, score_deal

GAME = "bridge-belote"


def seq(length, top, suit):
    return {"kind": "sequence", "length": length, "top": top, "suit": suit}


def four(rank):
    return {"kind": "four", "rank": rank}


def summary(
    kind="suit",
    trump="S",
    dec=0,
    cp=(90, 62),
    tricks=(5, 3),
    last=0,
    decl=([], []),
    belote=(0, 0),
    carried=0,
    m=1,
    **extra,
):
    s = {
        "contract": {"kind": kind, "trump": trump, "declarer_team": dec, "multiplier": m},
        "card_points": list(cp),
        "tricks": list(tricks),
        "last_trick_team": last,
        "declarations": [list(decl[0]), list(decl[1])],
        "belote": list(belote),
        "carried_in": carried,
        "revoke_team": None,
    }
    s.update(extra)
    return s


def declarations_points(decl, options=None, **kw):
    return score_deal(GAME, options or {}, summary(decl=decl, **kw))["detail"]["declarations"]


# ---------------------------------------------------------------------- §5 which declarations count
def test_longer_run_wins_and_scores_all_its_runs():
    assert declarations_points(([seq(3, "A", "H")], [seq(4, "T", "C"), seq(3, "9", "D")])) == [
        0,
        70,
    ]


def test_equal_length_higher_top_wins():
    assert declarations_points(([seq(3, "K", "H")], [seq(3, "Q", "C")])) == [20, 0]


def test_equal_best_runs_cancel_every_run():
    """Even the trump suit does not break the tie, and the tied team's other runs go too."""
    assert declarations_points(([seq(3, "K", "S"), seq(3, "9", "D")], [seq(3, "K", "H")])) == [0, 0]


def test_runs_of_five_to_eight_compare_as_five():
    # a quint to the A beats a run of 6 to the K: both count as 5, then the top card decides
    assert declarations_points(([seq(5, "A", "H")], [seq(6, "K", "C")])) == [100, 0]
    # a quint to the K and a run of 7 to the K are equal: both cancelled
    assert declarations_points(([seq(5, "K", "H")], [seq(7, "K", "C")])) == [0, 0]


def test_higher_four_wins_and_scores_all_its_fours():
    assert declarations_points(([four("Q"), four("K")], [four("A")])) == [0, 100]
    assert declarations_points(([four("9")], [four("J"), four("Q")])) == [0, 300]
    assert declarations_points(([four("9"), four("T")], [four("A")])) == [250, 0]


def test_fours_and_runs_are_independent():
    assert declarations_points(([seq(4, "A", "H")], [four("9"), seq(3, "K", "C")])) == [50, 150]


def test_team_with_no_trick_keeps_its_declarations():
    r = score_deal(
        GAME, {}, summary(trump="H", cp=(152, 0), tricks=(8, 0), decl=([], [seq(3, "T", "C")]))
    )
    assert r["detail"]["raw"] == [252, 20] and r["points"] == [25, 2] and r["detail"]["capot"] == 0


def test_belots_always_count_several_in_all_trumps():
    r = score_deal(
        GAME, {}, summary(kind="all_trumps", trump=None, cp=(150, 98), tricks=(5, 3), belote=(2, 1))
    )
    assert r["detail"]["belote"] == [40, 20] and r["detail"]["raw"] == [200, 118]
    assert r["points"] == [20, 12] and r["detail"]["deal_total"] == 32


# ---------------------------------------------------------------------- §7 contra, recontra, hanging
def test_contra_made_takes_the_whole_deal_doubled_plus_the_pool():
    r = score_deal(GAME, {}, summary(m=2, carried=5))
    assert r["points"] == [37, 0] and r["outcome"] == "made" and r["carried_out"] == 0


def test_recontra_inside_defenders_write_four_times():
    r = score_deal(GAME, {}, summary(cp=(57, 95), tricks=(3, 5), last=1, m=4))
    assert r["points"] == [0, 64] and r["outcome"] == "inside"


def test_tie_under_contra_hangs_everything_times_m():
    r = score_deal(GAME, {}, summary(cp=(71, 81), tricks=(4, 4), last=0, m=2, carried=8))
    assert r["points"] == [0, 0] and r["carried_out"] == 8 + 32 and r["outcome"] == "hanging"


def test_undoubled_ties_add_to_the_pool():
    r = score_deal(GAME, {}, summary(cp=(71, 81), tricks=(4, 4), last=0, carried=8))
    assert r["points"] == [0, 8] and r["carried_out"] == 16


def test_inside_undoubled_defenders_take_the_pool():
    r = score_deal(GAME, {}, summary(cp=(57, 95), tricks=(3, 5), last=1, carried=11))
    assert r["points"] == [0, 27] and r["carried_out"] == 0


# ---------------------------------------------------------------------- §10 options, both ways
@pytest.mark.parametrize("on, expected", [(False, [150, 120]), (True, [150, 20])])
def test_carre_kills_quint(on, expected):
    decl = ([four("9")], [seq(5, "A", "S"), seq(3, "K", "H")])
    assert declarations_points(decl, {"carre_kills_quint": on}) == expected


def test_carre_kills_quint_spares_tierces_and_quartes():
    decl = ([four("9")], [seq(4, "A", "S")])
    assert declarations_points(decl, {"carre_kills_quint": True}) == [150, 50]


@pytest.mark.parametrize("on, expected", [(False, [100, 0]), (True, [120, 0])])
def test_eight_card_run_120(on, expected):
    assert declarations_points(([seq(8, "A", "C")], []), {"eight_card_run_120": on}) == expected


@pytest.mark.parametrize("on, expected", [(True, [70, 0]), (False, [35, 0])])
def test_capot_multiplied_by_contra(on, expected):
    s = summary(kind="no_trumps", trump=None, cp=(120, 0), tricks=(8, 0), m=2)
    r = score_deal(GAME, {"capot_multiplied_by_contra": on}, s)
    assert r["points"] == expected
    assert r["detail"]["multiplier"] == (2 if on else 1)


def test_option_does_not_touch_a_doubled_deal_without_capot():
    s = summary(m=2)
    assert score_deal(GAME, {"capot_multiplied_by_contra": False}, s)["points"] == [32, 0]


# ---------------------------------------------------------------------- §8 rejections
BAD = [
    ("unknown kind", dict(kind="misere"), "unknown contract kind"),
    ("trump given for NT", dict(kind="no_trumps", trump="S", cp=(77, 43)), "no trump suit"),
    ("trump given for AT", dict(kind="all_trumps", trump="S", cp=(150, 98)), "no trump suit"),
    ("trump missing for a suit", dict(trump=None), "needs its trump suit"),
    ("unknown trump", dict(trump="X"), "needs its trump suit"),
    ("declarer not 0/1", dict(dec=2), "declarer_team"),
    ("multiplier 3", dict(m=3), "multiplier"),
    ("tricks not 8", dict(tricks=(5, 4)), "adding up to 8"),
    ("last trick team 2", dict(last=2), "last_trick_team"),
    ("last trick to a team with no trick", dict(cp=(152, 0), tricks=(8, 0), last=1), "no trick"),
    ("card points not 152", dict(cp=(90, 60)), "152"),
    ("AT card points not 248", dict(kind="all_trumps", trump=None, cp=(90, 62)), "248"),
    ("NT card points not 120", dict(kind="no_trumps", trump=None, cp=(90, 62)), "120"),
    ("more card points than the tricks hold", dict(cp=(10, 142), tricks=(7, 1)), "at most"),
    (
        "declaration in NT",
        dict(kind="no_trumps", trump=None, cp=(77, 43), decl=([seq(3, "A", "S")], [])),
        "No Trumps",
    ),
    ("belot in NT", dict(kind="no_trumps", trump=None, cp=(77, 43), belote=(1, 0)), "No Trumps"),
    ("two belots in a suit contract", dict(belote=(1, 1)), "one belot"),
    (
        "five belots in AT",
        dict(kind="all_trumps", trump=None, cp=(150, 98), belote=(3, 2)),
        "four belots",
    ),
    ("run of 2", dict(decl=([seq(2, "A", "S")], [])), "3 to 8"),
    ("run of 9", dict(decl=([seq(9, "A", "S")], [])), "3 to 8"),
    ("top too low", dict(decl=([seq(4, "9", "S")], [])), "cannot have 9"),
    ("four of 7s", dict(decl=([four("7")], [])), "worth nothing"),
    ("four of 8s", dict(decl=([four("8")], [])), "worth nothing"),
    ("same card twice", dict(decl=([seq(3, "A", "S")], [four("K")])), "two declarations"),
    (
        "more than 16 cards",
        dict(decl=([four("J"), four("9"), four("A"), four("T"), four("K")], [])),
        "16",
    ),
    (
        "belot's K in the other team's run",
        dict(decl=([], [seq(3, "K", "S")]), belote=(1, 0)),
        "belot",
    ),
    ("revoke", dict(revoke_team=0), "revoke"),
    ("negative pool", dict(carried=-1), "carried_in"),
    ("belote not numbers", dict(belote=("x", 0)), "belote"),
]


@pytest.mark.parametrize("name, kw, reason", BAD, ids=[b[0] for b in BAD])
def test_impossible_summaries_are_rejected_with_a_reason(name, kw, reason):
    with pytest.raises(IllegalAction, match=reason):
        score_deal(GAME, {}, summary(**kw))


def test_all_trumps_belots_need_free_suits():
    # team 1's runs hold a K or Q of three suits: team 0 can have only one belot left
    decl = ([], [seq(3, "K", "S"), seq(3, "Q", "H"), seq(3, "K", "D")])
    ok = summary(kind="all_trumps", trump=None, cp=(150, 98), decl=decl, belote=(1, 0))
    assert score_deal(GAME, {}, ok)["detail"]["belote"] == [20, 0]
    with pytest.raises(IllegalAction, match="belot"):
        score_deal(GAME, {}, dict(ok, belote=[2, 0]))


def test_summary_not_an_object():
    with pytest.raises(IllegalAction, match="object"):
        score_deal(GAME, {}, [])
    with pytest.raises(IllegalAction, match="unknown option"):
        score_deal(GAME, {"bogus": 1}, summary())
