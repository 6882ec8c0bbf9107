"""The hub: this process's one broker subscription, fanned out to local listeners.

See the package docstring (app/realtime/__init__.py) for how sockets use it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from app.core.tasks import STOP_GRACE, cancel_within
from app.realtime.broker import (
    USER,
    Broker,
    Event,
    InProcessBroker,
    RoomMessage,
    UserNotice,
    Viewers,
)

#: ``watcher(room_id, seq, data)``: told of every room event, before the listeners
RoomWatcher = Callable[[int, int, "dict[str, Any] | None"], None]

log = logging.getLogger(__name__)

#: Seconds between two shares of this process's viewers (``Hub.share_viewers``): a
#: spectator on another worker is counted within this (a view is kept 2 s anyway).
SHARE_EVERY = 2.0


class RoomEvents:
    """Async iterator of a room's new seqs for one listener.

    Events coalesce: if several arrive before the listener reads, it gets one
    wake-up with the highest seq (a view is always rebuilt whole, so nothing is lost)."""

    def __init__(self) -> None:
        self._wake = asyncio.Event()
        self._seq: int | None = None

    def _notify(self, seq: int) -> None:
        self._seq = seq if self._seq is None else max(self._seq, seq)
        self._wake.set()

    def __aiter__(self) -> RoomEvents:
        return self

    async def __anext__(self) -> int:
        await self._wake.wait()
        self._wake.clear()
        seq, self._seq = self._seq, None
        assert seq is not None
        return seq


class AllEvents:
    """Async iterator of ``(room_id, seq)`` for every room (coalesced per room)."""

    def __init__(self) -> None:
        self._wake = asyncio.Event()
        self._pending: dict[int, int] = {}

    def _notify(self, room_id: int, seq: int) -> None:
        self._pending[room_id] = max(seq, self._pending.get(room_id, seq))
        self._wake.set()

    def __aiter__(self) -> AllEvents:
        return self

    async def __anext__(self) -> Event:
        while not self._pending:
            self._wake.clear()
            await self._wake.wait()
        room_id = next(iter(self._pending))
        return room_id, self._pending.pop(room_id)


class Presence:
    """Who is watching which room in this process: one entry per open socket,
    the socket's user id or None for an anonymous viewer; and ``others``, the other
    processes' viewers as last shared through the broker (``Hub.share_viewers``)."""

    def __init__(self) -> None:
        self._viewers: dict[int, Counter[int | None]] = defaultdict(Counter)
        self.others: dict[int, Counter[int | None]] = {}

    @contextlib.contextmanager
    def watching(self, room_id: int, user_id: int | None) -> Iterator[None]:
        """Count a socket of ``user_id`` (None: anonymous) on ``room_id`` while the block runs."""
        self._viewers[room_id][user_id] += 1
        try:
            yield
        finally:
            counter = self._viewers[room_id]
            counter[user_id] -= 1
            if counter[user_id] <= 0:
                del counter[user_id]
            if not counter:
                del self._viewers[room_id]

    def rooms(self) -> list[int]:
        """The rooms with at least one socket open in this process."""
        return list(self._viewers)

    def viewers(self, room_id: int) -> list[int | None]:
        """The user id (or None) of every socket open on ``room_id``."""
        return list(self._viewers.get(room_id, Counter()).elements())

    def spectators(self, room_id: int, seated_user_ids: set[int]) -> int:
        """Open sockets on ``room_id``, in this process and the others, whose user holds
        no seat there."""
        counted = 0
        for viewers in (self._viewers.get(room_id), self.others.get(room_id)):
            for uid, n in (viewers or {}).items():
                if uid is None or uid not in seated_user_ids:
                    counted += n
        return counted

    def mine(self) -> Viewers:
        """This process's viewers in the broker's shape (``broker.Viewers``)."""
        return {
            room: {"" if uid is None else str(uid): n for uid, n in counter.items()}
            for room, counter in self._viewers.items()
        }

    def take_others(self, others: Viewers) -> None:
        """Keep the other processes' viewers (``broker.Viewers``), replacing the last."""
        self.others = {
            room: Counter({(int(uid) if uid else None): n for uid, n in users.items()})
            for room, users in others.items()
        }


