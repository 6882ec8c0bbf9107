"""The exports speak the request's language in their header row and name each team's
group when the championship has groups (issue 19 §5)."""

from __future__ import annotations

import csv
import io
import re
import zipfile

from tests.tournaments.conftest import Org, make_tournament

CA = {"Accept-Language": "ca"}


async def _csv(org: Org, path: str, **headers: str) -> list[list[str]]:
    response = await org.client.get("/api" + path, headers={**org.headers, **headers})
    assert response.status_code == 200, response.text
    assert response.text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(response.text[1:]), delimiter=";"))


async def _groups_round(org: Org, game: str = "bolot") -> int:
    """Four teams of four clubs drawn into two groups (snake seeding, no clubmates to keep
    apart: seeds 1 and 4 in A, 2 and 3 in B), the first round published; its id."""
    target = {"bolot": 1000, "botifarra": 101}[game]
    t, _ = await make_tournament(
        org,
        4,
        fmt="groups_knockout",
        game=game,
        options={"target": target},
        settings={"groups": 2, "advance": 1},
        clubs=4,
    )
    await org.post(f"/tournaments/{t['id']}/rounds", status=201)
    await org.post(f"/tournaments/{t['id']}/rounds/1/publish")
    return int(t["id"])


async def test_the_standings_export_has_catalan_headers_and_the_groups(org: Org) -> None:
    tid = await _groups_round(org)
    rows = await _csv(org, f"/tournaments/{tid}/standings.csv?sep=semicolon", **CA)
    header = rows[0]
    assert header[:4] == ["Posició", "Grup", "Equip", "Club"]
    # Bolot's match points in Catalan: not "de partida" (a Bolot partida is a deal)
    assert "Punts de classificació" in header and "Diferència de punts" in header
    group = {line[2]: line[1] for line in rows[1:]}
    assert group == {"Parella 1": "A", "Parella 4": "A", "Parella 2": "B", "Parella 3": "B"}
    results = await _csv(org, f"/tournaments/{tid}/results.csv?sep=semicolon", **CA)
    assert results[0][:4] == ["Ronda", "Fase", "Grup", "Taula"]
    # every table of round 1 is a group match inside one group
    assert sorted(line[2] for line in results[1:]) == ["A", "B"]


async def test_the_exports_stay_keys_in_english_and_words_follow_the_game(org: Org) -> None:
    tid = await _groups_round(org, "botifarra")
    english = await _csv(org, f"/tournaments/{tid}/standings.csv?sep=semicolon")
    assert english[0][:4] == ["rank", "group", "team", "club"]  # what programs read
    catalan = await _csv(org, f"/tournaments/{tid}/standings.csv?sep=semicolon", **CA)
    assert "Punts de partida" in catalan[0]  # Botifarra's match is a partida
    spanish = await _csv(
        org, f"/tournaments/{tid}/standings.csv?sep=semicolon", **{"Accept-Language": "es"}
    )
    assert spanish[0][:3] == ["Posición", "Grupo", "Equipo"]
    book = await org.client.get(
        f"/api/tournaments/{tid}/standings.xlsx", headers={**org.headers, **CA}
    )
    strings = zipfile.ZipFile(io.BytesIO(book.content)).read("xl/sharedStrings.xml").decode()
    assert {"Posició", "Grup", "Equip"} <= set(re.findall(r"<t[^>]*>([^<]*)</t>", strings))


async def test_no_group_column_without_groups(org: Org) -> None:
    t, _ = await make_tournament(org, 4)
    rows = await _csv(org, f"/tournaments/{t['id']}/standings.csv?sep=semicolon", **CA)
    assert rows[0][:3] == ["Posició", "Equip", "Club"]
