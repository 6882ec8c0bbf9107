"""Exactly once: double clicks, two tabs, retries and two server processes never apply a
move twice (the ``(game_id, seq)`` key of the move log); bots never play twice."""

from __future__ import annotations

import asyncio
import logging
import time

import httpx
import pytest

from app import rules
from app.core.settings import Settings
from app.main import create_app
from app.rooms import play
from tests.conftest import empty_tables
from tests.tables import Table, view_of


async def _moves(client: httpx.AsyncClient, room: int) -> list[dict]:
    return (await client.get(f"/api/rooms/{room}/moves")).json()


async def test_a_double_click_is_applied_once(client: httpx.AsyncClient, table: Table) -> None:
    body = {"seq": 1, "action": {"type": "take"}}
    url = f"/api/rooms/{table.room_id}/moves"
    answers = await asyncio.gather(
        *(client.post(url, json=body, headers=table.headers[table.eldest]) for _ in range(8))
    )
    assert sorted(a.status_code for a in answers) == [200] + [409] * 7
    log = await _moves(client, table.room_id)
    assert [m["action"]["type"] for m in log[:2]] == ["deal", "take"]
    assert sum(1 for m in log if m["action"]["type"] == "take") == 1


async def test_two_tabs_with_different_moves_get_one_applied(
    client: httpx.AsyncClient, table: Table
) -> None:
    url = f"/api/rooms/{table.room_id}/moves"
    headers = table.headers[table.eldest]
    answers = await asyncio.gather(
        client.post(url, json={"seq": 1, "action": {"type": "take"}}, headers=headers),
        client.post(url, json={"seq": 1, "action": {"type": "pass"}}, headers=headers),
    )
    assert sorted(a.status_code for a in answers) == [200, 409]
    log = await _moves(client, table.room_id)
    assert len([m for m in log if m["seq"] == 1]) == 1 and log[1]["action"]["type"] in (
        "take",
        "pass",
    )
    assert (await view_of(client, table, None))["seq"] >= 2


async def test_a_retry_after_a_timeout_changes_nothing(
    client: httpx.AsyncClient, table: Table
) -> None:
    url = f"/api/rooms/{table.room_id}/moves"
    body = {"seq": 1, "action": {"type": "take"}}
    first = await client.post(url, json=body, headers=table.headers[table.eldest])
    assert first.status_code == 200
    before = await view_of(client, table, table.eldest)
    retry = await client.post(url, json=body, headers=table.headers[table.eldest])
    assert retry.status_code == 409 and "stale" in retry.json()["detail"]
    assert await view_of(client, table, table.eldest) == before


async def test_every_seat_racing_with_its_own_legal_move(
    client: httpx.AsyncClient, table: Table
) -> None:
    """All four seats post at the same seq at once, repeatedly: only the seat to act can
    win, and the log stays one move per seq."""
    url = f"/api/rooms/{table.room_id}/moves"
    for _ in range(12):
        views = [await view_of(client, table, seat) for seat in range(4)]
        public = await view_of(client, table, None)
        if public["status"] != "playing" or public["to_act"] is None:
            break
        posts = [
            client.post(
                url,
                json={
                    "seq": public["seq"],
                    "action": (v["legal_actions"] or [{"type": "pass"}])[0],
                },
                headers=table.headers[seat],
            )
            for seat, v in enumerate(views)
        ]
        posts += [
            client.post(
                url,
                json={"seq": public["seq"], "action": views[public["to_act"]]["legal_actions"][0]},
                headers=table.headers[public["to_act"]],
            )
        ]
        answers = await asyncio.gather(*posts)
        assert sorted(a.status_code for a in answers).count(200) == 1
    log = await _moves(client, table.room_id)
    assert [m["seq"] for m in log] == list(range(len(log)))


async def test_two_server_processes_race_and_every_move_is_applied_once(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    """Two apps (each with its bot runner) on one database drive the same bot match; with
    Redis both hear every event and race for every move."""
    caplog.set_level(logging.WARNING)
    await empty_tables(settings.db_url())
    first, second = create_app(settings), create_app(settings)
    async with first.router.lifespan_context(first), second.router.lifespan_context(second):
        clients = [
            httpx.AsyncClient(transport=httpx.ASGITransport(app=a), base_url="http://t")
            for a in (first, second)
        ]
        a, b = clients
        token = (await a.post("/api/session", json={"nickname": "Host"})).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        a.cookies.clear()
        room = (
            await a.post(
                "/api/rooms", json={"game": "belote-2p", "options": {"target": 301}}, headers=auth
            )
        ).json()
        for seat in range(2):
            await b.put(
                f"/api/rooms/{room['id']}/seats/{seat}", json={"bot": "random"}, headers=auth
            )
        starts = await asyncio.gather(
            a.post(f"/api/rooms/{room['id']}/start", headers=auth),
            b.post(f"/api/rooms/{room['id']}/start", headers=auth),
        )
        assert sorted(s.status_code for s in starts) == [200, 409]
        deadline = time.monotonic() + 120
        while (await b.get(f"/api/rooms/{room['id']}")).json()["status"] != "finished":
            assert time.monotonic() < deadline, "the match did not finish"
            await asyncio.sleep(0.1)
        log = await _moves(a, room["id"])
        for c in clients:
            await c.aclose()
    assert [m["seq"] for m in log] == list(range(len(log)))
    # replaying the log gives a finished match in which every actor was the seat to act
    info_dealer = None
    play.clear_cache()
    for m in log:
        if m["action"]["type"] == "deal":
            assert m["actor"] == "server"
    state = None
    for dealer in range(2):
        candidate = rules.new_game("belote-2p", room["options"], dealer)
        try:
            for m in log:
                action = m["action"]
                if action["type"] == "deal":
                    action = {"type": "deal", "deck": action["deck"]}
                seat = rules.to_act(candidate)
                if m["actor"] != "server":
                    assert m["actor"] == seat
                candidate = rules.apply(candidate, action)
        except (rules.IllegalAction, AssertionError):
            continue
        state, info_dealer = candidate, dealer
        break
    assert state is not None and rules.is_over(state), "the log does not replay to a finished match"
    assert info_dealer is not None
    assert "runner failed" not in caplog.text
