"""Tables of the championships: clubs, tournaments, organisers, teams, rounds, tables,
paper deals and the audit trail of corrections.

A tournament's ``settings`` JSON holds its format details and rules (see
``app/tournaments/rules.py``: ``format``, ``return_leg``, ``rounds``, ``groups``,
``advance``, ``match``, ``points``, ``tiebreaks``). A table (``TournamentTable``)
is one match of a round: two teams (or one, a bye), played ``online`` in a room of
app/rooms or on ``paper`` in a café; its result is ``home_score``/``away_score``
and ``winner_id`` (None for a draw).
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
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import Base, utcnow

CLUB_KINDS = ("falla", "penya", "society", "club")
FORMATS = ("round_robin", "swiss", "knockout", "groups_knockout")
TOURNAMENT_STATUSES = ("registration", "running", "finished")
ROUND_STATUSES = ("draft", "published", "closed")
TABLE_MODES = ("online", "paper", "bye")
TABLE_STATUSES = ("pending", "playing", "done", "void")

_TZ = DateTime(timezone=True)
_USER = "users.id"


class Club(Base):
    """A falla, penya, society or club of a town, which fields teams."""

    __tablename__ = "clubs"
    __table_args__ = (
        UniqueConstraint("name", "town", name="uq_clubs_name_town"),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(80))
    kind: Mapped[str] = mapped_column(String(16), default="club")
    town: Mapped[str] = mapped_column(String(80), default="")
    created_by: Mapped[int | None] = mapped_column(
        ForeignKey(_USER, ondelete="SET NULL"), nullable=True
    )
    created_at: Mapped[datetime] = mapped_column(_TZ, default=utcnow)


class Tournament(Base):
    """A championship: a game with its options, a format and its settings, a status
    (registration | running | finished)."""

    __tablename__ = "tournaments"
    __table_args__ = {"sqlite_autoincrement": True}

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(120))
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    format: Mapped[str] = mapped_column(String(24))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    status: Mapped[str] = mapped_column(String(16), default="registration", index=True)
    venue: Mapped[str] = mapped_column(String(120), default="")
    created_by: Mapped[int | None] = mapped_column(
        ForeignKey(_USER, ondelete="SET NULL"), nullable=True
    )
    created_at: Mapped[datetime] = mapped_column(_TZ, default=utcnow)


class Organiser(Base):
    """A user who may change a tournament: its creator (``owner``) or a co-organiser (``co``)."""

    __tablename__ = "tournament_organisers"

    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(ForeignKey(_USER, ondelete="CASCADE"), primary_key=True)
    role: Mapped[str] = mapped_column(String(8), default="co")
    added_at: Mapped[datetime] = mapped_column(_TZ, default=utcnow)


class Team(Base):
    """A fixed pair (one player in a two-player game) entered in a tournament for a club.

    Players are names (paper play) and, when they have one, their user account
    (``user1_id``/``user2_id``, needed to sit at an online table); ``bot`` makes it a
    team of bots at online tables. ``seed`` is the registration order (1 first).
    ``name_key`` is the name casefolded (``team_name_key``): unique in the tournament,
    so two teams never share a name however the letters are written."""

    __tablename__ = "teams"
    __table_args__ = (
        Index("uq_teams_tournament_name_key", "tournament_id", "name_key", unique=True),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    club_id: Mapped[int | None] = mapped_column(
        ForeignKey("clubs.id", ondelete="SET NULL"), nullable=True
    )
    name: Mapped[str] = mapped_column(String(80))
    name_key: Mapped[str] = mapped_column(String(80))
    player1: Mapped[str] = mapped_column(String(40), default="")
    player2: Mapped[str] = mapped_column(String(40), default="")
    user1_id: Mapped[int | None] = mapped_column(
        ForeignKey(_USER, ondelete="SET NULL"), nullable=True
    )
    user2_id: Mapped[int | None] = mapped_column(
        ForeignKey(_USER, ondelete="SET NULL"), nullable=True
    )
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    seed: Mapped[int] = mapped_column(Integer, default=0)
    group_no: Mapped[int | None] = mapped_column(Integer, nullable=True)
    status: Mapped[str] = mapped_column(String(16), default="active")
    late: Mapped[bool] = mapped_column(Boolean, default=False)
    withdrawn_after: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(_TZ, default=utcnow)


def team_name_key(name: str) -> str:
    """A team's name as compared for uniqueness: casefolded ("Els Cantons" = "ELS CANTONS")."""
    return name.casefold()[:80]


