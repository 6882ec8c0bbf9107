"""One write statement on the database driver itself, without SQLAlchemy's execution path.

A person's move is one guarded ``INSERT`` (app/rooms/play.py). Through SQLAlchemy that
statement cost more than the database's work: on SQLite, aiosqlite sends each step
(cursor, execute, close, commit, the pool's reset) to its thread and back, five round
trips between threads a move, each a futex wake and a self-pipe write; on PostgreSQL,
the execution context, the result and the greenlet switches. ``execute`` runs such a
statement as its own transaction in one step:

* **SQLite** (a database file): on a connection of this module's own, in a thread of its
  own (one per database file and process), in autocommit mode: one hand-over to the
  thread and one back. The connection has the engine's pragmas (app/core/db.py:
  WAL, busy timeout, foreign keys).
* **PostgreSQL** (asyncpg): on the session's own connection (one connection a request,
  as before: a second one per write let 500 tables' requests hold the whole pool while
  waiting for more, until its 30 s timeout), set to autocommit and sent with the
  driver's ``execute`` (a prepared statement, kept per connection): the statement is
  its own transaction. A session that has begun a transaction already gets None.

Other databases, and SQLite in memory (a second connection would see another
database), get None: the caller takes SQLAlchemy's path.

The statement's parameters are converted by their SQLAlchemy types, as SQLAlchemy does
(a JSON column's dict to its text, a datetime to SQLite's text), so a row written here
reads back the same. Errors come back as SQLAlchemy's: ``IntegrityError`` for a
violated constraint; any other failure of the driver on PostgreSQL is judged by running
the statement again through SQLAlchemy, whose handling drops a connection the server
closed, with its pool's generation, and raises ``DBAPIError`` with
``connection_invalidated`` (the app's 503 "try again": app/main.py).

``on_statement`` is the explicit hook of a statement counter (scripts/profile_moves.py
counts SQLAlchemy's statements with ``before_cursor_execute``; these never reach it).
"""

from __future__ import annotations

import asyncio
import queue
import sqlite3
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession
from sqlalchemy.sql.elements import TextClause

#: Called with each statement's SQL before it is sent (counters: scripts/profile_moves.py).
on_statement: list[Callable[[str], None]] = []


@dataclass(frozen=True, slots=True)
class _Compiled:
    """A statement compiled for one dialect: its SQL, parameter names in order, and each
    parameter's converter (None: sent as it is). Holds the statement and the dialect, so
    that the ids keying the cache are not reused by other objects while it is kept."""

    statement: TextClause
    dialect: Dialect
    sql: str
    names: tuple[str, ...]
    convert: tuple[Callable[[Any], Any] | None, ...]

    def values(self, params: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(
            params[name] if conv is None else conv(params[name])
            for name, conv in zip(self.names, self.convert, strict=True)
        )


_compiled: dict[tuple[int, int], _Compiled] = {}


def _compile(statement: TextClause, dialect: Dialect) -> _Compiled:
    key = (id(statement), id(dialect))
    found = _compiled.get(key)
    if found is None:  # the cache holds both objects: their ids are not reused meanwhile
        compiled = statement.compile(dialect=dialect)
        names = tuple(compiled.positiontup or ())
        convert = tuple(
            compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect)
            for name in names
        )
        found = _compiled[key] = _Compiled(statement, dialect, compiled.string, names, convert)
    return found


async def execute(db: AsyncSession, statement: TextClause, params: dict[str, Any]) -> int | None:
    """Run ``statement`` (a ``text()`` with typed bind parameters, one write) with
    ``params`` as its own transaction on the database of ``db`` (a session that has
    written nothing). Returns the rows it changed, or None when it is not served here
    (the caller then runs it through SQLAlchemy). Raises ``IntegrityError``,
    ``DBAPIError`` (a lost PostgreSQL connection: ``connection_invalidated``) or
    ``OperationalError`` (SQLite locked past its busy timeout)."""
    engine = db.bind
    if not isinstance(engine, AsyncEngine):
        return None
    dialect = engine.dialect
    if dialect.name == "sqlite":
        thread = _sqlite_thread(engine)
        if thread is None:
            return None
        compiled = _compile(statement, dialect)
        for hook in on_statement:
            hook(compiled.sql)
        return await thread.run(compiled.sql, compiled.values(params))
    if dialect.driver == "asyncpg" and not db.in_transaction():
        compiled = _compile(statement, dialect)
        for hook in on_statement:
            hook(compiled.sql)
        conn = await db.connection(execution_options=_AUTOCOMMIT)
        try:
            changed = await _asyncpg(conn, compiled, statement, params)
        except IntegrityError:
            await db.commit()
            raise
        # End the session's empty transaction: the connection goes back to the pool with
        # its isolation level reset, so that a later statement of this session (a move
        # judged again after a refusal) runs in a transaction of its own, not autocommit.
        await db.commit()
        return changed
    return None


