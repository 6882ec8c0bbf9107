"""``tapet load``: drive bot-like tables through the real HTTP and WebSocket API.

Each table has four guest players driven by this tool (one session each):
they create a room, sit, start, and then each plays the first of its
``legal_actions`` as soon as its socket shows it is to act. Spectator sockets
are spread over the tables. For every move we time the POST and the moment
the *last* socket of the table (seats and spectators) shows the new ``seq``:
that is the move -> last-socket latency.

Bounded in count and time, loopback only: the URL must name 127.0.0.0/8,
localhost or [::1]. Without ``--url`` a server is started as a subprocess on a
free port (SQLite unless ``DATABASE_URL`` is set, no bot delay, no deal pause)
and its memory is read from /proc.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import httpx
import websockets

MAX_TABLES = 2000
MAX_SPECTATORS = 10000
MAX_DURATION = 3600


def check_loopback(url: str) -> None:
    """Raise ValueError unless ``url`` names this machine (127.0.0.0/8, localhost, [::1])."""
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return
    try:
        if ipaddress.ip_address(host).is_loopback:
            return
    except ValueError:
        pass
    raise ValueError(f"tapet load only targets this machine (loopback), not {host!r}")


@dataclass
class Stats:
    """What a run measured."""

    moves: int = 0
    errors: int = 0
    error_samples: list[str] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    sockets: int = 0

    def error(self, what: str) -> None:
        self.errors += 1
        if len(self.error_samples) < 5:
            self.error_samples.append(what)


class Table:
    """One room played by four driven players, watched by ``spectators`` sockets."""

    def __init__(self, client: httpx.AsyncClient, ws_url: str, game: str, spectators: int, stats: Stats):
        self.client, self.ws_url, self.game, self.n_spectators, self.stats = client, ws_url, game, spectators, stats
        self.tokens: list[str] = []
        self.room_id = 0
        self.sent: dict[int, float] = {}  # seq of the resulting view -> time the move was posted
        self.seen: dict[int, int] = {}  # seq -> number of sockets that have shown it
        self.n_sockets = 0

    async def setup(self, index: int) -> None:
        for seat in range(4):
            r = await self.client.post("/api/session", json={"nickname": f"load{index}s{seat}"})
            r.raise_for_status()
            self.tokens.append(r.json()["token"])
        auth = {"Authorization": f"Bearer {self.tokens[0]}"}
        r = await self.client.post("/api/rooms", json={"game": self.game, "options": {}}, headers=auth)
        r.raise_for_status()
        self.room_id = r.json()["id"]
        for seat, token in enumerate(self.tokens):
            r = await self.client.put(f"/api/rooms/{self.room_id}/seats/{seat}", json={},
                                      headers={"Authorization": f"Bearer {token}"})
            r.raise_for_status()

    async def start(self) -> None:
        r = await self.client.post(f"/api/rooms/{self.room_id}/start",
                                   headers={"Authorization": f"Bearer {self.tokens[0]}"})
        r.raise_for_status()

    def _shown(self, seq: int) -> None:
        self.seen[seq] = self.seen.get(seq, 0) + 1
        if self.seen[seq] == self.n_sockets and seq in self.sent:
            self.stats.latencies_ms.append((time.perf_counter() - self.sent.pop(seq)) * 1000)

    async def seat_socket(self, seat: int, deadline: float, ready: asyncio.Event) -> None:
        url = f"{self.ws_url}/api/rooms/{self.room_id}/ws?token={self.tokens[seat]}"
        async with websockets.connect(url, max_size=2**22) as ws:
            ready.set()
            while time.perf_counter() < deadline:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(0.05, deadline - time.perf_counter()))
                except TimeoutError:
                    break
                view = json.loads(raw)
                self._shown(view["seq"])
                if view.get("to_act") == seat and view.get("legal_actions") and view["status"] != "finished":
                    await self.move(seat, view)

    async def spectator_socket(self, deadline: float, ready: asyncio.Event) -> None:
        async with websockets.connect(f"{self.ws_url}/api/rooms/{self.room_id}/ws", max_size=2**22) as ws:
            ready.set()
            while time.perf_counter() < deadline:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(0.05, deadline - time.perf_counter()))
                except TimeoutError:
                    break
                self._shown(json.loads(raw)["seq"])

    async def move(self, seat: int, view: dict) -> None:
        seq = view["seq"]
        self.sent[seq + 1] = time.perf_counter()
        r = await self.client.post(f"/api/rooms/{self.room_id}/moves",
                                   json={"seq": seq, "action": view["legal_actions"][0]},
                                   headers={"Authorization": f"Bearer {self.tokens[seat]}"})
        if r.status_code == 200:
            self.stats.moves += 1
        elif r.status_code != 409:  # 409: a stale view, the next push brings the right one
            self.stats.error(f"move {r.status_code}: {r.text[:120]}")

    async def play(self, deadline: float) -> None:
        self.n_sockets = 4 + self.n_spectators
        self.stats.sockets += self.n_sockets
        readies = [asyncio.Event() for _ in range(self.n_sockets)]
        tasks = [asyncio.create_task(self.seat_socket(s, deadline, readies[s])) for s in range(4)]
        tasks += [asyncio.create_task(self.spectator_socket(deadline, readies[4 + i]))
                  for i in range(self.n_spectators)]
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in readies)), timeout=60)
        await self.start()
        for result in await asyncio.gather(*tasks, return_exceptions=True):
            if isinstance(result, Exception):
                self.stats.error(f"socket: {result!r}"[:160])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(workers: int = 1) -> tuple[subprocess.Popen, str]:
    """A ``tapet serve`` subprocess on a free loopback port; returns it and its URL."""
    port = _free_port()
    env = dict(os.environ, TAPET_BOT_DELAY="0", TAPET_DEAL_PAUSE="0")
    if "DATABASE_URL" not in env:
        env["DATABASE_URL"] = f"sqlite+aiosqlite:///{tempfile.mkdtemp()}/load.db"
    cmd = [sys.executable, "-m", "app.cli", "serve", "--port", str(port)]
    if workers > 1:
        cmd += ["--workers", str(workers)]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            httpx.get(url + "/api/games", timeout=1)
            return proc, url
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def server_memory_mb(pid: int) -> float:
    """Resident memory of a process and its children (workers), in MiB, from /proc."""
    total = 0
    pids = [pid]
    try:
        children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
        pids += [int(p) for p in children]
    except OSError:
        pass
    for p in pids:
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


async def run(url: str, tables: int, spectators: int, duration: float, game: str = "bolot") -> Stats:
    """Set up ``tables`` tables with ``spectators`` spectator sockets in all, play for ``duration`` s."""
    stats = Stats()
    ws_url = "ws" + url[len("http"):]
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as client:
        per_table = [spectators // tables + (1 if i < spectators % tables else 0) for i in range(tables)]
        all_tables = [Table(client, ws_url, game, per_table[i], stats) for i in range(tables)]
        sem = asyncio.Semaphore(20)

        async def setup(i: int, t: Table) -> None:
            async with sem:
                await t.setup(i)

        await asyncio.gather(*(setup(i, t) for i, t in enumerate(all_tables)))
        start = time.perf_counter()
        deadline = start + duration
        await asyncio.gather(*(t.play(deadline) for t in all_tables))
        stats.elapsed = time.perf_counter() - start  # type: ignore[attr-defined]
    return stats


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values`` (nearest rank); NaN when empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(tables: int, spectators: int, duration: float, url: str | None, game: str = "bolot",
         workers: int = 1) -> int:
    """Run the load and print the figures. Returns a process exit code."""
    if not (1 <= tables <= MAX_TABLES and 0 <= spectators <= MAX_SPECTATORS and 0 < duration <= MAX_DURATION):
        print(f"tables 1..{MAX_TABLES}, spectators 0..{MAX_SPECTATORS}, duration 0..{MAX_DURATION} s")
        return 2
    proc = None
    if url is None:
        proc, url = start_server(workers)
    check_loopback(url)
    try:
        stats = asyncio.run(run(url, tables, spectators, duration, game))
        mem = server_memory_mb(proc.pid) if proc else float("nan")
    finally:
        if proc:
            proc.terminate()
            proc.wait(timeout=30)
    lat = stats.latencies_ms
    elapsed = getattr(stats, "elapsed", duration)
    print(f"tables {tables}  sockets {stats.sockets}  duration {elapsed:.1f} s  game {game}")
    print(f"moves {stats.moves}  moves/s {stats.moves / elapsed:.1f}  errors {stats.errors}")
    print(f"move -> last socket latency ms: p50 {percentile(lat, .5):.1f}  p95 {percentile(lat, .95):.1f}"
          f"  p99 {percentile(lat, .99):.1f}  max {max(lat) if lat else float('nan'):.1f}  (n={len(lat)})")
    print(f"server memory {mem:.0f} MiB" + ("" if proc else " (not measured: external server)"))
    for sample in stats.error_samples:
        print("  error:", sample)
    if lat:
        print(f"mean latency {statistics.fmean(lat):.1f} ms")
    return 0 if stats.errors == 0 else 1
