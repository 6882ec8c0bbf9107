"""Tables of people: ``users`` and their sessions, ``auth_sessions``.

A guest is a user with only a nickname (kind ``"guest"``); an account (kind
``"account"``) also has a unique ``username`` and an argon2 ``password_hash``. A guest
who registers becomes an account under the same id. ``session_version`` is part of
every session token; logging out bumps it, so every older token of the user dies.
A session (``AuthSession``) is one sign-in: its random id is in the token, so it can be
listed, expires, and is revoked alone (migration 0007_auth_sessions).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import Base, utcnow


class User(Base):
    """A person: ``id``, ``nickname`` (1–24 printable characters), ``kind`` ("guest" or
    "account"), ``username`` and ``password_hash`` (accounts only), ``session_version``."""

    __tablename__ = "users"
    __table_args__ = (
        UniqueConstraint("username", name="uq_users_username"),
        Index("uq_users_creation_key", "creation_key", unique=True),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    nickname: Mapped[str] = mapped_column(String(24))
    kind: Mapped[str] = mapped_column(String(16), default="guest")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    username: Mapped[str | None] = mapped_column(String(32), nullable=True)
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)
    session_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: The person hid their player page (/players/{id}): others see "this profile is
    #: private" and the leaderboards leave them out; public by default (migration 0013).
    profile_hidden: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: The last time some worker saw the person (a request or a live socket), written at
    #: most every 30 s per person and worker (app/social/presence.py; migration 0019).
    seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: The person hid their online status: nobody sees them online nor at which table
    #: (issue 18 §5; app/social).
    presence_hidden: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: The one-time key of the form that made this guest (``service.guest_of_form``; None
    #: for the others): the same form sent again is this guest, not "nickname taken"
    #: about their own name (migration 0020).
    creation_key: Mapped[str | None] = mapped_column(String(64), nullable=True)

    @property
    def is_account(self) -> bool:
        """True for a registered account (not a guest)."""
        return self.kind == "account"

    def public(self) -> dict:
        """The JSON shape shown to others: ``{"id", "nickname"}``."""
        return {"id": self.id, "nickname": self.nickname}


class AuthSession(Base):
    """One sign-in of a user: ``id`` (random, in the token), ``user_id``, ``created_at``,
    ``expires_at``, ``revoked_at`` (None while it is live), ``agent`` (the browser's
    User-Agent, cut to 120 characters, to tell sessions apart in the list)."""

    __tablename__ = "auth_sessions"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("users.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    agent: Mapped[str] = mapped_column(String(120), default="", server_default="")
