"""Whole matches of belote (4 bots) and belote-2p (2 bots) through the API, on the test database."""

from __future__ import annotations

import httpx
import pytest

from tests.conftest import Guest, finished_view


async def play_match(
    client: httpx.AsyncClient, guest: Guest, game: str, options: dict, bots: tuple
) -> dict:
    host = await guest("Host")
    room = (
        await client.post("/api/rooms", json={"game": game, "options": options}, headers=host)
    ).json()
    assert len(room["seats"]) == len(bots)
    for seat, bot in enumerate(bots):
        response = await client.put(
            f"/api/rooms/{room['id']}/seats/{seat}", json={"bot": bot}, headers=host
        )
        assert response.status_code == 200
    assert (await client.post(f"/api/rooms/{room['id']}/start", headers=host)).status_code == 200
    view = await finished_view(client, room["id"])
    log = (await client.get(f"/api/rooms/{room['id']}/moves")).json()
    assert [m["seq"] for m in log] == list(range(view["seq"]))
    assert len([m for m in log if m["action"]["type"] == "deal"]) == len(view["sheet"])
    return view


async def test_four_bots_play_a_whole_belote_match(client: httpx.AsyncClient, guest: Guest) -> None:
    view = await play_match(
        client, guest, "belote", {"target": 501}, ("heuristic", "random", "heuristic", "random")
    )
    # rules/belote.md §9: a team at or over the target with the higher score wins.
    assert view["phase"] == "over" and view["winner"] in (0, 1)
    winner = view["winner"]
    assert view["scores"][winner] >= 501 and view["scores"][winner] > view["scores"][1 - winner]
    assert [sum(d["points"][t] for d in view["sheet"]) for t in (0, 1)] == view["scores"]
    assert view["held"] == 0  # points held in a litige are dropped when the match ends


@pytest.mark.parametrize("allow_claim", [True, False])
async def test_two_bots_play_a_whole_belote_2p_match(
    client: httpx.AsyncClient, guest: Guest, allow_claim: bool
) -> None:
    view = await play_match(
        client,
        guest,
        "belote-2p",
        {"target": 501, "allow_claim": allow_claim},
        ("heuristic", "heuristic"),
    )
    assert view["phase"] == "over" and view["winner"] in (0, 1) and view["players"] == 2
    assert [sum(d["points"][t] for d in view["sheet"]) for t in (0, 1)] == view["scores"]
    last = view["sheet"][-1]
    if last["outcome"] == "claim":  # the heuristic bot claims only when sure (rules/belote.md §6)
        assert (
            last["detail"]["claim"]["correct"] and view["winner"] == last["detail"]["claim"]["seat"]
        )
    else:
        assert max(view["scores"]) >= 501
        assert view["scores"][view["winner"]] > view["scores"][1 - view["winner"]]
