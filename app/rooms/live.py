"""Live rooms: this process's current snapshot of each room it serves, kept in memory.

A move is written once, as its row ``(game_id, seq)`` of the move log, and applied in
memory by every process that keeps the room: ``play.commit`` publishes the move's
actions as its event's data (``{"kind": "move", ...}``, ``move_data``); the hub tells
this store synchronously in the process that stored it, and the broker carries it to
the others, which apply the same actions to the same state (the engine is pure). So
neither the move's answer, nor the sockets' views (app/rooms/fanout.py), nor the bot
runner's "what is due" read the database after a move: one insert is the move's whole
cost in statements.

Everything else that changes a room (a seat taken or left, a clock's timeout, the
match's end, a rematch vote) publishes an event without data: every process forgets
the room, and reads it again (``snapshot.read``, once for all who wait) when it is next
needed. A chat event (``{"kind": "chat"}``) leaves the room as it is. An event that
cannot be applied (the process missed the one before: its snapshot is not at the
move's ``from`` seq) forgets the room too, and a snapshot is read again after
``MAX_AGE`` seconds in any case (a nickname changed), so memory is never behind the
log for longer than one event's trip.

Memory is trusted for the checks of a person's move (whose turn, which seat, which
seq) but never for its authority: the move's insert carries the seat's guard (that
seat still held by that user, the room still playing) and the ``(game_id, seq)`` key,
so a move checked against a stale snapshot is refused by the database, and the caller
tries again on a fresh read (``service.post_move``). Decision (docs/server.md "Live
rooms"): every process keeps a replica fed by the events, rather than forwarding a move
to one owner, so a move never waits for a second hop.
"""

from __future__ import annotations

import asyncio
import itertools
import time
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

import orjson

from app import realtime, rules
from app.rooms import play, snapshot
from app.rooms.snapshot import Snapshot

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

    from app.realtime.hub import Hub

MAX_ROOMS = 20_000  # snapshots kept (a few KB each); the least recently used go first
MAX_VIEWED = 4_096  # rooms whose views are kept (some 100 KB each with every audience's)
MAX_AGE = 60.0  # seconds before a kept snapshot is read again
VIEW_TTL = 2.0  # seconds a projected view is served (the spectator count, the clock)
READS_AT_ONCE = (
    8  # below the connection pool's 30 (app/core/db.py), so requests still get a connection
)

MOVE = "move"
CHAT = "chat"


