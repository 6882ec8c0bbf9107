"""Invitations and private rooms (issue 18 §1; docs/invitations.md).

Every room has an invitation code: 6 characters of ``CODE_ALPHABET`` (no look-alikes),
typed in any case, with dashes or spaces as read out ("abc-def"). The link
``/join/{code}`` carries it. Holding the code is knowing the room's secret:

* a **private** room is not listed (lobby, ``GET /api/rooms``) and its page, view,
  move log, sockets and records answer only to its owner, its seated people and whoever
  shows its code (the ``tapet_codes`` cookie the link or the code form sets; for programs
  ``?code=`` or the ``X-Tapet-Code`` header). Its owner may open it to spectators: then
  anyone may watch it by its address (it stays unlisted);
* the room's **owner** (``created_by``) may **offer** an empty seat or a bot's seat
  (``seats.offered``); whoever opens the invitation and takes it sits there, before the
  start or mid-match (a bot's seat: the owner's offer is the agreement). The seat goes
  to the first taker (one conditional UPDATE); the others get ``invite_seat_gone``.

Errors are the service's: ``NotFound``, ``Forbidden``, ``Conflict``, ``Unprocessable``,
each with a readable ``.message`` and a ``.code`` (app/web/errors.py translates it).
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable, Collection, Iterator
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.requests import HTTPConnection

from app import realtime
from app.accounts.limits import RateLimiter, configured, retry_after
from app.accounts.models import User
from app.core.errors import Conflict, Forbidden, NotFound, TooManyRequests, Unprocessable
from app.core.hooks import HOOKS
from app.rooms import play, queue, snapshot
from app.rooms.models import Room, Seat

#: The same alphabet as the queue's partner code (app/rooms/queue.py): no 0/O, 1/I/L.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: The cookie that remembers the codes this browser came through (newest first).
COOKIE = "tapet_codes"
COOKIE_KEEP = 20
HEADER = "x-tapet-code"


# ---------------------------------------------------------------- codes


def normalize_code(raw: object) -> str | None:
    """The code in ``raw`` as stored ("ABCDEF"), or None when it is not one. Case,
    dashes, dots and spaces do not matter; a pasted link ``.../join/abc-def`` counts."""
    text = str(raw or "").strip()
    if "/" in text:
        text = text.rstrip("/").rsplit("/", 1)[-1].split("?", 1)[0]
    code = "".join(c for c in text.upper() if c not in " -.\t")
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        return None
    return code


def spoken(code: str) -> str:
    """The code as shown to be read out: "ABC-DEF"."""
    return f"{code[:3]}-{code[3:]}"


def _new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


async def ensure_code(db: AsyncSession, room_id: int) -> str:
    """The room's invitation code, given now if it has none (rooms made before 0017, or
    just made). Two concurrent calls agree: only a NULL code is written. Raises NotFound."""
    for _attempt in range(8):
        code = await db.scalar(
            select(Room.invite_code)
            .where(Room.id == room_id)
            .execution_options(populate_existing=True)
        )
        if code is None and not await db.scalar(select(Room.id).where(Room.id == room_id)):
            raise NotFound(f"there is no room {room_id}", "no_room", n=room_id)
        if code:
            return code
        try:
            await db.execute(
                update(Room)
                .where(Room.id == room_id, Room.invite_code.is_(None))
                .values(invite_code=_new_code())
            )
            await db.commit()
        except IntegrityError:  # the code names another room already: draw again
            await db.rollback()
    raise Conflict("no free invitation code, try again", "invite_no_free_code")  # pragma: no cover


async def room_of_code(db: AsyncSession, raw: object, client: str | None = None) -> int:
    """The id of the room whose code ``raw`` is (``normalize_code``). Raises NotFound
    (``invite_no_code``) for a malformed or unknown code, which counts against ``client``
    (:func:`client_of`; docs/invitations.md), and TooManyRequests once ``client`` has had
    too many wrong codes."""
    with code_try(client):
        code = normalize_code(raw)
        room_id = (
            None
            if code is None
            else await db.scalar(select(Room.id).where(Room.invite_code == code))
        )
        if room_id is None:
            raise NotFound("no table has that code", "invite_no_code")
    return room_id


class Shown(frozenset[str]):
    """The codes a request shows (:func:`codes_of`), with ``client``: who showed them (its
    address), for the limit on wrong codes."""

    client: str | None = None


def client_of(conn: HTTPConnection) -> str:
    """The key of the limit on wrong codes for a request or socket: its client address."""
    return f"ip:{conn.client.host if conn.client else '?'}"


def codes_of(conn: HTTPConnection) -> Shown:
    """The codes a request shows: its ``tapet_codes`` cookie (its first ``COOKIE_KEEP``, as
    many as the server ever writes there: a cookie of thousands would try them all at
    once), ``X-Tapet-Code`` header and ``?code=`` (each normalized; malformed ones
    dropped)."""
    raw = [*(conn.cookies.get(COOKIE) or "").split(".")[:COOKIE_KEEP]]
    raw += [conn.headers.get(HEADER) or "", conn.query_params.get("code") or ""]
    shown = Shown(c for c in (normalize_code(r) for r in raw if r) if c)
    shown.client = client_of(conn)
    return shown


# ---------------------------------------------------------------- guessing does not pay


def _limit() -> RateLimiter | None:
    """The per-address bucket of wrong codes (``TAPET_RATE_CODE_FAILURES``), or None when
    rate limits are off."""
    return configured("code_failures")


def _take_code_try(client: str | None) -> None:
    """Take one of ``client``'s tokens before a code of theirs is tried (given back by
    :func:`_give_code_try_back` when it opens what it names: a room, or a quick-play
    partner entry, app/table/queue_pages.py), at once, so that requests fired together
    cannot all pass before any is counted. Raises TooManyRequests (``rate_code_failures``)
    when none is left: then no code of theirs is tried, the right one neither (else the
    refusal itself would tell a right code from a wrong one)."""
    limit = _limit()
    if client is not None and limit is not None and (wait := limit.hit(client)) > 0:
        seconds = retry_after(wait)
        raise TooManyRequests(
            f"too many wrong invitation codes: try again in {seconds} s",
            seconds,
            "rate_code_failures",
            n=seconds,
        )


def _give_code_try_back(client: str | None) -> None:
    """Give back the token of ``client``'s code that opened what it names: only wrong codes count."""
    limit = _limit()
    if client is not None and limit is not None:
        limit.refund(client)


