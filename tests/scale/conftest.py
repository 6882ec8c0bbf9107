"""Two ``tapet serve`` processes on one PostgreSQL database and one Redis channel, as two
workers (or machines) of one site. Skipped unless ``DATABASE_URL`` names PostgreSQL and
``REDIS_URL`` is set (CI sets both)."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Iterator

import pytest

from tests.conftest import TEST_SECRET, empty_tables
from tests.serverproc import ServeProcess

#: One worker: a ``tapet serve`` subprocess.
Worker = ServeProcess


@pytest.fixture(scope="module")
def workers(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Worker]]:
    """Two running workers (lease ttl 2 s, fast bots) on the test database and one Redis
    channel, shared by the module's tests (the last one kills one of them)."""
    tmp_path = tmp_path_factory.mktemp("workers")
    if not database_url.startswith("postgresql"):
        pytest.skip(
            "two `tapet serve` workers need one shared database: set "
            "DATABASE_URL=postgresql+asyncpg://... (CI does)"
        )
    if not os.environ.get("REDIS_URL"):
        pytest.skip("two workers share room events through Redis: set REDIS_URL (CI does)")
    asyncio.run(empty_tables(database_url))
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAPET_")}
    env.update(
        DATABASE_URL=database_url,
        REDIS_URL=os.environ["REDIS_URL"],
        TAPET_SECRET_KEY=TEST_SECRET,
        TAPET_REDIS_CHANNEL=f"tapet-scale-{uuid.uuid4().hex}",
        TAPET_BOT_DELAY="0.01",
        TAPET_DEAL_PAUSE="0.05",
        TAPET_SWEEP_INTERVAL="0.5",
        TAPET_LEASE_TTL="2",
        TAPET_RATE_LIMITS="false",
    )
    pair = [Worker(env, tmp_path / f"worker{n}.log") for n in range(2)]
    try:
        for w in pair:
            w.start()
        for w in pair:
            w.wait_ready()
        yield pair
    finally:
        for w in pair:
            w.stop()
