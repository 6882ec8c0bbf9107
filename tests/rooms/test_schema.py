"""The Alembic migration builds exactly the tables the models describe, on this database."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

import app.accounts.models  # noqa: F401
import app.rooms.models  # noqa: F401
from app.core.db import Base, make_engine

OURS = {"users", "rooms", "seats", "games", "moves", "deals"}


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
