"""The move clock and the stand-in rules of a room (DESIGN.md "Real time": clocks run
server-side).

A room may have a move clock: ``clock_seconds`` per move (None: no clock, the default
for friendly rooms). When a person is to act, their deadline is the time of the last
stored move plus ``clock_seconds``: it is derived from the move log, so it survives a
restart, and every process computes the same one. When it passes, the runner plays
for the seat with the heuristic bot (app/rooms/server_moves.py) and the seat's ``timeouts``
(in a row) grows; at the room's ``max_timeouts`` a stand-in bot keeps playing for the
seat (``stand_in`` with the person still seated) until the person returns: a move of
their own, or taking their seat again (``PUT .../seats/{seat}``). A move of their own
also sets ``timeouts`` back to 0.

No clock runs for a bot or a stand-in, before a deal, or when the match is over. A
seat owing its declaration is on the clock like any other move, even when it holds no
combination: the server declares for nobody (docs/server.md), so a timeout there
plays the stand-in's declaration and card together.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from app import rules
from app.rooms import play
from app.rooms.models import Room, Seat

CLOCK_MIN, CLOCK_MAX = 1, 3600
TIMEOUTS_MIN, TIMEOUTS_MAX = 1, 20
STAND_IN_BOT = "heuristic"


def is_bot_seat(seat: Seat) -> bool:
    """True when the server plays for ``seat``: a bot, or a stand-in for a person."""
    return seat.bot is not None and (seat.user_id is None or seat.stand_in)


def is_person_seat(seat: Seat) -> bool:
    """True when a present person plays ``seat`` (not a bot, not stood in for)."""
    return seat.user_id is not None and not seat.stand_in


def person_to_act(room: Room, seats: list[Seat], state: rules.State) -> Seat | None:
    """The seat of the present person who must act now with the clock running, or None."""
    if room.status != "playing" or rules.is_over(state) or rules.needs_deal(state):
        return None
    seat = rules.to_act(state)
    chair = next((s for s in seats if s.seat == seat), None)
    return chair if chair is not None and is_person_seat(chair) else None


def deadline(room: Room, seats: list[Seat], loaded: play.Loaded) -> tuple[int, datetime] | None:
    """``(seat, deadline)`` of the running move clock of ``room``, or None (no clock now)."""
    if not room.clock_seconds or loaded.last_at is None:
        return None
    chair = person_to_act(room, seats, loaded.state)
    if chair is None:
        return None
    return chair.seat, loaded.last_at + timedelta(seconds=room.clock_seconds)


def clock_view(room: Room, seats: list[Seat], loaded: play.Loaded | None) -> dict[str, Any] | None:
    """The view's ``clock``: ``{seat, deadline (ISO 8601 UTC), seconds}`` or None."""
    if loaded is None:
        return None
    running = deadline(room, seats, loaded)
    if running is None:
        return None
    seat, due = running
    return {"seat": seat, "deadline": due.isoformat(), "seconds": room.clock_seconds}


def timeout_values(seat: Seat, max_timeouts: int) -> dict[str, Any]:
    """The seat's new values after a timeout: one more in a row, and a stand-in bot once
    the room's limit is reached."""
    count = (seat.timeouts or 0) + 1
    values: dict[str, Any] = {"timeouts": count}
    if count >= max_timeouts:
        values.update(stand_in=True, bot=STAND_IN_BOT)
    return values


def check_options(
    clock_seconds: object, max_timeouts: object, default_max: int
) -> tuple[int | None, int]:
    """Validated ``(clock_seconds, max_timeouts)``. Raises ValueError with a sentence."""
    if clock_seconds in (None, 0, False):
        clock = None
    elif (
        isinstance(clock_seconds, int)
        and not isinstance(clock_seconds, bool)
        and CLOCK_MIN <= clock_seconds <= CLOCK_MAX
    ):
        clock = clock_seconds
    else:
        raise ValueError(f"clock_seconds is 0 (no clock) or {CLOCK_MIN} to {CLOCK_MAX} seconds")
    if max_timeouts is None:
        limit = default_max
    elif (
        isinstance(max_timeouts, int)
        and not isinstance(max_timeouts, bool)
        and TIMEOUTS_MIN <= max_timeouts <= TIMEOUTS_MAX
    ):
        limit = max_timeouts
    else:
        raise ValueError(f"max_timeouts is {TIMEOUTS_MIN} to {TIMEOUTS_MAX}")
    return clock, limit
