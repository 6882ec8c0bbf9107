"""Tables of people: ``users``.

A guest is a user with only a nickname (kind ``"guest"``); accounts with a
password and e-mail will add columns here later.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, utcnow


class User(Base):
    """A person: ``id``, ``nickname`` (1–24 printable characters), ``kind`` ("guest")."""

    __tablename__ = "users"
    __table_args__ = {"sqlite_autoincrement": True}

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    nickname: Mapped[str] = mapped_column(String(24))
    kind: Mapped[str] = mapped_column(String(16), default="guest")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    def public(self) -> dict:
        """The JSON shape shown to others: ``{"id", "nickname"}``."""
        return {"id": self.id, "nickname": self.nickname}
