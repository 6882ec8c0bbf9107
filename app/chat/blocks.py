"""Blocks between people (issue 18 §5): the questions other features ask.

A block is one person's choice (``user_blocks``: ``user_id`` blocked ``blocked_id``); the
questions below answer for either direction, since a block keeps both people apart:
no chat from the blocked person reaches the blocker, quick play never seats them at one
table (``app.rooms.queue.AVOID``), and invitations are refused between them.
"""

from __future__ import annotations

from sqlalchemy import and_, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.chat.models import UserBlock


async def blocked_pairs(db: AsyncSession, user_ids: list[int]) -> set[tuple[int, int]]:
    """The unordered pairs ``(low, high)`` among ``user_ids`` where either blocked the
    other (one query; ``[]`` or one person: the empty set)."""
    ids = sorted(set(user_ids))
    if len(ids) < 2:
        return set()
    rows = await db.execute(
        select(UserBlock.user_id, UserBlock.blocked_id).where(
            UserBlock.user_id.in_(ids), UserBlock.blocked_id.in_(ids)
        )
    )
    return {(min(a, b), max(a, b)) for a, b in rows.all() if a != b}


async def is_blocked(db: AsyncSession, a: int, b: int) -> bool:
    """True when ``a`` blocked ``b`` or ``b`` blocked ``a``."""
    found = await db.scalar(
        select(UserBlock.user_id)
        .where(
            or_(
                and_(UserBlock.user_id == a, UserBlock.blocked_id == b),
                and_(UserBlock.user_id == b, UserBlock.blocked_id == a),
            )
        )
        .limit(1)
    )
    return found is not None


async def blocked_by(db: AsyncSession, user_id: int) -> set[int]:
    """The people ``user_id`` blocked."""
    return set(await db.scalars(select(UserBlock.blocked_id).where(UserBlock.user_id == user_id)))
