"""A double tap on "Create room" (or a retried API request) makes one room: the lobby
form's creation key and the API's Idempotency-Key are unique in the database, so the
same request fired many times at once gets the one room (a race on PostgreSQL in CI)."""

from __future__ import annotations

import asyncio
import re

import httpx

from tests.conftest import Guest
from tests.table.test_pages import _sign_in, _token

KEY = re.compile(r'name="creation_key" value="([^"]+)"')


async def _room_count(client: httpx.AsyncClient) -> int:
    return len((await client.get("/api/rooms")).json())


async def test_the_same_lobby_form_sent_ten_times_at_once_makes_one_room(
    client: httpx.AsyncClient,
) -> None:
    await _sign_in(client)
    lobby = (await client.get("/")).text
    key = KEY.search(lobby)
    assert key, "the lobby's form carries a creation key"
    token = await _token(client)
    form = {"game": "bolot", "csrf": token, "creation_key": key.group(1)}
    before = await _room_count(client)
    answers = await asyncio.gather(*(client.post("/rooms", data=form) for _ in range(10)))
    assert {a.status_code for a in answers} == {303}, [a.text for a in answers]
    assert len({a.headers["location"] for a in answers}) == 1  # every tap goes to the one room
    assert await _room_count(client) == before + 1
    # a new lobby page is a new form: it makes a new room
    fresh = KEY.search((await client.get("/")).text)
    assert fresh and fresh.group(1) != key.group(1)


async def test_an_api_retry_with_its_idempotency_key_gets_the_same_room(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    headers = await guest("Rita")
    keyed = {**headers, "idempotency-key": "rita-room-0001"}
    answers = await asyncio.gather(
        *(client.post("/api/rooms", json={"game": "belote"}, headers=keyed) for _ in range(8))
    )
    assert {a.status_code for a in answers} == {201}
    assert len({a.json()["id"] for a in answers}) == 1
    # without a key, two requests are two rooms, as before
    plain = [
        (await client.post("/api/rooms", json={"game": "belote"}, headers=headers)).json()["id"]
        for _ in range(2)
    ]
    assert len(set(plain)) == 2


async def test_a_creation_key_is_one_persons_and_has_a_shape(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    rita, joan = await guest("Rita"), await guest("Joan")
    made = await client.post(
        "/api/rooms", json={"game": "bolot"}, headers={**rita, "idempotency-key": "shared-key-42"}
    )
    assert made.status_code == 201
    other = await client.post(
        "/api/rooms", json={"game": "bolot"}, headers={**joan, "idempotency-key": "shared-key-42"}
    )
    assert other.status_code == 409
    bad = await client.post(
        "/api/rooms", json={"game": "bolot"}, headers={**rita, "idempotency-key": "x y"}
    )
    assert bad.status_code == 422
