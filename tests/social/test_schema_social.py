"""Migration 0019_social on this database's kind (SQLite by default, PostgreSQL when
``DATABASE_URL`` names one): a fresh database upgraded to it has ``follows`` (one row per
pair: a second identical row is refused), ``users.seen_at`` and ``users.presence_hidden``
(false for the people made before); it downgrades to 0018 without them, keeping the
users, and upgrades again."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError

from app.core.db import make_engine, migrate
from tests.tournaments.test_schema_requests import _downgrade, _tables, fresh_url  # noqa: F401


async def _user_columns(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            cols = await conn.run_sync(lambda c: inspect(c).get_columns("users"))
    finally:
        await engine.dispose()
    return {c["name"] for c in cols}


async def test_0019_upgrades_keeps_one_follow_per_pair_and_downgrades(
    fresh_url: str,  # noqa: F811
) -> None:
    await migrate(fresh_url, "0018_chat")
    engine = make_engine(fresh_url)
    try:
        async with engine.begin() as conn:  # people made before the migration
            for uid, name in ((1, "Ana"), (2, "Ben")):
                await conn.execute(
                    text(
                        "INSERT INTO users (id, nickname, kind, created_at) VALUES "
                        f"({uid}, '{name}', 'guest', CURRENT_TIMESTAMP)"
                    )
                )
    finally:
        await engine.dispose()
    await migrate(fresh_url, "0019_social")
    names, version = await _tables(fresh_url)
    assert "follows" in names and version == "0019_social"
    assert {"seen_at", "presence_hidden"} <= await _user_columns(fresh_url)
    engine = make_engine(fresh_url)
    follow = "INSERT INTO follows (follower_id, followed_id, created_at) VALUES (1, 2, CURRENT_TIMESTAMP)"
    try:
        async with engine.begin() as conn:
            hidden = (
                await conn.execute(text("SELECT presence_hidden FROM users ORDER BY id"))
            ).all()
            assert [bool(h) for (h,) in hidden] == [False, False]
            await conn.execute(text(follow))
        with pytest.raises(IntegrityError):  # the same pair again
            async with engine.begin() as conn:
                await conn.execute(text(follow))
    finally:
        await engine.dispose()
    await _downgrade(fresh_url, "0018_chat")
    names, version = await _tables(fresh_url)
    assert "follows" not in names and version == "0018_chat"
    assert not {"seen_at", "presence_hidden"} & await _user_columns(fresh_url)
    engine = make_engine(fresh_url)
    try:
        async with engine.connect() as conn:
            assert (await conn.execute(text("SELECT count(*) FROM users"))).scalar() == 2
    finally:
        await engine.dispose()
    await migrate(fresh_url)
    names, _ = await _tables(fresh_url)
    assert "follows" in names
