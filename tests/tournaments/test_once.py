"""Championship day under double taps and races (issue 19 §1): every change of a
tournament, fired twenty times at once (the same request: the same form token or the
same ``Idempotency-Key``), happens once and every copy gets the first answer; fired at
once without a key, the copies run one after the other (the tournament's write lock)
and each is either done or refused with a clear 409, never a 500. The data is counted
in the database: one deal, one set of rooms, one team per player.

On PostgreSQL (CI) the twenty requests truly race on their own connections; on SQLite
they queue on the database's write lock. Expected values come from the scenario, not
from the code: a Bolot paper table to 300 points (rules/bolot.md §8) is not over after
one deal of at most 162 + 20 points; four teams of a round robin make two tables.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from app.rooms.models import Room
from app.tournaments.models import PaperDeal, Team, TeamPlayer
from tests.conftest import Guest
from tests.tournaments.conftest import Org, bolot_deal, make_tournament, winning_deal

N = 20
KEY_FIELD = re.compile(r'name="creation_key" value="([^"]+)"')


async def _count(app: Any, model: Any, *where: Any) -> int:
    async with app.state.sessionmaker() as db:
        return int(await db.scalar(select(func.count()).select_from(model).where(*where)) or 0)


async def _at_once(
    org: Org, method: str, path: str, body: Any = None, key: str | None = None, n: int = N
) -> list[httpx.Response]:
    """``n`` copies of one API request sent at once; none may be a 500."""
    headers = dict(org.headers)
    if key:
        headers["Idempotency-Key"] = key
    kw: dict[str, Any] = {"headers": headers}
    if method != "GET":
        kw["json"] = body if body is not None else {}
    answers = await asyncio.gather(
        *(org.client.request(method, "/api" + path, **kw) for _ in range(n))
    )
    assert all(a.status_code < 500 for a in answers), [a.text for a in answers]
    return list(answers)


def _one_answer(answers: list[httpx.Response], status: int) -> Any:
    """Every copy got the same answer (status and body); returns the body."""
    assert {a.status_code for a in answers} == {status}, [a.text for a in answers][:3]
    bodies = [a.json() for a in answers]
    assert all(b == bodies[0] for b in bodies), bodies[:2]
    return bodies[0]


async def _audit(org: Org, tid: int, action: str) -> int:
    return sum(1 for e in await org.get(f"/tournaments/{tid}/audit") if e["action"] == action)


async def _paper_round(org: Org, teams: int = 4, settings: dict[str, Any] | None = None) -> int:
    t, _ = await make_tournament(org, teams, settings=settings)
    tid = int(t["id"])
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    await org.post(f"/tournaments/{tid}/rounds/1/publish")
    return tid


async def _online_round(org: Org, teams: int = 4) -> int:
    t = await org.post(
        "/tournaments",
        {"name": "En línia", "game": "bolot", "settings": {"play": "online"}},
        201,
    )
    tid = int(t["id"])
    for i in range(teams):
        await org.post(f"/tournaments/{tid}/teams", {"name": f"Bots {i}", "bot": "heuristic"}, 201)
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    return tid


# ---------------------------------------------------------------- paper deals


async def test_twenty_copies_of_one_deal_record_one_deal(org: Org, app: Any) -> None:
    tid = await _paper_round(org)
    summary = bolot_deal(random.Random(7))
    answers = await _at_once(
        org,
        "POST",
        f"/tournaments/{tid}/tables/1/deals",
        {"summary": summary},
        key="deal-table1-0001",
    )
    sheet = _one_answer(answers, 201)
    assert [line["deal"] for line in sheet["deals"]] == [1]
    assert await _count(app, PaperDeal) == 1
    # a new key is a new deal (deal 2): the key is what makes a copy
    again = await org.client.post(
        f"/api/tournaments/{tid}/tables/1/deals",
        json={"summary": summary},
        headers={**org.headers, "Idempotency-Key": "deal-table1-0002"},
    )
    assert again.status_code == 201 and len(again.json()["deals"]) == 2


async def test_twenty_deals_without_a_key_are_numbered_in_turn(org: Org, app: Any) -> None:
    """Without a key each copy is a deal of its own (the API cannot tell), but they
    queue: deals 1..n with no number twice, and once the match is over a clear 409."""
    tid = await _paper_round(org)
    answers = await _at_once(
        org, "POST", f"/tournaments/{tid}/tables/1/deals", {"summary": winning_deal(0)}
    )
    made = [a for a in answers if a.status_code == 201]
    assert {a.status_code for a in answers} <= {201, 409}
    # each such deal gives team 0 its 100 card points at least: 300 is reached by deal 3,
    # and the deals after the match is over are refused
    assert 1 <= len(made) <= 3
    async with app.state.sessionmaker() as db:
        numbers = sorted((await db.scalars(select(PaperDeal.deal_no))).all())
    assert numbers == list(range(1, len(made) + 1))


async def test_the_deal_form_tapped_twice_records_one_deal(
    org: Org, client: httpx.AsyncClient, app: Any
) -> None:
    tid = await _paper_round(org)
    page = (await client.get(f"/tournaments/{tid}/tables/1", headers=org.headers)).text
    form = _form(page, "/deals")
    form["summary"] = json.dumps(bolot_deal(random.Random(3)))
    first = await client.post(f"/tournaments/{tid}/tables/1/deals", data=form, headers=org.headers)
    second = await client.post(f"/tournaments/{tid}/tables/1/deals", data=form, headers=org.headers)
    assert first.status_code == second.status_code == 303
    assert first.headers["location"] == second.headers["location"]
    taps = await asyncio.gather(
        *(
            client.post(f"/tournaments/{tid}/tables/1/deals", data=form, headers=org.headers)
            for _ in range(N)
        )
    )
    assert {t.status_code for t in taps} == {303}
    assert await _count(app, PaperDeal) == 1


def _form(page: str, action_end: str) -> dict[str, str]:
    """The csrf and one-time key of the page's form whose action ends with ``action_end``."""
    for match in re.finditer(r'<form method="post" action="([^"]+)"(.*?)</form>', page, re.S):
        if match.group(1).endswith(action_end):
            body = match.group(2)
            csrf = re.search(r'name="csrf" value="([^"]+)"', body)
            key = KEY_FIELD.search(body)
            assert csrf and key, "the form carries a csrf token and a one-time key"
            return {"csrf": csrf.group(1), "creation_key": key.group(1)}
    raise AssertionError(f"no form ending {action_end}")


