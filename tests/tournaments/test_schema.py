"""The 0002_tournaments migration upgrades this database (SQLite or PostgreSQL) to exactly
the tournament tables the models describe, and downgrades cleanly."""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

import app.accounts.models  # noqa: F401
import app.rooms.models  # noqa: F401
import app.tournaments.models  # noqa: F401
from app.core.db import Base, make_engine, migrate

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
    "team_requests",
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


async def test_0010_keeps_every_row_on_sqlite_and_fills_in_the_new_keys(tmp_path: Path) -> None:
    """On SQLite a batch copy of ``teams`` would drop the old table, whose implicit
    DELETE runs the ON DELETE CASCADE of tables and deals (foreign keys are on):
    0010 adds a column and unique indexes instead. Two teams named alike keep apart (the
    later one gets its id), an account's team is in ``tournament_players``."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'upgrade.db'}"
    await migrate(url, "0009_skip_empty_declaration")
    engine = make_engine(url)
    rows = [
        "INSERT INTO users (id, nickname, kind, created_at) VALUES (1, 'Pepa', 'guest', "
        "CURRENT_TIMESTAMP)",
        "INSERT INTO tournaments (id, name, game, options, format, settings, status, venue, "
        "created_at) VALUES (1, 'T', 'bolot', '{}', 'swiss', '{}', 'running', '', "
        "CURRENT_TIMESTAMP)",
        *(
            "INSERT INTO teams (id, tournament_id, name, player1, player2, user1_id, seed, "
            f"status, late, created_at) VALUES ({i}, 1, '{name}', '', '', {user}, {i}, "
            "'active', false, CURRENT_TIMESTAMP)"
            for i, name, user in (
                (1, "Els Cantons", 1),
                (2, "ELS CANTONS", "NULL"),
                (3, "B", "NULL"),
            )
        ),
        "INSERT INTO tournament_rounds (id, tournament_id, number, stage, status) "
        "VALUES (1, 1, 1, 'swiss', 'published')",
        "INSERT INTO tournament_tables (id, round_id, number, home_id, away_id, mode, status, "
        "forfeit) VALUES (1, 1, 1, 1, 3, 'paper', 'playing', false)",
        "INSERT INTO tournament_deals (table_id, deal_no, summary, home_points, away_points, "
        "entered_at) VALUES (1, 1, '{}', 10, 20, CURRENT_TIMESTAMP)",
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
            keys = (await conn.execute(text("SELECT id, name_key FROM teams ORDER BY id"))).all()
            players = (await conn.execute(text("SELECT * FROM tournament_players"))).all()
            tables = (await conn.execute(text("SELECT count(*) FROM tournament_tables"))).scalar()
            deals = (await conn.execute(text("SELECT count(*) FROM tournament_deals"))).scalar()
    finally:
        await engine.dispose()
    assert [tuple(k) for k in keys] == [(1, "els cantons"), (2, "els cantons#2"), (3, "b")]
    assert [tuple(p) for p in players] == [(1, 1, 1)]
    assert (tables, deals) == (1, 1)


async def test_0011_adds_the_third_seat_and_keeps_every_row_on_sqlite(tmp_path: Path) -> None:
    """0011 adds ``third_id``/``third_score`` and ``third_points`` by plain ADD COLUMN (no
    table copy, whose DROP would run the ON DELETE CASCADE): a table of two sides and its
    deal stay, with NULL in the new columns."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'upgrade.db'}"
    await migrate(url, "0010_championship_once")
    engine = make_engine(url)
    rows = [
        "INSERT INTO tournaments (id, name, game, options, format, settings, status, venue, "
        "created_at) VALUES (1, 'T', 'bolot', '{}', 'swiss', '{}', 'running', '', "
        "CURRENT_TIMESTAMP)",
        *(
            "INSERT INTO teams (id, tournament_id, name, name_key, player1, player2, seed, "
            f"status, late, created_at) VALUES ({i}, 1, '{i}', '{i}', '', '', {i}, 'active', "
            "false, CURRENT_TIMESTAMP)"
            for i in (1, 2)
        ),
        "INSERT INTO tournament_rounds (id, tournament_id, number, stage, status) "
        "VALUES (1, 1, 1, 'swiss', 'published')",
        "INSERT INTO tournament_tables (id, round_id, number, home_id, away_id, mode, status, "
        "forfeit) VALUES (1, 1, 1, 1, 2, 'paper', 'playing', false)",
        "INSERT INTO tournament_deals (table_id, deal_no, summary, home_points, away_points, "
        "entered_at) VALUES (1, 1, '{}', 10, 20, CURRENT_TIMESTAMP)",
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
            table = (
                await conn.execute(text("SELECT third_id, third_score FROM tournament_tables"))
            ).all()
            deal = (await conn.execute(text("SELECT third_points FROM tournament_deals"))).all()
    finally:
        await engine.dispose()
    assert [tuple(r) for r in table] == [(None, None)] and [tuple(r) for r in deal] == [(None,)]