class TeamPlayer(Base):
    """An account playing in a tournament, and its team: one team per player per
    tournament (the primary key), so two registrations racing cannot both enter them."""

    __tablename__ = "tournament_players"

    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(ForeignKey(_USER, ondelete="CASCADE"), primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"), index=True)


#: A player's request to enter a team: ``pending`` until an organiser decides
#: (``approved`` or ``declined``) or the requester (or the partner named) ``withdrawn`` it.
REQUEST_STATUSES = ("pending", "approved", "declined", "withdrawn")
_OPEN_REQUEST = text("status = 'pending'")


class TeamRequest(Base):
    """A team a player asks to enter (docs/tournaments.md "Players register their
    teams"): its name, club and the partner's account (None in a game of one player a
    team). ``reason`` is an organiser's decline reason, shown to the requester and the
    organisers only; ``team_id`` the team an approval entered. One open (``pending``)
    request per requester and per partner in a tournament: two partial unique indexes,
    so twenty copies racing leave one request."""

    __tablename__ = "team_requests"
    __table_args__ = (
        Index(
            "uq_team_requests_open_user",
            "tournament_id",
            "user_id",
            unique=True,
            sqlite_where=_OPEN_REQUEST,
            postgresql_where=_OPEN_REQUEST,
        ),
        Index(
            "uq_team_requests_open_partner",
            "tournament_id",
            "partner_id",
            unique=True,
            sqlite_where=_OPEN_REQUEST,
            postgresql_where=_OPEN_REQUEST,
        ),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    user_id: Mapped[int] = mapped_column(ForeignKey(_USER, ondelete="CASCADE"))
    partner_id: Mapped[int | None] = mapped_column(
        ForeignKey(_USER, ondelete="CASCADE"), nullable=True
    )
    name: Mapped[str] = mapped_column(String(80))
    club_id: Mapped[int | None] = mapped_column(
        ForeignKey("clubs.id", ondelete="SET NULL"), nullable=True
    )
    status: Mapped[str] = mapped_column(String(16), default="pending")
    reason: Mapped[str] = mapped_column(Text, default="")
    team_id: Mapped[int | None] = mapped_column(
        ForeignKey("teams.id", ondelete="SET NULL"), nullable=True
    )
    created_at: Mapped[datetime] = mapped_column(_TZ, default=utcnow)
    decided_at: Mapped[datetime | None] = mapped_column(_TZ, nullable=True)
    decided_by: Mapped[int | None] = mapped_column(
        ForeignKey(_USER, ondelete="SET NULL"), nullable=True
    )


class Round(Base):
    """Round ``number`` of a tournament: ``draft`` (a preview only the organisers see),
    ``published`` (tables in play), ``closed``. ``stage`` is "league", "group" or
    "knockout"."""

    __tablename__ = "tournament_rounds"
    __table_args__ = (
        UniqueConstraint("tournament_id", "number", name="uq_rounds_tournament_number"),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    number: Mapped[int] = mapped_column(Integer)
    stage: Mapped[str] = mapped_column(String(16), default="league")
    status: Mapped[str] = mapped_column(String(16), default="draft")
    published_at: Mapped[datetime | None] = mapped_column(_TZ, nullable=True)
    closed_at: Mapped[datetime | None] = mapped_column(_TZ, nullable=True)


class TournamentTable(Base):
    """Table ``number`` of a round: ``home`` against ``away`` (None: a bye), and
    ``third`` at a table of three players each for himself (seats 0, 1, 2), played
    ``online`` (``room_id``) or on ``paper``. ``status`` pending | playing | done |
    void (a removed match of a withdrawn team)."""

    __tablename__ = "tournament_tables"
    __table_args__ = (
        UniqueConstraint("round_id", "number", name="uq_tables_round_number"),
        Index("uq_tournament_tables_room_id", "room_id", unique=True),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    round_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_rounds.id", ondelete="CASCADE"), index=True
    )
    number: Mapped[int] = mapped_column(Integer)
    home_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    away_id: Mapped[int | None] = mapped_column(
        ForeignKey("teams.id", ondelete="CASCADE"), nullable=True
    )
    #: the third player of a table of three (a game each for himself: Belote for three);
    #: None at a table of two sides (migration 0011: no ON DELETE, which SQLite would not
    #: report for a column added by ALTER; a team goes only with its tournament)
    third_id: Mapped[int | None] = mapped_column(ForeignKey("teams.id"), nullable=True)
    mode: Mapped[str] = mapped_column(String(8), default="paper")
    #: one room per table (unique): a publish sent twice never seats a team at two rooms
    room_id: Mapped[int | None] = mapped_column(
        ForeignKey("rooms.id", ondelete="SET NULL"), nullable=True
    )
    status: Mapped[str] = mapped_column(String(16), default="pending")
    home_score: Mapped[int | None] = mapped_column(Integer, nullable=True)
    away_score: Mapped[int | None] = mapped_column(Integer, nullable=True)
    third_score: Mapped[int | None] = mapped_column(Integer, nullable=True)
    winner_id: Mapped[int | None] = mapped_column(
        ForeignKey("teams.id", ondelete="SET NULL"), nullable=True
    )
    forfeit: Mapped[bool] = mapped_column(Boolean, default=False)
    started_at: Mapped[datetime | None] = mapped_column(_TZ, nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(_TZ, nullable=True)


class PaperDeal(Base):
    """Deal ``deal_no`` of a paper table as entered from the score sheet: the summary
    and the points ``score_deal`` gave each team (home first; ``third_points`` the
    third player's at a table of three, None otherwise)."""

    __tablename__ = "tournament_deals"

    table_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_tables.id", ondelete="CASCADE"), primary_key=True
    )
    deal_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    summary: Mapped[dict[str, Any]] = mapped_column(JSON)
    home_points: Mapped[int] = mapped_column(Integer)
    away_points: Mapped[int] = mapped_column(Integer)
    third_points: Mapped[int | None] = mapped_column(Integer, nullable=True)
    entered_by: Mapped[int | None] = mapped_column(
        ForeignKey(_USER, ondelete="SET NULL"), nullable=True
    )
    entered_at: Mapped[datetime] = mapped_column(_TZ, default=utcnow)


class RequestKey(Base):
    """The key of a state-changing request (a form's one-time ``creation_key``, the API's
    ``Idempotency-Key``), one person's, stored in the transaction of the change it made:
    the same request sent again (a double tap, a retry, twenty at once) gets
    ``outcome``, the first one's answer, and changes nothing (``service.once``)."""

    __tablename__ = "tournament_requests"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey(_USER, ondelete="CASCADE"))
    action: Mapped[str] = mapped_column(String(32))
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(_TZ, default=utcnow)


class AuditEntry(Base):
    """One change made by an organiser: who, when, what (``action`` on ``subject``,
    ``before`` and ``after``) and why."""

    __tablename__ = "tournament_audit"
    __table_args__ = {"sqlite_autoincrement": True}

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey(_USER, ondelete="SET NULL"), nullable=True
    )
    at: Mapped[datetime] = mapped_column(_TZ, default=utcnow)
    action: Mapped[str] = mapped_column(String(32))
    subject: Mapped[str] = mapped_column(String(80), default="")
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    reason: Mapped[str] = mapped_column(Text, default="")
