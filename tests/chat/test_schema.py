"""Migration 0018_chat on this database's kind (SQLite by default, PostgreSQL when
``DATABASE_URL`` names one): upgraded, the chat's tables, their unique keys and the
``rooms.chat`` column (true for the rooms already there) exist; downgraded, they are gone
and the rooms kept; upgraded again."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError

from app.core.db import make_engine, migrate
from tests.tournaments.test_schema_requests import _downgrade, _tables, fresh_url  # noqa: F401

CHAT_TABLES = {"chat_messages", "chat_reports", "chat_mutes", "user_blocks"}


async def test_0018_upgrades_with_unique_keys_and_downgrades(fresh_url: str) -> None:  # noqa: F811
    await migrate(fresh_url, "0017_invitations")
    engine = make_engine(fresh_url)
    try:
        async with engine.begin() as conn:
            await conn.execute(
                text(
                    "INSERT INTO users (id, nickname, kind, created_at, session_version, "
                    "profile_hidden) VALUES (1, 'Ana', 'guest', CURRENT_TIMESTAMP, 0, false)"
                )
            )
            await conn.execute(
                text(
                    "INSERT INTO rooms (id, game, options, status, created_at, max_timeouts, "
                    "spectators_see_hands, rated, skip_empty_declaration) VALUES "
                    "(7, 'bolot', '{}', 'open', CURRENT_TIMESTAMP, 2, false, false, true)"
                )
            )
    finally:
        await engine.dispose()
    await migrate(fresh_url, "0018_chat")
    names, version = await _tables(fresh_url)
    assert CHAT_TABLES <= names and version == "0018_chat"
    engine = make_engine(fresh_url)
    try:
        async with engine.connect() as conn:
            chat = (await conn.execute(text("SELECT chat FROM rooms WHERE id = 7"))).scalar()
            assert chat in (True, 1)  # the rooms already there keep their chat
            insert = (
                "INSERT INTO chat_messages (room_id, user_id, channel, text, client_id, "
                "created_at) VALUES (7, 1, 'table', 'hola', 'c1', CURRENT_TIMESTAMP)"
            )
            await conn.execute(text(insert))
            await conn.commit()
            with pytest.raises(IntegrityError):  # one message per client id
                await conn.execute(text(insert))
            await conn.rollback()
            cols = {
                c["name"] for c in await conn.run_sync(lambda c: inspect(c).get_columns("rooms"))
            }
            assert "chat" in cols
    finally:
        await engine.dispose()
    await _downgrade(fresh_url, "0017_invitations")
    names, version = await _tables(fresh_url)
    assert not (CHAT_TABLES & names) and version == "0017_invitations" and "rooms" in names
    engine = make_engine(fresh_url)
    try:
        async with engine.connect() as conn:
            cols = {
                c["name"] for c in await conn.run_sync(lambda c: inspect(c).get_columns("rooms"))
            }
            assert "chat" not in cols
            assert (await conn.execute(text("SELECT count(*) FROM rooms"))).scalar() == 1
    finally:
        await engine.dispose()
    await migrate(fresh_url)
    names, _ = await _tables(fresh_url)
    assert CHAT_TABLES <= names
