"""The tournament watcher: records an online table's result as soon as its match ends.

It runs beside the app (the lifespan of the tournaments' API router, which FastAPI
merges into the app's). It wakes on every room event of the realtime hub and, every
``TAPET_SWEEP_INTERVAL`` seconds, looks at every online table still playing, so a
time limit is noticed even when nobody plays. The work itself is
``results.sync_table``; page and API reads call it too, so nothing depends on this
task alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy import select

from .models import Round, Tournament, TournamentTable
from .results import sync_table

log = logging.getLogger(__name__)


async def sync_rooms(sessionmaker: Any, room_id: int | None = None) -> int:
    """Sync the playing online tables (of ``room_id`` only, when given); returns how many
    recorded a result or stopped."""
    changed = 0
    async with sessionmaker() as db:
        query = (select(TournamentTable, Tournament)
                 .join(Round, Round.id == TournamentTable.round_id)
                 .join(Tournament, Tournament.id == Round.tournament_id)
                 .where(TournamentTable.status == "playing", TournamentTable.mode == "online"))
        if room_id is not None:
            query = query.where(TournamentTable.room_id == room_id)
        for table, tournament in (await db.execute(query)).all():
            changed += await sync_table(db, tournament, table)
    return changed


async def watch(app: Any) -> None:
    """Sync on room events and on every sweep, until cancelled."""
    hub = app.state.hub
    interval = app.state.settings.sweep_interval
    async with hub.listen_all() as events:
        pending: asyncio.Future[Any] | None = None
        while True:
            if pending is None:
                pending = asyncio.ensure_future(anext(events))
            done, _ = await asyncio.wait({pending}, timeout=interval)
            room_id = None
            if done:
                room_id, _seq = pending.result()
                pending = None
            try:
                await sync_rooms(app.state.sessionmaker, room_id)
            except Exception:  # noqa: BLE001 - keep watching through a failure
                log.exception("tournament watcher failed")


@contextlib.asynccontextmanager
async def lifespan(app: Any) -> AsyncIterator[None]:
    """Run ``watch`` while the app runs."""
    task = asyncio.create_task(watch(app), name="tapet-tournament-watcher")
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
