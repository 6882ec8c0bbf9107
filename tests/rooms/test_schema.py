"""The Alembic migration builds exactly the tables the models describe, on this database."""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text

import app.accounts.models  # noqa: F401
import app.records.models  # noqa: F401
import app.rooms.models  # noqa: F401
import app.social.models  # noqa: F401
from app.core.db import Base, make_engine, migrate

OURS = {
    "users",
    "rooms",
    "seats",
    "games",
    "moves",
    "deals",
    "match_players",
    "ratings",
    "rematch_votes",
    "queue_entries",
}


def _table_of(diff: object) -> str | None:
    item = diff[0] if isinstance(diff, list) else diff
    for part in item[1:] if isinstance(item, tuple) else ():
        name = getattr(part, "name", None) if not isinstance(part, str) else None
        table = getattr(part, "table", None)
        if table is not None and getattr(table, "name", None):
            return table.name
        if name and hasattr(part, "columns") and hasattr(part, "metadata"):
            return name
        if isinstance(part, str):
            return part
    return None


async def test_migration_matches_the_models(database_url: str) -> None:
    engine = make_engine(database_url)
    try:
        async with engine.connect() as conn:
            diffs = await conn.run_sync(
                lambda sync: compare_metadata(
                    MigrationContext.configure(sync, opts={"compare_type": True}), Base.metadata
                )
            )
    finally:
        await engine.dispose()
    ours = [d for d in diffs if _table_of(d) in OURS]
    assert ours == []


async def test_the_room_migrations_keep_every_row_on_sqlite(tmp_path: Path) -> None:
    """0008 (creation key) and 0009 (skip the empty declaration) add columns to ``rooms``.
    A batch copy of ``rooms`` on SQLite would DROP the old table, whose implicit DELETE
    runs the ON DELETE CASCADE of seats, games and moves (foreign keys are on): a room
    with one seat, one game and one move before them has all four after."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'upgrade.db'}"
    await migrate(url, "0007_auth_sessions")
    engine = make_engine(url)
    now = "CURRENT_TIMESTAMP"
    rows = [
        f"INSERT INTO users (id, nickname, kind, created_at) VALUES (1, 'Pepa', 'guest', {now})",
        "INSERT INTO rooms (id, game, options, status, created_by, created_at) "
        f"VALUES (1, 'bolot', '{{}}', 'playing', 1, {now})",
        "INSERT INTO seats (room_id, seat, user_id, stand_in) VALUES (1, 0, 1, false)",
        "INSERT INTO games (id, room_id, game, options, dealer, status, created_at) "
        f"VALUES (1, 1, 'bolot', '{{}}', 0, 'playing', {now})",
        "INSERT INTO moves (game_id, seq, action, actor, at) "
        f"VALUES (1, 1, '{{\"type\": \"pass\"}}', 'seat:0', {now})",
    ]
    try:
        async with engine.begin() as conn:
            for row in rows:
                await conn.execute(text(row))
    finally:
        await engine.dispose()
    await migrate(url)
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            counts = [
                (await conn.execute(text(f"SELECT count(*) FROM {table}"))).scalar()
                for table in ("rooms", "seats", "games", "moves")
            ]
            room = (
                await conn.execute(text("SELECT creation_key, skip_empty_declaration FROM rooms"))
            ).one()
    finally:
        await engine.dispose()
    assert counts == [1, 1, 1, 1]
    assert room[0] is None and bool(room[1]) is True  # the option's default: on
