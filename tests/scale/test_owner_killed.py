"""A room's owner killed mid-deal while its moves arrive at the other worker (two real
workers, tests/scale/conftest.py): nothing lost, nothing applied twice, and a socket on
the survivor catches up with every move (app/rooms/live.py, docs/server.md "Live rooms")."""

from __future__ import annotations

import asyncio
import json
import threading
import time

import httpx
import pytest
import websockets

from app.realtime.lease import SHARDS
from tests.scale.conftest import Worker
from tests.scale.test_two_workers import _guest, _holders, _no_double_driving, _pid

pytestmark = pytest.mark.slow  # the full suite only (.ci/run; pytest -m '')


async def _last_view(url: str, room: int, auth: dict[str, str], seq: int, limit: float) -> dict:
    """The first view a socket on ``url`` shows at ``seq`` or later (within ``limit`` s)."""
    async with websockets.connect(f"{url}/api/rooms/{room}/ws", additional_headers=auth) as ws:
        deadline = time.monotonic() + limit
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"the socket did not reach seq {seq}"
            view = json.loads(await asyncio.wait_for(ws.recv(), left))
            if view.get("type") == "view" and view["seq"] >= seq:
                return view


def test_the_owner_killed_mid_deal_loses_nothing_and_applies_nothing_twice(
    workers: list[Worker], database_url: str
) -> None:
    """Two people play Belote for two through the worker that does not own the room; the
    owner (the room's lease holder, who deals) is killed after a few moves while they go
    on, each move sent twice (a double tap). Every move is stored once at its seq, each
    accepted answer is in the log as sent, the survivor takes the room over and deals the
    next hand, and a socket opened on the survivor shows the last seq."""
    a, b = workers
    with httpx.Client(base_url=a.url, timeout=10) as http:
        p0, p1 = _guest(http, "Owl"), _guest(http, "Lark")
        room = http.post(
            "/api/rooms",
            json={"game": "belote-2p", "options": {"target": 1001, "allow_claim": False}},
            headers=p0,
        ).json()["id"]
        assert http.put(f"/api/rooms/{room}/seats/0", json={}, headers=p0).status_code == 200
        assert http.put(f"/api/rooms/{room}/seats/1", json={}, headers=p1).status_code == 200
        assert http.post(f"/api/rooms/{room}/start", headers=p0).status_code == 200
    deadline = time.monotonic() + 15
    while (holder := asyncio.run(_holders(database_url)).get(room % SHARDS)) is None:
        assert time.monotonic() < deadline, "nobody holds the room's shard"
        time.sleep(0.2)
    owner = next(w for w in workers if w.proc is not None and w.proc.pid == _pid(holder))
    other = b if owner is a else a
    players = [p0, p1]
    accepted: dict[int, dict] = {}  # seq -> the action whose answer was 200
    killer = threading.Thread(target=owner.kill)  # killed while the moves go on
    killed_in: int | None = None  # the deal in play when the owner was killed
    after_kill = 0  # moves accepted after it
    with httpx.Client(base_url=other.url, timeout=15) as http:
        limit = time.monotonic() + 90
        while time.monotonic() < limit:
            view = http.get(f"/api/rooms/{room}/view").json()
            deal_no = (view["commitment"] or {}).get("deal_no", 0)
            if killed_in is None and len(accepted) == 6:
                killed_in = deal_no
                killer.start()
            if killed_in is not None and deal_no > killed_in and after_kill >= 10:
                break  # the survivor took the room over and dealt a new hand
            seat = view["to_act"]
            if seat is None:
                time.sleep(0.05)  # between deals: the room's (new) owner deals
                continue
            mine = http.get(f"/api/rooms/{room}/view", headers=players[seat]).json()
            if not mine["legal_actions"]:
                continue
            body = {"seq": mine["seq"], "action": mine["legal_actions"][0]}
            first = http.post(f"/api/rooms/{room}/moves", json=body, headers=players[seat])
            again = http.post(f"/api/rooms/{room}/moves", json=body, headers=players[seat])
            codes = sorted([first.status_code, again.status_code])
            assert codes in ([200, 409], [409, 409]), (first.text, again.text)
            if 200 in codes:
                accepted[mine["seq"]] = body["action"]
                after_kill += killed_in is not None
        else:
            raise AssertionError("the survivor did not deal a new hand after the kill")
        killer.join()
        log = http.get(f"/api/rooms/{room}/moves").json()
    assert [m["seq"] for m in log] == list(range(len(log))), "one move a seq, none lost"
    by_seq = {m["seq"]: m["action"] for m in log}
    for seq, action in accepted.items():
        # a card sent while its seat owed its declaration is stored after the empty one
        stored = (
            by_seq[seq + 1] if by_seq[seq]["type"] == "declare" != action["type"] else by_seq[seq]
        )
        assert stored["type"] == action["type"] and stored.get("card") == action.get("card")
    last = log[-1]["seq"] + 1
    view = asyncio.run(_last_view("ws" + other.url[4:], room, p0, last, 10))
    assert view["seq"] == last
    _no_double_driving(other)
