"""A whole paper championship through the API: six Bolot pairs, a round robin, every
deal entered from the score sheets; then the standings, the club ranking and CSV."""

from __future__ import annotations

import csv
import io
import random

from tests.tournaments.conftest import Org, bolot_deal, make_tournament


async def test_six_bolot_teams_paper_round_robin_entered_deal_by_deal(org: Org) -> None:
    t, teams = await make_tournament(org, 6, options={"target": 300})
    tid = t["id"]
    rng = random.Random(7)
    for number in range(1, 6):
        draft = await org.post(f"/tournaments/{tid}/rounds", status=201)
        assert draft["status"] == "draft" and draft["number"] == number
        assert len(draft["tables"]) == 3
        # the public does not see the draft
        public = await org.client.get(f"/api/tournaments/{tid}/rounds")
        assert all(r["status"] != "draft" for r in public.json())
        await org.post(f"/tournaments/{tid}/rounds/{number}/publish")
        await org.post(f"/tournaments/{tid}/rounds/{number}/close", status=409)  # tables playing
        for table in draft["tables"]:
            status, deals = "pending", 0
            while status != "done":
                sheet = await org.post(
                    f"/tournaments/{tid}/tables/{table['number']}/deals",
                    {"summary": bolot_deal(rng)},
                    201,
                )
                status, deals = sheet["status"], deals + 1
                assert sum(line["points"][0] for line in sheet["deals"]) >= sheet["home_score"] - 0
                assert deals < 40
            assert max(sheet["home_score"], sheet["away_score"]) >= 300
            assert sheet["winner"] == (
                table["home"]["id"]
                if sheet["home_score"] > sheet["away_score"]
                else table["away"]["id"]
            )
            # the deal after the end is refused
            await org.post(
                f"/tournaments/{tid}/tables/{table['number']}/deals",
                {"summary": bolot_deal(rng)},
                409,
            )
        closed = await org.post(f"/tournaments/{tid}/rounds/{number}/close")
        assert closed["status"] == "closed"
    info = await org.get(f"/tournaments/{tid}")
    assert info["status"] == "finished"
    await org.post(f"/tournaments/{tid}/rounds", status=409)  # nothing left to pair

    data = await org.get(f"/tournaments/{tid}/standings")
    rows = data["rows"]
    assert len(rows) == 6
    assert all(r["played"] == 5 for r in rows)
    assert sum(r["won"] for r in rows) == 15
    assert sum(r["match_points"] for r in rows) == 30
    assert [r["match_points"] for r in rows] == sorted(
        (r["match_points"] for r in rows), reverse=True
    )
    assert data["order"][0] == "match points" and "head-to-head" in data["order"][1]
    assert sum(c["match_points"] for c in data["clubs"]) == 30
    assert {c["club"]["name"] for c in data["clubs"]} == {"Falla 1", "Falla 2", "Falla 3"}

    history = await org.get(f"/tournaments/{tid}/teams/{teams[0]['id']}")
    assert len(history["matches"]) == 5
    assert {m["opponent"]["id"] for m in history["matches"]} == {x["id"] for x in teams[1:]}

    text = (await org.get(f"/tournaments/{tid}/standings.csv")).removeprefix("\ufeff")
    table = list(csv.reader(io.StringIO(text)))
    assert table[0][:3] == ["rank", "team", "club"] and len(table) == 7
    results = list(
        csv.reader(
            io.StringIO((await org.get(f"/tournaments/{tid}/results.csv")).removeprefix("\ufeff"))
        )
    )
    assert len(results) == 1 + 15

    sheet = await org.get(f"/tournaments/{tid}/tables/1?round=1")
    assert sheet["deals"] and sheet["deals"][-1]["totals_after"][0] >= 0


async def test_impossible_deal_is_refused_with_the_engines_reason(org: Org) -> None:
    t, _ = await make_tournament(org, 2)
    await org.post(f"/tournaments/{t['id']}/rounds", status=201)
    await org.post(f"/tournaments/{t['id']}/rounds/1/publish")
    bad = {
        "contract": {"trump": "o", "taker_team": 0},
        "card_points": [100, 40],
        "tricks": [5, 3],
        "last_trick_team": 0,
    }
    response = await org.client.post(
        f"/api/tournaments/{t['id']}/tables/1/deals", json={"summary": bad}, headers=org.headers
    )
    assert response.status_code == 422
    assert "deal 1" in response.json()["detail"] and "152" in response.json()["detail"]
