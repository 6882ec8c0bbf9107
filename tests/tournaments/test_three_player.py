"""A championship of Belote for three (rules/belote-3p.md): every player for himself, a
Swiss in threes (docs/tournaments.md "Three players each for himself").

Expected values are worked out by hand from the rules, in the comments:

* a deal's points from rules/belote-3p.md §7 and the worked examples of §11 (T1, T2);
* match points of a table: the highest score 2, the second 1, the third 0, equal scores
  sharing the places they cover; a bye 1 (a second place's), no points;
* the pairing: byes to the lowest-ranked players without one, then the best player left
  sits with the nearest in the ranking with whom no one at the table has sat, a repeat
  only when none avoids it.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import httpx
import pytest

from app.tournaments import pairing
from app.tournaments.standings import TableOfThree, places_points, standings_three
from tests.conftest import Guest
from tests.tournaments.conftest import Org

GAME = "belote-3p"


def made(taker: int) -> dict[str, Any]:
    """rules/belote-3p.md §11 T1 turned so that ``taker`` takes: he has 70 card points in 4
    tricks and the last trick (80), the next seat 42, the one after 40; 80 beats both:
    made, points taker 80, next 42, after 40."""
    cp, tricks = [0, 0, 0], [0, 0, 0]
    for offset, (points, won) in enumerate(((70, 4), (42, 2), (40, 2))):
        cp[(taker + offset) % 3], tricks[(taker + offset) % 3] = points, won
    return {
        "contract": {"trump": "H", "taker": taker, "eldest": (taker + 1) % 3},
        "card_points": cp,
        "tricks": tricks,
        "last_trick_player": taker,
        "declarations": [[], [], []],
        "belote": [0, 0, 0],
    }


def failed(taker: int) -> dict[str, Any]:
    """§11 T2 turned: the taker 50 in 3 tricks, the next seat 47 in 2, the one after 55 in
    3 and the last trick (65): 50 is not more than 65, dedans: the defenders share
    152 + 10 = 162, 81 each; the taker 0."""
    cp, tricks = [0, 0, 0], [0, 0, 0]
    for offset, (points, won) in enumerate(((50, 3), (47, 2), (55, 3))):
        cp[(taker + offset) % 3], tricks[(taker + offset) % 3] = points, won
    return {
        "contract": {"trump": "H", "taker": taker, "eldest": (taker + 1) % 3},
        "card_points": cp,
        "tricks": tricks,
        "last_trick_player": (taker + 2) % 3,
        "declarations": [[], [], []],
        "belote": [0, 0, 0],
    }


async def _players(org: Org, tid: int, count: int) -> list[int]:
    ids = []
    for i in range(1, count + 1):
        entry = await org.post(
            f"/tournaments/{tid}/teams", {"name": f"P{i}", "players": [f"P{i}"]}, 201
        )
        ids.append(entry["id"])
    return ids


def _seats(table: dict[str, Any]) -> list[int | None]:
    return [
        table["home"]["id"],
        table["away"]["id"] if table["away"] else None,
        table["third"]["id"] if table.get("third") else None,
    ]


# ---------------------------------------------------------------- pure rules


def test_places_points_share_the_places_of_equal_scores() -> None:
    points = {"win": 2, "draw": 1, "loss": 0, "bye": 1}
    assert places_points([160, 84, 80], points) == [2, 1, 0]
    # two first: (2 + 1) / 2 = 1.5 each, the third 0
    assert places_points([120, 220, 220], points) == [0, 1.5, 1.5]
    # all equal: (2 + 1 + 0) / 3 = 1 each
    assert places_points([50, 50, 50], points) == [1, 1, 1]


def test_a_player_who_resigns_is_third_whatever_the_scores() -> None:
    # docs/tournaments.md: the resigner loses; the other two are placed by their scores.
    points = {"win": 2, "draw": 1, "loss": 0, "bye": 1}
    # seat 2 led with 90 and resigned: seat 0 (47) first, seat 1 (25) second, seat 2 third
    assert places_points([47, 25, 90], points, resigned=2) == [2, 1, 0]
    # 0-0-0, seat 1 resigned: the other two share first and second, (2 + 1) / 2 each
    assert places_points([0, 0, 0], points, resigned=1) == [1.5, 0, 1.5]
    rows = standings_three([1, 2, 3], [TableOfThree((1, 2, 3), (47, 25, 90), resigned=2)])
    by_team = {r.team: r for r in rows}
    assert [r.team for r in rows] == [1, 2, 3]
    assert (by_team[3].won, by_team[3].lost, by_team[3].match_points) == (0, 1, 0)
    assert (by_team[1].won, by_team[2].drawn) == (1, 1)
    assert by_team[3].points_for == 90  # the scores as played stay


def test_triples_avoid_repeats_when_they_can() -> None:
    # nine players after a round (1 2 3), (4 5 6), (7 8 9): a seating without a repeat
    # takes one of each first table: the best, 1, with the nearest unmet, 4 and 7
    met = [
        frozenset(p)
        for t in ((1, 2, 3), (4, 5, 6), (7, 8, 9))
        for p in ((t[0], t[1]), (t[0], t[2]), (t[1], t[2]))
    ]
    tables = pairing.swiss_triples(list(range(1, 10)), met, [])
    assert tables == [(1, 4, 7), (2, 5, 8), (3, 6, 9)]
    pairs = {frozenset(p) for a, b, c in tables for p in ((a, b), (a, c), (b, c)) if b and c}
    assert not pairs & set(met)


def test_byes_go_to_the_lowest_ranked_without_one() -> None:
    # eight players: 8 % 3 = 2 byes, the two lowest-ranked, 8 and 7
    tables = pairing.swiss_triples(list(range(1, 9)), [], [])
    assert tables[-2:] == [(7, None, None), (8, None, None)]
    assert tables[:2] == [(1, 2, 3), (4, 5, 6)]
    # 8 had one: the bye goes to 7 and 6
    tables = pairing.swiss_triples(list(range(1, 9)), [], [8])
    assert [t[0] for t in tables if t[1] is None] == [6, 7]
    with pytest.raises(pairing.PairingError):
        pairing.swiss_triples([1, 2], [], [])


def test_standings_of_three_by_match_points_and_by_points() -> None:
    # the tables of the seven-player championship below (test_seven_players_...)
    tables = [
        TableOfThree((1, 2, 3), (300, 250, 100)),
        TableOfThree((4, 5, 6), (150, 400, 90)),
        TableOfThree((7,)),
        TableOfThree((5, 1, 7), (100, 200, 350)),
        TableOfThree((2, 4, 3), (120, 220, 220)),
        TableOfThree((6,)),
    ]
    points = {"win": 2, "draw": 1, "loss": 0, "bye": 1}
    # by hand: P1 MP 2+1=3, 500 pts | P2 1+0=1, 370 | P3 0+1.5=1.5, 320 | P4 1+1.5=2.5, 370
    # P5 2+0=2, 500 | P6 0+1 (bye)=1, 90 | P7 1 (bye)+2=3, 350
    by_mp = standings_three(range(1, 8), tables, "match_points", points)
    # MP 3: P1 (500) above P7 (350); 2.5 P4; 2 P5; 1.5 P3; MP 1: P2 (370) above P6 (90)
    assert [r.team for r in by_mp] == [1, 7, 4, 5, 3, 2, 6]
    assert [r.rank for r in by_mp] == [1, 2, 3, 4, 5, 6, 7]
    assert by_mp[0].decided_by == "points_scored" and by_mp[1].decided_by is None
    by_points = standings_three(range(1, 8), tables, "points", points)
    # 500: P1 (MP 3) above P5 (MP 2); 370: P4 (2.5) above P2 (1); P7 350, P3 320, P6 90
    assert [r.team for r in by_points] == [1, 5, 4, 2, 7, 3, 6]
    assert by_points[0].decided_by == "match_points" and by_points[1].decided_by is None
    assert [r.points_for for r in by_points] == [500, 500, 370, 370, 350, 320, 90]
    six = by_points[-1]
    assert (six.byes, six.played, six.match_points) == (1, 1, 1)


# ---------------------------------------------------------------- through the API


async def test_six_players_two_rounds_paper_deals_ranked_by_match_points(org: Org) -> None:
    t = await org.post(
        "/tournaments",
        {
            "name": "Belote a tres",
            "game": GAME,
            "format": "swiss",
            "settings": {"rounds": 2, "match": {"kind": "deals", "deals": 2}},
        },
        201,
    )
    tid = t["id"]
    p = [0, *await _players(org, tid, 6)]  # p[1] .. p[6]
    # round 1: nobody has points, the ranking is the seeding: (P1 P2 P3), (P4 P5 P6)
    draft = await org.post(f"/tournaments/{tid}/rounds", status=201)
    assert [_seats(x) for x in draft["tables"]] == [[p[1], p[2], p[3]], [p[4], p[5], p[6]]]
    await org.post(f"/tournaments/{tid}/rounds/1/publish")
    # table 1: made(0) twice: P1 80+80 = 160, P2 42+42 = 84, P3 40+40 = 80
    for summary in (made(0), made(0)):
        sheet = await org.post(f"/tournaments/{tid}/tables/1/deals", {"summary": summary}, 201)
    assert sheet["status"] == "done" and sheet["winner"] == p[1]
    assert [sheet["home_score"], sheet["away_score"], sheet["third_score"]] == [160, 84, 80]
    assert sheet["deals"][0]["points"] == [80, 42, 40]
    # table 2: made(1) [40, 80, 42] then failed(1) [81, 0, 81]: P4 121, P5 80, P6 123
    await org.post(f"/tournaments/{tid}/tables/2/deals", {"summary": made(1)}, 201)
    sheet = await org.post(f"/tournaments/{tid}/tables/2/deals", {"summary": failed(1)}, 201)
    assert [sheet["home_score"], sheet["away_score"], sheet["third_score"]] == [121, 80, 123]
    assert sheet["winner"] == p[6]
    # the table is over after its two deals: another is refused
    await org.post(f"/tournaments/{tid}/tables/2/deals", {"summary": made(0)}, 409)
    await org.post(f"/tournaments/{tid}/rounds/1/close")
    # after round 1: MP P1 2 (160), P6 2 (123), P4 1 (121), P2 1 (84), P3 0 (80), P5 0 (80)
    # ranked P1 P6 P4 P2 P3 P5. Met: 1-2 1-3 2-3 4-5 4-6 5-6: the three of each table of
    # round 1 have all met, so two tables of three hold at least two of one of them: two
    # repeats at least. The first seating with two: P1 with P6 and P4 (6-4 met, ranks 2
    # and 3), then P2 P3 P5 (2-3 met).
    draft = await org.post(f"/tournaments/{tid}/rounds", status=201)
    assert [_seats(x) for x in draft["tables"]] == [[p[1], p[6], p[4]], [p[2], p[3], p[5]]]
    await org.post(f"/tournaments/{tid}/rounds/2/publish")
    # table 1: made(2) twice: seat 2 (P4) 160, seat 0 (P1) 84, seat 1 (P6) 80
    for summary in (made(2), made(2)):
        await org.post(f"/tournaments/{tid}/tables/1/deals", {"summary": summary}, 201)
    # table 2: made(0) [80, 42, 40] then failed(0) [0, 81, 81]: P2 80, P3 123, P5 121
    await org.post(f"/tournaments/{tid}/tables/2/deals", {"summary": made(0)}, 201)
    await org.post(f"/tournaments/{tid}/tables/2/deals", {"summary": failed(0)}, 201)
    await org.post(f"/tournaments/{tid}/rounds/2/close")
    assert (await org.get(f"/tournaments/{tid}"))["status"] == "finished"
    data = await org.get(f"/tournaments/{tid}/standings")
    assert data["ranking"] == "match_points" and data["order"][0] == "match points"
    # P1 MP 2+1=3, 160+84=244 | P2 1+0=1, 164 | P3 0+2=2, 203 | P4 1+2=3, 281
    # P5 0+1=1, 201 | P6 2+0=2, 203. MP 3: P4 (281) above P1 (244); MP 2: P3 and P6 level
    # in points (203) and first places (1): they share rank 3; MP 1: P5 (201) above P2 (164)
    rows = data["rows"]
    assert [r["team"]["id"] for r in rows] == [p[4], p[1], p[3], p[6], p[5], p[2]]
    assert [r["rank"] for r in rows] == [1, 2, 3, 3, 5, 6]
    assert [r["match_points"] for r in rows] == [3, 3, 2, 2, 1, 1]
    assert [r["points_for"] for r in rows] == [281, 244, 203, 203, 201, 164]


async def test_seven_players_final_scores_a_bye_ranked_by_points(org: Org) -> None:
    t = await org.post(
        "/tournaments",
        {
            "name": "Belote a tres, punts",
            "game": GAME,
            "format": "swiss",
            "settings": {"rounds": 2, "ranking": "points", "match": {"kind": "deals", "deals": 4}},
        },
        201,
    )
    tid = t["id"]
    assert t["settings"]["points"]["bye"] == 1  # a second place's by default
    p = [0, *await _players(org, tid, 7)]
    draft = await org.post(f"/tournaments/{tid}/rounds", status=201)
    # 7 = 2 tables of three and one bye: the lowest-ranked, P7
    assert [_seats(x) for x in draft["tables"]] == [
        [p[1], p[2], p[3]],
        [p[4], p[5], p[6]],
        [p[7], None, None],
    ]
    assert draft["tables"][2]["mode"] == "bye"
    await org.post(f"/tournaments/{tid}/rounds/1/publish")
    for table, scores in ((1, (300, 250, 100)), (2, (150, 400, 90))):
        home, away, third = scores
        result = await org.post(
            f"/tournaments/{tid}/tables/{table}/result",
            {"home_score": home, "away_score": away, "third_score": third},
        )
        assert result["third_score"] == third
    # two scores at a table of three: refused
    response = await org.client.post(
        f"/api/tournaments/{tid}/tables/1/result",
        json={"home_score": 1, "away_score": 2, "reason": "typo"},
        headers=org.headers,
    )
    assert response.status_code == 422 and "three scores" in response.json()["detail"]
    await org.post(f"/tournaments/{tid}/rounds/1/close")
    # by points: P5 400, P1 300, P2 250, P4 150, P3 100, P6 90, P7 0. P7 had the bye:
    # it goes to P6. P5 cannot sit with P4 or P6 (met); 1, 2, 3 have all met, so the two
    # tables hold two of them once: one repeat. P5 with the nearest unmet, P1 and P7;
    # then P2 P4 P3 (2-3 met).
    draft = await org.post(f"/tournaments/{tid}/rounds", status=201)
    assert [_seats(x) for x in draft["tables"]] == [
        [p[5], p[1], p[7]],
        [p[2], p[4], p[3]],
        [p[6], None, None],
    ]
    await org.post(f"/tournaments/{tid}/rounds/2/publish")
    for table, scores in ((1, (100, 200, 350)), (2, (120, 220, 220))):
        home, away, third = scores
        await org.post(
            f"/tournaments/{tid}/tables/{table}/result",
            {"home_score": home, "away_score": away, "third_score": third},
        )
    tables = (await org.get(f"/tournaments/{tid}/rounds"))[-1]["tables"]
    assert tables[1]["winner"] is None  # two first places (220): no single winner
    await org.post(f"/tournaments/{tid}/rounds/2/close")
    data = await org.get(f"/tournaments/{tid}/standings")
    # worked out in test_standings_of_three_by_match_points_and_by_points
    assert [r["team"]["id"] for r in data["rows"]] == [p[1], p[5], p[4], p[2], p[7], p[3], p[6]]
    assert data["order"][0] == "points scored"


async def test_an_online_table_of_three_seats_each_player_in_order(org: Org) -> None:
    t = await org.post(
        "/tournaments",
        {
            "name": "En línia a tres",
            "game": GAME,
            "format": "swiss",
            "options": {"target": 100},
            "settings": {"play": "online", "rounds": 1},
        },
        201,
    )
    tid = t["id"]
    bots = [
        (
            await org.post(
                f"/tournaments/{tid}/teams", {"name": f"Bot {i}", "bot": "heuristic"}, 201
            )
        )["id"]
        for i in range(3)
    ]
    paper = await org.post(f"/tournaments/{tid}/teams", {"name": "Paper", "players": ["Pep"]}, 201)
    draft = await org.post(f"/tournaments/{tid}/rounds", status=201)
    # four players: one bye, to the lowest-ranked (Paper); the three bots at table 1, online
    assert [_seats(x) for x in draft["tables"]] == [bots, [paper["id"], None, None]]
    assert draft["tables"][0]["mode"] == "online"
    published = await org.post(f"/tournaments/{tid}/rounds/1/publish")
    room_id = published["tables"][0]["room_id"]
    room = await org.get(f"/rooms/{room_id}")
    assert [s["kind"] for s in room["seats"]] == ["bot"] * 3
    for _ in range(600):
        table = (await org.get(f"/tournaments/{tid}/rounds"))[-1]["tables"][0]
        if table["status"] == "done":
            break
        await asyncio.sleep(0.1)
    assert table["status"] == "done"
    view = await org.get(f"/rooms/{room_id}/view")
    scores = [table["home_score"], table["away_score"], table["third_score"]]
    assert view["scores"] == scores
    top = max(scores)
    assert table["winner"] == (bots[scores.index(top)] if scores.count(top) == 1 else None)


async def test_other_formats_of_three_are_refused_and_ranking_is_checked(org: Org) -> None:
    for body, code in (
        ({"game": GAME, "format": "knockout"}, "three players"),
        ({"game": GAME, "format": "swiss", "settings": {"ranking": "wins"}}, "ranking"),
        ({"game": "bolot", "format": "swiss", "settings": {"ranking": "points"}}, "ranking"),
    ):
        response = await org.client.post(
            "/api/tournaments", json={"name": "t", **body}, headers=org.headers
        )
        assert response.status_code == 422 and code in response.json()["detail"], response.text


async def test_twenty_copies_of_a_result_of_three_one_audit_entry(org: Org) -> None:
    t = await org.post(
        "/tournaments",
        {
            "name": "Carrera",
            "game": GAME,
            "format": "swiss",
            "settings": {"match": {"kind": "deals", "deals": 3}},
        },
        201,
    )
    tid = t["id"]
    await _players(org, tid, 3)
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    await org.post(f"/tournaments/{tid}/rounds/1/publish")
    headers = dict(org.headers) | {"Idempotency-Key": "three-result-1"}
    body = {"home_score": 300, "away_score": 120, "third_score": 90}
    answers = await asyncio.gather(
        *(
            org.client.post(f"/api/tournaments/{tid}/tables/1/result", json=body, headers=headers)
            for _ in range(20)
        )
    )
    assert {a.status_code for a in answers} == {200}, [a.text for a in answers][:2]
    assert all(a.json() == answers[0].json() for a in answers)
    audit = await org.get(f"/tournaments/{tid}/audit")
    assert sum(1 for e in audit if e["action"] == "result") == 1


async def test_twenty_copies_of_a_deal_of_three_one_deal(org: Org) -> None:
    t = await org.post(
        "/tournaments",
        {
            "name": "Carrera",
            "game": GAME,
            "format": "swiss",
            "settings": {"match": {"kind": "deals", "deals": 3}},
        },
        201,
    )
    tid = t["id"]
    await _players(org, tid, 3)
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    await org.post(f"/tournaments/{tid}/rounds/1/publish")
    headers = dict(org.headers) | {"Idempotency-Key": "three-deal-1"}
    answers = await asyncio.gather(
        *(
            org.client.post(
                f"/api/tournaments/{tid}/tables/1/deals", json={"summary": made(1)}, headers=headers
            )
            for _ in range(20)
        )
    )
    assert {a.status_code for a in answers} == {201}, [a.text for a in answers][:2]
    sheet = await org.get(f"/tournaments/{tid}/tables/1?round=1")
    # one deal: made(1) is [40, 80, 42]
    assert len(sheet["deals"]) == 1 and sheet["third_score"] == 42


# ---------------------------------------------------------------- pages


async def test_pages_show_three_players_and_take_a_deal_in_three_columns(org: Org) -> None:
    t = await org.post(
        "/tournaments",
        {
            "name": "Belote a tres",
            "game": GAME,
            "format": "swiss",
            "settings": {"match": {"kind": "deals", "deals": 2}},
        },
        201,
    )
    tid = t["id"]
    await _players(org, tid, 4)
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    manage = await org.client.get(f"/tournaments/{tid}/manage", headers=org.headers)
    assert manage.status_code == 200 and "P1" in manage.text and "P2 · P3" in manage.text
    await org.post(f"/tournaments/{tid}/rounds/1/publish")
    page = await org.client.get(f"/tournaments/{tid}/tables/1", headers=org.headers)
    assert page.status_code == 200
    # the deal form has a column per player, and the final score three boxes
    for name in ("f_tricks2", "f_cp2", 'name="third_score"'):
        assert name in page.text
    token = re.search(r'name="csrf" value="([0-9a-f]+)"', page.text)
    assert token
    # §11 T1 (taker seat 1): tricks 2 4 2, card points 40 70 42, last trick seat 1:
    # points [40, 80, 42]
    form = {
        "csrf": token.group(1),
        "round": "1",
        "entry": "fields",
        "f_trump": "H",
        "f_taker": "1",
        "f_last": "1",
        "f_belote": "",
        "f_tricks0": "2",
        "f_tricks1": "4",
        "f_tricks2": "2",
        "f_cp0": "40",
        "f_cp1": "70",
        "f_cp2": "42",
    }
    posted = await org.client.post(
        f"/tournaments/{tid}/tables/1/deals", data=form, headers=org.headers
    )
    assert posted.status_code == 303, posted.text
    sheet = await org.get(f"/tournaments/{tid}/tables/1")
    assert sheet["deals"][0]["points"] == [40, 80, 42]
    assert [sheet["home_score"], sheet["away_score"], sheet["third_score"]] == [40, 80, 42]
    page = await org.client.get(f"/tournaments/{tid}/tables/1", headers=org.headers)
    assert "(42)" in page.text  # the third column of the sheet
    # the final score form takes the third score
    form = {"csrf": token.group(1), "round": "1", "home_score": "100", "away_score": "200"}
    form |= {"third_score": "150", "reason": "the sheet"}
    posted = await org.client.post(
        f"/tournaments/{tid}/tables/1/result", data=form, headers=org.headers
    )
    assert posted.status_code == 303, posted.text
    table = (await org.get(f"/tournaments/{tid}/rounds"))[0]["tables"][0]
    assert (table["third_score"], table["winner"]) == (150, table["away"]["id"])
    for url in (f"/tournaments/{tid}", f"/tournaments/{tid}/standings"):
        shown = await org.client.get(url, headers=org.headers)
        assert shown.status_code == 200 and "P3" in shown.text, url


async def test_the_printable_sheets_have_a_column_per_player(org: Org) -> None:
    t = await org.post(
        "/tournaments", {"name": "Belote a tres", "game": GAME, "format": "swiss"}, 201
    )
    tid = t["id"]
    await _players(org, tid, 3)
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    await org.post(f"/tournaments/{tid}/rounds/1/publish")
    pairings = await org.client.get(f"/tournaments/{tid}/print/pairings", headers=org.headers)
    assert "Seat 3" in pairings.text and "P3" in pairings.text
    sheets = await org.client.get(f"/tournaments/{tid}/print/sheets", headers=org.headers)
    # deal, then name and total for each of the three players
    assert sheets.text.count("<th>Total</th>") == 3 and "P3" in sheets.text


async def test_a_players_history_and_the_results_csv_name_the_three(org: Org) -> None:
    t = await org.post(
        "/tournaments",
        {
            "name": "Belote a tres",
            "game": GAME,
            "format": "swiss",
            "settings": {"match": {"kind": "deals", "deals": 4}},
        },
        201,
    )
    tid = t["id"]
    p = [0, *await _players(org, tid, 3)]
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    await org.post(f"/tournaments/{tid}/rounds/1/publish")
    body = {"home_score": 300, "away_score": 120, "third_score": 300}
    await org.post(f"/tournaments/{tid}/tables/1/result", body)
    # P3 (seat 2) shares the highest score, 300, with P1: a draw; P2 is beaten by both
    history = await org.get(f"/tournaments/{tid}/teams/{p[3]}")
    (match,) = history["matches"]
    assert [o["id"] for o in match["opponents"]] == [p[1], p[2]]
    assert (match["side"], match["score_for"], match["score_against"], match["outcome"]) == (
        "third",
        300,
        300,
        "draw",
    )
    assert (await org.get(f"/tournaments/{tid}/teams/{p[2]}"))["matches"][0]["outcome"] == "lost"
    page = await org.client.get(f"/tournaments/{tid}/teams/{p[3]}", headers=org.headers)
    assert page.status_code == 200 and "P2" in page.text
    text = await org.get(f"/tournaments/{tid}/results.csv")
    head, row = text.splitlines()[:2]
    assert head.endswith("third,third_score") and row.endswith("P3,300")


async def test_an_online_table_of_three_seats_the_accounts_seat_k_for_player_k(
    org: Org, client: httpx.AsyncClient, guest: Guest
) -> None:
    people = []
    for name in ("Pepa", "Vicent", "Amparo"):
        # one guest per name: a second "Pepa" while the first is active is refused
        me = (await client.post("/api/session", json={"nickname": name})).json()["user"]
        client.cookies.clear()
        people.append(me["id"])
    t = await org.post(
        "/tournaments",
        {"name": "Comptes", "game": GAME, "format": "swiss", "settings": {"play": "online"}},
        201,
    )
    tid = t["id"]
    for name, uid in zip(("Pepa", "Vicent", "Amparo"), people, strict=True):
        await org.post(f"/tournaments/{tid}/teams", {"name": name, "user_ids": [uid]}, 201)
    draft = await org.post(f"/tournaments/{tid}/rounds", status=201)
    assert draft["tables"][0]["mode"] == "online"
    published = await org.post(f"/tournaments/{tid}/rounds/1/publish")
    room = await org.get(f"/rooms/{published['tables'][0]['room_id']}")
    # seeding order, nobody has points: Pepa home (seat 0), Vicent away (1), Amparo third (2)
    assert [(s["seat"], s["user_id"]) for s in room["seats"]] == list(enumerate(people))


async def test_a_resignation_at_a_table_of_three_puts_the_resigner_last(
    org: Org, client: httpx.AsyncClient
) -> None:
    # Vicent (seat 1) resigns at 0-0-0: the table names no single winner (Pepa and Amparo
    # are level), and the standings place him third with no match points, the other two
    # sharing first and second, (2 + 1) / 2 = 1.5 each (a fresh tester saw all three
    # given a first place and 1 point).
    people, heads = [], []
    for name in ("Pepa", "Vicent", "Amparo"):
        made = (await client.post("/api/session", json={"nickname": name})).json()
        client.cookies.clear()
        people.append(made["user"]["id"])
        heads.append({"Authorization": f"Bearer {made['token']}"})
    t = await org.post(
        "/tournaments",
        {"name": "Rendició", "game": GAME, "format": "swiss", "settings": {"play": "online"}},
        201,
    )
    tid = t["id"]
    entrants = [
        (await org.post(f"/tournaments/{tid}/teams", {"name": n, "user_ids": [u]}, 201))["id"]
        for n, u in zip(("Pepa", "Vicent", "Amparo"), people, strict=True)
    ]
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    published = await org.post(f"/tournaments/{tid}/rounds/1/publish")
    room = published["tables"][0]["room_id"]
    response = await client.post(f"/api/rooms/{room}/resign", headers=heads[1])
    assert response.status_code == 200, response.text
    (table,) = (await org.get(f"/tournaments/{tid}/rounds"))[0]["tables"]
    assert table["status"] == "done" and table["winner"] is None
    rows = {r["team"]["id"]: r for r in (await org.get(f"/tournaments/{tid}/standings"))["rows"]}
    pepa, vicent, amparo = (rows[e] for e in entrants)
    assert (vicent["match_points"], vicent["lost"], vicent["won"]) == (0, 1, 0)
    assert pepa["match_points"] == amparo["match_points"] == 1.5
    assert vicent["rank"] == 3
    # The organiser corrects the table and names Vicent the winner by the scores: the
    # entered result stands alone, so the table and the standings agree (the second
    # fresh tester saw the corrected winner placed third).
    await org.post(
        f"/tournaments/{tid}/tables/1/result",
        {"home_score": 400, "away_score": 1100, "third_score": 700, "reason": "a correction"},
    )
    (table,) = (await org.get(f"/tournaments/{tid}/rounds"))[0]["tables"]
    assert table["winner"] == entrants[1]
    rows = await org.get(f"/tournaments/{tid}/standings")
    assert [r["team"]["id"] for r in rows["rows"]] == [entrants[1], entrants[2], entrants[0]]
