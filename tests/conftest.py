"""Shared fixtures of the server tests.

* ``database_url`` (session): a database migrated by the Alembic migration.
  ``DATABASE_URL`` from the environment when set (CI sets PostgreSQL: a fresh
  database is created beside the one named and dropped at the end, so parallel runs
  never share tables), else an SQLite file in a temporary folder.
* ``settings``: bots and deals without delay, a fixed secret, rate limits off,
  ``REDIS_URL`` from the environment when set (a channel of its own per test).
* ``app``: the app with its lifespan running (httpx's ASGI transport does not run it),
  on emptied tables; ``client``: an httpx client on it; ``guest``: a new guest's headers.
* ``live_server``: the app served by uvicorn on a free port (for WebSocket tests).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import inspect, text
from sqlalchemy.engine import make_url

from app.core.db import make_engine, migrate
from app.core.settings import Settings, async_url

#: The four-guest table with a known first deal (``table``, ``fixed_first_deal``), for every folder.
pytest_plugins = ("tests.tables",)

TEST_SECRET = "test-secret-key-not-for-production"


def _pg_admin_dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def _pg_exec(url: str, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(_pg_admin_dsn(url))
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def database_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A freshly migrated database URL (see the module docstring)."""
    env = os.environ.get("DATABASE_URL")
    if env and async_url(env).startswith("postgresql"):
        base = async_url(env)
        name = f"tapet_test_{os.getpid()}_{uuid.uuid4().hex[:8]}"
        asyncio.run(_pg_exec(base, f'CREATE DATABASE "{name}"'))
        url = make_url(base).set(database=name).render_as_string(hide_password=False)
        try:
            asyncio.run(migrate(url))
            yield url
        finally:
            asyncio.run(_pg_exec(base, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        return
    if env:
        url = async_url(env)
    else:
        url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('db') / 'tapet-test.db'}"
    asyncio.run(migrate(url))
    yield url


@pytest.fixture
def settings(database_url: str) -> Settings:
    """Settings for one test: no bot delay, no deal pause, a fixed secret."""
    return Settings(
        database_url=database_url,
        redis_url=os.environ.get("REDIS_URL") or None,
        redis_channel=f"tapet-test-{uuid.uuid4().hex}",
        bot_delay=0,
        deal_pause=0,
        sweep_interval=1.0,
        secret_key=TEST_SECRET,
        rate_limits=False,
        tune_gc=False,  # one process, many apps (app/core/collector.py)
    )


async def empty_tables(url: str) -> None:
    """Delete every row of every table but Alembic's (whatever features created them)."""
    from app.accounts.service import forget_movers
    from app.records import card_costs, replay_mine
    from app.rooms import play

    play.clear_cache()
    forget_movers()
    # answers cached per process by game id, which every test's tables start again at 1
    replay_mine.forget()
    card_costs.forget()
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            names = await conn.run_sync(lambda c: inspect(c).get_table_names())
            names = [n for n in names if n != "alembic_version"]
            if conn.dialect.name == "postgresql":
                if names:
                    quoted = ", ".join(f'"{n}"' for n in names)
                    await conn.execute(text(f"TRUNCATE {quoted} RESTART IDENTITY CASCADE"))
            else:
                await conn.execute(text("PRAGMA foreign_keys=OFF"))
                for name in names:
                    await conn.execute(text(f'DELETE FROM "{name}"'))
                await conn.commit()
                await conn.execute(text("PRAGMA foreign_keys=ON"))
            await conn.commit()
    finally:
        await engine.dispose()


@contextlib.asynccontextmanager
async def limited_app(
    settings: Settings, **limits: str
) -> AsyncIterator[Callable[[str], httpx.AsyncClient]]:
    """An app with rate limits on and ``limits`` (settings fields, e.g.
    ``rate_code_failures="3/60"``), on emptied tables, its lifespan running. Yields
    ``at(address)``: a new client (the caller closes it) whose requests come from that
    client address, which the per-address limits count by."""
    from app.main import create_app

    strict = settings.model_copy(update={"rate_limits": True, **limits})
    await empty_tables(strict.db_url())
    application = create_app(strict)
    async with application.router.lifespan_context(application):

        def at(address: str) -> httpx.AsyncClient:
            transport = httpx.ASGITransport(app=application, client=(address, 1234))
            return httpx.AsyncClient(transport=transport, base_url="http://testserver")

        yield at


@pytest.fixture
async def app(settings: Settings) -> AsyncIterator[Any]:
    """The app on emptied tables, its lifespan (broker, bot runner) running."""
    from app.main import create_app

    await empty_tables(settings.db_url())
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        yield application


@pytest.fixture
async def client(app: Any) -> AsyncIterator[httpx.AsyncClient]:
    """An httpx client talking to ``app`` in process."""
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
        yield c


Guest = Callable[..., Awaitable[dict[str, str]]]


@pytest.fixture
def guest(client: httpx.AsyncClient) -> Guest:
    """``await guest("Pepa")`` -> ``{"Authorization": "Bearer ..."}`` of a new guest
    (the client's cookie jar is left empty, so each request says who it is)."""

    async def make(nickname: str = "Pepa") -> dict[str, str]:
        response = await client.post("/api/session", json={"nickname": nickname})
        assert response.status_code == 200, response.text
        client.cookies.clear()
        return {"Authorization": f"Bearer {response.json()['token']}"}

    return make


@pytest.fixture
async def live_server(settings: Settings) -> AsyncIterator[str]:
    """The app served by uvicorn on 127.0.0.1 (a free port), in this event loop."""
    import uvicorn

    from app.main import create_app

    await empty_tables(settings.db_url())
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=0, log_level="warning")
    server = uvicorn.Server(config)
    server.capture_signals = contextlib.nullcontext  # type: ignore[method-assign]  # keep pytest's Ctrl-C
    task = asyncio.create_task(server.serve())
    for _ in range(500):
        if server.started or task.done():
            break
        await asyncio.sleep(0.01)
    assert server.started, "uvicorn did not start"
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        # the app's end waits up to 30 s for the solver's warm-up thread (a cold numba
        # cache compiles for seconds, longer on a loaded machine)
        await asyncio.wait_for(task, 40)


MATCH_TIMEOUT = 300  # seconds; a bot match is a few hundred moves


async def finished_view(
    client: httpx.AsyncClient, room_id: int, timeout: float = MATCH_TIMEOUT
) -> dict:
    """Poll a room's public view until its match is finished; fails after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    view = (await client.get(f"/api/rooms/{room_id}/view")).json()
    while view["status"] != "finished" and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
        view = (await client.get(f"/api/rooms/{room_id}/view")).json()
    assert view["status"] == "finished", f"match not over after {timeout}s at seq {view['seq']}"
    return view
