"""The end of a championship's day (issue 19): knockout rounds named by what they are and
the champion shown, a knockout's bye no match in the standings, a hand-edited pairing that
repeats a match or a bye confirmed in a second step, a message after each organiser
action, and an early end's reason public. Every figure below is worked out by hand."""

from __future__ import annotations

import html
import re
from typing import Any

import httpx

from app.tournaments.pages import DONE_COOKIE, round_name, round_title
from app.tournaments.pairing import bracket_places
from app.tournaments.rounds import podium
from app.tournaments.standings import Result, standings
from app.web import i18n
from tests.tournaments.conftest import Org, make_tournament


async def _play_round(org: Org, tid: int, number: int) -> dict[str, Any]:
    """Pair, publish, the home team wins every match 300-100, close."""
    draft = await org.post(f"/tournaments/{tid}/rounds", status=201)
    assert draft["number"] == number
    await org.post(f"/tournaments/{tid}/rounds/{number}/publish")
    for x in draft["tables"]:
        if x["away"] and x["status"] == "pending":
            await org.post(
                f"/tournaments/{tid}/tables/{x['number']}/result",
                {"home_score": 300, "away_score": 100},
            )
    await org.post(f"/tournaments/{tid}/rounds/{number}/close")
    return draft


def _form(page: str, action: str) -> dict[str, str]:
    """The hidden fields of the form posting to ``action`` on ``page``."""
    start = page.index(f'action="{action}"')
    end = page.index("</form>", start)
    return {
        m.group(1): html.unescape(m.group(2))
        for m in re.finditer(
            r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page[start:end]
        )
    }


# ---------------------------------------------------------------- names of knockout rounds


def test_knockout_rounds_are_named_by_the_places_left() -> None:
    assert [bracket_places("knockout", n) for n in (1, 2, 4, 8, 16)] == [2, 4, 8, 16, 32]
    assert bracket_places("swiss", 4) is None and bracket_places("group", 2) is None
    names = {
        n: round_name({"number": 1, "bracket": bracket_places("knockout", n)})
        for n in (1, 2, 4, 8, 16)
    }
    assert names == {
        1: "Final",
        2: "Semi-finals",
        4: "Quarter-finals",
        8: "Round of 16",
        16: "Round of 32",
    }
    assert round_name({"number": 3, "bracket": None}) == "Round 3"
    assert round_title({"number": 5, "bracket": 4}) == "Semi-finals (round 5)"
    with i18n.using("ca"):
        assert round_name({"number": 1, "bracket": 2}) == "Final"
        assert round_name({"number": 1, "bracket": 4}) == "Semifinals"
        assert round_name({"number": 1, "bracket": 8}) == "Quarts de final"
        assert round_name({"number": 1, "bracket": 16}) == "Vuitens de final"
        assert round_name({"number": 1, "bracket": 32}) == "Ronda de 32"
    with i18n.using("fr"):
        assert round_title({"number": 4, "bracket": 4}) == "Demi-finales (ronde 4)"


def test_the_podium_waits_for_the_final_winner() -> None:
    def team(n: int) -> dict[str, Any]:
        return {"id": n, "name": f"T{n}", "players": []}

    def table(home: int, away: int, winner: int | None, status: str = "done") -> dict[str, Any]:
        return {"home": team(home), "away": team(away), "winner": winner, "status": status}

    semis = {"stage": "knockout", "status": "closed", "tables": [table(1, 4, 1), table(2, 3, 3)]}
    final = {"stage": "knockout", "status": "published", "tables": [table(1, 3, None, "playing")]}
    assert podium([semis, final]) is None  # the final is still playing
    final["tables"] = [table(1, 3, 3)]
    got = podium([semis, final])
    assert got is not None
    assert got["champion"]["id"] == 3 and got["runner_up"]["id"] == 1
    assert [t["id"] for t in got["semi_finalists"]] == [4, 2]
    league = {"stage": "league", "status": "closed", "tables": [table(1, 2, 1)]}
    assert podium([league]) is None  # a round robin has no champion by a final


# ---------------------------------------------------------------- a knockout's bye


