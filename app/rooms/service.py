"""The room's use cases, one transaction each; the JSON API and the pages call only these.

Shapes returned are plain JSON-able dicts. Errors are raised as ``NotFound`` (404),
``Forbidden`` (403), ``Conflict`` (409) and ``Unprocessable`` (422), each with a
``.message`` a player can read. Every committed change publishes ``(room_id, seq)``
(app/realtime) after the commit.
"""

from __future__ import annotations

import copy
import secrets
from typing import Any

from sqlalchemy import ColumnElement, delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import selectinload

from app import realtime, rules
from app.accounts.models import User
from app.accounts.service import FORM_KEY
from app.core.db import utcnow
from app.core.errors import Conflict, Forbidden, NotFound, Unprocessable
from app.core.hooks import HOOKS
from app.core.settings import get_settings
from app.rooms import aftermatch, clock, ending, live, play, presence, snapshot
from app.rooms.botplay import bot_names
from app.rooms.models import Game, Room, Seat
from app.rooms.movelog import public_log
from app.rooms.snapshot import Snapshot

__all__ = [
    "Conflict",
    "Forbidden",
    "NotFound",
    "Unprocessable",
    "create_room",
    "discard_room",
    "get_view",
    "leave_seat",
    "list_rooms",
    "move_log",
    "post_move",
    "resign",
    "leave_match",
    "mark_seen",
    "vote_rematch",
    "read_snapshot",
    "room_info",
    "start",
    "take_seat",
    "view_of",
]

LOBBY_LIMIT = 200
STAND_IN_BOT = clock.STAND_IN_BOT


# ---------------------------------------------------------------- loading


async def _room(db: AsyncSession, room_id: int) -> Room:
    return await snapshot.load_room(db, room_id)


async def _game(db: AsyncSession, room_id: int) -> Game | None:
    return await snapshot.latest_game(db, room_id)


def _seat(room: Room, seat: int) -> Seat:
    for s in room.seats:
        if s.seat == seat:
            return s
    raise NotFound(f"room {room.id} has no seat {seat}", "room_no_seat", room=room.id, seat=seat)


def _seat_of(room: Room, user: User | None) -> int | None:
    if user is None:
        return None
    return next((s.seat for s in room.seats if s.user_id == user.id), None)


def _in_room(room: Room, user: User) -> bool:
    return room.created_by == user.id or _seat_of(room, user) is not None


async def _info(db: AsyncSession, room: Room) -> dict[str, Any]:
    data = snapshot.room_data(room)
    return snapshot.info_of(data, await snapshot.names_of(db, data))


async def _state(db: AsyncSession, room: Room) -> tuple[Game | None, rules.State]:
    game = await _game(db, room.id)
    if game is None:  # not started: the position before the first deal
        return None, rules.new_game(room.game, room.options, 0)
    return game, (await play.load(db, game)).state


async def _publish(db: AsyncSession, room: Room) -> None:
    game = await _game(db, room.id)
    seq = (await play.load(db, game)).state.seq if game else 0
    await realtime.current().publish(room.id, seq)


async def publish_room(db: AsyncSession, room_id: int) -> None:
    """Tell the watchers of ``room_id`` (and the bot runner) that its seats changed, after
    a change made outside this module (app/rooms/deleted.py). Raises NotFound."""
    await _publish(db, await _room(db, room_id))


# ---------------------------------------------------------------- rooms


