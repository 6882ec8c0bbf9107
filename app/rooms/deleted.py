"""A deleted account's seats and queue entry (the account-deleted listener, app/core/hooks.py).

When a person deletes their account (or guest) nobody can sit in their name again, so the
rooms give up what it held, at once:

* at a **running** table its seat passes to a bot (the stand-in bot, ``STAND_IN_BOT``) for
  good: the seat no longer names the person, the match goes on for the others, and the
  departure is recorded in ``games.left`` like a leave (a loss for the deleted person in
  a rated match; the partner is rated on the match as it ends, docs/ratings.md);
* at an **open** table its seat is emptied;
* it leaves the quick-play queue (a partner entry: both, as ``queue.leave``).

Finished tables keep their seats as they ended. Idempotent: a second call finds nothing.
"""

from __future__ import annotations

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.models import User
from app.rooms import aftermatch, queue, service
from app.rooms.models import QueueEntry, Room, Seat


async def on_account_deleted(db: AsyncSession, user_id: int) -> None:
    """Give up the seats and the queue entry of the deleted ``user_id`` (module docstring),
    then tell each changed room's watchers. Commits."""
    held = (
        await db.execute(
            select(Seat.room_id, Seat.seat, Room.status)
            .join(Room, Room.id == Seat.room_id)
            .where(Seat.user_id == user_id, Room.status.in_(("open", "playing")))
        )
    ).all()
    for room_id, seat, status in held:
        bot: str | None = None  # an open table: the seat is emptied
        if status == "playing":
            await aftermatch.record_leave(db, room_id, user_id)
            bot = service.STAND_IN_BOT
        await db.execute(
            update(Seat)
            .where(Seat.room_id == room_id, Seat.seat == seat, Seat.user_id == user_id)
            .values(user_id=None, bot=bot, stand_in=False, away=False, timeouts=0)
        )
    await db.commit()
    user = await db.get(User, user_id)
    if user is not None:
        await queue.leave(db, user)  # a partner entry: both its people
    await db.execute(delete(QueueEntry).where(QueueEntry.user_id == user_id))
    await db.commit()
    for room_id in sorted({room_id for room_id, _seat, _status in held}):
        await service.publish_room(db, room_id)
