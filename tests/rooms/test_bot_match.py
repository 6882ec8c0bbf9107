"""A whole Bolot match to 1000 between four bots, through the API, on the test database."""

from __future__ import annotations

import hashlib

import httpx

from tests.conftest import Guest, finished_view


async def test_four_bots_play_a_whole_match(client: httpx.AsyncClient, guest: Guest) -> None:
    host = await guest("Host")
    room = (
        await client.post(
            "/api/rooms", json={"game": "bolot", "options": {"target": 1000}}, headers=host
        )
    ).json()
    for seat, bot in enumerate(("heuristic", "random", "heuristic", "random")):
        response = await client.put(
            f"/api/rooms/{room['id']}/seats/{seat}", json={"bot": bot}, headers=host
        )
        assert response.status_code == 200
    assert (await client.post(f"/api/rooms/{room['id']}/start", headers=host)).status_code == 200

    view = await finished_view(client, room["id"])

    # rules/bolot.md §9: the match ends when a pair has reached the target with the higher score.
    assert view["phase"] == "over"
    winner = view["winner"]
    assert winner in (0, 1)
    assert view["scores"][winner] >= 1000
    assert view["scores"][winner] > view["scores"][1 - winner]
    # Scores only go up, deal by deal, as the sheet says.
    assert [sum(d["points"][t] for d in view["sheet"]) for t in (0, 1)] == view["scores"]
    assert view["sheet"][-1]["scores_after"] == view["scores"]

    # Every deal was committed before it was played and is revealed now.
    log = (await client.get(f"/api/rooms/{room['id']}/moves")).json()
    assert [m["seq"] for m in log] == list(range(view["seq"]))
    deals = [m["action"] for m in log if m["action"]["type"] == "deal"]
    assert len(deals) == len(view["sheet"])
    for deal in deals:
        digest = hashlib.sha256((deal["salt"] + ",".join(deal["deck"])).encode()).hexdigest()
        assert digest == deal["sha256"]
    assert all(m["actor"] in (0, 1, 2, 3, "server") for m in log)
    lobby = (await client.get("/api/rooms")).json()
    assert room["id"] not in [r["id"] for r in lobby]  # finished rooms leave the lobby