# ---------------------------------------------------------------- rounds


async def test_twenty_copies_of_one_publish_make_one_set_of_rooms(org: Org, app: Any) -> None:
    tid = await _online_round(org)
    answers = await _at_once(
        org, "POST", f"/tournaments/{tid}/rounds/1/publish", key="publish-round-1"
    )
    out = _one_answer(answers, 200)
    rooms = [x["room_id"] for x in out["tables"]]
    assert all(rooms) and len(set(rooms)) == 2
    assert await _count(app, Room) == 2
    assert await _audit(org, tid, "publish") == 1


async def test_twenty_publishes_without_a_key_make_one_set_of_rooms(org: Org, app: Any) -> None:
    tid = await _online_round(org)
    answers = await _at_once(org, "POST", f"/tournaments/{tid}/rounds/1/publish")
    assert sorted(a.status_code for a in answers) == [200] + [409] * (N - 1)
    assert await _count(app, Room) == 2  # two tables, one room each: nobody sits twice
    refused = next(a for a in answers if a.status_code == 409)
    assert "not a draft" in refused.json()["detail"]


async def test_a_publish_refused_halfway_leaves_no_room(
    org: Org, app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second table's seating fails after the first room was made and seated: the
    rooms made are deleted, the round is a draft again, a new publish works."""
    from app.core.errors import Conflict
    from app.tournaments import rounds

    tid = await _online_round(org)
    real = rounds.rooms.take_seat
    calls = {"n": 0}

    async def flaky(*args: Any, **kw: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 6:  # table 2, second seat
            raise Conflict("seat 1 is taken", "seat_taken", seat=1)
        return await real(*args, **kw)

    monkeypatch.setattr(rounds.rooms, "take_seat", flaky)
    keyed = {**org.headers, "Idempotency-Key": "publish-try-1"}
    path = f"/api/tournaments/{tid}/rounds/1/publish"
    refused = await org.client.post(path, headers=keyed)
    assert refused.status_code == 409
    assert await _count(app, Room) == 0
    info = await org.get(f"/tournaments/{tid}")
    assert info["status"] == "registration" and info["rounds"][0]["status"] == "draft"
    monkeypatch.setattr(rounds.rooms, "take_seat", real)
    done = await org.client.post(path, headers=keyed)  # the refused key is free again
    assert done.status_code == 200, done.text
    assert all(x["room_id"] for x in done.json()["tables"]) and await _count(app, Room) == 2


async def test_twenty_pairings_at_once_leave_one_draft(org: Org) -> None:
    t, _ = await make_tournament(org, 4)
    tid = t["id"]
    answers = await _at_once(org, "POST", f"/tournaments/{tid}/rounds")
    assert {a.status_code for a in answers} == {201}  # each pairs again, in turn
    assert all(len(a.json()["tables"]) == 2 for a in answers)  # four teams: two tables
    info = await org.get(f"/tournaments/{tid}")
    assert info["rounds"] == [{"number": 1, "stage": "league", "status": "draft"}]
    keyed = await _at_once(org, "POST", f"/tournaments/{tid}/rounds", key="pair-round-1")
    _one_answer(keyed, 201)


async def test_a_pairing_answers_the_draft_it_made_though_the_next_replaces_it(
    org: Org, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each pairing answers its own draft with its tables, read before the next pairing,
    waiting for the tournament's lock, deletes it (a fresh tester saw six pairings at once
    answered partly with no table). The reading is slowed so that the next one runs."""
    from app.tournaments import rounds

    real = rounds.tables_in

    async def slow(db: Any, round_id: int) -> Any:
        await asyncio.sleep(0.2)
        return await real(db, round_id)

    monkeypatch.setattr(rounds, "tables_in", slow)
    t, _ = await make_tournament(org, 4)
    answers = await _at_once(org, "POST", f"/tournaments/{t['id']}/rounds", n=3)
    assert [a.status_code for a in answers] == [201] * 3
    assert [len(a.json()["tables"]) for a in answers] == [2] * 3  # four teams: two tables


async def test_twenty_closes_close_once(org: Org) -> None:
    tid = await _paper_round(org, teams=2)
    await org.post(f"/tournaments/{tid}/tables/1/result", {"home_score": 300, "away_score": 120})
    answers = await _at_once(org, "POST", f"/tournaments/{tid}/rounds/1/close", key="close-round-1")
    assert _one_answer(answers, 200)["status"] == "closed"
    assert await _audit(org, tid, "close") == 1


async def test_twenty_closes_without_a_key_one_done_the_rest_refused(org: Org) -> None:
    tid = await _paper_round(org, teams=2)
    await org.post(f"/tournaments/{tid}/tables/1/result", {"home_score": 300, "away_score": 120})
    answers = await _at_once(org, "POST", f"/tournaments/{tid}/rounds/1/close")
    assert sorted(a.status_code for a in answers) == [200] + [409] * (N - 1)
    assert await _audit(org, tid, "close") == 1


async def test_twenty_table_mode_switches_answer_alike(org: Org) -> None:
    tid = await _online_round(org)
    answers = await _at_once(
        org,
        "PUT",
        f"/tournaments/{tid}/rounds/1/tables/1/mode",
        {"mode": "paper"},
        key="mode-table-1",
    )
    out = _one_answer(answers, 200)
    assert [x["mode"] for x in out["tables"]] == ["paper", "online"]


# ---------------------------------------------------------------- results


async def test_twenty_copies_of_a_result_one_audit_entry(org: Org) -> None:
    tid = await _paper_round(org)
    answers = await _at_once(
        org,
        "POST",
        f"/tournaments/{tid}/tables/1/result",
        {"home_score": 300, "away_score": 120},
        key="result-1",
    )
    _one_answer(answers, 200)
    assert await _audit(org, tid, "result") == 1


async def test_twenty_copies_of_a_correction_one_audit_entry(org: Org, app: Any) -> None:
    tid = await _paper_round(org)
    await org.post(f"/tournaments/{tid}/tables/1/deals", {"summary": winning_deal(0)}, 201)
    answers = await _at_once(
        org,
        "PUT",
        f"/tournaments/{tid}/tables/1/deals/1",
        {"summary": winning_deal(1), "reason": "wrong taker"},
        key="fix-deal-1",
    )
    _one_answer(answers, 200)
    assert await _audit(org, tid, "correction") == 1
    assert await _count(app, PaperDeal) == 1


async def test_twenty_copies_of_finish_one_result(org: Org) -> None:
    # a match to a target does not finish at its totals (issue 19 §2): a time limit does
    tid = await _paper_round(org, settings={"match": {"kind": "time", "minutes": 45}})
    await org.post(f"/tournaments/{tid}/tables/1/deals", {"summary": winning_deal(0)}, 201)
    answers = await _at_once(org, "POST", f"/tournaments/{tid}/tables/1/finish", {}, key="finish-1")
    assert _one_answer(answers, 200)["status"] == "done"
    assert await _audit(org, tid, "result") == 1
    plain = await _at_once(org, "POST", f"/tournaments/{tid}/tables/2/finish", {})
    assert sorted(a.status_code for a in plain) == [200] + [409] * (N - 1)


# ---------------------------------------------------------------- teams


async def _players(client: httpx.AsyncClient, guest: Guest, *names: str) -> list[int]:
    ids = []
    for name in names:
        headers = await guest(name)
        ids.append((await client.get("/api/me", headers=headers)).json()["id"])
    return ids


async def test_twenty_teams_racing_for_one_player_one_gets_them(
    org: Org, client: httpx.AsyncClient, guest: Guest, app: Any
) -> None:
    pepa, vicent = await _players(client, guest, "Pepa", "Vicent")
    t = await org.post("/tournaments", {"name": "Lliga", "game": "bolot"}, 201)
    tid = t["id"]
    answers = await asyncio.gather(
        *(
            org.client.post(
                f"/api/tournaments/{tid}/teams",
                json={"name": f"Equip {i}", "user_ids": [pepa, vicent]},
                headers=org.headers,
            )
            for i in range(N)
        )
    )
    assert sorted(a.status_code for a in answers) == [201] + [409] * (N - 1)
    assert await _count(app, Team) == 1
    assert await _count(app, TeamPlayer, TeamPlayer.user_id == pepa) == 1


async def test_twenty_teams_racing_for_one_name_whatever_the_case(org: Org, app: Any) -> None:
    t = await org.post("/tournaments", {"name": "Lliga", "game": "bolot"}, 201)
    tid = t["id"]
    spellings = ["Els Cantons", "ELS CANTONS", "els cantons", "Els  cantons"]
    answers = await asyncio.gather(
        *(
            org.client.post(
                f"/api/tournaments/{tid}/teams",
                json={"name": spellings[i % 4], "players": [f"A{i}", f"B{i}"]},
                headers=org.headers,
            )
            for i in range(N)
        )
    )
    assert sorted(a.status_code for a in answers) == [201] + [409] * (N - 1)
    assert await _count(app, Team) == 1


async def test_twenty_copies_of_one_team_entry_one_team(org: Org, app: Any) -> None:
    t = await org.post("/tournaments", {"name": "Lliga", "game": "bolot"}, 201)
    answers = await _at_once(
        org, "POST", f"/tournaments/{t['id']}/teams", {"name": "Parella"}, key="team-parella-1"
    )
    _one_answer(answers, 201)
    assert await _count(app, Team) == 1


async def test_the_team_form_tapped_twice_enters_one_team(
    org: Org, client: httpx.AsyncClient, app: Any
) -> None:
    t = await org.post("/tournaments", {"name": "Lliga", "game": "bolot"}, 201)
    tid = t["id"]
    page = (await client.get(f"/tournaments/{tid}/manage", headers=org.headers)).text
    form = {**_form(page, f"/tournaments/{tid}/teams"), "name": "Ana & Berto"}
    taps = [
        await client.post(f"/tournaments/{tid}/teams", data=form, headers=org.headers)
        for _ in range(2)
    ]
    assert [t.status_code for t in taps] == [303, 303]  # the second goes where the first went
    assert await _count(app, Team) == 1


async def test_twenty_withdrawals_one_withdrawal(org: Org) -> None:
    t, teams = await make_tournament(org, 4)
    tid = t["id"]
    path = f"/tournaments/{tid}/teams/{teams[0]['id']}/withdraw"
    _one_answer(
        await _at_once(org, "POST", path, {"remaining": "forfeit"}, key="withdraw-team-1"), 200
    )
    assert await _audit(org, tid, "withdraw") == 1
    plain = await _at_once(org, "POST", f"/tournaments/{tid}/teams/{teams[1]['id']}/withdraw")
    assert sorted(a.status_code for a in plain) == [200] + [409] * (N - 1)


async def test_a_team_entered_during_the_preview_throws_it_away(org: Org) -> None:
    """Three teams: the preview of round 1 has a bye. A fourth team is entered: the
    preview is thrown away (publishing it says so), and pairing again gives two tables
    and no bye."""
    t, _ = await make_tournament(org, 3, fmt="swiss", settings={"rounds": 2})
    tid = t["id"]
    draft = await org.post(f"/tournaments/{tid}/rounds", status=201)
    assert any(x["away"] is None for x in draft["tables"])
    await org.post(f"/tournaments/{tid}/teams", {"name": "Tard", "players": ["X", "Y"]}, 201)
    refused = await org.client.post(f"/api/tournaments/{tid}/rounds/1/publish", headers=org.headers)
    assert refused.status_code == 409 and "pair the round again" in refused.json()["detail"]
    again = await org.post(f"/tournaments/{tid}/rounds", status=201)
    assert len(again["tables"]) == 2 and all(x["away"] for x in again["tables"])


# ---------------------------------------------------------------- clubs, tournaments, organisers


async def test_twenty_copies_of_a_new_tournament_one_tournament(org: Org) -> None:
    answers = await _at_once(
        org, "POST", "/tournaments", {"name": "Lliga", "game": "bolot"}, key="new-lliga-01"
    )
    _one_answer(answers, 201)
    assert len(await org.get("/tournaments")) == 1


async def test_twenty_copies_of_a_new_club(org: Org) -> None:
    answers = await _at_once(
        org, "POST", "/clubs", {"name": "Falla Major", "town": "Sagunt"}, key="club-major-1"
    )
    _one_answer(answers, 201)
    plain = await _at_once(org, "POST", "/clubs", {"name": "Falla Menor", "town": "Sagunt"})
    assert sorted(a.status_code for a in plain) == [201] + [409] * (N - 1)
    assert len(await org.get("/clubs")) == 2


async def test_twenty_copies_of_a_new_organiser(org: Org, client: httpx.AsyncClient) -> None:
    from tests.tournaments.conftest import account

    amparo = await account(client, "amparo")  # organisers are registered accounts
    other = (await client.get("/api/me", headers=amparo)).json()["id"]
    t = await org.post("/tournaments", {"name": "Lliga", "game": "bolot"}, 201)
    path = f"/tournaments/{t['id']}/organisers"
    _one_answer(await _at_once(org, "POST", path, {"user_id": other}, key="org-amparo"), 200)
    plain = await _at_once(org, "POST", path, {"user_id": other})
    assert {a.status_code for a in plain} == {200}
    assert len((await org.get(f"/tournaments/{t['id']}"))["organisers"]) == 2


async def test_a_key_is_one_persons_and_one_requests(org: Org, client: httpx.AsyncClient) -> None:
    from tests.tournaments.conftest import account

    t = await org.post("/tournaments", {"name": "Lliga", "game": "bolot"}, 201)
    keyed = {**org.headers, "Idempotency-Key": "my-key-0001"}
    made = await client.post(f"/api/tournaments/{t['id']}/teams", json={"name": "A"}, headers=keyed)
    assert made.status_code == 201
    other = await client.post(f"/api/tournaments/{t['id']}/rounds", headers=keyed)
    assert other.status_code == 409  # the key of another kind of request
    stranger = await account(client, "estrany")
    theirs = await client.post(
        "/api/tournaments",
        json={"name": "B", "game": "bolot"},
        headers={**stranger, "Idempotency-Key": "my-key-0001"},
    )
    assert theirs.status_code == 409
    bad = await client.post(
        "/api/tournaments",
        json={"name": "B", "game": "bolot"},
        headers={**org.headers, "Idempotency-Key": "x y"},
    )
    assert bad.status_code == 422


# ---------------------------------------------------------------- the forms


async def test_every_organiser_form_carries_its_own_one_time_key(
    org: Org, client: httpx.AsyncClient
) -> None:
    tid = await _paper_round(org)
    await org.post(f"/tournaments/{tid}/tables/1/deals", {"summary": winning_deal(0)}, 201)
    keys: list[str] = []
    for path in ("/tournaments", f"/tournaments/{tid}/manage", f"/tournaments/{tid}/tables/1"):
        page = (await client.get(path, headers=org.headers)).text
        forms = re.findall(
            r'<form method="post" action="/(?:tournaments|clubs).*?</form>', page, re.S
        )
        assert forms, path
        for form in forms:
            key = KEY_FIELD.search(form)
            assert key, (path, form[:120])
            keys.append(key.group(1))
    assert len(set(keys)) == len(keys)  # one key per form shown


async def test_the_publish_form_tapped_twenty_times_makes_one_set_of_rooms(
    org: Org, client: httpx.AsyncClient, app: Any
) -> None:
    tid = await _online_round(org)
    page = (await client.get(f"/tournaments/{tid}/manage", headers=org.headers)).text
    form = _form(page, "/rounds/1/publish")
    taps = await asyncio.gather(
        *(
            client.post(f"/tournaments/{tid}/rounds/1/publish", data=form, headers=org.headers)
            for _ in range(N)
        )
    )
    assert {t.status_code for t in taps} == {303}, [
        t.text[:200] for t in taps if t.status_code != 303
    ]
    assert await _count(app, Room) == 2


async def test_the_new_tournament_form_tapped_twice_makes_one(
    org: Org, client: httpx.AsyncClient
) -> None:
    page = (await client.get("/tournaments", headers=org.headers)).text
    form = {
        **_form(page, "/tournaments"),
        "name": "Lliga",
        "game": "bolot",
        "format": "swiss",
        "target": "500",
    }
    taps = [await client.post("/tournaments", data=form, headers=org.headers) for _ in range(2)]
    assert [t.status_code for t in taps] == [303, 303]
    assert taps[0].headers["location"] == taps[1].headers["location"]  # the same one's page
    assert len(await org.get("/tournaments")) == 1
