"""Brokers carry room events ``(room_id, seq)`` between server processes, and the notices
``("user", user_id)`` that some sessions of a user ended (log-out, password change, a
revoked session, a deleted account): every process then closes that user's sockets
whose token no longer counts.

``InProcessBroker`` serves one process (the default). ``RedisBroker`` uses Redis
pub/sub (``REDIS_URL``) so several workers or machines serve one room. Each
process holds one subscription (the Hub's) and fans events out locally.
An event may carry ``data``, a small JSON object from its publisher (a move's actions:
app/rooms/live.py), so that a process keeping the room in memory applies it without
reading the database. Without data, an event is a hint: whoever receives one reads
the current state from the database. A lost event only delays an update until the
next one (or the runner's sweep): a process that keeps a room in memory and sees an
event it cannot apply reads the room again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import AsyncIterator
from typing import Any, Protocol

import orjson

log = logging.getLogger(__name__)

Event = tuple[int, int]  # (room_id, seq)
#: (room_id, seq, data): what a subscription yields for a room (data None: a hint)
RoomMessage = tuple[int, int, "dict[str, Any] | None"]
UserNotice = tuple[str, int]  # ("user", user_id): some sessions of the user ended
USER = "user"
#: room_id -> {user id as text, "" for an anonymous viewer: open sockets}
Viewers = dict[int, dict[str, int]]
#: Seconds a process's shared viewers stay in Redis unless shared again (a process that
#: died stops counting after this).
VIEWERS_TTL = 10


class Broker(Protocol):
    """Publish room events to every process; ``await subscribe()`` opens a subscription
    (established when it returns) whose iterator yields every later event as a
    ``RoomMessage`` or a ``UserNotice``, this process's own too."""

    async def publish(self, room_id: int, seq: int, data: dict[str, Any] | None = None) -> None: ...

    async def publish_user(self, user_id: int) -> None: ...

    async def subscribe(self) -> AsyncIterator[RoomMessage | UserNotice]: ...

    async def share_viewers(self, mine: Viewers) -> Viewers: ...

    async def close(self) -> None: ...


class InProcessBroker:
    """Events stay in this process: ``publish`` hands them to the current subscribers."""

    def __init__(self) -> None:
        self._queues: set[asyncio.Queue[RoomMessage | UserNotice]] = set()

    async def publish(self, room_id: int, seq: int, data: dict[str, Any] | None = None) -> None:
        """Deliver ``(room_id, seq, data)`` to every subscriber of this process."""
        for queue in list(self._queues):
            queue.put_nowait((room_id, seq, data))

    async def publish_user(self, user_id: int) -> None:
        """Deliver ``("user", user_id)`` to every subscriber of this process."""
        for queue in list(self._queues):
            queue.put_nowait((USER, user_id))

    async def subscribe(self) -> AsyncIterator[RoomMessage | UserNotice]:
        """A subscription to every event published from now on (until its iterator is closed)."""
        queue: asyncio.Queue[RoomMessage | UserNotice] = asyncio.Queue()
        self._queues.add(queue)

        async def events() -> AsyncIterator[RoomMessage | UserNotice]:
            try:
                while True:
                    yield await queue.get()
            finally:
                self._queues.discard(queue)

        return events()

    async def share_viewers(self, mine: Viewers) -> Viewers:
        """One process: no other process's viewers."""
        return {}

    async def close(self) -> None:
        """Nothing to release."""


