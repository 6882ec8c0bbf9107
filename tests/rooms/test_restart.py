"""The move log is the truth: a server restarted in the middle of a deal goes on from it."""

from __future__ import annotations

import asyncio
import time

import httpx

from app.core.settings import Settings
from app.main import create_app
from app.rooms import play
from tests.conftest import empty_tables


async def _client(app: object) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")


async def _wait(client: httpx.AsyncClient, room_id: int, done, timeout: float = 120) -> dict:  # noqa: ANN001
    deadline = time.monotonic() + timeout
    while True:
        view = (await client.get(f"/api/rooms/{room_id}/view")).json()
        if done(view) or time.monotonic() > deadline:
            return view
        await asyncio.sleep(0.05)


async def test_a_restarted_server_finishes_the_match_from_the_log(settings: Settings) -> None:
    await empty_tables(settings.db_url())
    first = create_app(settings)
    async with first.router.lifespan_context(first), await _client(first) as client:
        token = (await client.post("/api/session", json={"nickname": "Host"})).json()["token"]
        client.cookies.clear()
        auth = {"Authorization": f"Bearer {token}"}
        room = (
            await client.post(
                "/api/rooms", json={"game": "bolot", "options": {"target": 300}}, headers=auth
            )
        ).json()
        for seat in range(4):
            await client.put(
                f"/api/rooms/{room['id']}/seats/{seat}", json={"bot": "random"}, headers=auth
            )
        await client.post(f"/api/rooms/{room['id']}/start", headers=auth)
        stopped_at = await _wait(client, room["id"], lambda v: v["seq"] >= 20)
    assert stopped_at["status"] == "playing"

    play.clear_cache()  # a new process: nothing in memory but the database
    second = create_app(settings)
    async with second.router.lifespan_context(second), await _client(second) as client:
        resumed = (await client.get(f"/api/rooms/{room['id']}/view")).json()
        assert resumed["seq"] >= stopped_at["seq"]
        view = await _wait(client, room["id"], lambda v: v["status"] == "finished")
        assert view["status"] == "finished" and view["winner"] in (0, 1)
        log = (await client.get(f"/api/rooms/{room['id']}/moves")).json()
    assert [m["seq"] for m in log] == list(range(view["seq"]))