def test_a_knockout_bye_advances_the_team_but_is_no_match() -> None:
    a, b, c = 1, 2, 3
    results = [
        Result(a, None, winner=a, knockout=True),
        Result(b, c, 300, 100, winner=b, knockout=True),
        Result(a, b, 300, 200, winner=a, knockout=True),
    ]
    rows = {r.team: r for r in standings([a, b, c], results, ("point_difference",))}
    # a: the bye (no match), then the final won: played 1, won 1, 2 match points
    assert (rows[a].played, rows[a].won, rows[a].lost, rows[a].byes) == (1, 1, 0, 1)
    assert rows[a].match_points == 2
    # b: won 300-100, lost 200-300: played 2, 1-0-1, 2 match points, +100
    assert (rows[b].played, rows[b].won, rows[b].lost, rows[b].match_points) == (2, 1, 1, 2)
    assert rows[b].point_difference == 100
    for row in rows.values():
        assert row.played == row.won + row.drawn + row.lost
    # a Swiss (or round robin) bye stays a match won, worth the bye's points
    swiss = {r.team: r for r in standings([a, b], [Result(a, None, winner=a)])}
    assert (swiss[a].played, swiss[a].won, swiss[a].match_points, swiss[a].byes) == (1, 1, 2, 1)


async def test_a_knockout_of_six_named_rounds_standings_and_champion(
    org: Org, client: httpx.AsyncClient
) -> None:
    t, teams = await make_tournament(org, 6, fmt="knockout")
    tid = t["id"]
    p1, p2, p3, p4, p5, p6 = (x["id"] for x in teams)
    # bracket of 8 (seeds 1 8 4 5 2 7 3 6): 1 bye, 4 v 5, 2 bye, 3 v 6: the quarter-finals
    first = await _play_round(org, tid, 1)
    got = [(x["home"]["id"], x["away"]["id"] if x["away"] else None) for x in first["tables"]]
    assert got == [(p1, None), (p4, p5), (p2, None), (p3, p6)]
    assert first["bracket"] == 8
    live = (await client.get(f"/tournaments/{tid}")).text
    assert "Quarter-finals (round 1)" in live
    # winners in bracket order 1, 4, 2, 3: semi-finals 1 v 4 and 2 v 3
    second = await _play_round(org, tid, 2)
    assert second["bracket"] == 4
    assert [(x["home"]["id"], x["away"]["id"]) for x in second["tables"]] == [(p1, p4), (p2, p3)]
    draft = await org.post(f"/tournaments/{tid}/rounds", status=201)
    assert draft["bracket"] == 2
    manage = (await client.get(f"/tournaments/{tid}/manage", headers=org.headers)).text
    assert "Preview of round 3</strong> · <strong>Final</strong>" in manage
    await org.post(f"/tournaments/{tid}/rounds/3/publish")
    printed = (await client.get(f"/tournaments/{tid}/print/pairings?round=3")).text
    assert "<h2>Final (round 3)</h2>" in printed
    sheets = (await client.get(f"/tournaments/{tid}/print/sheets?round=3")).text
    assert "Final (round 3)" in sheets
    table = (await client.get(f"/tournaments/{tid}/tables/1?round=3")).text
    assert "Final (round 3) · table 1" in table
    assert 'data-testid="podium"' not in (await client.get(f"/tournaments/{tid}")).text
    await org.post(f"/tournaments/{tid}/tables/1/result", {"home_score": 300, "away_score": 100})
    await org.post(f"/tournaments/{tid}/rounds/3/close")
    assert (await org.get(f"/tournaments/{tid}"))["status"] == "finished"

    # by hand: win 2, loss 0; a knockout bye is no match and gives nothing
    rows = {r["team"]["id"]: r for r in (await org.get(f"/tournaments/{tid}/standings"))["rows"]}

    def line(team: int) -> tuple[Any, ...]:
        r = rows[team]
        return (
            r["rank"],
            r["played"],
            r["won"],
            r["drawn"],
            r["lost"],
            r["byes"],
            r["match_points"],
            r["points_for"],
            r["points_against"],
        )

    assert line(p1) == (1, 2, 2, 0, 0, 1, 4, 600, 200)  # bye, beat 4, beat 2
    # 2, 3 and 4 each won one and lost one 300-100, level on match points, difference
    # and points scored (400 each); but the knockout ranks how far a team went first
    # (standings.knockout_reach): 2 reached the final, 3 and 4 the semi-finals
    assert line(p2) == (2, 2, 1, 0, 1, 1, 2, 400, 400)  # bye, beat 3, lost the final
    assert line(p3) == (3, 2, 1, 0, 1, 0, 2, 400, 400)  # beat 6, lost to 2 in a semi-final
    assert line(p4) == (3, 2, 1, 0, 1, 0, 2, 400, 400)  # beat 5, lost to 1 in a semi-final
    assert line(p5) == (5, 1, 0, 0, 1, 0, 0, 100, 300)
    assert line(p6) == (5, 1, 0, 0, 1, 0, 0, 100, 300)
    for r in rows.values():
        assert r["played"] == r["won"] + r["drawn"] + r["lost"]

    page = (await client.get(f"/tournaments/{tid}")).text
    podium_html = page[
        page.index('data-testid="podium"') : page.index(
            "</section>", page.index('data-testid="podium"')
        )
    ]
    assert "Champion" in podium_html and "Parella 1" in podium_html
    assert "Runner-up" in podium_html and "Parella 2" in podium_html
    assert (
        "Semi-finalists" in podium_html
        and "Parella 4" in podium_html
        and "Parella 3" in podium_html
    )
    standings_page = (await client.get(f"/tournaments/{tid}/standings")).text
    assert 'data-testid="podium"' in standings_page
    assert "A bye in the knockout only takes the team to the next round" in standings_page
    with_ca = (await client.get(f"/tournaments/{tid}?lang=ca")).text
    assert "Campió" in with_ca and "Final (ronda 3)" in with_ca
    client.cookies.clear()


