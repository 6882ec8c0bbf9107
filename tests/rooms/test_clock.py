"""The move clock: the server plays for a person whose time runs out, a stand-in takes the
seat after the room's limit of timeouts until the person returns, the clock lives in the
view, and it runs from the stored move times (so it resumes after a restart)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from datetime import datetime

import httpx

from app import rules
from app.core.settings import Settings
from app.main import create_app
from app.rooms import clock, play
from app.rooms.models import Room, Seat
from tests.conftest import Guest, empty_tables


async def wait_for(
    client: httpx.AsyncClient,
    room: int,
    headers: dict[str, str],
    done: Callable[[dict], bool],
    timeout: float = 30,
) -> dict:
    """Poll the view of ``headers``' user until ``done(view)``; fails after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        view = (await client.get(f"/api/rooms/{room}/view", headers=headers)).json()
        if done(view):
            return view
        assert time.monotonic() < deadline, (
            f"timed out waiting; view at seq {view['seq']}, to_act {view['to_act']}"
        )
        await asyncio.sleep(0.05)


async def clocked_room(
    client: httpx.AsyncClient, person: dict[str, str], clock: int, limit: int = 2
) -> int:
    """A started Bolot room: ``person`` in seat 0, random bots elsewhere, a ``clock`` s move clock."""
    room = (
        await client.post(
            "/api/rooms",
            json={
                "game": "bolot",
                "options": {"target": 3000},
                "clock_seconds": clock,
                "max_timeouts": limit,
            },
            headers=person,
        )
    ).json()
    assert room["clock_seconds"] == clock and room["max_timeouts"] == limit
    await client.put(f"/api/rooms/{room['id']}/seats/0", json={}, headers=person)
    for seat in (1, 2, 3):
        await client.put(
            f"/api/rooms/{room['id']}/seats/{seat}", json={"bot": "random"}, headers=person
        )
    assert (await client.post(f"/api/rooms/{room['id']}/start", headers=person)).status_code == 200
    return room["id"]


def my_turn(view: dict) -> bool:
    return view["to_act"] == 0 and bool(view["legal_actions"])


async def test_no_clock_unless_the_room_asks(client: httpx.AsyncClient, guest: Guest) -> None:
    host = await guest("Host")
    room = (await client.post("/api/rooms", json={"game": "bolot"}, headers=host)).json()
    assert room["clock_seconds"] is None
    for bad in (
        {"clock_seconds": 7200},
        {"clock_seconds": -1},
        {"max_timeouts": 0},
        {"options": {"clock_seconds": "soon"}},
    ):
        response = await client.post("/api/rooms", json={"game": "bolot", **bad}, headers=host)
        assert response.status_code == 422 and isinstance(response.json()["detail"], str), bad


