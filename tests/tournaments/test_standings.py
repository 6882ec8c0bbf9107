"""Standings without a database: match points, tie-breaks in their order, club ranking."""

from __future__ import annotations

import pytest

from app.tournaments.standings import Result, club_ranking, explain, standings
from tests.tournaments.conftest import Org


def win(home: int, away: int, hs: int, as_: int) -> Result:
    return Result(home, away, hs, as_, winner=None if hs == as_ else (home if hs > as_ else away))


A, B, C, D = 1, 2, 3, 4


def test_three_way_tie_broken_by_head_to_head() -> None:
    # A, B, C each 4 match points, beating each other in a cycle, each beating D.
    results = [
        win(A, B, 1000, 900),  # A > B
        win(B, C, 1000, 900),  # B > C
        win(C, A, 1000, 900),  # C > A : a cycle, head-to-head level
        win(A, D, 1000, 500),  # A +500
        win(B, D, 1000, 700),  # B +300
        win(C, D, 1000, 600),  # C +400
    ]
    rows = standings([A, B, C, D], results, ("head_to_head", "point_difference", "points_scored"))
    assert [r.team for r in rows] == [A, C, B, D]
    assert [r.match_points for r in rows] == [4, 4, 4, 0]
    assert [r.head_to_head for r in rows[:3]] == [2, 2, 2]  # the mini-league did not split them
    assert [r.point_difference for r in rows[:3]] == [500, 400, 300]
    assert [r.rank for r in rows] == [1, 2, 3, 4]
    assert rows[0].decided_by == "point_difference" and rows[1].decided_by == "point_difference"


def test_head_to_head_splits_then_next_criterion_breaks_the_rest() -> None:
    # A, B, C on 4: A beat both others in the mini-league; B v C drawn; B has more points.
    results = [
        win(A, B, 1000, 900),
        win(A, C, 1000, 900),
        win(B, C, 800, 800),
        win(B, D, 1000, 100),
        win(C, D, 1000, 200),
        win(D, A, 1000, 900),
        win(B, C, 700, 700),  # a second B v C draw (e.g. a return leg)
    ]
    rows = standings([A, B, C, D], results, ("head_to_head", "point_difference"))
    mp = {r.team: r.match_points for r in rows}
    assert mp[A] == 4 and mp[B] == 4 and mp[C] == 4
    assert [r.team for r in rows[:3]] == [A, B, C]
    assert rows[0].decided_by == "head_to_head"
    assert rows[1].decided_by == "point_difference"


def test_head_to_head_is_skipped_when_the_level_teams_have_not_all_met() -> None:
    results = [win(A, D, 1000, 0), win(B, C, 1000, 900), win(C, D, 1000, 0)]
    # A 2 (not met B or C), B 2, C 2: head-to-head cannot apply; point difference does
    rows = standings([A, B, C, D], results, ("head_to_head", "point_difference"))
    assert [r.team for r in rows[:3]] == [A, C, B]
    assert all(r.head_to_head is None for r in rows)


def test_fully_level_teams_share_the_rank_in_seeding_order() -> None:
    rows = standings([C, A, B], [], ("head_to_head",))
    assert [(r.team, r.rank) for r in rows] == [(C, 1), (A, 1), (B, 1)]
    rows = standings([C, A, B], [win(A, B, 500, 500)], ("head_to_head",))
    assert [(r.team, r.rank) for r in rows] == [(A, 1), (B, 1), (C, 3)]


def test_buchholz_sums_the_opponents_match_points_and_a_bye_wins() -> None:
    results = [win(A, B, 10, 0), win(C, D, 10, 0), Result(B, None, winner=B), win(A, C, 10, 0)]
    rows = {r.team: r for r in standings([A, B, C, D], results, ("buchholz",))}
    assert rows[B].match_points == 2 and rows[B].byes == 1
    assert rows[A].buchholz == rows[B].match_points + rows[C].match_points == 4
    assert rows[D].buchholz == 2


def test_forfeit_gives_match_points_only() -> None:
    rows = {r.team: r for r in standings([A, B], [Result(A, B, 0, 0, winner=A, forfeit=True)])}
    assert rows[A].match_points == 2 and rows[A].points_for == 0 and rows[B].lost == 1


def test_custom_match_points_and_unknown_tiebreak() -> None:
    rows = standings([A, B], [win(A, B, 3, 1)], points={"win": 3, "draw": 1, "loss": 0})
    assert rows[0].match_points == 3
    with pytest.raises(ValueError, match="unknown tie-break"):
        standings([A, B], [], ("coin_toss",))


def test_club_ranking_sums_its_teams() -> None:
    results = [win(A, B, 1000, 500), win(C, D, 1000, 900)]
    rows = standings([A, B, C, D], results)
    clubs = club_ranking(rows, {A: 7, B: 8, C: 8, D: None})
    # same match points; club 7 has the better difference (+500 against -400)
    assert [(c["club"], c["rank"], c["match_points"], c["teams"]) for c in clubs] == [
        (7, 1, 2, 1),
        (8, 2, 2, 2),
    ]
    assert explain(["head_to_head"])[0] == "match points"


async def test_csv_exports_never_hand_a_spreadsheet_a_formula(org: Org) -> None:
    """Team, club and player names come from anyone; a cell starting with = + - @ would
    run as a formula in Excel or LibreOffice, so it is written with a leading apostrophe."""
    import csv
    import io

    club = await org.post("/clubs", {"name": "@SUM(A1)", "kind": "club", "town": "Lyon"}, 201)
    t = await org.post("/tournaments", {"name": "CSV", "game": "belote", "format": "swiss"}, 201)
    await org.post(
        f"/tournaments/{t['id']}/teams",
        {"name": '=HYPERLINK("http://evil","x")', "players": ["+1+1", "-2"], "club_id": club["id"]},
        201,
    )
    text = (await org.get(f"/tournaments/{t['id']}/standings.csv")).removeprefix("\ufeff")
    header, row = list(csv.reader(io.StringIO(text)))[:2]
    cells = dict(zip(header, row, strict=True))
    assert cells["team"] == '\'=HYPERLINK("http://evil","x")'
    assert cells["club"] == "'@SUM(A1)"
    assert cells["players"] == "'+1+1 & -2"
    assert cells["point_difference"] == "0"  # numbers stay numbers


def test_a_knockout_ranks_how_far_a_team_went_before_its_match_points() -> None:
    """A fresh organiser's groups then knockout: a semi-finalist with few group points
    stood below two quarter-finalists. By hand: the group (1 beat 2, 1 beat 3, 2 beat 3)
    gives 1 four match points, 2 two, 3 none; team 4 comes from another group with none
    here. The knockout: 4 beat 1 in a semi-final, 2 had a bye to the final, 4 beat 2.
    Champion 4 (4 match points), runner-up 2 (2), semi-finalist 1 (4, as many as the
    champion and more than the runner-up), out in the group 3."""
    k = {"knockout": True}
    results = [
        Result(1, 2, 300, 100, 1),
        Result(1, 3, 300, 100, 1),
        Result(2, 3, 300, 100, 2),
        Result(4, 1, 300, 200, 4, **k),
        Result(2, None, **k),  # a bye into the final
        Result(4, 2, 300, 250, 4, **k),
    ]
    rows = standings([1, 2, 3, 4], results)
    assert [(r.team, r.rank) for r in rows] == [(4, 1), (2, 2), (1, 3), (3, 4)]
    assert [r.match_points for r in rows] == [4, 2, 4, 0]
