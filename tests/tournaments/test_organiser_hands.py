"""The organiser's hands (issue 19 §3): a published round taken back to a draft while
nothing of it is played, a draft's pairing edited by hand (a bye given by hand), a team
corrected, the championship ended early. Every change is in the audit trail, and a
double tap changes nothing twice."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import httpx

from tests.tournaments.conftest import Org, make_tournament, winning_deal


async def _swiss(org: Org, teams: int = 4) -> tuple[int, list[dict[str, Any]]]:
    t, made = await make_tournament(org, teams, fmt="swiss", clubs=0)
    return int(t["id"]), made


async def test_a_round_with_no_result_goes_back_to_a_draft(org: Org) -> None:
    tid, _ = await _swiss(org)
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    await org.post(f"/tournaments/{tid}/rounds/1/publish")
    assert (await org.get(f"/tournaments/{tid}"))["status"] == "running"
    back = await org.post(f"/tournaments/{tid}/rounds/1/unpublish")
    assert back["status"] == "draft"
    assert [x["status"] for x in back["tables"]] == ["pending", "pending"]
    assert (await org.get(f"/tournaments/{tid}"))["status"] == "registration"
    public = await org.client.get(f"/api/tournaments/{tid}/rounds")
    assert public.json() == []  # a draft is the organisers' only
    await org.post(f"/tournaments/{tid}/rounds/1/unpublish", status=409)  # not open now
    again = await org.post(f"/tournaments/{tid}/rounds/1/publish")
    assert again["status"] == "published"
    trail = [a["action"] for a in await org.get(f"/tournaments/{tid}/audit")]
    assert trail.count("unpublish") == 1 and trail.count("publish") == 2


async def test_a_round_with_a_deal_or_a_result_stays_published(org: Org) -> None:
    tid, _ = await _swiss(org)
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    await org.post(f"/tournaments/{tid}/rounds/1/publish")
    await org.post(f"/tournaments/{tid}/tables/2/deals", {"summary": winning_deal(0)}, 201)
    response = await org.client.post(
        f"/api/tournaments/{tid}/rounds/1/unpublish", headers=org.headers
    )
    assert response.status_code == 409
    assert response.json()["detail"].startswith("round 1 has results at table(s) 2")
    rounds = await org.get(f"/tournaments/{tid}/rounds")
    assert rounds[0]["status"] == "published"


async def test_an_online_round_goes_back_and_its_rooms_stop(
    org: Org, client: httpx.AsyncClient
) -> None:
    ids = []
    for name in ("Pepa", "Vicent", "Amparo", "Toni"):  # one guest per name (unique nicknames)
        me = (await client.post("/api/session", json={"nickname": name})).json()["user"]
        client.cookies.clear()
        ids.append(me["id"])
    t = await org.post(
        "/tournaments",
        {"name": "En línia", "game": "bolot", "format": "swiss", "settings": {"play": "online"}},
        201,
    )
    tid = t["id"]
    await org.post(f"/tournaments/{tid}/teams", {"name": "A", "user_ids": ids[:2]}, 201)
    await org.post(f"/tournaments/{tid}/teams", {"name": "B", "user_ids": ids[2:]}, 201)
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    published = await org.post(f"/tournaments/{tid}/rounds/1/publish")
    room_id = published["tables"][0]["room_id"]
    assert room_id and (await org.get(f"/rooms/{room_id}"))["status"] == "playing"
    back = await org.post(f"/tournaments/{tid}/rounds/1/unpublish")
    assert back["tables"][0]["room_id"] is None and back["tables"][0]["status"] == "pending"
    assert (await org.get(f"/rooms/{room_id}"))["status"] == "finished"
    lobby = await org.get("/rooms")
    assert all(r["id"] != room_id or r["status"] != "playing" for r in lobby)
    again = await org.post(f"/tournaments/{tid}/rounds/1/publish")
    assert again["tables"][0]["room_id"] not in (None, room_id)


async def test_a_draft_pairing_is_edited_by_hand_with_a_bye(org: Org) -> None:
    tid, teams = await _swiss(org)
    a, b, c, d = (x["id"] for x in teams)
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    edited = await org.call(
        "PUT",
        f"/tournaments/{tid}/rounds/1/pairing",
        json={"tables": [[a, d], [b, None], [c, None]]},
    )
    got = [(x["home"]["id"], x["away"]["id"] if x["away"] else None) for x in edited["tables"]]
    assert got == [(a, d), (b, None), (c, None)]
    assert [x["status"] for x in edited["tables"]] == ["pending", "done", "done"]  # byes are done
    for bad, said in (
        ([[a, d], [b, c], [a, None]], "Parella 1 is at two tables"),
        ([[a, d], [b, None]], "Parella 3 has no table"),
        ([[a, a], [b, c], [d, None]], "Parella 1 cannot play against itself"),
        ([[a, d], [b, c], [999, None]], "999 is not an active team"),
    ):
        response = await org.client.put(
            f"/api/tournaments/{tid}/rounds/1/pairing", json={"tables": bad}, headers=org.headers
        )
        assert response.status_code == 422, bad
        assert response.json()["detail"].startswith(said), response.json()
    published = await org.post(f"/tournaments/{tid}/rounds/1/publish")
    assert len(published["tables"]) == 3
    standings = await org.get(f"/tournaments/{tid}/standings")
    byes = {r["team"]["id"]: r["byes"] for r in standings["rows"]}
    assert byes == {a: 0, b: 1, c: 1, d: 0}
    await org.call(
        "PUT", f"/tournaments/{tid}/rounds/1/pairing", json={"tables": [[a, b], [c, d]]}, status=409
    )  # published: no longer a draft
    trail = await org.get(f"/tournaments/{tid}/audit")
    change = next(x for x in trail if x["action"] == "pairing")
    assert change["after"]["tables"] == [[a, d], [b, None], [c, None]]


async def test_a_round_robin_keeps_its_schedule(org: Org) -> None:
    t, teams = await make_tournament(org, 4)
    await org.post(f"/tournaments/{t['id']}/rounds", status=201)
    ids = [x["id"] for x in teams]
    await org.call(
        "PUT",
        f"/tournaments/{t['id']}/rounds/1/pairing",
        json={"tables": [[ids[0], ids[1]], [ids[2], ids[3]]]},
        status=409,
    )


async def test_a_team_is_corrected(org: Org) -> None:
    t, teams = await make_tournament(org, 3)
    tid, team = t["id"], teams[0]
    club = await org.post("/clubs", {"name": "Penya Nova", "kind": "penya", "town": "Sagunt"}, 201)
    fixed = await org.call(
        "PATCH",
        f"/tournaments/{tid}/teams/{team['id']}",
        json={"name": "Parella U", "players": ["Pepa", "Vicent"], "club_id": club["id"]},
    )
    assert (fixed["name"], fixed["players"], fixed["club"]) == (
        "Parella U",
        ["Pepa", "Vicent"],
        "Penya Nova",
    )
    only_name = await org.call(
        "PATCH", f"/tournaments/{tid}/teams/{team['id']}", json={"name": "Parella Una"}
    )
    assert only_name["club"] == "Penya Nova" and only_name["players"] == ["Pepa", "Vicent"]
    no_club = await org.call(
        "PATCH", f"/tournaments/{tid}/teams/{team['id']}", json={"club_id": None}
    )
    assert no_club["club_id"] is None
    await org.call(
        "PATCH",
        f"/tournaments/{tid}/teams/{team['id']}",
        json={"name": teams[1]["name"].upper()},
        status=409,
    )  # another team's name, whatever the case
    await org.call(
        "PATCH",
        f"/tournaments/{tid}/teams/{team['id']}",
        json={"players": ["a", "b", "c"]},
        status=422,
    )
    trail = await org.get(f"/tournaments/{tid}/audit")
    edits = [x for x in trail if x["action"] == "edit_team"]
    assert len(edits) == 3
    first = next(x for x in edits if x["before"]["name"] == "Parella 1")
    assert first["after"] == {
        "name": "Parella U",
        "players": ["Pepa", "Vicent"],
        "club": club["id"],
    }


async def test_the_championship_ends_early(org: Org) -> None:
    tid, _ = await _swiss(org)
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    await org.post(f"/tournaments/{tid}/rounds/1/publish")
    response = await org.client.post(
        f"/api/tournaments/{tid}/end", json={"reason": "rain"}, headers=org.headers
    )
    assert response.status_code == 409 and "round 1 is still open" in response.json()["detail"]
    for n in (1, 2):
        await org.post(
            f"/tournaments/{tid}/tables/{n}/result",
            {
                "home_score": 300,
                "away_score": 100,
                "winner": (await org.get(f"/tournaments/{tid}/tables/{n}"))["home"]["id"],
            },
        )
    await org.post(f"/tournaments/{tid}/rounds/1/close")
    await org.post(f"/tournaments/{tid}/rounds", status=201)  # a draft of round 2: thrown away
    ended = await org.post(f"/tournaments/{tid}/end", {"reason": "rain"})
    assert ended["status"] == "finished"
    rounds = await org.get(f"/tournaments/{tid}/rounds")
    assert [r["number"] for r in rounds] == [1]
    await org.post(f"/tournaments/{tid}/rounds", status=409)
    await org.post(f"/tournaments/{tid}/end", {}, status=409)
    trail = await org.get(f"/tournaments/{tid}/audit")
    assert any(x["action"] == "end_early" and x["reason"] == "rain" for x in trail)


async def test_a_double_tap_unpublishes_once(org: Org) -> None:
    tid, _ = await _swiss(org)
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    await org.post(f"/tournaments/{tid}/rounds/1/publish")
    path = f"/api/tournaments/{tid}/rounds/1/unpublish"
    headers = {**org.headers, "Idempotency-Key": "unpublish-round-1"}
    answers = await asyncio.gather(*(org.client.post(path, headers=headers) for _ in range(10)))
    assert {r.status_code for r in answers} == {200}
    trail = [a["action"] for a in await org.get(f"/tournaments/{tid}/audit")]
    assert trail.count("unpublish") == 1


async def test_the_manage_page_offers_the_forms(org: Org, client: httpx.AsyncClient) -> None:
    tid, teams = await _swiss(org)
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    page = (await client.get(f"/tournaments/{tid}/manage", headers=org.headers)).text
    assert 'data-testid="pairing-edit"' in page and 'name="home_3"' in page
    assert f'action="/tournaments/{tid}/teams/{teams[0]["id"]}/edit"' in page
    assert 'data-testid="end-early"' in page
    key = re.search(
        r'action="/tournaments/\d+/rounds/1/pairing".*?name="creation_key" value="([^"]+)"',
        page,
        re.S,
    )
    assert key is not None
    csrf = re.search(r'name="csrf" value="([^"]+)"', page)
    assert csrf is not None
    a, b, c, d = (x["id"] for x in teams)
    form = {
        "csrf": csrf.group(1),
        "creation_key": key.group(1),
        "home_1": str(a),
        "away_1": str(b),
        "home_2": str(c),
        "away_2": "",
        "home_3": str(d),
        "away_3": "",
    }
    posted = await client.post(
        f"/tournaments/{tid}/rounds/1/pairing", data=form, headers=org.headers
    )
    assert posted.status_code == 303
    rounds = await org.get(f"/tournaments/{tid}/rounds")
    assert [
        (x["home"]["id"], x["away"]["id"] if x["away"] else None) for x in rounds[0]["tables"]
    ] == [
        (a, b),
        (c, None),
        (d, None),
    ]
    page = (await client.get(f"/tournaments/{tid}/manage", headers=org.headers)).text
    assert "changed the pairing of round 1" in page
