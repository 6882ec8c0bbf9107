"""The one end of a match (app/rooms/ending.py): reason, time, seats and the hook."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from app.core.hooks import HOOKS
from app.rooms import service
from app.rooms.models import Game
from tests.conftest import Guest, finished_view


@pytest.fixture
async def heard() -> AsyncIterator[list[int]]:
    """The game ids the match-end hook announced during the test."""
    games: list[int] = []

    async def listener(_db: Any, game_id: int) -> None:
        games.append(game_id)

    HOOKS.add_match_end_listener(listener)
    try:
        yield games
    finally:
        HOOKS.match_end_listeners.remove(listener)


async def _bot_room(client: httpx.AsyncClient, host: dict[str, str], target: int) -> int:
    room = (
        await client.post(
            "/api/rooms", json={"game": "bolot", "options": {"target": target}}, headers=host
        )
    ).json()
    for seat, bot in enumerate(("heuristic", "random", "heuristic", "random")):
        response = await client.put(
            f"/api/rooms/{room['id']}/seats/{seat}", json={"bot": bot}, headers=host
        )
        assert response.status_code == 200
    assert (await client.post(f"/api/rooms/{room['id']}/start", headers=host)).status_code == 200
    return int(room["id"])


async def _game(app: Any, room_id: int) -> Game:
    async with app.state.sessionmaker() as db:
        game = await db.scalar(select(Game).where(Game.room_id == room_id))
        assert game is not None
        return game


async def test_a_match_played_to_its_target_ends_played(
    app: Any, client: httpx.AsyncClient, guest: Guest, heard: list[int]
) -> None:
    host = await guest("Host")
    room_id = await _bot_room(client, host, target=1)  # one deal reaches 1 (bolot.md §9)
    view = await finished_view(client, room_id)
    assert view["phase"] == "over"
    game = await _game(app, room_id)
    assert game.status == "finished" and game.end_reason == "played"
    assert game.ended_at is not None and game.resigned_seat is None and game.left == []
    assert game.seated == [
        {"user_id": None, "bot": bot, "nickname": f"{bot} bot"}
        for bot in ("heuristic", "random", "heuristic", "random")
    ]
    assert heard == [game.id]  # announced once, after the commit


async def test_a_stopped_championship_table_ends_stopped_once(
    app: Any, client: httpx.AsyncClient, guest: Guest, heard: list[int]
) -> None:
    host = await guest("Host")
    room_id = await _bot_room(client, host, target=100000)
    async with app.state.sessionmaker() as db:
        info = await service.end_match(db, room_id)
        assert info["status"] == "finished"
        await service.end_match(db, room_id)  # a second stop changes nothing
    game = await _game(app, room_id)
    assert game.status == "finished" and game.end_reason == "stopped"
    assert game.ended_at is not None
    assert heard == [game.id]
