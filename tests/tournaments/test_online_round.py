"""An online round played by bot teams to the end (TAPET_BOT_DELAY=0 in the fixtures):
publishing creates the rooms with the teams seated, the result is recorded when the
match ends, and the round then closes."""

from __future__ import annotations

import asyncio

import httpx

from tests.conftest import Guest
from tests.tournaments.conftest import Org


async def _wait_done(org: Org, tid: int, tables: int) -> list[dict]:
    for _ in range(600):
        rounds = await org.get(f"/tournaments/{tid}/rounds")
        current = rounds[-1]["tables"]
        if sum(1 for x in current if x["status"] == "done") == tables:
            return current
        await asyncio.sleep(0.1)
    raise AssertionError(f"tables not finished: {current}")


async def test_online_round_of_bot_teams_is_played_and_recorded(org: Org) -> None:
    t = await org.post(
        "/tournaments",
        {
            "name": "Lliga en línia",
            "game": "bolot",
            "format": "round_robin",
            "options": {"target": 1},
            "settings": {"play": "online"},
        },
        201,
    )
    tid = t["id"]
    for i in range(4):
        await org.post(f"/tournaments/{tid}/teams", {"name": f"Bots {i}", "bot": "heuristic"}, 201)
    draft = await org.post(f"/tournaments/{tid}/rounds", status=201)
    assert [x["mode"] for x in draft["tables"]] == ["online", "online"]
    published = await org.post(f"/tournaments/{tid}/rounds/1/publish")
    rooms = [x["room_id"] for x in published["tables"]]
    assert all(rooms)
    room = await org.get(f"/rooms/{rooms[0]}")
    assert [s["kind"] for s in room["seats"]] == ["bot"] * 4
    # The table's page links back to its championship (anyone may open it).
    page = (await org.client.get(f"/rooms/{rooms[0]}")).text
    assert f'href="/tournaments/{tid}"' in page and "Lliga en línia · round 1, table 1" in page
    tables = await _wait_done(org, tid, 2)
    for x in tables:
        assert x["home_score"] is not None and x["winner"] in (x["home"]["id"], x["away"]["id"])
        view = await org.get(f"/rooms/{x['room_id']}/view")
        assert view["scores"] == [x["home_score"], x["away_score"]]
    await org.post(f"/tournaments/{tid}/rounds/1/close")
    standings = await org.get(f"/tournaments/{tid}/standings")
    assert sum(r["match_points"] for r in standings["rows"]) == 4


async def test_online_table_needs_accounts_and_seats_the_players(
    org: Org, client: httpx.AsyncClient, guest: Guest
) -> None:
    players = []
    for name in ("Pepa", "Vicent", "Amparo", "Toni"):
        # one guest per name: a second "Pepa" while the first is active is refused
        made = (await client.post("/api/session", json={"nickname": name})).json()
        client.cookies.clear()
        players.append(({"Authorization": f"Bearer {made['token']}"}, made["user"]["id"]))
    t = await org.post(
        "/tournaments", {"name": "Online", "game": "bolot", "settings": {"play": "online"}}, 201
    )
    tid = t["id"]
    a = await org.post(
        f"/tournaments/{tid}/teams", {"name": "A", "user_ids": [players[0][1], players[1][1]]}, 201
    )
    b = await org.post(f"/tournaments/{tid}/teams", {"name": "B", "players": ["X", "Y"]}, 201)
    await org.post(f"/tournaments/{tid}/teams", {"name": "C", "user_ids": [players[0][1]]}, 409)
    draft = await org.post(f"/tournaments/{tid}/rounds", status=201)
    assert draft["tables"][0]["mode"] == "paper"  # B has only names: the preview puts it on paper
    await org.call("PUT", f"/tournaments/{tid}/rounds/1/tables/1/mode", json={"mode": "online"})
    response = await client.post(f"/api/tournaments/{tid}/rounds/1/publish", headers=org.headers)
    assert response.status_code == 422 and "B has no player accounts" in response.json()["detail"]
    await org.call("PUT", f"/tournaments/{tid}/rounds/1/tables/1/mode", json={"mode": "paper"})
    await org.post(f"/tournaments/{tid}/rounds/1/publish")
    assert a["players"] == ["Pepa", "Vicent"] and b["user_ids"] == []


