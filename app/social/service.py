"""Follows, the Following list and the online-status setting (issue 18 §3, §5).

* Following is idempotent: ``(follower_id, followed_id)`` is the primary key of
  ``follows`` and the insert is ``ON CONFLICT DO NOTHING``: a double tap, or twenty
  requests at once, leave one row and raise nothing.
* Guests may follow and be followed: a follow is keyed by ``users.id``, which a guest
  keeps when they register (app/accounts/service.py ``register``).
* A hidden profile (``users.profile_hidden``) cannot be followed (Forbidden
  "follow_private") and is left out of the Following list, even if followed before it was
  hidden. A deleted account cannot be followed (NotFound, like its player page).
* Blocks (issue 18 §5) belong to the chat feature (``app/chat/blocks.py``), which
  registers its block list in ``BLOCKS`` at start-up (app/chat/wiring.py): a blocked pair
  cannot follow each other and the Following list leaves the other out.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app import rules
from app.accounts.models import User
from app.core.db import utcnow
from app.core.errors import Forbidden, NotFound
from app.rooms.models import Room, Seat
from app.social import presence
from app.social.models import Follow

#: ``await blocked_pairs(db, user_ids) -> {(a, b), ...}``: unordered pairs among the users
#: where either blocked the other (the chat feature's ``app/chat/blocks.blocked_pairs``).
BlockedPairs = Callable[[AsyncSession, list[int]], Awaitable[set[tuple[int, int]]]]
#: Who blocked whom, registered at start-up by the chat (app/chat/wiring.py).
BLOCKS: list[BlockedPairs] = []

DELETED = "deleted"


async def _blocked_with(db: AsyncSession, me: int, others: list[int]) -> set[int]:
    """The ids among ``others`` that ``me`` blocked or was blocked by (empty without a
    registered block list)."""
    found: set[int] = set()
    for blocked_pairs in BLOCKS:
        for a, b in await blocked_pairs(db, [me, *others]):
            if me in (a, b):
                found.add(b if a == me else a)
    return found


async def _target(db: AsyncSession, user_id: int) -> User:
    user = await db.get(User, user_id)
    if user is None or user.kind == DELETED:
        raise NotFound(f"there is no player {user_id}", "no_player", n=user_id)
    return user


async def player_exists(db: AsyncSession, user_id: int) -> bool:
    """True when ``user_id`` is a player (not deleted)."""
    try:
        await _target(db, user_id)
    except NotFound:
        return False
    return True


async def follow(db: AsyncSession, follower: User, followed_id: int) -> bool:
    """``follower`` follows ``followed_id``; committed. True when the row is new, False
    when they already followed (nothing changes). Raises NotFound (no such person),
    Forbidden "follow_self", Forbidden "follow_private" (a hidden profile, or a blocked
    pair: the same words, so a block is not revealed)."""
    target = await _target(db, followed_id)
    if target.id == follower.id:
        raise Forbidden("you cannot follow yourself", "follow_self")
    if target.profile_hidden or await _blocked_with(db, follower.id, [target.id]):
        raise Forbidden("this profile is private: it cannot be followed", "follow_private")
    dialect = db.bind.dialect.name if db.bind is not None else ""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert  # type: ignore[assignment]  # same API
    stmt = (
        insert(Follow)
        .values(follower_id=follower.id, followed_id=target.id, created_at=utcnow())
        .on_conflict_do_nothing(index_elements=["follower_id", "followed_id"])
    )
    new = (await db.execute(stmt)).rowcount == 1  # type: ignore[attr-defined]  # a CursorResult
    await db.commit()
    return new


async def unfollow(db: AsyncSession, follower: User, followed_id: int) -> bool:
    """``follower`` stops following ``followed_id``; committed. True when a row went
    (False: they did not follow; nothing changes, no error). Raises NotFound when there
    is no such player and nothing was followed (a made-up address)."""
    result = await db.execute(
        delete(Follow).where(Follow.follower_id == follower.id, Follow.followed_id == followed_id)
    )
    await db.commit()
    gone = result.rowcount == 1  # type: ignore[attr-defined]  # a CursorResult
    if not gone and not await player_exists(db, followed_id):
        raise NotFound(f"there is no player {followed_id}", "no_player", n=followed_id)
    return gone


async def is_following(db: AsyncSession, follower_id: int, followed_id: int) -> bool:
    """True when ``follower_id`` follows ``followed_id``."""
    row = await db.scalar(
        select(Follow.follower_id).where(
            Follow.follower_id == follower_id, Follow.followed_id == followed_id
        )
    )
    return row is not None


async def my_table(db: AsyncSession, viewer: User) -> dict[str, Any] | None:
    """The room ``viewer`` sits at (open or playing, a seat they did not leave) that has a
    free seat or a bot's seat, to invite someone to: ``{id, game, game_name, status, free,
    bots}``, or None. Any room of theirs counts (a private one too: they sit there)."""
    room_ids = (
        await db.scalars(
            select(Seat.room_id)
            .join(Room, Room.id == Seat.room_id)
            .where(
                Seat.user_id == viewer.id,
                Seat.away.is_(False),
                Room.status.in_(("open", "playing")),
            )
            .order_by(Room.id.desc())
        )
    ).all()
    for room_id in room_ids:
        seats = (await db.execute(select(Seat).where(Seat.room_id == room_id))).scalars().all()
        free = sum(1 for s in seats if s.user_id is None and s.bot is None)
        bots = sum(1 for s in seats if s.bot is not None or s.away)
        if free or bots:
            room = await db.get(Room, room_id)
            assert room is not None
            ruleset = rules.GAMES.get(room.game)
            return {
                "id": room.id,
                "game": room.game,
                "game_name": ruleset.name if ruleset else room.game,
                "status": room.status,
                "free": free,
                "bots": bots,
            }
    return None


async def following(
    db: AsyncSession, viewer: User, now: datetime | None = None
) -> list[dict[str, Any]]:
    """The people ``viewer`` follows, as they may see them: ``[{id, nickname, kind,
    online, table}]`` (``table``: ``presence.tables_of``'s entry, or None), online ones
    first, then by nickname. Hidden profiles, deleted accounts and blocked pairs are left
    out; a person hiding their online status is shown offline, without a table."""
    people = list(
        (
            await db.scalars(
                select(User)
                .join(Follow, Follow.followed_id == User.id)
                .where(
                    Follow.follower_id == viewer.id,
                    User.profile_hidden.is_(False),
                    User.kind != DELETED,
                )
            )
        ).all()
    )
    blocked = await _blocked_with(db, viewer.id, [u.id for u in people])
    people = [u for u in people if u.id not in blocked]
    seen = await presence.presence_of(db, people, now)
    out = [
        {
            "id": u.id,
            "nickname": u.nickname,
            "kind": u.kind,
            "online": seen[u.id]["online"],
            "table": seen[u.id]["table"],
        }
        for u in people
    ]
    out.sort(key=lambda p: (not p["online"], p["nickname"].casefold(), p["id"]))
    return out


async def set_presence_hidden(db: AsyncSession, user: User, hidden: bool) -> bool:
    """Hide (or show) ``user``'s online status; committed. Returns the new value."""
    await db.execute(update(User).where(User.id == user.id).values(presence_hidden=bool(hidden)))
    await db.commit()
    user.presence_hidden = bool(hidden)
    return user.presence_hidden
