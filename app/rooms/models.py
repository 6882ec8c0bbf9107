"""Tables of the card room: rooms, seats, games, moves and the deal commitments.

The move log is the truth: a game's state is the replay of its ``moves``
(app/rooms/play.py). ``(game_id, seq)`` is the primary key of ``moves``, so a
stale or repeated move, or a second process racing for move N, fails on insert.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
    text,
    true,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.core.db import Base, utcnow

ROOM_STATUSES = ("open", "playing", "finished")


class Room(Base):
    """A table: a game id and its options, ``status`` open | playing | finished."""

    __tablename__ = "rooms"
    __table_args__ = (
        # A unique index, not a constraint: migration 0008 adds it without a table copy.
        Index("uq_rooms_creation_key", "creation_key", unique=True),
        # One rematch room per finished room (migration 0012).
        Index("uq_rooms_rematch_of", "rematch_of", unique=True),
        # The invitation's code (migration 0017): unique, a code names one room.
        Index("uq_rooms_invite_code", "invite_code", unique=True),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    status: Mapped[str] = mapped_column(String(16), default="open", index=True)
    created_by: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    #: The move clock: seconds a person has for each move (None: no clock).
    clock_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: Timeouts in a row after which a stand-in bot plays for the seat until its person returns.
    max_timeouts: Mapped[int] = mapped_column(Integer, default=2, server_default="2")
    #: Spectators see every hand of a deal once the next deal runs (never a current hand).
    spectators_see_hands: Mapped[bool] = mapped_column(
        Boolean, default=False, server_default=false()
    )
    #: A championship table's match: ``{"kind": "target"}``, ``{"kind": "deals", "deals":
    #: N}`` or ``{"kind": "time", "minutes": M}`` (None: not a championship's, to the
    #: game's target; a table made before 7 December 2026 to the target is None too, and
    #: ``ending.championship_table`` asks the championships). The table says it; the
    #: championship stops the room (app/tournaments/results.py).
    match: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: A rated room's ended matches move its players' ratings (app/records/ratings.py);
    #: a casual one's are only kept in their histories. The lobby's form, the API and
    #: "play now" make rated rooms unless told otherwise; older rooms are casual (0013).
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: False: no chat at this table (a championship switched its tables' chat off; set
    #: when the room is made, app/chat reads it: docs/chat.md).
    chat: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    #: The key a creation request carried (the lobby form's, or the API's ``Idempotency-Key``):
    #: unique, so a double tap or a retried request makes one room, not two.
    creation_key: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: The table does not ask a seat to declare when "no declarations" is all it may declare:
    #: its first card stands for that declaration (docs/server.md "Declarations").
    skip_empty_declaration: Mapped[bool] = mapped_column(
        Boolean, default=True, server_default=true()
    )
    #: The finished room whose rematch this room is (app/rooms/aftermatch.py); unique.
    rematch_of: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: The last time someone was connected to the table (docs/presence.md); a playing
    #: table unseen for ``TAPET_ABANDON_MINUTES`` is ended as abandoned.
    seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: The invitation's code, 6 characters of ``invites.CODE_ALPHABET`` (docs/invitations.md);
    #: None for a room made before 0017 until its share panel is first shown.
    invite_code: Mapped[str | None] = mapped_column(String(8), nullable=True)
    #: Not listed in the lobby, reached only by its link or code (docs/invitations.md).
    private: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: A private room its owner opened to spectators: anyone may watch it by its address.
    spectators_open: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    seats: Mapped[list[Seat]] = relationship(
        back_populates="room", lazy="raise", order_by="Seat.seat", cascade="all, delete-orphan"
    )


class Seat(Base):
    """One chair of a room: empty (no user, no bot), a person (``user_id``) or a bot (``bot``).

    ``stand_in`` marks a bot that plays for the person ``user_id`` in a running game until
    they return: ``away`` when the person left the table, else the person timed out too
    often. Either way the seat is kept for that person: nobody else may take it while the
    game runs. ``timeouts`` counts the person's move-clock timeouts in a row."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("room_id", "user_id", name="uq_seats_room_user"),)

    room_id: Mapped[int] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True
    )
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    stand_in: Mapped[bool] = mapped_column(Boolean, default=False)
    timeouts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    away: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: The room's owner offers this seat (empty, or a bot's) to whoever opens the
    #: invitation; the first to take it clears the offer (docs/invitations.md).
    offered: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    room: Mapped[Room] = relationship(back_populates="seats", lazy="raise")