async def test_timeouts_then_a_stand_in_until_the_person_returns(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    person = await guest("Slow")
    room = await clocked_room(client, person, clock=1, limit=2)
    view = await wait_for(client, room, person, my_turn)
    log = (await client.get(f"/api/rooms/{room}/moves")).json()
    assert view["clock"]["seat"] == 0 and view["clock"]["seconds"] == 1
    due = datetime.fromisoformat(view["clock"]["deadline"])
    assert abs((due - datetime.fromisoformat(log[-1]["at"])).total_seconds() - 1) < 0.01
    refreshed = (await client.get(f"/api/rooms/{room}/view", headers=person)).json()
    assert refreshed["clock"] == view["clock"]  # a refresh shows the same clock

    # first timeout: the server plays for seat 0 at the deadline
    seq = view["seq"]
    after = await wait_for(client, room, person, lambda v: v["seq"] > seq, timeout=10)
    played = (await client.get(f"/api/rooms/{room}/moves", params={"since": seq})).json()[0]
    assert played["actor"] == 0 and datetime.fromisoformat(played["at"]) >= due
    assert after["seats"][0]["timeouts"] == 1 and after["seats"][0]["stand_in"] is False

    # second timeout in a row: a stand-in bot keeps the seat; the view says so
    stood = await wait_for(client, room, person, lambda v: v["seats"][0]["stand_in"], timeout=20)
    assert stood["seats"][0]["kind"] == "person" and stood["seats"][0]["name"] == "Slow"
    assert stood["my_seat"] == 0 and stood["clock"] is None or stood["clock"]["seat"] != 0

    # nobody else may take the seat kept for its person
    other = await guest("Grabber")
    assert (
        await client.put(f"/api/rooms/{room}/seats/0", json={}, headers=other)
    ).status_code == 409

    # the person comes back: the seat is theirs again, the clock runs for them again
    back = await client.put(f"/api/rooms/{room}/seats/0", json={}, headers=person)
    assert back.status_code == 200
    assert back.json()["seats"][0]["stand_in"] is False and back.json()["seats"][0]["timeouts"] == 0
    mine = await wait_for(client, room, person, my_turn)
    assert mine["clock"]["seat"] == 0
    moved = await client.post(
        f"/api/rooms/{room}/moves",
        json={"seq": mine["seq"], "action": mine["legal_actions"][0]},
        headers=person,
    )
    assert moved.status_code == 200, moved.text


async def test_a_person_s_own_move_brings_them_back_from_a_stand_in(settings: Settings) -> None:
    # The stand-in waits a bot delay before it plays, as in production: the person's own move,
    # sent at once when the seat is to act, wins the seq (with no delay the race is the machine's).
    await empty_tables(settings.db_url())
    slow_bots = create_app(settings.model_copy(update={"bot_delay": 0.5}))
    transport = httpx.ASGITransport(app=slow_bots)
    async with (
        slow_bots.router.lifespan_context(slow_bots),
        httpx.AsyncClient(transport=transport, base_url="http://t") as client,
    ):
        token = (await client.post("/api/session", json={"nickname": "Away"})).json()["token"]
        client.cookies.clear()
        person = {"Authorization": f"Bearer {token}"}
        room = await clocked_room(client, person, clock=1, limit=1)
        await wait_for(client, room, person, lambda v: v["seats"][0]["stand_in"], timeout=30)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            view = await wait_for(client, room, person, my_turn, timeout=30)
            answer = await client.post(
                f"/api/rooms/{room}/moves",
                json={"seq": view["seq"], "action": view["legal_actions"][0]},
                headers=person,
            )
            if answer.status_code == 200:
                assert answer.json()["seats"][0]["stand_in"] is False
                return
            assert answer.status_code == 409, (
                answer.text
            )  # the stand-in won this seq: try the next turn
        raise AssertionError("never got to move for the seat")


async def test_a_move_before_the_deadline_does_not_hold_up_the_bots(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    person = await guest("Quick")
    room = await clocked_room(client, person, clock=60)
    view = await wait_for(client, room, person, my_turn)
    bots_moved = False
    for _ in range(4):
        answer = await client.post(
            f"/api/rooms/{room}/moves",
            json={"seq": view["seq"], "action": view["legal_actions"][-1]},
            headers=person,
        )
        assert answer.status_code == 200
        after = answer.json()["seq"]
        started = time.monotonic()
        view = await wait_for(
            client, room, person, lambda v, s=after: my_turn(v) and v["seq"] >= s, timeout=20
        )
        assert (
            time.monotonic() - started < 10
        )  # the bots answered at once, not after the 60 s clock
        bots_moved = bots_moved or view["seq"] > after
        assert view["seats"][0]["timeouts"] == 0
    assert bots_moved


async def test_the_clock_resumes_after_a_restart_from_the_stored_times(settings: Settings) -> None:
    await empty_tables(settings.db_url())
    first = create_app(settings)
    transport = httpx.ASGITransport(app=first)
    async with (
        first.router.lifespan_context(first),
        httpx.AsyncClient(transport=transport, base_url="http://t") as client,
    ):
        token = (await client.post("/api/session", json={"nickname": "Sleepy"})).json()["token"]
        client.cookies.clear()
        person = {"Authorization": f"Bearer {token}"}
        room = await clocked_room(client, person, clock=3)
        view = await wait_for(client, room, person, my_turn)
    due = datetime.fromisoformat(view["clock"]["deadline"])
    play.clear_cache()  # a new process: only the database is left
    second = create_app(settings)
    transport = httpx.ASGITransport(app=second)
    async with (
        second.router.lifespan_context(second),
        httpx.AsyncClient(transport=transport, base_url="http://t") as client,
    ):
        again = (await client.get(f"/api/rooms/{room}/view", headers=person)).json()
        assert again["clock"] == view["clock"] and again["hand"] == view["hand"]
        restarted = datetime.now(due.tzinfo)
        await wait_for(client, room, person, lambda v: v["seq"] > view["seq"], timeout=15)
        played = (
            await client.get(f"/api/rooms/{room}/moves", params={"since": view["seq"]})
        ).json()[0]
    at = datetime.fromisoformat(played["at"])
    assert played["actor"] == 0 and at >= due
    assert (at - max(due, restarted)).total_seconds() < 2.5  # not a fresh 3 s from the restart


def test_the_clock_runs_for_a_seat_owing_only_the_empty_declaration() -> None:
    """The server declares for nobody (docs/server.md "Declarations"), so a person who owes
    a declaration and holds no combination is on the clock like for any other move."""
    deck = list(rules.GAMES["belote"].deck)
    random.Random(3).shuffle(deck)
    state = rules.apply(rules.new_game("belote", {}, 0), {"type": "deal", "deck": deck})
    rng = random.Random(3)
    while play.owed_declaration(state) is None or len(rules.legal_actions(state)) != 1:
        choices = [a for a in rules.legal_actions(state) if a["type"] not in ("double", "redouble")]
        state = rules.apply(state, rng.choice(choices))
    assert rules.legal_actions(state) == [
        {"type": "declare", "combinations": []}
    ]  # nothing to declare
    owing = rules.to_act(state)
    room = Room(status="playing", clock_seconds=30)
    seats = [Seat(seat=n, user_id=10 + n, stand_in=False, bot=None) for n in range(4)]
    chair = clock.person_to_act(room, seats, state)
    assert chair is not None and chair.seat == owing
