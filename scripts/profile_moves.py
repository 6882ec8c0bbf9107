"""Profile the real-time hot path: SQL statements, server CPU and view builds per move.

Starts a server subprocess (this script with ``--serve``: the app, plus a counter of
SQL statements on every engine (``before_cursor_execute``) and a loopback-only route
``GET /_profile`` with the counters and the process's CPU time), drives it with
``tapet load`` (app/tools/load.py) for ``--duration`` seconds, and prints, for the played
part only (the set-up is left out):

* moves stored (the ``INSERT INTO moves`` statements: the players' moves and the
  server's deals) and events the hub received,
* SQL statements per move, and the most frequent statements (to find N+1 queries),
* the server's CPU ms per move (user + system of the process and its threads),
* snapshot reads and views built per event (app/rooms/fanout.py), and views served
  from the cache.

    uv run --extra dev python scripts/profile_moves.py --tables 10 --spectators 30 --duration 10

SQLite in a temporary folder by default, one worker (``--database-url`` for another
database; a PostgreSQL one gets a fresh database beside it, dropped at the end). Loopback only, like ``tapet load``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
if "--server-tree" in sys.argv and "--serve" in sys.argv:  # the server of another checkout
    ROOT = Path(sys.argv[sys.argv.index("--server-tree") + 1]).resolve()
sys.path.insert(0, str(ROOT))


def _serve(port: int) -> None:
    """The server side: the app with statement counters, served by uvicorn on ``port``."""
    import uvicorn
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    from app.main import create_app
    from app.tools.cli import _migrate

    _migrate()
    statements: Counter[str] = Counter()

    @event.listens_for(Engine, "before_cursor_execute")
    def _count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements[re.sub(r"\s+", " ", statement)[:110]] += 1

    try:  # a statement run on the driver (app/core/onewrite.py) counts as one too
        from app.core import onewrite

        onewrite.on_statement.append(lambda sql: _count(None, None, sql))
    except ImportError:  # an older tree (--server-tree) has none
        pass
    app = create_app()

    profiler: list[Any] = []

    @app.get("/_profile", include_in_schema=False)
    async def profile(cprofile: str = "") -> dict[str, Any]:
        from app.rooms.fanout import views_of

        hub = app.state.hub
        views = views_of(hub)
        hot = ""
        if cprofile == "start":
            import cProfile

            profiler.append(cProfile.Profile())
            profiler[0].enable()
        elif cprofile == "stop" and profiler:
            import io
            import pstats

            profiler[0].disable()
            out = io.StringIO()
            pstats.Stats(profiler[0], stream=out).sort_stats("tottime").print_stats(30)
            hot = out.getvalue()
            if os.environ.get("TAPET_PROFILE_OUT"):  # the whole profile, for pstats
                profiler[0].dump_stats(os.environ["TAPET_PROFILE_OUT"])
        return {"hot": hot, "cpu_s": time.process_time(), "statements": dict(statements), "builds": views.builds,
                "hits": views.hits, "reads": views.reads, "events": hub.events}

    serving: dict[str, Any] = {}  # the protocols `tapet serve` runs, where this tree has them
    try:
        from app.tools.slowheaders import HeaderDeadlineHttpToolsProtocol
        from app.tools.websocket import QuickDeflateProtocol

        serving = {"http": HeaderDeadlineHttpToolsProtocol, "ws": QuickDeflateProtocol}
    except ImportError:
        pass
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", **serving)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> int:
    """Run the profile (module docstring) and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--spectators", type=int, default=30)
    parser.add_argument("--duration", type=float, default=10)
    parser.add_argument("--game", default="bolot")
    parser.add_argument("--pace-ms", type=float, default=0.0)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--top", type=int, default=12, help="most frequent statements to list")
    parser.add_argument("--warmup", type=float, default=0.0,
                        help="seconds of play before the counters start (the first look-ups of each "
                             "player and room left out: the steady state)")
    parser.add_argument("--cprofile", action="store_true",
                        help="also profile the server's Python (cProfile, slower) and print its 30 hottest functions")
    parser.add_argument("--server-tree", default=None,
                        help="serve another checkout's app (its .venv), e.g. a copy of the previous main; "
                             "the load client is this tree's")
    parser.add_argument("--serve", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        _serve(args.serve)
        return 0

    from app.tools.load import report, run
    from app.tools.loadserver import _fresh_postgres, _pg

    folder = tempfile.mkdtemp(prefix="tapet-profile-")
    port = _free_port()
    database_url, dropped, admin = args.database_url or f"sqlite+aiosqlite:///{folder}/profile.db", None, ""
    if database_url.startswith("postgres"):  # a fresh database beside the one named, dropped at the end
        from sqlalchemy.engine import make_url

        admin = make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False)
        database_url, dropped = _fresh_postgres(database_url)
    env = dict(os.environ, TAPET_BOT_DELAY="0", TAPET_DEAL_PAUSE="0", TAPET_RATE_LIMITS="false",
               TAPET_SECRET_KEY=secrets.token_urlsafe(32), DATABASE_URL=database_url)
    env.pop("REDIS_URL", None)
    with open(Path(folder) / "server.log", "wb") as log:
        command = [sys.executable, __file__, "--serve", str(port)]
        if args.server_tree:
            tree = Path(args.server_tree).resolve()
            command = [str(tree / ".venv" / "bin" / "python"), __file__, "--serve", str(port),
                       "--server-tree", str(tree)]
        proc = subprocess.Popen(command, env=env, cwd=folder,
                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    marks: dict[str, dict[str, Any]] = {}
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the server did not start; see {folder}/server.log")
            try:
                if httpx.get(url + "/_profile", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.2)

        async def take(name: str) -> None:
            which = ("start" if name == "start" else "stop") if args.cprofile else ""
            async with httpx.AsyncClient(timeout=60) as client:
                marks[name] = (await client.get(url + "/_profile", params={"cprofile": which})).json()
            marks[name]["client_cpu_s"] = time.process_time()

        async def later() -> None:
            await asyncio.sleep(args.warmup)
            await take("start")

        warming: list[asyncio.Task[None]] = []

        async def mark(name: str) -> None:
            if name == "start" and args.warmup > 0:
                warming.append(asyncio.create_task(later()))
            else:
                await take(name)

        stats, peak, final = asyncio.run(run(url, args.tables, args.spectators, args.duration + args.warmup,
                                             args.game, [proc.pid], args.pace_ms, mark))
    finally:
        proc.terminate()
        proc.wait(30)
        if dropped:
            _pg(admin, f'DROP DATABASE IF EXISTS "{dropped}" WITH (FORCE)')
    print(report(stats, args.tables, args.game, peak, final, "profile server, 1 worker"))
    a, b = marks["start"], marks["end"]
    statements = Counter(b["statements"])
    statements.subtract(a["statements"])
    total = sum(statements.values())
    stored = sum(n for text, n in statements.items() if text.startswith("INSERT INTO moves"))
    moves = max(stored, 1)
    events = max(b["events"] - a["events"], 1)
    builds, hits = b["builds"] - a["builds"], b["hits"] - a["hits"]
    cpu = b["cpu_s"] - a["cpu_s"]
    print(f"\nprofile (after the warm-up): {stored} moves stored (the players' and the server's deals), {events} hub events")
    print(f"SQL statements: {total}, {total / moves:.1f} per move")
    print(f"server CPU: {cpu:.2f} s, {cpu * 1000 / moves:.1f} ms per move")
    client = b["client_cpu_s"] - a["client_cpu_s"]
    print(f"load client CPU (this process): {client:.2f} s, {client * 1000 / moves:.1f} ms per move")
    if b.get("reads") is not None:
        reads = b["reads"] - a["reads"]
        print(f"snapshot reads: {reads} ({reads / events:.2f} per event)")
    print(f"views built: {builds} ({builds / events:.2f} per event), served from the cache: {hits}")
    print("most frequent statements (per move):")
    for text, count in statements.most_common(args.top):
        print(f"  {count / moves:6.2f}  {text}")
    if b.get("hot"):
        print(b["hot"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