async def test_only_organisers_change_a_tournament(
    org: Org, client: httpx.AsyncClient, guest: Guest
) -> None:
    t = await org.post(
        "/tournaments", {"name": "T", "game": "botifarra", "options": {"cap_score": 121}}, 201
    )
    other = await guest("Intrús")
    response = await client.post(
        f"/api/tournaments/{t['id']}/teams", json={"name": "X"}, headers=other
    )
    assert response.status_code == 403 and "organisers" in response.json()["detail"]
    response = await client.post(f"/api/tournaments/{t['id']}/teams", json={"name": "X"})
    assert response.status_code == 401
    response = await client.post(
        "/api/tournaments", json={"name": "T", "game": "chess"}, headers=org.headers
    )
    assert response.status_code == 422 and "unknown game" in response.json()["detail"]
    response = await client.get("/api/tournaments/999")
    assert response.status_code == 404
    assert t["options"]["cap_score"] == 121 and "121" in t["match"]
    schema = (await client.get("/openapi.json")).json()
    assert "/api/tournaments/{tournament_id}/standings" in schema["paths"]
    assert "/api/tournaments/{tournament_id}/tables/{table_no}/result" in schema["paths"]


async def test_a_co_organiser_is_a_registered_account(
    org: Org, client: httpx.AsyncClient, guest: Guest
) -> None:
    """Accounts organise championships (DESIGN.md "People"; docs/tournaments.md): the owner
    cannot make a guest, or a deleted account, a co-organiser (it ran the championship:
    a fresh tester's find); an account becomes one."""
    from tests.tournaments.conftest import account

    t = await org.post("/tournaments", {"name": "T", "game": "bolot"}, 201)
    path = f"/api/tournaments/{t['id']}/organisers"
    visitor = await guest("Visitant")
    visitor_id = (await client.get("/api/me", headers=visitor)).json()["id"]
    gone = await account(client, "gone")
    gone_id = (await client.get("/api/me", headers=gone)).json()["id"]
    deleted = await client.request(
        "DELETE", "/api/me", json={"password": "correct horse battery"}, headers=gone
    )
    assert deleted.status_code == 204
    for uid in (visitor_id, gone_id):
        response = await client.post(path, json={"user_id": uid}, headers=org.headers)
        assert response.status_code == 422, response.text
        assert "registered account" in response.json()["detail"]
    refused = await client.post(
        f"/api/tournaments/{t['id']}/teams", json={"name": "X"}, headers=visitor
    )
    assert refused.status_code == 403  # still not an organiser
    helper = await account(client, "ajudant")
    helper_id = (await client.get("/api/me", headers=helper)).json()["id"]
    made = await client.post(path, json={"user_id": helper_id}, headers=org.headers)
    assert made.status_code == 200
    assert [o["role"] for o in made.json()["organisers"]] == ["owner", "co"]


