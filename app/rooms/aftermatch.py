"""After the match, and leaving it early: rematch, resign, leave (issue 17 §3).

* **Rematch** (``vote_rematch``): on a finished table (not a championship's), every
  person still seated answers; a bot seat, and a seat whose person left during the
  match (its stand-in bot keeps it), accepts at once. When every person has accepted, a
  new room starts at once with the same seats and every column of the old room copied
  (its options, clock, ``rated``... ``COPIED_NOT`` lists the few that are the room's
  own), and its first dealer is the seat after the old match's first dealer (the deal
  passes on: every game's rules give the deal to the next seat, rules/*.md "Dealer").
  ``rooms.rematch_of`` is unique, so a double tap or two last acceptances at once make
  one room; the old room's view links to it (``view["ended"]["rematch"]["room"]``) and
  every page of the old room is sent there.
* **Resign** (``resign``): the match ends at once, ``end_reason`` "resigned" and
  ``resigned_seat``: that seat's side has lost (its pair in a pair game, the person
  alone in belote-2p/belote-3p).
* **Leave** (``service.leave_seat`` in a running match): a stand-in bot takes the seat
  and the match goes on; the person is recorded in ``games.left`` (a loss for a rated
  match, issue 17 §6); a dropped connection is not a leave.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import inspect, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app import realtime, rules
from app.accounts.models import User
from app.core.db import utcnow
from app.core.errors import Conflict, Forbidden, Unprocessable
from app.rooms import clock, ending, play, snapshot
from app.rooms.models import Game, RematchVote, Room, Seat

#: Room columns that are the room's own, not its options: never copied to a rematch.
COPIED_NOT = frozenset(
    # invite_code: unique, the rematch gets its own (private and spectators_open carry over)
    {"id", "status", "created_at", "creation_key", "rematch_of", "seen_at", "match", "invite_code"}
)


async def _publish(db: AsyncSession, room_id: int) -> None:
    game = await snapshot.latest_game(db, room_id)
    seq = (await play.load(db, game)).state.seq if game is not None else 0
    await realtime.current().publish(room_id, seq)


def _person_seat(room: Room, user: User) -> Seat:
    chair = next((s for s in room.seats if s.user_id == user.id), None)
    if chair is None:
        raise Forbidden("you do not hold a seat at this table", "no_seat_here")
    return chair


# ---------------------------------------------------------------- resign


async def resign(db: AsyncSession, room_id: int, user: User) -> dict[str, Any]:
    """``user`` resigns the running match of ``room_id``: it ends at once
    (``end_reason`` "resigned", ``resigned_seat`` their seat; their side lost). Returns
    ``{"room_id", "resigned_seat"}``. A second resignation of the same person (a double
    tap) returns the same. Raises NotFound; Forbidden when ``user`` holds no seat here
    (a spectator) or left it (``left_match``: a bot plays their seat); Conflict when the
    match is not being played (not started, or ended otherwise)."""
    room = await snapshot.load_room(db, room_id)
    chair = _person_seat(room, user)
    game = await snapshot.latest_game(db, room.id)
    if game is None or room.status == "open":
        raise Conflict("the game has not started", "game_not_started")
    if room.status == "finished":
        return _resigned_or_over(
            await db.execute(select(Game.end_reason, Game.resigned_seat).where(Game.id == game.id)),
            room.id,
            chair.seat,
        )
    if chair.away:  # they left: a bot plays for their partner now, who is not theirs to end
        raise Forbidden("you left this match: a bot holds your seat", "left_match")
    seq = (await play.load(db, game)).state.seq
    if not await ending.end(db, room.id, game.id, "resigned", seq, resigned_seat=chair.seat):
        return _resigned_or_over(
            await db.execute(select(Game.end_reason, Game.resigned_seat).where(Game.id == game.id)),
            room.id,
            chair.seat,
        )
    return {"room_id": room.id, "resigned_seat": chair.seat}


def _resigned_or_over(result: Any, room_id: int, seat: int) -> dict[str, Any]:
    row = result.first()
    if row is not None and row[0] == "resigned" and row[1] == seat:
        return {"room_id": room_id, "resigned_seat": seat}
    raise Conflict("the game is over", "game_over")


def losing_seats(game: str, resigned_seat: int) -> list[int]:
    """The seats that lost by ``resigned_seat``'s resignation: its side's (its pair in a
    pair game, itself alone where every player is a side). Raises KeyError for an
    unknown game."""
    ruleset = rules.GAMES[game]
    side = ruleset.team_of(resigned_seat)
    return [s for s in range(ruleset.players) if ruleset.team_of(s) == side]


# ---------------------------------------------------------------- leave


def leave_statement(game_id: int, left: list[int], user_id: int) -> Any:
    """The update that adds ``user_id`` to ``games.left`` (read as ``left``, under the
    game row's lock), or None when it is there already."""
    if user_id in left:
        return None
    return update(Game).where(Game.id == game_id).values(left=[*left, user_id])


async def record_leave(db: AsyncSession, room_id: int, user_id: int) -> None:
    """In the caller's transaction: add ``user_id`` to ``games.left`` of the room's
    running game (once; the row is locked on PostgreSQL so two leaves at once keep
    both)."""
    game_id = await db.scalar(
        select(Game.id).where(Game.room_id == room_id).order_by(Game.id.desc()).limit(1)
    )
    if game_id is None:
        return
    left = await db.scalar(select(Game.left).where(Game.id == game_id).with_for_update())
    stmt = leave_statement(game_id, list(left or []), user_id)
    if stmt is not None:
        await db.execute(stmt)


# ---------------------------------------------------------------- rematch


async def vote_rematch(
    db: AsyncSession, room_id: int, user: User, accept: bool = True
) -> dict[str, Any]:
    """``user`` accepts (or declines) the rematch of the finished room ``room_id``.

    Returns the rematch state ``{"room": new room id or None, "seats": {seat: "accepted"
    | "declined" | "waiting" | "bot"}}`` (``ending.end_info``). When this answer is the
    last acceptance the new room is made and started (module docstring); its answer
    names it. Answering again changes the answer (until the rematch has started: then
    nothing changes). Raises NotFound; Forbidden when ``user`` holds no seat there (or
    left the match); Conflict when the match is not finished; Unprocessable for a
    championship's table."""
    room = await snapshot.load_room(db, room_id)
    chair = _person_seat(room, user)
    if room.status != "finished":
        raise Conflict("the match is not over", "match_not_over")
    if await ending.championship_table(db, room):
        raise Unprocessable("a championship's table has no rematch", "championship_rematch")
    if chair.away:
        raise Forbidden("you left this match: a bot holds your seat", "left_match")
    game = await snapshot.latest_game(db, room.id)
    if game is None:  # pragma: no cover - a finished room has its game
        raise Conflict("the match is not over", "match_not_over")
    game_id = game.id
    started = await db.scalar(select(Room.id).where(Room.rematch_of == room_id))
    if started is None:
        await _answer(db, room_id, user.id, accept)
        await db.commit()
        info = await ending.end_info(db, room, game_id)
        assert info is not None and info["rematch"] is not None
        if _all_accepted(info):
            await _start_rematch(db, room, game)
        await _publish(db, room_id)
        room = await snapshot.load_room(db, room_id)  # a lost race rolled the session back
    info = await ending.end_info(db, room, game_id)
    assert info is not None and info["rematch"] is not None
    if info["rematch"]["room"] is None and _all_accepted(info):
        # every answer is in, but another request's room is not committed yet: waiting on
        # the unique rematch_of gives its id, so that every answer names the room
        game = await snapshot.latest_game(db, room_id)
        assert game is not None
        await _start_rematch(db, room, game)
        room = await snapshot.load_room(db, room_id)
        info = await ending.end_info(db, room, game_id)
        assert info is not None and info["rematch"] is not None
    return dict(info["rematch"])


def _all_accepted(info: dict[str, Any]) -> bool:
    """True when every seat of ``ending.end_info``'s rematch accepted (or is a bot's)."""
    return all(v in ("accepted", "bot") for v in info["rematch"]["seats"].values())


async def _answer(db: AsyncSession, room_id: int, user_id: int, accept: bool) -> None:
    """Upsert ``user_id``'s answer (one row per person: the key is (room, user))."""
    dialect = db.bind.dialect.name if db.bind is not None else ""
    row = {"room_id": room_id, "user_id": user_id, "accept": accept, "at": utcnow()}
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert  # type: ignore[assignment]  # same API
    stmt = insert(RematchVote).values(**row)
    await db.execute(
        stmt.on_conflict_do_update(
            index_elements=["room_id", "user_id"],
            set_={"accept": stmt.excluded.accept, "at": stmt.excluded.at},
        )
    )


async def _start_rematch(db: AsyncSession, old: Room, game: Game) -> int:
    """Make and start the rematch room of ``old`` (the match ``game``); the id of the
    rematch room (another request's, when it made it first)."""
    old_id = old.id
    columns = {
        attr.key: getattr(old, attr.key)
        for attr in inspect(Room).column_attrs
        if attr.key not in COPIED_NOT
    }
    new = Room(**columns, status="playing", rematch_of=old.id, seen_at=utcnow())
    ruleset = rules.GAMES[old.game]
    seats = [
        Seat(seat=s.seat, user_id=None, bot=s.bot if not s.away else clock.STAND_IN_BOT)
        if s.user_id is None or s.away
        else Seat(seat=s.seat, user_id=s.user_id, bot=None)
        for s in sorted(old.seats, key=lambda s: s.seat)
    ]
    new.seats = seats
    db.add(new)
    try:
        await db.flush()  # the unique rematch_of: the second maker stops here
    except IntegrityError:
        await db.rollback()
        made = await db.scalar(select(Room.id).where(Room.rematch_of == old_id))
        assert made is not None
        return int(made)
    rematch = Game(
        room_id=new.id,
        game=new.game,
        options=new.options,
        dealer=ruleset.next_seat(game.dealer),
        status="playing",
        seated=await ending.seated_of(db, seats),
    )
    db.add(rematch)
    new_id = new.id
    await db.commit()
    loaded = await play.load(db, rematch)
    try:
        await play.deal(db, new_id, rematch, loaded)
    except Conflict:
        pass  # the runner dealt it first
    return new_id
