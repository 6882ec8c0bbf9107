"""The bot runner's stop is bounded: a task that does not end when cancelled (one waiting on a
worker thread) cannot hold the server's shutdown forever (a test run once hung there)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from app.rooms.runner import Runner


class NoLeases:
    """Leases that hold nothing and release at once (no database)."""

    def holds(self, room_id: int) -> bool:
        return False

    async def release_all(self) -> None:
        return None


async def test_stop_leaves_a_task_that_ignores_its_cancellation() -> None:
    release = asyncio.Event()

    async def stubborn() -> None:
        while not release.is_set():
            with contextlib.suppress(asyncio.CancelledError):
                await release.wait()

    leases: Any = NoLeases()
    runner = Runner(None, None, leases=leases, abandon_minutes=1)  # type: ignore[arg-type]
    task = asyncio.create_task(stubborn())
    runner._tasks[7] = task
    stopping = asyncio.create_task(runner.stop(grace=0.2))
    try:
        done, _ = await asyncio.wait({stopping}, timeout=3)
        assert stopping in done  # two graces (0.4 s), not forever
        assert not task.done()  # the stubborn task was left, not awaited
    finally:
        release.set()
        await asyncio.wait({stopping, task}, timeout=3)
