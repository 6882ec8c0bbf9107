"""Who is online now, across workers (issue 18 §3; docs/social.md).

A person is **online** when some worker saw them in the last ``ONLINE_SECONDS`` (120 s):
a request signed in as them, a socket they opened, or a socket of theirs still open
(the heartbeat). A worker knows only its own requests and sockets, so what every worker
must read is stored: ``users.seen_at`` (migration 0019).

The write cost is bounded: each worker writes a person's ``seen_at`` at most every
``TOUCH_EVERY`` seconds (30 s; ``Throttle``, process memory), never once per request:

* ``SeenMiddleware`` (an ASGI middleware): after a request (or at a socket's connect) it
  reads the session token's signature (no database) and, only when that person is due,
  checks the session in the database (a revoked token never marks anyone online) and
  writes ``seen_at`` in one UPDATE;
* ``People.beat`` (a task of the app's lifespan): every ``TOUCH_EVERY`` seconds, one
  UPDATE for the people with a socket open in this process (``hub.presence``) who are due.

So a person costs at most one small UPDATE per worker per 30 s, however many requests
and sockets they make. The database rather than Redis for the reasons of rooms.seen_at
(docs/presence.md): Redis is optional in Tapet and the fact is read together with users.

Reading (``presence_of``): a person who hid their online status (``users.presence_hidden``)
is never online to anyone, and their table is never shown; "at which table" is their seat
at a room the lobby lists (``app.rooms.service.listed_in_lobby``), so a room the lobby does
not list (a private room) is never named.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from app import rules
from app.accounts import service as accounts
from app.accounts.models import User
from app.core.db import as_utc, utcnow
from app.core.tasks import STOP_GRACE, cancel_within
from app.realtime import Hub
from app.rooms.models import Room, Seat
from app.rooms.service import listed_in_lobby

log = logging.getLogger(__name__)

#: Seen within this many seconds: online now.
ONLINE_SECONDS = 120
#: A worker writes a person's ``seen_at`` at most this often (seconds).
TOUCH_EVERY = 30.0
#: The throttle forgets entries older than this many intervals when it grows past ``_PRUNE_AT``.
_PRUNE_AT = 10_000


class Throttle:
    """Which people are due a ``seen_at`` write in this process (at most one per
    ``every`` seconds per person); ``clock`` is monotonic seconds (tests pass their own)."""

    def __init__(self, every: float = TOUCH_EVERY, clock: Callable[[], float] = time.monotonic):
        self.every = every
        self.clock = clock
        self._last: dict[int, float] = {}

    def due(self, user_ids: Iterable[int]) -> list[int]:
        """The ids among ``user_ids`` not written within ``every`` seconds, now marked as
        written (a caller that fails to write calls ``forget``)."""
        now = self.clock()
        if len(self._last) > _PRUNE_AT:
            self._last = {k: t for k, t in self._last.items() if now - t < self.every}
        due = []
        for uid in sorted(set(user_ids)):
            last = self._last.get(uid)
            if last is None or now - last >= self.every:
                self._last[uid] = now
                due.append(uid)
        return due

    def forget(self, user_ids: Iterable[int]) -> None:
        """Make ``user_ids`` due again (their write failed or was refused)."""
        for uid in user_ids:
            self._last.pop(uid, None)


async def touch(db: AsyncSession, user_ids: Iterable[int], at: datetime | None = None) -> int:
    """``users.seen_at`` = ``at`` (now) for ``user_ids``, in one UPDATE; committed.
    Returns the number of statements run (0 or 1)."""
    ids = sorted(set(user_ids))
    if not ids:
        return 0
    await db.execute(update(User).where(User.id.in_(ids)).values(seen_at=at or utcnow()))
    await db.commit()
    return 1


class People:
    """This app's presence writer: the throttle, the socket heartbeat task and a count of
    the UPDATEs it ran (``writes``, for the cost measure in tests and profiles)."""

    def __init__(self, every: float = TOUCH_EVERY) -> None:
        self.throttle = Throttle(every)
        self.writes = 0
        self.sessionmaker: Callable[[], AsyncSession] | None = None
        self.hub: Hub | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self, sessionmaker: Callable[[], AsyncSession], hub: Hub) -> None:
        """Start the socket heartbeat (from the app's lifespan)."""
        self.sessionmaker, self.hub = sessionmaker, hub
        if self._task is None:
            self._task = asyncio.create_task(self._beat(), name="tapet-people-presence")

    async def stop(self) -> None:
        """Stop the heartbeat."""
        if self._task is not None:
            await cancel_within([self._task], STOP_GRACE)  # bounded: never holds the shutdown
            self._task = None

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.throttle.every)
            try:
                await self.beat()
            except Exception:  # noqa: BLE001 - keep beating through a database outage
                log.exception("could not write the people's presence")

    def socket_people(self) -> set[int]:
        """The signed-in people with a socket open in this process."""
        if self.hub is None:
            return set()
        presence = self.hub.presence
        return {uid for room in presence.rooms() for uid in presence.viewers(room) if uid}

    async def beat(self) -> int:
        """One heartbeat: ``seen_at`` for the due people with a socket open here (one
        UPDATE, or none). Returns the number of people written."""
        if self.sessionmaker is None:
            return 0
        due = self.throttle.due(self.socket_people())
        if not due:
            return 0
        try:
            async with self.sessionmaker() as db:
                self.writes += await touch(db, due)
        except Exception:
            self.throttle.forget(due)
            raise
        return len(due)

    async def seen(self, conn: HTTPConnection, websocket: bool) -> None:
        """A request (or a socket's connect) of ``conn``: ``seen_at`` for its person if due
        and its session is live (checked in the database only then)."""
        token = accounts.socket_token(conn) if websocket else accounts.token_from_request(conn)
        uid = accounts.user_id_from_token(token)
        if uid is None or not self.throttle.due([uid]):
            return
        sessionmaker = self.sessionmaker or getattr(conn.app.state, "sessionmaker", None)
        if sessionmaker is None:
            self.throttle.forget([uid])
            return
        try:
            async with sessionmaker() as db:
                user = await accounts.user_from_token(token, db)
                if user is None or user.id != uid:
                    return  # a dead token: nobody seen (and no second check for 30 s)
                self.writes += await touch(db, [uid])
        except Exception:  # noqa: BLE001 - presence never fails a request
            self.throttle.forget([uid])
            log.exception("could not write a person's presence")


