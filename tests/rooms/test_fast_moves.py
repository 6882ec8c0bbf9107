"""The move's fast route (app/rooms/fast_moves.py): a well-formed move is served by it,
anything unusual gets the FastAPI route's own answer, and both answer the same."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.rooms import fast_moves
from tests.tables import Table, move, view_of


@pytest.fixture
def handed_on(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The bodies the fast route handed to the FastAPI route."""
    bodies: list[bytes] = []
    replay = fast_moves._replay

    def spy(body: bytes, receive: Any) -> Any:
        bodies.append(body)
        return replay(body, receive)

    monkeypatch.setattr(fast_moves, "_replay", spy)
    return bodies


async def test_a_move_is_served_by_the_fast_route_with_the_movers_view(
    client: httpx.AsyncClient, table: Table, handed_on: list[bytes]
) -> None:
    answer = await move(client, table, table.eldest, {"type": "pass"}, seq=1)
    assert answer.status_code == 200 and handed_on == []
    mine = answer.json()
    assert mine["seq"] == 2 and mine["my_seat"] == table.eldest
    assert mine == await view_of(client, table, table.eldest)  # the same view as a GET
    assert answer.headers["content-type"] == "application/json"
    assert answer.headers["x-content-type-options"] == "nosniff"  # the middlewares ran


async def test_refusals_through_the_fast_route_are_the_apps_errors(
    client: httpx.AsyncClient, table: Table, handed_on: list[bytes]
) -> None:
    stale = await move(client, table, table.eldest, {"type": "pass"}, seq=0)
    assert stale.status_code == 409 and "stale move" in stale.json()["detail"]
    turn = await move(client, table, table.seat(1), {"type": "pass"}, seq=1)
    assert turn.status_code == 403 and turn.json()["detail"] == "it is not your turn"
    assert handed_on == []


@pytest.mark.parametrize(
    ("body", "kind", "detail"),
    [
        (
            b'{"seq": "1", "action": {"type": "pass"}}',
            "application/json",
            "seq: input should be a valid integer",
        ),
        (
            b'{"seq": 1, "action": {"type": "pass"}, "x": 1}',
            "application/json",
            "unknown field 'x'",
        ),
        (b'{"seq": 1, "action"', "application/json", "the body is not valid JSON"),
        (
            b'{"seq": 1, "action": {"type": "pass"}}',
            "text/plain",  # FastAPI reads only a JSON type as JSON
            "input should be a valid dictionary or object to extract fields from",
        ),
    ],
)
async def test_an_unusual_body_gets_the_fastapi_routes_422(
    client: httpx.AsyncClient,
    table: Table,
    handed_on: list[bytes],
    body: bytes,
    kind: str,
    detail: str,
) -> None:
    answer = await client.post(
        f"/api/rooms/{table.room_id}/moves",
        content=body,
        headers={**table.headers[table.eldest], "Content-Type": kind},
    )
    assert answer.status_code == 422 and answer.json()["detail"] == detail
    assert handed_on == [body]
    assert (await view_of(client, table, None))["seq"] == 1  # nothing played


async def test_nobody_signed_in_and_a_huge_room_id_get_the_sites_answers(
    client: httpx.AsyncClient, table: Table, handed_on: list[bytes]
) -> None:
    body = {"seq": 1, "action": {"type": "pass"}}
    nobody = await client.post(f"/api/rooms/{table.room_id}/moves", json=body)
    assert nobody.status_code == 401
    huge = await client.post("/api/rooms/99999999999/moves", json=body, headers=table.headers[0])
    assert huge.status_code == 404  # refused before any route (app/accounts/guard.py)
    assert len(handed_on) == 1  # the signed-out move
    listed = await client.get(f"/api/rooms/{table.room_id}/moves")  # GET: not this route
    assert listed.status_code == 200 and listed.json()[0]["seq"] == 0
