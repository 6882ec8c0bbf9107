"""Declarations leak nothing: a seat holding a combination that declares nothing looks,
to everyone else, exactly like a seat holding none (docs/server.md "Declarations").

The deal is chosen from the rules, not from the server's output: a seeded search for a
Bolot deck in which the eldest hand, after taking in round 1, may declare a combination
and the next seat holds none (rules/bolot.md §5).
"""

from __future__ import annotations

import asyncio
import random
import time

import httpx
import pytest

from app import rules
from app.rooms import play
from tests.conftest import Guest
from tests.tables import Table, move, view_of


def _deck_with_one_hidden_combination() -> list[str]:
    """A deck where e (after taking in round 1) may declare something and e+1 may not."""
    for seed in range(10_000):
        deck = rules.new_deck("bolot", random.Random(seed))
        state = rules.apply(rules.new_game("bolot", {}, 3), {"type": "deal", "deck": deck})
        state = rules.apply(state, {"type": "take"})
        choices = rules.legal_actions(state)
        if not any(a.get("combinations") for a in choices):
            continue
        state = rules.apply(state, {"type": "declare", "combinations": []})
        state = rules.apply(
            state, next(a for a in rules.legal_actions(state) if a["type"] == "play")
        )
        if rules.legal_actions(state) == [{"type": "declare", "combinations": []}]:
            return deck
    raise AssertionError("no such deck")


DECK = _deck_with_one_hidden_combination()


@pytest.fixture
def hidden_combination_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    decks = [list(DECK)]
    monkeypatch.setattr(
        play,
        "shuffle",
        lambda game_id, options=None: (
            decks.pop(0) if decks else rules.new_deck(game_id, None, options)
        ),
    )


async def _table(client: httpx.AsyncClient, guest: Guest, **room: object) -> Table:
    headers = [await guest(name) for name in ("Anna", "Berto", "Carme", "Dani")]
    made = (
        await client.post("/api/rooms", json={"game": "bolot", **room}, headers=headers[0])
    ).json()
    for seat, h in enumerate(headers):
        assert (
            await client.put(f"/api/rooms/{made['id']}/seats/{seat}", json={}, headers=h)
        ).status_code == 200
    assert (
        await client.post(f"/api/rooms/{made['id']}/start", headers=headers[0])
    ).status_code == 200
    view = (await client.get(f"/api/rooms/{made['id']}/view")).json()
    return Table(made["id"], headers, view["dealer"])


def _first_card(view: dict) -> dict:
    return next(a for a in view["legal_actions"] if a["type"] == "play")


def _shape(entry: dict) -> dict:
    """A log entry without what differs by nature (seq, seat, time, the card)."""
    return {k: v for k, v in entry.items() if k not in ("seq", "actor", "at")}


async def test_a_hidden_tercera_and_nothing_look_the_same_to_the_others(
    client: httpx.AsyncClient, guest: Guest, hidden_combination_deal: None
) -> None:
    table = await _table(client, guest)
    e, e1 = table.eldest, table.seat(1)
    assert (await move(client, table, e, {"type": "take"})).status_code == 200
    holder = await view_of(client, table, e)
    assert any(a.get("combinations") for a in holder["legal_actions"] if a["type"] == "declare")
    watcher_at_e = await view_of(client, table, None)
    # the holder of a tercera declares nothing by playing his first card at once
    assert (await move(client, table, e, _first_card(holder))).status_code == 200
    await asyncio.sleep(0.3)  # give the server every chance to act for e+1 (it must not)
    watcher_at_e1 = await view_of(client, table, None)
    assert watcher_at_e1["to_act"] == e1 and watcher_at_e1["seq"] == watcher_at_e["seq"] + 2
    nothing = await view_of(client, table, e1)
    assert [a for a in nothing["legal_actions"] if a["type"] == "declare"] == [
        {"type": "declare", "combinations": []}
    ]
    assert any(a["type"] == "play" for a in nothing["legal_actions"])
    # the seat holding nothing is asked like anyone: nobody declared for it
    assert not any(d["seat"] == e1 for d in watcher_at_e1["declarations"])
    assert not any(d["seat"] == e for d in watcher_at_e["declarations"])
    assert (await move(client, table, e1, _first_card(nothing))).status_code == 200

    log = (await client.get(f"/api/rooms/{table.room_id}/moves")).json()
    assert all(m["actor"] != "server" for m in log if m["action"]["type"] != "deal")
    declares = {m["actor"]: m for m in log if m["action"]["type"] == "declare"}
    plays = {m["actor"]: m for m in log if m["action"]["type"] == "play"}
    assert set(declares) == {e, e1}
    assert (
        _shape(declares[e])
        == _shape(declares[e1])
        == {"action": {"type": "declare", "combinations": []}}
    )
    for seat in (e, e1):  # stored with the card, at the card's time: no pause tells them apart
        assert declares[seat]["at"] == plays[seat]["at"]
        assert declares[seat]["seq"] + 1 == plays[seat]["seq"]
    after = await view_of(client, table, None)
    public = {d["seat"]: d for d in after["declarations"]}
    assert {k: v for k, v in public[e].items() if k != "seat"} == {
        k: v for k, v in public[e1].items() if k != "seat"
    }
    # and the players' own views of each other say the same
    opponent = await view_of(client, table, table.seat(3))
    assert {d["seat"]: d for d in opponent["declarations"] if d["seat"] in (e, e1)} == {
        e: public[e],
        e1: public[e1],
    }


