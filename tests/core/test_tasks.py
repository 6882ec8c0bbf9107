"""Stopping background tasks within a bound (app/core/tasks.py): the server's shutdown
never waits forever on a task that ignores its cancellation."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import pytest

from app.core.tasks import cancel_within
from app.realtime import Hub, InProcessBroker


async def _stubborn(release: asyncio.Event) -> None:
    """A task that swallows every cancellation until ``release`` is set."""
    while not release.is_set():
        with contextlib.suppress(asyncio.CancelledError):
            await release.wait()


async def test_a_task_that_ignores_its_cancellation_is_left_and_named(
    caplog: pytest.LogCaptureFixture,
) -> None:
    release = asyncio.Event()
    stubborn = asyncio.create_task(_stubborn(release), name="stubborn")
    obedient = asyncio.create_task(asyncio.sleep(60), name="obedient")
    try:
        with caplog.at_level(logging.WARNING, logger="app.core.tasks"):
            stuck = await asyncio.wait_for(cancel_within([stubborn, obedient], 0.2), 3)
        assert stuck == {stubborn}
        assert obedient.cancelled()
        assert not stubborn.done()
        assert "stubborn did not stop" in caplog.text
    finally:
        release.set()
        await asyncio.wait({stubborn}, timeout=3)


async def test_the_hub_stops_within_its_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("app.realtime.hub.STOP_GRACE", 0.2)
    hub = Hub(InProcessBroker())
    await hub.start()
    release = asyncio.Event()
    stubborn = asyncio.create_task(_stubborn(release))
    original, hub._task = hub._task, stubborn  # a subscription that ignores its cancellation
    stopping = asyncio.create_task(hub.stop())
    try:
        done, _ = await asyncio.wait({stopping}, timeout=3)
        assert stopping in done  # one grace (0.2 s), not forever
        assert not stubborn.done()  # left running, not awaited
    finally:
        release.set()
        if original is not None:
            original.cancel()
        await asyncio.wait({stopping, stubborn, *([original] if original else [])}, timeout=3)