async def test_a_match_of_a_fixed_number_of_deals_ends_as_a_finished_match(org: Org) -> None:
    # The championship stops the room after 2 deals (between deals): the table, the record
    # and the JSON must say the match is over and who won it on the scores.
    t = await org.post(
        "/tournaments",
        {
            "name": "Dues mans",
            "game": "bolot",
            "format": "round_robin",
            "settings": {"play": "online", "match": {"kind": "deals", "deals": 2}},
        },
        201,
    )
    tid = t["id"]
    for i in range(2):
        await org.post(f"/tournaments/{tid}/teams", {"name": f"Bots {i}", "bot": "heuristic"}, 201)
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    await org.post(f"/tournaments/{tid}/rounds/1/publish")
    (table,) = await _wait_done(org, tid, 1)
    record = await org.get(f"/rooms/{table['room_id']}/record")
    assert len(record["deals"]) == 2 and record["over"] is True and record["stopped"] is True, (
        record["status"],
        record["in_progress"],
        record["winner"],
    )
    home, away = table["home_score"], table["away_score"]
    assert record["scores"] == [home, away]
    assert record["winner"] == (None if home == away else 0 if home > away else 1)
    page = (await org.client.get(f"/rooms/{table['room_id']}")).text
    assert "Next deal coming" not in page and "The match is over." in page
    assert "2 deals" in page and "to 1000" not in page  # the table says how long the match is
    assert ("A draw" if home == away else "win the match") in page
    for step in (0, 5):  # a replay's step is not the end of the match
        replay = (await org.client.get(f"/rooms/{table['room_id']}/replay?deal=1&step={step}")).text
        assert "ended here" not in replay and "The match is over." not in replay


async def test_a_withdrawal_during_a_deal_stops_the_table_without_a_winner(
    org: Org, client: httpx.AsyncClient, guest: Guest
) -> None:
    # Two people at an online Belote-for-two table; one team withdraws in the first deal's
    # auction. The championship records a forfeit; the table and its record say "stopped"
    # (not "being played"), name no winner of their own and offer no move.
    tid, room, heads, (home, _away) = await _two_player_table(org, client, guest)
    views = [(await client.get(f"/api/rooms/{room}/view", headers=h)).json() for h in heads]
    assert views[0]["phase"] == "auction" and any(v["legal_actions"] for v in views)
    await org.post(f"/tournaments/{tid}/teams/{home['id']}/withdraw", {"remaining": "forfeit"})
    (table,) = (await org.get(f"/tournaments/{tid}/rounds"))[0]["tables"]
    assert table["forfeit"] and table["winner"] != home["id"]
    for h in heads:
        view = (await client.get(f"/api/rooms/{room}/view", headers=h)).json()
        assert (
            view["status"] == "finished"
            and view["legal_actions"] == []
            and view["to_act"] is None
            and view["hand"]
        )
    mover = next(i for i, v in enumerate(views) if v["legal_actions"])
    late = await client.post(
        f"/api/rooms/{room}/moves",
        headers=heads[mover],
        json={"seq": views[mover]["seq"], "action": views[mover]["legal_actions"][0]},
    )
    assert (
        late.status_code == 409 and "over" in late.json()["detail"]
    )  # a stopped match takes no move
    record = await org.get(f"/rooms/{room}/record")
    assert record["over"] is True and record["stopped"] is True and record["winner"] is None
    assert record["deals"] == [] and record["in_progress"]["deal_no"] == 1
    page = (await client.get(f"/rooms/{room}", headers=heads[1])).text
    assert (
        "The match was stopped" in page
        and "The match is over." in page
        and "win the match" not in page
    )
    assert "Being played" not in (await client.get(f"/records/{record['game_id']}")).text


async def _two_player_table(
    org: Org, client: httpx.AsyncClient, guest: Guest
) -> tuple[int, int, list[dict[str, str]], list[dict]]:
    """A published Belote-for-two championship to the target: guests Pepa (home, seat 0)
    and Toni (away, seat 1). Returns (championship id, room id, their headers, teams)."""
    ids, heads = [], []
    for name in ("Pepa", "Toni"):
        heads.append(await guest(name))
        ids.append((await client.get("/api/me", headers=heads[-1])).json()["id"])
    t = await org.post(
        "/tournaments",
        {"name": "Parelles", "game": "belote-2p", "settings": {"play": "online"}},
        201,
    )
    teams = [
        await org.post(f"/tournaments/{t['id']}/teams", {"name": n, "user_ids": [u]}, 201)
        for n, u in zip(("Pepa", "Toni"), ids, strict=True)
    ]
    await org.post(f"/tournaments/{t['id']}/rounds", status=201)
    (table,) = (await org.post(f"/tournaments/{t['id']}/rounds/1/publish"))["tables"]
    return t["id"], table["room_id"], heads, teams


