"""Answers worked out once per process, for the records' slow computations (the bot's
replay of a deal, app/records/replay_mine.py; the solver's cost of each card,
app/records/card_costs.py).

A :class:`Once` keeps the last answers by key and shares the computation in flight: a
double click, a refresh or a second tab asking for the same key while it is computed
waits for that same computation, not a second one. A failure is not kept (the next
request tries again). :func:`limiter` lets one such computation thread run at a time in
an event loop: the others wait in the loop, not in worker threads, which the tables'
bots need too.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

import anyio

from app.core.errors import ServiceError

log = logging.getLogger(__name__)

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

_LIMITERS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, anyio.CapacityLimiter] = (
    weakref.WeakKeyDictionary()
)


def limiter() -> anyio.CapacityLimiter:
    """One records computation thread at a time in this event loop (the process's; tests
    have several loops)."""
    loop = asyncio.get_running_loop()
    found = _LIMITERS.get(loop)
    if found is None:
        found = _LIMITERS[loop] = anyio.CapacityLimiter(1)
    return found


class Once(Generic[K, V]):
    """The last ``size`` answers by key, and the computations in flight.

    ``await once.get(key, make)`` returns ``(answer, cached)``: the kept answer, else
    the one being computed for ``key``, else ``make()``'s, started now; ``cached`` is
    False only for the request that started it. A :class:`ServiceError` raised by
    ``make`` reaches every waiter and is not logged; any other error is logged too."""

    def __init__(self, name: str, size: int) -> None:
        self.name = name
        self.size = size
        self._kept: OrderedDict[K, V] = OrderedDict()
        self._running: dict[K, asyncio.Future[V]] = {}

    async def get(self, key: K, make: Callable[[], Awaitable[V]]) -> tuple[V, bool]:
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key], True
        running = self._running.get(key)
        cached = running is not None
        if running is None:  # no await between the look-up and this: a second request waits
            running = asyncio.ensure_future(make())
            self._running[key] = running
            running.add_done_callback(lambda f: self._settle(key, f))
        return await asyncio.shield(running), cached

    def _settle(self, key: K, future: asyncio.Future[V]) -> None:
        self._running.pop(key, None)
        if future.cancelled():
            return
        error = future.exception()  # also marks it retrieved when nobody waits any more
        if error is not None:
            if not isinstance(error, ServiceError):
                log.error("%s %s failed", self.name, key, exc_info=error)
            return
        self._kept[key] = future.result()
        self._kept.move_to_end(key)
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)

    def knows(self, key: K) -> bool:
        """Whether ``key``'s answer is kept or being computed (asking costs no new work)."""
        return key in self._kept or key in self._running

    @property
    def running(self) -> int:
        """How many computations are in flight (running or waiting for the thread)."""
        return len(self._running)

    def forget(self) -> None:
        """Drop every kept answer (tests)."""
        self._kept.clear()
