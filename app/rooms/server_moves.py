"""What the server itself does at a table: deal, answer for bots and stand-ins, and play
for a person whose move clock ran out (app/rooms/clock.py). The server never declares
for anyone: every seat makes its own declaration (docs/server.md "Declarations").

The bot runner (app/rooms/runner.py) asks ``next_server_move`` what is due and
when, waits outside any transaction, then calls ``server_move``, which applies it
through the same path as a person's move: the ``seq`` must still be the table's,
and the insert of move ``seq`` is the lock, so two processes never both apply it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import anyio
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app import rules
from app.core.db import utcnow
from app.core.errors import Conflict, NotFound, Unprocessable
from app.core.hooks import HOOKS
from app.rooms import botplay, clock, ending, play, service, snapshot
from app.rooms.models import Game, Room, Seat


@dataclass(frozen=True, slots=True)
class ServerMove:
    """A move the server owes a table: ``kind`` "deal", "bot" or "clock" (a person's
    time ran out: the heuristic bot plays for them),
    due at ``not_before``, valid while the table is at ``seq``. For a bot or a clock,
    ``view`` is ``observe(state, seat)`` of that seat: all the bot may see; ``user_id``
    is the person a clock move plays for."""

    kind: str
    room_id: int
    game_id: int
    seq: int
    not_before: datetime
    seat: int | None = None
    bot: str | None = None
    view: rules.View | None = None
    user_id: int | None = None


async def playing_room_ids(db: AsyncSession) -> list[int]:
    """The rooms whose game is running."""
    return list((await db.scalars(select(Room.id).where(Room.status == "playing"))).all())


async def _game(db: AsyncSession, room_id: int) -> Game | None:
    return await db.scalar(
        select(Game).where(Game.room_id == room_id).order_by(Game.id.desc()).limit(1)
    )


async def next_server_move(
    db: AsyncSession, room_id: int, bot_delay: float, deal_pause: float
) -> ServerMove | None:
    """What the server must do next at ``room_id``, or None (a person is to act, or the
    room is not playing). A new deal is due ``deal_pause`` seconds after the last move
    of the previous deal; a bot's move ``bot_delay`` seconds after the move before it; a
    clock move at the person's deadline (the last move's stored time plus the clock).
    A match over by its last move but not marked (a crash between) is ended here."""
    try:
        room = await snapshot.load_room(db, room_id)  # with its seats, in one statement
    except NotFound:
        return None
    if room.status != "playing":
        return None
    game = await _game(db, room_id)
    if game is None:
        return None
    loaded = await play.load(db, game)
    if rules.is_over(loaded.state):  # ended by the last move, not marked yet (a crash between)
        await ending.end(db, room_id, game.id, "played", loaded.state.seq)
        return None
    return due(room, list(room.seats), game.id, loaded, bot_delay, deal_pause)


def due_of(snap: snapshot.Snapshot, bot_delay: float, deal_pause: float) -> ServerMove | None:
    """``next_server_move`` judged on a room kept in memory (app/rooms/live.py), with no
    read; None also for a match over but not marked (the runner's sweep reads it)."""
    if snap.room.status != "playing" or snap.loaded is None or snap.game_id is None:
        return None
    if rules.is_over(snap.loaded.state):
        return None
    return due(snap.room, list(snap.room.seats), snap.game_id, snap.loaded, bot_delay, deal_pause)


def due(
    room: Any,
    seats: list[Any],
    game_id: int,
    loaded: play.Loaded,
    bot_delay: float,
    deal_pause: float,
) -> ServerMove | None:
    """What is due at a playing ``room`` (a Room or ``snapshot.RoomData``) with ``seats``
    in the game ``game_id`` at ``loaded`` (``next_server_move``'s rules). Pure."""
    room_id = room.id
    state, now = loaded.state, utcnow()
    last = loaded.last_at or now
    if rules.needs_deal(state):
        due_at = last + timedelta(seconds=deal_pause) if state.seq > 0 else now
        return ServerMove("deal", room_id, game_id, state.seq, due_at)
    seat = rules.to_act(state)
    if seat is None:
        return None
    chair = next((s for s in seats if s.seat == seat), None)
    if chair is None:
        return None
    if clock.is_bot_seat(chair):
        return ServerMove(
            "bot",
            room_id,
            game_id,
            state.seq,
            last + timedelta(seconds=bot_delay),
            seat=seat,
            bot=chair.bot,
            view=rules.observe(state, seat),
        )
    running = clock.deadline(room, seats, loaded)
    if running is None:
        return None
    return ServerMove(
        "clock",
        room_id,
        game_id,
        state.seq,
        running[1],
        seat=seat,
        bot=clock.STAND_IN_BOT,
        view=rules.observe(state, seat),
        user_id=chair.user_id,
    )


async def _stand_in_card(state: rules.State, declare: rules.Action, seat: int) -> rules.Action:
    """The stand-in bot's first card after ``declare`` (chosen in a worker thread)."""
    after = rules.apply(state, declare)
    view = rules.observe(after, seat)
    return await anyio.to_thread.run_sync(botplay.choose, clock.STAND_IN_BOT, view, random.Random())


async def server_move(
    db: AsyncSession, move: ServerMove, action: rules.Action | None = None
) -> bool:
    """Apply ``move`` (for a bot, its chosen ``action``) if the table is still where it
    was. Returns True if it was applied, False if the table moved on meanwhile."""
    game = await db.get(Game, move.game_id)
    room = await db.get(Room, move.room_id, populate_existing=True)
    if game is None or room is None or room.status != "playing":
        return False
    loaded = await play.load(db, game)
    if loaded.state.seq != move.seq:
        return False
    try:
        if move.kind == "deal":
            if not rules.needs_deal(loaded.state):
                return False
            # a championship may stop the match here (app/core/hooks.py)
            if not await HOOKS.may_deal(db, room.id, len(loaded.state.sheet)):
                await service.end_match(db, room.id)
                return True
            await play.deal(db, room.id, game, loaded)
        elif move.kind == "clock":
            chair = await db.get(Seat, (room.id, move.seat), populate_existing=True)
            if chair is None or chair.user_id != move.user_id or not clock.is_person_seat(chair):
                return False  # the person left or is already stood in for
            if rules.to_act(loaded.state) != move.seat:
                return False
            running = clock.deadline(room, [chair], loaded)
            if running is None or running[1] > utcnow():
                return False
            legal = [play.canonical(loaded.state, action)]
            if legal[0].get("type") == "declare":
                assert move.seat is not None  # it is to act (above)
                # One timeout is one move of the person's: the declaration and the card.
                legal.append(await _stand_in_card(loaded.state, legal[0], move.seat))
            timeout = (
                update(Seat)
                .where(
                    Seat.room_id == room.id, Seat.seat == move.seat, Seat.user_id == move.user_id
                )
                .values(**clock.timeout_values(chair, room.max_timeouts))
            )
            await play.commit(db, room.id, game, loaded, legal, str(move.seat), extra=[timeout])
        else:
            chair = await db.get(Seat, (room.id, move.seat), populate_existing=True)
            if chair is None or chair.bot != move.bot or not clock.is_bot_seat(chair):
                return False  # a person took the seat back meanwhile
            if rules.to_act(loaded.state) != move.seat:
                return False
            canonical = play.canonical(loaded.state, action)
            await play.commit(db, room.id, game, loaded, canonical, str(move.seat))
    except Conflict:
        return False
    except Unprocessable:
        return False
    return True
