"""The organiser chooses and orders the tie-breaks in ordered selects (issue 19 §4): no
JavaScript, a repeated choice refused beside the field with what was typed kept, none
chosen = the format's own order; the API still takes its list."""

from __future__ import annotations

import re

import httpx

from tests.tournaments.conftest import Org


def _csrf(html: str) -> str:
    match = re.search(r'name="csrf" value="([0-9a-f]+)"', html)
    assert match, "no CSRF field in the page"
    return match.group(1)


async def _organiser(client: httpx.AsyncClient) -> str:
    """A browser signed in with an account; the CSRF token of its championships page."""
    assert (await client.post("/api/session", json={"nickname": "Org"})).status_code == 200
    registered = await client.post(
        "/api/accounts", json={"username": "org", "password": "correct horse battery"}
    )
    assert registered.status_code in (200, 201), registered.text
    return _csrf((await client.get("/tournaments")).text)


def _form(token: str, **extra: str) -> dict[str, str]:
    return {"csrf": token, "name": "Lliga", "game": "bolot", "format": "swiss", **extra}


async def test_the_form_offers_five_ordered_selects_of_translated_names(
    client: httpx.AsyncClient,
) -> None:
    await _organiser(client)
    page = (await client.get("/tournaments?lang=ca")).text
    box = re.search(r'<fieldset class="tiebreaks".*?</fieldset>', page, re.S)
    assert box, "no tie-break fieldset"
    assert [int(n) for n in re.findall(r'name="tiebreak_(\d)"', box.group(0))] == [1, 2, 3, 4, 5]
    first = re.search(r'<select name="tiebreak_1">(.*?)</select>', box.group(0), re.S)
    assert first
    values = re.findall(r'<option value="(\w*)"', first.group(1))
    assert values == ["", "head_to_head", "point_difference", "points_scored", "buchholz", "wins"]
    assert "Desempat 1" in box.group(0) and "Partides guanyades" in box.group(0)
    assert "head_to_head," not in page  # no internal names to type any more


async def test_the_chosen_order_is_kept_and_none_chosen_is_the_formats(
    client: httpx.AsyncClient,
) -> None:
    token = await _organiser(client)
    made = await client.post(
        "/tournaments", data=_form(token, tiebreak_1="wins", tiebreak_3="point_difference")
    )
    assert made.status_code == 303, made.text[:300]
    tid = int(made.headers["location"].split("/")[2])
    info = (await client.get(f"/api/tournaments/{tid}")).json()
    assert info["settings"]["tiebreaks"] == ["wins", "point_difference"]
    plain = await client.post("/tournaments", data=_form(token, name="Lliga 2"))
    tid2 = int(plain.headers["location"].split("/")[2])
    # a Swiss's own order (config.DEFAULT_TIEBREAKS): Buchholz first
    assert (await client.get(f"/api/tournaments/{tid2}")).json()["settings"]["tiebreaks"] == [
        "buchholz",
        "head_to_head",
        "point_difference",
        "points_scored",
    ]


async def test_a_tiebreak_chosen_twice_is_refused_beside_the_field(
    client: httpx.AsyncClient,
) -> None:
    token = await _organiser(client)
    before = len((await client.get("/api/tournaments")).json())
    refused = await client.post(
        "/tournaments?lang=ca",
        data=_form(
            token, name="Lliga de tardor", deals="12", tiebreak_1="buchholz", tiebreak_2="buchholz"
        ),
    )
    assert refused.status_code == 422
    box = re.search(r'<fieldset class="tiebreaks".*?</fieldset>', refused.text, re.S)
    assert box and 'id="tiebreaks-error"' in box.group(0)
    assert "Un criteri de desempat apareix dues vegades." in box.group(0)
    # what was typed is still there
    assert 'value="Lliga de tardor"' in refused.text and 'value="12"' in refused.text
    assert '<option value="swiss" selected>' in refused.text
    assert re.search(r'name="tiebreak_2">.*?<option value="buchholz" selected>', box.group(0), re.S)
    assert len((await client.get("/api/tournaments")).json()) == before  # nothing made


async def test_the_api_still_takes_its_list(org: Org) -> None:
    t = await org.post(
        "/tournaments",
        {
            "name": "Lliga",
            "game": "bolot",
            "format": "round_robin",
            "options": {"target": 300},
            "settings": {"tiebreaks": ["points_scored", "head_to_head"]},
        },
        201,
    )
    assert t["settings"]["tiebreaks"] == ["points_scored", "head_to_head"]
    await org.post(
        "/tournaments",
        {
            "name": "Lliga 2",
            "game": "bolot",
            "format": "round_robin",
            "options": {"target": 300},
            "settings": {"tiebreaks": ["wins", "wins"]},
        },
        422,
    )


async def test_a_refused_form_keeps_every_setting_typed(client: httpx.AsyncClient) -> None:
    """A fresh tester's draw worth 0.5, online tables, a deal limit, groups, qualifiers,
    a cap and the checkboxes came back at their defaults after a refusal, and the
    championship made after it had a draw worth 1."""
    token = await _organiser(client)
    typed = {
        "match": "deals",
        "deals": "12",
        "cap_score": "121",
        "groups": "3",
        "advance": "2",
        "points_win": "2",
        "points_draw": "0.5",
        "points_loss": "0",
        "play": "online",
        "return_leg": "on",
        "self_registration": "on",
    }
    refused = await client.post(
        "/tournaments",
        data=_form(token, tiebreak_1="wins", tiebreak_2="wins", **typed),
    )
    assert refused.status_code == 422
    page = refused.text
    assert '<option value="deals" selected>' in page and '<option value="online" selected>' in page
    for name in ("cap_score", "groups", "advance", "points_draw"):
        assert re.search(rf'name="{name}"[^>]*value="{re.escape(typed[name])}"', page), name
    for name in ("return_leg", "self_registration"):
        assert re.search(rf'name="{name}" checked', page), name
    assert not re.search(r'name="avoid_same_club" checked', page)  # it was not ticked