async def create_room(
    db: AsyncSession,
    user: User,
    game: str,
    options: dict[str, Any] | None,
    clock_seconds: int | None = None,
    max_timeouts: int | None = None,
    spectators_see_hands: bool | None = None,
    match: dict[str, Any] | None = None,
    creation_key: str | None = None,
    seat: int | None = None,
    bots: str | None = None,
    skip_empty_declaration: bool = True,
    rated: bool = True,
    private: bool = False,
    chat: bool = True,
) -> dict[str, Any]:
    """A new open room for ``game`` with empty seats; ``options`` are checked and completed
    with their defaults by the engine. The room's move clock (app/rooms/clock.py):
    ``clock_seconds`` (None or 0: none; 1-3600) and ``max_timeouts`` (1-20, default
    ``TAPET_DEFAULT_MAX_TIMEOUTS``), also accepted inside ``options``; likewise
    ``spectators_see_hands`` (off by default: spectators see every hand one deal late,
    ``get_view``). ``match``: a championship table's match definition (``{"kind": "target"}``
    for a match to the game's target; shown at the table, and such a table has no
    rematch; app/tournaments). ``creation_key`` (8-64 letters, digits,
    ``-`` or ``_``): a request sent again with the same key (a double tap, a retry) gets
    the room the first one made, never a second room; the key is unique in the database,
    so two requests racing make one room. ``seat``: the creator sits there at once (the
    lobby's forms; None: nobody is seated, as an organiser's championship table);
    ``bots``: a bot of that level in every other seat ("play now"). ``skip_empty_declaration``
    (on by default): the table does not ask a seat to declare when "no declarations" is all
    it may declare (app/table/presenter.py). ``rated`` (on by default; a championship's
    tables are casual): the ended match moves its players' ratings (app/records/ratings.py,
    docs/ratings.md), else it is only kept in their histories. ``private``: not listed,
    reached only by its link or code (app/rooms/invites.py). ``chat`` (on by default): off,
    the table has no chat (a championship's setting; docs/chat.md). Raises Unprocessable for an unknown game,
    option, seat or bot or a malformed key, Conflict for a key another person used."""
    if creation_key is not None:
        if not CREATION_KEY.fullmatch(creation_key):
            raise Unprocessable(
                "the creation key has 8 to 64 letters, digits, '-' or '_'", "creation_key"
            )
        made = await _room_by_key(db, user.id, creation_key)
        if made is not None:
            return made
    if options is not None and not isinstance(options, dict):
        raise Unprocessable("options are a JSON object", "options_object")
    options = dict(options or {})
    clock_seconds = options.pop("clock_seconds", clock_seconds)
    max_timeouts = options.pop("max_timeouts", max_timeouts)
    see_hands = options.pop("spectators_see_hands", spectators_see_hands)
    if see_hands is None:
        see_hands = False
    if not isinstance(see_hands, bool):
        raise Unprocessable("spectators_see_hands is true or false", "spectators_flag")
    try:
        seconds, limit = clock.check_options(
            clock_seconds, max_timeouts, get_settings().default_max_timeouts
        )
    except ValueError as exc:
        if str(exc).startswith("clock_seconds"):
            raise Unprocessable(str(exc), "clock_seconds") from None
        raise Unprocessable(
            str(exc), "max_timeouts", low=clock.TIMEOUTS_MIN, high=clock.TIMEOUTS_MAX
        ) from None
    try:
        state = rules.new_game(game, options, 0)
    except rules.IllegalAction as exc:
        raise Unprocessable.of(exc) from None
    view = rules.observe(state, None)
    if seat is not None and not (
        isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < view["players"]
    ):
        raise Unprocessable(
            f"seat is a number from 0 to {view['players'] - 1}",
            "creator_seat",
            last=view["players"] - 1,
        )
    if bots is not None and bots not in bot_names():
        raise Unprocessable(
            f"unknown bot {bots!r}; bots: {', '.join(bot_names())}", "unknown_bot", bot=bots
        )
    room = Room(
        game=game,
        options=view["options"],
        status="open",
        created_by=user.id,
        clock_seconds=seconds,
        max_timeouts=limit,
        spectators_see_hands=see_hands,
        match=match,
        creation_key=creation_key,
        skip_empty_declaration=bool(skip_empty_declaration),
        rated=bool(rated),
        private=bool(private),
        chat=bool(chat),
    )
    room.seats = [
        Seat(
            seat=n,
            stand_in=False,
            user_id=user.id if n == seat else None,
            bot=bots if n != seat else None,
        )
        for n in range(view["players"])
    ]
    db.add(room)
    user_id = user.id  # read before a rollback expires the user
    try:
        await db.commit()
    except IntegrityError:
        await db.rollback()  # the same key won the race a moment ago: that room
        await db.refresh(user)  # the rollback expired it; the caller may go on with it
        made = await _room_by_key(db, user_id, creation_key) if creation_key else None
        if made is None:
            raise
        return made
    return await room_info(db, room.id)