class SeenMiddleware:
    """Marks the signed-in person of every request and socket as seen (``People.seen``):
    after an HTTP request's answer, at a socket's connect."""

    def __init__(self, app: ASGIApp, people: People) -> None:
        self.app = app
        self.people = people

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "websocket":
            await self.people.seen(HTTPConnection(scope), websocket=True)
            await self.app(scope, receive, send)
        elif kind == "http":
            await self.app(scope, receive, send)
            await self.people.seen(HTTPConnection(scope), websocket=False)
        else:
            await self.app(scope, receive, send)


# ---------------------------------------------------------------- reading


def _listed() -> list[Any]:
    """The lobby's rule, and no private room whatever the rule says (a ``private`` flag
    that rooms may grow: issue 18 §1)."""
    where = listed_in_lobby()
    private = getattr(Room, "private", None)
    if private is not None:
        where.append(private.is_not(True))
    return where


async def tables_of(db: AsyncSession, user_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    """user id -> ``{id, game, game_name, status, free, bots}`` of the lobby-listed room
    where they hold a seat (not one they left: ``away``); a playing room before an open
    one, then the newest. ``free``: empty seats; ``bots``: seats played by a bot."""
    ids = sorted(set(user_ids))
    if not ids:
        return {}
    rows = (
        await db.execute(
            select(Seat.user_id, Room.id, Room.game, Room.status)
            .join(Room, Room.id == Seat.room_id)
            .where(Seat.user_id.in_(ids), Seat.away.is_(False), *_listed())
        )
    ).all()
    best: dict[int, tuple[int, str, str]] = {}
    for uid, room_id, game, status in rows:
        if uid is None:
            continue
        key = (status == "playing", room_id)
        old = best.get(uid)
        if old is None or key > (old[2] == "playing", old[0]):
            best[uid] = (room_id, game, status)
    room_ids = sorted({v[0] for v in best.values()})
    seats = (
        await db.execute(
            select(Seat.room_id, Seat.user_id, Seat.bot, Seat.away).where(
                Seat.room_id.in_(room_ids)
            )
        )
    ).all()
    free: dict[int, int] = dict.fromkeys(room_ids, 0)
    bots: dict[int, int] = dict.fromkeys(room_ids, 0)
    for room_id, uid, bot, away in seats:
        if bot is not None or away:
            bots[room_id] += 1
        elif uid is None:
            free[room_id] += 1
    out = {}
    for uid, (room_id, game, status) in best.items():
        ruleset = rules.GAMES.get(game)
        out[uid] = {
            "id": room_id,
            "game": game,
            "game_name": ruleset.name if ruleset else game,
            "status": status,
            "free": free[room_id],
            "bots": bots[room_id],
        }
    return out


def is_online(user: User, now: datetime | None = None) -> bool:
    """True when ``user`` shows as online to others: seen within ``ONLINE_SECONDS`` and
    not hiding their online status."""
    if user.presence_hidden or user.seen_at is None:
        return False
    return as_utc(user.seen_at) >= (now or utcnow()) - timedelta(seconds=ONLINE_SECONDS)


async def presence_of(
    db: AsyncSession, people: Iterable[User], now: datetime | None = None
) -> dict[int, dict[str, Any]]:
    """user id -> ``{"online": bool, "table": tables_of's entry or None}`` as others may
    see it: a hidden person (``presence_hidden``) is ``{"online": False, "table": None}``;
    a table is shown only for an online person."""
    people = list(people)
    online = {u.id for u in people if is_online(u, now)}
    tables = await tables_of(db, online)
    return {
        u.id: {"online": u.id in online, "table": tables.get(u.id) if u.id in online else None}
        for u in people
    }
