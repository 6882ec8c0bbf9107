"""Text no database can store (NUL, a lone surrogate) is a 422 on every field, on SQLite
and PostgreSQL alike: app/core/db.py checks every statement's parameters (issue 20: a NUL
in a club, tournament, team, player or withdrawal reason was a 500 on PostgreSQL)."""

from __future__ import annotations

import json

import httpx
import pytest

from app.core.db import unstorable
from tests.conftest import Guest
from tests.tournaments.conftest import account

BAD = ["Falla\u0000", "\u0000", "Penya\ud800"]
JSON = {"content-type": "application/json"}


def _json(body: object) -> str:
    """``body`` as JSON with ASCII escapes (a lone surrogate is sent as ``\\ud800``)."""
    return json.dumps(body)


def test_unstorable_looks_into_every_parameter_shape() -> None:
    assert unstorable(("ok", 1, ["x", {"k": "a\u0000"}]))
    assert unstorable([{"name": "\udfff"}])
    assert not unstorable(("ok", 1, None, b"\x00", ["é", {"k": "👨\u200d👩"}]))


@pytest.mark.parametrize("bad", BAD)
async def test_every_name_refuses_text_no_database_stores(
    client: httpx.AsyncClient, guest: Guest, bad: str
) -> None:
    org = await account(client, "organitzador")
    club = await client.post("/api/clubs", json={"name": "Penya", "town": "Sagunt"}, headers=org)
    assert club.status_code == 201, club.text
    tour = await client.post(
        "/api/tournaments", json={"name": "Lliga", "game": "bolot"}, headers=org
    )
    assert tour.status_code == 201, tour.text
    tid = tour.json()["id"]
    team = await client.post(
        f"/api/tournaments/{tid}/teams",
        json={"name": "Els Quatre", "players": ["Pepa", "Vicent"]},
        headers=org,
    )
    assert team.status_code == 201, team.text

    attempts = {
        "club name": ("POST", "/api/clubs", {"name": bad}),
        "club town": ("POST", "/api/clubs", {"name": "Falla", "town": bad}),
        "tournament": ("POST", "/api/tournaments", {"name": bad, "game": "bolot"}),
        "venue": ("POST", "/api/tournaments", {"name": "T", "game": "bolot", "venue": bad}),
        "team": ("POST", f"/api/tournaments/{tid}/teams", {"name": bad, "players": ["A", "B"]}),
        "player": ("POST", f"/api/tournaments/{tid}/teams", {"name": "X", "players": [bad, "B"]}),
        "withdrawal reason": (
            "POST",
            f"/api/tournaments/{tid}/teams/{team.json()['id']}/withdraw",
            {"reason": bad},
        ),
    }
    for what, (method, path, body) in attempts.items():
        response = await client.request(method, path, content=_json(body), headers=org | JSON)
        assert response.status_code == 422, (what, response.status_code, response.text)
        assert "NUL" in response.json()["detail"], what
    # nothing half-written: the names listed are the good ones only
    assert [c["name"] for c in (await client.get("/api/clubs")).json()] == ["Penya"]
    assert len((await client.get("/api/tournaments")).json()) == 1
    # a guest's nickname and a lobby filter (a read) too
    for nickname in (bad, f"Ana{bad}"):
        made = await client.post(
            "/api/session", content=_json({"nickname": nickname}), headers=JSON
        )
        assert made.status_code == 422, made.text
    client.cookies.clear()
    for query in ("game=%00", "game=a%00b", "game=%ED%A0%80"):
        assert (await client.get(f"/api/rooms?{query}")).status_code in (200, 422), query
