"""A room as of one moment, and every viewer's view of it without another read.

The view of a room (``service.get_view``) has two parts:

* ``read(db, room_id)``: one consistent read of everything any viewer's view needs
  (the room and its seats, the people's nicknames, the game's state from the move log,
  the current deal's commitment, kept per game until the next deal), about five
  statements, into a ``Snapshot`` of plain immutable data that outlives its session;
* ``view_of(snapshot, user)``: the pure per-viewer part, ``observe(state, seat)`` for
  the seat the snapshot itself says ``user`` holds (the spectator's view otherwise),
  merged with the room info. No database, no I/O: the fan-out (app/rooms/fanout.py)
  builds every audience's view of one event from one read, and a move's POST answers
  from the snapshot it already has in memory (``after_move``).

Which seat a viewer holds comes from the same snapshot as the state, so a view can
only ever show the hand of the seat its viewer holds in that snapshot.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, cast

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import joinedload

from app import realtime, rules
from app.accounts.models import User
from app.core.db import as_utc
from app.core.errors import NotFound
from app.rooms import clock, ending, play
from app.rooms.models import Deal, Game, Room


@dataclass(frozen=True, slots=True)
class SeatData:
    """One chair as stored (``rooms.models.Seat``'s columns), detached from any session."""

    seat: int
    user_id: int | None
    bot: str | None
    stand_in: bool
    away: bool
    timeouts: int
    offered: bool = False


@dataclass(frozen=True, slots=True)
class RoomData:
    """A room's columns and seats (``rooms.models.Room``), detached from any session.
    It has the attributes app/rooms/clock.py reads of a room (``status``,
    ``clock_seconds``), so the clock works on it as on the stored row."""

    id: int
    game: str
    options: dict[str, Any]
    status: str
    created_by: int | None
    created_at: datetime
    clock_seconds: int | None
    max_timeouts: int
    spectators_see_hands: bool
    seats: tuple[SeatData, ...]
    match: dict[str, Any] | None = None
    skip_empty_declaration: bool = True
    rated: bool = False
    private: bool = False
    spectators_open: bool = False

    def seat_of(self, user_id: int | None) -> int | None:
        """The seat ``user_id`` holds (the first, should there be two), or None."""
        if user_id is None:
            return None
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def fingerprint(self) -> tuple[Any, ...]:
        """What a seat change alters: status and every chair."""
        return self.status, self.seats


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Everything a view of the room needs, as of one moment: ``room``, ``names`` (user
    id -> nickname of the seated people), ``loaded`` (the game's state, None before the
    start), ``state`` (``loaded.state``, or the position before the first deal) and
    ``commitment`` ``{deal_no, sha256}`` of the current deal (None before the first)."""

    room: RoomData
    names: dict[int, str]
    loaded: play.Loaded | None
    state: rules.State
    commitment: dict[str, Any] | None
    #: how the finished match ended (``ending.end_info``), None while it runs
    ended: dict[str, Any] | None = None
    #: the id of the game ``loaded`` is the state of (None before the start)
    game_id: int | None = None

    @property
    def seq(self) -> int:
        """The table's seq (0 before the first deal)."""
        return self.state.seq


def room_data(room: Room) -> RoomData:
    """The detached copy of a loaded ``room`` (its ``seats`` loaded too)."""
    seats = tuple(
        SeatData(
            s.seat,
            s.user_id,
            s.bot,
            bool(s.stand_in),
            bool(s.away),
            s.timeouts or 0,
            bool(s.offered),
        )
        for s in sorted(room.seats, key=lambda s: s.seat)
    )
    return RoomData(
        id=room.id,
        game=room.game,
        options=room.options,
        status=room.status,
        created_by=room.created_by,
        created_at=room.created_at,
        clock_seconds=room.clock_seconds,
        max_timeouts=room.max_timeouts,
        spectators_see_hands=bool(room.spectators_see_hands),
        seats=seats,
        match=room.match,
        skip_empty_declaration=room.skip_empty_declaration is not False,
        rated=bool(room.rated),
        private=bool(room.private),
        spectators_open=bool(room.spectators_open),
    )


async def load_room(db: AsyncSession, room_id: int) -> Room:
    """The stored room with its seats, fresh from the database (one statement: the seats
    are joined). Raises NotFound."""
    room = (
        (
            await db.scalars(
                select(Room)
                .where(Room.id == room_id)
                .options(joinedload(Room.seats))
                .execution_options(populate_existing=True)
            )
        )
        .unique()
        .first()
    )
    if room is None:
        raise NotFound(f"there is no room {room_id}", "no_room", n=room_id)
    return room


async def latest_game(db: AsyncSession, room_id: int) -> Game | None:
    """The room's latest game, or None before the start."""
    return await db.scalar(
        select(Game).where(Game.room_id == room_id).order_by(Game.id.desc()).limit(1)
    )


async def names_of(db: AsyncSession, room: RoomData) -> dict[int, str]:
    """User id -> nickname of the people in ``room``'s seats (one statement; none for an
    empty room)."""
    ids = sorted({s.user_id for s in room.seats if s.user_id is not None})
    if not ids:
        return {}
    rows = await db.execute(select(User.id, User.nickname).where(User.id.in_(ids)))
    return {uid: nick for uid, nick in rows}


#: (game id, its creation time) -> (deal seq, commitment); the time tells a game from an
#: older one whose id was reused (a database emptied under a running process: tests)
_commitments: OrderedDict[tuple[int, Any], tuple[int, dict[str, Any]]] = OrderedDict()
COMMITMENTS_KEPT = 4096


async def commitment_of(
    db: AsyncSession, game: Game | None, loaded: play.Loaded | None = None
) -> dict[str, Any] | None:
    """``{deal_no, sha256}`` of the game's latest deal, None before the first deal. With
    ``loaded`` (the game's state), a commitment read before for the same deal move
    (``loaded.deal_seq``, from the move log) is reused without a statement: the deal's
    row is stored in the same transaction as its move, and never changes."""
    if game is None:
        return None
    deal_seq = loaded.deal_seq if loaded is not None else None
    key = (game.id, game.created_at)
    known = _commitments.get(key)
    if deal_seq is not None and known is not None and known[0] == deal_seq:
        return dict(known[1])
    deal = (
        await db.execute(
            select(Deal.deal_no, Deal.sha256, Deal.seq)
            .where(Deal.game_id == game.id)
            .order_by(Deal.deal_no.desc())
            .limit(1)
        )
    ).first()
    if deal is None:
        return None
    commitment = {"deal_no": deal.deal_no, "sha256": deal.sha256}
    if deal_seq is not None and deal.seq == deal_seq:  # the row of the state's own deal: keep it
        _commitments[key] = (deal_seq, commitment)
        _commitments.move_to_end(key)
        while len(_commitments) > COMMITMENTS_KEPT:
            _commitments.popitem(last=False)
    return dict(commitment)


async def read(db: AsyncSession, room_id: int) -> Snapshot:
    """The room as of one moment: a move and the seat changes stored with it (a clock's
    timeout) are seen together. The seats are read before and after the moves; if they
    changed in between, read again (READ COMMITTED sees each statement's own moment).
    About six statements. Raises NotFound."""
    for _ in range(5):
        before = room_data(await load_room(db, room_id))
        game = await latest_game(db, room_id)
        loaded = await play.load(db, game) if game is not None else None
        room = room_data(await load_room(db, room_id))
        if room.fingerprint() == before.fingerprint():
            break
    state = loaded.state if loaded is not None else rules.new_game(room.game, room.options, 0)
    return Snapshot(
        room,
        await names_of(db, room),
        loaded,
        state,
        await commitment_of(db, game, loaded),
        await ending.end_info(db, room, game.id if game is not None else None),
        game.id if game is not None else None,
    )


def after_move(snapshot: Snapshot, loaded: play.Loaded, seat: int | None = None) -> Snapshot:
    """``snapshot`` after a move that was just committed: the new state ``loaded``; the
    room finished when the match is over; with ``seat``, that seat back from a stand-in
    (its person moved: no bot, no stand-in, no timeouts, not away). No read."""
    room = snapshot.room
    seats = tuple(
        replace(s, bot=None, stand_in=False, timeouts=0, away=False) if s.seat == seat else s
        for s in room.seats
    )
    status = "finished" if rules.is_over(loaded.state) else room.status
    ended = snapshot.ended
    if status == "finished" and ended is None:  # this move ended it: nobody answered yet
        rematch = None
        if room.match is None:
            chairs = {s.seat: "bot" if s.user_id is None or s.away else "waiting" for s in seats}
            rematch = {"room": None, "seats": chairs}
        ended = {"reason": "played", "resigned_seat": None, "rematch": rematch}
    return replace(
        snapshot,
        room=replace(room, status=status, seats=seats),
        loaded=loaded,
        state=loaded.state,
        ended=ended,
    )


def info_of(room: RoomData, names: dict[int, str]) -> dict[str, Any]:
    """The room info (``service.room_info``'s shape) of ``room``; ``spectators`` counts
    this process's sockets now (``realtime.current().presence``)."""
    seats = []
    for s in room.seats:
        if s.user_id is not None and s.away and s.bot is not None:
            kind, name = "bot", f"{s.bot} bot"  # kept for its person, who left
        elif s.user_id is not None:
            kind, name = "person", names.get(s.user_id, "?")
        elif s.bot is not None:
            kind, name = "bot", f"{s.bot} bot"
        else:
            kind, name = "empty", None
        seats.append(
            {
                "seat": s.seat,
                "kind": kind,
                "name": name,
                "bot": s.bot,
                "user_id": s.user_id,
                "stand_in": s.stand_in,
                "away": s.away,
                # the person a seat is kept for, by name (the records name them, not the bot)
                "person": names.get(s.user_id) if s.away and s.user_id is not None else None,
                "timeouts": s.timeouts,
                "offered": s.offered,
            }
        )
    ruleset = rules.GAMES.get(room.game)
    seated = {s.user_id for s in room.seats if s.user_id is not None}
    return {
        "id": room.id,
        "game": room.game,
        "game_name": ruleset.name if ruleset else room.game,
        "options": room.options,
        "clock_seconds": room.clock_seconds,
        "max_timeouts": room.max_timeouts,
        "spectators_see_hands": room.spectators_see_hands,
        "skip_empty_declaration": room.skip_empty_declaration,
        "rated": room.rated,
        "private": room.private,
        "spectators_open": room.spectators_open,
        "match": room.match,
        "status": room.status,
        "players": len(room.seats),
        "seats": seats,
        "spectators": realtime.current().presence.spectators(room.id, seated),
        "created_by": room.created_by,
        "created_at": as_utc(room.created_at).isoformat(),
    }


def seat_of(snapshot: Snapshot, user: User | None) -> int | None:
    """The seat ``user`` holds in ``snapshot`` (None: a spectator)."""
    return snapshot.room.seat_of(user.id if user is not None else None)


def view_of(snapshot: Snapshot, user: User | None) -> dict[str, Any]:
    """``user``'s view of ``snapshot`` (``service.get_view``'s shape): ``observe(state,
    seat)`` for the seat the snapshot says ``user`` holds, else the spectator's view,
    merged with the room info, plus ``my_seat``, ``open_hands``, ``clock`` and
    ``commitment``. Pure: no database. A fresh dict each call (callers may keep it)."""
    return view_for_seat(snapshot, seat_of(snapshot, user))


def view_for_seat(
    snapshot: Snapshot, seat: int | None, info: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The view of ``seat`` (None: the spectators') of ``snapshot``; ``view_of`` for a
    viewer who holds that seat. ``info``: ``info_of(snapshot.room, snapshot.names)``
    when the caller has it already (the same for every audience; it is copied, not
    changed). Pure."""
    state = snapshot.state
    # the room adds its own keys to the engine's view (no copy: a View is a dict)
    view = cast(dict[str, Any], rules.observe(state, seat))
    if seat is not None and view.get("legal_actions"):
        view["legal_actions"] = play.seat_actions(state)
    view.update(info if info is not None else info_of(snapshot.room, snapshot.names))
    if (
        view.get("status") == "finished"
    ):  # a stopped match (service.end_match): no move, nobody's turn
        view["legal_actions"], view["to_act"] = [], None
    view["my_seat"] = seat
    view["ended"] = snapshot.ended
    view["open_hands"] = open_hands(snapshot.room, view) if seat is None else None
    view["clock"] = clock.clock_view(snapshot.room, snapshot.room.seats, snapshot.loaded)  # type: ignore[arg-type]
    view["commitment"] = dict(snapshot.commitment) if snapshot.commitment else None
    return view


def open_hands(room: RoomData | Room, view: dict[str, Any]) -> dict[str, Any] | None:
    """What a spectator of ``room`` sees of the hands, one deal late (docs/server.md
    "Spectators"): with ``spectators_see_hands`` on, ``{"deal": N, "hands": [[codes] per
    seat]}`` of the last finished deal N, as dealt (each seat's cards at the start of
    the play): from the end of deal N until the end of deal N + 1. Never a hand of the
    deal in play: it comes from the finished deal's record (``view["last_deal"]``, which
    the seats see too, and whose deck the move log reveals). None when the option is off
    or no deal is finished yet."""
    if not room.spectators_see_hands:
        return None
    last = view.get("last_deal")
    if not last or not last.get("hands"):
        return None
    return {"deal": last.get("deal"), "hands": [list(h) for h in last["hands"]]}
