"""``tapet load``: drive tables through the real HTTP and WebSocket API and print figures.

Each table has four guest players driven by this tool (one session each): they
create a room, sit, start, and then each plays the first of its ``legal_actions``
as soon as its socket shows it is to act (the move is posted while the socket keeps
reading), or after a human's think time with ``--pace-ms`` (a mean, drawn uniformly
from 2/3 to 4/3 of it: 3000 is a move every 2 to 4 s per table). Spectator sockets
are spread over the tables. When a match ends the table opens a new room, so the
load stays steady for ``--duration`` seconds.

Figures: moves/s (the players' accepted moves, and every move of the log, the
server's deals and empty declarations too), move -> last-socket latency p50/p95/p99
(from just before a move is posted to the moment the *last* socket of the table,
seats and spectators, shows a ``seq`` at least the move's), the POST's own latency,
the sockets open, errors (any HTTP error but a stale move's 409, any socket that
failed or closed early) and the server's resident memory: all its processes (the
uvicorn workers), peak and at the end.

Bounded and loopback only: the URL must name 127.0.0.0/8, localhost or [::1];
tables, sockets and duration are capped, and setting up has a time limit. Without
``--url`` a server is started as a subprocess on a free port: ``--workers`` uvicorn
workers, no bot delay, no deal pause, rate limits off, on ``--database-url``
(default: a new SQLite file, never ``DATABASE_URL`` from the environment, which may name
a production database: a note says so when it is set; ``--fresh-db`` makes a new
PostgreSQL database beside the one named and drops it afterwards, and is refused
without a PostgreSQL ``--database-url``) and ``--redis-url`` (default ``REDIS_URL``;
needed for more than one worker). Its folder in /tmp (the SQLite file, its log) is
removed at the end, kept after a failure (the message says where).

Checked before anything starts (exit 2 with a message on stderr): each number in its
range, the game among the project's (``rules.GAMES``, as ``/api/games``), and ``--url``
an http(s) loopback URL where a Tapet server answers ``GET /api/games``. A server that
fails to start exits 1 with one message and the end of its log.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import os
import random
import secrets
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import httpx
import orjson
from tqdm import tqdm

from app import rules
from app.core import collector
from app.core.settings import safe_url
from app.tools.loadserver import (
    Server,
    ServerError,
    listening_pids,
    memory_mb,
    process_tree,
)

#: This run's tag in its guests' nicknames (``sign_in``).
RUN_TAG = secrets.token_hex(2)

MAX_TABLES = 2000
MAX_SPECTATORS = 10000
MAX_DURATION = 3600
SETUP_LIMIT = 300.0  # seconds to create the rooms and open the sockets


def _options(game: str) -> dict[str, bool]:
    """The room options of a load test: a claim would end the match at once, so it is off."""
    option = rules.GAMES[game].claim_option if game in rules.GAMES else None
    return {option: False} if option else {}


def check_loopback(url: str) -> None:
    """Raise ValueError unless ``url`` is an http(s) URL naming this machine (127.0.0.0/8,
    localhost, [::1])."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port out of range
    except ValueError:
        raise ValueError(f"--url is not a valid http(s) URL: {url!r}") from None
    if parts.scheme not in ("http", "https"):
        if parts.scheme and parts.hostname:
            raise ValueError(f"--url must be an http:// or https:// URL, not {parts.scheme}://")
        raise ValueError(f"--url is not a valid http(s) URL: {url!r}")
    host = parts.hostname or ""
    if not host:
        raise ValueError(f"--url is not a valid http(s) URL: {url!r}")
    if host == "localhost":
        return
    try:
        if ipaddress.ip_address(host).is_loopback:
            return
    except ValueError:
        pass
    raise ValueError(f"tapet load only targets this machine (loopback), not {host!r}")


def check_server(url: str, timeout: float = 5.0) -> None:
    """Raise ValueError unless a Tapet server at ``url`` answers ``GET /api/games`` with 200
    and a JSON list within ``timeout`` seconds."""
    try:
        r = httpx.get(url.rstrip("/") + "/api/games", timeout=timeout)
        if r.status_code != 200:
            raise ValueError(f"GET /api/games answered {r.status_code}")
        if not isinstance(r.json(), list):
            raise ValueError("GET /api/games did not answer a JSON list")
    except (httpx.HTTPError, ValueError) as exc:  # a JSONDecodeError is a ValueError
        reason = str(exc) or type(exc).__name__
        raise ValueError(f"no Tapet server answers at {url}: {reason}") from None


