"""Room leases: two processes share the shards, a dead one's shards are taken over when
they expire, a clean stop hands them over at once, a move in hand delays a release."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import delete, select

from app.core.db import make_engine, make_sessionmaker
from app.core.settings import Settings
from app.realtime.lease import Leases, leases
from tests.conftest import empty_tables


@pytest.fixture
async def maker(settings: Settings) -> AsyncIterator[object]:
    await empty_tables(settings.db_url())
    engine = make_engine(settings.db_url())
    try:
        yield make_sessionmaker(engine)
    finally:
        await engine.dispose()


async def _holders(maker) -> dict[str, str]:  # noqa: ANN001
    async with maker() as db:
        return {
            r.name: r.holder for r in (await db.execute(select(leases))).all() if r.expires_ms > 0
        }


async def test_the_first_takes_all_then_two_share_half_each(maker) -> None:  # noqa: ANN001
    one, two = (
        Leases(maker, ttl=3, shards=8, holder="one"),
        Leases(maker, ttl=3, shards=8, holder="two"),
    )
    assert await one.tick() == set(range(8)) and all(one.holds(r) for r in range(8))
    assert await two.tick() == set() and two.under_share()  # all taken: two waits
    await one.tick()  # one sees two's heartbeat and releases half
    assert len(one.held) == 4
    assert len(await two.tick()) == 4
    assert one.held.isdisjoint(two.held) and one.held | two.held == set(range(8))
    assert one.held == {0, 2, 4, 6}  # a spread: rooms made one after another alternate
    for room in range(20):
        assert one.holds(room) != two.holds(room)


async def test_a_dead_holders_shards_are_taken_when_they_expire(maker) -> None:  # noqa: ANN001
    dead, alive = (
        Leases(maker, ttl=0.6, shards=4, holder="dead"),
        Leases(maker, ttl=0.6, shards=4, holder="alive"),
    )
    await dead.tick()
    assert await alive.tick() == set()
    await asyncio.sleep(0.7)  # dead stopped renewing
    assert not dead.holds(0)  # and stopped believing it holds them, before anyone takes over
    assert await alive.tick() == set(range(4))
    assert set((await _holders(maker)).values()) >= {"alive"}


async def test_a_clean_stop_hands_over_at_once(maker) -> None:  # noqa: ANN001
    one, two = (
        Leases(maker, ttl=30, shards=4, holder="one"),
        Leases(maker, ttl=30, shards=4, holder="two"),
    )
    await one.tick()
    await one.release_all()
    assert not one.holds(1)
    assert await two.tick() == set(range(4))


async def test_a_move_in_hand_is_applied_before_its_shard_is_released(maker) -> None:  # noqa: ANN001
    one, two = (
        Leases(maker, ttl=3, shards=2, holder="one"),
        Leases(maker, ttl=3, shards=2, holder="two"),
    )
    await one.tick()
    await two.tick()
    order: list[str] = []

    async def move_in_hand() -> None:
        async with one.guard(1) as ours:  # one releases its highest shards first
            assert ours
            await asyncio.sleep(0.3)
            order.append("applied")

    task = asyncio.create_task(move_in_hand())
    await asyncio.sleep(0.05)
    await one.tick()  # releases shard 1: waits for the move in hand
    order.append("released")
    await task
    assert order == ["applied", "released"] and one.held == {0}
    async with one.guard(1) as ours:
        assert not ours  # a released shard is not driven any more
    assert await two.tick() == {1}


async def test_workers_starting_together_never_deadlock(maker) -> None:  # noqa: ANN001
    """Issue 20: two workers starting at once on PostgreSQL took free shards in random
    orders, each locking rows the other wanted next (DeadlockDetectedError). They take them
    in one order now: ten cold starts of three workers at once all succeed."""
    for start in range(10):
        async with maker() as db:
            await db.execute(delete(leases))
            await db.commit()
        workers = [Leases(maker, ttl=30, holder=f"w{start}-{n}") for n in range(3)]
        await asyncio.gather(*(w.tick() for w in workers))  # raises on a deadlock
        held = [w.held for w in workers]
        assert sum(len(h) for h in held) == len(set().union(*held)) > 0  # none held twice
