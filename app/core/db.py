"""Database access: SQLAlchemy 2 async engine, sessions, the declarative base, migrations.

``DATABASE_URL`` picks the database (app/core/settings.py): an SQLite file by default,
PostgreSQL in production and CI. The schema is owned by Alembic (migrations/);
``migrate(url)`` brings a database to the newest revision and is what
``tapet serve`` and the tests run.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends
from sqlalchemy import event, inspect, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import DeclarativeBase, Session
from starlette.requests import HTTPConnection

from app.core.errors import Unprocessable

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"


class Base(DeclarativeBase):
    """The declarative base of every table of the project."""


def utcnow() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """``moment`` as aware UTC (SQLite gives naive datetimes back; they were stored as UTC)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


#: The largest value of an ``Integer`` column (PostgreSQL's 4-byte integer): ids and
#: numbers from outside past it are refused before they reach a query.
INT32 = 2**31 - 1
#: PostgreSQL connections a process keeps open, and more it may open for a burst (closed
#: again when returned). SQLAlchemy's default of 5 kept made a busy server close and open
#: connections all the time (a backend started, and TLS tried, per connection): at 100
#: tables flat out that churn and the check-out ping below cost a sixth of the server's
#: CPU (docs/benchmarks.md "Live rooms, evening"). Two workers keep at most 2 x 30,
#: under PostgreSQL's default ``max_connections`` of 100.
POOL_SIZE = 20
POOL_OVERFLOW = 10
#: Seconds after which a kept connection is replaced at its next check-out, so that a
#: connection a proxy or firewall dropped silently is not kept for long.
POOL_RECYCLE = 1800


def make_engine(url: str) -> AsyncEngine:
    """An async engine for ``url``. SQLite connections get foreign keys, WAL and a
    busy timeout, so several connections (requests, the bot runner) can write in turn.

    PostgreSQL connections are kept (``POOL_SIZE``) and not pinged at each check-out
    (two round trips per request): a connection found dead by its statement is
    invalidated with the pool's other connections of its generation, and the request
    is refused with 503 "try again" (``app.main``), never a 500."""
    is_sqlite = url.startswith("sqlite")
    kwargs: dict[str, Any] = {}
    if is_sqlite:
        kwargs["connect_args"] = {"timeout": 30}
    else:
        kwargs.update(pool_size=POOL_SIZE, max_overflow=POOL_OVERFLOW, pool_recycle=POOL_RECYCLE)
    engine = create_async_engine(url, **kwargs)
    if is_sqlite:
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    event.listen(engine.sync_engine, "before_cursor_execute", _refuse_unstorable_text)
    return engine


#: What no text column stores on every database: NUL (PostgreSQL refuses it, SQLite keeps
#: it and cuts names short in C code) and lone UTF-16 surrogates (not encodable in UTF-8).
UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
UNSTORABLE_MESSAGE = "text may not contain a NUL character (\\u0000) or a lone surrogate"


def unstorable(value: object) -> bool:
    """True when ``value`` (a statement's parameters: a text, or tuples, lists and dicts of
    them) holds a text that no database column can store (``UNSTORABLE``)."""
    if isinstance(value, str):
        return UNSTORABLE.search(value) is not None
    if isinstance(value, dict):
        return any(unstorable(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(unstorable(v) for v in value)
    return False


def _refuse_unstorable_text(
    _conn: Any,
    _cursor: Any,
    _statement: str,
    parameters: Any,
    _context: Any,
    _executemany: bool,
) -> None:
    """Before every statement on every database: the one check of text input. Every
    field of every request (API, forms, sockets) reaches the database through here, so a
    NUL or a lone surrogate anywhere is a 422 (``Unprocessable``), never a driver's 500."""
    if unstorable(parameters):
        raise Unprocessable(UNSTORABLE_MESSAGE, "unstorable_text")


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


async def lock_key(session: AsyncSession, key: str) -> None:
    """Hold a lock on ``key`` (any text) until ``session``'s transaction ends, so that two
    transactions that check then write under the same key run one after the other.

    PostgreSQL: a transaction-scoped advisory lock (``pg_advisory_xact_lock`` of the key's
    hash). SQLite: nothing here; its one writer at a time serializes them once each has
    written first (the caller writes before it checks, in the same transaction)."""
    bind = session.get_bind()
    if bind.dialect.name == "postgresql":
        await session.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": key})


#: ``session.info`` key: the objects :func:`keep_loaded` marked.
KEPT = "tapet_kept_loaded"


def keep_loaded(session: AsyncSession, obj: Base) -> None:
    """Mark ``obj`` (persistent in ``session``) to be read again at once after any rollback
    of ``session``: the signed-in user, which a request reads after a refused write (a
    double tap's unique key, a race) has rolled the session back. A rollback expires every
    loaded object, and reading an expired attribute outside SQLAlchemy's own awaits raises
    ``MissingGreenlet`` (a 500 a fresh tester met on a second mute, chat post, rematch)."""
    kept = session.info.setdefault(KEPT, [])
    if not any(o is obj for o in kept):  # a long-lived session may read its user again
        kept.append(obj)


@event.listens_for(Session, "after_soft_rollback")
def _reload_kept(session: Session, previous_transaction: Any) -> None:
    # SQLAlchemy's own example of this event: it runs inside the async session's greenlet,
    # so the refresh may read; a session closing has already let its objects go
    kept = session.info.get(KEPT)
    if not kept or not session.is_active:
        return
    for obj in kept:
        state = inspect(obj)
        if state.persistent and state.expired_attributes:
            try:
                session.refresh(obj)
            except SQLAlchemyError:  # the connection is gone, the row deleted: read later
                return


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions that keep loaded objects usable after commit (``expire_on_commit=False``)."""
    return async_sessionmaker(engine, expire_on_commit=False)


async def get_session(conn: HTTPConnection) -> AsyncIterator[AsyncSession]:
    """FastAPI dependency: one session per request (or socket), from the app's sessionmaker."""
    async with conn.app.state.sessionmaker() as session:
        yield session


SessionDep = Annotated[AsyncSession, Depends(get_session)]


def alembic_config(url: str | None = None) -> Any:
    """The Alembic configuration of the project (works without ``alembic.ini``)."""
    from alembic.config import Config

    ini = MIGRATIONS_DIR.parent / "alembic.ini"
    cfg = Config(str(ini)) if ini.exists() else Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    if url:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


async def migrate(url: str, revision: str = "head") -> None:
    """Upgrade the database at ``url`` to ``revision`` (Alembic), inside the running loop."""
    from alembic import command

    engine = make_engine(url)
    try:
        async with engine.begin() as conn:

            def upgrade(sync_conn: Any) -> None:
                cfg = alembic_config(url)
                cfg.attributes["connection"] = sync_conn
                command.upgrade(cfg, revision)

            await conn.run_sync(upgrade)
    finally:
        await engine.dispose()