class Hub:
    """One per process: publishes through the broker and fans its events out locally."""

    def __init__(self, broker: Broker | None = None) -> None:
        self.broker: Broker = broker or InProcessBroker()
        self.presence = Presence()
        self._rooms: dict[int, set[RoomEvents]] = defaultdict(set)
        self._all: set[AllEvents] = set()
        self._users: dict[int, set[asyncio.Event]] = defaultdict(set)
        self._task: asyncio.Task[None] | None = None
        self._sharing: asyncio.Task[None] | None = None
        self._generations: dict[int, int] = {}
        self._counter = 0
        self._watchers: list[RoomWatcher] = []
        self._user_epochs: Counter[int] = Counter()
        self.events = 0  # events received from the broker (for profiles)

    def watch_rooms(self, watcher: RoomWatcher) -> None:
        """Tell ``watcher(room_id, seq, data)`` of every room event: synchronously when this
        process publishes one (before the broker carries it), and again when the broker
        delivers it, before the room's listeners wake. The extension point of a feature
        that keeps rooms in memory (app/rooms/live.py); a watcher must not raise or block."""
        self._watchers.append(watcher)

    def _tell(self, room_id: int, seq: int, data: dict[str, Any] | None) -> None:
        for watcher in self._watchers:
            try:
                watcher(room_id, seq, data)
            except Exception:  # noqa: BLE001 - one broken watcher must not stop the events
                log.exception("a room watcher failed on room %s", room_id)

    def user_epoch(self, user_id: int) -> int:
        """How many notices that sessions of ``user_id`` ended this process has seen (or
        published): a cache of who a token is compares it (app/accounts/service.py)."""
        return self._user_epochs[user_id]

    def generation(self, room_id: int) -> int:
        """A number that changes with every event of ``room_id`` (app/rooms/fanout.py);
        unique across rooms and never reused in this process. Without a local listener
        the hub cannot see the room's events: every call is then a new generation."""
        gen = self._generations.get(room_id)
        if gen is None:
            gen = self._bump()
            if room_id in self._rooms:
                self._generations[room_id] = gen
        return gen

    def _bump(self) -> int:
        self._counter += 1
        return self._counter

    async def start(self) -> None:
        """Open this process's one subscription and start sharing its viewers every
        ``SHARE_EVERY`` seconds (call once, from the app's lifespan)."""
        if self._task is None:
            stream = await self.broker.subscribe()
            self._task = asyncio.create_task(self._pump(stream), name="tapet-hub")
        if self._sharing is None and not isinstance(self.broker, InProcessBroker):
            self._sharing = asyncio.create_task(self._share_forever(), name="tapet-viewers")

    async def stop(self) -> None:
        """Stop sharing, close the subscription and the broker. A task that does not end
        within ``STOP_GRACE`` seconds of its cancellation is logged and left
        (:func:`app.core.tasks.cancel_within`): a shutdown is never held forever."""
        await cancel_within([t for t in (self._sharing, self._task) if t is not None], STOP_GRACE)
        self._task = self._sharing = None
        await self.broker.close()

    async def share_viewers(self) -> None:
        """Share this process's viewers through the broker and keep the other processes'
        (``Presence.others``): the spectator count is the room's across processes."""
        self.presence.take_others(await self.broker.share_viewers(self.presence.mine()))

    async def _share_forever(self) -> None:
        while True:
            try:
                await self.share_viewers()
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - the last count stays until Redis is back
                log.warning("could not share the viewers through the broker", exc_info=True)
            await asyncio.sleep(SHARE_EVERY)

    async def publish(self, room_id: int, seq: int, data: dict[str, Any] | None = None) -> None:
        """Announce that room ``room_id`` changed (now at ``seq``). Call after the commit.
        ``data`` (JSON-able) travels with the event to every process's watchers
        (``watch_rooms``); None means "read the room again"."""
        self._tell(room_id, seq, data)
        await self.broker.publish(room_id, seq, data)

    @contextlib.asynccontextmanager
    async def listen(self, room_id: int) -> AsyncIterator[RoomEvents]:
        """``async with hub.listen(room_id) as events: async for seq in events: ...``"""
        events = RoomEvents()
        self._rooms[room_id].add(events)
        try:
            yield events
        finally:
            listeners = self._rooms.get(room_id)
            if listeners is not None:
                listeners.discard(events)
                if not listeners:
                    del self._rooms[room_id]
                    self._generations.pop(room_id, None)

    async def publish_user(self, user_id: int) -> None:
        """Announce that some sessions of ``user_id`` ended (every process rechecks that
        user's sockets). Call after the commit."""
        self._user_epochs[user_id] += 1
        await self.broker.publish_user(user_id)

    @contextlib.asynccontextmanager
    async def watch_user(self, user_id: int) -> AsyncIterator[asyncio.Event]:
        """``async with hub.watch_user(uid) as ended:`` ``ended`` is set whenever sessions
        of ``uid`` end (the watcher clears it and checks its own token)."""
        ended = asyncio.Event()
        self._users[user_id].add(ended)
        try:
            yield ended
        finally:
            watchers = self._users.get(user_id)
            if watchers is not None:
                watchers.discard(ended)
                if not watchers:
                    del self._users[user_id]

    def dispatch_user(self, user_id: int) -> None:
        """Hand a user notice to this process's watchers of that user."""
        self._user_epochs[user_id] += 1
        for ended in list(self._users.get(user_id, ())):
            ended.set()

    @contextlib.asynccontextmanager
    async def listen_all(self) -> AsyncIterator[AllEvents]:
        """Like ``listen`` for every room: yields ``(room_id, seq)`` (the bot runner uses it)."""
        events = AllEvents()
        self._all.add(events)
        try:
            yield events
        finally:
            self._all.discard(events)

    def dispatch(self, room_id: int, seq: int, data: dict[str, Any] | None = None) -> None:
        """Hand an event to this process's watchers, then its listeners."""
        self.events += 1
        self._tell(room_id, seq, data)
        if room_id in self._generations:
            self._generations[room_id] = self._bump()
        for events in list(self._rooms.get(room_id, ())):
            events._notify(seq)
        for all_events in list(self._all):
            all_events._notify(room_id, seq)

    async def _pump(self, stream: AsyncIterator[RoomMessage | UserNotice]) -> None:
        try:
            async for message in stream:
                if message[0] == USER:
                    self.dispatch_user(message[1])
                elif isinstance(message[0], int):
                    room_id, seq, data = message  # type: ignore[misc]  # a RoomMessage
                    self.dispatch(room_id, seq, data)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001
            log.exception("the hub's broker subscription ended")
        finally:
            await stream.aclose()  # type: ignore[attr-defined]
