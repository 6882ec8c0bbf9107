"""Stopping background tasks within a bound (the server's shutdown)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable

log = logging.getLogger(__name__)

#: Seconds a background task is given to end once cancelled at shutdown, by default.
STOP_GRACE = 5.0


async def cancel_within(
    tasks: Iterable[asyncio.Task[object]], grace: float
) -> set[asyncio.Task[object]]:
    """Cancel ``tasks`` and wait at most ``grace`` seconds for them to end; returns the ones that
    did not (logged with their stacks, and left running: a task waiting on a worker thread
    cannot be interrupted, and must not hold a shutdown forever). Each finished task's
    exception is retrieved, so that a failure at shutdown is not reported again. Never raises."""
    tasks = set(tasks)
    for task in tasks:
        task.cancel()
    stuck: set[asyncio.Task[object]] = set()
    if tasks:
        _done, stuck = await asyncio.wait(tasks, timeout=grace)
    for task in tasks - stuck:
        if not task.cancelled():
            task.exception()
    for task in stuck:
        log.warning("task %s did not stop: %s", task.get_name(), task.get_stack())
    return stuck
