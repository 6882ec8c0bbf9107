"""Migration 0017_invitations upgrades and downgrades on SQLite and on PostgreSQL (when
``DATABASE_URL`` names one) by plain ADD/DROP COLUMN and CREATE/DROP INDEX: every room,
seat, game and move made before stays, with the new columns at their defaults."""

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

BEFORE = "0015_team_requests"
AFTER = "0017_invitations"


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


@pytest.fixture(params=["sqlite", "postgresql"])
async def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A new empty database of each kind (PostgreSQL only when DATABASE_URL names one)."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'invites.db'}"
        return
    env = os.environ.get("DATABASE_URL") or ""
    if not env or not async_url(env).startswith("postgresql"):
        pytest.skip("PostgreSQL: set DATABASE_URL")
    base = async_url(env)
    name = f"tapet_mig_{uuid.uuid4().hex[:10]}"
    await _pg_exec(base, f'CREATE DATABASE "{name}"')
    try:
        yield make_url(base).set(database=name).render_as_string(hide_password=False)
    finally:
        await _pg_exec(base, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def _rows(url: str, sql: str) -> list[tuple[Any, ...]]:
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            return [tuple(r) for r in (await conn.execute(text(sql))).all()]
    finally:
        await engine.dispose()


async def _columns(url: str, table: str) -> set[str]:
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            cols = await conn.run_sync(lambda c: inspect(c).get_columns(table))
    finally:
        await engine.dispose()
    return {c["name"] for c in cols}


async def test_0017_keeps_every_row_and_downgrades_cleanly(empty_url: str) -> None:
    url = empty_url
    await migrate(url, BEFORE)
    now = "CURRENT_TIMESTAMP"
    engine = make_engine(url)
    try:
        async with engine.begin() as conn:
            for row in (
                "INSERT INTO users (id, nickname, kind, created_at) "
                f"VALUES (1, 'Pepa', 'guest', {now})",
                "INSERT INTO rooms (id, game, options, status, created_by, created_at) "
                f"VALUES (1, 'bolot', '{{}}', 'playing', 1, {now})",
                "INSERT INTO seats (room_id, seat, user_id, stand_in) VALUES (1, 0, 1, false)",
                "INSERT INTO seats (room_id, seat, bot, stand_in) VALUES (1, 1, 'random', false)",
                "INSERT INTO games (id, room_id, game, options, dealer, status, created_at) "
                f"VALUES (1, 1, 'bolot', '{{}}', 0, 'playing', {now})",
                "INSERT INTO moves (game_id, seq, action, actor, at) "
                f"VALUES (1, 0, '{{\"type\": \"pass\"}}', '0', {now})",
            ):
                await conn.execute(text(row))
    finally:
        await engine.dispose()

    await migrate(url, AFTER)
    counts = [
        (await _rows(url, f"SELECT count(*) FROM {t}"))[0][0]
        for t in ("rooms", "seats", "games", "moves")
    ]
    assert counts == [1, 2, 1, 1]
    room = (await _rows(url, "SELECT invite_code, private, spectators_open FROM rooms"))[0]
    assert room[0] is None and not room[1] and not room[2]  # an older room: public, no code yet
    offered = await _rows(url, "SELECT offered FROM seats ORDER BY seat")
    assert [bool(o[0]) for o in offered] == [False, False]
    # the code is unique: a second room may not take the first one's
    engine = make_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.execute(text("UPDATE rooms SET invite_code = 'ABCDEF' WHERE id = 1"))
            await conn.execute(
                text(
                    "INSERT INTO rooms (id, game, options, status, created_at) "
                    f"VALUES (2, 'bolot', '{{}}', 'open', {now})"
                )
            )
        with pytest.raises(IntegrityError):
            async with engine.begin() as conn:
                await conn.execute(text("UPDATE rooms SET invite_code = 'ABCDEF' WHERE id = 2"))
    finally:
        await engine.dispose()

    await _downgrade(url, BEFORE)
    assert {"invite_code", "private", "spectators_open"}.isdisjoint(await _columns(url, "rooms"))
    assert "offered" not in await _columns(url, "seats")
    counts = [
        (await _rows(url, f"SELECT count(*) FROM {t}"))[0][0]
        for t in ("rooms", "seats", "games", "moves")
    ]
    assert counts == [2, 2, 1, 1]  # the downgrade's DROP COLUMN cascaded nothing
    await migrate(url, AFTER)  # and up again
    assert "offered" in await _columns(url, "seats")
