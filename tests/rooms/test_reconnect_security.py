"""Reconnection: a refresh, a new device or a dropped socket brings back the same seat,
hand, legal actions and clock; a socket that says which seq it saw gets the moves it
missed (or the whole view when too far behind); a second socket replaces nothing."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import websockets

from app.rooms import sockets
from tests.conftest import Guest
from tests.tables import Table, view_of

PASSWORD = "correct horse battery"


def _stable(view: dict) -> dict:
    return {k: v for k, v in view.items() if k != "spectators"}


async def test_a_refresh_and_a_new_device_show_the_same_seat_and_hand(
    client: httpx.AsyncClient, table: Table
) -> None:
    eldest = table.headers[table.eldest]
    before = await view_of(client, table, table.eldest)
    assert before["legal_actions"] and before["hand"]
    assert _stable(await view_of(client, table, table.eldest)) == _stable(before)  # a refresh
    # the guest registers, then logs in from another device: a new token, the same seat
    assert (
        await client.post(
            "/api/accounts", json={"username": "eldest", "password": PASSWORD}, headers=eldest
        )
    ).status_code == 201
    token = (
        await client.post("/api/login", json={"username": "eldest", "password": PASSWORD})
    ).json()["token"]
    client.cookies.clear()
    other_device = (
        await client.get(
            f"/api/rooms/{table.room_id}/view", headers={"Authorization": f"Bearer {token}"}
        )
    ).json()
    assert other_device["my_seat"] == table.eldest
    for key in ("hand", "legal_actions", "seq", "to_act", "clock", "commitment"):
        assert other_device[key] == before[key], key


async def _play_one(http: httpx.AsyncClient, room: int, auth: list[dict[str, str]]) -> int:
    public = (await http.get(f"/api/rooms/{room}/view")).json()
    seat = public["to_act"]
    mine = (await http.get(f"/api/rooms/{room}/view", headers=auth[seat])).json()
    answer = await http.post(
        f"/api/rooms/{room}/moves",
        json={"seq": mine["seq"], "action": mine["legal_actions"][0]},
        headers=auth[seat],
    )
    assert answer.status_code == 200, answer.text
    return answer.json()["seq"]


async def _started(http: httpx.AsyncClient) -> tuple[int, list[str], list[dict[str, str]]]:
    tokens = []
    for name in ("Anna", "Berto", "Carme", "Dani"):
        tokens.append((await http.post("/api/session", json={"nickname": name})).json()["token"])
        http.cookies.clear()
    auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
    room = (await http.post("/api/rooms", json={"game": "bolot"}, headers=auth[0])).json()["id"]
    for seat in range(4):
        await http.put(f"/api/rooms/{room}/seats/{seat}", json={}, headers=auth[seat])
    await http.post(f"/api/rooms/{room}/start", headers=auth[0])
    return room, tokens, auth


async def _recv(ws: websockets.ClientConnection) -> dict:
    async with asyncio.timeout(10):
        return json.loads(await ws.recv())


async def _recv_seq(ws: websockets.ClientConnection, seq: int) -> dict:
    """The next view at ``seq`` (earlier pushes of intermediate seqs are skipped)."""
    while True:
        message = await _recv(ws)
        if message.get("type") == "view" and message["seq"] == seq:
            return message


async def test_a_dropped_socket_catches_up_with_the_moves_it_missed(live_server: str) -> None:
    async with httpx.AsyncClient(base_url=live_server) as http:
        room, tokens, auth = await _started(http)
        url = f"{live_server.replace('http://', 'ws://')}/api/rooms/{room}/ws?token={tokens[0]}"
        async with websockets.connect(url) as ws:
            first = await _recv(ws)
        assert first["type"] == "view"
        seen = first["seq"]
        await _play_one(http, room, auth)
        now = await _play_one(http, room, auth)
        async with websockets.connect(f"{url}&since={seen}") as ws:
            missed = await _recv(ws)
            view = await _recv(ws)
            assert missed["type"] == "moves" and missed["since"] == seen and missed["seq"] == now
            assert [m["seq"] for m in missed["moves"]] == list(range(seen, now))
            assert view["type"] == "view" and view["seq"] == now
            assert view == {
                **(await http.get(f"/api/rooms/{room}/view", headers=auth[0])).json(),
                "type": "view",
                "spectators": view["spectators"],
            }
            # then each change comes as its moves, then the view
            after = await _play_one(http, room, auth)
            got: list[int] = []
            while True:  # moves messages, then views, until the view at ``after``
                message = await _recv(ws)
                if message["type"] == "moves":
                    got += [m["seq"] for m in message["moves"]]
                elif message["seq"] == after:
                    break
            assert got == list(range(now, after))


async def test_too_far_behind_gets_the_whole_view_only(
    live_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sockets, "CATCHUP_MAX", 1)
    async with httpx.AsyncClient(base_url=live_server) as http:
        room, tokens, auth = await _started(http)
        seen = (await http.get(f"/api/rooms/{room}/view")).json()["seq"]
        await _play_one(http, room, auth)
        now = await _play_one(http, room, auth)
        url = f"{live_server.replace('http://', 'ws://')}/api/rooms/{room}/ws?token={tokens[0]}&since={seen}"
        async with websockets.connect(url) as ws:
            view = await _recv(ws)
            assert view["type"] == "view" and view["seq"] == now and view["hand"]


async def test_a_second_socket_for_the_same_seat_replaces_nothing(live_server: str) -> None:
    async with httpx.AsyncClient(base_url=live_server) as http:
        room, tokens, auth = await _started(http)
        url = f"{live_server.replace('http://', 'ws://')}/api/rooms/{room}/ws?token={tokens[1]}"
        async with websockets.connect(url) as tab1:
            one = await _recv(tab1)
            async with websockets.connect(url) as tab2:
                two = await _recv(tab2)
                assert _stable(one) == _stable(two) and one["my_seat"] == 1
                after = await _play_one(http, room, auth)
                a, b = await _recv_seq(tab1, after), await _recv_seq(tab2, after)
                assert a["seq"] == b["seq"] == after and _stable(a) == _stable(b)
            # the first tab still gets every change after the second one closed
            later = await _play_one(http, room, auth)
            assert (await _recv_seq(tab1, later))["my_seat"] == 1


async def test_a_guest_who_leaves_gets_a_stand_in_and_may_come_back(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    host = await guest("Host")
    room = (await client.post("/api/rooms", json={"game": "bolot"}, headers=host)).json()["id"]
    await client.put(f"/api/rooms/{room}/seats/0", json={}, headers=host)
    for seat in (1, 2, 3):
        await client.put(f"/api/rooms/{room}/seats/{seat}", json={"bot": "random"}, headers=host)
    await client.post(f"/api/rooms/{room}/start", headers=host)
    left = (await client.delete(f"/api/rooms/{room}/seats/0", headers=host)).json()
    assert left["seats"][0]["stand_in"] is True and left["seats"][0]["kind"] == "bot"
    back = await client.put(f"/api/rooms/{room}/seats/0", json={}, headers=host)
    assert back.status_code == 200 and back.json()["seats"][0]["name"] == "Host"
    assert back.json()["seats"][0]["stand_in"] is False
