"""The ``tapet`` command.

``tapet serve [--host 127.0.0.1] [--port 8000] [--workers 1]``: migrates the database
to the newest revision, prints the URL, runs uvicorn. ``tapet migrate``: only
migrates. ``tapet ratings rebuild``: recomputes every rating from the stored matches
(docs/ratings.md). Other commands (bench, arena, load) register as argparse subparsers.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence

from app.core.settings import Settings, safe_url
from app.tools import bench_cli, load


def _migrate() -> str:
    from app.core.db import migrate  # SQLAlchemy and Alembic: loaded when needed

    url = Settings().db_url()
    asyncio.run(migrate(url))
    return url


def cmd_migrate(_args: argparse.Namespace) -> int:
    """Bring the database to the newest schema."""
    url = _migrate()
    print(f"database at the newest revision: {safe_url(url)}")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """Migrate, then serve the app with uvicorn, saying what it does meanwhile (the first
    start creates the database: a few seconds)."""
    print("Tapet: checking the database (creating or migrating it)...", flush=True)
    url = _migrate()
    print(f"Tapet: database {safe_url(url)} is at the newest schema", flush=True)
    print(
        f"Tapet: starting {args.workers} worker(s): loading the engine, bots and pages...",
        flush=True,
    )
    import uvicorn  # the server only for `serve`

    from app.tools.slowheaders import HeaderDeadlineHttpToolsProtocol
    from app.tools.websocket import QuickDeflateProtocol

    if args.workers > 1 and not Settings().redis_url:
        print(
            "Tapet: warning: several workers without REDIS_URL do not share live updates",
            file=sys.stderr,
        )
    host = "localhost" if args.host in ("127.0.0.1", "0.0.0.0", "::") else args.host
    print(
        f"Tapet: the site will be at http://{host}:{args.port}/ (API docs at /docs)",
        flush=True,
    )
    uvicorn.run(
        "app.main:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        proxy_headers=True,
        log_level="info",
        http=HeaderDeadlineHttpToolsProtocol,  # slow headers are cut off (app/tools/slowheaders.py)
        ws=QuickDeflateProtocol,  # cheaper compression of the sockets (app/tools/websocket.py)
        # at Ctrl-C or SIGTERM, requests still running (a deal's costs being solved) get 5 s,
        # then they are cancelled and the app's own shutdown runs (its stops are bounded too)
        timeout_graceful_shutdown=5,
    )
    return 0


def cmd_ratings(args: argparse.Namespace) -> int:
    """``tapet ratings rebuild``: recompute every match row and rating from the stored
    matches, in (ended_at, game id) order (app/records/ratings.py ``rebuild``)."""
    from app.core.db import make_engine, make_sessionmaker
    from app.records import ratings

    async def run(url: str) -> int:
        engine = make_engine(url)
        try:
            async with make_sessionmaker(engine)() as db:
                return await ratings.rebuild(db)
        finally:
            await engine.dispose()

    url = _migrate()
    count = asyncio.run(run(url))
    print(f"ratings rebuilt from {count} ended matches: {safe_url(url)}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser; add a command with ``sub.add_parser(...).set_defaults(func=...)``."""
    parser = argparse.ArgumentParser(prog="tapet", description="Tapet, an online card room")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="migrate the database and serve the site")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        help="uvicorn worker processes (set REDIS_URL for more than 1)",
    )
    serve.set_defaults(func=cmd_serve)
    mig = sub.add_parser("migrate", help="bring the database to the newest schema")
    mig.set_defaults(func=cmd_migrate)
    rat = sub.add_parser("ratings", help="ratings: 'rebuild' recomputes them from the matches")
    rat.add_argument("action", choices=["rebuild"])
    rat.set_defaults(func=cmd_ratings)
    load.register(sub)  # tapet load
    bench_cli.register(sub)  # tapet bench engine|bots, tapet arena
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``tapet``."""
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
