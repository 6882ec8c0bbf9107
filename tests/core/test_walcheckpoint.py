"""SQLite's checkpoints in a thread of their own (app/core/walcheckpoint.py)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from sqlalchemy.ext.asyncio import create_async_engine

from app.core import walcheckpoint


def test_the_thread_copies_the_log_into_the_database_file(tmp_path: Path) -> None:
    """A writer that never checkpoints itself leaves its commits in the log; the thread
    copies them into the database file, while the writer's connection stays open."""
    path = tmp_path / "t.db"
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute("CREATE TABLE t (x TEXT)")
    for i in range(200):  # 200 rows of 4 KB: about 200 pages in the log
        writer.execute("INSERT INTO t VALUES (?)", (str(i) * 4000,))
    before = path.stat().st_size
    assert before < 100_000  # the rows are in the log, not in the file yet
    checkpoints = walcheckpoint.Checkpointer(str(path), interval=0.02)
    try:
        deadline = time.monotonic() + 10
        while checkpoints.runs < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert checkpoints.runs >= 2
        assert path.stat().st_size > 200 * 4000  # copied into the file
        writer.execute("INSERT INTO t VALUES ('after')")  # the writer was never blocked
        assert writer.execute("SELECT count(*) FROM t").fetchone() == (201,)
    finally:
        checkpoints.stop()
        writer.close()
    assert not checkpoints._thread.is_alive()


def test_only_a_sqlite_file_gets_a_thread(tmp_path: Path) -> None:
    memory = create_async_engine("sqlite+aiosqlite:///:memory:")
    assert walcheckpoint.start(memory) is None
    postgres = create_async_engine("postgresql+asyncpg://u@127.0.0.1:1/x")
    assert walcheckpoint.start(postgres) is None
    file = create_async_engine(f"sqlite+aiosqlite:///{tmp_path / 'f.db'}")
    checkpoints = walcheckpoint.start(file)
    assert checkpoints is not None
    checkpoints.stop()
