"""The 0002_tournaments migration upgrades this database (SQLite or PostgreSQL) to exactly
the tournament tables the models describe, and downgrades cleanly."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

import app.accounts.models  # noqa: F401
import app.rooms.models  # noqa: F401
import app.tournaments.models  # noqa: F401
from app.core.db import Base, make_engine

OURS = {
    "clubs",
    "tournaments",
    "tournament_organisers",
    "teams",
    "tournament_rounds",
    "tournament_tables",
    "tournament_deals",
    "tournament_audit",
    "tournament_players",
    "tournament_requests",
}


def _tables_of(diff: object) -> set[str]:
    found: set[str] = set()
    items = diff if isinstance(diff, list) else [diff]
    for item in items:
        for part in item[1:] if isinstance(item, tuple) else ():
            table = getattr(part, "table", None)
            if table is not None and getattr(table, "name", None):
                found.add(table.name)
            elif hasattr(part, "columns") and getattr(part, "name", None):
                found.add(part.name)
            elif isinstance(part, str):
                found.add(part)
    return found


async def test_upgrade_builds_the_tournament_tables_as_the_models_say(database_url: str) -> None:
    engine = make_engine(database_url)
    try:
        async with engine.connect() as conn:
            names = set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
            version = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar()
            diffs = await conn.run_sync(
                lambda sync: compare_metadata(
                    MigrationContext.configure(sync, opts={"compare_type": True}), Base.metadata
                )
            )
    finally:
        await engine.dispose()
    assert OURS <= names
    assert version is not None
    ours = [d for d in diffs if _tables_of(d) & OURS]
    assert ours == []
