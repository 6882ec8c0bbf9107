"""The spectator count is the room's across processes: each hub shares its viewers
through Redis (``Hub.share_viewers``, every ``SHARE_EVERY`` s in the lifespan) and counts
the other processes' beside its own; the in-process broker has no others."""

from __future__ import annotations

import os
import uuid

import pytest

from app.realtime import Hub, InProcessBroker, RedisBroker


async def test_one_process_counts_its_own_sockets_only() -> None:
    hub = Hub(InProcessBroker())
    await hub.start()
    try:
        with hub.presence.watching(5, None), hub.presence.watching(5, 17):
            await hub.share_viewers()
            assert hub.presence.spectators(5, {17}) == 1  # user 17 is seated: not a spectator
            assert hub.presence.spectators(5, set()) == 2
    finally:
        await hub.stop()


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="REDIS_URL is not set")
async def test_two_processes_count_each_others_spectators_and_forget_a_stopped_one() -> None:
    url, channel = os.environ["REDIS_URL"], f"tapet-test-{uuid.uuid4().hex}"
    a, b = Hub(RedisBroker(url, channel)), Hub(RedisBroker(url, channel))
    await a.start()
    await b.start()
    try:
        with (
            a.presence.watching(5, None),
            a.presence.watching(5, None),
            a.presence.watching(5, 17),
            a.presence.watching(6, 30),
            b.presence.watching(5, 40),
        ):
            await a.share_viewers()
            await b.share_viewers()
            await a.share_viewers()  # now a has heard b's too
            # room 5: two anonymous sockets and user 17 on a, user 40 on b; 17 is seated
            assert b.presence.spectators(5, {17}) == 3
            assert a.presence.spectators(5, {17}) == 3
            assert a.presence.spectators(5, {17, 40}) == 2
            assert b.presence.spectators(6, set()) == 1
            assert b.presence.spectators(6, {30}) == 0
        await a.share_viewers()  # every socket closed, on both
        await b.share_viewers()
        assert b.presence.spectators(5, set()) == 0
        assert b.presence.spectators(6, set()) == 0
        with a.presence.watching(7, None):
            await a.share_viewers()
            await a.stop()  # a process that stops takes its viewers with it
            await b.share_viewers()
            assert b.presence.spectators(7, set()) == 0
    finally:
        await b.stop()
        await a.stop()