@contextlib.contextmanager
def code_try(
    client: str | None, wrong: tuple[type[BaseException], ...] = (NotFound,)
) -> Iterator[None]:
    """A code of ``client``'s tried inside the block: a token taken first
    (:func:`_take_code_try`, which may raise TooManyRequests), given back unless the block
    raises one of ``wrong`` (the code named nothing: it counts)."""
    _take_code_try(client)
    try:
        yield
    except wrong:
        raise
    except BaseException:
        _give_code_try_back(client)
        raise
    _give_code_try_back(client)


def cookie_value(conn: HTTPConnection, code: str) -> str:
    """The ``tapet_codes`` cookie with ``code`` added first (at most ``COOKIE_KEEP``)."""
    old = [c for c in (conn.cookies.get(COOKIE) or "").split(".") if normalize_code(c)]
    kept = [code, *(c for c in old if c != code)][:COOKIE_KEEP]
    return ".".join(kept)


# ---------------------------------------------------------------- who may see a room


def may_see(
    room: snapshot.RoomData | Room, user: User | None, codes: Collection[str], code: str | None
) -> bool:
    """Whether ``user`` (showing ``codes``) may see ``room`` (whose code is ``code``): a
    public room, or a private one's owner, seated person (also one a stand-in plays for),
    anyone when it is open to spectators, or a holder of its code."""
    return _without_code(room, user) or (code is not None and code in codes)


def _without_code(room: snapshot.RoomData | Room, user: User | None) -> bool:
    """Whether ``user`` may see ``room`` whatever codes they show (``may_see``)."""
    if not room.private or room.spectators_open:
        return True
    return user is not None and (
        room.created_by == user.id or any(s.user_id == user.id for s in room.seats)
    )


def seer(
    user: User | None, codes: Collection[str], code: str | None
) -> Callable[[snapshot.RoomData], bool]:
    """``may_see`` for one socket: its ``user``, the ``codes`` it came with and the room's
    ``code`` (``require_access``'s answer at its handshake), asked again of the room's
    snapshot at every push (``fanout.ViewCache.get``'s ``sees``)."""
    return lambda room: may_see(room, user, codes, code)


PRIVATE = "this table is private: open it with its link or its code"


async def require_access(
    db: AsyncSession, room_id: int, user: User | None, codes: Collection[str]
) -> str | None:
    """Refuse a private room to who may not see it (``may_see``): Forbidden
    ``room_private``. Returns the room's code (None until one is given; once given it is
    kept), which a socket keeps to ask ``may_see`` again at every push: the owner may
    close the room to spectators while they watch. Raises NotFound for no such room.

    Codes shown to a private room that they do not open count against who showed them
    (``codes.client`` of :func:`codes_of`): once too many, TooManyRequests
    (``rate_code_failures``) before any code is tried (docs/invitations.md)."""
    room = await snapshot.load_room(db, room_id)
    if _without_code(room, user):
        return room.invite_code
    if not codes:  # nothing shown: nothing tried, nothing counted
        raise Forbidden(PRIVATE, "room_private")
    with code_try(getattr(codes, "client", None), (Forbidden,)):
        if room.invite_code is None or room.invite_code not in codes:
            raise Forbidden(PRIVATE, "room_private")
    return room.invite_code