#: A creation request's one-time key: the same shape as a guest's (``accounts.FORM_KEY``),
#: a new visitor's "play now" key serving both.
CREATION_KEY = FORM_KEY


async def _room_by_key(db: AsyncSession, user_id: int, key: str) -> dict[str, Any] | None:
    """The room a creation request with ``key`` made, or None. Raises Conflict when
    another person made it (a key is one person's)."""
    room = await db.scalar(select(Room).where(Room.creation_key == key))
    if room is None:
        return None
    if room.created_by != user_id:
        raise Conflict("that creation key was used by another person", "creation_key_taken")
    return await room_info(db, room.id)


async def room_info(db: AsyncSession, room_id: int) -> dict[str, Any]:
    """``{id, game, game_name, options, clock_seconds, max_timeouts, status, players,
    seats: [{seat, kind: "empty" | "person" | "bot", name, bot, user_id, stand_in, away,
    person, timeouts}], spectators, created_by, created_at}``. A person's seat with
    ``stand_in`` is played by a bot until its person returns; ``away``: the person left
    (shown as ``kind: "bot"``, ``user_id`` the person it is kept for, ``person`` their
    nickname, which the records show for the deals they played). Raises NotFound."""
    return await _info(db, await _room(db, room_id))


def listed_in_lobby() -> list[ColumnElement[bool]]:
    """The rule of which rooms the lobby lists, as WHERE conditions on ``Room``: open and
    playing ones. Whoever shows where a person sits (app/social: "at which table") reuses
    it, so a room the lobby hides (a private one, reached only by its link or code:
    app/rooms/invites.py) is never shown there either."""
    return [Room.status.in_(("open", "playing")), Room.private.is_(False)]


async def list_rooms(db: AsyncSession, game: str | None = None) -> list[dict[str, Any]]:
    """The lobby: open and playing rooms (of ``game`` when given), newest first, at most
    ``LOBBY_LIMIT``; playing ones carry ``scores``, ``target``, ``phase`` and ``tournament``
    (``{tournament_id, tournament, round, table}`` of a championship's table, else None);
    every room its ``spectators``. Private rooms are never listed. Finished
    rooms are not listed (they stay reachable by id and through the records). Raises
    Unprocessable for an unknown game."""
    where: list[ColumnElement[bool]] = listed_in_lobby()
    if game is not None:
        if game not in rules.GAMES:
            raise Unprocessable(
                f"unknown game {game!r}; games: {', '.join(rules.GAMES)}", "unknown_game", game=game
            )
        where.append(Room.game == game)
    rooms = (
        await db.scalars(
            select(Room)
            .where(*where)
            .options(selectinload(Room.seats))
            .order_by(Room.id.desc())
            .limit(LOBBY_LIMIT)
        )
    ).all()
    # the championship a room plays for, if any (registered by tournaments: app/core/hooks.py)
    championships = await HOOKS.room_labels(db, [r.id for r in rooms if r.status == "playing"])
    lobby = []
    for room in rooms:
        info = await _info(db, room)
        if room.status == "playing":
            _, state = await _state(db, room)
            public = rules.observe(state, None)
            info.update(
                scores=public["scores"],
                target=public["target"],
                phase=public["phase"],
                tournament=championships.get(room.id),
            )
        lobby.append(info)
    return lobby


# ---------------------------------------------------------------- seats


