"""The table of follows: ``follows`` (migration 0019_social).

One row per (follower, followed) pair: the primary key makes following idempotent (a
double tap, or twenty requests at once, leave one row). Both ids are ``users.id``, so a
guest who follows and then registers keeps their follows (same id).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import Base, utcnow


class Follow(Base):
    """``follower_id`` follows ``followed_id`` since ``created_at``."""

    __tablename__ = "follows"

    follower_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    followed_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
