"""Leases: which server process drives which rooms (bots, deals, move clocks).

Every room belongs to one of ``SHARDS`` shards (``room_id % SHARDS``). A shard is
driven by the process that holds its lease, a row ``("shard:N", holder,
expires_ms)`` of the ``leases`` table (migration 0004_leases), so background work
runs once across workers and machines, on SQLite and PostgreSQL alike, with or
without Redis. Each process also keeps a heartbeat row ``("worker:<holder>", ...)``
so the others know how many share the work.

Every ``ttl / 3`` seconds a process (``Leases.tick``):

1. renews its heartbeat and the shards it holds (``expires = now + ttl``);
2. counts the live workers and aims at ``ceil(SHARDS / workers)`` shards;
3. releases what it holds beyond that (after the moves in hand are applied; it keeps
   a spread of shards, e.g. the even ones of two workers) and takes free shards (never held, released, or expired) up to it.

A process that dies stops renewing: its shards expire after ``ttl`` seconds and
the others take them (takeover). A process that stops cleanly releases them at
once. Locally a shard counts as held only until ``0.75 * ttl`` after the last
successful renewal, so a process cut off from the database stops driving before
anyone else may take over. The lease is about doing the work once, not about
correctness: the move log's ``(game_id, seq)`` key still lets only one writer
apply each move, should two processes ever both believe they hold a shard (clocks
of different machines far apart, a pause longer than the ttl).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import random
import socket
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator

from sqlalchemy import BigInteger, Column, String, Table, delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.db import Base

log = logging.getLogger(__name__)

SHARDS = 64
WORKER = "worker:"
SHARD = "shard:"

leases = Table(
    "leases",
    Base.metadata,
    Column("name", String(96), primary_key=True),
    Column("holder", String(96), nullable=False),
    Column("expires_ms", BigInteger, nullable=False),
)


def now_ms() -> int:
    """Wall-clock milliseconds (leases compare times written by several processes)."""
    return int(time.time() * 1000)


def new_holder() -> str:
    """A name for this process: host, pid and a random part (a restart is a new holder)."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


async def _upsert(
    db: AsyncSession, name: str, holder: str, expires: int, now: int, force: bool
) -> bool:
    """Take row ``name`` for ``holder`` until ``expires`` if it is free, expired or already
    ours (``force``: whatever it is). True when ``holder`` holds it afterwards."""
    dialect = db.bind.dialect.name if db.bind is not None else ""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert  # type: ignore[assignment]  # same API
    stmt = insert(leases).values(name=name, holder=holder, expires_ms=expires)
    where = None if force else (leases.c.expires_ms <= now) | (leases.c.holder == holder)
    upsert = stmt.on_conflict_do_update(
        index_elements=["name"],
        set_={"holder": stmt.excluded.holder, "expires_ms": stmt.excluded.expires_ms},
        where=where,
    ).returning(leases.c.holder)
    return (await db.execute(upsert)).scalar() == holder


