"""The tournament watcher: records an online table's result as soon as its match ends.

It runs beside the app (the lifespan of the tournaments' API router, which FastAPI
merges into the app's). It wakes on every room event of the realtime hub and, every
``TAPET_SWEEP_INTERVAL`` seconds (also while events keep coming), looks at every online
table still playing, so a time limit is noticed even when nobody plays. The work itself is
``results.sync_table``; page and API reads call it too, so nothing depends on this
task alone.

Most room events are not a tournament's: an event of a room is looked up at most once
while the room is not a playing online table (a move of a friendly room costs no
query). The sweep lists the playing tables afresh, so a table whose room played
before its round was published is synced on events again from the next sweep on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy import select

from app.core.tasks import STOP_GRACE, cancel_within
from app.tournaments.models import Round, Tournament, TournamentTable
from app.tournaments.results import sync_table

log = logging.getLogger(__name__)
OTHER_ROOMS = 10_000  # rooms remembered as not a tournament table (the oldest are forgotten)


async def sync_rooms(
    sessionmaker: Any, room_id: int | None = None, found: set[int] | None = None
) -> int:
    """Sync the playing online tables (of ``room_id`` only, when given); returns how many
    recorded a result or stopped. ``found`` (when given) receives the room ids of the
    playing online tables looked at."""
    changed = 0
    async with sessionmaker() as db:
        query = (
            select(TournamentTable, Tournament)
            .join(Round, Round.id == TournamentTable.round_id)
            .join(Tournament, Tournament.id == Round.tournament_id)
            .where(TournamentTable.status == "playing", TournamentTable.mode == "online")
        )
        if room_id is not None:
            query = query.where(TournamentTable.room_id == room_id)
        for table, tournament in (await db.execute(query)).all():
            if found is not None and table.room_id is not None:
                found.add(table.room_id)
            changed += await sync_table(db, tournament, table)
    return changed


async def watch(app: Any) -> None:
    """Sync on room events and on every sweep, until cancelled."""
    hub = app.state.hub
    interval = app.state.settings.sweep_interval
    tables: set[int] = set()  # rooms of the playing online tables, as of the last sweep
    others: OrderedDict[int, None] = OrderedDict()  # rooms looked up since and found not to be one
    loop = asyncio.get_running_loop()
    sweep_at = loop.time() + interval
    async with hub.listen_all() as events:
        pending: asyncio.Future[Any] | None = None
        while True:
            if pending is None:
                pending = asyncio.ensure_future(anext(events))
            done, _ = await asyncio.wait({pending}, timeout=max(0.0, sweep_at - loop.time()))
            room_id = None
            if done:
                room_id, _seq = pending.result()
                pending = None
            if (
                room_id is None or loop.time() >= sweep_at
            ):  # the sweep is due even while events keep coming
                room_id, sweep_at = None, loop.time() + interval
            if room_id is not None and room_id not in tables and room_id in others:
                continue  # a friendly room's move: no query
            try:
                found: set[int] = set()
                await sync_rooms(app.state.sessionmaker, room_id, found)
                if room_id is None:
                    tables = found
                elif found:
                    tables |= found
                else:
                    tables.discard(room_id)
                    others[room_id] = None
                    while len(others) > OTHER_ROOMS:
                        others.popitem(last=False)
            except Exception:  # noqa: BLE001 - keep watching through a failure
                log.exception("tournament watcher failed")


@contextlib.asynccontextmanager
async def lifespan(app: Any) -> AsyncIterator[None]:
    """Run ``watch`` while the app runs."""
    task = asyncio.create_task(watch(app), name="tapet-tournament-watcher")
    try:
        yield
    finally:
        await cancel_within([task], STOP_GRACE)