class RedisBroker:
    """Redis pub/sub on one channel; the payload is ``"room_id:seq"``, ``"room_id:seq:"``
    followed by the event's data as JSON, or ``"user:ID"``.

    The subscription re-opens itself with a back-off when Redis drops; events
    published while Redis is unreachable are lost (the runner's sweep and socket
    reconnects resync)."""

    def __init__(self, url: str, channel: str = "tapet:events") -> None:
        from redis import asyncio as aioredis

        self.channel = channel
        self._redis = aioredis.from_url(url)
        self._viewers_key = f"{channel}:viewers:{uuid.uuid4().hex}"

    async def publish(self, room_id: int, seq: int, data: dict[str, Any] | None = None) -> None:
        """Publish to every process; an unreachable Redis is logged, not raised (the move is committed)."""
        payload = f"{room_id}:{seq}"
        if data is not None:
            payload += ":" + orjson.dumps(data).decode()
        try:
            await self._redis.publish(self.channel, payload)
        except Exception:  # noqa: BLE001 - a broker outage must not fail a committed move
            log.exception("could not publish room %s seq %s to Redis", room_id, seq)

    async def publish_user(self, user_id: int) -> None:
        """Tell every process that sessions of ``user_id`` ended; an unreachable Redis is
        logged (the sessions are ended in the database: their sockets close at their
        next check, app/accounts/service.py ``watch_session``)."""
        try:
            await self._redis.publish(self.channel, f"{USER}:{user_id}")
        except Exception:  # noqa: BLE001 - the log-out is committed
            log.exception("could not publish the end of user %s's sessions to Redis", user_id)

    async def _open(self) -> Any:
        pubsub = self._redis.pubsub()
        await pubsub.subscribe(self.channel)
        # Wait for the server's confirmation, so an event published right after is not missed.
        for _ in range(50):
            message = await pubsub.get_message(timeout=0.2)
            if message and message.get("type") == "subscribe":
                break
        return pubsub

    async def subscribe(self) -> AsyncIterator[RoomMessage | UserNotice]:
        """A subscription to the channel (confirmed by Redis when this returns)."""
        first = await self._open()

        async def events() -> AsyncIterator[RoomMessage | UserNotice]:
            pubsub, delay = first, 0.5
            while True:
                try:
                    if pubsub is None:
                        pubsub = await self._open()
                        delay = 0.5
                    async for message in pubsub.listen():
                        if message.get("type") == "message":
                            event = _parse(message.get("data"))
                            if event is not None:
                                yield event
                except asyncio.CancelledError:
                    raise
                except Exception:  # noqa: BLE001 - keep listening through outages
                    log.warning("Redis subscription lost; retrying in %.1fs", delay, exc_info=True)
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, 10.0)
                finally:
                    if pubsub is not None:
                        with contextlib.suppress(Exception):
                            await pubsub.aclose()
                        pubsub = None

        return events()

    async def share_viewers(self, mine: Viewers) -> Viewers:
        """Store this process's viewers under its own key (a hash ``room -> JSON``, expiring
        after ``VIEWERS_TTL`` s) and return every other process's, summed. Raises redis-py's
        errors when Redis is unreachable (the caller keeps its last answer)."""
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.delete(self._viewers_key)
            if mine:
                pipe.hset(
                    self._viewers_key,
                    mapping={str(room): orjson.dumps(users) for room, users in mine.items()},
                )
                pipe.expire(self._viewers_key, VIEWERS_TTL)
            await pipe.execute()
        others: Viewers = {}
        async for key in self._redis.scan_iter(match=f"{self.channel}:viewers:*", count=100):
            if key.decode() == self._viewers_key:
                continue
            for room, users in (await self._redis.hgetall(key)).items():
                try:
                    counts = orjson.loads(users)
                    total = others.setdefault(int(room), {})
                    for user, n in counts.items():
                        total[str(user)] = total.get(str(user), 0) + int(n)
                except (ValueError, TypeError, AttributeError):
                    continue  # not a process's viewers: ignored
        return others

    async def close(self) -> None:
        """Forget this process's viewers and close the connection pool."""
        with contextlib.suppress(Exception):
            await self._redis.delete(self._viewers_key)
        await self._redis.aclose()


def _parse(data: object) -> RoomMessage | UserNotice | None:
    if isinstance(data, bytes):
        data = data.decode(errors="replace")
    if not isinstance(data, str):
        return None
    room, _, rest = data.partition(":")
    seq, _, body = rest.partition(":")
    try:
        if room == USER:
            return USER, int(seq)
        extra = orjson.loads(body) if body else None
        return int(room), int(seq), extra if isinstance(extra, dict) else None
    except ValueError:
        return None


def make_broker(redis_url: str | None, channel: str = "tapet:events") -> Broker:
    """Redis pub/sub when ``redis_url`` is set, else the in-process broker."""
    return RedisBroker(redis_url, channel) if redis_url else InProcessBroker()