@dataclass
class Stats:
    """What a run measured."""

    moves: int = 0  # the players' accepted moves
    log_moves: int = 0  # every seq the tables advanced (server moves too)
    errors: int = 0
    stale: int = 0
    error_samples: list[str] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    post_ms: list[float] = field(default_factory=list)
    sockets: int = 0  # open now
    peak_sockets: int = 0
    matches: int = 0
    elapsed: float = 0.0
    deadline: float = float("inf")  # set when every table is ready

    def error(self, what: str) -> None:
        """Count an error (the first few are kept to print)."""
        self.errors += 1
        if len(self.error_samples) < 5:
            self.error_samples.append(what)

    def opened(self, delta: int) -> None:
        """A socket opened (+1) or closed (-1)."""
        self.sockets += delta
        self.peak_sockets = max(self.peak_sockets, self.sockets)


class Poster:
    """The moves' POSTs of one table on plain HTTP/1.1 keep-alive connections.

    httpx cost the client as much CPU as a move costs the server (its pool, its
    headers' models, anyio's look-ups: 60% of the client's CPU at 100 tables flat out),
    and on this 2-core machine the client's CPU is CPU the server under test does not
    get. A move is one small JSON POST whose answer has a ``content-length``: a request
    written as bytes and an answer read by its length is all it needs. A connection idle
    for ``IDLE`` seconds is closed before it is used again (uvicorn closes it after 5 s)."""

    IDLE = 2.0

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.ssl = parts.scheme == "https"
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or (443 if self.ssl else 80)
        self._netloc = parts.netloc.encode()
        self._idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter, float]] = []

    async def post(self, path: str, body: bytes, token: str) -> tuple[int, bytes]:
        """POST ``body`` (JSON) to ``path`` as the session ``token``: ``(status, answer)``.
        A kept-alive connection that fails is replaced and the request sent once more (a
        move's seq makes the repeat harmless). Raises OSError or
        ``asyncio.IncompleteReadError`` when a new connection fails too."""
        request = b"".join(
            (
                b"POST ",
                path.encode(),
                b" HTTP/1.1\r\nhost: ",
                self._netloc,
                b"\r\nauthorization: Bearer ",
                token.encode(),
                b"\r\ncontent-type: application/json\r\ncontent-length: ",
                str(len(body)).encode(),
                b"\r\n\r\n",
                body,
            )
        )
        now = time.monotonic()
        while self._idle:
            reader, writer, since = self._idle.pop()
            if now - since < self.IDLE:
                try:
                    return await self._exchange(reader, writer, request)
                except (OSError, asyncio.IncompleteReadError, ValueError):
                    break  # closed under us: once more on a new connection
            writer.close()
        reader, writer = await asyncio.open_connection(self.host, self.port, ssl=self.ssl or None)
        return await self._exchange(reader, writer, request)

    async def _exchange(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes
    ) -> tuple[int, bytes]:
        try:
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.split(b"\r\n")
            status = int(lines[0].split(b" ", 2)[1])
            length, chunked, close = 0, False, False
            for line in lines[1:]:
                name, _, value = line.partition(b":")
                name = name.strip().lower()
                if name == b"content-length":
                    length = int(value)
                elif name == b"transfer-encoding":
                    chunked = b"chunked" in value.lower()
                elif name == b"connection":
                    close = b"close" in value.lower()
            if chunked:
                parts = []
                while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
                    parts.append((await reader.readexactly(size + 2))[:-2])
                await reader.readuntil(b"\r\n")
                answer = b"".join(parts)
            else:
                answer = await reader.readexactly(length)
        except BaseException:
            writer.close()
            raise
        if close:
            writer.close()
        else:
            self._idle.append((reader, writer, time.monotonic()))
        return status, answer

    def close(self) -> None:
        """Close the idle connections."""
        for _reader, writer, _since in self._idle:
            writer.close()
        self._idle.clear()


