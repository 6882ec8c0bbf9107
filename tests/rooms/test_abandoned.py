"""A table nobody is connected to is ended as abandoned (app/rooms/presence.py)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from app import realtime
from app.core.settings import Settings
from app.rooms.models import Game
from tests.conftest import Guest

ABANDON_MINUTES = 0.02  # 1.2 s; the sweep runs every second in the tests


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """The shared test settings with abandoned tables ended after 1.2 s."""
    return settings.model_copy(update={"abandon_minutes": ABANDON_MINUTES})


async def _bot_room(
    client: httpx.AsyncClient, host: dict[str, str], watch: contextlib.ExitStack[bool | None]
) -> int:
    """A started room of four random bots, watched (a socket of this process) from its
    creation for as long as ``watch`` is open, so a slow machine cannot see it abandoned
    before the test means it to be."""
    room = (
        await client.post(
            "/api/rooms", json={"game": "bolot", "options": {"target": 100000}}, headers=host
        )
    ).json()
    watch.enter_context(realtime.current().presence.watching(room["id"], None))
    for seat in range(4):
        put = await client.put(
            f"/api/rooms/{room['id']}/seats/{seat}", json={"bot": "random"}, headers=host
        )
        assert put.status_code == 200
    assert (await client.post(f"/api/rooms/{room['id']}/start", headers=host)).status_code == 200
    return int(room["id"])


async def _status(client: httpx.AsyncClient, room_id: int) -> str:
    return str((await client.get(f"/api/rooms/{room_id}/view")).json()["status"])


async def test_a_table_nobody_watches_is_ended_and_leaves_the_lobby(
    app: Any, client: httpx.AsyncClient, guest: Guest
) -> None:
    host = await guest("Host")
    with contextlib.ExitStack() as watching, contextlib.ExitStack() as alone:
        left_alone = await _bot_room(client, host, alone)
        watched = await _bot_room(client, host, watching)
        lobby = [r["id"] for r in (await client.get("/api/rooms")).json()]
        assert left_alone in lobby and watched in lobby
        alone.close()  # nobody watches it from now on
        deadline = time.monotonic() + 30
        while await _status(client, left_alone) != "finished" and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        assert await _status(client, left_alone) == "finished"
        await asyncio.sleep(ABANDON_MINUTES * 60 + 1.5)  # one more sweep past the limit
        assert await _status(client, watched) == "playing"
    async with app.state.sessionmaker() as db:
        game = await db.scalar(select(Game).where(Game.room_id == left_alone))
        assert game is not None
        assert game.end_reason == "abandoned" and game.ended_at is not None
    lobby = [r["id"] for r in (await client.get("/api/rooms")).json()]
    assert left_alone not in lobby and watched in lobby
    record = await client.get(f"/api/rooms/{left_alone}/moves")
    assert record.status_code == 200 and len(record.json()) > 0  # its record is kept
