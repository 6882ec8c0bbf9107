"""Two real worker processes (tests/scale/conftest.py): a socket held by one sees a move
posted to the other; bots run once across both (their rooms split by the leases), every
match finishes with one move per seq; killing the lease holder lets the other take over.
The tests share one pair of workers and run in this order (the last kills one)."""

from __future__ import annotations

import asyncio
import json
import secrets
import time

import httpx
import pytest
import websockets
from sqlalchemy import select

from app.core.db import make_engine
from app.realtime.lease import SHARD, SHARDS, leases
from tests.scale.conftest import Worker
from tests.serverproc import poll_view

pytestmark = pytest.mark.slow  # the full suite only (.ci/run; pytest -m '')


def _guest(http: httpx.Client, nickname: str) -> dict[str, str]:
    # nicknames are unique among the people active now, and the two workers' database is
    # shared by every test of the module: each guest takes a name of its own
    nickname = f"{nickname} {secrets.token_hex(3)}"
    token = http.post("/api/session", json={"nickname": nickname}).json()["token"]
    http.cookies.clear()
    return {"Authorization": f"Bearer {token}"}


def _bot_room(http: httpx.Client, auth: dict[str, str], target: int = 151) -> int:
    room = http.post(
        "/api/rooms",
        json={"game": "belote-2p", "options": {"target": target, "allow_claim": False}},
        headers=auth,
    ).json()["id"]
    for seat in range(2):
        assert (
            http.put(
                f"/api/rooms/{room}/seats/{seat}", json={"bot": "random"}, headers=auth
            ).status_code
            == 200
        )
    assert http.post(f"/api/rooms/{room}/start", headers=auth).status_code == 200
    return room


