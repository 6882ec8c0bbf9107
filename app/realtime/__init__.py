"""Real time: room events between processes, and the hub of this process's sockets.

Every committed change of a room publishes ``(room_id, seq)``
(``await realtime.current().publish(room_id, seq)``, done by the rooms service
after its commit). The broker is in-process by default and Redis pub/sub when
``REDIS_URL`` is set (app/realtime/broker.py); each process holds one
subscription, opened by the app's lifespan, and fans the events out to its
listeners.

A socket handler listens to a room and rebuilds its viewer's view on each event::

    from app import realtime

    hub = realtime.current()
    with hub.presence.watching(room_id, user.id if user else None):  # spectator count
        async with hub.listen(room_id) as events:
            await send(view)                      # the whole view at connect
            async for seq in events:              # a new seq (or a seat change) of this room
                await send(await rooms_service.get_view(db, room_id, user))

Events coalesce: a slow socket gets one wake-up with the newest seq, never a
backlog; a view is always sent whole. ``seq`` may repeat (seat changes publish
the current seq). Run the sender and a receive loop in an anyio task group, so a
closed socket ends both. ``hub.presence`` counts open sockets per room;
``rooms.service.room_info`` reports those whose user holds no seat as spectators.
"""

from __future__ import annotations

from app.realtime.broker import Broker, InProcessBroker, RedisBroker, make_broker
from app.realtime.hub import AllEvents, Hub, Presence, RoomEvents

__all__ = [
    "AllEvents",
    "Broker",
    "Hub",
    "InProcessBroker",
    "Presence",
    "RedisBroker",
    "RoomEvents",
    "current",
    "install",
    "make_broker",
]

_current: Hub | None = None


def current() -> Hub:
    """The hub of this process (installed by the app's lifespan; an idle in-process
    hub until then, so services also work from scripts)."""
    global _current
    if _current is None:
        _current = Hub()
    return _current


def install(hub: Hub | None) -> None:
    """Make ``hub`` this process's hub (the app's lifespan does it; None resets)."""
    global _current
    _current = hub