# ---------------------------------------------------------------- the owner's settings


def _owner(room: Room, user: User) -> None:
    if room.created_by is None or room.created_by != user.id:
        raise Forbidden("only the table's owner may do this", "invite_owner_only")


async def _publish(db: AsyncSession, room_id: int) -> None:
    game = await snapshot.latest_game(db, room_id)
    seq = 0
    if game is not None:
        seq = (await play.load(db, game)).state.seq
    await realtime.current().publish(room_id, seq)


async def my_private_rooms(db: AsyncSession, user: User | None) -> list[dict[str, Any]]:
    """The private rooms, open or playing, that ``user`` owns or sits in, newest first
    (at most 20): ``[{id, game, status}]`` for the lobby (they are in no list)."""
    if user is None:
        return []
    seated = select(Seat.room_id).where(Seat.user_id == user.id)
    rows = await db.execute(
        select(Room.id, Room.game, Room.status)
        .where(
            Room.private.is_(True),
            Room.status.in_(("open", "playing")),
            (Room.created_by == user.id) | Room.id.in_(seated),
        )
        .order_by(Room.id.desc())
        .limit(20)
    )
    return [{"id": i, "game": g, "status": st} for i, g, st in rows.all()]


async def invitation(db: AsyncSession, room_id: int, user: User | None) -> dict[str, Any] | None:
    """What the share panel shows ``user``: ``{code, spoken, link, owner, private,
    spectators_open, offers: [seat], offerable: [seat]}`` for the room's owner and
    seated people (the code is given now if the room had none); None for anyone else
    (a spectator of a public room shares its address). Raises NotFound."""
    room = await snapshot.load_room(db, room_id)
    owner = user is not None and room.created_by == user.id
    seated = user is not None and any(s.user_id == user.id for s in room.seats)
    if not (owner or seated):
        return None
    private, spectators_open, status = room.private, room.spectators_open, room.status
    offers = [s.seat for s in room.seats if s.offered]
    # a rated match is rated as seated at the start: no offer while it runs (``offer_seat``)
    locked = status == "finished" or (status == "playing" and room.rated)
    offerable = [s.seat for s in room.seats if s.user_id is None and not s.offered and not locked]
    code = await ensure_code(db, room_id)
    return {
        "code": code,
        "spoken": spoken(code),
        "link": f"/join/{code}",
        "owner": owner,
        "private": private,
        "spectators_open": spectators_open,
        "offers": offers,
        "offerable": offerable,
        "status": status,
    }


async def offer_seat(
    db: AsyncSession, room_id: int, seat: int, user: User, offered: bool = True
) -> dict[str, Any]:
    """The owner offers (``offered``) or withdraws the offer of ``seat``: an empty seat or
    a bot's (not one kept for a person who left); during the match only in a casual room
    (a rated match is rated as seated at the start). Doing it again changes nothing.
    Returns room info. Raises NotFound, Forbidden (not the owner), Conflict (a person's
    seat, the match over, a rated match running, a championship's table)."""
    room = await snapshot.load_room(db, room_id)
    _owner(room, user)
    chair = next((s for s in room.seats if s.seat == seat), None)
    if chair is None:
        raise NotFound(
            f"room {room_id} has no seat {seat}", "room_no_seat", room=room_id, seat=seat
        )
    if room.status == "finished":
        raise Conflict("the game is over", "game_over")
    if offered and await HOOKS.room_labels(db, [room_id]):  # a championship seats its teams
        raise Conflict("a championship's table seats its own players", "invite_championship")
    if offered and room.status == "playing" and room.rated:
        # a rated match is rated as it was seated at the start (app/records/ratings.py)
        raise Conflict(
            "a rated match keeps its seats: offer a bot's seat in a casual room",
            "invite_rated_running",
        )
    if offered and chair.user_id is not None:
        raise Conflict(f"seat {seat} is taken", "seat_taken", seat=seat)
    if chair.offered != offered:
        done = await db.execute(
            update(Seat)
            .where(Seat.room_id == room_id, Seat.seat == seat, Seat.user_id.is_(None))
            .values(offered=offered)
        )
        await db.commit()
        if offered and done.rowcount != 1:  # type: ignore[attr-defined]
            raise Conflict(f"seat {seat} is taken", "seat_taken", seat=seat)
        await _publish(db, room_id)
    return await _info(db, room_id)