async def _play_first_deal(client: httpx.AsyncClient, room: int, heads: list[dict]) -> list[int]:
    """Both seats play until the first deal is scored (a take whenever one is offered, so
    the deal is not thrown in); returns the match's scores then."""
    for _ in range(300):
        public = (await client.get(f"/api/rooms/{room}/view")).json()
        if public["sheet"]:
            return list(public["scores"])
        seat = public["to_act"]
        if seat is None:
            await asyncio.sleep(0.01)
            continue
        mine = (await client.get(f"/api/rooms/{room}/view", headers=heads[seat])).json()
        actions = mine["legal_actions"]
        action = next((a for a in actions if a["type"] == "take"), actions[0])
        response = await client.post(
            f"/api/rooms/{room}/moves",
            headers=heads[seat],
            json={"seq": mine["seq"], "action": action},
        )
        assert response.status_code in (200, 409), response.text
    raise AssertionError("the first deal did not end")


async def test_the_side_that_resigns_a_championship_table_loses_it(
    org: Org, client: httpx.AsyncClient, guest: Guest
) -> None:
    # docs/server.md "After the match": a resignation is a loss for the resigning side,
    # whatever the score. The side ahead after the first deal resigns: the table is the
    # other side's, with the scores as played (a fresh tester saw it given to the
    # resigner, who led on points). A championship's table offers no rematch, even to
    # the target (room.match {"kind": "target"}).
    tid, room, heads, teams = await _two_player_table(org, client, guest)
    scores = await _play_first_deal(client, room, heads)
    assert scores[0] != scores[1], scores  # a take was made: the deal scored for someone
    leader = 0 if scores[0] > scores[1] else 1
    response = await client.post(f"/api/rooms/{room}/resign", headers=heads[leader])
    assert response.status_code == 200, response.text
    (table,) = (await org.get(f"/tournaments/{tid}/rounds"))[0]["tables"]
    assert table["status"] == "done"
    assert [table["home_score"], table["away_score"]] == scores
    assert table["winner"] == teams[1 - leader]["id"]
    view = (await client.get(f"/api/rooms/{room}/view", headers=heads[0])).json()
    assert view["match"] == {"kind": "target"}
    assert view["ended"]["reason"] == "resigned" and view["ended"]["rematch"] is None
    for h in heads:
        refused = await client.post(f"/api/rooms/{room}/rematch", headers=h)
        assert refused.status_code == 422 and "no rematch" in refused.json()["detail"]
    page = (await client.get(f"/rooms/{room}", headers=heads[1 - leader])).text
    assert "Rematch" not in page
    standings = {
        r["team"]["id"]: r for r in (await org.get(f"/tournaments/{tid}/standings"))["rows"]
    }
    assert standings[teams[1 - leader]["id"]]["match_points"] == 2
    assert standings[teams[leader]["id"]]["match_points"] == 0


async def test_a_resignation_at_nil_nil_is_a_loss_not_a_draw(
    org: Org, client: httpx.AsyncClient, guest: Guest
) -> None:
    # Resigning before any deal is scored: 0-0 is level on points, but the table is the
    # other side's (it was recorded as a draw, a match point for the resigner).
    tid, room, heads, teams = await _two_player_table(org, client, guest)
    response = await client.post(f"/api/rooms/{room}/resign", headers=heads[1])
    assert response.status_code == 200, response.text
    (table,) = (await org.get(f"/tournaments/{tid}/rounds"))[0]["tables"]
    assert (table["home_score"], table["away_score"]) == (0, 0)
    assert table["status"] == "done" and table["winner"] == teams[0]["id"]
