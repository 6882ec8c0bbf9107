"""Formats from real events (issue 19 §4): a match ends at N deals, P points or T minutes,
whichever comes first; a drawn match may be worth half a point."""

from __future__ import annotations

import pytest

from app.core.errors import Unprocessable
from app.tournaments import config
from app.tournaments.pages import match_words
from tests.tournaments.conftest import Org, make_tournament, winning_deal

BOLOT = {"target": 1000}


def _clean(match: dict, points: dict | None = None) -> dict:
    settings = {"match": match} | ({"points": points} if points else {})
    return config.clean("bolot", BOLOT, "swiss", settings)[1]  # type: ignore[no-any-return]


def test_a_target_may_carry_a_number_of_deals_and_a_time_limit() -> None:
    both = _clean({"kind": "target", "deals": 12, "minutes": 45})
    assert both["match"] == {"kind": "target", "deals": 12, "minutes": 45}
    assert config.match_limits(both) == (12, 45)
    assert config.describe_match("bolot", BOLOT, both) == (
        "to 1000 points or 12 deals or 45 minutes, the deal in progress finished, "
        "whichever comes first"
    )
    assert config.match_limits(_clean({"kind": "target"})) == (None, None)
    deals = _clean({"kind": "deals", "deals": 8, "minutes": 30})
    assert config.describe_match("bolot", BOLOT, deals) == (
        "8 deals or 30 minutes, the deal in progress finished, whichever comes first"
    )
    with pytest.raises(Unprocessable):
        _clean({"kind": "target", "deals": 0})
    with pytest.raises(Unprocessable):
        _clean({"kind": "target", "hours": 2})


@pytest.mark.parametrize(("given", "kept"), [(0.5, 0.5), ("1,5", 1.5), ("2", 2), (1.0, 1), (0, 0)])
def test_match_points_come_in_halves(given: object, kept: float) -> None:
    points = _clean({"kind": "target"}, {"draw": given})["points"]
    assert points["draw"] == kept and type(points["draw"]) is type(kept)


@pytest.mark.parametrize("given", [0.3, -1, 100.5, True, "a half", float("nan")])
def test_match_points_not_in_halves_are_refused(given: object) -> None:
    with pytest.raises(Unprocessable) as refused:
        _clean({"kind": "target"}, {"draw": given})
    assert refused.value.code == "match_points_half"


async def test_a_paper_match_to_1000_stops_at_its_second_deal(org: Org) -> None:
    t, _ = await make_tournament(
        org, 2, options={"target": 1000}, settings={"match": {"kind": "target", "deals": 2}}
    )
    tid = t["id"]
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    await org.post(f"/tournaments/{tid}/rounds/1/publish")
    first = await org.post(f"/tournaments/{tid}/tables/1/deals", {"summary": winning_deal(0)}, 201)
    assert first["status"] == "playing"  # far from 1000 and one deal of two
    second = await org.post(f"/tournaments/{tid}/tables/1/deals", {"summary": winning_deal(0)}, 201)
    table = await org.get(f"/tournaments/{tid}/tables/1")
    assert second["status"] == "done" and table["winner"] == table["home"]["id"]
    page = (await org.client.get(f"/tournaments/{tid}")).text
    assert "to 1000 points or 2 deals, whichever comes first" in page


async def test_a_drawn_match_worth_a_half(org: Org) -> None:
    t, teams = await make_tournament(
        org, 2, settings={"match": {"kind": "deals", "deals": 4}, "points": {"draw": 0.5}}
    )
    tid = t["id"]
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    await org.post(f"/tournaments/{tid}/rounds/1/publish")
    await org.post(f"/tournaments/{tid}/tables/1/result", {"home_score": 500, "away_score": 500})
    rows = (await org.get(f"/tournaments/{tid}/standings"))["rows"]
    assert [(r["drawn"], r["match_points"]) for r in rows] == [(1, 0.5), (1, 0.5)]


def test_the_match_in_words_follows_the_page_language() -> None:
    t = {"settings": {"match": {"kind": "target", "minutes": 45}}, "options": {"target": 1000}}
    assert match_words(t) == (
        "to 1000 points or 45 minutes, the deal in progress finished, whichever comes first"
    )
    t = {"settings": {"match": {"kind": "deals", "deals": 12}}, "options": {"cap_score": 121}}
    assert match_words(t) == "12 deals, scores recorded up to 121"


async def test_a_target_match_with_a_deal_limit_takes_a_result_short_of_the_target(
    org: Org,
) -> None:
    """To 300 or 3 deals: a result under 300, or level, is what the deal limit leaves; a
    match only to 300 still refuses it."""
    t, _ = await make_tournament(
        org,
        2,
        settings={"match": {"kind": "target", "deals": 3}, "points": {"draw": 0.5}},
    )
    tid = t["id"]
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    await org.post(f"/tournaments/{tid}/rounds/1/publish")
    done = await org.post(
        f"/tournaments/{tid}/tables/1/result", {"home_score": 243, "away_score": 243}
    )
    assert done["status"] == "done" and done["winner"] is None
    only, _ = await make_tournament(org, 2, settings={"match": {"kind": "target"}}, clubs=0)
    await org.post(f"/tournaments/{only['id']}/rounds", status=201)
    await org.post(f"/tournaments/{only['id']}/rounds/1/publish")
    await org.post(
        f"/tournaments/{only['id']}/tables/1/result", {"home_score": 243, "away_score": 200}, 422
    )
