"""Input strictness: ``seq`` is a JSON integer; Bolot/Belote's first-round take may name
the turned suit (rules/bolot.md §4: in round 1 the trump is the turned card's suit)."""

from __future__ import annotations

import httpx
import pytest

from tests.tables import DECK, Table, move, view_of

TURNED_SUIT = DECK[20][-1]  # the turned card of the fixed deal (7o): oros


@pytest.mark.parametrize("seq", ["1", True, 1.0, None, [1]])
async def test_seq_must_be_an_integer(client: httpx.AsyncClient, table: Table, seq: object) -> None:
    response = await client.post(
        f"/api/rooms/{table.room_id}/moves",
        json={"seq": seq, "action": {"type": "take"}},
        headers=table.headers[table.eldest],
    )
    assert response.status_code == 422
    assert response.json()["detail"].startswith("seq: ")
    assert "integer" in response.json()["detail"]
    assert (await view_of(client, table, None))["seq"] == 1  # nothing happened


async def test_a_first_round_take_naming_the_turned_suit_is_the_take(
    client: httpx.AsyncClient, table: Table
) -> None:
    response = await move(client, table, table.eldest, {"type": "take", "suit": TURNED_SUIT})
    assert response.status_code == 200, response.text
    view = response.json()
    assert view["contract"]["trump"] == TURNED_SUIT and view["contract"]["taker"] == table.eldest
    log = (await client.get(f"/api/rooms/{table.room_id}/moves")).json()
    assert log[-1]["action"] == {"type": "take"}  # stored as listed in legal_actions


async def test_a_first_round_take_naming_another_suit_says_why(
    client: httpx.AsyncClient, table: Table
) -> None:
    response = await move(client, table, table.eldest, {"type": "take", "suit": "c"})
    assert response.status_code == 422
    assert "first round" in response.json()["detail"] and "turned" in response.json()["detail"]


async def test_a_malformed_action_gets_a_readable_refusal(
    client: httpx.AsyncClient, table: Table
) -> None:
    for action in (
        {"type": "take", "suit": 7},
        {"type": "take", "suit": ["o"]},
        {"type": "dance"},
        {},
    ):
        response = await move(client, table, table.eldest, action)
        assert response.status_code == 422, (action, response.text)
        assert response.json()["detail"]
