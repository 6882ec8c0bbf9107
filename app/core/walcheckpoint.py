"""SQLite's checkpoints in a thread of their own, off the writers' path.

In WAL mode SQLite appends each commit to the write-ahead log and copies the log back
into the database file at a checkpoint, which also syncs the file to disk. By default
the commit that finds the log 1,000 pages long runs the checkpoint itself
(``wal_autocheckpoint``): the request that made that commit waits for the copy and the
sync, and on the served app every later move waits behind it (one writing thread,
app/core/onewrite.py). At 500 tables at a human pace that was every few seconds, and
each time about a second of moves answered 150 to 300 ms late (docs/benchmarks.md "Live
rooms, evening of 4 December").

``start(engine)`` runs a ``PASSIVE`` checkpoint every ``INTERVAL`` seconds on a
connection of this module's own, in a daemon thread: it copies what the log holds
without waiting for, or blocking, any reader or writer, so the log is copied back long
before it reaches the 1,000 pages at which a writer would checkpoint. That automatic
checkpoint stays on as the backstop (a process without this thread, a burst faster
than the thread). A database in memory, or another database, gets None.
"""

from __future__ import annotations

import logging
import sqlite3
import threading

from sqlalchemy.ext.asyncio import AsyncEngine

log = logging.getLogger(__name__)

#: Seconds between two checkpoints. At a move's two to three pages, 500 moves/s write
#: about 1,500 pages a second: every 0.2 s keeps the log a few hundred pages long.
INTERVAL = 0.2


class Checkpointer:
    """The thread of one database file; ``stop()`` ends it (it runs one last checkpoint)."""

    def __init__(self, path: str, interval: float = INTERVAL) -> None:
        self.path, self.interval = path, interval
        self.runs = 0  # checkpoints run (tests)
        self._stopping = threading.Event()
        self._thread = threading.Thread(
            target=self._serve, name="tapet-sqlite-checkpoints", daemon=True
        )
        self._thread.start()

    def _serve(self) -> None:
        try:
            conn = sqlite3.connect(
                self.path, timeout=30, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as exc:  # the writers' own checkpoints go on
            log.warning("no checkpoint thread for %s: %s", self.path, exc)
            return
        try:
            while True:
                stopping = self._stopping.wait(self.interval)
                try:
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                    self.runs += 1
                except sqlite3.Error as exc:  # a busy or vanished file: try again later
                    log.debug("checkpoint of %s: %s", self.path, exc)
                if stopping:
                    return
        finally:
            conn.close()

    def stop(self) -> None:
        """End the thread after one last checkpoint (the app's shutdown)."""
        self._stopping.set()
        self._thread.join(timeout=10)


def start(engine: AsyncEngine, interval: float = INTERVAL) -> Checkpointer | None:
    """A :class:`Checkpointer` for ``engine``'s SQLite file, or None (not a SQLite file)."""
    url = engine.url
    path = url.database
    if not url.drivername.startswith("sqlite") or not path or path == ":memory:":
        return None
    if path.startswith("file:") or url.query:
        return None  # a URI or options: let the writers checkpoint (onewrite does the same)
    return Checkpointer(path, interval)
