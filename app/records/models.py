"""Tables of what is made of an ended match: ``match_players`` and ``ratings`` (migration 0013).

``match_players`` is one row per seat of an ended match, written once by the match-end
listener (app/records/ratings.py): ``(game_id, seat)`` is unique, so a listener called
twice (a race, a takeover) inserts nothing the second time. ``ratings`` is the current
rating of a person in one game id, ``(user_id, game)`` unique. Both are rebuilt exactly
from the stored matches by ``tapet ratings rebuild`` (docs/ratings.md).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import Base, utcnow

RESULTS = ("win", "loss", "draw")


class MatchPlayer(Base):
    """One seat of an ended match.

    ``user_id`` (a person) or ``bot`` (a bot level, ``bot_version`` the anchor's version it
    was rated against) as the seat was at the start (``games.seated``); ``nickname`` as it
    was then. ``side`` is the team (seat % 2 in a four-seat game; the seat itself where
    each plays for himself). ``result`` is "win", "loss", "draw", or None when the match
    has no result for this seat (abandoned, stopped mid-deal). ``counted_loss``: the person
    left or resigned (a loss in a rated match whatever the score). ``points`` is the side's
    match score at the end, ``deals`` the finished deals. ``rated``: the match moved this
    person's rating; ``mu/sigma/ordinal`` before and after it (None when not rated; a bot's
    are its fixed anchor, equal before and after)."""

    __tablename__ = "match_players"
    __table_args__ = (
        UniqueConstraint("game_id", "seat", name="uq_match_players_game_seat"),
        Index("ix_match_players_user", "user_id", "ended_at"),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    game: Mapped[str] = mapped_column(String(32))
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True
    )
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    bot_version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    nickname: Mapped[str] = mapped_column(String(32), default="")
    side: Mapped[int] = mapped_column(Integer)
    result: Mapped[str | None] = mapped_column(String(8), nullable=True)
    counted_loss: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    points: Mapped[int] = mapped_column(Integer, default=0)
    deals: Mapped[int] = mapped_column(Integer, default=0)
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    mu_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    sigma_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    ordinal_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    mu_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    sigma_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    ordinal_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    end_reason: Mapped[str | None] = mapped_column(String(16), nullable=True)
    ended_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Rating(Base):
    """A person's rating in one game id: openskill's ``mu`` and ``sigma`` (the shown rating
    is the ordinal mu − 3·sigma), ``matches`` and ``wins`` among rated matches, ``updated``."""

    __tablename__ = "ratings"
    __table_args__ = (
        UniqueConstraint("user_id", "game", name="uq_ratings_user_game"),
        Index("ix_ratings_game", "game"),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(32))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    wins: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