def _finish(http: httpx.Client, rooms: list[int], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    for room in rooms:
        while http.get(f"/api/rooms/{room}").json()["status"] != "finished":
            assert time.monotonic() < deadline, f"room {room} did not finish"
            time.sleep(0.1)


def _one_move_per_seq(http: httpx.Client, room: int) -> None:
    log = http.get(f"/api/rooms/{room}/moves").json()
    assert [m["seq"] for m in log] == list(range(len(log)))


async def _holders(database_url: str) -> dict[int, str]:
    engine = make_engine(database_url)
    try:
        async with engine.connect() as conn:
            rows = (await conn.execute(select(leases))).all()
    finally:
        await engine.dispose()
    now = time.time() * 1000
    return {
        int(r.name[len(SHARD) :]): r.holder
        for r in rows
        if r.name.startswith(SHARD) and r.expires_ms > now
    }


def _pid(holder: str) -> int:
    return int(holder.split(":")[-2])


def _no_double_driving(*pair: Worker) -> None:
    for w in pair:
        text = w.text()
        assert "was not applied" not in text and "runner failed" not in text, text[-3000:]


async def _socket_sees(url: str, room: int, auth: dict[str, str], seq: int) -> dict:
    async with websockets.connect(f"{url}/api/rooms/{room}/ws", additional_headers=auth) as ws:
        while True:
            view = json.loads(await asyncio.wait_for(ws.recv(), 5))
            if view["seq"] > seq:
                return view


def test_a_socket_on_one_worker_sees_a_move_posted_to_the_other(workers: list[Worker]) -> None:
    a, b = workers
    with httpx.Client(base_url=b.url, timeout=10) as http:
        p0, p1 = _guest(http, "North"), _guest(http, "South")
        room = http.post("/api/rooms", json={"game": "belote-2p"}, headers=p0).json()["id"]
        http.put(f"/api/rooms/{room}/seats/0", json={}, headers=p0)
        http.put(f"/api/rooms/{room}/seats/1", json={}, headers=p1)
        assert http.post(f"/api/rooms/{room}/start", headers=p0).status_code == 200
        views = [http.get(f"/api/rooms/{room}/view", headers=h).json() for h in (p0, p1)]
        mover = next(v for v in views if v["legal_actions"])
        watcher = p1 if mover["my_seat"] == 0 else p0

        async def scenario() -> dict:
            seen = asyncio.create_task(_socket_sees("ws" + a.url[4:], room, watcher, mover["seq"]))
            await asyncio.sleep(0.5)  # the socket on worker a is open
            headers = p0 if mover["my_seat"] == 0 else p1
            posted = http.post(
                f"/api/rooms/{room}/moves",
                json={"seq": mover["seq"], "action": mover["legal_actions"][0]},
                headers=headers,
            )
            assert posted.status_code == 200, posted.text
            return await seen

        view = asyncio.run(scenario())
    assert view["seq"] > mover["seq"] and view["my_seat"] != mover["my_seat"]


def test_a_spectator_on_one_worker_is_counted_on_the_other(workers: list[Worker]) -> None:
    """The spectator count is the room's, across workers (app/realtime/hub.py
    ``share_viewers``): within a few seconds (a share every 2 s, a view kept 2 s)."""
    a, b = workers
    with httpx.Client(base_url=b.url, timeout=10) as http:
        owner = _guest(http, "Owner")
        room = http.post("/api/rooms", json={"game": "belote-2p"}, headers=owner).json()["id"]

        def count_on_b(wanted: int) -> None:
            deadline = time.monotonic() + 15
            while (seen := http.get(f"/api/rooms/{room}").json()["spectators"]) != wanted:
                assert time.monotonic() < deadline, f"worker b counts {seen}, not {wanted}"
                time.sleep(0.2)

        async def scenario() -> None:
            async with websockets.connect(f"ws{a.url[4:]}/api/rooms/{room}/ws") as ws:
                await asyncio.wait_for(ws.recv(), 5)  # anonymous, on worker a: a spectator
                await asyncio.to_thread(count_on_b, 1)
            await asyncio.to_thread(count_on_b, 0)

        asyncio.run(scenario())


def test_bots_run_once_across_two_workers_and_every_match_finishes(
    workers: list[Worker], database_url: str
) -> None:
    a, b = workers
    deadline = time.monotonic() + 15
    while True:  # the second worker joins: the first hands it half the shards
        holders = asyncio.run(_holders(database_url))
        if len(set(holders.values())) == 2 and len(holders) == SHARDS:
            break
        assert time.monotonic() < deadline, f"the shards were not shared: {holders}"
        time.sleep(0.3)
    with httpx.Client(base_url=a.url, timeout=10) as http:
        auth = _guest(http, "Host")
        rooms = [_bot_room(http, auth) for _ in range(4)]
        drivers = {holders[room % SHARDS] for room in rooms}
        _finish(http, rooms, timeout=90)
        for room in rooms:
            _one_move_per_seq(http, room)
    assert len(drivers) == 2 or len(rooms) < 2, "both workers drive rooms"
    _no_double_driving(a, b)


def _play_until(
    http: httpx.Client, room: int, auth: dict[str, str], done, timeout: float = 90
) -> dict:  # noqa: ANN001
    """Play seat 0 (the first legal action) until ``done(view)``."""
    return poll_view(http, room, auth, done, timeout, play_seat=0, pause=0.02)


def test_killing_the_lease_holder_lets_the_other_take_over(
    workers: list[Worker], database_url: str
) -> None:
    """We play seat 0, a bot seat 1; the worker driving the room is killed right after a
    move of ours (the bot is due): the other takes the room over and the match finishes."""
    a, b = workers
    with httpx.Client(base_url=a.url, timeout=10) as http:
        auth = _guest(http, "Host")
        room = http.post(
            "/api/rooms",
            json={"game": "belote-2p", "options": {"target": 301, "allow_claim": False}},
            headers=auth,
        ).json()["id"]
        http.put(f"/api/rooms/{room}/seats/0", json={}, headers=auth)
        http.put(f"/api/rooms/{room}/seats/1", json={"bot": "random"}, headers=auth)
        assert http.post(f"/api/rooms/{room}/start", headers=auth).status_code == 200
        view = _play_until(
            http,
            room,
            auth,
            lambda v: v["seq"] >= 12 and v["to_act"] == 0 and bool(v["legal_actions"]),
        )
        holder = asyncio.run(_holders(database_url))[room % SHARDS]
        victim = next(w for w in workers if w.proc is not None and w.proc.pid == _pid(holder))
        survivor = b if victim is a else a
        assert (
            http.post(
                f"/api/rooms/{room}/moves",
                headers=auth,
                json={"seq": view["seq"], "action": view["legal_actions"][0]},
            ).status_code
            == 200
        )
    victim.kill()
    killed_at = time.monotonic()
    with httpx.Client(base_url=survivor.url, timeout=10) as http:
        _play_until(http, room, auth, lambda v: v["seq"] > view["seq"] + 1, timeout=15)
        took_over = time.monotonic() - killed_at
        final = _play_until(http, room, auth, lambda v: v["status"] == "finished", timeout=120)
        _one_move_per_seq(http, room)
    assert final["winner"] in (0, 1)
    assert took_over < 2 * 2 + 2  # within the lease ttl (2 s) and a tick or two
    new_holder = asyncio.run(_holders(database_url)).get(room % SHARDS)
    assert new_holder is not None and _pid(new_holder) == survivor.proc.pid  # type: ignore[union-attr]
    _no_double_driving(survivor)
