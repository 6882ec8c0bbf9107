"""A tournament's settings are checked, not trusted: an unknown key (a typo the organiser
would believe set) or a number that is not a whole one in range is a 422 with the reason,
whether or not the format uses it; a refusal never echoes the input (docs/security.md)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.core.errors import Unprocessable
from app.tournaments import pages
from tests.tournaments.conftest import account

BAD_SETTINGS: dict[str, tuple[str, dict[str, Any]]] = {
    "unknown-key": ("round_robin", {"zzz": 1}),
    "unknown-match-key": ("round_robin", {"match": {"kind": "target", "zzz": 1}}),
    "zero-minutes-beside-a-target": ("round_robin", {"match": {"kind": "target", "minutes": 0}}),
    "huge-float-rounds": ("round_robin", {"rounds": 1e308}),
    "nan-rounds": ("round_robin", {"rounds": "NaN"}),
    "huge-int-rounds": ("round_robin", {"rounds": 10**30}),
    "huge-float-rounds-swiss": ("swiss", {"rounds": 1e308}),
    "fraction-rounds-swiss": ("swiss", {"rounds": 2.5}),
    "nan-rounds-swiss": ("swiss", {"rounds": "NaN"}),
    "huge-int-groups": ("groups_knockout", {"groups": 10**30}),
    "fraction-deals": ("round_robin", {"match": {"kind": "deals", "deals": 2.5}}),
    "return-leg-text": ("round_robin", {"return_leg": "false"}),
    "points-list": ("round_robin", {"points": [1, 2]}),
}


@pytest.mark.parametrize("fmt,given", BAD_SETTINGS.values(), ids=BAD_SETTINGS.keys())
async def test_bad_settings_are_refused_with_the_reason(
    client: httpx.AsyncClient, fmt: str, given: dict[str, Any]
) -> None:
    headers = await account(client, "vicent")
    response = await client.post(
        "/api/tournaments",
        json={"name": "t", "game": "bolot", "format": fmt, "settings": given},
        headers=headers,
    )
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, str) and detail
    assert "zzz" not in detail and "NaN" not in detail and "1e+308" not in detail
    assert (await client.get("/api/tournaments")).json() == []


async def test_good_settings_are_kept(client: httpx.AsyncClient) -> None:
    headers = await account(client, "vicent")
    response = await client.post(
        "/api/tournaments",
        json={
            "name": "t",
            "game": "bolot",
            "format": "swiss",
            "settings": {"rounds": 4.0, "match": {"kind": "deals", "deals": 12}},
        },
        headers=headers,
    )
    assert response.status_code == 201, response.text
    assert response.json()["settings"]["rounds"] == 4
    assert response.json()["settings"]["match"] == {"kind": "deals", "deals": 12}


def test_a_form_number_that_is_not_whole_is_refused_without_echoing_it() -> None:
    with pytest.raises(Unprocessable) as caught:
        pages._field_int({"f_tricks0": "<b>12x</b>"}, "f_tricks0", "tricks")
    assert "12x" not in caught.value.message and "<b>" not in str(caught.value.params)


async def test_a_three_player_game_has_only_a_swiss_in_threes(client: httpx.AsyncClient) -> None:
    """A round robin (or knockout) pairs two sides (home, away); Belote for three is refused
    in those formats with its reason. The creation form offers it, with the ranking
    choice, for a Swiss in threes (tests/tournaments/test_three_player.py)."""
    headers = await account(client, "vicent")
    response = await client.post(
        "/api/tournaments",
        json={"name": "t", "game": "belote-3p", "format": "round_robin"},
        headers=headers,
    )
    assert response.status_code == 422, response.text
    assert "three players" in response.json()["detail"]
    page = await client.get("/tournaments", headers=headers)
    assert 'value="belote-3p"' in page.text and 'name="ranking"' in page.text
