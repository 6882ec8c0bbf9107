"""The chat's rules through the JSON API (issue 18 §2, §5; docs/chat.md): who writes
where, who reads what, limits, idempotent posts, mute, block, report, hide, chat off,
quick play never seating blocked people together."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from app.accounts import service as accounts
from app.accounts.models import User
from app.chat import blocks, service
from app.chat.models import ChatMessage, ChatReport
from app.core.settings import get_settings
from app.rooms import queue
from app.rooms.models import Room, Seat
from tests.conftest import Guest
from tests.tables import Table


async def _me(client: httpx.AsyncClient, headers: dict[str, str]) -> int:
    response = await client.get("/api/me", headers=headers)
    assert response.status_code == 200, response.text
    return int(response.json()["id"])


async def _say(
    client: httpx.AsyncClient, table: Table, headers: dict[str, str], text: str, **kw: Any
) -> httpx.Response:
    return await client.post(
        f"/api/rooms/{table.room_id}/chat", json={"text": text, **kw}, headers=headers
    )


async def _read(client: httpx.AsyncClient, table: Table, headers: dict[str, str]) -> list[str]:
    response = await client.get(f"/api/rooms/{table.room_id}/chat", headers=headers)
    assert response.status_code == 200, response.text
    return [m["text"] or m["reaction"] for m in response.json()["messages"]]


async def test_players_write_at_the_table_spectators_in_their_own_chat(
    client: httpx.AsyncClient, guest: Guest, table: Table
) -> None:
    watcher = await guest("Watcher")
    said = await _say(client, table, table.headers[0], "bon joc")
    assert said.status_code == 201, said.text
    assert said.json()["channel"] == "table"
    aside = await _say(client, table, watcher, "the east hand is lost")
    assert aside.status_code == 201 and aside.json()["channel"] == "spectators"
    # a spectator cannot choose the table's channel: there is no such field
    forced = await client.post(
        f"/api/rooms/{table.room_id}/chat",
        json={"text": "x", "channel": "table"},
        headers=watcher,
    )
    assert forced.status_code == 422
    # during the match: every player reads the table chat only; spectators read both
    for seat in range(4):
        assert await _read(client, table, table.headers[seat]) == ["bon joc"]
    assert await _read(client, table, watcher) == ["bon joc", "the east hand is lost"]
    assert await _read(client, table, {}) == ["bon joc", "the east hand is lost"]
    # the match ends (seat 1 resigns): the players read the spectators' chat too
    ended = await client.post(f"/api/rooms/{table.room_id}/resign", headers=table.headers[1])
    assert ended.status_code == 200, ended.text
    assert await _read(client, table, table.headers[2]) == [
        "bon joc",
        "the east hand is lost",
    ]


async def test_a_double_tap_posts_once_and_a_race_too(
    client: httpx.AsyncClient, table: Table
) -> None:
    h = table.headers[0]
    first = await _say(client, table, h, "hola", client_id="tap-1")
    again = await _say(client, table, h, "hola", client_id="tap-1")
    assert first.status_code == again.status_code == 201
    assert first.json()["id"] == again.json()["id"]
    racing = await asyncio.gather(
        *[_say(client, table, h, "race", client_id="race-1") for _ in range(20)]
    )
    assert {r.status_code for r in racing} == {201}
    assert len({r.json()["id"] for r in racing}) == 1
    assert await _read(client, table, h) == ["hola", "race"]


async def test_a_burst_of_messages_at_once_stores_the_limit_and_no_more(
    client: httpx.AsyncClient, table: Table
) -> None:
    # docs/chat.md: 5 messages in 10 seconds a person. Fifteen different messages fired at
    # once store exactly 5 (201) and refuse 10 (429); a fresh tester stored all 15 when
    # each request counted before any had written.
    h = table.headers[0]
    racing = await asyncio.gather(*[_say(client, table, h, f"m{n}") for n in range(15)])
    codes = sorted(r.status_code for r in racing)
    assert codes == [201] * service.RATE_COUNT + [429] * (15 - service.RATE_COUNT), codes
    stored = await _read(client, table, h)
    assert len(stored) == service.RATE_COUNT
    assert sorted(stored) == sorted(r.json()["text"] for r in racing if r.status_code == 201)


async def test_limits_give_clear_refusals(
    client: httpx.AsyncClient, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = table.headers[0]
    too_long = await _say(client, table, h, "a" * 301)
    assert too_long.status_code == 422
    assert too_long.json()["detail"] == "A message has at most 300 characters."
    assert (await _say(client, table, h, "a" * 300)).status_code == 201
    assert (await _say(client, table, h, "   ")).status_code == 422
    bad = await client.post(
        f"/api/rooms/{table.room_id}/chat", json={"reaction": "rude"}, headers=h
    )
    assert bad.status_code == 422 and bad.json()["detail"] == "There is no such reaction."
    # 5 in 10 seconds: the 300-character one and 4 more, then the 6th is refused
    for n in range(4):
        assert (await _say(client, table, h, f"m{n}")).status_code == 201
    fast = await _say(client, table, h, "one too many")
    assert fast.status_code == 429
    assert fast.json()["detail"] == "You are writing too fast: wait a few seconds."
    # someone else is not slowed down by it
    assert (await _say(client, table, table.headers[1], "me")).status_code == 201


@pytest.mark.parametrize(
    ("raw", "kept"),
    [
        ("a" + "\n" * 100 + "b", "a\n\nb"),  # a fresh tester's tall block: one blank line
        ("1\n2\n3\n4\n5\n6\n7", "1\n2\n3\n4\n5 6 7"),  # 5 lines, the rest on the 5th
        ("hola  \n\n\n  tots", "hola\n\n  tots"),
        ("bon joc", "bon joc"),
        ("E" + "\u0085" * 100 + "F", "EF"),  # next-line controls: a second tester's tall block
        ("a" + "\u2028" * 9 + "b\u2029c", "a\n\nb\nc"),  # line and paragraph separators
    ],
)
def test_a_message_keeps_at_most_five_lines_and_no_run_of_blank_ones(raw: str, kept: str) -> None:
    assert service.clean_text(raw) == kept


async def test_a_message_of_a_hundred_line_breaks_is_stored_short(
    client: httpx.AsyncClient, table: Table
) -> None:
    said = await _say(client, table, table.headers[0], "gg" + "\n" * 100 + "wp")
    assert said.status_code == 201 and said.json()["text"] == "gg\n\nwp"


async def test_reactions_are_stored_as_keys(client: httpx.AsyncClient, table: Table) -> None:
    said = await client.post(
        f"/api/rooms/{table.room_id}/chat",
        json={"reaction": "well_played", "client_id": "r1"},
        headers=table.headers[2],
    )
    assert said.status_code == 201
    assert said.json()["reaction"] == "well_played" and said.json()["text"] is None


async def test_mute_and_block_hide_messages_for_me_only(
    client: httpx.AsyncClient, guest: Guest, table: Table
) -> None:
    anna, berto, carme = table.headers[0], table.headers[1], table.headers[2]
    berto_id = await _me(client, berto)
    await _say(client, table, berto, "from berto")
    await _say(client, table, carme, "from carme")
    muted = await client.put(f"/api/people/{berto_id}/mute", headers=anna)
    assert muted.status_code == 200 and muted.json() == {"muted": True}
    assert (await client.put(f"/api/people/{berto_id}/mute", headers=anna)).status_code == 200
    assert await _read(client, table, anna) == ["from carme"]
    assert await _read(client, table, carme) == ["from berto", "from carme"]
    await client.delete(f"/api/people/{berto_id}/mute", headers=anna)
    assert await _read(client, table, anna) == ["from berto", "from carme"]
    # a block: Carme blocks Berto
    assert (await client.put(f"/api/people/{berto_id}/block", headers=carme)).json() == {
        "blocked": True
    }
    await _say(client, table, berto, "again")
    assert await _read(client, table, carme) == ["from carme"]
    assert await _read(client, table, anna) == ["from berto", "from carme", "again"]
    me = await _me(client, anna)
    assert (await client.put(f"/api/people/{me}/block", headers=anna)).status_code == 422
    assert (await client.put("/api/people/999999/block", headers=anna)).status_code == 404


async def test_report_once_and_hide_by_an_admin_only(
    app: Any, client: httpx.AsyncClient, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    said = (await _say(client, table, table.headers[1], "rude words")).json()
    mid = said["id"]
    url = f"/api/chat/messages/{mid}/report"
    first = await client.post(url, json={"reason": "insults"}, headers=table.headers[0])
    again = await client.post(url, json={"reason": "again"}, headers=table.headers[0])
    assert first.json() == {"new": True} and again.json() == {"new": False}
    racing = await asyncio.gather(
        *[client.post(url, json={}, headers=table.headers[2]) for _ in range(20)]
    )
    assert {r.status_code for r in racing} == {200}
    assert sum(r.json()["new"] for r in racing) == 1
    async with app.state.sessionmaker() as db:
        assert await db.scalar(select(func.count()).select_from(ChatReport)) == 2
    # a player may not hide it
    hide = f"/api/chat/messages/{mid}/hide"
    assert (await client.post(hide, headers=table.headers[0])).status_code == 403
    # an admin (an account named in TAPET_ADMINS) may
    async with app.state.sessionmaker() as db:
        admin = await accounts.register(db, "moderator", "a long password 1", "Mod")
    monkeypatch.setattr(get_settings(), "admins", "moderator")
    token = (
        await client.post(
            "/api/login", json={"username": "moderator", "password": "a long password 1"}
        )
    ).json()["token"]
    client.cookies.clear()
    mod = {"Authorization": f"Bearer {token}"}
    assert (await client.get("/api/chat/reports", headers=mod)).status_code == 200
    assert (await client.get("/api/chat/reports", headers=table.headers[0])).status_code == 403
    assert (await client.post(hide, headers=mod)).json()["hidden"] is True
    assert (await client.post(hide, headers=mod)).status_code == 200  # again: nothing new
    assert await _read(client, table, table.headers[2]) == []
    async with app.state.sessionmaker() as db:
        row = await db.get(ChatMessage, mid)
        assert row is not None and row.hidden_by == admin.id  # kept, marked


async def test_a_table_with_chat_off_refuses(
    app: Any, client: httpx.AsyncClient, table: Table
) -> None:
    async with app.state.sessionmaker() as db:
        room = await db.get(Room, table.room_id)
        assert room is not None
        room.chat = False
        await db.commit()
    refused = await _say(client, table, table.headers[0], "hello")
    assert refused.status_code == 403
    assert refused.json()["detail"] == "Chat is switched off at this table."
    assert (await client.get(f"/api/rooms/{table.room_id}/chat")).json()["chat"] is False


async def _people(app: Any, *names: str) -> list[User]:
    async with app.state.sessionmaker() as db:
        return [await accounts.create_guest(db, n) for n in names]


async def test_blocks_either_way(app: Any) -> None:
    ana, ben, cai = await _people(app, "Ana", "Ben", "Cai")
    async with app.state.sessionmaker() as db:
        await service.set_block(db, ana, ben.id, True)
        assert await blocks.is_blocked(db, ana.id, ben.id)
        assert await blocks.is_blocked(db, ben.id, ana.id)
        assert not await blocks.is_blocked(db, ana.id, cai.id)
        pair = (min(ana.id, ben.id), max(ana.id, ben.id))
        assert await blocks.blocked_pairs(db, [ana.id, ben.id, cai.id]) == {pair}
        assert await blocks.blocked_pairs(db, [ana.id, cai.id]) == set()


async def test_quick_play_never_seats_blocked_people_together(app: Any) -> None:
    ana, ben, cai = await _people(app, "Ana", "Ben", "Cai")
    async with app.state.sessionmaker() as db:
        await service.set_block(db, ben, ana.id, True)  # Ben blocked Ana
        first = await queue.join(db, ana, "belote-2p")
        second = await queue.join(db, ben, "belote-2p")
        assert first["room_id"] is None and second["room_id"] is None  # not together
        third = await queue.join(db, cai, "belote-2p")
        room_id = third["room_id"]
        assert room_id is not None
        seated = set(await db.scalars(select(Seat.user_id).where(Seat.room_id == room_id)))
    assert seated == {ana.id, cai.id}  # the oldest entry (Ana) with the newcomer
