"""The cyclic garbage collector's settings of a serving process (docs/server.md "Pauses").

CPython's cyclic collector stops the whole process while it scans a generation, and a
scan costs about half a microsecond a tracked object. A worker holding 2,000 sockets
tracks some 600,000 objects (each socket's coroutines, frames and headers, the live
rooms, the modules), and with the default thresholds (700, 10, 10) `tapet load` at
500 tables saw a full scan of 300-500 ms every few seconds: every move in flight
waited for it, which was the move -> last socket p99 (600 ms to 2 s; docs/benchmarks.md
"Live rooms, afternoon of 3 December 2026"). Two changes, no library (the standard
``gc`` module is the whole API):

* ``gc.freeze()`` once the process has started: the modules, routes and models loaded
  at start-up (about 150,000 objects) move to the permanent generation and are never
  scanned again (they live as long as the process anyway);
* thresholds ``(GEN0, GEN1, GEN2)`` = (5,000, 20, 100) instead of (700, 10, 10): a young
  generation large enough that most of a request's objects die in it (freed by their
  reference counts) instead of surviving two scans into the oldest generation, whose
  growth is what triggers full scans; a young scan stays short (tens of ms at worst),
  and a full scan runs at most every 10 million allocations (5,000 x 20 x 100) instead
  of every 70,000. Cyclic garbage waits longer to be freed: the server's memory in the
  same run was the same (about 385 MiB).

Only ``tapet serve``'s workers and ``tapet load`` call ``tune`` (a test process creates
many apps: freezing there would keep each test's leftovers).
"""

from __future__ import annotations

import gc

GEN0 = 5_000
GEN1 = 20
GEN2 = 100


def tune(freeze: bool = True) -> None:
    """Set the thresholds above and, with ``freeze``, move every object tracked now to
    the permanent generation (call it once start-up is done). Never raises."""
    if freeze:
        gc.collect()  # start-up's own garbage is freed, not frozen
        gc.freeze()
    gc.set_threshold(GEN0, GEN1, GEN2)