async def open_to_spectators(
    db: AsyncSession, room_id: int, user: User, value: bool
) -> dict[str, Any]:
    """The owner opens (``value``) or closes a private room to spectators. Idempotent.
    The room's event tells its sockets, which ask ``may_see`` again: a spectator who has
    no code is cut off when it closes. Returns room info. Raises NotFound, Forbidden (not
    the owner), Unprocessable (a public room is open to everyone)."""
    room = await snapshot.load_room(db, room_id)
    _owner(room, user)
    if not room.private:
        raise Unprocessable("a public table is open to everyone", "invite_public_room")
    await db.execute(update(Room).where(Room.id == room_id).values(spectators_open=value))
    await db.commit()
    await _publish(db, room_id)
    return await _info(db, room_id)


# ---------------------------------------------------------------- taking an offered seat


async def claim_seat(
    db: AsyncSession, room_id: int, seat: int, user: User, code: object, client: str | None = None
) -> dict[str, Any]:
    """``user``, who came with the invitation ``code``, takes the offered ``seat`` (its bot,
    if any, leaves; mid-match the person plays on from where the bot was). Taking it again
    changes nothing. Returns room info. Raises NotFound, Forbidden (``invite_bad_code``:
    not this room's code; ``invite_blocked``: someone seated there, or the owner, blocked
    ``user`` or was blocked by them, through the avoid hook of quick play), Conflict (``invite_not_offered``; ``invite_seat_gone``:
    someone took it first; ``already_hold_seat``; ``game_over``), TooManyRequests once
    ``client`` (:func:`client_of`) has had too many wrong codes (a wrong one counts)."""
    room = await snapshot.load_room(db, room_id)
    with code_try(client, (Forbidden,)):
        good = normalize_code(code)
        if good is None or good != room.invite_code:
            raise Forbidden("that is not this table's invitation code", "invite_bad_code")
    chair = next((s for s in room.seats if s.seat == seat), None)
    if chair is None:
        raise NotFound(
            f"room {room_id} has no seat {seat}", "room_no_seat", room=room_id, seat=seat
        )
    if chair.user_id == user.id:
        return await _info(db, room_id)  # a double tap: it is yours already
    mine = next((s.seat for s in room.seats if s.user_id == user.id), None)
    if mine is not None:
        raise Conflict(f"you already hold seat {mine} in this room", "already_hold_seat", seat=mine)
    if room.status == "finished":
        raise Conflict("the game is over", "game_over")
    if not chair.offered:
        if chair.user_id is not None:
            raise Conflict("someone took that seat before you", "invite_seat_gone")
        raise Conflict("that seat is not offered", "invite_not_offered")
    # the people seated there and the owner who made the offer (seated or not: a fresh
    # tester's blocked guest took the seat of an owner who had not sat down)
    present = {s.user_id for s in room.seats if s.user_id is not None}
    if room.created_by is not None:
        present.add(room.created_by)
    present.discard(user.id)
    if present and any(user.id in pair for pair in await queue.avoided(db, [user.id, *present])):
        # issue 18 §5: a block (either way) means no invitation; who blocked is not said
        raise Forbidden("you cannot sit at this table", "invite_blocked")
    try:
        done = await db.execute(
            update(Seat)
            .where(
                Seat.room_id == room_id,
                Seat.seat == seat,
                Seat.offered.is_(True),
                Seat.user_id.is_(None),
            )
            .values(
                user_id=user.id, bot=None, stand_in=False, away=False, timeouts=0, offered=False
            )
        )
        taken = done.rowcount == 1  # type: ignore[attr-defined]  # a DML statement's Result
        if taken:
            await db.commit()
        else:
            await db.rollback()
    except IntegrityError:  # the same person took another seat of this room meanwhile
        await db.rollback()
        raise Conflict("you already hold a seat in this room", "already_seated") from None
    if not taken:
        holder = await db.scalar(
            select(Seat.user_id).where(Seat.room_id == room_id, Seat.seat == seat)
        )
        if holder != user.id:
            raise Conflict("someone took that seat before you", "invite_seat_gone")
        return await _info(db, room_id)  # a twin tap took it for them a moment ago
    await _publish(db, room_id)
    return await _info(db, room_id)


async def _info(db: AsyncSession, room_id: int) -> dict[str, Any]:
    room = await snapshot.load_room(db, room_id)
    data = snapshot.room_data(room)
    return snapshot.info_of(data, await snapshot.names_of(db, data))
