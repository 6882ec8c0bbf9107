"""Belote contrée on paper: the score calculator (POST /api/games/contree/score) and a
championship whose deals are entered from score sheets, as JSON and through the form's
fields (rules/contree.md §8-9). Expected points are rules/contree.md §11's."""

from __future__ import annotations

import httpx
import pytest

from app.core.errors import Unprocessable
from app.tournaments.pages import deal_form, summary_from_fields
from tests.tournaments.conftest import Org, make_tournament
from tests.tournaments.test_final_score import _browser, _published


def c1(bid: int = 100, coinche: int = 0) -> dict:
    """§11 C1: team 0 bids 100 hearts, card points [97, 55], tricks [5, 3], last trick 0."""
    return {
        "contract": {
            "trump": "H",
            "taker_team": 0,
            "bid": bid,
            "coinche": coinche,
            "eldest_team": 1,
        },
        "card_points": [97, 55],
        "tricks": [5, 3],
        "last_trick_team": 0,
        "declarations": [[], []],
        "belote": [0, 0],
    }


async def test_the_calculator_scores_contree_under_each_preset(client: httpx.AsyncClient) -> None:
    for preset, points in (("ffb", [210, 60]), ("coinche", [207, 55]), ("colver", [207, 55])):
        r = await client.post(
            "/api/games/contree/score", json={"options": {"preset": preset}, "summary": c1()}
        )
        assert r.status_code == 200 and r.json()["points"] == points
    # C5 under ffb: 90 coinched and made, (160 + 90) x 2 = 500
    summary = c1(90, 1)
    summary["card_points"] = [95, 57]
    r = await client.post("/api/games/contree/score", json={"options": {}, "summary": summary})
    assert r.json()["points"] == [500, 0]
    bad = await client.post("/api/games/contree/score", json={"options": {}, "summary": c1(85)})
    assert bad.status_code == 422 and "multiple of 10" in bad.json()["detail"]


def test_the_form_fields_build_a_contree_summary() -> None:
    form = {
        "f_trump": "H",
        "f_taker": "0",
        "f_tricks0": "5",
        "f_tricks1": "3",
        "f_cp0": "97",
        "f_cp1": "55",
        "f_last": "0",
        "f_belote": "",
        "f_bid": "100",
        "f_coinche": "0",
        "f_eldest": "1",
    }
    summary = summary_from_fields("contree", form)
    assert summary["contract"] == {
        "trump": "H",
        "taker_team": 0,
        "bid": 100,
        "coinche": 0,
        "eldest_team": 1,
    }
    assert summary_from_fields("contree", {**form, "f_bid": "Capot"})["contract"]["bid"] == "capot"


async def test_a_paper_contree_championship_table_reaches_the_target(org: Org) -> None:
    t, teams = await make_tournament(org, 2, game="contree", options={"target": 1000}, clubs=2)
    tid = t["id"]
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    await org.post(f"/tournaments/{tid}/rounds/1/publish")
    # C5 (ffb): 500 a deal to the home team; 1000 is reached after two deals (§9 "reach")
    summary = c1(90, 1)
    summary["card_points"] = [95, 57]
    first = await org.post(f"/tournaments/{tid}/tables/1/deals", {"summary": summary}, 201)
    assert first["status"] != "done" and first["deals"][-1]["points"] == [500, 0]
    second = await org.post(f"/tournaments/{tid}/tables/1/deals", {"summary": summary}, 201)
    assert second["status"] == "done" and (second["home_score"], second["away_score"]) == (1000, 0)
    assert second["winner"] == teams[0]["id"]


def test_a_generale_takes_the_bidder_s_tricks_from_its_field() -> None:
    """rules/contree.md §8: a *générale* also gives ``bidder_tricks``; the form has a field
    for it (typed "générale" or "generale"), needed only with that bid."""
    form = {
        "f_trump": "H",
        "f_taker": "0",
        "f_tricks0": "8",
        "f_tricks1": "0",
        "f_cp0": "152",
        "f_cp1": "0",
        "f_last": "0",
        "f_bid": "Générale",
        "f_bidder_tricks": "6",
        "f_coinche": "0",
    }
    contract = summary_from_fields("contree", form)["contract"]
    assert contract["bid"] == "generale" and contract["bidder_tricks"] == 6
    with pytest.raises(Unprocessable, match="the bidder's tricks is missing"):
        summary_from_fields("contree", {**form, "f_bidder_tricks": ""})
    # another bid leaves the field out of the summary
    assert (
        "bidder_tricks"
        not in summary_from_fields("contree", {**form, "f_bid": "capot"})["contract"]
    )
    # the field is offered when option generale allows the bid (§10, off by default)
    assert deal_form("contree", {"generale": True})["bidder_tricks"]
    assert not deal_form("contree", {})["bidder_tricks"]
    assert not deal_form("contree", None)["bidder_tricks"]
    assert not deal_form("belote", {})["bidder_tricks"]


async def test_a_generale_entered_through_the_form_fields(client: httpx.AsyncClient) -> None:
    """§11 C22 (`ffb`, `generale`): a *générale* made, bidder_tricks 8, cp [152, 0]: flat
    2 × 500 = 1000 to team 0 ([1000, 0]), entered through the fields, not the JSON box."""
    headers, token = await _browser(client)
    tid, _ = await _published(
        Org(client, headers), game="contree", options={"generale": True, "target": 2000}
    )
    page = await client.get(f"/tournaments/{tid}/tables/1")
    assert 'name="f_bidder_tricks"' in page.text and '<option value="generale">' in page.text
    fields = {
        "csrf": token,
        "round": "1",
        "entry": "fields",
        "f_trump": "H",
        "f_taker": "0",
        "f_last": "0",
        "f_belote": "",
        "f_tricks0": "8",
        "f_tricks1": "0",
        "f_cp0": "152",
        "f_cp1": "0",
        "f_bid": "générale",
        "f_bidder_tricks": "8",
        "f_coinche": "0",
    }
    posted = await client.post(f"/tournaments/{tid}/tables/1/deals", data=fields)
    assert posted.status_code < 400, posted.text[:500]
    table = (await client.get(f"/api/tournaments/{tid}/tables/1")).json()
    assert [d["points"] for d in table["deals"]] == [[1000, 0]]
    # C22 failed: the team took all 8 tricks, the bidder 6 of them: [0, 1000]
    posted = await client.post(
        f"/tournaments/{tid}/tables/1/deals", data={**fields, "f_bidder_tricks": "6"}
    )
    assert posted.status_code < 400, posted.text[:500]
    table = (await client.get(f"/api/tournaments/{tid}/tables/1")).json()
    assert [d["points"] for d in table["deals"]] == [[1000, 0], [0, 1000]]


async def test_no_generale_field_without_the_option(client: httpx.AsyncClient) -> None:
    headers, _token = await _browser(client)
    tid, _ = await _published(Org(client, headers), game="contree", options={})
    page = await client.get(f"/tournaments/{tid}/tables/1")
    assert 'name="f_bid"' in page.text and 'name="f_bidder_tricks"' not in page.text