async def take_seat(
    db: AsyncSession, room_id: int, seat: int, user: User, bot: str | None = None
) -> dict[str, Any]:
    """Sit ``user`` in ``seat``, or (``bot`` given) seat that bot there; returns room info.

    A person takes an empty seat of an open room. In a running game every seat is kept
    for its person: nobody else may take it, even while a stand-in bot plays it. A user
    holds at most one seat per room. Taking the seat you hold again is how you come back
    after you left or the move clock gave it to a stand-in, while the game runs (otherwise
    it changes nothing; once the game is over it is refused: ``game_over``).
    A bot is seated in an empty seat before the start, by the room's creator or a
    seated player. Raises NotFound, Forbidden, Conflict (taken, started, already
    seated; ``invite_seat_reserved``: the owner offers that seat to an invited person,
    who takes it with the code) or Unprocessable (unknown bot)."""
    room = await _room(db, room_id)
    chair = _seat(room, seat)
    if chair.offered and chair.user_id is None:  # kept for the invited (app/rooms/invites.py)
        raise Conflict(
            f"seat {seat} is offered to the person the owner invited", "invite_seat_reserved"
        )
    occupied = chair.user_id is not None or chair.bot is not None
    where = [Seat.room_id == room.id, Seat.seat == seat]
    if bot is not None:
        if bot not in bot_names():
            raise Unprocessable(
                f"unknown bot {bot!r}; bots: {', '.join(bot_names())}", "unknown_bot", bot=bot
            )
        if room.status != "open":
            raise Conflict("bots are seated before the game starts", "bots_before_start")
        if not _in_room(room, user):
            raise Forbidden(
                "only the room's creator or a seated player may seat a bot", "bot_seater"
            )
        if occupied:
            raise Conflict(f"seat {seat} is taken", "seat_taken", seat=seat)
        stmt = (
            update(Seat).where(*where, Seat.user_id.is_(None), Seat.bot.is_(None)).values(bot=bot)
        )
    else:
        mine = _seat_of(room, user)
        if mine == seat:
            if not chair.stand_in:
                return await _info(db, room)
            if room.status != "playing":  # the match is over: its seats stay as they ended
                raise Conflict("the game is over", "game_over")
            # the room's status in the statement too: a match ending meanwhile keeps the seat
            running = select(Room.id).where(Room.id == room.id, Room.status == "playing")
            stmt = update(Seat).where(
                *where, Seat.user_id == user.id, Seat.stand_in.is_(True), Seat.room_id.in_(running)
            )
            await db.execute(stmt.values(bot=None, stand_in=False, timeouts=0, away=False))
            await db.commit()
            room = await _room(db, room_id)
            await _publish(db, room)
            return await _info(db, room)
        if mine is not None:
            raise Conflict(
                f"you already hold seat {mine} in this room", "already_hold_seat", seat=mine
            )
        if room.status == "open":
            if occupied:
                raise Conflict(f"seat {seat} is taken", "seat_taken", seat=seat)
            stmt = update(Seat).where(*where, Seat.user_id.is_(None), Seat.bot.is_(None))
        elif room.status == "playing":
            # A running game's seats are kept for their people, even one who left: only
            # they may come back (a stand-in plays meanwhile); anyone may watch.
            raise Conflict(
                f"seat {seat} is kept for its player while the game runs; you can watch the table",
                "seat_kept",
                seat=seat,
            )
        else:
            raise Conflict("the game is over", "game_over")
        stmt = stmt.values(user_id=user.id, bot=None, stand_in=False, timeouts=0)
    try:
        done = (await db.execute(stmt)).rowcount  # type: ignore[attr-defined]  # a DML statement's Result is a CursorResult
        if done != 1:
            raise Conflict(f"seat {seat} is taken", "seat_taken", seat=seat)
        await db.commit()
    except IntegrityError:
        await db.rollback()
        raise Conflict("you already hold a seat in this room", "already_seated") from None
    except Conflict:
        await db.rollback()
        raise
    room = await _room(db, room_id)
    await _publish(db, room)
    return await _info(db, room)


