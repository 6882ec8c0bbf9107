"""A table of four guests with a known first deal (rules/bolot.md §3 deals it).

``DECK`` is dealt with the dealer ``d`` and the eldest hand ``e = d + 1``, whoever
the server draws as dealer, so every hand below is known:

* e:     1c 3c 12c + 11c 10c        (copes 3-10-11-12-1: a run of 5, "cent")
* e + 1: 7c 8e 9e + 10e 11e         (one copa: must follow copes with the 7c)
* e + 2: 1e 3e 12e + 7e 1b
* d:     3b 12b 11b + 10b 9b
* turned card (index 20): 7o
* stock 21-31: 8o 9o | 1o 3o 12o | 11o 10o 8c | 9c 8b 7b — after e takes de
  primeres, e gets 7o 8o 9o (2 stock cards as taker), e+1 1o 3o 12o, e+2 11o 10o 8c
  and d 9c 8b 7b (d then holds bastos 7-8-9-3-10-11-12: a run of 7).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from app import rules
from app.rooms import play
from tests.conftest import Guest

DECK = (
    "1c 3c 12c  7c 8e 9e  1e 3e 12e  3b 12b 11b  11c 10c  10e 11e  7e 1b  10b 9b  7o "
    "8o 9o 1o 3o 12o 11o 10o 8c 9c 8b 7b"
).split()


@dataclass
class Table:
    """A started room of four guests: ``headers[seat]`` acts for that seat."""

    room_id: int
    headers: list[dict[str, str]]
    dealer: int

    @property
    def eldest(self) -> int:
        return (self.dealer + 1) % 4

    def seat(self, offset: int) -> int:
        """The seat ``offset`` places after the eldest hand."""
        return (self.eldest + offset) % 4


@pytest.fixture
def fixed_first_deal(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The server deals ``DECK`` first, then shuffles as usual."""
    assert sorted(DECK) == sorted(rules.GAMES["bolot"].deck)
    decks: list[list[str]] = [list(DECK)]

    def shuffle(game_id: str, options: dict | None = None) -> list[str]:
        return decks.pop(0) if decks else rules.new_deck(game_id, options=options)

    monkeypatch.setattr(play, "shuffle", shuffle)
    return list(DECK)


@pytest.fixture
async def table(client: httpx.AsyncClient, guest: Guest, fixed_first_deal: list[str]) -> Table:
    """Four guests in seats 0-3 of a Bolot room, started, the first deal being ``DECK``."""
    headers = [await guest(name) for name in ("Anna", "Berto", "Carme", "Dani")]
    room = (await client.post("/api/rooms", json={"game": "bolot"}, headers=headers[0])).json()
    for seat, h in enumerate(headers):
        assert (
            await client.put(f"/api/rooms/{room['id']}/seats/{seat}", json={}, headers=h)
        ).status_code == 200
    assert (
        await client.post(f"/api/rooms/{room['id']}/start", headers=headers[0])
    ).status_code == 200
    view = (await client.get(f"/api/rooms/{room['id']}/view")).json()
    return Table(room["id"], headers, view["dealer"])


Post = Callable[..., object]


async def view_of(client: httpx.AsyncClient, table: Table, seat: int | None) -> dict:
    """The view of ``seat`` (None: a spectator without a session)."""
    headers = table.headers[seat] if seat is not None else {}
    response = await client.get(f"/api/rooms/{table.room_id}/view", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


async def move(
    client: httpx.AsyncClient, table: Table, seat: int, action: dict, seq: int | None = None
) -> httpx.Response:
    """Post ``action`` for ``seat`` at ``seq`` (the table's current seq by default)."""
    if seq is None:
        seq = (await view_of(client, table, None))["seq"]
    return await client.post(
        f"/api/rooms/{table.room_id}/moves",
        json={"seq": seq, "action": action},
        headers=table.headers[seat],
    )


async def live_table(http: httpx.AsyncClient, game: str = "bolot") -> tuple[int, list[str], int]:
    """Four guests (Anna, Berto, Carme, Dani) seated in that order at a new room of a live
    server (``http`` is a client on it), the game started: ``(room_id, tokens by seat,
    dealer)``. With ``fixed_first_deal`` the hands are those of the module docstring."""
    tokens = []
    for name in ("Anna", "Berto", "Carme", "Dani"):
        tokens.append((await http.post("/api/session", json={"nickname": name})).json()["token"])
        http.cookies.clear()
    auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
    room = (await http.post("/api/rooms", json={"game": game}, headers=auth[0])).json()
    for seat in range(4):
        await http.put(f"/api/rooms/{room['id']}/seats/{seat}", json={}, headers=auth[seat])
    assert (await http.post(f"/api/rooms/{room['id']}/start", headers=auth[0])).is_success
    dealer = (await http.get(f"/api/rooms/{room['id']}/view", headers=auth[0])).json()["dealer"]
    return room["id"], tokens, dealer


async def asgi_post(
    app: Any, path: str, headers: list[tuple[bytes, bytes]], parts: list[Any]
) -> list[Any]:
    """Call the ASGI ``app`` with a POST to ``path`` whose body arrives as ``parts``
    (``http.request`` and ``http.disconnect`` messages; a disconnect after them), as a
    client that leaves mid-request does; returns the messages the app sent."""
    sent: list[Any] = []
    queue = list(parts)

    async def receive() -> Any:
        return queue.pop(0) if queue else {"type": "http.disconnect"}

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"host", b"test"), *headers],
        "client": ("127.0.0.1", 5000),
        "server": ("test", 80),
    }
    await app(scope, receive, send)
    return sent