class Table:
    """Rooms played one after another by four driven players, watched by spectator sockets."""

    def __init__(
        self,
        client: httpx.AsyncClient,
        ws_url: str,
        game: str,
        spectators: int,
        stats: Stats,
        pace_ms: float = 0.0,
    ) -> None:
        self.client, self.ws_url, self.game, self.n_spectators, self.stats = (
            client,
            ws_url,
            game,
            spectators,
            stats,
        )
        self.pace_ms = pace_ms  # mean think time before each move (0: flat out)
        self.poster = Poster(str(client.base_url))
        self.tokens: list[str] = []
        self.room_id = 0
        self.players = 4

    async def sign_in(self, index: int) -> None:
        """Four guest sessions (a nickname is unique among the people active now: each run
        its own tag, so a second run against the same server is not refused)."""
        for seat in range(4):
            nickname = f"load{RUN_TAG}-{index}s{seat}"
            r = await self.client.post("/api/session", json={"nickname": nickname})
            r.raise_for_status()
            self.tokens.append(r.json()["token"])

    def _auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    async def new_room(self) -> None:
        """A new room with every player seated (not started)."""
        r = await self.client.post(
            "/api/rooms",
            json={"game": self.game, "options": _options(self.game)},
            headers=self._auth(0),
        )
        r.raise_for_status()
        room = r.json()
        self.room_id, self.players = room["id"], room["players"]
        for seat in range(self.players):
            r = await self.client.put(
                f"/api/rooms/{self.room_id}/seats/{seat}", json={}, headers=self._auth(seat)
            )
            r.raise_for_status()

    async def play(self, setup_done: asyncio.Event) -> None:
        """Play rooms until the deadline (the first one is set up already)."""
        while time.perf_counter() < self.stats.deadline:
            match = Match(self)
            await match.run(setup_done)
            self.stats.matches += match.over.is_set()
            if time.perf_counter() < self.stats.deadline:
                try:
                    await self.new_room()
                except httpx.HTTPError as exc:
                    self.stats.error(f"new room: {exc!r}"[:160])
                    return


class Match:
    """One room of a table: its sockets, its moves, its latencies."""

    def __init__(self, table: Table) -> None:
        self.t, self.stats = table, table.stats
        self.shown: list[int] = []  # the highest seq each socket has shown
        self.sent: dict[int, float] = {}  # seq a move leads to -> when it was posted
        self.posting: set[int] = set()
        self.moving: set[asyncio.Task[None]] = set()
        self.over = asyncio.Event()
        self.top = 0

    def _shown(self, index: int, seq: int) -> None:
        if seq <= self.shown[index]:
            return
        self.shown[index] = seq
        if seq > self.top:
            self.stats.log_moves += seq - self.top if self.top else 0
            self.top = seq
        low = min(self.shown)
        for target in [s for s in self.sent if s <= low]:
            self.stats.latencies_ms.append((time.perf_counter() - self.sent.pop(target)) * 1000)

    async def _socket(self, index: int, seat: int | None, ready: asyncio.Event) -> None:
        import websockets

        url = f"{self.t.ws_url}/api/rooms/{self.t.room_id}/ws"
        if seat is not None:
            url += f"?token={self.t.tokens[seat]}"
        try:
            async with websockets.connect(url, max_size=2**22, open_timeout=60) as ws:
                self.stats.opened(1)
                ready.set()
                try:
                    while not self.over.is_set() and time.perf_counter() < self.stats.deadline:
                        # until the deadline: a shorter wait woke each socket every second
                        # with a TimeoutError, whose traceback cycles kept the client's
                        # collector busy (tens of ms every few seconds, counted as latency)
                        left = self.stats.deadline - time.perf_counter()
                        try:  # a deadline, not wait_for: no task a message on the client's CPU
                            async with asyncio.timeout(max(left, 0.01)):
                                message = orjson.loads(await ws.recv())
                        except TimeoutError:
                            continue
                        if message.get("type") != "view":
                            continue
                        self._shown(index, message["seq"])
                        if message["status"] == "finished":
                            self.over.set()
                        elif (
                            seat is not None
                            and message.get("to_act") == seat
                            and message.get("legal_actions")
                        ):
                            self._post(seat, message)
                finally:
                    self.stats.opened(-1)
        except Exception as exc:  # noqa: BLE001 - counted, the run goes on
            ready.set()
            if not self.over.is_set() and time.perf_counter() < self.stats.deadline:
                self.stats.error(f"socket: {exc!r}"[:160])

    def _post(self, seat: int, view: dict) -> None:
        seq = view["seq"]
        if seq in self.posting:
            return
        self.posting.add(seq)
        task = asyncio.create_task(self._move(seat, seq, view["legal_actions"][0]))
        self.moving.add(task)
        task.add_done_callback(self.moving.discard)

    async def _move(self, seat: int, seq: int, action: dict) -> None:
        if (
            self.t.pace_ms > 0
        ):  # a human's think time: uniform in [2/3, 4/3] x pace (3000: 2 to 4 s)
            await asyncio.sleep(self.t.pace_ms / 1000 * random.uniform(2 / 3, 4 / 3))
            if time.perf_counter() >= self.stats.deadline:
                return
        started = time.perf_counter()
        self.sent[seq + 1] = started
        url = f"/api/rooms/{self.t.room_id}/moves"
        body = orjson.dumps({"seq": seq, "action": action})
        try:
            # a repeat after a closed keep-alive connection is harmless: a move that did
            # go through answers 409, counted as stale (Poster.post)
            status, answer = await self.t.poster.post(url, body, self.t.tokens[seat])
        except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
            self.sent.pop(seq + 1, None)
            self.stats.error(f"move: {exc!r}"[:160])
            return
        self.stats.post_ms.append((time.perf_counter() - started) * 1000)
        if status == 200:
            self.stats.moves += 1
        else:
            self.sent.pop(seq + 1, None)
            if status == 409:
                self.stats.stale += 1  # a stale view: the next push brings the right one
            else:
                self.stats.error(f"move {status}: {answer[:120].decode(errors='replace')}")

    async def run(self, setup_done: asyncio.Event) -> None:
        """Open the sockets, wait for every table to be ready, start, play until over."""
        n = self.t.players + self.t.n_spectators
        self.shown = [0] * n
        readies = [asyncio.Event() for _ in range(n)]
        seats: list[int | None] = [*range(self.t.players), *([None] * self.t.n_spectators)]
        tasks = [
            asyncio.create_task(self._socket(i, seat, readies[i])) for i, seat in enumerate(seats)
        ]
        await asyncio.gather(*(e.wait() for e in readies))
        await setup_done.wait()
        r = await self.t.client.post(f"/api/rooms/{self.t.room_id}/start", headers=self.t._auth(0))
        if r.status_code != 200:
            self.stats.error(f"start {r.status_code}: {r.text[:120]}")
            self.over.set()
        await asyncio.gather(*tasks)
        await asyncio.gather(*self.moving)  # the moves in flight at the deadline end normally


