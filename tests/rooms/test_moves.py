"""Moves through the API: who may act, stale seqs, illegal actions (DESIGN.md contract)."""

from __future__ import annotations

import asyncio

import httpx

from tests.conftest import Guest
from tests.tables import Table, move, view_of


async def test_first_deal_is_dealt_as_the_rules_say(
    client: httpx.AsyncClient, table: Table
) -> None:
    public = await view_of(client, table, None)
    assert public["status"] == "playing" and public["phase"] == "auction"
    assert public["seq"] == 1  # the deal is move 0
    assert public["to_act"] == table.eldest
    assert public["turned"] == "7o"
    assert public["hand"] is None and public["legal_actions"] == []
    assert public["hand_counts"] == [5, 5, 5, 5]
    assert len(public["commitment"]["sha256"]) == 64
    eldest = await view_of(client, table, table.eldest)
    assert sorted(eldest["hand"]) == sorted(["1c", "3c", "12c", "11c", "10c"])
    assert eldest["my_seat"] == table.eldest
    assert {"type": "take"} in eldest["legal_actions"] and {"type": "pass"} in eldest[
        "legal_actions"
    ]
    second = await view_of(client, table, table.seat(1))
    assert sorted(second["hand"]) == sorted(["7c", "8e", "9e", "10e", "11e"])
    assert second["legal_actions"] == []


async def test_move_out_of_turn_is_forbidden(client: httpx.AsyncClient, table: Table) -> None:
    response = await move(client, table, table.seat(1), {"type": "pass"}, seq=1)
    assert response.status_code == 403
    assert (await view_of(client, table, None))["seq"] == 1


async def test_move_without_a_seat_is_forbidden(
    client: httpx.AsyncClient, table: Table, guest: Guest
) -> None:
    stranger = await guest("Mallory")
    response = await client.post(
        f"/api/rooms/{table.room_id}/moves",
        json={"seq": 1, "action": {"type": "pass"}},
        headers=stranger,
    )
    assert response.status_code == 403


async def test_move_without_a_session_is_unauthorized(
    client: httpx.AsyncClient, table: Table
) -> None:
    response = await client.post(
        f"/api/rooms/{table.room_id}/moves", json={"seq": 1, "action": {"type": "pass"}}
    )
    assert response.status_code == 401


async def test_stale_seq_is_conflict_and_changes_nothing(
    client: httpx.AsyncClient, table: Table
) -> None:
    before = await view_of(client, table, None)
    response = await move(client, table, table.eldest, {"type": "take"}, seq=0)
    assert response.status_code == 409
    after = await view_of(client, table, None)
    assert after["seq"] == before["seq"] == 1
    assert after["auction"] == [] and after["contract"] is None
    assert len((await client.get(f"/api/rooms/{table.room_id}/moves")).json()) == 1


async def test_illegal_action_is_unprocessable_with_the_reason(
    client: httpx.AsyncClient, table: Table
) -> None:
    response = await move(client, table, table.eldest, {"type": "play", "card": "1c"}, seq=1)
    assert response.status_code == 422
    assert isinstance(response.json()["detail"], str) and response.json()["detail"]
    assert (await view_of(client, table, None))["seq"] == 1


async def test_must_follow_suit_is_refused_with_the_reason(
    client: httpx.AsyncClient, table: Table
) -> None:
    # rules/bolot.md §6: copes led, the player holds a copa (7c), so he must follow.
    assert (await move(client, table, table.eldest, {"type": "take"})).status_code == 200
    eldest = await view_of(client, table, table.eldest)
    assert sorted(eldest["hand"]) == sorted(["1c", "3c", "12c", "11c", "10c", "7o", "8o", "9o"])
    # owing the declaration: declare, or play a card (= no declarations, and that card)
    assert {a["type"] for a in eldest["legal_actions"]} == {"declare", "play"}
    assert (
        await move(client, table, table.eldest, {"type": "declare", "combinations": []})
    ).status_code == 200
    assert (
        await move(client, table, table.eldest, {"type": "play", "card": "1c"})
    ).status_code == 200
    # e+1 holds no combination: like anyone, he may declare nothing or play his card at once.
    second = await view_of(client, table, table.seat(1))
    assert second["to_act"] == table.seat(1)
    assert [a["card"] for a in second["legal_actions"] if a["type"] == "play"] == ["7c"]
    response = await move(client, table, table.seat(1), {"type": "play", "card": "8e"})
    assert response.status_code == 422
    assert response.json()["detail"]
    assert (
        await move(client, table, table.seat(1), {"type": "play", "card": "7c"})
    ).status_code == 200


async def test_server_never_declares_for_a_player_without_combinations(
    client: httpx.AsyncClient, table: Table
) -> None:
    # docs/server.md "Declarations": a seat's declaration is its own move, never the server's.
    await move(client, table, table.eldest, {"type": "take"})
    await move(client, table, table.eldest, {"type": "declare", "combinations": []})
    await move(client, table, table.eldest, {"type": "play", "card": "1c"})
    log = (await client.get(f"/api/rooms/{table.room_id}/moves")).json()
    assert log[-1]["actor"] == table.eldest and log[-1]["action"]["type"] == "play"
    assert [m for m in log if m["actor"] == "server"] == [
        m for m in log if m["action"]["type"] == "deal"
    ]


async def test_two_moves_at_the_same_seq_only_one_lands(
    client: httpx.AsyncClient, table: Table
) -> None:
    take, pass_ = await asyncio.gather(
        move(client, table, table.eldest, {"type": "take"}, seq=1),
        move(client, table, table.eldest, {"type": "pass"}, seq=1),
    )
    assert sorted([take.status_code, pass_.status_code]) == [200, 409]
    log = (await client.get(f"/api/rooms/{table.room_id}/moves")).json()
    assert [m["seq"] for m in log[:2]] == [0, 1]
    assert sum(1 for m in log if m["seq"] == 1) == 1


async def test_a_stand_in_bot_plays_for_a_player_who_leaves(
    client: httpx.AsyncClient, table: Table
) -> None:
    response = await client.delete(
        f"/api/rooms/{table.room_id}/seats/{table.eldest}", headers=table.headers[table.eldest]
    )
    assert response.status_code == 200
    seat = response.json()["seats"][table.eldest]
    assert seat["kind"] == "bot" and seat["bot"] == "heuristic" and seat["stand_in"] is True
    for _ in range(200):  # the runner answers for the eldest hand
        if (await view_of(client, table, None))["seq"] > 1:
            break
        await asyncio.sleep(0.02)
    assert (await view_of(client, table, None))["seq"] > 1
    back = await client.put(
        f"/api/rooms/{table.room_id}/seats/{table.eldest}",
        json={},
        headers=table.headers[table.eldest],
    )
    assert back.status_code == 200
    assert back.json()["seats"][table.eldest]["kind"] == "person"
