"""Running a championship through the API: withdrawals (forfeit or remove), corrections
with their audit trail, late entries in a Swiss, a knockout of six, groups then knockout."""

from __future__ import annotations

from tests.tournaments.conftest import Org, make_tournament, winning_deal


async def _play_round(org: Org, tid: int, number: int, home_wins: bool = True) -> dict:
    draft = await org.post(f"/tournaments/{tid}/rounds", status=201)
    assert draft["number"] == number
    await org.post(f"/tournaments/{tid}/rounds/{number}/publish")
    for x in draft["tables"]:
        if x["away"] and x["status"] == "pending":
            await org.post(
                f"/tournaments/{tid}/tables/{x['number']}/result",
                {"home_score": 300 if home_wins else 100, "away_score": 100 if home_wins else 300},
            )
    await org.post(f"/tournaments/{tid}/rounds/{number}/close")
    return draft


async def test_withdrawal_forfeits_the_remaining_round_robin_matches(org: Org) -> None:
    t, teams = await make_tournament(org, 4)
    tid = t["id"]
    await _play_round(org, tid, 1)
    gone = teams[3]["id"]
    await org.post(
        f"/tournaments/{tid}/teams/{gone}/withdraw", {"remaining": "forfeit", "reason": "illness"}
    )
    await org.post(f"/tournaments/{tid}/teams/{gone}/withdraw", {}, 409)
    draft = await org.post(f"/tournaments/{tid}/rounds", status=201)
    forfeits = [x for x in draft["tables"] if gone in (x["home"]["id"], x["away"]["id"])]
    assert len(forfeits) == 1 and forfeits[0]["forfeit"] and forfeits[0]["status"] == "done"
    assert forfeits[0]["winner"] != gone
    history = await org.get(f"/tournaments/{tid}/teams/{gone}")
    assert history["team"]["status"] == "withdrawn" and len(history["matches"]) == 1
    audit = await org.get(f"/tournaments/{tid}/audit")
    assert audit[0]["action"] == "withdraw" and audit[0]["reason"] == "illness"


async def test_withdrawal_mid_round_removes_the_match(org: Org) -> None:
    t, teams = await make_tournament(org, 4)
    tid = t["id"]
    draft = await org.post(f"/tournaments/{tid}/rounds", status=201)
    await org.post(f"/tournaments/{tid}/rounds/1/publish")
    gone = draft["tables"][0]["home"]["id"]
    await org.post(f"/tournaments/{tid}/teams/{gone}/withdraw", {"remaining": "remove"})
    rounds = await org.get(f"/tournaments/{tid}/rounds")
    assert rounds[0]["tables"][0]["status"] == "void"
    await org.post(f"/tournaments/{tid}/tables/2/result", {"home_score": 300, "away_score": 0})
    await org.post(f"/tournaments/{tid}/rounds/1/close")
    rows = (await org.get(f"/tournaments/{tid}/standings"))["rows"]
    assert sum(r["played"] for r in rows) == 2  # the removed match counts for nobody


async def test_corrections_need_a_reason_and_keep_an_audit_trail(org: Org) -> None:
    t, teams = await make_tournament(org, 2)
    tid = t["id"]
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    await org.post(f"/tournaments/{tid}/rounds/1/publish")
    for _ in range(3):
        sheet = await org.post(
            f"/tournaments/{tid}/tables/1/deals", {"summary": winning_deal(0)}, 201
        )
    assert sheet["status"] == "done" and sheet["home_score"] == 330 and sheet["away_score"] == 156
    await org.post(
        f"/tournaments/{tid}/tables/1/result", {"home_score": 330, "away_score": 160}, 422
    )
    fixed = await org.call(
        "PUT",
        f"/tournaments/{tid}/tables/1/deals/3",
        json={"summary": winning_deal(1), "reason": "sheet misread"},
    )
    assert fixed["home_score"] == 272 and fixed["away_score"] == 214  # 220 + 52, 104 + 110
    assert fixed["status"] == "playing"  # reopened: nobody at 300 yet
    await org.post(f"/tournaments/{tid}/tables/1/deals", {"summary": winning_deal(0)}, 201)
    await org.post(f"/tournaments/{tid}/rounds/1/close")
    result = await org.post(
        f"/tournaments/{tid}/tables/1/result",
        {"round": 1, "home_score": 330, "away_score": 400, "reason": "referee's decision"},
    )
    assert result["winner"] == teams[1]["id"]
    audit = await org.get(f"/tournaments/{tid}/audit")
    corrections = [a for a in audit if a["action"] == "correction"]
    assert len(corrections) == 2
    assert (
        corrections[0]["before"]["home_score"] == 382
        and corrections[0]["after"]["away_score"] == 400
    )
    assert (
        corrections[0]["user"] == "Organitzador"
        and corrections[0]["reason"] == "referee's decision"
    )
    rows = (await org.get(f"/tournaments/{tid}/standings"))["rows"]
    assert rows[0]["team"]["id"] == teams[1]["id"]