class Leases:
    """The shards this process drives (module docstring)."""

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        ttl: float = 10.0,
        shards: int = SHARDS,
        holder: str | None = None,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.ttl = ttl
        self.shards = shards
        self.holder = holder or new_holder()
        self.held: set[int] = set()
        self.target = shards
        self._valid_until = 0.0  # monotonic: the held shards count until then
        self._in_flight: Counter[int] = Counter()
        self._idle = asyncio.Condition()

    @property
    def interval(self) -> float:
        """Seconds between two ticks."""
        return self.ttl / 3

    def shard(self, room_id: int) -> int:
        """The shard of ``room_id``."""
        return room_id % self.shards

    def holds(self, room_id: int) -> bool:
        """True while this process holds the shard of ``room_id``."""
        return self.shard(room_id) in self.held and time.monotonic() < self._valid_until

    @contextlib.asynccontextmanager
    async def guard(self, room_id: int) -> AsyncIterator[bool]:
        """``async with leases.guard(room) as ok:`` ok is ``holds(room)``; while the block
        runs, the shard is not released (a move in hand is applied before the handover)."""
        shard = self.shard(room_id)
        ok = self.holds(room_id)
        if ok:
            self._in_flight[shard] += 1
        try:
            yield ok
        finally:
            if ok:
                self._in_flight[shard] -= 1
                if self._in_flight[shard] <= 0:
                    del self._in_flight[shard]
                    async with self._idle:
                        self._idle.notify_all()

    async def _drain(self, shards: set[int], timeout: float) -> None:
        """Wait (at most ``timeout`` s) until no move of ``shards`` is in hand."""

        async def idle() -> None:
            async with self._idle:
                await self._idle.wait_for(lambda: not any(self._in_flight[s] for s in shards))

        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(idle(), timeout)

    async def tick(self) -> set[int]:
        """Renew, rebalance and take free shards (module docstring). Returns the shards
        newly taken (their rooms should be looked at). Raises on a database error (the
        held shards then lapse locally after ``0.75 * ttl``)."""
        started = time.monotonic()
        now = now_ms()
        expires = now + int(self.ttl * 1000)
        async with self.sessionmaker() as db:
            await _upsert(db, WORKER + self.holder, self.holder, expires, now, force=True)
            renewed = await db.execute(
                update(leases)
                .where(leases.c.holder == self.holder, leases.c.name.like(SHARD + "%"))
                .values(expires_ms=expires)
                .returning(leases.c.name)
            )
            mine = {int(name[len(SHARD) :]) for name in renewed.scalars()}
            await db.execute(
                delete(leases).where(
                    leases.c.name.like(WORKER + "%"), leases.c.expires_ms < now - 60_000
                )
            )
            await db.commit()
            rows = (
                await db.execute(select(leases.c.name, leases.c.holder, leases.c.expires_ms))
            ).all()
        live = {r.holder for r in rows if r.name.startswith(WORKER) and r.expires_ms > now} | {
            self.holder
        }
        taken = {
            int(r.name[len(SHARD) :])
            for r in rows
            if r.name.startswith(SHARD) and r.expires_ms > now
        }
        target = self.target = math.ceil(self.shards / len(live))
        self.held = mine
        self._valid_until = started + self.ttl * 0.75
        if len(mine) > target:
            await self._release(set(sorted(mine, key=self._spread)[target:]))
            return set()
        free = [s for s in range(self.shards) if s not in taken and s not in mine]
        random.shuffle(free)  # two processes starting together take different shards
        gained: set[int] = set()
        if free and len(mine) < target:
            async with self.sessionmaker() as db:
                # chosen at random, locked in one order: two processes taking shards at
                # once then wait for each other at worst, never in a circle (a deadlock)
                for shard in sorted(free[: target - len(mine)]):
                    if await _upsert(db, f"{SHARD}{shard}", self.holder, expires, now, force=False):
                        gained.add(shard)
                await db.commit()
            self.held = mine | gained
        return gained

    def _spread(self, shard: int) -> int:
        """Bit-reversed shard number: keeping the lowest of these keeps shards spread over
        the room ids (rooms made one after another go to different workers)."""
        bits = max(1, (self.shards - 1).bit_length())
        return int(format(shard, f"0{bits}b")[::-1], 2)

    def under_share(self) -> bool:
        """True when the last tick left this process below its share (tick again soon)."""
        return len(self.held) < self.target

    async def _release(self, shards: set[int]) -> None:
        """Stop driving ``shards``, let the moves in hand finish, then free them."""
        self.held -= shards
        await self._drain(shards, timeout=self.ttl / 3)
        async with self.sessionmaker() as db:
            await db.execute(
                update(leases)
                .where(
                    leases.c.holder == self.holder,
                    leases.c.name.in_([f"{SHARD}{s}" for s in shards]),
                )
                .values(expires_ms=0)
            )
            await db.commit()
        log.info("released %d shards to other workers", len(shards))

    async def release_all(self) -> None:
        """Free every shard and the heartbeat (a clean stop: the others take over at once)."""
        shards, self.held = set(self.held), set()
        await self._drain(shards, timeout=self.ttl / 3)
        async with self.sessionmaker() as db:
            await db.execute(
                update(leases).where(leases.c.holder == self.holder).values(expires_ms=0)
            )
            await db.commit()
