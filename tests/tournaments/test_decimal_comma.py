"""Numbers with decimals in the page's language (issue 19 §5): a drawn match worth ½ is
"0,5" on a Catalan, Spanish, French, Portuguese or Bulgarian page, "0.5" in English."""

from __future__ import annotations

import re

import httpx
import pytest

from app.web import i18n
from tests.tournaments.conftest import Org, make_tournament


@pytest.mark.parametrize(
    ("lang", "half", "two_and_a_half"),
    [
        ("ca", "0,5", "2,5"),
        ("es", "0,5", "2,5"),
        ("fr", "0,5", "2,5"),
        ("pt", "0,5", "2,5"),
        ("bg", "0,5", "2,5"),
        ("en", "0.5", "2.5"),
    ],
)
def test_a_number_is_written_as_its_language_does(
    lang: str, half: str, two_and_a_half: str
) -> None:
    with i18n.using(lang):
        assert i18n.number(0.5) == half
        assert i18n.number(2.5) == two_and_a_half
        assert i18n.number(4.0) == "4"  # a whole number keeps no decimals
        assert i18n.number(1000) == "1000"  # scores are not grouped
        assert i18n.number(None) == ""


async def test_a_drawn_match_worth_a_half_reads_0_5_in_catalan(
    org: Org, client: httpx.AsyncClient
) -> None:
    # two teams, 12 deals, a draw worth ½ (issue 19 §4): 500–500 after the 12 deals
    t, _teams = await make_tournament(
        org,
        2,
        options={"target": 1000},
        settings={"match": {"kind": "deals", "deals": 12}, "points": {"draw": 0.5}},
    )
    tid = t["id"]
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    await org.post(f"/tournaments/{tid}/rounds/1/publish")
    await org.post(f"/tournaments/{tid}/tables/1/result", {"home_score": 500, "away_score": 500})
    for lang, half in (("ca", "0,5"), ("es", "0,5"), ("en", "0.5")):
        page = (await client.get(f"/tournaments/{tid}/standings?lang={lang}")).text
        # each team: one match drawn, ½ match point, in its MP column
        assert re.findall(r"<td><strong>([^<]*)</strong></td>", page)[:2] == [half, half], lang
        printed = (await client.get(f"/tournaments/{tid}/print/standings?lang={lang}")).text
        assert printed.count(f'<td class="n"><strong>{half}</strong></td>') == 2, lang
    explained = (await client.get(f"/tournaments/{tid}/standings?lang=ca")).text
    assert "empat 0,5" in explained