async def test_groups_then_knockout_names_its_knockout_rounds(
    org: Org, client: httpx.AsyncClient
) -> None:
    t, _teams = await make_tournament(
        org, 8, fmt="groups_knockout", settings={"groups": 2, "advance": 2}
    )
    tid = t["id"]
    for n in (1, 2, 3):
        assert (await _play_round(org, tid, n))["bracket"] is None  # group rounds
    semi = await _play_round(org, tid, 4)
    assert semi["bracket"] == 4
    final = await _play_round(org, tid, 5)
    assert final["bracket"] == 2
    page = (await client.get(f"/tournaments/{tid}")).text
    assert "Final (round 5)" in page and "Semi-finals (round 4)" in page and "Round 3" in page
    winner = final["tables"][0]["home"]["name"]
    assert 'data-testid="podium"' in page and winner in page


# ---------------------------------------------------------------- a pairing by hand


async def _swiss_round_one(org: Org) -> tuple[int, list[int]]:
    """Five teams; round 1 set by hand a v b, c v d, e's bye; home teams win; closed."""
    t, made = await make_tournament(org, 5, fmt="swiss", clubs=0)
    tid = t["id"]
    a, b, c, d, e = (x["id"] for x in made)
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    await org.call(
        "PUT", f"/tournaments/{tid}/rounds/1/pairing", json={"tables": [[a, b], [c, d], [e, None]]}
    )
    await org.post(f"/tournaments/{tid}/rounds/1/publish")
    for n in (1, 2):
        await org.post(
            f"/tournaments/{tid}/tables/{n}/result", {"home_score": 300, "away_score": 100}
        )
    await org.post(f"/tournaments/{tid}/rounds/1/close")
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    return tid, [a, b, c, d, e]


async def test_a_pairing_repeating_a_match_or_a_bye_asks_for_a_confirmation(org: Org) -> None:
    tid, (a, b, c, d, e) = await _swiss_round_one(org)
    path = f"/api/tournaments/{tid}/rounds/2/pairing"
    before = (await org.get(f"/tournaments/{tid}/rounds"))[1]["tables"]
    repeat = {"tables": [[a, b], [c, e], [d, None]]}  # a v b again; d's first bye
    answer = await org.client.put(path, json=repeat, headers=org.headers)
    assert answer.status_code == 409
    body = answer.json()
    assert body["code"] == "pairing_confirm"
    assert body["warnings"] == [
        {"kind": "met", "home": "Parella 1", "away": "Parella 2", "round": 1}
    ]
    assert "Parella 1 and Parella 2 already met in round 1" in body["detail"]
    assert (await org.get(f"/tournaments/{tid}/rounds"))[1]["tables"] == before  # nothing saved
    second_bye = {"tables": [[a, c], [b, d], [e, None]]}
    answer = await org.client.put(path, json=second_bye, headers=org.headers)
    assert answer.status_code == 409
    assert answer.json()["warnings"] == [{"kind": "bye", "team": "Parella 5", "round": 1}]
    # the refusals that existed stay, confirmed or not
    twice = await org.client.put(
        path, json={"tables": [[a, b], [a, c], [d, e]], "confirm": True}, headers=org.headers
    )
    assert twice.status_code == 422 and twice.json()["detail"].startswith("Parella 1 is at two")
    # confirmed: saved, and in the audit trail
    saved = await org.call(
        "PUT", f"/tournaments/{tid}/rounds/2/pairing", json={**repeat, "confirm": True}
    )
    assert [(x["home"]["id"], x["away"]["id"] if x["away"] else None) for x in saved["tables"]] == [
        (a, b),
        (c, e),
        (d, None),
    ]
    trail = [x["action"] for x in await org.get(f"/tournaments/{tid}/audit")]
    assert trail.count("pairing") == 2  # round 1's and this one
    # a pairing without a repeat needs no confirmation
    fresh = {"tables": [[a, c], [b, e], [d, None]]}
    await org.call("PUT", f"/tournaments/{tid}/rounds/2/pairing", json=fresh)