def _bar(shown: bool, total: int, desc: str, unit: str) -> tqdm:
    """A progress bar on stderr (the report goes to stdout), gone when done; hidden unless
    ``shown``."""
    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, leave=False, disable=not shown)


async def run(
    url: str,
    tables: int,
    spectators: int,
    duration: float,
    game: str = "bolot",
    pids: list[int] | None = None,
    pace_ms: float = 0.0,
    mark: Callable[[str], Awaitable[None]] | None = None,
    progress: bool = False,
) -> tuple[Stats, float, float]:
    """Set up ``tables`` tables with ``spectators`` spectator sockets in all, play ``duration``
    seconds. Returns the stats and the server's peak and final memory (MiB; NaN unknown).

    ``pace_ms``: each move is posted after a think time drawn uniformly from 2/3 to 4/3 of
    it (3000: a move every 2 to 4 s per table); 0 plays flat out. ``mark("start")`` is
    awaited when every socket is open and the clock starts, ``mark("end")`` when the
    tables have stopped (a profiler reads the server's counters there). ``progress`` shows
    bars on stderr: tables set up, sockets open, then the seconds of play with the moves."""
    stats = Stats()
    ws_url = "ws" + url[len("http") :]
    # One small connection pool a table: httpx looks at every connection of its pool on
    # each request, so one pool of 500 cost the client more CPU than the server's moves.
    # A connection idle 2 s is closed by the client, before uvicorn's keep-alive timeout (5 s)
    # can close it under a request.
    limits = httpx.Limits(max_connections=8, max_keepalive_connections=8, keepalive_expiry=2)
    peak = float("nan")
    async with contextlib.AsyncExitStack() as clients:
        per_table = [
            spectators // tables + (1 if i < spectators % tables else 0) for i in range(tables)
        ]
        all_tables = [
            Table(
                await clients.enter_async_context(
                    httpx.AsyncClient(base_url=url, timeout=60, limits=limits)
                ),
                ws_url,
                game,
                per_table[i],
                stats,
                pace_ms,
            )
            for i in range(tables)
        ]
        sem = asyncio.Semaphore(20)

        made = _bar(progress, tables, "setting up tables", "table")

        async def setup(i: int, t: Table) -> None:
            async with sem:
                await t.sign_in(i)
                await t.new_room()
                made.update(1)

        with made:
            await asyncio.wait_for(
                asyncio.gather(*(setup(i, t) for i, t in enumerate(all_tables))), SETUP_LIMIT
            )
        setup_done = asyncio.Event()
        players = [asyncio.create_task(t.play(setup_done)) for t in all_tables]
        need = sum(t.players + t.n_spectators for t in all_tables)
        limit = time.perf_counter() + SETUP_LIMIT
        with _bar(progress, need, "opening sockets", "socket") as opened:
            while stats.sockets + stats.errors < need and time.perf_counter() < limit:
                await asyncio.sleep(0.1)  # every socket open (or failed): the clock starts
                opened.update(stats.sockets + stats.errors - opened.n)
        if mark is not None:
            await mark("start")
        start = time.perf_counter()
        deadline = stats.deadline = start + duration
        setup_done.set()
        if pids:
            peak = 0.0
        with _bar(progress, round(duration), "playing", "s") as played:
            while time.perf_counter() < deadline:
                if pids:
                    peak = max(peak, memory_mb(pids))
                await asyncio.sleep(min(1.0, max(0.0, deadline - time.perf_counter())))
                played.update(min(round(duration), int(time.perf_counter() - start)) - played.n)
                played.set_postfix(moves=stats.moves, errors=stats.errors, refresh=False)
        await asyncio.gather(*players)
        for t in all_tables:
            t.poster.close()
        stats.elapsed = time.perf_counter() - start
        if mark is not None:
            await mark("end")
    return stats, peak, memory_mb(pids) if pids else float("nan")


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values`` (nearest rank); NaN when empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(stats: Stats, tables: int, game: str, peak: float, final: float, where: str) -> str:
    """The figures of a run, as printed."""
    lat, post, elapsed = stats.latencies_ms, stats.post_ms, stats.elapsed or float("nan")
    lines = [
        f"server: {where}",
        f"tables {tables} ({game}, {stats.matches} matches ended)  sockets {stats.peak_sockets} open at peak"
        f"  duration {elapsed:.1f} s",
        f"moves/s {stats.moves / elapsed:.1f} by the players ({stats.moves}), {stats.log_moves / elapsed:.1f}"
        f" in the logs  stale 409s {stats.stale}  errors {stats.errors}",
        f"move -> last socket ms: p50 {percentile(lat, 0.5):.1f}  p95 {percentile(lat, 0.95):.1f}"
        f"  p99 {percentile(lat, 0.99):.1f}  max {max(lat) if lat else float('nan'):.1f}  (n={len(lat)})",
        f"POST move ms: p50 {percentile(post, 0.5):.1f}  p99 {percentile(post, 0.99):.1f}",
        f"server memory MiB (all processes): peak {peak:.0f}  end {final:.0f}",
    ]
    lines += [f"  error: {sample}" for sample in stats.error_samples]
    return "\n".join(lines)


