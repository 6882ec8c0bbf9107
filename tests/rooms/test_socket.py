"""WS /api/rooms/{id}/ws: the caller's whole view at connect, a new one after every change."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import websockets

from tests.tables import DECK, live_table


async def _next_view(
    ws: websockets.ClientConnection, seq: int | None = None, timeout: float = 10
) -> dict:
    """The next view pushed (the first with ``seq`` when given)."""
    async with asyncio.timeout(timeout):
        while True:
            view = json.loads(await ws.recv())
            if seq is None or view["seq"] == seq:
                return view


async def test_socket_pushes_each_viewer_their_own_view(
    live_server: str, fixed_first_deal: list[str]
) -> None:
    ws_base = live_server.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=live_server) as http:
        room_id, tokens, dealer = await live_table(http)
        room = {"id": room_id}
        auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
        eldest = (dealer + 1) % 4

        url = f"{ws_base}/api/rooms/{room['id']}/ws"
        async with (
            websockets.connect(f"{url}?token={tokens[eldest]}") as player,
            websockets.connect(url) as spectator,
        ):
            mine = await _next_view(player)
            public = await _next_view(spectator)
            assert mine["seq"] == public["seq"] == 1
            assert mine["my_seat"] == eldest
            assert sorted(mine["hand"]) == sorted(DECK[0:3] + DECK[12:14])
            assert {"type": "take"} in mine["legal_actions"]
            assert (
                public["hand"] is None
                and public["my_seat"] is None
                and public["legal_actions"] == []
            )
            assert (await http.get(f"/api/rooms/{room['id']}")).json()["spectators"] == 1

            response = await http.post(
                f"/api/rooms/{room['id']}/moves",
                json={"seq": 1, "action": {"type": "pass"}},
                headers=auth[eldest],
            )
            assert response.status_code == 200
            mine = await _next_view(player, seq=2)
            public = await _next_view(spectator, seq=2)
            assert (
                mine["auction"]
                == public["auction"]
                == [{"seat": eldest, "type": "pass", "round": 1}]
            )
            assert mine["legal_actions"] == []  # now it is e+1's turn
            assert public["hand"] is None

        await asyncio.sleep(0.1)
        assert (await http.get(f"/api/rooms/{room['id']}")).json()["spectators"] == 0


async def test_socket_to_an_unknown_room_is_refused(live_server: str) -> None:
    with pytest.raises(websockets.exceptions.InvalidStatus):
        async with websockets.connect(
            live_server.replace("http://", "ws://") + "/api/rooms/999/ws"
        ):
            pass


async def test_another_sites_page_gets_a_spectators_view(
    live_server: str, fixed_first_deal: list[str]
) -> None:
    ws_base = live_server.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=live_server) as http:
        token = (await http.post("/api/session", json={"nickname": "Anna"})).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        room = (await http.post("/api/rooms", json={"game": "bolot"}, headers=auth)).json()
        await http.put(f"/api/rooms/{room['id']}/seats/0", json={}, headers=auth)
        for seat in (1, 2, 3):
            await http.put(
                f"/api/rooms/{room['id']}/seats/{seat}", json={"bot": "random"}, headers=auth
            )
        await http.post(f"/api/rooms/{room['id']}/start", headers=auth)
    url = f"{ws_base}/api/rooms/{room['id']}/ws"
    cookie = {"Cookie": f"tapet_session={token}"}
    async with websockets.connect(
        url, additional_headers=cookie, origin="http://evil.example"
    ) as ws:
        assert (await _next_view(ws))["hand"] is None
    host = live_server.removeprefix("http://")
    async with websockets.connect(url, additional_headers=cookie, origin=f"http://{host}") as ws:
        assert (await _next_view(ws))["my_seat"] == 0


async def test_a_socket_that_finds_no_free_database_connection_is_told_to_try_again(
    live_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pool's timeout while a socket is admitted: the handshake is answered 503 with
    Retry-After (uvicorn's 500 before), and nothing is kept of the socket."""
    from sqlalchemy.exc import TimeoutError as PoolTimeout

    from app.rooms import sockets

    async def starved(*_args: object) -> tuple[bool, None]:
        raise PoolTimeout("QueuePool limit of size 20 overflow 10 reached")

    monkeypatch.setattr(sockets, "_admit", starved)
    with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
        async with websockets.connect(live_server.replace("http://", "ws://") + "/api/rooms/1/ws"):
            pass
    assert refused.value.response.status_code == 503
    assert refused.value.response.headers["Retry-After"] == "1"
    assert b"the server is busy; try again" in refused.value.response.body
