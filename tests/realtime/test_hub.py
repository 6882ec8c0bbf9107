"""The hub and its brokers: events reach listeners of their room, coalesced; Redis
carries them between two hubs (as between two server processes)."""

from __future__ import annotations

import asyncio
import os
import uuid

import pytest

from app.realtime import Hub, InProcessBroker, RedisBroker


async def _next(iterator, timeout: float = 2.0):  # noqa: ANN001, ANN202
    return await asyncio.wait_for(anext(iterator), timeout)


async def test_listener_gets_the_seqs_of_its_room_only() -> None:
    hub = Hub(InProcessBroker())
    await hub.start()
    try:
        async with hub.listen(1) as room1, hub.listen(2) as room2:
            await hub.publish(1, 5)
            assert await _next(room1) == 5
            with pytest.raises(TimeoutError):
                await _next(room2, timeout=0.1)
    finally:
        await hub.stop()


async def test_events_coalesce_to_the_newest_seq() -> None:
    hub = Hub(InProcessBroker())
    await hub.start()
    try:
        async with hub.listen(7) as events:
            for seq in (3, 4, 5):
                await hub.publish(7, seq)
            await asyncio.sleep(0.05)
            assert await _next(events) == 5
            with pytest.raises(TimeoutError):
                await _next(events, timeout=0.1)
            await hub.publish(7, 5)  # a seat change republishes the same seq: still a wake-up
            assert await _next(events) == 5
    finally:
        await hub.stop()


async def test_listen_all_sees_every_room() -> None:
    hub = Hub(InProcessBroker())
    await hub.start()
    try:
        async with hub.listen_all() as events:
            await hub.publish(1, 1)
            await hub.publish(2, 9)
            assert {await _next(events), await _next(events)} == {(1, 1), (2, 9)}
    finally:
        await hub.stop()


def test_presence_counts_spectators_not_seated_users() -> None:
    hub = Hub()
    with hub.presence.watching(1, None), hub.presence.watching(1, 10), hub.presence.watching(1, 11):
        assert hub.presence.spectators(1, seated_user_ids={10}) == 2
        assert hub.presence.spectators(2, seated_user_ids=set()) == 0
    assert hub.presence.spectators(1, seated_user_ids=set()) == 0


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="REDIS_URL is not set")
async def test_redis_carries_events_between_two_hubs() -> None:
    channel = f"tapet-test-{uuid.uuid4().hex}"
    url = os.environ["REDIS_URL"]
    one, two = Hub(RedisBroker(url, channel)), Hub(RedisBroker(url, channel))
    await one.start()
    await two.start()
    try:
        async with two.listen(3) as theirs, one.listen(3) as mine:
            await one.publish(3, 42)
            assert await _next(theirs) == 42
            assert await _next(mine) == 42  # the publisher's own process hears it too
    finally:
        await one.stop()
        await two.stop()


@pytest.mark.parametrize("redis", [False, True], ids=["in-process", "redis"])
async def test_the_end_of_a_users_sessions_reaches_every_hub(redis: bool) -> None:
    """Log-out in one worker: the other workers' watchers of that user are woken (then they
    check their own token and close their sockets, app/accounts/service.watch_session)."""
    if redis and not os.environ.get("REDIS_URL"):
        pytest.skip("REDIS_URL is not set")
    channel = f"tapet-test-{uuid.uuid4().hex}"
    if redis:
        url = os.environ["REDIS_URL"]
        one, two = Hub(RedisBroker(url, channel)), Hub(RedisBroker(url, channel))
    else:
        broker = InProcessBroker()
        one, two = Hub(broker), Hub(broker)
    await one.start()
    await two.start()
    try:
        async with two.watch_user(7) as theirs, one.watch_user(8) as other:
            await one.publish_user(7)
            await asyncio.wait_for(theirs.wait(), 5)
            await asyncio.sleep(0.1)
            assert not other.is_set()  # another user's sockets are left alone
    finally:
        await one.stop()
        await two.stop()