async def leave_seat(db: AsyncSession, room_id: int, seat: int, user: User) -> dict[str, Any]:
    """``user`` leaves ``seat``; in a running game a heuristic bot stands in for them and
    the seat is kept for them (``away``): they may come back at any time, nobody else may
    take it; they are recorded in ``games.left`` (once: leaving again changes nothing,
    coming back does not undo it: app/rooms/aftermatch.py).
    Before the start, the creator or a seated player may also remove a bot. Returns
    room info. Raises NotFound, Forbidden (not yours) or Conflict (game over)."""
    room = await _room(db, room_id)
    chair = _seat(room, seat)
    if room.status == "finished":
        raise Conflict("the game is over", "game_over")
    if chair.user_id is not None and chair.user_id == user.id:
        values: dict[str, Any] = {"user_id": None, "timeouts": 0}
        if room.status == "playing":  # the seat stays theirs: a stand-in plays until they return
            values = {"bot": STAND_IN_BOT, "stand_in": True, "away": True, "timeouts": 0}
            await aftermatch.record_leave(db, room.id, user.id)  # games.left (issue 17 §3)
        stmt = update(Seat).where(
            Seat.room_id == room.id, Seat.seat == seat, Seat.user_id == user.id
        )
    elif chair.bot is not None and room.status == "open" and _in_room(room, user):
        values = {"bot": None, "stand_in": False}
        stmt = update(Seat).where(Seat.room_id == room.id, Seat.seat == seat, Seat.bot.is_not(None))
    else:
        raise Forbidden(f"seat {seat} is not yours", "seat_not_yours", seat=seat)
    await db.execute(stmt.values(**values))
    await db.commit()
    room = await _room(db, room_id)
    await _publish(db, room)
    return await _info(db, room)


async def start(db: AsyncSession, room_id: int, user: User) -> dict[str, Any]:
    """Start the match once every seat is filled: the first dealer is drawn at random
    (rules/bolot.md §9) and the first hand is dealt. Returns room info. Raises
    NotFound, Forbidden (not the creator nor seated) or Conflict (not open, seats empty)."""
    room = await _room(db, room_id)
    # who may start is asked first: a stranger learns nothing of the room's state from it
    if not _in_room(room, user):
        raise Forbidden("only the room's creator or a seated player may start the game", "starter")
    if room.status != "open":
        raise Conflict("the game has already started", "game_started")
    if any(s.user_id is None and s.bot is None for s in room.seats):
        raise Conflict("every seat must be filled before the start", "seats_not_filled")
    claimed = await db.execute(
        update(Room)
        .where(Room.id == room.id, Room.status == "open")
        .values(status="playing", seen_at=utcnow())
    )
    if claimed.rowcount != 1:  # type: ignore[attr-defined]  # a DML statement's Result is a CursorResult
        await db.rollback()
        raise Conflict("the game has already started", "game_started")
    game = Game(
        room_id=room.id,
        game=room.game,
        options=room.options,
        dealer=secrets.randbelow(len(room.seats)),
        status="playing",
        seated=await ending.seated_of(db, list(room.seats)),
    )
    db.add(game)
    await db.commit()
    loaded = await play.load(db, game)
    try:
        await play.deal(db, room_id, game, loaded)
    except Conflict:
        pass  # the runner (or another process) dealt it first
    return await room_info(db, room_id)


# ---------------------------------------------------------------- play


async def get_view(db: AsyncSession, room_id: int, user: User | None) -> dict[str, Any]:
    """The caller's view: ``observe(state, seat)`` for the seat ``user`` holds (the
    spectator's view otherwise) merged with the room info, plus ``my_seat``,
    ``commitment`` ``{deal_no, sha256}`` of the current deal and ``clock``
    ``{seat, deadline, seconds}`` of the running move clock (or None) and, for a
    spectator of a room with ``spectators_see_hands``, ``open_hands`` (the hands one deal
    late: ``open_hands``; None otherwise). The seat to act
    gets ``play.seat_actions`` as its ``legal_actions`` (while it owes its declaration,
    the cards it may play after declaring nothing are listed too). Everything comes
    from the database: a refresh or a second tab shows exactly the same. Raises NotFound.

    It is ``view_of(await read_snapshot(db, room_id), user)``: one consistent read, then
    the pure per-viewer part (app/rooms/snapshot.py)."""
    return view_of(await read_snapshot(db, room_id), user)