async def test_a_declaration_owed_takes_a_declare_or_a_card_and_nothing_else(
    client: httpx.AsyncClient, guest: Guest, hidden_combination_deal: None
) -> None:
    table = await _table(client, guest)
    e = table.eldest
    await move(client, table, e, {"type": "take"})
    holder = await view_of(client, table, e)
    # the plays offered are exactly the engine's after "no declarations"
    state = rules.apply(
        rules.apply(rules.new_game("bolot", {}, table.dealer), {"type": "deal", "deck": DECK}),
        {"type": "take"},
    )
    engine_plays = rules.legal_actions(rules.apply(state, {"type": "declare", "combinations": []}))
    assert [a for a in holder["legal_actions"] if a["type"] == "play"] == engine_plays
    assert [a for a in holder["legal_actions"] if a["type"] == "declare"] == rules.legal_actions(
        state
    )
    bad = await move(client, table, e, {"type": "pass"})
    assert bad.status_code == 422 and bad.json()["detail"]
    not_mine = await move(
        client, table, e, {"type": "play", "card": next(c for c in DECK if c not in holder["hand"])}
    )
    assert not_mine.status_code == 422
    assert (await view_of(client, table, None))["seq"] == holder["seq"]  # nothing stored
    # a declared combination stays a move of its own, public as it always was
    tercera = next(
        a for a in holder["legal_actions"] if a["type"] == "declare" and a["combinations"]
    )
    assert (await move(client, table, e, tercera)).status_code == 200
    log = (await client.get(f"/api/rooms/{table.room_id}/moves")).json()
    assert log[-1]["actor"] == e and log[-1]["action"]["type"] == "declare"
    assert log[-1]["action"]["combinations"][0]["kind"] == "sequence"


async def test_bots_declare_for_themselves_and_the_server_only_deals(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    host = await guest("Host")
    room = (await client.post("/api/rooms", json={"game": "bolot"}, headers=host)).json()["id"]
    for seat in range(4):
        await client.put(f"/api/rooms/{room}/seats/{seat}", json={"bot": "random"}, headers=host)
    assert (await client.post(f"/api/rooms/{room}/start", headers=host)).status_code == 200
    deadline = time.monotonic() + 60
    while True:
        log = (await client.get(f"/api/rooms/{room}/moves")).json()
        if (
            sum(1 for m in log if m["action"]["type"] == "declare") >= 4
            or time.monotonic() > deadline
        ):
            break
        await asyncio.sleep(0.05)
    declared = [m for m in log if m["action"]["type"] == "declare"]
    assert len(declared) >= 4, "the bots never declared"
    assert all(m["actor"] in (0, 1, 2, 3) for m in declared)
    assert [m for m in log if m["actor"] == "server"] == [
        m for m in log if m["action"]["type"] == "deal"
    ]


async def test_a_clock_timeout_while_owing_the_declaration_is_one_timeout(
    client: httpx.AsyncClient, guest: Guest, hidden_combination_deal: None
) -> None:
    table = await _table(client, guest, clock_seconds=1, max_timeouts=5)
    e = table.eldest
    await move(client, table, e, {"type": "take"})
    deadline = time.monotonic() + 15
    while True:
        log = (await client.get(f"/api/rooms/{table.room_id}/moves")).json()
        if any(m["action"]["type"] == "play" for m in log) or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.1)
    declare = next(m for m in log if m["action"]["type"] == "declare")
    card = next(m for m in log if m["action"]["type"] == "play")
    assert declare["actor"] == card["actor"] == e and declare["at"] == card["at"]
    info = (await client.get(f"/api/rooms/{table.room_id}")).json()
    assert info["seats"][e]["timeouts"] == 1 and info["seats"][e]["stand_in"] is False