async def test_the_manage_page_asks_again_without_javascript(
    org: Org, client: httpx.AsyncClient
) -> None:
    tid, (a, b, c, d, e) = await _swiss_round_one(org)
    page = (await client.get(f"/tournaments/{tid}/manage", headers=org.headers)).text
    action = f"/tournaments/{tid}/rounds/2/pairing"
    form = _form(page, action) | {
        "home_1": str(a),
        "away_1": str(b),
        "home_2": str(c),
        "away_2": str(d),
        "home_3": str(e),
        "away_3": "",
    }
    asked = await client.post(action, data=form, headers=org.headers)
    assert asked.status_code == 409
    text = html.unescape(asked.text)
    assert 'data-testid="pairing-confirm"' in text
    assert "Parella 1 and Parella 2 already met in round 1." in text
    assert "Parella 3 and Parella 4 already met in round 1." in text
    assert "Parella 5 already had a bye in round 1." in text
    rounds = await org.get(f"/tournaments/{tid}/rounds")
    assert (rounds[1]["tables"][0]["home"]["id"], rounds[1]["tables"][0]["away"]["id"]) != (a, b)
    confirm = _form(asked.text[asked.text.index('data-testid="pairing-confirm"') :], action)
    assert confirm["confirm"] == "1"
    assert (confirm["home_1"], confirm["away_1"], confirm["home_3"], confirm["away_3"]) == (
        str(a),
        str(b),
        str(e),
        "",
    )
    saved = await client.post(action, data=confirm, headers=org.headers)
    assert saved.status_code == 303
    rounds = await org.get(f"/tournaments/{tid}/rounds")
    assert [
        (x["home"]["id"], x["away"]["id"] if x["away"] else None) for x in rounds[1]["tables"]
    ] == [(a, b), (c, d), (e, None)]
    after = (await client.get(f"/tournaments/{tid}/manage", headers=org.headers)).text
    assert "The pairing is saved." in after


async def test_a_knockout_pairing_seats_the_teams_still_in(org: Org) -> None:
    t, teams = await make_tournament(org, 4, fmt="knockout")
    tid = t["id"]
    p1, p2, p3, p4 = (x["id"] for x in teams)
    await _play_round(org, tid, 1)  # 1 v 4, 2 v 3: 1 and 2 go through
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    path = f"/api/tournaments/{tid}/rounds/2/pairing"
    out = await org.client.put(path, json={"tables": [[p1, p4], [p2, None]]}, headers=org.headers)
    assert (
        out.status_code == 422 and out.json()["detail"] == "Parella 4 is not in this knockout round"
    )
    # the final with home and away swapped: nothing repeated, no confirmation asked
    saved = await org.call(
        "PUT", f"/tournaments/{tid}/rounds/2/pairing", json={"tables": [[p2, p1]]}
    )
    assert [(x["home"]["id"], x["away"]["id"]) for x in saved["tables"]] == [(p2, p1)]
    assert p3  # out in round 1


# ---------------------------------------------------------------- messages after actions