async def read_snapshot(db: AsyncSession, room_id: int) -> Snapshot:
    """The room as of one moment, for every viewer's view (``view_of``): room, seats,
    nicknames, game state and the deal's commitment in about five statements. Raises
    NotFound."""
    return await snapshot.read(db, room_id)


def view_of(snap: Snapshot, user: User | None) -> dict[str, Any]:
    """``user``'s view (``get_view``'s shape) of ``snap``, for the seat ``snap`` says
    ``user`` holds (the spectators' view otherwise). Pure: no database."""
    return snapshot.view_of(snap, user)


open_hands = snapshot.open_hands


async def post_move(
    db: AsyncSession, room_id: int, user: User, seq: int, action: Any
) -> dict[str, Any]:
    """``play_move``'s view, as a dict of the caller's own."""
    return copy.deepcopy((await play_move(db, room_id, user, seq, action)).view)


async def play_move(
    db: AsyncSession, room_id: int, user: User, seq: int, action: Any
) -> live.Entry:
    """Play ``action`` for the seat ``user`` holds, at position ``seq``; returns the new view
    (``user``'s view right after the move, ``get_view``'s shape), as the ``live.Entry`` the
    seat's sockets share (read it, never change it: ``post_move`` copies it).

    Raises NotFound; Forbidden when the user holds no seat here or it is not their
    turn; Conflict when ``seq`` is not the table's (nothing changes) or the game is
    not in play; Unprocessable with the engine's reason when the action is illegal.
    A move of your own brings you back from a stand-in and clears your timeouts; it is
    stored in the same transaction as the move, so a move is applied exactly once.
    A card sent while you owe your declaration declares nothing and plays the card (two
    moves, stored together: play.resolve).

    The move is checked against the room kept in memory (app/rooms/live.py) and written
    as one guarded insert; its answer is projected from memory too. A refusal other
    than the engine's (stale seq, no seat, not your turn, the insert's guard) is checked
    again on a fresh read before it is given, so a snapshot behind the log never refuses
    a right move. Moves made after this one (a bot's, the next deal) reach the client
    through its socket."""
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
        raise Unprocessable("seq is the view's seq, a whole number", "seq_number")
    rooms = live.of()
    snap = rooms.kept(room_id)
    if snap is not None:
        try:
            return await _move_on(db, snap, user, seq, action)
        except (Forbidden, Conflict):
            rooms.forget(room_id)  # perhaps memory was behind: judge on a fresh read
    return await _move_on(db, await rooms.get(room_id, db=db), user, seq, action)


async def _move_on(
    db: AsyncSession, snap: Snapshot, user: User, seq: int, action: Any
) -> live.Entry:
    """``play_move`` judged on ``snap``."""
    room = snap.room
    seat = room.seat_of(user.id)
    if seat is None:
        raise Forbidden("you do not hold a seat at this table", "no_seat_here")
    chair = next(s for s in room.seats if s.seat == seat)
    if snap.game_id is None or snap.loaded is None or room.status == "open":
        raise Conflict("the game has not started", "game_not_started")
    loaded = snap.loaded
    state = loaded.state
    if seq != state.seq:
        raise Conflict(
            f"stale move: the table is at seq {state.seq}, you sent {seq}",
            "stale_move",
            seq=state.seq,
            sent=seq,
        )
    if (
        rules.is_over(state) or room.status == "finished"
    ):  # finished: also a stopped match (end_match)
        raise Conflict("the game is over", "game_over")
    if rules.to_act(state) != seat:
        raise Forbidden("it is not your turn", "not_your_turn")
    legal = play.resolve(state, action)
    back = []
    if chair.stand_in or chair.timeouts or chair.away:
        back.append(
            update(Seat)
            .where(Seat.room_id == room.id, Seat.seat == seat, Seat.user_id == user.id)
            .values(bot=None, stand_in=False, timeouts=0, away=False)
        )
    new = await play.commit(
        db,
        room.id,
        snap.game_id,
        loaded,
        legal,
        str(seat),
        extra=back,
        guard=play.Guard(room.id, seat, user.id),
        seat_back=seat if back else None,
    )
    rooms = live.of()
    now = rooms.kept(room.id)  # the move applied in memory (its event, told at once)
    if now is not None and now.game_id == snap.game_id and now.seq == new.state.seq:
        return rooms.entry(room.id, now, now.room.seat_of(user.id), live.VIEW_TTL)
    return live.Entry(view_of(snapshot.after_move(snap, new, seat if back else None), user))


