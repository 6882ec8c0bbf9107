"""Quick play with people: a queue per game (and rules preset) that seats waiting people
together, a partner entry's two people as partners, and bots in the seats left after
the wait each person chose.

The queue lives in the database (``queue_entries``, app/rooms/models.py), never in a
process's memory, so every worker sees the same queue. ``match`` is the one place that
makes tables from it; it runs when a person joins and on every tick of a waiting page
(``tick``, polled every ``POLL_SECONDS`` by the page: docs/server.md "The quick-play
queue"), so a wait that runs out is acted on within a poll, in whichever worker answers.
A ``match`` holds the pool's rows while it works: ``SELECT ... FOR UPDATE SKIP LOCKED``
on PostgreSQL (two workers never take the same row; a row another match holds is left
to it), one writer transaction on SQLite (its first statement is a write, so matches run
one after the other). Rows are marked with their room in the same transaction that
makes the room, so a person is never put in two rooms.

Seats: in a game of four the partners are seats 0 and 2, and 1 and 3
(rules/bolot.md §1): a partner entry takes one of these pairs.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Select, delete, func, select, union, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app import rules
from app.accounts.models import User
from app.core.db import as_utc, utcnow
from app.core.errors import Conflict, NotFound, ServiceError, Unprocessable
from app.core.settings import get_settings
from app.rooms import service
from app.rooms.botplay import bot_names
from app.rooms.models import QueueEntry, Room, Seat

#: The wait a person is offered first (seconds) and the choices of the form.
DEFAULT_WAIT = 30
WAIT_CHOICES = (10, 30, 60, 120, 300)
#: The longest wait accepted (seconds); 0 is accepted (bots at once, for tests and the API).
WAIT_MAX = 600
#: The waiting page asks every this many seconds (``tick``).
POLL_SECONDS = 2
#: An entry whose page has not ticked for this long is dropped: its person left.
STALE_SECONDS = 30
#: A partner code: 6 letters of an alphabet without look-alikes (no 0/O, 1/I/L).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
BOT = "heuristic"
#: ``await avoid(db, user_ids) -> {(a, b), ...}``: pairs of people among ``user_ids`` that
#: ``match`` never seats at one table (either order). Registered at start-up by a feature
#: (the chat's blocks: ``app.chat.wiring.install``); rooms import no feature.
Avoid = Callable[[AsyncSession, list[int]], Awaitable[set[tuple[int, int]]]]
AVOID: list[Avoid] = []


def add_avoid(avoid: Avoid) -> None:
    """Register ``avoid`` (once): ``match`` seats no pair it names together."""
    if avoid not in AVOID:
        AVOID.append(avoid)


async def avoided(db: AsyncSession, user_ids: list[int]) -> set[frozenset[int]]:
    """The pairs among ``user_ids`` that must never sit at one table (the registered
    ``AVOID`` hooks: blocks), as unordered pairs."""
    pairs: set[frozenset[int]] = set()
    for avoid in AVOID:
        pairs |= {frozenset(p) for p in await avoid(db, user_ids)}
    return pairs


# ---------------------------------------------------------------- pools


def presets(game: str) -> list[str]:
    """The rules presets of ``game`` (its ``preset`` option's choices; ``[]`` when it has none)."""
    for option in rules.GAMES[game].options_schema:
        if option["name"] == "preset":
            return [str(c) for c in option.get("choices") or []]
    return []


def default_preset(game: str) -> str:
    """The preset a queue of ``game`` uses unless one is chosen ("" for a game without)."""
    for option in rules.GAMES[game].options_schema:
        if option["name"] == "preset":
            return str(option.get("default") or "")
    return ""


def options_of(game: str, preset: str) -> dict[str, Any]:
    """The options of a queue's rooms: the game's defaults, under ``preset`` if any."""
    return {"preset": preset} if preset else {}


def pairs_allowed(game: str) -> bool:
    """True for a game of two partnerships (four players): a partner entry is allowed."""
    return rules.GAMES[game].players == 4


def check_pool(game: object, preset: object) -> tuple[str, str]:
    """``(game, preset)`` checked: a known game and one of its presets ("" or None: its
    default). Raises Unprocessable (codes ``unknown_game``, ``queue_preset``)."""
    if not isinstance(game, str) or game not in rules.GAMES:
        raise Unprocessable(f"there is no game {game!r}", "unknown_game", game=str(game))
    choices = presets(game)
    chosen = preset if isinstance(preset, str) and preset else default_preset(game)
    if (choices or chosen) and chosen not in choices:
        raise Unprocessable(
            f"{game} has no rules preset {chosen!r}", "queue_preset", preset=str(chosen)
        )
    return game, chosen


# ---------------------------------------------------------------- joining and leaving


async def join(
    db: AsyncSession,
    user: User,
    game: object,
    preset: object = "",
    wait_seconds: object = DEFAULT_WAIT,
    bot: object = BOT,
    partner: bool = False,
) -> dict[str, Any] | None:
    """Put ``user`` in the queue of ``game`` (``preset``: "" for the game's default) and
    try to make a table at once; returns ``status`` (None only if the table it was put
    at has already finished). ``partner``: a partner entry
    (a game of four only) that waits for the partner to join with its code
    (``join_partner``) before it is matched. ``wait_seconds`` (0-600): how long to wait
    for people before ``bot`` fills the empty seats.

    Idempotent: joining the same queue again (a double tap, ten requests at once) is the
    one entry (``user_id`` is unique in the table). Raises Unprocessable (a bad game,
    preset, wait, bot or a partner entry of a game without partners), Conflict
    (``queue_seated``: the person is seated at a table still playing; ``queue_other``:
    they wait in another queue)."""
    game, chosen = check_pool(game, preset)
    wait = _check_wait(wait_seconds)
    if bot not in bot_names():
        raise Unprocessable(f"unknown bot {bot!r}", "unknown_bot", bot=str(bot))
    if partner and not pairs_allowed(game):
        raise Unprocessable(f"{game} is not played in partnerships", "queue_no_partners")
    await _refuse_seated(db, user)
    mine = await _entry(db, user.id)
    if mine is not None and mine.room_id is None:
        if mine.game != game or mine.preset != chosen or bool(mine.partner_code) != partner:
            raise Conflict(
                "you are already waiting in another queue; leave it first", "queue_other"
            )
        await _touch(db, user.id)
        return await status(db, user)
    if mine is not None:  # matched earlier, that room is over or left: a new entry
        await db.execute(delete(QueueEntry).where(QueueEntry.id == mine.id))
    now = utcnow()
    db.add(
        QueueEntry(
            user_id=user.id,
            game=game,
            preset=chosen,
            partner_code=_new_code() if partner else None,
            slot=0,
            wait_seconds=wait,
            bot=str(bot),
            joined_at=now,
            seen_at=now,
        )
    )
    try:
        await db.commit()
    except IntegrityError:  # the same person's twin request made it a moment ago
        await db.rollback()
        if user in db:  # the rollback expired it: status reads its id
            await db.refresh(user)
        return await status(db, user)
    await match(db, game, chosen)
    return await status(db, user)


def _partner_entry(code: str) -> Select[Any]:
    return select(QueueEntry).where(
        QueueEntry.partner_code == code, QueueEntry.slot == 0, QueueEntry.room_id.is_(None)
    )


async def check_partner(db: AsyncSession, user: User | None, code: str) -> bool:
    """Whether ``user`` (None: a visitor, not yet a guest) may join the partner entry
    ``code``, asked before anything is written: the invitation page offers the form only
    then. Raises the refusal :func:`join_partner` would give: NotFound
    (``queue_no_code``: no entry was ever made with that code), Conflict
    (``queue_own_code``: their own entry, still waiting; ``queue_partner_full``: someone
    else joined it, or its pair is already at a table; ``queue_other``: waiting in another
    queue; ``queue_seated``). Returns True when ``user`` already holds a place in it
    (joined before, or a double tap's twin; also once the pair is at a table: their link
    leads there), False when they may take it."""
    code = code.strip().upper()
    mine = await _entry(db, user.id) if user is not None else None
    if mine is not None and code and mine.partner_code == code:
        if mine.slot == 0 and mine.room_id is None:
            raise Conflict(
                "this is your own entry: send its link to your partner", "queue_own_code"
            )
        return True
    owner = (
        await db.scalar(
            select(QueueEntry).where(QueueEntry.partner_code == code, QueueEntry.slot == 0)
        )
        if code
        else None
    )
    if owner is None:
        raise NotFound("no partner entry waits with that code", "queue_no_code")
    second = await db.scalar(
        select(QueueEntry.user_id).where(QueueEntry.partner_code == code, QueueEntry.slot == 1)
    )
    if second is not None and user is not None and second == user.id:
        return True  # their twin joined between the two reads
    if second is not None or owner.room_id is not None:
        raise Conflict("someone else joined this partner entry", "queue_partner_full")
    if user is not None:
        if mine is not None and mine.room_id is None:
            raise Conflict(
                "you are already waiting in another queue; leave it first", "queue_other"
            )
        await _refuse_seated(db, user)
    return False


async def partner_joined_within(db: AsyncSession, code: str, seconds: float) -> bool:
    """Whether the second place of partner entry ``code`` was taken less than ``seconds``
    ago: a visitor's double tap can only be that recent (the page asks it before making
    a guest of a visitor refused ``queue_partner_full``)."""
    since = utcnow() - timedelta(seconds=seconds)
    joined = await db.scalar(
        select(QueueEntry.id).where(
            QueueEntry.partner_code == code.strip().upper(),
            QueueEntry.slot == 1,
            QueueEntry.joined_at >= since,
        )
    )
    return joined is not None


async def join_partner(db: AsyncSession, user: User, code: object) -> dict[str, Any] | None:
    """``user`` joins the partner entry ``code`` as its second person; its wait starts
    now for both. Joining it again is the same entry, also once the pair is matched (its
    status: their table). Raises what :func:`check_partner` raises."""
    code = str(code or "").strip().upper()
    if await check_partner(db, user, code):
        await _touch(db, user.id)
        return await status(db, user)
    mine = await _entry(db, user.id)
    if mine is not None and mine.partner_code == code:
        return await status(db, user)  # the twin tap's, written since the check
    owner = await db.scalar(_partner_entry(code))
    if owner is None:  # matched or left since the check
        raise Conflict("someone else joined this partner entry", "queue_partner_full")
    if mine is not None:
        if mine.room_id is None:  # since the check
            raise Conflict(
                "you are already waiting in another queue; leave it first", "queue_other"
            )
        # an old entry of theirs, whose table was made
        await db.execute(delete(QueueEntry).where(QueueEntry.id == mine.id))
    now = utcnow()
    db.add(
        QueueEntry(
            user_id=user.id,
            game=owner.game,
            preset=owner.preset,
            partner_code=code,
            slot=1,
            wait_seconds=owner.wait_seconds,
            bot=owner.bot,
            joined_at=now,
            seen_at=now,
        )
    )
    user_id = user.id  # read before a rollback expires the user
    try:
        await db.commit()
    except IntegrityError:
        await db.rollback()
        again = await _entry(db, user_id)
        if again is not None and again.partner_code == code:
            await db.refresh(user)
            return await status(db, user)
        raise Conflict("someone else joined this partner entry", "queue_partner_full") from None
    # the pair waits from now on: the owner may have waited alone for the partner
    await db.execute(
        update(QueueEntry).where(QueueEntry.id == owner.id).values(joined_at=now, seen_at=now)
    )
    await db.commit()
    await match(db, owner.game, owner.preset)
    return await status(db, user)


async def leave(db: AsyncSession, user: User) -> None:
    """Take ``user`` out of the queue (a partner entry: both its people; the partner's
    page then says so). Not waiting: nothing to do."""
    mine = await _entry(db, user.id)
    if mine is None or mine.room_id is not None:
        return
    if mine.partner_code:
        where = [QueueEntry.partner_code == mine.partner_code, QueueEntry.room_id.is_(None)]
    else:
        where = [QueueEntry.id == mine.id, QueueEntry.room_id.is_(None)]
    await db.execute(delete(QueueEntry).where(*where))
    await db.commit()


async def tick(db: AsyncSession, user: User) -> dict[str, Any] | None:
    """The waiting page's poll: note that ``user`` still waits, make the tables that can
    be made (a wait that ran out fills with bots), return ``status``. Idempotent: a tick
    sent twice changes nothing more than one."""
    mine = await _entry(db, user.id)
    if mine is None:
        return None
    if mine.room_id is None:
        await _touch(db, user.id)
        await match(db, mine.game, mine.preset)
    return await status(db, user)


async def status(db: AsyncSession, user: User) -> dict[str, Any] | None:
    """``user``'s entry: ``{game, game_name (English), preset, partner_code, slot, partner (nickname or None),
    partner_ready, waited (seconds), wait_seconds, waiting (people in this queue now),
    room_id (their table once matched, else None)}``; None when they are in no queue or
    their table is over."""
    mine = await _entry(db, user.id)
    if mine is None:
        return None
    if mine.room_id is not None:
        room = await db.get(Room, mine.room_id, populate_existing=True)
        if room is None or room.status == "finished":
            return None
        if room.status == "open":  # matched, but the start was not made (a crash): again
            await _start(db, room.id)
    partner = None
    rows: list[QueueEntry] = [mine]
    if mine.partner_code:
        rows = list(
            (
                await db.scalars(
                    select(QueueEntry).where(QueueEntry.partner_code == mine.partner_code)
                )
            ).all()
        )
        other = next((r for r in rows if r.user_id != user.id), None)
        if other is not None:
            partner = await db.scalar(select(User.nickname).where(User.id == other.user_id))
    started = max(as_utc(r.joined_at) for r in rows)
    waiting = await db.scalar(
        select(func.count())
        .select_from(QueueEntry)
        .where(
            QueueEntry.game == mine.game,
            QueueEntry.preset == mine.preset,
            QueueEntry.room_id.is_(None),
            QueueEntry.seen_at >= utcnow() - timedelta(seconds=STALE_SECONDS),
        )
    )
    return {
        "game": mine.game,
        "game_name": rules.GAMES[mine.game].name,
        "preset": mine.preset,
        "partner_code": mine.partner_code,
        "slot": mine.slot,
        "partner": partner,
        "partner_ready": not mine.partner_code or len(rows) == 2,
        "waited": max(0, int((utcnow() - started).total_seconds())),
        "wait_seconds": mine.wait_seconds,
        "waiting": int(waiting or 0),
        "room_id": mine.room_id,
    }


# ---------------------------------------------------------------- matching


@dataclass
class _Unit:
    """People who are seated together: one person, or a partner entry's two."""

    rows: list[QueueEntry]

    @property
    def size(self) -> int:
        return len(self.rows)

    @property
    def first_id(self) -> int:
        return min(r.id for r in self.rows)

    def expired(self, now: datetime) -> bool:
        started = max(as_utc(r.joined_at) for r in self.rows)
        wait = min(r.wait_seconds for r in self.rows)
        return now >= started + timedelta(seconds=wait)


async def match(db: AsyncSession, game: str, preset: str) -> list[int]:
    """Make every table the queue of ``(game, preset)`` can make now; returns the new
    rooms' ids (started). Oldest entries first: a table is made when its seats are full
    of people, or, with bots in the rest, when an entry's wait has run out. A partner
    entry is matched once both its people are in. Entries whose page stopped ticking for
    ``STALE_SECONDS`` are dropped. Safe to run in any number of workers at once (the
    module's docstring)."""
    await db.commit()  # start from no open transaction: the lock is this function's
    players = rules.GAMES[game].players
    pool = [QueueEntry.game == game, QueueEntry.preset == preset, QueueEntry.room_id.is_(None)]
    is_pg = db.bind is not None and db.bind.dialect.name == "postgresql"
    if not is_pg:
        # SQLite: a write first, so this transaction holds the one writer lock from its start
        await db.execute(update(QueueEntry).where(*pool, QueueEntry.id < 0).values(slot=0))
    query = select(QueueEntry).where(*pool).order_by(QueueEntry.id)
    if is_pg:
        query = query.with_for_update(skip_locked=True)
    rows = list((await db.scalars(query.execution_options(populate_existing=True))).all())
    now = utcnow()
    stale = [r.id for r in rows if as_utc(r.seen_at) < now - timedelta(seconds=STALE_SECONDS)]
    if stale:
        stale_codes = {r.partner_code for r in rows if r.id in stale and r.partner_code}
        rows = [r for r in rows if r.id not in stale and r.partner_code not in stale_codes]
        await db.execute(delete(QueueEntry).where(QueueEntry.id.in_(stale)))
    # a person seated meanwhile at a table still playing (Play now in another tab) is not
    # seated twice: their entry, and their partner's, leave the queue
    busy = set(
        await db.scalars(
            select(Seat.user_id)
            .join(Room, Room.id == Seat.room_id)
            .where(
                Seat.user_id.in_([r.user_id for r in rows]),
                Seat.away.is_(False),
                Room.status == "playing",
            )
        )
    )
    if busy:
        busy_codes = {r.partner_code for r in rows if r.user_id in busy and r.partner_code}
        gone = [r.id for r in rows if r.user_id in busy or r.partner_code in busy_codes]
        rows = [r for r in rows if r.id not in gone]
        await db.execute(delete(QueueEntry).where(QueueEntry.id.in_(gone)))
    units = _units(rows)
    apart = await avoided(db, [r.user_id for r in rows]) if rows else set()
    made: list[tuple[Room, list[_Unit]]] = []
    while units:
        table: list[_Unit] = []
        seats = 0
        for unit in units:
            if apart and any(
                frozenset((a.user_id, b.user_id)) in apart
                for other in table
                for a in unit.rows
                for b in other.rows
            ):
                continue  # a block between them: never at one table (docs/chat.md)
            if seats + unit.size <= players:
                table.append(unit)
                seats += unit.size
            if seats == players:
                break
        if seats < players and not any(u.expired(now) for u in table):
            break
        made.append((await _make_room(db, game, preset, table), table))
        units = [u for u in units if u not in table]
    await db.commit()
    ids = [room.id for room, _ in made]  # read before a refused start's rollback expires them
    for room_id in ids:
        await _start(db, room_id)
    return ids


def _units(rows: list[QueueEntry]) -> list[_Unit]:
    """The rows as units, oldest first; a partner entry counts once both people are in."""
    singles = [_Unit([r]) for r in rows if not r.partner_code]
    pairs: dict[str, list[QueueEntry]] = {}
    for r in rows:
        if r.partner_code:
            pairs.setdefault(r.partner_code, []).append(r)
    units = singles + [_Unit(p) for p in pairs.values() if len(p) == 2]
    return sorted(units, key=lambda u: u.first_id)


async def _make_room(db: AsyncSession, game: str, preset: str, table: list[_Unit]) -> Room:
    """A room of ``game`` for the people of ``table`` (a partner entry in seats 0 and 2 or
    1 and 3), bots of the oldest entry's level in the empty seats; the rows are marked
    with it. Part of ``match``'s transaction (flushed, not committed)."""
    players = rules.GAMES[game].players
    options = rules.observe(rules.new_game(game, options_of(game, preset), 0), None)["options"]
    people: dict[int, int] = {}  # seat -> user id
    for unit in (u for u in table if u.size == 2):
        pair = (0, 2) if 0 not in people else (1, 3)
        for seat, row in zip(pair, sorted(unit.rows, key=lambda r: r.slot), strict=True):
            people[seat] = row.user_id
    free = [n for n in range(players) if n not in people]
    for unit in (u for u in table if u.size == 1):
        people[free.pop(0)] = unit.rows[0].user_id
    first = min((r for u in table for r in u.rows), key=lambda r: r.id)
    room = Room(
        game=game,
        options=options,
        status="open",
        created_by=first.user_id,
        max_timeouts=get_settings().default_max_timeouts,
        creation_key=f"queue-{first.id}-{secrets.token_hex(4)}",
        skip_empty_declaration=True,
        rated=True,  # quick play is rated, as Play now and the lobby's rooms are by default
    )
    room.seats = [
        Seat(
            seat=n,
            stand_in=False,
            user_id=people.get(n),
            bot=None if n in people else first.bot,
        )
        for n in range(players)
    ]
    db.add(room)
    await db.flush()
    ids = [r.id for u in table for r in u.rows]
    await db.execute(update(QueueEntry).where(QueueEntry.id.in_(ids)).values(room_id=room.id))
    return room


async def _start(db: AsyncSession, room_id: int) -> None:
    """Start a room the queue made (idempotent: a room already started is left as it is).
    In a session of its own: a refused start rolls back, which must not expire the
    caller's objects (its user, its entry)."""
    async with AsyncSession(db.bind, expire_on_commit=False) as own:
        room = await own.get(Room, room_id)
        if room is None or room.status != "open" or room.created_by is None:
            return
        starter = await own.get(User, room.created_by)
        if starter is None:
            return
        with contextlib.suppress(ServiceError):  # another worker started it a moment ago
            await service.start(own, room_id, starter)


# ---------------------------------------------------------------- helpers


def _check_wait(value: object) -> int:
    try:
        wait = int(str(value).strip())
    except ValueError:
        wait = -1
    if isinstance(value, bool) or not 0 <= wait <= WAIT_MAX:
        raise Unprocessable(
            f"the wait is a number of seconds from 0 to {WAIT_MAX}", "queue_wait", high=WAIT_MAX
        )
    return wait


def _new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


async def _entry(db: AsyncSession, user_id: int) -> QueueEntry | None:
    return await db.scalar(
        select(QueueEntry)
        .where(QueueEntry.user_id == user_id)
        .execution_options(populate_existing=True)
    )


async def _touch(db: AsyncSession, user_id: int) -> None:
    await db.execute(
        update(QueueEntry).where(QueueEntry.user_id == user_id).values(seen_at=utcnow())
    )
    await db.commit()


async def seated_room(db: AsyncSession, user_id: int) -> int | None:
    """The id of a room still playing where ``user_id`` holds a seat they have not left
    (the newest), or None."""
    return await db.scalar(
        select(Room.id)
        .join(Seat, Seat.room_id == Room.id)
        .where(Seat.user_id == user_id, Seat.away.is_(False), Room.status == "playing")
        .order_by(Room.id.desc())
        .limit(1)
    )


async def _refuse_seated(db: AsyncSession, user: User) -> None:
    room_id = await seated_room(db, user.id)
    if room_id is not None:
        raise Conflict(
            f"you are seated at table {room_id}, still playing: go back to it or leave it first",
            "queue_seated",
            room=room_id,
        )


def active_people() -> Select[Any]:
    """The ids of the people the rooms count as active now (app/core/hooks.py
    ``ActivePeople``): seated at a table not finished (open or playing, a seat they left
    included: it is kept for them), or waiting in the queue."""
    seated = (
        select(Seat.user_id)
        .join(Room, Room.id == Seat.room_id)
        .where(Seat.user_id.is_not(None), Room.status.in_(("open", "playing")))
    )
    waiting = select(QueueEntry.user_id).where(QueueEntry.room_id.is_(None))
    return select(union(seated, waiting).subquery().c[0])
