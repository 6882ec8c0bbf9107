"""Migration 0015_team_requests on this database's kind (SQLite by default, PostgreSQL
when ``DATABASE_URL`` names one): a fresh database upgraded to it has the table and its
partial unique indexes (one pending request per player and tournament, any number of
decided ones), downgrades to 0014 without it, and upgrades again."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError

from app.core.db import alembic_config, make_engine, migrate
from app.core.settings import async_url
from tests.conftest import _pg_exec


@pytest.fixture
async def fresh_url(tmp_path: Path) -> AsyncIterator[str]:
    """A new empty database of the kind the tests run on, dropped at the end."""
    env = os.environ.get("DATABASE_URL")
    if env and async_url(env).startswith("postgresql"):
        base = async_url(env)
        name = f"tapet_mig_{os.getpid()}_{uuid.uuid4().hex[:8]}"
        await _pg_exec(base, f'CREATE DATABASE "{name}"')
        try:
            yield make_url(base).set(database=name).render_as_string(hide_password=False)
        finally:
            await _pg_exec(base, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        return
    yield f"sqlite+aiosqlite:///{tmp_path / 'migrate.db'}"


async def _downgrade(url: str, revision: str) -> None:
    from alembic import command

    engine = make_engine(url)
    try:
        async with engine.begin() as conn:

            def down(sync_conn: Any) -> None:
                cfg = alembic_config(url)
                cfg.attributes["connection"] = sync_conn
                command.downgrade(cfg, revision)

            await conn.run_sync(down)
    finally:
        await engine.dispose()


async def _tables(url: str) -> tuple[set[str], str]:
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            names = set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
            version = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar()
    finally:
        await engine.dispose()
    return names, str(version)


def _request(rid: int, user: int, status: str) -> str:
    return (
        "INSERT INTO team_requests (id, tournament_id, user_id, partner_id, name, status, "
        f"reason, created_at) VALUES ({rid}, 1, {user}, NULL, 'R{rid}', '{status}', '', "
        "CURRENT_TIMESTAMP)"
    )


async def test_0015_upgrades_keeps_one_pending_request_per_player_and_downgrades(
    fresh_url: str,
) -> None:
    await migrate(fresh_url, "0015_team_requests")
    names, version = await _tables(fresh_url)
    assert "team_requests" in names and version == "0015_team_requests"
    engine = make_engine(fresh_url)
    try:
        async with engine.begin() as conn:
            for row in (
                "INSERT INTO users (id, nickname, kind, created_at) VALUES "
                "(1, 'Pepa', 'account', CURRENT_TIMESTAMP)",
                "INSERT INTO tournaments (id, name, game, options, format, settings, status, "
                "venue, created_at) VALUES (1, 'T', 'bolot', '{}', 'swiss', '{}', "
                "'registration', '', CURRENT_TIMESTAMP)",
                _request(1, 1, "declined"),
                _request(2, 1, "withdrawn"),
                _request(3, 1, "pending"),
            ):
                await conn.execute(text(row))
        with pytest.raises(IntegrityError):  # a second pending request of the same player
            async with engine.begin() as conn:
                await conn.execute(text(_request(4, 1, "pending")))
        async with engine.connect() as conn:
            count = (await conn.execute(text("SELECT count(*) FROM team_requests"))).scalar()
    finally:
        await engine.dispose()
    assert count == 3
    await _downgrade(fresh_url, "0014_queue_entries")
    names, version = await _tables(fresh_url)
    assert "team_requests" not in names and version == "0014_queue_entries"
    assert {"tournaments", "teams", "queue_entries"} <= names  # nothing else went
    await migrate(fresh_url)
    names, _ = await _tables(fresh_url)
    assert "team_requests" in names
