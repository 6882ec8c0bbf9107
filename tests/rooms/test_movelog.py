"""The move log hides what the table hides (DESIGN.md: "cards still hidden are redacted").

Checked against the known first deal of tests/tables.py: while a deal is
played, its deck is not in the log and the declared cards of trick 1 are only
kinds; once the deal is over, deck and salt are revealed and match the SHA-256
published at the deal (DESIGN.md "The engine", last point).
"""

from __future__ import annotations

import asyncio
import hashlib
import json

import httpx

from app import rules
from tests.tables import DECK, Table, move, view_of

ALL_CARDS = set(rules.GAMES["bolot"].deck)


def cards_in(data: object) -> set[str]:
    """Every card code appearing anywhere in ``data`` (as a whole JSON string)."""
    found: set[str] = set()
    if isinstance(data, str):
        if data in ALL_CARDS:
            found.add(data)
    elif isinstance(data, dict):
        for value in data.values():
            found |= cards_in(value)
    elif isinstance(data, list):
        for value in data:
            found |= cards_in(value)
    return found


async def log_of(client: httpx.AsyncClient, table: Table, seat: int | None) -> list[dict]:
    headers = table.headers[seat] if seat is not None else {}
    response = await client.get(f"/api/rooms/{table.room_id}/moves", headers=headers)
    assert response.status_code == 200
    return response.json()


async def test_log_hides_the_deck_and_declared_cards_until_their_time(
    client: httpx.AsyncClient, table: Table
) -> None:
    e = table.eldest
    await move(client, table, e, {"type": "take"})
    eldest = await view_of(client, table, e)
    run = next(
        a
        for a in eldest["legal_actions"]
        if [(c["kind"], c["length"], c.get("suit")) for c in a["combinations"]]
        == [("sequence", 5, "c")]
    )
    assert (await move(client, table, e, run)).status_code == 200
    assert (await move(client, table, e, {"type": "play", "card": "1c"})).status_code == 200

    # Trick 1 is running: the deck is sealed, the run shows only its kind and length.
    spectator_log = await log_of(client, table, None)
    for seat in range(4):
        assert await log_of(client, table, seat) == spectator_log  # nobody learns more
    deal = spectator_log[0]["action"]
    assert deal["type"] == "deal" and "deck" not in deal and "salt" not in deal
    assert len(deal["sha256"]) == 64
    declared = next(
        m for m in spectator_log if m["action"]["type"] == "declare" and m["actor"] == e
    )
    assert declared["action"]["combinations"] == [{"kind": "sequence", "length": 5}]
    assert cards_in(spectator_log) <= {"7o", "1c"}  # the turned card and the card played
    # the declared run's cards (10c among them) appear nowhere but in the deal's hash, whose
    # hex digits may spell "10c" by chance (it failed once so)
    unhashed = [
        {**m, "action": {k: v for k, v in m["action"].items() if k != "sha256"}}
        for m in spectator_log
    ]
    assert "10c" not in json.dumps(unhashed)

    # Finish trick 1 (e+1 and e+2 must follow copes; the dealer declares nothing).
    await move(client, table, table.seat(1), {"type": "play", "card": "7c"})
    await move(client, table, table.seat(2), {"type": "play", "card": "8c"})
    await move(client, table, table.seat(3), {"type": "declare", "combinations": []})
    await move(client, table, table.seat(3), {"type": "play", "card": "9c"})
    shown = await log_of(client, table, None)
    declared = next(m for m in shown if m["action"]["type"] == "declare" and m["actor"] == e)
    assert declared["action"]["combinations"][0]["suit"] == "c"  # trick 1 complete: shown
    assert "deck" not in shown[0]["action"]


async def test_deck_and_salt_are_revealed_when_the_deal_ends(
    client: httpx.AsyncClient, table: Table
) -> None:
    # Play the first deal out: whoever is to act plays their first legal action.
    for _ in range(200):
        public = await view_of(client, table, None)
        if public["sheet"]:
            break
        seat = public["to_act"]
        if seat is None:  # the server is dealing
            await asyncio.sleep(0.01)
            continue
        mine = await view_of(client, table, seat)
        response = await move(client, table, seat, mine["legal_actions"][0], seq=mine["seq"])
        assert response.status_code in (200, 409), response.text
    for _ in range(200):  # the runner deals the second hand at once (TAPET_DEAL_PAUSE=0)
        public = await view_of(client, table, None)
        if public["phase"] == "auction":
            break
        await asyncio.sleep(0.01)
    assert public["phase"] == "auction" and len(public["sheet"]) == 1

    log = await log_of(client, table, None)
    deals = [m for m in log if m["action"]["type"] == "deal"]
    assert [d["action"]["deal_no"] for d in deals] == [1, 2]
    first, second = deals[0]["action"], deals[1]["action"]
    assert first["deck"] == DECK
    assert (
        hashlib.sha256((first["salt"] + ",".join(first["deck"])).encode()).hexdigest()
        == first["sha256"]
    )
    assert "deck" not in second and "salt" not in second
    assert public["commitment"] == {"deal_no": 2, "sha256": second["sha256"]}
    # Nothing of the second deal but its turned card is in its part of the log.
    assert cards_in(log[log.index(deals[1]) :]) <= {public["turned"]}