# ------------------------------------------------------------------------------ PostgreSQL

#: The session's connection in autocommit: no BEGIN is pending on it, so the statement
#: sent on the driver is its own transaction.
_AUTOCOMMIT = {"isolation_level": "AUTOCOMMIT"}


async def _asyncpg(
    conn: AsyncConnection, compiled: _Compiled, statement: TextClause, params: dict[str, Any]
) -> int:
    import asyncpg  # the driver of this dialect

    raw = (await conn.get_raw_connection()).driver_connection
    values = compiled.values(params)
    try:
        status = await raw.execute(compiled.sql, *values)  # type: ignore[union-attr]  # asyncpg's
    except asyncpg.IntegrityConstraintViolationError as exc:
        raise IntegrityError(compiled.sql, values, exc) from None
    except Exception:  # noqa: BLE001  # judged again just below
        # Anything else (a connection the server closed, a driver left in a state it
        # cannot leave): the same statement through SQLAlchemy on this connection, whose
        # own handling judges it: a lost connection is dropped with its pool's generation
        # and raised as DBAPIError with ``connection_invalidated`` (the app's 503); if the
        # first try did reach the database, the key refuses the second (0 rows).
        return int((await conn.execute(statement, params)).rowcount)  # type: ignore[attr-defined]  # a DML statement's Result is a CursorResult
    return int(status.rsplit(" ", 1)[-1])  # "INSERT 0 1"


# ---------------------------------------------------------------------------------- SQLite


class _SqliteThread:
    """A thread with its own connection to one SQLite file, running statements in
    autocommit mode in the order they come. Closed with its engine."""

    def __init__(self, path: str) -> None:
        self._jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread = threading.Thread(
            target=self._serve, args=(path,), name="tapet-sqlite-writes", daemon=True
        )
        self._thread.start()

    def run(self, sql: str, values: tuple[Any, ...]) -> asyncio.Future[int]:
        """The rows ``sql`` changed, once the thread has run it."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[int] = loop.create_future()
        self._jobs.put((loop, done, sql, values))
        return done

    def close(self) -> None:
        """Let the thread finish the statements it has, then close its connection."""
        self._jobs.put(None)

    def _serve(self, path: str) -> None:
        conn = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
        try:
            for pragma in ("foreign_keys=ON", "journal_mode=WAL", "synchronous=NORMAL"):
                conn.execute(f"PRAGMA {pragma}")
            while (job := self._jobs.get()) is not None:
                loop, done, sql, values = job
                try:
                    result: Any = conn.execute(sql, values).rowcount
                except sqlite3.IntegrityError as exc:
                    result = IntegrityError(sql, values, exc)
                except sqlite3.Error as exc:
                    result = OperationalError(sql, values, exc)
                try:
                    loop.call_soon_threadsafe(_settle, done, result)
                except RuntimeError:  # that loop is closed: nobody waits for the answer
                    pass
        finally:
            conn.close()


def _settle(done: asyncio.Future[int], result: Any) -> None:
    if done.cancelled():
        return
    if isinstance(result, BaseException):
        done.set_exception(result)
    else:
        done.set_result(result)


_sqlite_threads: weakref.WeakKeyDictionary[Any, _SqliteThread] = weakref.WeakKeyDictionary()


def _sqlite_thread(engine: AsyncEngine) -> _SqliteThread | None:
    """The writing thread of ``engine``'s SQLite file (started at the first use), or None
    for a database in memory."""
    sync_engine = engine.sync_engine
    thread = _sqlite_threads.get(sync_engine)
    if thread is None:
        path = engine.url.database
        if not path or path == ":memory:" or path.startswith("file:") or engine.url.query:
            return None
        thread = _sqlite_threads[sync_engine] = _SqliteThread(path)
        weakref.finalize(sync_engine, thread.close)
    return thread


def close(engine: AsyncEngine) -> None:
    """Stop ``engine``'s SQLite writing thread, if it has one (the app's shutdown, beside
    ``engine.dispose()``); a later ``execute`` starts a new one."""
    thread = _sqlite_threads.pop(engine.sync_engine, None)
    if thread is not None:
        thread.close()
