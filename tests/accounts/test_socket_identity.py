"""Who a socket is: every socket kind with every cookie, token and ``Origin``.

Both sockets (the API socket ``/api/rooms/{id}/ws`` and the page socket
``/rooms/{id}/ws``) decide who is watching with one function
(``app.accounts.service.socket_user``). The rules tried here, exhaustively:

* a token the client sent itself (``?token=`` or ``Authorization: Bearer``) is the
  identity, whatever else comes with it: a valid one is its user's view, a junk or
  empty one is a spectator's (never the cookie's: that was issue 20's bypass);
* the session cookie counts only when ``Origin`` is absent or this host (``null`` and
  other sites get a spectator's view: a page on another site must not read a hand);
* the page socket refuses any other origin outright.
"""

from __future__ import annotations

import asyncio
import itertools
import json

import httpx
import pytest
import websockets

from tests.tables import DECK, live_table

#: The known first-deal hands (tests/tables.py) of the eldest hand and the next seat.
HANDS = {0: set(DECK[0:3] + DECK[12:14]), 1: set(DECK[3:6] + DECK[14:16])}
TOKENS = ("valid", "junk", "empty", "other", "none")
COOKIES = ("cookie", "no-cookie")
ORIGINS = ("same", "foreign", "null", "none")


async def _first_message(url: str, headers: dict[str, str], origin: str | None) -> str | None:
    """The first message of a socket, or None when it is refused or closed."""
    try:
        async with asyncio.timeout(10):
            async with websockets.connect(
                url,
                additional_headers=headers,
                origin=origin,  # type: ignore[arg-type]
                max_size=None,
            ) as ws:
                return str(await ws.recv())
    except (websockets.ConnectionClosed, websockets.InvalidStatus):
        return None


def _seen_hand(kind: str, message: str) -> int | None:
    """Which of the two known hands (0: eldest, 1: next seat) a message shows, or None."""
    if kind == "api":
        hand = set(json.loads(message).get("hand") or ())
        cards = hand
    else:
        cards = {c for c in DECK if f'data-card="{c}"' in message}
    found = [who for who, held in HANDS.items() if held & cards]
    assert len(found) <= 1, f"two hands in one view: {found}"
    if kind == "api" and found:
        assert hand == HANDS[found[0]]
    return found[0] if found else None


def _expected(kind: str, token: str, cookie: str, origin: str) -> int | None | str:
    """The hand a socket should show (0, 1 or None for a spectator), or "refused"."""
    if kind == "page" and origin in ("foreign", "null"):
        return "refused"
    if token != "none":  # the token sent is the identity, valid or not
        return {"valid": 0, "other": 1}.get(token)
    if cookie == "cookie" and origin in ("same", "none"):
        return 0
    return None


@pytest.mark.parametrize("kind", ["api", "page"])
async def test_every_socket_with_every_identity_and_origin(
    live_server: str, fixed_first_deal: list[str], kind: str
) -> None:
    ws_base = live_server.replace("http://", "ws://")
    host = live_server.removeprefix("http://")
    async with httpx.AsyncClient(base_url=live_server) as http:
        room_id, tokens, dealer = await live_table(http)
        room = {"id": room_id}
    eldest, nxt = (dealer + 1) % 4, (dealer + 2) % 4
    mine, other = tokens[eldest], tokens[nxt]

    path = f"/api/rooms/{room['id']}/ws" if kind == "api" else f"/rooms/{room['id']}/ws"
    origins = {
        "same": f"http://{host}",
        "foreign": "https://evil.example",
        "null": "null",
        "none": None,
    }
    token_query = {"valid": mine, "junk": "junk", "empty": "", "other": other}
    wrong = []
    for token, cookie, origin in itertools.product(TOKENS, COOKIES, ORIGINS):
        url = ws_base + path
        if token != "none":
            url += f"?token={token_query[token]}"
        headers = {"Cookie": f"tapet_session={mine}"} if cookie == "cookie" else {}
        message = await _first_message(url, headers, origins[origin])
        got = "refused" if message is None else _seen_hand(kind, message)
        want = _expected(kind, token, cookie, origin)
        if got != want:
            wrong.append(f"token={token} {cookie} origin={origin}: saw {got}, expected {want}")
    assert not wrong, "\n".join(wrong)


async def test_a_bearer_header_is_an_explicit_token_too(
    live_server: str, fixed_first_deal: list[str]
) -> None:
    """``Authorization: Bearer junk`` with the seat's cookie from another site: a spectator."""
    ws_base = live_server.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=live_server) as http:
        room_id, tokens, _dealer = await live_table(http)
        room = {"id": room_id}
    headers = {"Cookie": f"tapet_session={tokens[0]}", "Authorization": "Bearer junk"}
    message = await _first_message(
        f"{ws_base}/api/rooms/{room['id']}/ws", headers, "https://evil.example"
    )
    assert message is not None
    view = json.loads(message)
    assert view["my_seat"] is None and view["hand"] is None and view["legal_actions"] == []
