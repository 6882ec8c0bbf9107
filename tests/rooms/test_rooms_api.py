"""The rooms' JSON contract (DESIGN.md "The API contract"): games, rooms, seats, start."""

from __future__ import annotations

import httpx

from tests.conftest import Guest


async def _room(client: httpx.AsyncClient, headers: dict[str, str], **options: object) -> dict:
    response = await client.post(
        "/api/rooms", json={"game": "bolot", "options": options}, headers=headers
    )
    assert response.status_code == 201, response.text
    return response.json()


async def test_games_list_bolot_with_its_options(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/games")
    assert response.status_code == 200
    games = {g["id"]: g for g in response.json()}
    bolot = games["bolot"]
    assert bolot["players"] == 4
    target = next(o for o in bolot["options_schema"] if o["name"] == "target")
    assert target["default"] == 1000  # rules/bolot.md §10


async def test_score_a_paper_deal(client: httpx.AsyncClient) -> None:
    # rules/bolot.md §11, example B1: pair 0 takes oros, 84 + últimes 10 = 94 against 68.
    summary = {
        "contract": {"trump": "o", "taker_team": 0, "round": 1, "eldest_team": 1},
        "card_points": [84, 68],
        "tricks": [5, 3],
        "last_trick_team": 0,
        "declarations": [[], []],
        "belote": [0, 0],
        "carried_in": 0,
        "revoke_team": None,
    }
    response = await client.post("/api/games/bolot/score", json={"options": {}, "summary": summary})
    assert response.status_code == 200, response.text
    assert response.json()["points"] == [94, 68]
    assert response.json()["outcome"] == "made"


async def test_impossible_summary_is_unprocessable_with_reason(client: httpx.AsyncClient) -> None:
    # §8: card points must add up to 152.
    summary = {
        "contract": {"trump": "o", "taker_team": 0, "round": 1, "eldest_team": 1},
        "card_points": [84, 60],
        "tricks": [5, 3],
        "last_trick_team": 0,
        "declarations": [[], []],
        "belote": [0, 0],
        "carried_in": 0,
        "revoke_team": None,
    }
    response = await client.post("/api/games/bolot/score", json={"summary": summary})
    assert response.status_code == 422
    assert isinstance(response.json()["detail"], str) and response.json()["detail"]


async def test_create_room_gives_four_empty_seats(client: httpx.AsyncClient, guest: Guest) -> None:
    room = await _room(client, await guest(), target=1500)
    assert room["status"] == "open"
    assert room["game"] == "bolot" and room["game_name"] == "Bolot"
    assert room["options"]["target"] == 1500
    assert room["options"]["tie_rule"] == "fail"  # defaults filled in
    assert [s["kind"] for s in room["seats"]] == ["empty"] * 4
    assert room["spectators"] == 0


async def test_unknown_game_is_unprocessable(client: httpx.AsyncClient, guest: Guest) -> None:
    response = await client.post("/api/rooms", json={"game": "poker"}, headers=await guest())
    assert response.status_code == 422
    assert "poker" in response.json()["detail"]


async def test_unknown_or_bad_option_is_unprocessable(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    headers = await guest()
    for options in ({"trumps": 3}, {"target": "many"}, {"target": 0}, {"tie_rule": "coin"}):
        response = await client.post(
            "/api/rooms", json={"game": "bolot", "options": options}, headers=headers
        )
        assert response.status_code == 422, options
        assert isinstance(response.json()["detail"], str)
    for preset in ([], {}):  # contrée's preset must be a name (a list gave a 500)
        response = await client.post(
            "/api/rooms", json={"game": "contree", "options": {"preset": preset}}, headers=headers
        )
        assert response.status_code == 422, preset
        assert "preset" in response.json()["detail"]


async def test_unknown_room_is_not_found(client: httpx.AsyncClient) -> None:
    for path in ("/api/rooms/999", "/api/rooms/999/view", "/api/rooms/999/moves"):
        response = await client.get(path)
        assert response.status_code == 404, path
        assert isinstance(response.json()["detail"], str)


async def test_lobby_lists_open_rooms(client: httpx.AsyncClient, guest: Guest) -> None:
    headers = await guest()
    first = await _room(client, headers)
    second = await _room(client, headers)
    lobby = (await client.get("/api/rooms")).json()
    assert [r["id"] for r in lobby] == [second["id"], first["id"]]


async def test_sit_down_shows_the_person(client: httpx.AsyncClient, guest: Guest) -> None:
    headers = await guest("Vicenta")
    room = await _room(client, headers)
    response = await client.put(f"/api/rooms/{room['id']}/seats/2", json={}, headers=headers)
    assert response.status_code == 200
    seat = response.json()["seats"][2]
    assert seat["kind"] == "person" and seat["name"] == "Vicenta"


async def test_seat_taken_is_conflict(client: httpx.AsyncClient, guest: Guest) -> None:
    alice, bob = await guest("Alice"), await guest("Bob")
    room = await _room(client, alice)
    assert (
        await client.put(f"/api/rooms/{room['id']}/seats/0", json={}, headers=alice)
    ).status_code == 200
    response = await client.put(f"/api/rooms/{room['id']}/seats/0", json={}, headers=bob)
    assert response.status_code == 409
    assert (
        await client.put(f"/api/rooms/{room['id']}/seats/1", json={"bot": "random"}, headers=alice)
    ).status_code == 200
    response = await client.put(f"/api/rooms/{room['id']}/seats/1", json={}, headers=bob)
    assert response.status_code == 409


async def test_one_seat_per_person(client: httpx.AsyncClient, guest: Guest) -> None:
    alice = await guest("Alice")
    room = await _room(client, alice)
    await client.put(f"/api/rooms/{room['id']}/seats/0", json={}, headers=alice)
    response = await client.put(f"/api/rooms/{room['id']}/seats/1", json={}, headers=alice)
    assert response.status_code == 409
    again = await client.put(
        f"/api/rooms/{room['id']}/seats/0", headers=alice
    )  # idempotent, no body
    assert again.status_code == 200


async def test_no_such_seat_is_not_found(client: httpx.AsyncClient, guest: Guest) -> None:
    alice = await guest()
    room = await _room(client, alice)
    assert (
        await client.put(f"/api/rooms/{room['id']}/seats/4", json={}, headers=alice)
    ).status_code == 404


async def test_unknown_bot_is_unprocessable(client: httpx.AsyncClient, guest: Guest) -> None:
    alice = await guest()
    room = await _room(client, alice)
    response = await client.put(
        f"/api/rooms/{room['id']}/seats/0", json={"bot": "deep-blue"}, headers=alice
    )
    assert response.status_code == 422


async def test_stranger_may_not_seat_bots(client: httpx.AsyncClient, guest: Guest) -> None:
    alice, mallory = await guest("Alice"), await guest("Mallory")
    room = await _room(client, alice)
    response = await client.put(
        f"/api/rooms/{room['id']}/seats/0", json={"bot": "random"}, headers=mallory
    )
    assert response.status_code == 403


async def test_leave_a_seat_not_yours_is_forbidden(client: httpx.AsyncClient, guest: Guest) -> None:
    alice, bob = await guest("Alice"), await guest("Bob")
    room = await _room(client, alice)
    await client.put(f"/api/rooms/{room['id']}/seats/0", json={}, headers=alice)
    assert (await client.delete(f"/api/rooms/{room['id']}/seats/0", headers=bob)).status_code == 403
    assert (
        await client.delete(f"/api/rooms/{room['id']}/seats/1", headers=bob)
    ).status_code == 403  # empty
    response = await client.delete(f"/api/rooms/{room['id']}/seats/0", headers=alice)
    assert response.status_code == 200
    assert response.json()["seats"][0]["kind"] == "empty"


async def test_creator_removes_a_bot_before_the_start(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    alice = await guest()
    room = await _room(client, alice)
    await client.put(f"/api/rooms/{room['id']}/seats/3", json={"bot": "heuristic"}, headers=alice)
    response = await client.delete(f"/api/rooms/{room['id']}/seats/3", headers=alice)
    assert response.status_code == 200
    assert response.json()["seats"][3]["kind"] == "empty"


async def test_start_before_all_seats_are_filled_is_conflict(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    alice = await guest()
    room = await _room(client, alice)
    for seat in (0, 1, 2):
        await client.put(
            f"/api/rooms/{room['id']}/seats/{seat}", json={"bot": "random"}, headers=alice
        )
    response = await client.post(f"/api/rooms/{room['id']}/start", headers=alice)
    assert response.status_code == 409
    assert (await client.get(f"/api/rooms/{room['id']}")).json()["status"] == "open"


async def test_start_by_a_stranger_is_forbidden(client: httpx.AsyncClient, guest: Guest) -> None:
    alice, mallory = await guest("Alice"), await guest("Mallory")
    room = await _room(client, alice)
    for seat in range(4):
        await client.put(
            f"/api/rooms/{room['id']}/seats/{seat}", json={"bot": "random"}, headers=alice
        )
    assert (await client.post(f"/api/rooms/{room['id']}/start", headers=mallory)).status_code == 403


async def test_a_stranger_s_start_is_forbidden_whatever_the_room_s_state(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    """Who may start is asked before the room's state: a stranger gets 403 at a room with
    empty seats and at a started one alike, never the 409 a seated player gets there."""
    alice, mallory = await guest("Alice"), await guest("Mallory")
    room = await _room(client, alice)
    start = f"/api/rooms/{room['id']}/start"
    assert (await client.post(start, headers=mallory)).status_code == 403  # seats empty
    await client.put(f"/api/rooms/{room['id']}/seats/0", json={}, headers=alice)
    for seat in (1, 2, 3):
        await client.put(
            f"/api/rooms/{room['id']}/seats/{seat}", json={"bot": "random"}, headers=alice
        )
    assert (await client.post(start, headers=alice)).status_code == 200
    assert (await client.post(start, headers=mallory)).status_code == 403  # started
    assert (await client.post(start, headers=alice)).status_code == 409


async def test_start_twice_is_conflict(client: httpx.AsyncClient, guest: Guest) -> None:
    alice = await guest()
    room = await _room(client, alice)
    await client.put(f"/api/rooms/{room['id']}/seats/0", json={}, headers=alice)
    for seat in (1, 2, 3):
        await client.put(
            f"/api/rooms/{room['id']}/seats/{seat}", json={"bot": "random"}, headers=alice
        )
    # The bots must not finish the match before the second start: alice holds seat 0.
    assert (await client.post(f"/api/rooms/{room['id']}/start", headers=alice)).status_code == 200
    assert (await client.post(f"/api/rooms/{room['id']}/start", headers=alice)).status_code == 409


async def test_bots_cannot_be_seated_after_the_start(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    alice = await guest()
    room = await _room(client, alice)
    await client.put(f"/api/rooms/{room['id']}/seats/0", json={}, headers=alice)
    for seat in (1, 2, 3):
        await client.put(
            f"/api/rooms/{room['id']}/seats/{seat}", json={"bot": "random"}, headers=alice
        )
    await client.post(f"/api/rooms/{room['id']}/start", headers=alice)
    await client.delete(
        f"/api/rooms/{room['id']}/seats/0", headers=alice
    )  # a stand-in bot sits there now
    response = await client.put(
        f"/api/rooms/{room['id']}/seats/0", json={"bot": "random"}, headers=alice
    )
    assert response.status_code == 409


async def test_openapi_documents_the_contract(client: httpx.AsyncClient) -> None:
    paths = (await client.get("/openapi.json")).json()["paths"]
    for path in (
        "/api/session",
        "/api/games",
        "/api/rooms",
        "/api/rooms/{room_id}/moves",
        "/api/rooms/{room_id}/seats/{seat}",
        "/api/rooms/{room_id}/start",
        "/api/rooms/{room_id}/view",
        "/api/games/{game}/score",
    ):
        assert path in paths