END_REASONS = ("played", "resigned", "abandoned", "stopped")


class Game(Base):
    """One match played in a room: the ruleset, its options and the first dealer.

    How it ended (migration 0012; all None/[] while it runs): ``end_reason`` one of
    ``END_REASONS`` ("played": the game's own end; "resigned": ``resigned_seat``'s person
    resigned; "abandoned": nobody connected for ``TAPET_ABANDON_MINUTES``; "stopped": a
    championship's limit), ``ended_at``. ``seated``: the seats as the match started, a
    list by seat of ``{"user_id", "bot", "nickname"}``. ``left``: the user ids who left
    mid-match (a stand-in bot took their seat); a dropped connection is not a leave."""

    __tablename__ = "games"
    __table_args__ = {"sqlite_autoincrement": True}

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    dealer: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="playing")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    seated: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, nullable=True)
    end_reason: Mapped[str | None] = mapped_column(String(16), nullable=True)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    resigned_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    left: Mapped[list[int]] = mapped_column(JSON, default=list, server_default=text("'[]'"))


class RematchVote(Base):
    """A seated person's answer to the rematch of the finished room ``room_id``."""

    __tablename__ = "rematch_votes"

    room_id: Mapped[int] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    accept: Mapped[bool] = mapped_column(Boolean)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Move(Base):
    """Action number ``seq`` of a game, as applied; ``actor`` is the seat ("0".."3") or "server"."""

    __tablename__ = "moves"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    actor: Mapped[str] = mapped_column(String(16))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Deal(Base):
    """The commitment of one deal: ``sha256`` = SHA-256 of ``salt`` followed by the deck's
    codes joined by ","; published at once, deck and salt revealed when the deal ends."""

    __tablename__ = "deals"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    deal_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    seq: Mapped[int] = mapped_column(Integer)
    salt: Mapped[str] = mapped_column(String(64))
    deck: Mapped[str] = mapped_column(Text)
    sha256: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class QueueEntry(Base):
    """One person waiting in the quick-play queue of ``game`` (and ``preset``, "" for a game
    without presets) until ``room_id`` is set: the room the match made for them
    (app/rooms/queue.py).

    ``user_id`` is unique: a person is in at most one queue entry. A partner entry is two
    rows with the same ``partner_code`` (``slot`` 0 for the person who made it, 1 for the
    partner who joined with the code; ``(partner_code, slot)`` is unique, so a pair never
    holds a third person); a single person's row has no code. ``wait_seconds``: how long
    the person waits for people before bots fill the empty seats, counted from
    ``joined_at`` (a pair: from the partner's arrival). ``seen_at``: the waiting page's
    last tick; an entry not seen for ``queue.STALE_SECONDS`` is dropped (its person left)."""

    __tablename__ = "queue_entries"
    __table_args__ = (
        UniqueConstraint("user_id", name="uq_queue_entries_user"),
        UniqueConstraint("partner_code", "slot", name="uq_queue_entries_partner_slot"),
        Index("ix_queue_entries_pool", "game", "preset"),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(32))
    preset: Mapped[str] = mapped_column(String(32), default="", server_default="")
    partner_code: Mapped[str | None] = mapped_column(String(16), nullable=True)
    slot: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    wait_seconds: Mapped[int] = mapped_column(Integer, default=30, server_default="30")
    bot: Mapped[str] = mapped_column(String(32), default="heuristic", server_default="heuristic")
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    room_id: Mapped[int | None] = mapped_column(
        ForeignKey("rooms.id", ondelete="SET NULL"), nullable=True
    )
