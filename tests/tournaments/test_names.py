"""Names an organiser types (teams, players, clubs): invisible and direction-changing
characters are dropped, and a team's two players are two people (a fresh organiser's
finds: a right-to-left override turned a page's sentence around, two zero-width spaces
made a team invisible, "Joan & Joan" was accepted)."""

from __future__ import annotations

from tests.tournaments.conftest import Org, make_tournament

SAME = "a team's two players are two people: the same name is given twice"


async def test_invisible_and_direction_characters_are_dropped_from_names(org: Org) -> None:
    t, _ = await make_tournament(org, 2, clubs=0)
    tid = t["id"]
    team = await org.post(
        f"/tournaments/{tid}/teams",
        {"name": "\u202eZ6 Tres\u200b\u200b", "players": ["Pe\u200bpa", "Vicent\u2066"]},
        201,
    )
    assert team["name"] == "Z6 Tres"
    assert team["players"] == ["Pepa", "Vicent"]
    # nothing but invisible characters is no name at all
    refused = await org.client.post(
        f"/api/tournaments/{tid}/teams",
        json={"name": "\u200b\u200b", "players": ["A", "B"]},
        headers=org.headers,
    )
    assert refused.status_code == 422 and refused.json()["detail"] == "the team's name is required"


async def test_a_team_s_two_players_are_two_people(org: Org) -> None:
    t, teams = await make_tournament(org, 2, clubs=0)
    tid = t["id"]
    same = await org.client.post(
        f"/api/tournaments/{tid}/teams",
        json={"name": "Joans", "players": ["Joan", "JOAN "]},
        headers=org.headers,
    )
    assert same.status_code == 422 and same.json()["detail"] == SAME
    edited = await org.client.patch(
        f"/api/tournaments/{tid}/teams/{teams[0]['id']}",
        json={"players": ["Marta", "marta"]},
        headers=org.headers,
    )
    assert edited.status_code == 422 and edited.json()["detail"] == SAME