async def test_swiss_takes_late_entries_round_robin_does_not(org: Org) -> None:
    t, teams = await make_tournament(org, 4, fmt="swiss", settings={"rounds": 3})
    tid = t["id"]
    await _play_round(org, tid, 1)
    late = await org.post(f"/tournaments/{tid}/teams", {"name": "Tard", "players": ["A", "B"]}, 201)
    assert late["late"]
    draft = await org.post(f"/tournaments/{tid}/rounds", status=201)
    assert draft["tables"][-1]["away"] is None  # five teams: a bye
    assert draft["tables"][-1]["home"]["id"] == late["id"]  # the lowest-ranked team without one
    rr, _ = await make_tournament(org, 2, clubs=0)
    await _play_round(org, rr["id"], 1)
    await org.post(f"/tournaments/{rr['id']}/teams", {"name": "Tard"}, 409)


async def test_knockout_of_six_byes_to_top_seeds_then_to_the_final(org: Org) -> None:
    t, teams = await make_tournament(org, 6, fmt="knockout")
    tid = t["id"]
    first = await _play_round(org, tid, 1)
    byes = [x["home"]["id"] for x in first["tables"] if x["away"] is None]
    assert byes == [teams[0]["id"], teams[1]["id"]]
    second = await _play_round(org, tid, 2)
    assert len(second["tables"]) == 2
    final = await _play_round(org, tid, 3)
    assert len(final["tables"]) == 1
    assert (await org.get(f"/tournaments/{tid}"))["status"] == "finished"


async def test_level_knockout_match_needs_a_winner(org: Org) -> None:
    # a match to the target cannot end level (another deal is played): a fixed number of deals can
    t, teams = await make_tournament(
        org, 2, fmt="knockout", settings={"match": {"kind": "deals", "deals": 12}}
    )
    tid = t["id"]
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    await org.post(f"/tournaments/{tid}/rounds/1/publish")
    await org.post(
        f"/tournaments/{tid}/tables/1/result", {"home_score": 200, "away_score": 200}, 409
    )
    done = await org.post(
        f"/tournaments/{tid}/tables/1/result",
        {"home_score": 200, "away_score": 200, "winner": teams[1]["id"]},
    )
    assert done["winner"] == teams[1]["id"]


async def test_groups_then_knockout(org: Org) -> None:
    t, teams = await make_tournament(
        org, 8, fmt="groups_knockout", settings={"groups": 2, "advance": 2}
    )
    tid = t["id"]
    for n in (1, 2, 3):
        draft = await _play_round(org, tid, n)
        assert draft["stage"] == "group" and len(draft["tables"]) == 4
    semi = await _play_round(org, tid, 4)
    assert semi["stage"] == "knockout" and len(semi["tables"]) == 2
    data = await org.get(f"/tournaments/{tid}/standings")
    winners = {g["rows"][0]["team"]["id"] for g in data["groups"]}
    assert {x["home"]["id"] for x in semi["tables"]} == winners
    await _play_round(org, tid, 5)
    assert (await org.get(f"/tournaments/{tid}"))["status"] == "finished"