def _usage_error(args: argparse.Namespace, message: str) -> int:
    """argparse's way (usage, then ``tapet load: error: ...``, on stderr), returning 2
    rather than exiting; the usage when ``args`` came from the parser (``register``)."""
    parser = getattr(args, "parser", None)
    if isinstance(parser, argparse.ArgumentParser):
        parser.print_usage(sys.stderr)
        prog = parser.prog
    else:
        prog = "tapet load"
    print(f"{prog}: error: {message}", file=sys.stderr)
    return 2


def check_args(args: argparse.Namespace) -> str | None:
    """What is wrong with ``args`` (one argument, its allowed range), or None."""
    ranges = (
        ("--tables", args.tables, 1 <= args.tables <= MAX_TABLES, f"from 1 to {MAX_TABLES}"),
        (
            "--spectators",
            args.spectators,
            0 <= args.spectators <= MAX_SPECTATORS,
            f"from 0 to {MAX_SPECTATORS}",
        ),
        (
            "--duration",
            args.duration,
            0 < args.duration <= MAX_DURATION,
            f"more than 0 and at most {MAX_DURATION} s",
        ),
        ("--workers", args.workers, 1 <= args.workers <= 16, "from 1 to 16"),
    )
    pace = getattr(args, "pace_ms", 0.0)
    for name, value, good, allowed in (
        *ranges,
        ("--pace-ms", pace, 0 <= pace <= 60_000, "from 0 to 60000"),
    ):
        if not good:
            return f"{name} must be {allowed}, not {value:g}"
    if args.game not in rules.GAMES:
        return f"unknown game {args.game!r}; the games: {', '.join(sorted(rules.GAMES))}"
    database_url = getattr(args, "database_url", None) or ""
    if getattr(args, "fresh_db", False) and not database_url.startswith("postgres"):
        return (
            "--fresh-db needs a PostgreSQL --database-url (postgresql+asyncpg://...); "
            "the default SQLite file is new each run already"
        )
    return None


