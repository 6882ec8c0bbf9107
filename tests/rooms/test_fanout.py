"""The fan-out cache: per room event, one view per seat and one for all spectators,
each equal to ``service.get_view`` for its viewer; never another seat's view."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from sqlalchemy import select

from app import realtime
from app.accounts.models import User
from app.rooms import fanout, service
from app.rooms.fanout import _belongs
from tests.conftest import Guest


async def _started_room(
    client: httpx.AsyncClient, guest: Guest
) -> tuple[int, list[dict[str, str]]]:
    players = [await guest(f"P{n}") for n in range(4)]
    room = (await client.post("/api/rooms", json={"game": "bolot"}, headers=players[0])).json()[
        "id"
    ]
    for seat, headers in enumerate(players):
        assert (
            await client.put(f"/api/rooms/{room}/seats/{seat}", json={}, headers=headers)
        ).status_code == 200
    assert (await client.post(f"/api/rooms/{room}/start", headers=players[0])).status_code == 200
    return room, players


async def _users(app: Any) -> dict[str, User]:
    async with app.state.sessionmaker() as db:
        return {u.nickname: u for u in (await db.scalars(select(User))).all()}


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return {k: v for k, v in a.items() if k != "spectators"} == {
        k: v for k, v in b.items() if k != "spectators"
    }


async def test_one_build_per_audience_and_each_view_is_its_viewers(
    app: Any, client: httpx.AsyncClient, guest: Guest
) -> None:
    room, _players = await _started_room(client, guest)
    await guest("Watcher1")
    await guest("Watcher2")
    users = await _users(app)
    viewers: list[User | None] = [users[f"P{n}"] for n in range(4)] * 2
    viewers += [users["Watcher1"], users["Watcher2"], None, None, None]
    hub = realtime.current()
    maker = app.state.sessionmaker
    async with hub.listen(room):
        cache = fanout.views_of(hub)
        before = cache.builds
        entries = await asyncio.gather(*(cache.get(maker, room, v) for v in viewers))
        assert cache.builds - before == 5  # four seats, one spectators' view
        async with maker() as db:
            for viewer, entry in zip(viewers, entries, strict=True):
                assert _same(entry.view, await service.get_view(db, room, viewer))
        assert entries[0] is entries[4] and entries[8] is entries[10]

        # the same generation: served from the cache; an event: built again
        await cache.get(maker, room, None)
        assert cache.builds - before == 5
        hub.dispatch(room, entries[0].view["seq"])
        await cache.get(maker, room, None)
        assert cache.builds - before == 6


async def test_the_json_text_is_the_view_with_its_type(
    app: Any, client: httpx.AsyncClient, guest: Guest
) -> None:
    import json

    room, _ = await _started_room(client, guest)
    hub = realtime.current()
    async with hub.listen(room):
        entry = await fanout.views_of(hub).get(app.state.sessionmaker, room, None)
    assert json.loads(entry.text) == {**entry.view, "type": "view"}


def test_a_view_is_handed_only_to_its_own_viewer() -> None:
    seats = [{"seat": 0, "user_id": 7}, {"seat": 1, "user_id": 8}, {"seat": 2, "user_id": None}]
    seat1 = {"my_seat": 1, "seats": seats}
    public = {"my_seat": None, "seats": seats}
    assert _belongs(seat1, 8)
    assert not _belongs(seat1, 7) and not _belongs(seat1, None) and not _belongs(seat1, 9)
    assert _belongs(public, None) and _belongs(public, 9)
    assert not _belongs(public, 7)
