"""Tables of the chat: messages, reports, mutes and blocks (migration 0018_chat).

* ``chat_messages``: one row per message or quick reaction, stored with its room and the
  match (``game_id``) it was said during; ``(user_id, client_id)`` unique, so a double
  tap of "Send" stores one row. ``channel`` is ``table`` (the seated players) or
  ``spectators``; a hidden message keeps its row (``hidden_at``, ``hidden_by``).
* ``chat_reports``: a person's report of a message for the site's admins,
  ``(message_id, user_id)`` unique (one report per person per message).
* ``chat_mutes``: ``user_id`` does not see ``muted_id``'s messages (for that user only).
* ``user_blocks``: ``user_id`` blocked ``blocked_id``: no chat from them, never seated
  together by quick play, no invitations (app/chat/blocks.py).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import Base, utcnow

CHANNELS = ("table", "spectators")


class ChatMessage(Base):
    """A message (``text``) or a quick reaction (``reaction``: its key) in a room."""

    __tablename__ = "chat_messages"
    __table_args__ = (
        UniqueConstraint("user_id", "client_id", name="uq_chat_messages_client"),
        Index("ix_chat_messages_room_id_id", "room_id", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    game_id: Mapped[int | None] = mapped_column(
        ForeignKey("games.id", ondelete="SET NULL"), nullable=True, index=True
    )
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    channel: Mapped[str] = mapped_column(String(16))
    text: Mapped[str | None] = mapped_column(String(400), nullable=True)
    reaction: Mapped[str | None] = mapped_column(String(32), nullable=True)
    client_id: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    hidden_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    hidden_by: Mapped[int | None] = mapped_column(Integer, nullable=True)


class ChatReport(Base):
    """A report of a message, for the site's admins (who and why)."""

    __tablename__ = "chat_reports"
    __table_args__ = (UniqueConstraint("message_id", "user_id", name="uq_chat_reports_once"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    message_id: Mapped[int] = mapped_column(
        ForeignKey("chat_messages.id", ondelete="CASCADE"), index=True
    )
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    reason: Mapped[str] = mapped_column(String(400), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatMute(Base):
    """``user_id`` muted ``muted_id`` (hidden for ``user_id`` only)."""

    __tablename__ = "chat_mutes"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    muted_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class UserBlock(Base):
    """``user_id`` blocked ``blocked_id``."""

    __tablename__ = "user_blocks"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    blocked_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
