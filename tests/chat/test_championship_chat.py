"""A championship switches its online tables' chat off; its organiser may hide a message
at its tables (issue 18 §2; docs/chat.md)."""

from __future__ import annotations

import httpx

from tests.conftest import Guest
from tests.tournaments.conftest import Org


async def _tables(org: Org, settings: dict) -> list[int]:
    t = await org.post(
        "/tournaments",
        {"name": "Lliga", "game": "bolot", "options": {"target": 1000}, "settings": settings},
        201,
    )
    for i in range(4):
        await org.post(f"/tournaments/{t['id']}/teams", {"name": f"B{i}", "bot": "heuristic"}, 201)
    await org.post(f"/tournaments/{t['id']}/rounds", status=201)
    published = await org.post(f"/tournaments/{t['id']}/rounds/1/publish")
    return [x["room_id"] for x in published["tables"]]


async def test_chat_off_refuses_and_shows_no_form(
    org: Org, client: httpx.AsyncClient, guest: Guest
) -> None:
    rooms = await _tables(org, {"play": "online", "chat": False})
    watcher = await guest("Watcher")
    refused = await client.post(
        f"/api/rooms/{rooms[0]}/chat", json={"text": "hola"}, headers=watcher
    )
    assert refused.status_code == 403
    assert (await client.get(f"/api/rooms/{rooms[0]}/chat")).json()["chat"] is False
    await org.post("/tournaments", {"name": "X", "game": "bolot", "settings": {"chat": "no"}}, 422)


async def test_the_organiser_hides_a_message_at_its_table(
    org: Org, client: httpx.AsyncClient, guest: Guest
) -> None:
    rooms = await _tables(org, {"play": "online"})
    watcher = await guest("Watcher")
    said = await client.post(f"/api/rooms/{rooms[0]}/chat", json={"text": "rude"}, headers=watcher)
    assert said.status_code == 201
    mid = said.json()["id"]
    assert (await client.post(f"/api/chat/messages/{mid}/hide", headers=watcher)).status_code == 403
    assert (await org.post(f"/chat/messages/{mid}/hide"))["hidden"] is True
    assert (await client.get(f"/api/rooms/{rooms[0]}/chat")).json()["messages"] == []
