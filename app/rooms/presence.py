"""Who is at a table, across workers, and the end of abandoned tables (docs/presence.md).

A worker knows only its own sockets (``hub.presence``, process memory). What every
worker must agree on is stored: ``rooms.seen_at``, the last time some worker had a
socket open on the table (any viewer: a seated person or a spectator) or served its
page. Each worker writes it for the rooms it has sockets on: at a socket's connect and
close, and every ``heartbeat`` seconds while one is open (``touch``: one UPDATE for all
of them). The worker that drives a room (the holder of its shard's lease,
app/realtime/lease.py) decides: its runner's sweep ends a playing room whose
``seen_at`` (else its start) is older than ``TAPET_ABANDON_MINUTES`` as "abandoned"
(``end_abandoned``), unless this process itself has a socket on it. The decision is one
conditional UPDATE on the stale ``seen_at``, so a viewer who arrives meanwhile (a fresh
``seen_at``) keeps the table going.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app import realtime
from app.core.db import utcnow
from app.core.hooks import HOOKS
from app.rooms import ending, play, snapshot
from app.rooms.models import Room

#: How often (seconds, at most) a worker writes ``seen_at`` for its open sockets' rooms.
HEARTBEAT = 30.0


async def touch(db: AsyncSession, room_ids: Iterable[int], at: datetime | None = None) -> None:
    """``seen_at`` = now for the not finished rooms among ``room_ids``; committed."""
    ids = sorted(set(room_ids))
    if not ids:
        return
    await db.execute(
        update(Room)
        .where(Room.id.in_(ids), Room.status != "finished")
        .values(seen_at=at or utcnow())
    )
    await db.commit()


def watched_rooms() -> list[int]:
    """The rooms this process has at least one socket on now."""
    presence = realtime.current().presence
    return [room_id for room_id in presence.rooms() if presence.viewers(room_id)]


async def stale_rooms(db: AsyncSession, minutes: float, now: datetime | None = None) -> list[int]:
    """The playing rooms nobody has been seen at for ``minutes`` (by ``seen_at``, else
    the room's creation), but a championship's tables (``HOOKS.room_labels``)."""
    cutoff = (now or utcnow()) - timedelta(minutes=minutes)
    last = func.coalesce(Room.seen_at, Room.created_at)
    stale = list(
        (await db.scalars(select(Room.id).where(Room.status == "playing", last < cutoff))).all()
    )
    # a championship's table is the championship's to end (its own limits and forfeits)
    championships = await HOOKS.room_labels(db, stale)
    return [room_id for room_id in stale if room_id not in championships]


async def end_abandoned(
    db: AsyncSession, room_id: int, minutes: float, now: datetime | None = None
) -> bool:
    """End ``room_id``'s match as "abandoned" if it still plays and is still unseen for
    ``minutes`` (checked in the same UPDATE that finishes it). True when ended here."""
    cutoff = (now or utcnow()) - timedelta(minutes=minutes)
    game = await snapshot.latest_game(db, room_id)
    if game is None:
        return False
    seq = (await play.load(db, game)).state.seq
    last = func.coalesce(Room.seen_at, Room.created_at)
    claimed = await db.execute(
        update(Room)
        .where(Room.id == room_id, Room.status == "playing", last < cutoff)
        .values(status="finished")
    )
    if claimed.rowcount != 1:  # type: ignore[attr-defined]  # a DML statement's Result is a CursorResult
        await db.rollback()
        return False
    ended = await ending.mark_ended(db, room_id, game.id, "abandoned")
    await db.commit()
    if ended:
        await realtime.current().publish(room_id, seq)
        await ending.announce(db, game.id)
    return ended
