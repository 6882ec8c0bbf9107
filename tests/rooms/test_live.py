"""Live rooms (app/rooms/live.py): the room kept in memory follows the move log exactly,
and a snapshot behind the log never lets a wrong move through nor refuses a right one."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select, update

from app import realtime, rules
from app.core.settings import Settings
from app.realtime.broker import _parse
from app.rooms import live, snapshot
from app.rooms.models import Move, Seat
from tests.conftest import Guest
from tests.rooms.test_snapshot import _dealt_room


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """No timer-driven work during a test: only what the moves cause."""
    return settings.model_copy(update={"sweep_interval": 3600.0, "lease_ttl": 3600.0})


def _comparable(view: dict[str, Any]) -> dict[str, Any]:
    """A view without what moves on its own (the spectator count, the clock's now)."""
    return {k: v for k, v in view.items() if k not in ("spectators", "clock")}


async def _fresh(app: Any, room: int) -> snapshot.Snapshot:
    async with app.state.sessionmaker() as db:
        return await snapshot.read(db, room)


async def _to_act(client: httpx.AsyncClient, room: int, players: list[dict[str, str]]) -> Any:
    """(the seat to act, its view), or (None, the public view) between deals."""
    view = (await client.get(f"/api/rooms/{room}/view")).json()
    seat = view["to_act"]
    if seat is None:
        return None, view
    mine = (await client.get(f"/api/rooms/{room}/view", headers=players[seat])).json()
    return seat, mine


async def test_memory_follows_the_log_move_by_move_into_the_next_deal(
    app: Any, client: httpx.AsyncClient, guest: Guest
) -> None:
    """Forty moves (a whole deal of Bolot and the next deal's first moves): after each,
    the kept snapshot gives every seat and the spectators the view a fresh read of the
    database gives, and no move made the process read the room."""
    room, players = await _dealt_room(client, guest)
    rooms = live.of()
    await rooms.get(room, sessionmaker=app.state.sessionmaker)
    reads = rooms.reads
    deals, moves = 1, 0
    deadline = time.monotonic() + 60
    while moves < 40:
        assert time.monotonic() < deadline, "the table stopped"
        seat, mine = await _to_act(client, room, players)
        if seat is None:  # between deals: the runner deals
            await asyncio.sleep(0.05)
            continue
        moves += 1
        body = {"seq": mine["seq"], "action": mine["legal_actions"][0]}
        answer = await client.post(f"/api/rooms/{room}/moves", json=body, headers=players[seat])
        assert answer.status_code == 200, answer.text
        kept = rooms.kept(room)
        fresh = await _fresh(app, room)
        assert kept is not None and kept.seq == fresh.seq
        for viewer in (0, 1, 2, 3, None):
            assert _comparable(snapshot.view_for_seat(kept, viewer)) == _comparable(
                snapshot.view_for_seat(fresh, viewer)
            )
        assert kept.commitment == fresh.commitment
        deals = max(deals, (fresh.commitment or {}).get("deal_no", 1))
    assert deals >= 2, "the test reached the next deal"
    # the reads of this test's own comparisons (_fresh) do not go through the store
    assert rooms.reads == reads


async def test_a_seat_lost_without_its_event_refuses_the_move(
    app: Any, client: httpx.AsyncClient, guest: Guest
) -> None:
    """Memory says the mover holds the seat; the database says they no longer do (a change
    whose event has not arrived): the move's insert refuses it, the answer is the fresh
    truth (403, no seat here) and nothing is stored."""
    room, players = await _dealt_room(client, guest)
    seat, mine = await _to_act(client, room, players)
    await live.of().get(room, sessionmaker=app.state.sessionmaker)  # the sockets' store
    async with app.state.sessionmaker() as db:
        await db.execute(
            update(Seat).where(Seat.room_id == room, Seat.seat == seat).values(user_id=None)
        )
        await db.commit()
    body = {"seq": mine["seq"], "action": mine["legal_actions"][0]}
    answer = await client.post(f"/api/rooms/{room}/moves", json=body, headers=players[seat])
    assert answer.status_code == 403, answer.text
    assert "you do not hold a seat" in answer.text
    async with app.state.sessionmaker() as db:
        stored = await db.scalar(
            select(func.count()).select_from(Move).where(Move.seq >= mine["seq"])
        )
    assert stored == 0


async def test_a_move_stored_without_its_event_is_caught_up_not_refused(
    app: Any, client: httpx.AsyncClient, guest: Guest
) -> None:
    """Another process stored move S and its event is lost: memory is behind. The next
    seat's move at S + 1 is still accepted (checked again on a fresh read), and memory
    then holds both moves."""
    room, players = await _dealt_room(client, guest)
    seat, mine = await _to_act(client, room, players)
    kept = await live.of().get(room, sessionmaker=app.state.sessionmaker)
    assert kept.seq == mine["seq"]
    action = mine["legal_actions"][0]
    async with app.state.sessionmaker() as db:
        db.add(
            Move(
                game_id=kept.game_id,
                seq=mine["seq"],
                action=action,
                actor=str(seat),
                at=kept.loaded.last_at,
            )
        )  # type: ignore[union-attr]
        await db.commit()
    after = rules.apply(kept.state, action)
    nxt = rules.to_act(after)
    assert nxt is not None
    legal = rules.legal_actions(after)[0]
    answer = await client.post(
        f"/api/rooms/{room}/moves",
        json={"seq": mine["seq"] + 1, "action": legal},
        headers=players[nxt],
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["seq"] == mine["seq"] + 2
    now = live.of().kept(room)
    assert now is not None and now.seq == mine["seq"] + 2


async def test_a_second_process_applies_a_move_from_its_event_alone(
    app: Any, client: httpx.AsyncClient, guest: Guest
) -> None:
    """A store that only hears the events (as another worker does through Redis) follows a
    move without reading: what it keeps is what a fresh read gives."""
    room, players = await _dealt_room(client, guest)
    other = live.LiveRooms()
    await other.get(room, sessionmaker=app.state.sessionmaker)
    heard: list[tuple[int, int, dict[str, Any] | None]] = []
    realtime.current().watch_rooms(lambda r, s, d: heard.append((r, s, d)))
    seat, mine = await _to_act(client, room, players)
    body = {"seq": mine["seq"], "action": mine["legal_actions"][0]}
    assert (
        await client.post(f"/api/rooms/{room}/moves", json=body, headers=players[seat])
    ).status_code == 200
    event = next(e for e in heard if e[0] == room and e[2] is not None)
    # the event crosses Redis as text: what the other worker parses
    wire = f"{event[0]}:{event[1]}:" + live.encode(event[2])  # type: ignore[arg-type]
    parsed = _parse(wire.encode())
    assert parsed == event
    other.on_event(*parsed)  # type: ignore[arg-type]
    kept, fresh = other.kept(room), await _fresh(app, room)
    assert kept is not None and other.applied == 1 and other.reads == 1
    for viewer in (0, 1, 2, 3, None):
        assert _comparable(snapshot.view_for_seat(kept, viewer)) == _comparable(
            snapshot.view_for_seat(fresh, viewer)
        )


def test_an_event_that_does_not_fit_forgets_the_room() -> None:
    """A move from another position (an event missed before it), a change without data:
    the room is forgotten (read again when next needed); a chat event keeps it."""
    rooms = live.LiveRooms()
    state = rules.new_game("bolot", {}, 0)
    snap = snapshot.Snapshot(
        room=None,  # type: ignore[arg-type]  # not looked at by these events
        names={},
        loaded=None,
        state=state,
        commitment=None,
        game_id=7,
    )
    rooms._keep(1, snap, 0, rooms._listen(1))
    rooms.on_event(1, 0, {"kind": "chat"})
    assert rooms.kept(1) is snap
    rooms.on_event(1, 5, {"kind": "move", "game": 7, "from": 4, "actions": [], "at": ""})
    assert rooms.kept(1) is None
    rooms._keep(1, snap, rooms._epochs[1], rooms._listen(1))
    rooms.on_event(1, 0, None)
    assert rooms.kept(1) is None
