"""PostgreSQL closes the server's connections (a restart, a failover): the pool keeps its
connections without a check-out ping (app/core/db.py), so the first request to meet a
dead one is refused with 503 "try again", never a 500, and the next one is served on a
new connection."""

from __future__ import annotations

import asyncpg
import httpx
import pytest
from sqlalchemy.engine import make_url

from app.core.settings import Settings
from tests.conftest import Guest


async def _close_the_servers_connections(url: str) -> int:
    """Terminate every other backend of ``url``'s database (what a restart does to them)."""
    dsn = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    conn = await asyncpg.connect(dsn)
    try:
        return int(
            await conn.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        )
    finally:
        await conn.close()


async def test_a_lost_connection_is_a_503_then_the_next_request_is_served(
    client: httpx.AsyncClient, guest: Guest, settings: Settings
) -> None:
    if not settings.db_url().startswith("postgresql"):
        pytest.skip("PostgreSQL's backends are terminated; SQLite has none")
    pepa = await guest("Pepa")
    made = await client.post("/api/rooms", json={"game": "bolot"}, headers=pepa)
    assert made.status_code == 201, made.text
    assert await _close_the_servers_connections(settings.db_url()) >= 1

    answers = []
    for _ in range(3):
        answer = await client.post("/api/rooms", json={"game": "bolot"}, headers=pepa)
        answers.append(answer)
        if answer.status_code == 201:
            break
    codes = [a.status_code for a in answers]
    assert codes[-1] == 201, codes  # served again on a new connection
    for refused in answers[:-1]:
        assert refused.status_code == 503, codes
        assert refused.json()["detail"] == "the database connection was lost; try again"
        assert refused.headers["retry-after"] == "1"


async def test_a_pool_with_no_free_connection_is_a_503_not_a_500(app: object) -> None:
    """Every pooled connection busy past the pool's timeout: 503 "try again" (the request
    did nothing), never a 500. The route stands in for any request that waits for one."""
    from fastapi import FastAPI
    from sqlalchemy.exc import TimeoutError as PoolTimeout

    assert isinstance(app, FastAPI)

    async def starved() -> None:
        raise PoolTimeout("QueuePool limit of size 20 overflow 10 reached")

    app.add_api_route("/api/_starved", starved)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        answer = await client.get("/api/_starved")
    assert answer.status_code == 503
    assert answer.json()["detail"] == "the server is busy; try again"
    assert answer.headers["retry-after"] == "1"
