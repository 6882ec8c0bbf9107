"""Output for the organiser (issue 19 §5): CSV that a Spanish spreadsheet opens (UTF-8
with a byte order mark, ``;`` with a decimal comma as a choice), an Excel workbook, a
crosstable and printable standings."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from typing import Any

import httpx

from app.tournaments.views import to_csv, to_xlsx
from tests.tournaments.conftest import Org, make_tournament

BOM = "\ufeff"


async def _played_round(org: Org) -> tuple[int, dict[str, Any]]:
    """Four teams (one named with accents), round 1 published: table 1 won 1000-640 by its
    home team, table 2 won by forfeit by its home team. Returns (id, round 1)."""
    t, _ = await make_tournament(org, 3)
    tid = int(t["id"])
    await org.post(
        f"/tournaments/{tid}/teams",
        {"name": "Penya Sant Vicenç", "players": ["Àngel", "Núria"]},
        201,
    )
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    rnd = await org.post(f"/tournaments/{tid}/rounds/1/publish")
    one, two = rnd["tables"][0], rnd["tables"][1]
    await org.post(
        f"/tournaments/{tid}/tables/1/result",
        {"home_score": 1000, "away_score": 640, "winner": one["home"]["id"]},
    )
    await org.post(
        f"/tournaments/{tid}/tables/2/result",
        {"home_score": 0, "away_score": 0, "winner": two["home"]["id"], "forfeit": True},
    )
    return tid, rnd


def _rows(text: str, delimiter: str = ",") -> list[dict[str, str]]:
    assert text.startswith(BOM), "a spreadsheet needs the byte order mark to read UTF-8"
    return list(csv.DictReader(io.StringIO(text[1:]), delimiter=delimiter))


async def test_the_standings_csv_opens_in_a_spanish_spreadsheet(org: Org) -> None:
    tid, rnd = await _played_round(org)
    winner = rnd["tables"][0]["home"]["name"]
    comma = _rows(await org.get(f"/tournaments/{tid}/standings.csv"))
    semi = _rows(await org.get(f"/tournaments/{tid}/standings.csv?sep=semicolon"), ";")
    assert comma == semi  # the same cells, only the separator differs (no fraction here)
    by_team = {r["team"]: r for r in comma}
    assert "Penya Sant Vicenç" in by_team  # UTF-8 survives
    row = by_team[winner]
    assert (row["played"], row["won"], row["lost"]) == ("1", "1", "0")
    assert (row["points_for"], row["points_against"], row["point_difference"]) == (
        "1000",
        "640",
        "360",
    )
    results = _rows(await org.get(f"/tournaments/{tid}/results.csv?sep=semicolon"), ";")
    assert [(r["table"], r["home_score"], r["away_score"]) for r in results] == [
        ("1", "1000", "640"),
        ("2", "0", "0"),
    ]
    assert results[1]["forfeit"] == "yes"
    await org.get(f"/tournaments/{tid}/standings.csv?sep=tab", status=422)


def test_a_semicolon_csv_writes_a_decimal_comma_and_defuses_formulas() -> None:
    sheet = (["team", "match_points"], [["=1+1", 2.5], ["B", 2]])
    assert to_csv(sheet, "semicolon") == BOM + "team;match_points\r\n'=1+1;2,5\r\nB;2\r\n"
    assert to_csv(sheet) == BOM + "team,match_points\r\n'=1+1,2.5\r\nB,2\r\n"


def test_the_workbook_keeps_numbers_as_numbers_and_texts_as_texts() -> None:
    data = to_xlsx((["team", "points"], [["=SUM(A1)", 1000], ["Sant Vicenç", 2.5]]), "standings")
    book = zipfile.ZipFile(io.BytesIO(data))
    sheet = book.read("xl/worksheets/sheet1.xml").decode()
    strings = book.read("xl/sharedStrings.xml").decode()
    assert "<f>" not in sheet  # no formula, even for a text that looks like one
    assert "<v>1000</v>" in sheet and "<v>2.5</v>" in sheet
    assert "=SUM(A1)" in strings and "Sant Vicenç" in strings
    assert 'name="standings"' in book.read("xl/workbook.xml").decode()


async def test_the_xlsx_downloads(org: Org) -> None:
    tid, _ = await _played_round(org)
    for what in ("standings", "results"):
        response = await org.client.get(f"/api/tournaments/{tid}/{what}.xlsx")
        assert response.status_code == 200
        assert response.headers["content-type"].startswith(
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        )
        assert f'filename="{what}-{tid}.xlsx"' in response.headers["content-disposition"]
        assert zipfile.ZipFile(io.BytesIO(response.content)).testzip() is None
    missing = await org.client.get("/api/tournaments/999999/standings.xlsx")
    assert missing.status_code == 404


async def test_the_crosstable_reads_each_match_from_both_sides(org: Org) -> None:
    tid, rnd = await _played_round(org)
    cross = await org.get(f"/tournaments/{tid}/crosstable")
    order = [c["team"]["id"] for c in cross["teams"]]
    assert len(order) == 4 and not cross["three"]

    def cell(a: int, b: int) -> list[dict[str, Any]]:
        return cross["cells"][order.index(a)][order.index(b)]  # type: ignore[no-any-return]

    one, two = rnd["tables"]
    home, away = one["home"]["id"], one["away"]["id"]
    assert cell(home, away) == [
        {"round": 1, "for": 1000, "against": 640, "outcome": "won", "forfeit": False}
    ]
    assert cell(away, home) == [
        {"round": 1, "for": 640, "against": 1000, "outcome": "lost", "forfeit": False}
    ]
    assert cell(two["away"]["id"], two["home"]["id"])[0]["outcome"] == "lost"
    assert cell(two["away"]["id"], two["home"]["id"])[0]["forfeit"] is True
    assert cell(home, two["home"]["id"]) == []  # not met yet
    assert all(cross["cells"][i][i] == [] for i in range(4))


async def test_the_crosstable_and_printable_standings_pages(
    org: Org, client: httpx.AsyncClient
) -> None:
    tid, rnd = await _played_round(org)
    page = (await client.get(f"/tournaments/{tid}/crosstable")).text
    assert 'data-testid="crosstable"' in page and "1000–640" in page and "640–1000" in page
    printed = (await client.get(f"/tournaments/{tid}/print/standings")).text
    assert 'data-testid="print-standings"' in printed
    assert printed.index(rnd["tables"][0]["home"]["name"]) < printed.index("Clubs and societies")
    assert re.search(r"Àngel &amp; Núria", printed)
    standings = (await client.get(f"/tournaments/{tid}/standings")).text
    assert f"/api/tournaments/{tid}/standings.xlsx" in standings
    assert f"/api/tournaments/{tid}/standings.csv?sep=semicolon" in standings
