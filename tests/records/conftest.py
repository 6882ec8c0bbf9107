"""Fixtures of the record tests: the four-guest Bolot table with a known first deal
(tests/tables.py) and a helper that plays a deal out through the API."""

from __future__ import annotations

import asyncio
import time

import httpx

from tests.conftest import Guest
from tests.tables import Table, fixed_first_deal, move, table, view_of  # noqa: F401

__all__ = ["Guest", "Table", "bot_room", "play_deal_out", "wait_for"]


async def play_deal_out(client: httpx.AsyncClient, table: Table) -> dict:  # noqa: F811
    """Whoever is to act plays their first legal action until the deal in play ends and
    the runner has dealt the next one; returns the spectator's view then."""
    start = len((await view_of(client, table, None))["sheet"])
    for _ in range(400):
        public = await view_of(client, table, None)
        if len(public["sheet"]) > start:
            break
        seat = public["to_act"]
        if seat is None:
            await asyncio.sleep(0.01)
            continue
        mine = await view_of(client, table, seat)
        response = await move(client, table, seat, mine["legal_actions"][0], seq=mine["seq"])
        assert response.status_code in (200, 409), response.text
    return await wait_for(client, table.room_id, lambda v: v["phase"] in ("auction", "over"))


async def wait_for(client: httpx.AsyncClient, room_id: int, test, timeout: float = 120) -> dict:
    """Poll the spectator's view of ``room_id`` until ``test(view)`` holds."""
    deadline = time.monotonic() + timeout
    while True:
        view = (await client.get(f"/api/rooms/{room_id}/view")).json()
        if test(view):
            return view
        assert time.monotonic() < deadline, f"timed out at seq {view['seq']}"
        await asyncio.sleep(0.05)


async def bot_room(
    client: httpx.AsyncClient, guest: Guest, game: str, options: dict, bot: str = "random"
) -> int:
    """A started room of ``game`` with a bot in every seat; returns its id."""
    host = await guest("Host")
    room = (
        await client.post("/api/rooms", json={"game": game, "options": options}, headers=host)
    ).json()
    assert "id" in room, room
    for seat in range(room["players"]):
        response = await client.put(
            f"/api/rooms/{room['id']}/seats/{seat}", json={"bot": bot}, headers=host
        )
        assert response.status_code == 200, response.text
    assert (await client.post(f"/api/rooms/{room['id']}/start", headers=host)).status_code == 200
    return room["id"]
