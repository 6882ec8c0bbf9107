"""Spectators who see the hands one deal late (room option ``spectators_see_hands``,
docs/server.md "Spectators"): during deal N + 1 a spectator sees deal N's hands, never a
hand of the deal in play; a seated player who opens the table as a spectator (no cookie,
or a second guest account) sees no more than from the seat."""

from __future__ import annotations

import asyncio
import html
import re
import time
from typing import Any

import httpx

from app import rules
from app.table import presenter
from tests.conftest import Guest
from tests.table.test_pages import _sign_in, _token

DECK = frozenset(rules.GAMES["bolot"].deck)


def _cards(data: Any) -> set[str]:
    """Every card code among the values of a JSON document."""
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and item in DECK:
            found.add(item)
    return found


async def _room(client: httpx.AsyncClient, host: dict[str, str], see_hands: bool | None) -> int:
    body: dict[str, Any] = {"game": "bolot", "options": {"target": 3000}}
    if see_hands is not None:
        body["spectators_see_hands"] = see_hands
    made = await client.post("/api/rooms", json=body, headers=host)
    assert made.status_code == 201, made.text
    assert made.json()["spectators_see_hands"] is bool(see_hands)
    room = made.json()["id"]
    assert (
        await client.put(f"/api/rooms/{room}/seats/0", json={}, headers=host)
    ).status_code == 200
    for seat in (1, 2, 3):
        await client.put(f"/api/rooms/{room}/seats/{seat}", json={"bot": "random"}, headers=host)
    assert (await client.post(f"/api/rooms/{room}/start", headers=host)).status_code == 200
    return room


async def _views(
    client: httpx.AsyncClient, room: int, seat: dict[str, str], others: list[dict[str, str]]
) -> tuple[dict, list[dict]]:
    """The seat's view and the others' at one and the same seq."""
    for _ in range(200):
        mine = (await client.get(f"/api/rooms/{room}/view", headers=seat)).json()
        theirs = [(await client.get(f"/api/rooms/{room}/view", headers=h)).json() for h in others]
        again = (await client.get(f"/api/rooms/{room}/view", headers=seat)).json()
        if all(v["seq"] == mine["seq"] == again["seq"] for v in theirs):
            return mine, theirs
    raise AssertionError("the table never stood still")


async def _watch_two_deals(
    client: httpx.AsyncClient, guest: Guest, see_hands: bool | None
) -> list[dict]:
    """Play seat 0 (the first of its legal actions) into deal 3; check at every step
    that the spectator and the player's second account see no more than the seat.
    Returns the spectators' views."""
    pepa = await guest("Pepa")
    sock_puppet = await guest("Pepa2")
    room = await _room(client, pepa, see_hands)
    watched: list[dict] = []
    deadline = time.monotonic() + 90
    while True:
        assert time.monotonic() < deadline, "the match did not reach deal 3"
        mine, theirs = await _views(client, room, pepa, [{}, sock_puppet])
        for view in theirs:
            assert view["my_seat"] is None and view["hand"] is None and view["legal_actions"] == []
            # nothing a spectator gets is a card the seat does not see itself
            assert _cards(view) <= _cards(mine), _cards(view) - _cards(mine)
            if view["phase"] in ("auction", "play"):
                current = view["commitment"]["deal_no"]
                if view["open_hands"] is not None:
                    assert view["open_hands"]["deal"] == current - 1  # one whole deal late
            watched.append(view)
        if mine["commitment"] and mine["commitment"]["deal_no"] >= 3:
            return watched
        if mine["to_act"] == 0 and mine["legal_actions"]:
            await client.post(
                f"/api/rooms/{room}/moves",
                json={"seq": mine["seq"], "action": mine["legal_actions"][0]},
                headers=pepa,
            )
        else:
            await asyncio.sleep(0.01)


