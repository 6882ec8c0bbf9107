"""The bot runner: a background task that plays the server's part at every running table.

Started by the app's lifespan. It wakes on every room event of the hub (no
polling) and, every ``sweep_interval`` seconds, on every playing room (recovery
after a restart or a lost event). For a woken room it loops: ask what is due
(app/rooms/server_moves.py), wait until it is due (``TAPET_BOT_DELAY`` before a bot's
move, ``TAPET_DEAL_PAUSE`` before the next deal, a person's move-clock deadline),
apply it, until a person without a clock is to act or the match is over. A room
event during the wait cuts it short and the room is looked at again (a person who
moves before the deadline must not hold up the bots after them). One task per room
at most. Several processes run runners: each drives only the rooms of the shards
whose lease it holds (app/realtime/lease.py), so a bot, a deal or a clock is worked
out once across workers, and a dead worker's rooms are taken over when its leases
expire (``TAPET_LEASE_TTL``). The move log's ``(game_id, seq)`` key still lets only
one apply each move, and every due time comes from stored move times, so clocks and
bots resume after a restart or a takeover.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets

import anyio
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app import rules
from app.core.db import utcnow
from app.core.errors import NotFound
from app.core.settings import get_settings
from app.core.tasks import cancel_within
from app.realtime import Hub
from app.realtime.lease import Leases
from app.rooms import live, presence
from app.rooms import server_moves as table
from app.rooms.botplay import choose

log = logging.getLogger(__name__)


class _Stopped(Exception):
    """The runner is stopping."""


class Runner:
    """Drives the bots and the deals of every playing room of the database."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        hub: Hub,
        bot_delay: float = 0.7,
        deal_pause: float = 4.0,
        sweep_interval: float = 5.0,
        leases: Leases | None = None,
        abandon_minutes: float | None = None,
    ) -> None:
        self.sessionmaker = sessionmaker
        #: a playing room unseen this long is ended as abandoned (app/rooms/presence.py)
        self.abandon_minutes = (
            abandon_minutes if abandon_minutes is not None else get_settings().abandon_minutes
        )
        self._watched: set[int] = set()
        self.leases = leases or Leases(sessionmaker, ttl=get_settings().lease_ttl)
        self.hub = hub
        self.bot_delay = bot_delay
        self.deal_pause = deal_pause
        self.sweep_interval = sweep_interval
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._dirty: set[int] = set()
        self._kicks: dict[int, asyncio.Event] = {}
        self._main: list[asyncio.Task[None]] = []
        self._stopping = asyncio.Event()

    async def start(self) -> None:
        """Start listening and sweeping (returns at once)."""
        try:
            await (
                self.leases.tick()
            )  # take this process's share of the rooms before the first sweep
        except Exception:  # noqa: BLE001 - the keeper retries
            log.exception("could not take room leases")
        listening = asyncio.Event()
        self._main = [
            asyncio.create_task(self._listen(listening), name="tapet-runner-listen"),
            asyncio.create_task(self._sweep(), name="tapet-runner-sweep"),
            asyncio.create_task(self._keep_leases(), name="tapet-runner-leases"),
            asyncio.create_task(self._keep_presence(), name="tapet-runner-presence"),
        ]
        await listening.wait()

    async def stop(self, grace: float = 5.0) -> None:
        """Stop: tasks finish the database work in hand and leave at their next pause
        (cancelled after ``grace`` seconds), so no connection is dropped mid-query; a task
        that has not ended ``grace`` seconds after its cancellation is left, and logged."""
        self._stopping.set()
        tasks = self._main + list(self._tasks.values())
        if tasks:
            await asyncio.wait(tasks, timeout=grace)
            # the rest cancelled, waited for one more grace (a test run once hung awaiting
            # one here); every finished task's failure retrieved, not reported twice
            await cancel_within(tasks, grace)
        self._main, self._tasks = [], {}
        try:
            await self.leases.release_all()
        except Exception:  # noqa: BLE001 - they expire anyway
            log.warning("could not release the room leases", exc_info=True)

    async def _pause(self, seconds: float) -> None:
        """Sleep ``seconds``; raise _Stopped at once when the runner stops."""
        if self._stopping.is_set():
            raise _Stopped
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stopping.wait(), timeout=max(seconds, 0))
        if self._stopping.is_set():
            raise _Stopped

    def wake(self, room_id: int) -> None:
        """Look at ``room_id`` again soon (start its driver, or make it loop once more)."""
        if self._stopping.is_set() or not self.leases.holds(room_id):
            return  # another process drives this room
        task = self._tasks.get(room_id)
        if task is None or task.done():
            self._tasks[room_id] = asyncio.create_task(
                self._drive(room_id), name=f"tapet-room-{room_id}"
            )
        else:
            self._dirty.add(room_id)
            kick = self._kicks.get(room_id)
            if kick is not None:
                kick.set()

    async def _wait_until_due(self, kick: asyncio.Event, seconds: float) -> bool:
        """Sleep ``seconds``: True when the time came, False when ``kick`` was set first
        (a room event). Raises _Stopped when the runner stops."""
        if seconds > 0 and not kick.is_set():
            waiters = {
                asyncio.ensure_future(kick.wait()),
                asyncio.ensure_future(self._stopping.wait()),
            }
            try:
                await asyncio.wait(waiters, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for waiter in waiters:
                    waiter.cancel()
        if self._stopping.is_set():
            raise _Stopped
        return not kick.is_set() or seconds <= 0

    async def _listen(self, listening: asyncio.Event) -> None:
        async with self.hub.listen_all() as events:
            listening.set()
            stop = asyncio.ensure_future(self._stopping.wait())
            try:
                while True:
                    event = asyncio.ensure_future(anext(events))
                    await asyncio.wait({event, stop}, return_when=asyncio.FIRST_COMPLETED)
                    if stop.done():
                        event.cancel()
                        return
                    room_id, _seq = event.result()
                    self.wake(room_id)
            finally:
                stop.cancel()

    async def _sweep(self) -> None:
        with contextlib.suppress(_Stopped):
            while True:
                try:
                    async with self.sessionmaker() as db:
                        for room_id in await table.playing_room_ids(db):
                            self.wake(room_id)
                    await self._end_abandoned()
                except Exception:  # noqa: BLE001 - keep sweeping through a database outage
                    log.exception("runner sweep failed")
                await self._pause(self.sweep_interval)

    async def _end_abandoned(self) -> None:
        """End the playing rooms of this process's shards that nobody has been connected
        to for ``abandon_minutes`` (app/rooms/presence.py)."""
        async with self.sessionmaker() as db:
            stale = await presence.stale_rooms(db, self.abandon_minutes)
        watched = set(presence.watched_rooms())
        for room_id in stale:
            if not self.leases.holds(room_id):
                continue  # the worker that drives it decides
            async with self.sessionmaker() as db:
                if room_id in watched:  # a socket here: seen now (its heartbeat is due)
                    await presence.touch(db, [room_id])
                elif await presence.end_abandoned(db, room_id, self.abandon_minutes):
                    log.info("room %s ended: nobody connected", room_id)

    async def _keep_presence(self) -> None:
        """Write ``seen_at`` for the rooms this process has sockets on, and once more for
        those whose last socket closed since the last beat (app/rooms/presence.py)."""
        beat = min(presence.HEARTBEAT, self.abandon_minutes * 60 / 4)
        with contextlib.suppress(_Stopped):
            while True:
                await self._pause(beat)
                try:
                    now = set(presence.watched_rooms())
                    async with self.sessionmaker() as db:
                        await presence.touch(db, now | self._watched)
                    self._watched = now
                except Exception:  # noqa: BLE001 - keep beating through a database outage
                    log.exception("could not write the rooms' presence")

    async def _keep_leases(self) -> None:
        """Renew and rebalance the leases; look at the rooms of newly taken shards at once."""
        with contextlib.suppress(_Stopped):
            while True:
                await self._pause(
                    min(self.leases.interval, 0.5)
                    if self.leases.under_share()
                    else self.leases.interval
                )
                try:
                    gained = await self.leases.tick()
                    if gained:
                        log.info("took over %d room shards", len(gained))
                        async with self.sessionmaker() as db:
                            for room_id in await table.playing_room_ids(db):
                                if self.leases.shard(room_id) in gained:
                                    self.wake(room_id)
                except Exception:  # noqa: BLE001 - keep trying through a database outage
                    log.exception("could not renew the room leases")

    async def _drive(self, room_id: int) -> None:
        try:
            while not self._stopping.is_set() and self.leases.holds(room_id):
                self._dirty.discard(room_id)
                try:
                    progressed = await self._step(room_id)
                except _Stopped:
                    return
                except Exception:  # noqa: BLE001 - one broken table must not stop the others
                    log.exception("runner failed at room %s", room_id)
                    with contextlib.suppress(_Stopped):
                        await self._pause(1.0)
                    progressed = False
                # No await between this test and leaving: a wake() now starts a new driver.
                if not progressed and room_id not in self._dirty:
                    return
        finally:
            if self._tasks.get(room_id) is asyncio.current_task():
                del self._tasks[room_id]
                self._kicks.pop(room_id, None)

    async def _step(self, room_id: int) -> bool:
        """Do the next server move of the room; False when nothing was applied."""
        kick = self._kicks.setdefault(room_id, asyncio.Event())
        kick.clear()
        try:  # the room in memory (app/rooms/live.py): no read after a move
            snap = await live.of(self.hub).get(room_id, sessionmaker=self.sessionmaker)
        except NotFound:
            return False
        if snap.room.status == "playing" and (snap.loaded is None or rules.is_over(snap.state)):
            # not dealt yet, or over by its last move but not marked (a crash between):
            # the database says what is due, and ends such a match
            async with self.sessionmaker() as db:
                move = await table.next_server_move(db, room_id, self.bot_delay, self.deal_pause)
        else:
            move = table.due_of(snap, self.bot_delay, self.deal_pause)
        if move is None:
            return False
        if not await self._wait_until_due(kick, (move.not_before - utcnow()).total_seconds()):
            return True  # the room changed meanwhile: look again
        action = None
        if move.kind in ("bot", "clock"):
            assert move.bot is not None and move.view is not None
            rng = random.Random(secrets.randbits(64))
            action = await anyio.to_thread.run_sync(choose, move.bot, move.view, rng)
        async with self.leases.guard(room_id) as ours:
            if not ours:
                return False  # the shard went to another process meanwhile
            async with self.sessionmaker() as db:
                # Not applied means the table moved on; its event (if any) makes us look again.
                applied = await table.server_move(db, move, action)
        if not applied and move.kind == "bot":
            log.warning(
                "room %s: the bot move at seq %s was not applied (the table moved on)",
                room_id,
                move.seq,
            )
        elif not applied and move.kind == "deal":
            # Expected now and then: ``service.start`` deals the first hand itself, and a
            # sweep between its two commits sees a playing room without cards.
            log.debug("room %s: the deal at seq %s was already made", room_id, move.seq)
        return applied