async def move_log(
    db: AsyncSession, room_id: int, user: User | None, since: int = 0
) -> list[dict[str, Any]]:
    """The moves of the room's game from ``since`` on, ``{seq, actor, action, at}``, with
    every card still hidden redacted (app/rooms/movelog.py); the same for every viewer.
    Raises NotFound."""
    room = await _room(db, room_id)
    game = await _game(db, room.id)
    if game is None:
        return []
    loaded = await play.load(db, game)
    return await public_log(db, game, loaded.state, since)


async def discard_room(db: AsyncSession, room_id: int) -> None:
    """Undo a room made for a championship table whose publish was refused after it
    (app/tournaments/rounds.py ``publish``): a room that never started is deleted with
    its seats, one already playing is ended (``end_match``). No room: nothing to do."""
    room = await db.get(Room, room_id, populate_existing=True)
    if room is None:
        return
    if room.status == "open":
        await db.execute(delete(Room).where(Room.id == room_id, Room.status == "open"))
        await db.commit()
        return
    await end_match(db, room_id)


async def end_match(db: AsyncSession, room_id: int) -> dict[str, Any]:
    """Stop a running match where it stands (a tournament's deal count or time limit was
    reached between deals): room and game become finished, the scores stay as they are.
    Returns room info. Raises NotFound; a room not playing is returned unchanged."""
    room = await _room(db, room_id)
    if room.status == "playing":
        game = await _game(db, room.id)
        if game is None:  # pragma: no cover - a playing room has its game
            return await _info(db, room)
        seq = (await play.load(db, game)).state.seq
        await ending.end(db, room.id, game.id, "stopped", seq)
        room = await _room(db, room_id)
    return await _info(db, room)


# ---------------------------------------------------------------- leaving and after the match


async def resign(db: AsyncSession, room_id: int, user: User) -> dict[str, Any]:
    """Resign the running match: it ends at once, your side lost (app/rooms/aftermatch.py
    ``resign``). Returns ``{"room_id", "resigned_seat"}``; a repeat returns the same.
    Raises NotFound, Forbidden (no seat here), Conflict (not playing)."""
    return await aftermatch.resign(db, room_id, user)


async def leave_match(db: AsyncSession, room_id: int, user: User) -> dict[str, Any]:
    """Leave the running match: a stand-in bot takes your seat and the match goes on;
    you are recorded in ``games.left`` (``leave_seat``). Returns room info; leaving again
    changes nothing. Raises NotFound, Forbidden (no seat here), Conflict (not playing)."""
    room = await _room(db, room_id)
    seat = _seat_of(room, user)
    if seat is None:
        raise Forbidden("you do not hold a seat at this table", "no_seat_here")
    if room.status != "playing":
        raise Conflict("the match is not being played", "match_not_playing")
    return await leave_seat(db, room_id, seat, user)


async def vote_rematch(
    db: AsyncSession, room_id: int, user: User, accept: bool = True
) -> dict[str, Any]:
    """Accept (or decline) the rematch of a finished table; the last acceptance starts
    it in a new room (app/rooms/aftermatch.py ``vote_rematch``). Returns ``{"room":
    id or None, "seats": {seat: "accepted" | "declined" | "waiting" | "bot"}}``. Raises
    NotFound, Forbidden (no seat, or left the match), Conflict (not finished),
    Unprocessable (a championship's table)."""
    return await aftermatch.vote_rematch(db, room_id, user, accept)


async def mark_seen(db: AsyncSession, room_id: int) -> None:
    """Someone is at the table now (its page was served): ``rooms.seen_at`` (a running
    table unseen for ``TAPET_ABANDON_MINUTES`` is ended: app/rooms/presence.py)."""
    await presence.touch(db, [room_id])
