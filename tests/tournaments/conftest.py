"""Helpers of the championship tests: an organiser, clubs, teams and Bolot deal summaries."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

from app import rules


def bolot_deal(rng: random.Random, taker: int | None = None) -> dict[str, Any]:
    """A possible Bolot deal summary (rules/bolot.md §8): trump oros, no declarations."""
    taker = rng.randrange(2) if taker is None else taker
    while True:
        tricks0 = rng.randrange(1, 8)
        cp0 = rng.randrange(0, 153, 2)
        summary = {
            "contract": {"trump": "o", "taker_team": taker, "eldest_team": 0},
            "card_points": [cp0, 152 - cp0],
            "tricks": [tricks0, 8 - tricks0],
            "last_trick_team": rng.randrange(2),
            "declarations": [[], []],
            "belote": [0, 0],
        }
        try:
            rules.score_deal("bolot", {}, summary)
        except rules.IllegalAction:
            continue
        return summary


def winning_deal(team: int) -> dict[str, Any]:
    """A Bolot deal that ``team`` (0 home, 1 away) takes and makes: 100 + 10 against 52."""
    return {
        "contract": {"trump": "o", "taker_team": team, "eldest_team": 0},
        "card_points": [100, 52] if team == 0 else [52, 100],
        "tricks": [5, 3] if team == 0 else [3, 5],
        "last_trick_team": team,
        "declarations": [[], []],
        "belote": [0, 0],
    }


class Org:
    """An organiser's client: ``await org.post(path, json)`` asserts the status."""

    def __init__(self, client: httpx.AsyncClient, headers: dict[str, str]) -> None:
        self.client = client
        self.headers = headers

    async def call(self, method: str, path: str, status: int = 200, **kw: Any) -> Any:
        response = await self.client.request(method, "/api" + path, headers=self.headers, **kw)
        assert response.status_code == status, (path, response.status_code, response.text)
        return (
            response.json() if "json" in response.headers.get("content-type", "") else response.text
        )

    async def post(self, path: str, json: Any = None, status: int = 200) -> Any:
        return await self.call("POST", path, status, json=json if json is not None else {})

    async def get(self, path: str, status: int = 200) -> Any:
        return await self.call("GET", path, status)


async def account(client: httpx.AsyncClient, username: str) -> dict[str, str]:
    """The headers of a new registered account (organising needs one): ``{"Authorization": ...}``."""
    client.cookies.clear()
    response = await client.post(
        "/api/accounts",
        json={
            "username": username,
            "password": "correct horse battery",
            "nickname": username.capitalize(),
        },
    )
    assert response.status_code in (200, 201), response.text
    client.cookies.clear()
    return {"Authorization": f"Bearer {response.json()['token']}"}


@pytest.fixture
async def org(client: httpx.AsyncClient) -> Org:
    """A signed-in organiser (a registered account)."""
    return Org(client, await account(client, "organitzador"))


async def make_tournament(
    org: Org,
    teams: int,
    fmt: str = "round_robin",
    game: str = "bolot",
    options: dict[str, Any] | None = None,
    settings: dict[str, Any] | None = None,
    clubs: int = 3,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A tournament with ``teams`` teams spread over ``clubs`` clubs."""
    club_ids = []
    for i in range(clubs):
        club = await org.post(
            "/clubs", {"name": f"Falla {i + 1}", "kind": "falla", "town": "Sagunt"}, 201
        )
        club_ids.append(club["id"])
    t = await org.post(
        "/tournaments",
        {
            "name": "Campionat de Bolot",
            "game": game,
            "format": fmt,
            "options": options or {"target": 300},
            "settings": settings or {},
        },
        201,
    )
    made = []
    for i in range(teams):
        made.append(
            await org.post(
                f"/tournaments/{t['id']}/teams",
                {
                    "name": f"Parella {i + 1}",
                    "players": [f"J{i}a", f"J{i}b"],
                    "club_id": club_ids[i % clubs] if clubs else None,
                },
                201,
            )
        )
    return t, made
