"""The table's engine side: a game's state from its move log, applying moves, dealing.

The move log is the truth (DESIGN.md "Persistence"). The state of a game is the
fold of its stored actions (``app.rules.apply``); it is cached in memory per game
id and brought up to date from the log on every use, so several processes can
serve one game. A move is stored as row ``(game_id, seq)``: the insert is the
lock, and a unique violation means someone else applied move ``seq`` first.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Executable, Exists, Integer, bindparam, exists, func, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app import realtime, rules
from app.core import onewrite
from app.core.db import as_utc, utcnow
from app.core.errors import Conflict, Unprocessable
from app.rooms import ending
from app.rooms.models import Deal, Game, Move, Room, Seat

log = logging.getLogger(__name__)

CACHE_SIZE = 1024

#: The shuffle of a new deal: ``shuffle(game_id, options=None) -> deck`` (the options' deck:
#: rules/belote-3p.md deals 24 or 32 cards). Tests may replace it.
shuffle = rules.new_deck


@dataclass(frozen=True, slots=True)
class Loaded:
    """A game's current state, the time of its last move and that move's action, and
    ``deal_seq``: the seq of its latest ``deal`` move (None before the first deal)."""

    state: rules.State
    last_at: datetime | None
    last_action: rules.ActionIn | None
    deal_seq: int | None = None


_cache: OrderedDict[int, Loaded] = OrderedDict()


def clear_cache() -> None:
    """Forget every cached state and every live room (tests; the log stays the truth)."""
    from app.rooms import live  # it builds on this module

    _cache.clear()
    live.clear_all()


def _remember(game_id: int, loaded: Loaded) -> None:
    _cache[game_id] = loaded
    _cache.move_to_end(game_id)
    while len(_cache) > CACHE_SIZE:
        _cache.popitem(last=False)


async def load(db: AsyncSession, game: Game) -> Loaded:
    """The current state of ``game``: the cached state plus the moves stored since
    (a full replay on a cache miss, or when the cache disagrees with the log)."""
    cached = _cache.get(game.id)
    since = cached.state.seq - 1 if cached and cached.state.seq > 0 else 0
    rows = (
        await db.execute(
            select(Move.seq, Move.action, Move.at)
            .where(Move.game_id == game.id, Move.seq >= since)
            .order_by(Move.seq)
        )
    ).all()
    if cached and cached.state.seq > 0:
        if not rows or rows[0].seq != since or rows[0].action != cached.last_action:
            cached = None  # the log is not the one we cached from: replay it all
        else:
            rows = rows[1:]
    if cached is None:
        if since > 0:
            rows = (
                await db.execute(
                    select(Move.seq, Move.action, Move.at)
                    .where(Move.game_id == game.id)
                    .order_by(Move.seq)
                )
            ).all()
        cached = Loaded(rules.new_game(game.game, game.options, game.dealer), None, None)
    state, last_at, last_action, deal_seq = (
        cached.state,
        cached.last_at,
        cached.last_action,
        cached.deal_seq,
    )
    for row in rows:
        if row.seq != state.seq:
            raise RuntimeError(f"game {game.id}: move {row.seq} found where {state.seq} was due")
        state = rules.apply(state, row.action)
        last_at, last_action = as_utc(row.at), row.action
        if row.action.get("type") == "deal":
            deal_seq = row.seq
    loaded = Loaded(state, last_at, last_action, deal_seq)
    _remember(game.id, loaded)
    return loaded


def canonical(state: rules.State, action: object) -> rules.Action:
    """The entry of ``legal_actions`` equal to ``action``. Raises Unprocessable with the
    engine's reason ("you must over-trump: ...") when it is not one of them.

    An action the engine accepts in another spelling (Bolot's first-round take naming the
    turned suit: ``{"type": "take", "suit": "o"}`` for ``{"type": "take"}``) is stored as
    the listed action with the same result."""
    if not isinstance(action, dict):
        raise Unprocessable("an action is a JSON object with a type", "action_object")
    legal_now = rules.legal_actions(state)
    for legal in legal_now:
        if legal == action:
            return legal
    try:
        result = rules.apply(state, action)
    except rules.IllegalAction as exc:
        raise Unprocessable.of(exc) from None
    except (TypeError, KeyError, AttributeError):
        raise Unprocessable(
            "this action is not one of your legal actions now", "not_a_legal_action"
        ) from None
    seat = rules.to_act(state)
    same = rules.observe(result, seat)
    for legal in legal_now:
        if (
            legal.get("type") == action.get("type")
            and rules.observe(rules.apply(state, legal), seat) == same
        ):
            return legal
    raise Unprocessable(
        "this action is not one of your legal actions now: send one of the view's legal_actions",
        "not_a_legal_action",
    )


def owed_declaration(state: rules.State) -> rules.Action | None:
    """The empty ``declare`` when the seat to act still owes its declaration (trick 1,
    before its first card) and may declare nothing; else None."""
    if rules.to_act(state) is None:
        return None
    legal = rules.legal_actions(state)
    if not legal or any(a.get("type") != "declare" for a in legal):
        return None
    return next((a for a in legal if not a.get("combinations")), None)


def seat_actions(state: rules.State) -> list[rules.Action]:
    """What the seat to act may send now: the engine's ``legal_actions``, and, while it
    owes its declaration, also the cards it may play after declaring nothing (a card sent
    then means "no declarations, and this card": docs/server.md "Declarations")."""
    legal = rules.legal_actions(state)
    empty = owed_declaration(state)
    if empty is None:
        return legal
    after = rules.apply(state, empty)
    return legal + [a for a in rules.legal_actions(after) if a.get("type") != "declare"]


def resolve(state: rules.State, action: object) -> list[rules.Action]:
    """The stored actions for ``action`` sent by the seat to act: ``[canonical]``, or
    ``[empty declare, card]`` for a card sent while the seat owes its declaration.
    Raises Unprocessable as ``canonical``."""
    empty = owed_declaration(state)
    if empty is not None and isinstance(action, dict) and action.get("type") != "declare":
        return [empty, canonical(rules.apply(state, empty), action)]
    return [canonical(state, action)]


@dataclass(frozen=True, slots=True)
class Guard:
    """What a person's move checked against memory, checked again by its insert: the room
    ``room_id`` is playing and its ``seat`` is held by ``user_id`` (app/rooms/live.py)."""

    room_id: int
    seat: int
    user_id: int


async def commit(
    db: AsyncSession,
    room_id: int,
    game: Game | int,
    loaded: Loaded,
    action: rules.Action | Sequence[rules.Action],
    actor: str,
    deal: Deal | None = None,
    extra: Sequence[Executable] = (),
    guard: Guard | None = None,
    seat_back: int | None = None,
) -> Loaded:
    """Apply a legal ``action`` as move number ``state.seq`` (or a list of actions as the
    moves ``seq``, ``seq + 1``..., all by ``actor`` at the same time: a card sent with the
    declaration it implies), store it (with the deal's commitment, and the ``extra``
    statements, e.g. a seat's timeouts), mark room and game finished when the match ends,
    commit, then publish ``(room_id, seq)`` with the move as the event's data
    (``live.move_data``; none when ``extra`` changes more than ``seat_back``, the seat
    whose person came back with this move, or when the match ended: every process then
    reads the room again).

    The first move's insert comes first and is the lock (``INSERT ... ON CONFLICT DO
    NOTHING`` on ``(game_id, seq)``; with ``guard``, only while the guard holds): when
    someone stored move ``seq`` first (or the guard fails), nothing else is written, the
    empty transaction ends without expiring the caller's loaded objects, and Conflict is
    raised. Write nothing in the session before calling this. ``game`` is the Game or its
    id."""
    actions = [action] if isinstance(action, dict) else list(action)
    state = loaded.state
    try:
        for one in actions:
            state = rules.apply(state, one)
    except rules.IllegalAction as exc:
        raise Unprocessable.of(exc) from None
    at = utcnow()
    game_id = game if isinstance(game, int) else game.id
    rows: list[dict[str, Any]] = [
        {"game_id": game_id, "seq": loaded.state.seq + i, "action": one, "actor": actor, "at": at}
        for i, one in enumerate(actions)
    ]
    alone = None
    if guard is not None and len(rows) == 1 and deal is None and not extra:
        if not rules.is_over(state):  # the match's end writes more: one transaction
            async with _writer(db):
                alone = await _insert_alone(db, rows[0], guard)
    if alone is None:
        # before the turn: who holds the turn never waits for the pool
        await db.connection()
        async with _writer(db):
            ended = await _store(db, room_id, game_id, state, rows, deal, extra, guard, at)
    elif not alone:
        raise Conflict("another move was made first; reload the table", "move_made_first")
    else:
        ended = False
    deal_seq = next(
        (row["seq"] for row in reversed(rows) if row["action"].get("type") == "deal"),
        loaded.deal_seq,
    )
    new = Loaded(state, at, actions[-1], deal_seq)
    _remember(game_id, new)
    data = None
    if not ended and (not extra or seat_back is not None):
        from app.rooms import live  # it builds on this module

        told = {"deal_no": deal.deal_no, "sha256": deal.sha256} if deal is not None else None
        data = live.move_data(game_id, loaded.state.seq, actions, at, seat_back, told)
    await realtime.current().publish(room_id, state.seq, data)
    if ended:
        await ending.announce(db, game_id)
    return new


_COLUMNS = ("game_id", "seq", "action", "actor", "at")


async def _insert_alone(db: AsyncSession, row: dict[str, Any], guard: Guard) -> bool | None:
    """A person's move that is one guarded insert and nothing else, run on the database
    driver as its own transaction (app/core/onewrite.py: one hand-over to SQLite's
    writing thread, one round trip to PostgreSQL, no SQLAlchemy execution): True when
    inserted, False when the guard failed or move ``seq`` exists, None when this
    database is not served so (``commit`` then takes SQLAlchemy's path). A violated
    constraint is False too, as in ``_store``."""
    params = {**row, "room_id": guard.room_id, "seat": guard.seat, "user_id": guard.user_id}
    try:
        changed = await onewrite.execute(db, _GUARDED_INSERT, params)
    except IntegrityError:
        return False
    return None if changed is None else changed == 1


async def _store(
    db: AsyncSession,
    room_id: int,
    game_id: int,
    state: rules.State,
    rows: list[dict[str, Any]],
    deal: Deal | None,
    extra: Sequence[Executable],
    guard: Guard | None,
    at: datetime,
) -> bool:
    """``commit``'s transaction: the moves (the first insert is the lock), the deal, the
    ``extra`` statements, the end of the match; True when the match ended."""
    try:
        if not await _insert_move(db, rows[0], guard):
            await db.commit()  # nothing was written: end the transaction, keep the objects usable
            raise Conflict("another move was made first; reload the table", "move_made_first")
        for row in rows[1:]:
            if not await _insert_move(db, row):
                await db.rollback()
                raise Conflict("another move was made first; reload the table", "move_made_first")
        if deal is not None:
            db.add(deal)
        for statement in extra:
            await db.execute(statement)
        ended = rules.is_over(state) and await ending.mark_ended(
            db, room_id, game_id, "played", at=at
        )
        await db.commit()
    except IntegrityError:
        await db.rollback()
        raise Conflict("another move was made first; reload the table", "move_made_first") from None
    return ended


#: SQLite lets one connection write at a time, and the others wait by sleeping in steps
#: up to 100 ms (its busy handler): under load, moves waited seconds. This process's
#: moves take turns here instead (the other writers are rare and still use the busy
#: timeout). One lock a database file (its engine); no lock for other databases.
_sqlite_writers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, asyncio.Lock]] = (
    weakref.WeakKeyDictionary()
)


def _writer(db: AsyncSession) -> contextlib.AbstractAsyncContextManager[Any]:
    """The turn of a move's transaction on an SQLite ``db`` (``_sqlite_writers``), or
    nothing to wait for on another database."""
    bind = db.bind
    if bind is None or bind.dialect.name != "sqlite":
        return contextlib.nullcontext()
    locks = _sqlite_writers.setdefault(asyncio.get_running_loop(), {})
    lock = locks.get(id(bind))
    if lock is None:
        lock = locks[id(bind)] = asyncio.Lock()
    return lock


async def _insert_move(db: AsyncSession, row: dict[str, Any], guard: Guard | None = None) -> bool:
    """Insert the move ``row`` unless its ``(game_id, seq)`` exists, or, with ``guard``,
    unless the guard's room is not playing or its seat is not its user's (one statement:
    ``INSERT ... SELECT ... WHERE EXISTS``, ``_GUARDED_INSERT``): True when inserted."""
    dialect = db.bind.dialect.name if db.bind is not None else ""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    elif dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert  # type: ignore[assignment]  # same API
    else:  # another database: a plain insert (a unique violation is then the Conflict)
        if guard is not None and not await db.scalar(_guard_holds(guard).select()):
            return False
        await db.execute(Move.__table__.insert().values(**row))  # type: ignore[attr-defined]  # a Table
        return True
    if guard is not None:  # the hot path: one plain statement, compiled once
        result = await (await db.connection()).execute(
            _GUARDED_INSERT,
            {
                **row,
                "room_id": guard.room_id,
                "seat": guard.seat,
                "user_id": guard.user_id,
            },
        )
        return result.rowcount == 1
    stmt = insert(Move).values(**row).on_conflict_do_nothing(index_elements=["game_id", "seq"])
    return (await db.execute(stmt)).rowcount == 1  # type: ignore[attr-defined]  # a DML statement's Result is a CursorResult


#: A person's move (``Guard``), on PostgreSQL and SQLite alike.
_GUARDED_INSERT = text(
    "INSERT INTO moves (game_id, seq, action, actor, at) "
    "SELECT :game_id, :seq, :action, :actor, :at WHERE EXISTS ("
    "SELECT 1 FROM seats JOIN rooms ON rooms.id = seats.room_id "
    "WHERE seats.room_id = :room_id AND seats.seat = :seat AND seats.user_id = :user_id "
    "AND rooms.status = 'playing') "
    "ON CONFLICT (game_id, seq) DO NOTHING"
).bindparams(  # typed, so that PostgreSQL knows the SELECT list's types
    *(bindparam(name, type_=Move.__table__.c[name].type) for name in _COLUMNS),  # type: ignore[attr-defined]
    *(bindparam(name, type_=Integer()) for name in ("room_id", "seat", "user_id")),
)


def _guard_holds(guard: Guard) -> Exists:
    """EXISTS: the guard's room is playing and its seat is held by its user."""
    return exists().where(
        Seat.room_id == guard.room_id,
        Seat.seat == guard.seat,
        Seat.user_id == guard.user_id,
        Room.id == Seat.room_id,
        Room.status == "playing",
    )


def commitment(salt: str, deck: list[str]) -> str:
    """SHA-256 (hex) of ``salt`` followed by the deck's codes joined by ","."""
    return hashlib.sha256((salt + ",".join(deck)).encode()).hexdigest()


async def deal(db: AsyncSession, room_id: int, game: Game, loaded: Loaded) -> Loaded:
    """Deal the next hand: a fresh shuffle (secrets.SystemRandom), its commitment stored
    beside the ``deal`` move (actor "server"). Raises Conflict if someone dealt first."""
    deck = list(shuffle(game.game, options=game.options or None))
    salt = secrets.token_hex(16)
    count = await db.scalar(select(func.count()).select_from(Deal).where(Deal.game_id == game.id))
    row = Deal(
        game_id=game.id,
        deal_no=(count or 0) + 1,
        seq=loaded.state.seq,
        salt=salt,
        deck=",".join(deck),
        sha256=commitment(salt, deck),
    )
    return await commit(db, room_id, game, loaded, {"type": "deal", "deck": deck}, "server", row)


async def last_deal(db: AsyncSession, game_id: int) -> Deal | None:
    """The commitment of the game's latest deal, or None before the first deal."""
    return await db.scalar(
        select(Deal).where(Deal.game_id == game_id).order_by(Deal.deal_no.desc()).limit(1)
    )
