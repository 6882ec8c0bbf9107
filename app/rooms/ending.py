"""The one end of a match: every path that finishes a match goes through here.

A match ends when the rules say so (``play.commit`` / ``server_moves`` after the last
move: "played"), when a championship stops it between deals (``service.end_match``:
"stopped"), when a seated person resigns ("resigned", ``resigned_seat``) or when nobody
has been connected to the table for ``TAPET_ABANDON_MINUTES`` ("abandoned";
docs/presence.md). ``mark_ended`` writes room and game finished with the reason and the
time in the caller's transaction, once (a game already ended is left as it is), and
``announce`` tells the match-end listeners (app/core/hooks.py) after the commit.
``end`` is both, for a path that writes nothing else.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app import realtime
from app.accounts.models import User
from app.core.db import utcnow
from app.core.hooks import HOOKS
from app.rooms.models import END_REASONS, Game, RematchVote, Room, Seat


async def mark_ended(
    db: AsyncSession,
    room_id: int,
    game_id: int,
    reason: str,
    resigned_seat: int | None = None,
    at: datetime | None = None,
) -> bool:
    """In the caller's transaction (not committed here): game ``game_id`` and room
    ``room_id`` become "finished", the game with ``end_reason`` = ``reason`` (one of
    ``END_REASONS``), ``ended_at`` and, for "resigned", ``resigned_seat``. Only a game
    not ended yet is changed (a race between two ends keeps the first). Returns True
    when this call ended it. Raises ValueError for an unknown reason."""
    if reason not in END_REASONS:
        raise ValueError(f"unknown end reason {reason!r}")
    values: dict[str, Any] = {
        "status": "finished",
        "end_reason": reason,
        "ended_at": at or utcnow(),
    }
    if reason == "resigned":
        values["resigned_seat"] = resigned_seat
    done = await db.execute(
        update(Game).where(Game.id == game_id, Game.end_reason.is_(None)).values(**values)
    )
    await db.execute(
        update(Room).where(Room.id == room_id, Room.status != "finished").values(status="finished")
    )
    return bool(done.rowcount)  # type: ignore[attr-defined]  # a DML statement's Result is a CursorResult


async def announce(db: AsyncSession, game_id: int) -> None:
    """After the commit that ended ``game_id``: call the match-end listeners (their
    errors are logged, never raised: ``Hooks.match_ended``)."""
    await HOOKS.match_ended(db, game_id)


async def end(
    db: AsyncSession,
    room_id: int,
    game_id: int,
    reason: str,
    seq: int,
    resigned_seat: int | None = None,
) -> bool:
    """``mark_ended``, commit, publish the room's change (the table at ``seq``, its
    state's) and ``announce``: a match ended by no move (stopped, resigned, abandoned).
    Returns True when this call ended it (a second call changes nothing and announces
    nothing)."""
    ended = await mark_ended(db, room_id, game_id, reason, resigned_seat)
    await db.commit()
    if ended:
        await realtime.current().publish(room_id, seq)
        await announce(db, game_id)
    return ended


async def seated_of(db: AsyncSession, seats: list[Seat]) -> list[dict[str, Any]]:
    """``games.seated`` for ``seats`` (a room's seats as the match starts): by seat,
    ``{"user_id", "bot", "nickname"}``; a bot's nickname is its name ("heuristic bot")."""
    ids = sorted({s.user_id for s in seats if s.user_id is not None})
    names: dict[int, str] = {}
    if ids:
        rows = await db.execute(select(User.id, User.nickname).where(User.id.in_(ids)))
        names = {uid: nick for uid, nick in rows}
    out: list[dict[str, Any]] = []
    for s in sorted(seats, key=lambda s: s.seat):
        if s.user_id is not None:
            out.append({"user_id": s.user_id, "bot": None, "nickname": names.get(s.user_id, "?")})
        else:
            out.append({"user_id": None, "bot": s.bot, "nickname": f"{s.bot} bot"})
    return out


async def championship_table(db: AsyncSession, room: Any) -> bool:
    """True when ``room`` (a ``Room`` or ``snapshot.RoomData``) is a championship's table:
    a match to a limit (``match``), or a room some labeller names (``HOOKS.room_labels``:
    the championships register theirs), so that a table to the target is one too."""
    return room.match is not None or bool(await HOOKS.room_labels(db, [room.id]))


async def end_info(db: AsyncSession, room: Any, game_id: int | None) -> dict[str, Any] | None:
    """How the finished match of ``room`` (a ``Room`` or ``snapshot.RoomData`` with its
    seats) ended, for its view (None while it runs or before the start):
    ``{"reason", "resigned_seat", "rematch"}``. ``rematch`` (None for a championship's
    table, whose match is not the players' to repeat) is ``{"room": the rematch room's id
    or None, "seats": {seat: "accepted" | "declined" | "waiting" | "bot"}}``: a bot seat
    (and a seat whose person left, which a bot takes in the rematch) accepts at once.
    Three small statements, read as columns (never a stale object of the session)."""
    if room.status != "finished" or game_id is None:
        return None
    row = (
        await db.execute(select(Game.end_reason, Game.resigned_seat).where(Game.id == game_id))
    ).first()
    if row is None:
        return None
    info: dict[str, Any] = {"reason": row[0] or "played", "resigned_seat": row[1], "rematch": None}
    if await championship_table(db, room):
        return info
    votes = {
        uid: accept
        for uid, accept in await db.execute(
            select(RematchVote.user_id, RematchVote.accept).where(RematchVote.room_id == room.id)
        )
    }
    seats: dict[int, str] = {}
    for s in room.seats:
        if s.user_id is None or s.away:
            seats[s.seat] = "bot"
        elif s.user_id in votes:
            seats[s.seat] = "accepted" if votes[s.user_id] else "declined"
        else:
            seats[s.seat] = "waiting"
    new_room = await db.scalar(select(Room.id).where(Room.rematch_of == room.id))
    info["rematch"] = {"room": new_room, "seats": seats}
    return info