def move_data(
    game_id: int,
    before: int,
    actions: Sequence[rules.Action],
    at: datetime,
    seat_back: int | None = None,
    commitment: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The data of a move's event: ``{"kind": "move", "game", "from", "actions", "at",
    "seat", "commitment"}``: the actions stored as moves ``before``, ``before + 1``...
    at ``at``; ``seat`` the seat whose person came back with it (no stand-in, no
    timeouts, not away: ``snapshot.after_move``) or None; ``commitment`` the new deal's
    ``{deal_no, sha256}`` when the move is a deal. JSON-able (it crosses Redis)."""
    return {
        "kind": MOVE,
        "game": game_id,
        "from": before,
        "actions": list(actions),
        "at": at.isoformat(),
        "seat": seat_back,
        "commitment": commitment,
    }


class Unfit(Exception):
    """The event does not apply to the kept snapshot (read the room again)."""


def advance(snap: Snapshot, data: dict[str, Any]) -> Snapshot:
    """``snap`` after the move ``data`` (``move_data``'s shape). Pure. Raises Unfit when
    ``snap`` is not the position the move was made from, or when the move ends the match
    (its end writes more than the move: read it)."""
    if snap.game_id != data.get("game") or snap.seq != data.get("from"):
        raise Unfit
    state, deal_seq = snap.state, snap.loaded.deal_seq if snap.loaded is not None else None
    actions = data["actions"]
    for action in actions:
        if action.get("type") == "deal":
            deal_seq = state.seq
        try:
            state = rules.apply(state, action)
        except rules.IllegalAction:
            raise Unfit from None
    if rules.is_over(state):
        raise Unfit
    loaded = play.Loaded(state, datetime.fromisoformat(data["at"]), actions[-1], deal_seq)
    commitment = data.get("commitment") or snap.commitment
    return snapshot.after_move(replace(snap, commitment=commitment), loaded, data.get("seat"))


def encode(message: dict[str, Any]) -> str:
    """JSON text as Starlette's ``send_json`` writes it (compact, UTF-8 as is), by orjson:
    a view is encoded once per audience and move, and the standard library's encoder
    was a tenth of the server's CPU a move (docs/benchmarks.md "Live rooms")."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


@dataclass(slots=True)
class Entry:
    """One audience's view of one snapshot (``snapshot.view_for_seat``), shared by every
    socket of that audience and the move's answer: never change it. ``text`` is the
    socket's message (``{**view, "type": "view"}``), ``body`` the view alone (the answer
    of ``POST .../moves``), each encoded on first use."""

    view: dict[str, Any]
    _text: str | None = None
    _body: str | None = None

    @property
    def text(self) -> str:
        """The JSON socket's message."""
        if self._text is None:
            self._text = encode({**self.view, "type": "view"})
        return self._text

    @property
    def body(self) -> str:
        """The view as JSON."""
        if self._body is None:
            self._body = encode(self.view)
        return self._body


@dataclass(slots=True)
class _Kept:
    snap: Snapshot
    born: float
    views: dict[int | None, Entry] = field(default_factory=dict)
    views_of: Snapshot | None = None
    views_born: float = 0.0
    info: dict[str, Any] | None = None  # the room info of ``views_of``, for every audience


class LiveRooms:
    """The kept snapshots of one process (module docstring). ``reads`` counts snapshots
    read from the database, ``applied`` the moves applied in memory."""

    def __init__(self, size: int = MAX_ROOMS, max_age: float = MAX_AGE) -> None:
        self.size, self.max_age = size, max_age
        self._kept: OrderedDict[int, _Kept] = OrderedDict()
        self._epochs: dict[int, int] = {}
        self._counter = itertools.count(1)
        self._reading: dict[int, tuple[int, asyncio.Future[Snapshot]]] = {}
        self._viewed: OrderedDict[int, _Kept] = OrderedDict()  # rooms with views, oldest first
        #: per room, one list per read in flight: the moves heard while it reads
        self._heard: dict[int, list[list[dict[str, Any]]]] = {}
        self._slots: asyncio.Semaphore | None = None
        self.reads = 0
        self.applied = 0
        self.builds = 0  # views projected, one per audience and snapshot
        self.hits = 0  # views served from a projection already made

    def clear(self) -> None:
        """Forget every room (tests that empty the database)."""
        self._kept.clear()
        self._epochs.clear()
        self._reading.clear()
        self._heard.clear()
        self._viewed.clear()

    def forget(self, room_id: int) -> None:
        """Drop ``room_id``'s snapshot; a read in progress will not be kept either."""
        self._kept.pop(room_id, None)
        self._epochs[room_id] = next(self._counter)
        if len(self._epochs) > 4 * self.size:  # reads in progress then keep nothing: harmless
            self._epochs.clear()

    def on_event(self, room_id: int, seq: int, data: dict[str, Any] | None) -> None:
        """The hub's watcher (``Hub.watch_rooms``): apply a move, ignore a chat event,
        forget the room on anything else. A move of a room being read is handed to the
        reads in flight, which apply it if their snapshot predates it (a busy room is
        kept even when its moves come faster than a read)."""
        kind = data.get("kind") if data else None
        if kind == CHAT:
            return
        if kind == MOVE and data is not None:
            listening = self._heard.get(room_id)
            if listening and room_id not in self._kept:
                for heard in listening:
                    heard.append(data)
                return
            kept = self._kept.get(room_id)
            if kept is not None and kept.snap.game_id == data.get("game"):
                if kept.snap.seq >= seq:
                    return  # already applied: the echo of this process's own move
                try:
                    kept.snap = advance(kept.snap, data)
                    kept.views, kept.info = {}, None  # the old position's: let them go
                except (Unfit, KeyError, TypeError, ValueError, AttributeError):
                    pass
                else:
                    self.applied += 1
                    return
        self.forget(room_id)

    def kept(self, room_id: int) -> Snapshot | None:
        """The kept snapshot of ``room_id`` if it is young enough, else None."""
        kept = self._kept.get(room_id)
        if kept is None or time.monotonic() - kept.born > self.max_age:
            return None
        self._kept.move_to_end(room_id)
        return kept.snap

    def entry(self, room_id: int, snap: Snapshot, seat: int | None, ttl: float) -> Entry:
        """The view of ``seat`` (None: the spectators) of ``snap``, projected once per
        audience while ``snap`` is the room's kept snapshot, and again after ``ttl``
        seconds (the spectator count and the clock move without an event). Pure: no read."""
        kept = self._kept.get(room_id)
        if kept is None or kept.snap is not snap:
            self.builds += 1
            return Entry(snapshot.view_for_seat(snap, seat))  # not kept: nobody shares it
        now = time.monotonic()
        if kept.views_of is not snap or now - kept.views_born > ttl:
            kept.views, kept.views_of, kept.views_born = {}, snap, now
            self._viewed[room_id] = kept
            self._viewed.move_to_end(room_id)
            while len(self._viewed) > MAX_VIEWED:  # the views of rooms nobody looked at lately
                _gone, old = self._viewed.popitem(last=False)
                old.views, old.views_of, old.info = {}, None, None
            kept.info = snapshot.info_of(snap.room, snap.names)
        found = kept.views.get(seat)
        if found is None:  # no await from the look-up to the store: one projection each
            self.builds += 1
            found = kept.views[seat] = Entry(snapshot.view_for_seat(snap, seat, kept.info))
        else:
            self.hits += 1
        return found

    def _listen(self, room_id: int) -> list[dict[str, Any]]:
        """A list that collects the moves of ``room_id`` heard from now on (a read starts)."""
        heard: list[dict[str, Any]] = []
        self._heard.setdefault(room_id, []).append(heard)
        return heard

    def _unlisten(self, room_id: int, heard: list[dict[str, Any]]) -> None:
        listening = self._heard.get(room_id, [])
        if heard in listening:
            listening.remove(heard)
        if not listening:
            self._heard.pop(room_id, None)

    def _keep(
        self, room_id: int, snap: Snapshot, epoch: int, heard: list[dict[str, Any]]
    ) -> Snapshot:
        """Keep ``snap``, read from the database, with the moves ``heard`` meanwhile that it
        does not hold yet; nothing is kept if the room changed otherwise meanwhile, or if
        a move heard does not follow. Returns the snapshot to answer with."""
        self._unlisten(room_id, heard)
        if room_id in self._kept:  # another read finished first
            other = self._kept[room_id].snap
            return other if other.game_id == snap.game_id and other.seq >= snap.seq else snap
        if self._epochs.get(room_id, 0) != epoch:
            return snap  # the room changed while it was read: this read may predate it
        for data in heard:
            try:
                if data["from"] + len(data["actions"]) <= snap.seq:
                    continue  # the read saw it already
                snap = advance(snap, data)
            except (Unfit, KeyError, TypeError, ValueError, AttributeError):
                return snap
        self._kept[room_id] = _Kept(snap, time.monotonic())
        self._kept.move_to_end(room_id)
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)
        return snap

    async def get(
        self,
        room_id: int,
        sessionmaker: async_sessionmaker[AsyncSession] | None = None,
        db: AsyncSession | None = None,
    ) -> Snapshot:
        """The current snapshot of ``room_id``: the kept one, else one read (with ``db``,
        or a session of ``sessionmaker`` shared by every caller waiting for the same
        room). Raises NotFound like ``snapshot.read``."""
        snap = self.kept(room_id)
        if snap is not None:
            return snap
        epoch = self._epochs.get(room_id, 0)
        if db is not None:
            self.reads += 1
            heard = self._listen(room_id)
            try:
                snap = await snapshot.read(db, room_id)
            except BaseException:
                self._unlisten(room_id, heard)
                raise
            return self._keep(room_id, snap, epoch, heard)
        assert sessionmaker is not None, "get() needs a session or a sessionmaker"
        reading = self._reading.get(room_id)
        if reading is None or reading[0] != epoch:
            future = asyncio.ensure_future(self._read(sessionmaker, room_id, epoch))
            future.add_done_callback(_retrieve)
            self._reading[room_id] = (epoch, future)
            future.add_done_callback(
                lambda f: (
                    self._reading.get(room_id, (0, None))[1] is f
                    and self._reading.pop(room_id, None)
                )
            )
            reading = (epoch, future)
        return await asyncio.shield(reading[1])

    async def _read(
        self, sessionmaker: async_sessionmaker[AsyncSession], room_id: int, epoch: int
    ) -> Snapshot:
        if self._slots is None:
            self._slots = asyncio.Semaphore(READS_AT_ONCE)
        heard = self._listen(room_id)
        try:
            async with self._slots, sessionmaker() as db:
                self.reads += 1
                snap = await snapshot.read(db, room_id)
        except BaseException:
            self._unlisten(room_id, heard)
            raise
        return self._keep(room_id, snap, epoch, heard)


def _retrieve(future: asyncio.Future[Any]) -> None:
    """Mark a read's failure as seen (its waiters may all be gone)."""
    if not future.cancelled():
        future.exception()


_STORES: weakref.WeakKeyDictionary[Hub, LiveRooms] = weakref.WeakKeyDictionary()


def of(hub: Hub | None = None) -> LiveRooms:
    """The live rooms of ``hub`` (default: this process's hub), created on first use and
    registered as the hub's room watcher."""
    hub = hub or realtime.current()
    store = _STORES.get(hub)
    if store is None:
        store = _STORES[hub] = LiveRooms()
        hub.watch_rooms(store.on_event)
    return store


def clear_all() -> None:
    """Forget every room of every hub's store (tests that empty the database)."""
    for store in list(_STORES.values()):
        store.clear()
