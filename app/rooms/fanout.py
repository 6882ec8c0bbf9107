"""Views rendered once per audience: the sockets' fan-out of this process.

Without it each socket of a room read the database and built its viewer's view on
every event: a room watched by 200 people cost 200 reads per move. Now:

* the room comes from memory (app/rooms/live.py): a move's event brings the kept
  snapshot forward without a read; any other change makes the first socket that needs
  the room read it once (``snapshot.read``, single flight, at most ``live.READS_AT_ONCE``
  at a time so a burst of sockets cannot take every database connection),
* each audience's view is projected from that snapshot once (``live.LiveRooms.entry``):
  one per seat (``observe(state, seat)`` and the room info) and one for every spectator
  (nobody's seat: the same view for all of them), and shared by every socket of that
  audience and the mover's answer, with its JSON text encoded once. Views also expire
  after ``ttl`` seconds, so a socket that connects long after the last event still gets
  the spectator count and the clock afresh.

A feature's socket feed (the chat) and the public move log are built once per room
*generation* (a number the hub bumps on every event of the room: ``shared``, ``moves``).

Which audience a socket belongs to comes from the snapshot itself: the seat its
``seats`` give the socket's user, the same data the view's hand is projected for, so
no socket ever gets another seat's cards (``_belongs`` checks it again on the built
view).
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from app.core.errors import Forbidden
from app.rooms import live, service
from app.rooms.invites import PRIVATE

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

    from app.accounts.models import User
    from app.realtime.hub import Hub
    from app.rooms.snapshot import RoomData

MAX_ROOMS = 4096
BUILDS_AT_ONCE = 8  # reads at once: below the connection pool's 30 (app/core/db.py), so requests still get a connection


encode = live.encode
Entry = live.Entry


class _Room:
    """What one generation of a room has built so far."""

    def __init__(self, generation: int) -> None:
        self.generation = generation
        self.born = time.monotonic()
        self.builds: dict[Any, asyncio.Future[Any]] = {}  # the socket feeds, move logs

    async def once(self, key: Any, build: Callable[[], Awaitable[Any]]) -> Any:
        """The result of ``build()`` for ``key``, built once for all callers (a failure is
        not kept: the next caller tries again)."""
        future = self.builds.get(key)
        if future is None:
            future = asyncio.ensure_future(build())
            future.add_done_callback(_retrieve)
            self.builds[key] = future
            future.add_done_callback(
                lambda f: f.cancelled() or f.exception() is None or self.builds.pop(key, None)
            )
        return await asyncio.shield(future)


def _seat_map(view: dict[str, Any]) -> dict[int, int]:
    """User id -> seat, first seat first (as ``service._seat_of``)."""
    seats: dict[int, int] = {}
    for chair in view.get("seats") or []:
        uid = chair.get("user_id")
        if uid is not None:
            seats.setdefault(uid, chair["seat"])
    return seats


class ViewCache:
    """One view per audience and snapshot; feeds and logs per room and generation (module
    docstring)."""

    def __init__(self, hub: Hub, ttl: float = live.VIEW_TTL) -> None:
        self.hub = hub
        self.ttl = ttl
        self._rooms: dict[int, _Room] = {}
        self._slots = asyncio.Semaphore(BUILDS_AT_ONCE)

    @property
    def reads(self) -> int:
        """Snapshots read from the database for this hub (app/rooms/live.py)."""
        return live.of(self.hub).reads

    @property
    def builds(self) -> int:
        """Views projected, one per audience and snapshot (app/rooms/live.py)."""
        return live.of(self.hub).builds

    @property
    def hits(self) -> int:
        """Views served from a projection already made."""
        return live.of(self.hub).hits

    def _room(self, room_id: int) -> _Room:
        generation = self.hub.generation(room_id)
        cached = self._rooms.get(room_id)
        if (
            cached is None
            or cached.generation != generation
            or time.monotonic() - cached.born > self.ttl
        ):
            if len(self._rooms) >= MAX_ROOMS:
                self._prune()
            cached = self._rooms[room_id] = _Room(generation)
        return cached

    def _prune(self) -> None:
        now = time.monotonic()
        for room_id in [r for r, c in self._rooms.items() if now - c.born > self.ttl]:
            del self._rooms[room_id]
        while len(self._rooms) >= MAX_ROOMS:
            del self._rooms[next(iter(self._rooms))]

    async def get(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        room_id: int,
        user: User | None,
        sees: Callable[[RoomData], bool] | None = None,
    ) -> Entry:
        """The view of ``room_id`` for ``user`` (None: a spectator): the room's snapshot in
        memory (read once for every socket when it is not kept), projected once per
        audience: the seat the snapshot gives ``user``, or the spectators'. Raises
        NotFound like ``service.get_view``; Forbidden ``room_private`` when ``sees``
        (the socket's ``invites.may_see``) refuses the room: a private room closed to
        spectators since the socket was let in. A refusal is made on a fresh read (the
        kept snapshot may not have heard yet of the change that let the socket in)."""
        rooms = live.of(self.hub)
        snap = await rooms.get(room_id, sessionmaker=sessionmaker)
        if sees is not None and not sees(snap.room):
            rooms.forget(room_id)
            snap = await rooms.get(room_id, sessionmaker=sessionmaker)
            if not sees(snap.room):
                raise Forbidden(PRIVATE, "room_private")
        uid = user.id if user is not None else None
        seat = snap.room.seat_of(uid)
        entry = rooms.entry(room_id, snap, seat, self.ttl)
        if not _belongs(
            entry.view, uid
        ):  # by construction never; a view is never shared by mistake
            raise RuntimeError(f"room {room_id}: the view of seat {seat} is not user {uid}'s")
        return entry

    async def shared(self, room_id: int, key: str, build: Callable[[], Awaitable[Any]]) -> Any:
        """``build()``'s result for ``key`` in this generation of ``room_id``, built once
        for every socket of this process (a feature's socket feed: the chat's messages)."""
        return await self._room(room_id).once(("shared", key), build)

    async def moves(
        self, sessionmaker: async_sessionmaker[AsyncSession], room_id: int, since: int
    ) -> list[dict[str, Any]]:
        """The public move log from ``since`` (the same for every viewer), read once per
        generation and ``since``."""

        async def build() -> list[dict[str, Any]]:
            async with self._slots, sessionmaker() as db:
                return await service.move_log(db, room_id, None, since)

        return await self._room(room_id).once(("moves", since), build)


def _retrieve(future: asyncio.Future[Any]) -> None:
    """Mark a build's failure as seen (its waiters may all be gone)."""
    if not future.cancelled():
        future.exception()


def _belongs(view: dict[str, Any], uid: int | None) -> bool:
    """True when ``view`` is the view of user ``uid`` (None: anonymous) by its own seats."""
    seat = view.get("my_seat")
    if uid is None:
        return seat is None
    return _seat_map(view).get(uid) == seat


_CACHES: weakref.WeakKeyDictionary[Hub, ViewCache] = weakref.WeakKeyDictionary()


def views_of(hub: Hub) -> ViewCache:
    """The view cache of ``hub``'s sockets (one per hub: the process's fan-out)."""
    cache = _CACHES.get(hub)
    if cache is None:
        cache = _CACHES[hub] = ViewCache(hub)
    return cache
