"""Names an organiser types (teams, players, clubs): invisible and direction-changing
characters are dropped, and a team's two players are two people (a fresh organiser's
finds: a right-to-left override turned a page's sentence around, two zero-width spaces
made a team invisible, "Joan & Joan" was accepted)."""

from __future__ import annotations

import html
import re

import httpx

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


async def test_a_refused_team_form_comes_back_as_typed_with_its_reason(
    org: Org, client: httpx.AsyncClient
) -> None:
    """A fresh organiser on a slow phone was sent to a separate error page and had to type
    the team again: the manage page now comes back with the form as sent."""
    t, _ = await make_tournament(org, 2, clubs=0)
    tid = t["id"]
    manage = f"/tournaments/{tid}/manage"
    page = (await client.get(manage, headers=org.headers)).text
    action = f"/tournaments/{tid}/teams"
    form = _hidden(page, action) | {"name": "Parella 1", "player1": "Rosa", "player2": "Pau"}
    refused = await client.post(action, data=form, headers=org.headers)
    assert refused.status_code == 409
    text = refused.text
    assert 'data-testid="team-error"' in text and "Parella 1" in text
    assert 'name="player1" maxlength="40" value="Rosa"' in text
    assert 'name="player2" maxlength="40" value="Pau"' in text
    # corrected, the same page's form enters it once
    page = refused.text
    form = _hidden(page, action) | {"name": "Parella 3", "player1": "Rosa", "player2": "Pau"}
    made = await client.post(action, data=form, headers=org.headers)
    assert made.status_code == 303
    teams = await org.get(f"/tournaments/{tid}/teams")
    assert [x["name"] for x in teams] == ["Parella 1", "Parella 2", "Parella 3"]


def _hidden(page: str, action: str) -> dict[str, str]:
    """The hidden fields of the form posting to ``action`` on ``page``."""
    start = page.index(f'action="{action}"')
    end = page.index("</form>", start)
    return {
        m.group(1): html.unescape(m.group(2))
        for m in re.finditer(
            r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page[start:end]
        )
    }
