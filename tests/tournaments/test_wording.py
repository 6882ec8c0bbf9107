"""Catalan pages speak each game's words (issue 19 §6): Valencian Bolot says *joc* for
the match and *partida* for the deal (rules/bolot.md §1), Catalan Botifarra *partida*
for the match and *mà* for the deal (rules/botifarra.md §1)."""

from __future__ import annotations

import html
import re

import httpx

from tests.tournaments.conftest import Org, make_tournament, winning_deal

CA = {"Accept-Language": "ca"}


def _text(page: str) -> str:
    """The page's visible words (tags dropped, entities read), spaces squeezed."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


async def _one_deal_in(org: Org, game: str, summary: dict) -> int:
    """A two-team round robin of ``game`` to the target or 12 deals, round 1 published,
    one deal entered at table 1; its id."""
    t, _teams = await make_tournament(
        org,
        2,
        game=game,
        options={"target": {"bolot": 1000, "botifarra": 101}[game]},
        settings={"match": {"kind": "target", "deals": 12}},
    )
    await org.post(f"/tournaments/{t['id']}/rounds", status=201)
    await org.post(f"/tournaments/{t['id']}/rounds/1/publish")
    await org.post(f"/tournaments/{t['id']}/tables/1/deals", {"summary": summary}, 201)
    return int(t["id"])


async def test_a_bolot_championship_in_catalan_says_joc_and_partida(
    org: Org, client: httpx.AsyncClient
) -> None:
    tid = await _one_deal_in(org, "bolot", winning_deal(0))
    table = _text(
        (await client.get(f"/tournaments/{tid}/tables/1", headers={**CA, **org.headers})).text
    )
    # the deal is a "partida": the next one is the second, and the sheet's column says so
    assert "Anotar la partida següent" in table and "Afegir la partida 2" in table
    assert "Corregir una partida" in table
    # the match is a "joc": its definition names 12 "partides"
    assert "12 partides" in table and "Joc:" in table
    assert not re.search(r"\b(mà|mans)\b", table), "Bolot's deal is never a mà"
    head = _text((await client.get(f"/tournaments/{tid}", headers=CA)).text)
    assert "12 partides" in head and "12 mans" not in head
    standings = (await client.get(f"/tournaments/{tid}/standings", headers=CA)).text
    assert 'title="Punts de classificació"' in standings
    sheets = (await client.get(f"/tournaments/{tid}/print/sheets", headers=CA)).text
    assert '<th rowspan="2">Partida</th>' in sheets and ">Mà</th>" not in sheets


async def test_a_botifarra_championship_in_catalan_says_partida_and_ma(
    org: Org, client: httpx.AsyncClient
) -> None:
    # team 0 chose oros and took 7 tricks, 36 of the 60 card points (rules/botifarra.md §8)
    summary = {
        "contract": {"trump": "o", "botifarra": False, "chooser_team": 0, "doublings": 0},
        "card_points": [36, 24],
        "tricks": [7, 5],
    }
    tid = await _one_deal_in(org, "botifarra", summary)
    table = _text(
        (await client.get(f"/tournaments/{tid}/tables/1", headers={**CA, **org.headers})).text
    )
    assert "Anotar la mà següent" in table and "Afegir la mà 2" in table
    assert "Corregir una mà" in table
    assert "12 mans" in table and "Partida:" in table
    assert "Afegir la partida" not in table
    standings = (await client.get(f"/tournaments/{tid}/standings", headers=CA)).text
    assert 'title="Punts de partida"' in standings
    sheets = (await client.get(f"/tournaments/{tid}/print/sheets", headers=CA)).text
    assert '<th rowspan="2">Mà</th>' in sheets


async def test_other_languages_keep_their_words_for_bolot(
    org: Org, client: httpx.AsyncClient
) -> None:
    """Only Catalan words Bolot apart: Spanish says "mano" for the deal of every game."""
    tid = await _one_deal_in(org, "bolot", winning_deal(0))
    es = _text(
        (
            await client.get(
                f"/tournaments/{tid}/tables/1", headers={"Accept-Language": "es", **org.headers}
            )
        ).text
    )
    assert "Añadir la mano 2" in es


async def test_a_refused_table_form_says_it_in_the_games_words(client: httpx.AsyncClient) -> None:
    """The table page re-shown with a refusal speaks Bolot's words too (a deal summary
    is a "resum de la partida")."""
    assert (await client.post("/api/session", json={"nickname": "Org"})).status_code == 200
    registered = await client.post(
        "/api/accounts", json={"username": "org", "password": "correct horse battery"}
    )
    assert registered.status_code in (200, 201), registered.text
    token = re.search(r'name="csrf" value="([0-9a-f]+)"', (await client.get("/tournaments")).text)
    assert token
    form = {"csrf": token.group(1)}
    made = await client.post(
        "/tournaments",
        data={**form, "name": "Lliga", "game": "bolot", "format": "round_robin", "deals": "12"},
    )
    tid = int(made.headers["location"].split("/")[2])
    for name in ("Nord", "Sud"):
        await client.post(f"/tournaments/{tid}/teams", data={**form, "name": name})
    await client.post(f"/tournaments/{tid}/rounds", data=form)
    await client.post(f"/tournaments/{tid}/rounds/1/publish", data=form)
    refused = await client.post(
        f"/tournaments/{tid}/tables/1/deals?lang=ca",
        data={**form, "entry": "fields", "summary": "{not json", "round": "1"},
    )
    assert refused.status_code == 422
    assert "El resum de la partida no és un JSON vàlid." in _text(refused.text)
