"""Crash safety: the server, a separate process on PostgreSQL, is killed with SIGKILL in the
middle of a deal and restarted; the match goes on from the move log with the same hands,
the same scores, the same clock, and finishes (bots and clocks resume)."""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import httpx
import pytest

from tests.conftest import TEST_SECRET
from tests.serverproc import ServeProcess, poll_view

pytestmark = pytest.mark.slow  # the full suite only (.ci/run; pytest -m '')


class Server(ServeProcess):
    """``tapet serve`` as a subprocess on ``database_url`` (the broker of the environment)."""

    def __init__(self, database_url: str, log: Path) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL",)}
        env.update(
            DATABASE_URL=database_url,
            TAPET_SECRET_KEY=TEST_SECRET,
            TAPET_BOT_DELAY="0.02",
            TAPET_DEAL_PAUSE="0.1",
            TAPET_SWEEP_INTERVAL="0.5",
            TAPET_RATE_LIMITS="false",
        )
        super().__init__(env, log)
        if os.environ.get("REDIS_URL"):
            self.env["REDIS_URL"] = os.environ["REDIS_URL"]
            self.env["TAPET_REDIS_CHANNEL"] = f"tapet-crash-{self.port}"

    def start(self) -> None:
        super().start()
        self.wait_ready()


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[Server]:
    if not database_url.startswith("postgresql"):
        pytest.skip(
            "the crash test runs `tapet serve` as a separate process on PostgreSQL: "
            "set DATABASE_URL=postgresql+asyncpg://... (CI does)"
        )
    import asyncio

    from tests.conftest import empty_tables

    asyncio.run(empty_tables(database_url))
    srv = Server(database_url, tmp_path / "server.log")
    try:
        yield srv
    finally:
        srv.stop()


def _my_turn(view: dict) -> bool:
    return view["status"] == "playing" and view["to_act"] == 0 and bool(view["legal_actions"])


def _play_mine(http: httpx.Client, room: int, auth: dict[str, str], view: dict) -> None:
    answer = http.post(
        f"/api/rooms/{room}/moves",
        json={"seq": view["seq"], "action": view["legal_actions"][0]},
        headers=auth,
    )
    assert answer.status_code in (200, 409), answer.text  # 409: the clock played first


def _public(entry: dict) -> tuple:
    """A log entry without what is revealed later (the deck and salt, declared cards)."""
    action = entry["action"]
    if action["type"] == "deal":
        action = {"deal_no": action["deal_no"], "sha256": action["sha256"]}
    elif action["type"] == "declare":
        action = {"kinds": [c.get("kind") for c in action.get("combinations") or []]}
    return entry["seq"], entry["actor"], entry["at"], action


KEYS = (
    "seq",
    "hand",
    "legal_actions",
    "scores",
    "to_act",
    "phase",
    "clock",
    "commitment",
    "my_seat",
    "status",
)


def test_sigkill_mid_deal_then_restart_finishes_the_match(server: Server) -> None:
    server.start()
    with httpx.Client(base_url=server.url, timeout=10) as http:
        token = http.post("/api/session", json={"nickname": "Survivor"}).json()["token"]
        http.cookies.clear()
        auth = {"Authorization": f"Bearer {token}"}
        room = http.post(
            "/api/rooms",
            json={
                "game": "bolot",
                "options": {"target": 300},
                "clock_seconds": 15,
                "max_timeouts": 20,
            },
            headers=auth,
        ).json()["id"]
        http.put(f"/api/rooms/{room}/seats/0", json={}, headers=auth)
        for seat in (1, 2, 3):
            http.put(f"/api/rooms/{room}/seats/{seat}", json={"bot": "heuristic"}, headers=auth)
        assert http.post(f"/api/rooms/{room}/start", headers=auth).status_code == 200
        # play into the middle of a deal: cards on the table, our turn (a pending prompt)
        view = poll_view(http, room, auth, _my_turn)
        while not (view["phase"] == "play" and view["seq"] >= 12):
            _play_mine(http, room, auth, view)
            view = poll_view(
                http, room, auth, lambda v, s=view["seq"]: _my_turn(v) and v["seq"] > s
            )
        before = {k: view[k] for k in KEYS}
        log_before = http.get(f"/api/rooms/{room}/moves").json()
        assert before["clock"]["seat"] == 0

    server.kill()
    server.start()
    with httpx.Client(base_url=server.url, timeout=10) as http:
        after = http.get(f"/api/rooms/{room}/view", headers=auth).json()
        assert {k: after[k] for k in KEYS} == before  # same hand, prompt, scores, clock
        assert http.get(f"/api/rooms/{room}/moves").json()[: len(log_before)] == log_before
        # the clock resumes: the server plays for us at the stored deadline
        due = datetime.fromisoformat(before["clock"]["deadline"])
        poll_view(http, room, auth, lambda v: v["seq"] > before["seq"], timeout=30)
        timed_out = http.get(f"/api/rooms/{room}/moves", params={"since": before["seq"]}).json()[0]
        assert timed_out["actor"] == 0 and datetime.fromisoformat(timed_out["at"]) >= due
        # a second kill right after a move of ours, while the bots are due to answer
        view = poll_view(http, room, auth, _my_turn)
        _play_mine(http, room, auth, view)

    server.kill()
    server.start()
    with httpx.Client(base_url=server.url, timeout=10) as http:
        deadline = time.monotonic() + 240
        while True:
            view = http.get(f"/api/rooms/{room}/view", headers=auth).json()
            if view["status"] == "finished":
                break
            assert time.monotonic() < deadline, f"the match did not finish (seq {view['seq']})"
            if _my_turn(view):
                _play_mine(http, room, auth, view)
            else:
                time.sleep(0.02)
        log = http.get(f"/api/rooms/{room}/moves").json()
    assert [m["seq"] for m in log] == list(range(len(log)))
    assert [_public(m) for m in log[: len(log_before)]] == [_public(m) for m in log_before]
    deals = [m["action"] for m in log if m["action"]["type"] == "deal"]
    # one deal can end a match to 300 (a failed contract gives the defenders every card point,
    # both pairs' declarations and a capot's 100, rules/bolot.md §7): one deal is a match too
    assert deals and all("deck" in d for d in deals)
    for d in deals:  # every deck is the one committed to before the deal
        assert hashlib.sha256((d["salt"] + ",".join(d["deck"])).encode()).hexdigest() == d["sha256"]
    assert before["commitment"]["sha256"] in {d["sha256"] for d in deals}
    assert view["winner"] in (0, 1)
