"""Seat security: only the holder of a seat acts for it; one seat per user per room;
strangers cannot seat bots, start, or empty someone else's seat. Each test tries to break it."""

from __future__ import annotations

import asyncio

import httpx

from tests.conftest import Guest
from tests.tables import Table, move, view_of


async def _room(
    client: httpx.AsyncClient, host: dict[str, str], game: str = "bolot", **extra: object
) -> int:
    response = await client.post("/api/rooms", json={"game": game, **extra}, headers=host)
    assert response.status_code == 201, response.text
    return response.json()["id"]


async def test_every_other_seat_and_a_stranger_are_refused_the_eldest_s_move(
    client: httpx.AsyncClient, table: Table, guest: Guest
) -> None:
    for offset in (1, 2, 3):
        refused = await move(client, table, table.seat(offset), {"type": "take"}, seq=1)
        assert refused.status_code == 403, refused.text
    stranger = await guest("Mallory")
    url = f"/api/rooms/{table.room_id}/moves"
    assert (
        await client.post(url, json={"seq": 1, "action": {"type": "take"}}, headers=stranger)
    ).status_code == 403
    forged = {
        "Authorization": "Bearer " + table.headers[table.eldest]["Authorization"][7:-3] + "xyz"
    }
    assert (
        await client.post(url, json={"seq": 1, "action": {"type": "take"}}, headers=forged)
    ).status_code == 401
    assert (await view_of(client, table, None))["seq"] == 1
    assert (await move(client, table, table.eldest, {"type": "take"}, seq=1)).status_code == 200


async def test_a_logged_out_token_no_longer_acts_for_its_seat(
    client: httpx.AsyncClient, table: Table
) -> None:
    headers = table.headers[table.eldest]
    assert (await client.post("/api/logout", headers=headers)).status_code == 204
    client.cookies.clear()
    assert (await move(client, table, table.eldest, {"type": "take"}, seq=1)).status_code == 401


async def test_a_user_cannot_hold_two_seats_even_racing(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    host, greedy = await guest("Host"), await guest("Greedy")
    room = await _room(client, host)
    answers = await asyncio.gather(
        *(
            client.put(f"/api/rooms/{room}/seats/{seat}", json={}, headers=greedy)
            for seat in range(4)
        )
    )
    assert sorted(a.status_code for a in answers) == [200, 409, 409, 409]
    info = (await client.get(f"/api/rooms/{room}")).json()
    assert sum(1 for s in info["seats"] if s["kind"] == "person") == 1


async def test_two_people_racing_for_one_seat_get_it_once(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    host = await guest("Host")
    people = [await guest(f"P{n}") for n in range(4)]
    room = await _room(client, host)
    answers = await asyncio.gather(
        *(client.put(f"/api/rooms/{room}/seats/1", json={}, headers=h) for h in people)
    )
    assert sorted(a.status_code for a in answers) == [200, 409, 409, 409]
    winner = next(i for i, a in enumerate(answers) if a.status_code == 200)
    seat = (await client.get(f"/api/rooms/{room}")).json()["seats"][1]
    assert seat["name"] == f"P{winner}"


async def test_strangers_cannot_seat_bots_start_or_empty_seats(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    host, stranger = await guest("Host"), await guest("Mallory")
    room = await _room(client, host)
    await client.put(f"/api/rooms/{room}/seats/0", json={}, headers=host)
    assert (
        await client.put(f"/api/rooms/{room}/seats/1", json={"bot": "random"}, headers=stranger)
    ).status_code == 403
    await client.put(f"/api/rooms/{room}/seats/1", json={"bot": "random"}, headers=host)
    assert (await client.delete(f"/api/rooms/{room}/seats/1", headers=stranger)).status_code == 403
    assert (await client.delete(f"/api/rooms/{room}/seats/0", headers=stranger)).status_code == 403
    for seat in (2, 3):
        await client.put(f"/api/rooms/{room}/seats/{seat}", json={"bot": "random"}, headers=host)
    assert (await client.post(f"/api/rooms/{room}/start", headers=stranger)).status_code == 403
    assert (
        await client.put(f"/api/rooms/{room}/seats/0", json={}, headers=stranger)
    ).status_code == 409
    info = (await client.get(f"/api/rooms/{room}")).json()
    assert info["status"] == "open" and info["seats"][0]["name"] == "Host"


async def test_starting_twice_at_once_deals_once(client: httpx.AsyncClient, guest: Guest) -> None:
    host = await guest("Host")
    room = await _room(client, host)
    for seat in range(4):
        await client.put(f"/api/rooms/{room}/seats/{seat}", json={"bot": "random"}, headers=host)
    answers = await asyncio.gather(
        *(client.post(f"/api/rooms/{room}/start", headers=host) for _ in range(4))
    )
    assert sorted(a.status_code for a in answers) == [200, 409, 409, 409]
    log = (await client.get(f"/api/rooms/{room}/moves")).json()
    assert [m["action"]["type"] for m in log].count("deal") >= 1
    assert [m["seq"] for m in log] == list(range(len(log)))


async def test_the_move_log_and_views_never_show_another_seat_s_hand(
    client: httpx.AsyncClient, table: Table
) -> None:
    eldest_hand = set((await view_of(client, table, table.eldest))["hand"])
    for offset in (1, 2, 3):
        other = await view_of(client, table, table.seat(offset))
        assert not eldest_hand & set(other["hand"])
    log = (
        await client.get(f"/api/rooms/{table.room_id}/moves", headers=table.headers[table.seat(1)])
    ).json()
    assert "deck" not in log[0]["action"]
