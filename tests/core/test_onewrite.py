"""One write on the driver (app/core/onewrite.py), on the test database (SQLite file or
PostgreSQL): the rows it changed, values that read back through SQLAlchemy as they were
written, a lost PostgreSQL connection dropped from the pool, and None where it does not
serve (SQLite in memory, a session already in a transaction on PostgreSQL)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import JSON, DateTime, Integer, String, bindparam, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.sql.elements import TextClause

from app.core import onewrite
from app.core.db import as_utc, make_engine, make_sessionmaker


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[tuple[AsyncEngine, str]]:
    """The test database's engine and a table of this test's own, dropped at the end."""
    engine = make_engine(database_url)
    name = f"onewrite_{uuid.uuid4().hex[:8]}"
    async with engine.begin() as conn:
        kind = "TIMESTAMP WITH TIME ZONE" if conn.dialect.name == "postgresql" else "DATETIME"
        await conn.execute(
            text(
                f"CREATE TABLE {name} (k INTEGER PRIMARY KEY, doc JSON, who VARCHAR(16), at {kind})"
            )
        )
    try:
        yield engine, name
    finally:
        onewrite.close(engine)
        async with engine.begin() as conn:
            await conn.execute(text(f"DROP TABLE {name}"))
        await engine.dispose()


async def _write(eng: AsyncEngine, statement: TextClause, row: dict[str, Any]) -> int | None:
    """``onewrite.execute`` in a new session of ``eng``, as a request does."""
    async with make_sessionmaker(eng)() as db:
        return await onewrite.execute(db, statement, row)


def _insert(name: str) -> TextClause:
    """Insert a row unless key ``k`` exists and unless ``gate`` is 1: as the move's guard."""
    return text(
        f"INSERT INTO {name} (k, doc, who, at) SELECT :k, :doc, :who, :at WHERE :gate = 1 "
        "ON CONFLICT (k) DO NOTHING"
    ).bindparams(
        bindparam("k", type_=Integer()),
        bindparam("doc", type_=JSON()),
        bindparam("who", type_=String(16)),
        bindparam("at", type_=DateTime(timezone=True)),
        bindparam("gate", type_=Integer()),
    )


async def test_a_row_written_on_the_driver_reads_back_through_sqlalchemy(
    engine: tuple[AsyncEngine, str],
) -> None:
    eng, name = engine
    statement = _insert(name)
    at = datetime(2026, 12, 4, 17, 30, 15, 123456, tzinfo=UTC)
    doc = {"type": "play", "card": "Ao", "combinations": [[1, 2]]}
    row = {"k": 7, "doc": doc, "who": "2", "at": at, "gate": 1}
    assert await _write(eng, statement, row) == 1
    assert await _write(eng, statement, row) == 0  # the key exists: nothing
    assert await _write(eng, statement, {**row, "k": 8, "gate": 0}) == 0  # the guard
    async with eng.connect() as conn:
        got = (
            await conn.execute(
                text(f"SELECT k, doc, who, at FROM {name}").columns(
                    doc=JSON(), at=DateTime(timezone=True)
                )
            )
        ).all()
    assert len(got) == 1
    k, back, who, when = got[0]
    assert (k, back, who, as_utc(when)) == (7, doc, "2", at)


async def test_a_statement_counter_sees_each_write(engine: tuple[AsyncEngine, str]) -> None:
    eng, name = engine
    seen: list[str] = []
    onewrite.on_statement.append(seen.append)
    try:
        row = {"k": 1, "doc": {}, "who": "0", "at": datetime.now(UTC), "gate": 1}
        await _write(eng, _insert(name), row)
    finally:
        onewrite.on_statement.remove(seen.append)
    assert len(seen) == 1 and seen[0].startswith(f"INSERT INTO {name}")


async def test_sqlite_in_memory_is_left_to_sqlalchemy() -> None:
    eng = make_engine("sqlite+aiosqlite://")
    try:
        row = {"k": 1, "doc": {}, "who": "0", "at": datetime.now(UTC), "gate": 1}
        assert await _write(eng, _insert("anything"), row) is None
    finally:
        await eng.dispose()


async def test_a_lost_postgresql_connection_is_invalidated_then_the_next_write_is_served(
    engine: tuple[AsyncEngine, str], database_url: str
) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("PostgreSQL's backends are terminated; SQLite has none")
    eng, name = engine
    statement = _insert(name)
    row = {"k": 1, "doc": {}, "who": "0", "at": datetime.now(UTC), "gate": 1}
    assert await _write(eng, statement, row) == 1  # the pool now keeps a connection
    killer = make_engine(database_url)
    try:
        async with killer.connect() as conn:
            await conn.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            )
    finally:
        await killer.dispose()
    with pytest.raises(DBAPIError) as lost:
        await _write(eng, statement, {**row, "k": 2})
    assert lost.value.connection_invalidated
    assert await _write(eng, statement, {**row, "k": 2}) == 1  # a new connection


async def test_a_postgresql_session_in_a_transaction_is_left_to_sqlalchemy(
    engine: tuple[AsyncEngine, str], database_url: str
) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite's writes go to a connection of their own")
    eng, name = engine
    row = {"k": 1, "doc": {}, "who": "0", "at": datetime.now(UTC), "gate": 1}
    async with make_sessionmaker(eng)() as db:
        await db.execute(text("SELECT 1"))  # a transaction begun
        assert await onewrite.execute(db, _insert(name), row) is None


async def test_a_postgresql_write_leaves_the_session_out_of_autocommit(
    engine: tuple[AsyncEngine, str], database_url: str
) -> None:
    """After the write, the session's next statements run in a transaction again: a
    write then rolled back leaves nothing (in autocommit it would have stayed)."""
    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite's writes go to a connection of their own")
    eng, name = engine
    row = {"k": 1, "doc": {}, "who": "0", "at": datetime.now(UTC), "gate": 1}
    async with make_sessionmaker(eng)() as db:
        assert await onewrite.execute(db, _insert(name), row) == 1
        assert not db.in_transaction()
        await db.execute(text(f"INSERT INTO {name} (k, who) VALUES (2, 'x')"))
        await db.rollback()
    async with eng.connect() as conn:
        keys = (await conn.execute(text(f"SELECT k FROM {name} ORDER BY k"))).scalars().all()
    assert keys == [1]