async def test_an_action_is_said_once_after_its_redirect(
    org: Org, client: httpx.AsyncClient
) -> None:
    t, _ = await make_tournament(org, 4, fmt="swiss", clubs=0)
    tid = t["id"]
    manage = f"/tournaments/{tid}/manage"
    page = (await client.get(manage, headers=org.headers)).text
    action = f"/tournaments/{tid}/rounds"
    posted = await client.post(action, data=_form(page, action), headers=org.headers)
    assert posted.status_code == 303 and posted.headers["location"] == manage
    assert client.cookies.get(DONE_COOKIE) == "paired"
    page = (await client.get(manage, headers=org.headers)).text
    flash = page[page.index('id="flash"') : page.index("</div>", page.index('id="flash"'))]
    assert 'role="status"' in flash
    assert "The round is paired: check the preview, then publish it." in flash
    again = (await client.get(manage, headers=org.headers)).text
    assert "The round is paired" not in again  # said once
    action = f"/tournaments/{tid}/rounds/1/publish"
    await client.post(action, data=_form(again, action), headers=org.headers)
    with_ca = html.unescape((await client.get(manage + "?lang=ca", headers=org.headers)).text)
    assert "S'ha publicat la ronda." in with_ca
    # the cookie names a message, never carries one
    client.cookies.set(DONE_COOKIE, "<script>alert(1)</script>")
    forged = (await client.get(manage, headers=org.headers)).text
    assert "alert(1)" not in forged
    client.cookies.clear()


# ---------------------------------------------------------------- an early end


async def test_an_early_end_and_its_reason_are_public(org: Org, client: httpx.AsyncClient) -> None:
    t, _ = await make_tournament(org, 4, fmt="swiss", clubs=0)
    tid = t["id"]
    await _play_round(org, tid, 1)
    assert 'data-testid="ended-early"' not in (await client.get(f"/tournaments/{tid}")).text
    await org.post(f"/tournaments/{tid}/end", {"reason": "the hall closes at eight"})
    got = await org.get(f"/tournaments/{tid}")
    assert got["settings"]["ended_early"] == {
        "reason": "the hall closes at eight",
        "after_round": 1,
    }
    client.cookies.clear()
    for path in (f"/tournaments/{tid}", f"/tournaments/{tid}/standings"):
        page = html.unescape((await client.get(path)).text)  # the public, signed out
        assert 'data-testid="ended-early"' in page
        assert "ended this championship after round 1" in page
        assert "the hall closes at eight" in page
    # the audit trail gives the early end's reason to everyone (a withdrawal's stays private)
    audit = await client.get(f"/api/tournaments/{tid}/audit")
    assert any(x["action"] == "end_early" and x["reason"] for x in audit.json())


async def test_a_knockout_pairing_ignores_the_group_stage_meetings(org: Org) -> None:
    t, _teams = await make_tournament(
        org, 8, fmt="groups_knockout", settings={"groups": 2, "advance": 2}
    )
    tid = t["id"]
    for n in (1, 2, 3):
        await _play_round(org, tid, n)  # each group's round robin: everyone met in its group
    groups = (await org.get(f"/tournaments/{tid}/standings"))["groups"]
    (a1, a2), (b1, b2) = ([r["team"]["id"] for r in g["rows"][:2]] for g in groups)
    draft = await org.post(f"/tournaments/{tid}/rounds", status=201)
    assert {(x["home"]["id"], x["away"]["id"]) for x in draft["tables"]} == {(a1, b2), (b1, a2)}
    # the two of group A against each other: they met in the group, as groups do; no question
    saved = await org.call(
        "PUT", f"/tournaments/{tid}/rounds/4/pairing", json={"tables": [[a1, a2], [b1, b2]]}
    )
    assert [(x["home"]["id"], x["away"]["id"]) for x in saved["tables"]] == [(a1, a2), (b1, b2)]


async def test_a_knockout_pairing_must_lead_to_a_final(org: Org) -> None:
    """A fresh organiser's hand pairing of 8 quarter-finalists as 3 tables and 2 byes left
    5 teams going on, and no next round could be paired: refused. A bracket has 1, 2, 4,
    8... tables, byes included (8 teams: 4 tables)."""
    t, teams = await make_tournament(org, 8, fmt="knockout")
    tid = t["id"]
    ids = [x["id"] for x in teams]
    path = f"/api/tournaments/{tid}/rounds/1/pairing"
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    five = [[ids[0], None], [ids[1], None], [ids[2], ids[3]], [ids[4], ids[5]], [ids[6], ids[7]]]
    out = await org.client.put(path, json={"tables": five}, headers=org.headers)
    assert out.status_code == 422, out.text
    assert out.json()["detail"] == (
        "a knockout round has 1, 2, 4, 8... tables, byes included, so that its winners "
        "meet two by two in the next round: this pairing has 5"
    )
    saved = await org.call(
        "PUT",
        f"/tournaments/{tid}/rounds/1/pairing",
        json={"tables": [[ids[0], ids[7]], [ids[1], ids[6]], [ids[2], ids[5]], [ids[3], ids[4]]]},
    )
    assert len(saved["tables"]) == 4
