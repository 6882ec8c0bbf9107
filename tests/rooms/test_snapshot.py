"""One read per event: every audience's view comes from one snapshot (app/rooms/snapshot.py)
and equals ``get_view`` for its viewer; a move's answer needs no second read; a move with
four seat sockets and three spectators costs a bounded number of SQL statements."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest
from sqlalchemy import event, select

from app import realtime
from app.accounts.models import User
from app.core.settings import Settings
from app.rooms import fanout, service
from tests.conftest import Guest

#: Statements for one move and its fan-out to 4 seat sockets and 3 spectators, all
#: included, once the room is kept in memory (app/rooms/live.py): the move's guarded
#: insert (1), and the user's session (1) once every few seconds. The POST's answer, the fan-out and the bot
#: runner's look at the room read nothing. It was 14 with a read per event, and about
#: 56 before the snapshot (docs/benchmarks.md "Real time").
MOVE_STATEMENTS = 2


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """No timer-driven reads (the runner's and the watcher's sweeps, lease renewals)
    during a count: only what the moves cause."""
    return settings.model_copy(update={"sweep_interval": 3600.0, "lease_ttl": 3600.0})


async def _dealt_room(client: httpx.AsyncClient, guest: Guest) -> tuple[int, list[dict[str, str]]]:
    players = [await guest(f"P{n}") for n in range(4)]
    room = (await client.post("/api/rooms", json={"game": "bolot"}, headers=players[0])).json()[
        "id"
    ]
    for seat, headers in enumerate(players):
        assert (
            await client.put(f"/api/rooms/{room}/seats/{seat}", json={}, headers=headers)
        ).status_code == 200
    assert (await client.post(f"/api/rooms/{room}/start", headers=players[0])).status_code == 200
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # the runner deals
        view = (await client.get(f"/api/rooms/{room}/view")).json()
        if view["seq"] > 0 and view["to_act"] is not None:
            return room, players
        await asyncio.sleep(0.05)
    raise AssertionError("the first hand was not dealt")


async def _users(app: Any) -> dict[str, User]:
    async with app.state.sessionmaker() as db:
        return {u.nickname: u for u in (await db.scalars(select(User))).all()}


def _without_spectators(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "spectators"}


async def _move(
    client: httpx.AsyncClient, room: int, players: list[dict[str, str]]
) -> httpx.Response:
    view = (await client.get(f"/api/rooms/{room}/view", headers=players[0])).json()
    mover = players[view["to_act"]]
    mine = (await client.get(f"/api/rooms/{room}/view", headers=mover)).json()
    body = {"seq": mine["seq"], "action": mine["legal_actions"][0]}
    return await client.post(f"/api/rooms/{room}/moves", json=body, headers=mover)


async def test_every_audiences_view_of_one_snapshot_is_get_view_for_its_viewer(
    app: Any, client: httpx.AsyncClient, guest: Guest
) -> None:
    room, _players = await _dealt_room(client, guest)
    await guest("Watcher")
    users = await _users(app)
    viewers: list[User | None] = [users[f"P{n}"] for n in range(4)] + [users["Watcher"], None]
    async with app.state.sessionmaker() as db:
        snap = await service.read_snapshot(db, room)
        for viewer in viewers:
            assert service.view_of(snap, viewer) == await service.get_view(db, room, viewer)
    views = [service.view_of(snap, v) for v in viewers]
    assert [v["my_seat"] for v in views] == [0, 1, 2, 3, None, None]
    assert len({tuple(v["hand"]) for v in views[:4]}) == 4  # each seat its own hand
    assert views[4] == views[5] and not views[4].get("hand")  # spectators: nobody's hand
    assert views[0] is not service.view_of(snap, viewers[0])  # a fresh dict each time


async def test_a_moves_answer_is_the_movers_view_right_after_it(
    app: Any, client: httpx.AsyncClient, guest: Guest
) -> None:
    room, players = await _dealt_room(client, guest)
    before = (await client.get(f"/api/rooms/{room}/view")).json()["seq"]
    answer = await _move(client, room, players)
    assert answer.status_code == 200, answer.text
    moved = answer.json()
    assert moved["seq"] == before + 1
    seat = moved["my_seat"]
    again = (await client.get(f"/api/rooms/{room}/view", headers=players[seat])).json()
    assert again["seq"] == moved["seq"]  # people only at this table: nobody moved since
    assert _without_spectators(moved) == _without_spectators(again)


async def test_a_move_to_four_seat_sockets_and_three_spectators_reads_nothing(
    app: Any, client: httpx.AsyncClient, guest: Guest
) -> None:
    room, players = await _dealt_room(client, guest)
    await guest("Watcher")
    users = await _users(app)
    viewers: list[User | None] = [users[f"P{n}"] for n in range(4)] + [users["Watcher"], None, None]
    hub = realtime.current()
    maker = app.state.sessionmaker
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    async with hub.listen(room) as events:
        await asyncio.gather(
            *(fanout.views_of(hub).get(maker, room, v) for v in viewers)
        )  # the sockets' first views
        await asyncio.sleep(0.3)  # the runner and the watcher are done with the deal's event
        reads, builds = fanout.views_of(hub).reads, fanout.views_of(hub).builds
        event.listen(app.state.engine.sync_engine, "before_cursor_execute", count)
        try:
            view = (await client.get(f"/api/rooms/{room}/view", headers=players[0])).json()
            mover = players[view["to_act"]]
            mine = (await client.get(f"/api/rooms/{room}/view", headers=mover)).json()
            statements.clear()  # from here: the move and its fan-out only
            answer = await client.post(
                f"/api/rooms/{room}/moves",
                json={"seq": mine["seq"], "action": mine["legal_actions"][0]},
                headers=mover,
            )
            assert answer.status_code == 200, answer.text
            seq = await asyncio.wait_for(anext(events), 5)
            assert seq == mine["seq"] + 1
            entries = await asyncio.gather(
                *(fanout.views_of(hub).get(maker, room, v) for v in viewers)
            )
            await asyncio.sleep(0.3)  # the runner and the watcher look at the event
        finally:
            event.remove(app.state.engine.sync_engine, "before_cursor_execute", count)
    assert fanout.views_of(hub).reads - reads == 0  # the move was applied in memory
    assert fanout.views_of(hub).builds - builds == 5  # four seats and the spectators
    assert [e.view["my_seat"] for e in entries] == [0, 1, 2, 3, None, None, None]
    assert entries[4] is entries[5] is entries[6]
    assert len(statements) <= MOVE_STATEMENTS, "\n".join(statements)
