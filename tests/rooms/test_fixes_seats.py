"""A seat its person left in a running game is kept for that person: a stand-in plays it,
nobody else may take it (an opponent's second guest account least of all), the person
may come back at any time (docs/server.md "Rooms and seats")."""

from __future__ import annotations

import httpx

from tests.conftest import Guest
from tests.tables import Table, view_of


async def test_a_left_seat_cannot_be_taken_by_anyone_else(
    client: httpx.AsyncClient, guest: Guest, table: Table
) -> None:
    e = table.eldest
    left = await client.delete(f"/api/rooms/{table.room_id}/seats/{e}", headers=table.headers[e])
    assert left.status_code == 200
    seat = left.json()["seats"][e]
    assert seat["kind"] == "bot" and seat["stand_in"] is True and seat["away"] is True
    # an opponent's second guest account, a stranger, and the opponent himself
    sock_puppet = await guest("Berto2")
    for headers in (sock_puppet, await guest("Stranger"), table.headers[table.seat(1)]):
        taken = await client.put(f"/api/rooms/{table.room_id}/seats/{e}", json={}, headers=headers)
        assert taken.status_code == 409, taken.text
        assert taken.json()["detail"]
    # the sock puppet watches: no hand of anyone, and no move for the seat
    watching = (await client.get(f"/api/rooms/{table.room_id}/view", headers=sock_puppet)).json()
    assert (
        watching["my_seat"] is None and watching["hand"] is None and watching["legal_actions"] == []
    )
    refused = await client.post(
        f"/api/rooms/{table.room_id}/moves",
        json={"seq": watching["seq"], "action": {"type": "pass"}},
        headers=sock_puppet,
    )
    assert refused.status_code == 403
    info = (await client.get(f"/api/rooms/{table.room_id}")).json()
    assert info["seats"][e]["user_id"] is not None and info["seats"][e]["away"] is True


async def test_the_person_who_left_comes_back_and_the_stand_in_leaves(
    client: httpx.AsyncClient, table: Table
) -> None:
    e = table.eldest
    hand_before = (await view_of(client, table, e))["hand"]
    await client.delete(f"/api/rooms/{table.room_id}/seats/{e}", headers=table.headers[e])
    back = await client.put(
        f"/api/rooms/{table.room_id}/seats/{e}", json={}, headers=table.headers[e]
    )
    assert back.status_code == 200, back.text
    seat = back.json()["seats"][e]
    assert seat["kind"] == "person" and seat["name"] == ("Anna", "Berto", "Carme", "Dani")[e]
    assert seat["stand_in"] is False and seat["away"] is False and seat["bot"] is None
    view = await view_of(client, table, e)
    assert view["my_seat"] == e and view["hand"] and hand_before


async def test_while_away_the_seat_stays_theirs_and_only_theirs(
    client: httpx.AsyncClient, table: Table
) -> None:
    e = table.eldest
    await client.delete(f"/api/rooms/{table.room_id}/seats/{e}", headers=table.headers[e])
    view = await view_of(client, table, e)
    assert view["my_seat"] == e  # they see their own seat, as before leaving
    other = await client.put(
        f"/api/rooms/{table.room_id}/seats/{table.seat(1)}", json={}, headers=table.headers[e]
    )
    assert other.status_code == 409  # and take no other one


async def test_an_open_room_frees_the_seat_as_before(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    alice, bob = await guest("Alice"), await guest("Bob")
    room = (await client.post("/api/rooms", json={"game": "bolot"}, headers=alice)).json()["id"]
    await client.put(f"/api/rooms/{room}/seats/0", json={}, headers=alice)
    freed = (await client.delete(f"/api/rooms/{room}/seats/0", headers=alice)).json()["seats"][0]
    assert freed["kind"] == "empty" and freed["away"] is False
    assert (await client.put(f"/api/rooms/{room}/seats/0", json={}, headers=bob)).status_code == 200