async def test_spectators_see_the_hands_one_deal_late_and_never_the_current_ones(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    watched = await _watch_two_deals(client, guest, True)
    during_first = [
        v for v in watched if v["phase"] in ("auction", "play") and v["commitment"]["deal_no"] == 1
    ]
    during_second = [
        v for v in watched if v["phase"] in ("auction", "play") and v["commitment"]["deal_no"] == 2
    ]
    assert during_first and during_second
    assert all(v["open_hands"] is None for v in during_first)  # no finished deal yet
    for view in during_second:
        opened = view["open_hands"]
        assert opened is not None and opened["deal"] == 1
        # deal 1's hands as dealt: every card of the deck once, 8 per seat (rules/bolot.md §3)
        assert sorted(c for h in opened["hands"] for c in h) == sorted(DECK)
        assert [len(h) for h in opened["hands"]] == [8, 8, 8, 8]
        assert opened["hands"] == view["last_deal"]["hands"]  # the finished deal's record
        # of deal 2 a spectator knows only what lay face up: turned, played, shown, said
        face_up = set().union(
            *(
                _cards(view.get(k))
                for k in (
                    "turned",
                    "contract",
                    "trick",
                    "played",
                    "last_trick",
                    "declarations",
                    "belote",
                )
            )
        )
        assert (
            _cards({k: v for k, v in view.items() if k not in ("open_hands", "last_deal", "sheet")})
            <= face_up
        )


async def test_the_option_is_off_by_default(client: httpx.AsyncClient, guest: Guest) -> None:
    watched = await _watch_two_deals(client, guest, None)
    assert watched and all(v["open_hands"] is None for v in watched)


async def test_the_option_must_be_true_or_false(client: httpx.AsyncClient, guest: Guest) -> None:
    host = await guest("Host")
    for bad in ("yes", 1, "true"):
        response = await client.post(
            "/api/rooms", json={"game": "bolot", "spectators_see_hands": bad}, headers=host
        )
        assert response.status_code == 422, (bad, response.text)
    inside = await client.post(
        "/api/rooms",
        json={"game": "bolot", "options": {"spectators_see_hands": True}},
        headers=host,
    )
    assert inside.status_code == 201 and inside.json()["spectators_see_hands"] is True
    assert (
        "spectators_see_hands" not in inside.json()["options"]
    )  # a room option, not a rule of the game
    bad_inside = await client.post(
        "/api/rooms",
        json={"game": "bolot", "options": {"spectators_see_hands": "on"}},
        headers=host,
    )
    assert bad_inside.status_code == 422


async def test_the_lobby_form_offers_the_option_off_by_default(client: httpx.AsyncClient) -> None:
    await _sign_in(client)
    lobby = (await client.get("/")).text
    box = re.search(r'<input type="checkbox" name="spectators_see_hands"[^>]*>', lobby)
    assert box and "checked" not in box.group(0)
    note = "Watchers see every player's cards of the previous deal, never of the deal in play."
    assert note in html.unescape(lobby)
    token = await _token(client)
    made = {}
    for ticked in (True, False):
        data = {"game": "bolot", "csrf": token} | (
            {"spectators_see_hands": "true"} if ticked else {}
        )
        response = await client.post("/rooms", data=data)
        assert response.status_code == 303, response.text
        room = int(response.headers["location"].rsplit("/", 1)[1])
        made[ticked] = (await client.get(f"/api/rooms/{room}")).json()["spectators_see_hands"]
    assert made == {True: True, False: False}


def test_the_table_shows_a_spectator_the_open_hands_and_a_player_none() -> None:
    hands = [["1o", "3o"], ["7c", "8c"], ["9e", "10e"], ["11b", "12b"]]
    seats = [
        {"seat": s, "kind": "person", "name": n}
        for s, n in enumerate(("Ana", "Berto", "Carme", "Dani"))
    ]
    view = {
        "game": "bolot",
        "players": 4,
        "seats": seats,
        "my_seat": None,
        "phase": "play",
        "open_hands": {"deal": 4, "hands": hands},
    }
    shown = presenter.open_hands(view, presenter.seat_names(view))
    assert shown is not None and shown["deal"] == 4
    assert [(s["name"], [c["card"] for c in s["cards"]]) for s in shown["seats"]] == [
        ("Ana", ["1o", "3o"]),
        ("Berto", ["7c", "8c"]),
        ("Carme", ["9e", "10e"]),
        ("Dani", ["11b", "12b"]),
    ]
    seated = dict(
        view, my_seat=0
    )  # the server sends a seat no open_hands; none is drawn even if it did
    assert presenter.open_hands(seated, presenter.seat_names(seated)) is None
    assert presenter.open_hands(dict(view, open_hands=None), presenter.seat_names(view)) is None