def main(args: argparse.Namespace) -> int:
    """Run the load described by ``args`` (``register``) and print the figures; exit code 1
    when there were errors or the server did not start, 2 for bad arguments (checked
    before anything starts: module docstring)."""
    if (wrong := check_args(args)) is not None:
        return _usage_error(args, wrong)
    url = args.url
    if url is not None:
        try:
            check_loopback(url)
            check_server(url)
        except ValueError as exc:
            return _usage_error(args, str(exc))
    elif os.environ.get("DATABASE_URL") and not args.database_url:
        print(
            "tapet load: note: DATABASE_URL is set but not used: the server runs on a new"
            " SQLite file (pass --database-url to choose its database)",
            file=sys.stderr,
        )
    # The client's own collector pauses (its 2,000 sockets) would count as the server's
    # latency: the same thresholds as a serving worker (app/core/collector.py).
    collector.tune(freeze=False)
    server = None
    ok = False
    try:
        if url is None:
            server = Server(args.workers, args.database_url, args.redis_url, args.fresh_db)
            server.start()
            url = server.url
            assert server.proc is not None
            pids = process_tree(server.proc.pid)
            where = (
                f"started, {args.workers} worker(s), {safe_url(server.database_url).split('://')[0]}"
                f"{' + Redis' if server.redis_url else ''} ({len(pids)} processes)"
            )
        else:
            pids = listening_pids(urlsplit(url).port or (443 if url.startswith("https") else 80))
            where = f"{url} ({len(pids)} processes found listening)"
        stats, peak, final = asyncio.run(
            run(
                url,
                args.tables,
                args.spectators,
                args.duration,
                args.game,
                pids,
                getattr(args, "pace_ms", 0.0),
                progress=True,
            )
        )
        ok = stats.errors == 0
    except ServerError as exc:  # its message names the log, kept
        print(f"tapet load: {exc}", file=sys.stderr)
        server = None  # stopped already
        return 1
    finally:
        if server is not None:
            server.stop(keep_log=not ok)
            if not ok and server.log.exists():
                print(f"tapet load: the server's log is kept: {server.log}", file=sys.stderr)
    print(report(stats, args.tables, args.game, peak, final, where))
    return 0 if ok else 1


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``tapet load`` to the ``tapet`` command's subparsers."""
    load = sub.add_parser(
        "load", help="drive tables through the HTTP/WebSocket API and print figures (loopback only)"
    )
    load.add_argument("--tables", type=int, default=10)
    load.add_argument(
        "--spectators", type=int, default=0, help="spectator sockets in all, spread over the tables"
    )
    load.add_argument(
        "--duration", type=float, default=20, help="seconds of play (after every socket is open)"
    )
    load.add_argument(
        "--url", default=None, help="a running server on this machine (default: start one)"
    )
    load.add_argument(
        "--pace-ms",
        type=float,
        default=0.0,
        help="mean think time before each move, ms (uniform 2/3..4/3 of it; 3000: a move every"
        " 2-4 s per table); default 0, flat out",
    )
    load.add_argument(
        "--workers", type=int, default=1, help="uvicorn workers of the server this command starts"
    )
    load.add_argument(
        "--database-url",
        default=None,
        help="database of the server this command starts (default: a new SQLite file, removed at"
        " the end; DATABASE_URL from the environment is NOT used, so as not to load a"
        " production database by mistake)",
    )
    load.add_argument(
        "--redis-url",
        default=None,
        help="Redis of the server this command starts (default: REDIS_URL)",
    )
    load.add_argument(
        "--fresh-db",
        action="store_true",
        help="with a PostgreSQL --database-url: a new database beside it, dropped at the end"
        " (refused, exit 2, without a PostgreSQL --database-url)",
    )
    load.add_argument("--game", default="bolot", help=f"one of: {', '.join(sorted(rules.GAMES))}")
    load.set_defaults(func=main, parser=load)
