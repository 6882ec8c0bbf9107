"""Players register their teams, the organisers approve (issue 19 §4; docs/tournaments.md
"Players register their teams"): the setting, the request, its refusals, the approval
that enters the team by the organisers' own path, the decline's private reason, the
withdrawal, and twenty copies of each write at once (one request, one team).

Expected values come from the rules as the docs state them: a Bolot team has two
players (four seats, fixed pairs), Belote for two and for three one player a team; a
round robin takes no entry once started, a Swiss does (a late entry)."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from app.tournaments.models import Team, TeamPlayer, TeamRequest
from tests.conftest import Guest
from tests.tournaments.conftest import Org, account

N = 20
KEY_FIELD = re.compile(r'name="creation_key" value="([^"]+)"')


async def _count(app: Any, model: Any, *where: Any) -> int:
    async with app.state.sessionmaker() as db:
        return int(await db.scalar(select(func.count()).select_from(model).where(*where)) or 0)


async def _player(client: httpx.AsyncClient, username: str) -> Org:
    """A registered player's client (``Org`` only for its call helpers)."""
    return Org(client, await account(client, username))


async def _me(p: Org) -> int:
    return int((await p.get("/me"))["id"])


async def _open_tournament(
    org: Org, game: str = "bolot", fmt: str = "round_robin", **settings: Any
) -> int:
    t = await org.post(
        "/tournaments",
        {
            "name": "Lliga de penyes",
            "game": game,
            "format": fmt,
            "settings": {"self_registration": True, **settings},
        },
        201,
    )
    return int(t["id"])


async def _audit_actions(who: Org, tid: int) -> list[str]:
    return [e["action"] for e in await who.get(f"/tournaments/{tid}/audit")]


# ---------------------------------------------------------------- the setting


async def test_players_registration_is_off_unless_the_organiser_turns_it_on(
    org: Org, client: httpx.AsyncClient
) -> None:
    t = await org.post("/tournaments", {"name": "Lliga", "game": "bolot"}, 201)
    assert "self_registration" not in t["settings"]
    pepa = await _player(client, "pepa")
    await _player(client, "vicent")
    refused = await pepa.post(f"/tournaments/{t['id']}/requests", {"partner": "vicent"}, status=409)
    assert "cannot register teams" in refused["detail"]
    opened = await org.call("PUT", f"/tournaments/{t['id']}/registration", json={"open": True})
    assert opened["settings"]["self_registration"] is True
    made = await pepa.post(f"/tournaments/{t['id']}/requests", {"partner": "vicent"}, status=201)
    assert made["status"] == "pending"
    closed = await org.call("PUT", f"/tournaments/{t['id']}/registration", json={"open": False})
    assert "self_registration" not in closed["settings"]
    assert (await _audit_actions(org, t["id"]))[:2] == ["registration_closed", "team_request"]


async def test_the_setting_is_true_or_false(org: Org) -> None:
    bad = await org.post(
        "/tournaments",
        {"name": "L", "game": "bolot", "settings": {"self_registration": "yes"}},
        422,
    )
    assert "true or false" in bad["detail"]


async def test_only_organisers_open_the_registration(org: Org, client: httpx.AsyncClient) -> None:
    tid = await _open_tournament(org)
    pepa = await _player(client, "pepa")
    await pepa.call("PUT", f"/tournaments/{tid}/registration", 403, json={"open": False})


# ---------------------------------------------------------------- request and approval


async def test_an_approved_request_enters_the_team_as_an_organiser_would(
    org: Org, client: httpx.AsyncClient, app: Any
) -> None:
    club = await org.post("/clubs", {"name": "Falla Sant Roc", "kind": "falla"}, 201)
    tid = await _open_tournament(org, fmt="swiss")
    for i in range(2):
        await org.post(f"/tournaments/{tid}/teams", {"name": f"Parella {i + 1}"}, 201)
    await org.post(f"/tournaments/{tid}/rounds", status=201)  # a preview is open
    pepa = await _player(client, "pepa")
    vicent = await _player(client, "vicent")
    pepa_id, vicent_id = await _me(pepa), await _me(vicent)
    r = await pepa.post(
        f"/tournaments/{tid}/requests",
        {"name": "Els Cantons", "partner": " Vicent ", "club_id": club["id"]},
        201,
    )
    assert (r["name"], r["requester"], r["partner"], r["club"], r["status"]) == (
        "Els Cantons",
        "Pepa",
        "Vicent",
        "Falla Sant Roc",
        "pending",
    )
    assert await _count(app, Team) == 2  # nothing entered before the approval
    # the partner sees the request naming them; the organiser sees it pending
    assert [x["id"] for x in await vicent.get(f"/tournaments/{tid}/requests")] == [r["id"]]
    assert [x["id"] for x in await org.get(f"/tournaments/{tid}/requests")] == [r["id"]]
    done = await org.post(f"/tournaments/{tid}/requests/{r['id']}/approve")
    assert done["status"] == "approved"
    team = await org.get(f"/tournaments/{tid}/teams/{done['team_id']}")
    assert team["team"]["name"] == "Els Cantons"
    assert team["team"]["players"] == ["Pepa", "Vicent"]
    assert team["team"]["user_ids"] == [pepa_id, vicent_id]
    assert team["team"]["club_id"] == club["id"]
    assert team["team"]["seed"] == 3  # after the two teams entered before
    assert await _count(app, TeamPlayer, TeamPlayer.user_id.in_([pepa_id, vicent_id])) == 2
    # the preview paired without this team is thrown away, as for an organiser's entry
    assert [x["status"] for x in await org.get(f"/tournaments/{tid}/rounds")] == []
    assert (await _audit_actions(org, tid))[:3] == ["request_approved", "team", "team_request"]
    # the requester reads the state on the championship page's API
    mine = await pepa.get(f"/tournaments/{tid}/requests")
    assert [(x["status"], x["team_id"]) for x in mine] == [("approved", done["team_id"])]


async def test_approving_twice_enters_one_team(
    org: Org, client: httpx.AsyncClient, app: Any
) -> None:
    tid = await _open_tournament(org)
    pepa = await _player(client, "pepa")
    await _player(client, "vicent")
    r = await pepa.post(f"/tournaments/{tid}/requests", {"partner": "vicent"}, 201)
    first = await org.post(f"/tournaments/{tid}/requests/{r['id']}/approve")
    second = await org.post(f"/tournaments/{tid}/requests/{r['id']}/approve")
    assert first == second
    assert first["name"] == "Pepa & Vicent"  # the default name: both nicknames
    assert await _count(app, Team) == 1


async def test_a_decline_reason_is_for_the_requester_and_the_organisers_only(
    org: Org, client: httpx.AsyncClient, guest: Guest
) -> None:
    tid = await _open_tournament(org)
    pepa = await _player(client, "pepa")
    vicent = await _player(client, "vicent")
    r = await pepa.post(f"/tournaments/{tid}/requests", {"partner": "vicent"}, 201)
    out = await org.post(
        f"/tournaments/{tid}/requests/{r['id']}/decline", {"reason": "Pagueu la inscripció"}
    )
    assert (out["status"], out["reason"]) == ("declined", "Pagueu la inscripció")
    assert (await pepa.get(f"/tournaments/{tid}/requests"))[0]["reason"] == "Pagueu la inscripció"
    assert (await vicent.get(f"/tournaments/{tid}/requests"))[0]["reason"] == ""
    audit = {e["action"]: e for e in await org.get(f"/tournaments/{tid}/audit")}
    assert audit["request_declined"]["reason"] == "Pagueu la inscripció"
    public = await client.get(f"/api/tournaments/{tid}/audit", headers=await guest("Mirona"))
    declined = next(e for e in public.json() if e["action"] == "request_declined")
    assert (declined["reason"], declined["private"]) == ("", True)
    # declined: the player may ask again; approving the declined one is refused
    again = await org.post(f"/tournaments/{tid}/requests/{r['id']}/approve", status=409)
    assert again["detail"] == "this request was declined: it cannot be approved"
    await pepa.post(f"/tournaments/{tid}/requests", {"partner": "vicent"}, 201)


async def test_the_requester_or_the_partner_withdraws_a_pending_request(
    org: Org, client: httpx.AsyncClient
) -> None:
    tid = await _open_tournament(org)
    pepa = await _player(client, "pepa")
    vicent = await _player(client, "vicent")
    mirona = await _player(client, "mirona")
    r = await pepa.post(f"/tournaments/{tid}/requests", {"partner": "vicent"}, 201)
    await mirona.post(f"/tournaments/{tid}/requests/{r['id']}/withdraw", status=403)
    out = await vicent.post(f"/tournaments/{tid}/requests/{r['id']}/withdraw")
    assert out["status"] == "withdrawn"
    assert (await pepa.post(f"/tournaments/{tid}/requests/{r['id']}/withdraw"))[
        "status"
    ] == "withdrawn"  # a double tap: nothing more
    await org.post(f"/tournaments/{tid}/requests/{r['id']}/approve", status=409)
    r2 = await pepa.post(f"/tournaments/{tid}/requests", {"partner": "vicent"}, 201)
    await org.post(f"/tournaments/{tid}/requests/{r2['id']}/approve")
    late = await pepa.post(f"/tournaments/{tid}/requests/{r2['id']}/withdraw", status=409)
    assert "already decided" in late["detail"]


# ---------------------------------------------------------------- refusals


async def test_every_refusal_is_a_clear_message(
    org: Org, client: httpx.AsyncClient, guest: Guest
) -> None:
    tid = await _open_tournament(org)
    await org.post(
        f"/tournaments/{tid}/teams", {"name": "Els Cantons", "user_ids": [await _me(org)]}, 201
    )
    pepa = await _player(client, "pepa")
    await _player(client, "vicent")
    await _player(client, "mirona")
    await _player(client, "toni")
    path = f"/tournaments/{tid}/requests"

    async def refused(who: Org, body: dict[str, Any], status: int) -> str:
        return str((await who.post(path, body, status))["detail"])

    g = Org(client, await guest("Convidat"))
    assert "registered account" in await refused(g, {"partner": "vicent"}, 403)
    assert "partner's username" in await refused(pepa, {}, 422)
    assert "another player" in await refused(pepa, {"partner": "pepa"}, 422)
    assert "no account" in await refused(pepa, {"partner": "ningu"}, 404)
    assert "no club" in await refused(pepa, {"partner": "vicent", "club_id": 999}, 404)
    assert "already a team" in await refused(
        pepa, {"partner": "vicent", "name": "ELS  cantons"}, 409
    )
    assert "already plays" in await refused(pepa, {"partner": "organitzador"}, 409)
    await pepa.post(path, {"partner": "vicent", "name": "La Penya"}, 201)
    assert "waiting for the organisers" in await refused(pepa, {"partner": "mirona"}, 409)
    mirona = Org(client, await account(client, "mirona2"))
    assert "Vicent is already in a request" in await refused(mirona, {"partner": "vicent"}, 409)
    toni = Org(client, await account(client, "toni2"))
    assert "is named" in await refused(toni, {"partner": "toni", "name": "la penya"}, 409)


async def test_a_round_robin_closes_its_registration_when_it_starts_a_swiss_does_not(
    org: Org, client: httpx.AsyncClient
) -> None:
    pepa = await _player(client, "pepa")
    await _player(client, "vicent")
    for fmt, status in (("round_robin", 409), ("swiss", 201)):
        tid = await _open_tournament(org, fmt=fmt)
        for i in range(2):
            await org.post(f"/tournaments/{tid}/teams", {"name": f"P{i}"}, 201)
        await org.post(f"/tournaments/{tid}/rounds", status=201)
        await org.post(f"/tournaments/{tid}/rounds/1/publish")
        r = await pepa.post(f"/tournaments/{tid}/requests", {"partner": "vicent"}, status)
        if fmt == "swiss":
            done = await org.post(f"/tournaments/{tid}/requests/{r['id']}/approve")
            team = await org.get(f"/tournaments/{tid}/teams/{done['team_id']}")
            assert team["team"]["late"] is True
            assert (await _audit_actions(org, tid))[1] == "late_entry"


async def test_approval_still_checks_the_team_rules(org: Org, client: httpx.AsyncClient) -> None:
    """A request waits; meanwhile the organiser enters the partner in another team by
    hand: the approval is refused (player in two teams) and the request stays pending."""
    tid = await _open_tournament(org)
    pepa = await _player(client, "pepa")
    vicent = await _player(client, "vicent")
    r = await pepa.post(f"/tournaments/{tid}/requests", {"partner": "vicent"}, 201)
    await org.post(f"/tournaments/{tid}/teams", {"name": "X", "user_ids": [await _me(vicent)]}, 201)
    refused = await org.post(f"/tournaments/{tid}/requests/{r['id']}/approve", status=409)
    assert "another team" in refused["detail"]
    assert (await org.get(f"/tournaments/{tid}/requests"))[0]["status"] == "pending"


@pytest.mark.parametrize("game", ["belote-2p", "belote-3p"])
async def test_a_game_of_one_player_a_team_takes_no_partner(
    org: Org, client: httpx.AsyncClient, game: str
) -> None:
    tid = await _open_tournament(org, game=game, fmt="swiss")
    pepa = await _player(client, "pepa")
    await _player(client, "vicent")
    refused = await pepa.post(f"/tournaments/{tid}/requests", {"partner": "vicent"}, 422)
    assert "one player" in refused["detail"]
    r = await pepa.post(f"/tournaments/{tid}/requests", {}, 201)
    assert (r["name"], r["partner"]) == ("Pepa", None)
    done = await org.post(f"/tournaments/{tid}/requests/{r['id']}/approve")
    team = await org.get(f"/tournaments/{tid}/teams/{done['team_id']}")
    assert team["team"]["user_ids"] == [await _me(pepa)]


# ---------------------------------------------------------------- twenty at once


async def _twenty(who: Org, path: str, body: Any, key: str | None = None) -> list[httpx.Response]:
    headers = dict(who.headers)
    if key:
        headers["Idempotency-Key"] = key
    answers = await asyncio.gather(
        *(who.client.post("/api" + path, json=body, headers=headers) for _ in range(N))
    )
    assert all(a.status_code < 500 for a in answers), [a.text for a in answers]
    return list(answers)


async def test_twenty_identical_requests_at_once_make_one(
    org: Org, client: httpx.AsyncClient, app: Any
) -> None:
    tid = await _open_tournament(org)
    pepa = await _player(client, "pepa")
    await _player(client, "vicent")
    answers = await _twenty(pepa, f"/tournaments/{tid}/requests", {"partner": "vicent"})
    assert sorted(a.status_code for a in answers) == [201] + [409] * (N - 1)
    assert await _count(app, TeamRequest) == 1


async def test_twenty_copies_of_one_request_key_make_one_and_answer_alike(
    org: Org, client: httpx.AsyncClient, app: Any
) -> None:
    tid = await _open_tournament(org)
    pepa = await _player(client, "pepa")
    await _player(client, "vicent")
    answers = await _twenty(
        pepa, f"/tournaments/{tid}/requests", {"partner": "vicent"}, key="request-pepa-1"
    )
    assert {a.status_code for a in answers} == {201}
    assert len({a.json()["id"] for a in answers}) == 1
    assert await _count(app, TeamRequest) == 1


async def test_twenty_approvals_at_once_enter_one_team(
    org: Org, client: httpx.AsyncClient, app: Any
) -> None:
    tid = await _open_tournament(org)
    pepa = await _player(client, "pepa")
    await _player(client, "vicent")
    r = await pepa.post(f"/tournaments/{tid}/requests", {"partner": "vicent"}, 201)
    answers = await _twenty(org, f"/tournaments/{tid}/requests/{r['id']}/approve", {})
    assert {a.status_code for a in answers} == {200}
    assert len({a.json()["team_id"] for a in answers}) == 1
    assert await _count(app, Team) == 1
    assert await _count(app, TeamPlayer) == 2
    audit = await _audit_actions(org, tid)
    assert (audit.count("request_approved"), audit.count("team")) == (1, 1)


async def test_twenty_players_racing_for_one_partner_one_request(
    org: Org, client: httpx.AsyncClient, app: Any
) -> None:
    tid = await _open_tournament(org)
    await _player(client, "vicent")
    players = [await _player(client, f"jugador{i}") for i in range(N)]
    answers = await asyncio.gather(
        *(
            p.client.post(
                f"/api/tournaments/{tid}/requests", json={"partner": "vicent"}, headers=p.headers
            )
            for p in players
        )
    )
    assert all(a.status_code < 500 for a in answers), [a.text for a in answers]
    assert sorted(a.status_code for a in answers) == [201] + [409] * (N - 1)
    assert await _count(app, TeamRequest) == 1


async def test_two_players_naming_each_other_at_once_one_request(
    org: Org, client: httpx.AsyncClient, app: Any
) -> None:
    """Pepa names Vicent and Vicent names Pepa, ten times each, all at once: the first
    to run makes the request, every other copy finds one of them already in it (409)."""
    tid = await _open_tournament(org)
    pepa = await _player(client, "pepa")
    vicent = await _player(client, "vicent")
    sends = [(pepa, "vicent"), (vicent, "pepa")] * (N // 2)
    answers = await asyncio.gather(
        *(
            p.client.post(
                f"/api/tournaments/{tid}/requests", json={"partner": mate}, headers=p.headers
            )
            for p, mate in sends
        )
    )
    assert all(a.status_code < 500 for a in answers), [a.text for a in answers]
    assert sorted(a.status_code for a in answers) == [201] + [409] * (N - 1)
    assert await _count(app, TeamRequest) == 1


async def test_twenty_declines_at_once_decline_once(
    org: Org, client: httpx.AsyncClient, app: Any
) -> None:
    tid = await _open_tournament(org)
    pepa = await _player(client, "pepa")
    await _player(client, "vicent")
    r = await pepa.post(f"/tournaments/{tid}/requests", {"partner": "vicent"}, 201)
    answers = await _twenty(
        org, f"/tournaments/{tid}/requests/{r['id']}/decline", {"reason": "Ple"}
    )
    assert {a.status_code for a in answers} == {200}
    assert {a.json()["status"] for a in answers} == {"declined"}
    assert (await _audit_actions(org, tid)).count("request_declined") == 1
    assert await _count(app, Team) == 0


# ---------------------------------------------------------------- the pages


def _form(page: str, action_end: str) -> dict[str, str]:
    for match in re.finditer(r'<form method="post" action="([^"]+)"(.*?)</form>', page, re.S):
        if match.group(1).endswith(action_end):
            body = match.group(2)
            csrf = re.search(r'name="csrf" value="([^"]+)"', body)
            key = KEY_FIELD.search(body)
            assert csrf and key, "the form carries a csrf token and a one-time key"
            return {"csrf": csrf.group(1), "creation_key": key.group(1)}
    raise AssertionError(f"no form ending {action_end}")


async def test_a_guest_is_told_to_register_an_account_sees_the_form(
    org: Org, client: httpx.AsyncClient, guest: Guest
) -> None:
    tid = await _open_tournament(org)
    page = (await client.get(f"/tournaments/{tid}", headers=await guest("Convidat"))).text
    assert "Registering a team needs a registered account." in page
    assert f'href="/register?next=/tournaments/{tid}"' in page
    assert 'data-testid="request-form"' not in page
    pepa = await _player(client, "pepa")
    page = (await client.get(f"/tournaments/{tid}", headers=pepa.headers)).text
    assert 'data-testid="request-form"' in page
    assert 'name="partner"' in page


async def test_the_request_form_tapped_twenty_times_makes_one_request(
    org: Org, client: httpx.AsyncClient, app: Any
) -> None:
    tid = await _open_tournament(org)
    pepa = await _player(client, "pepa")
    await _player(client, "vicent")
    page = (await client.get(f"/tournaments/{tid}", headers=pepa.headers)).text
    form = {**_form(page, f"/tournaments/{tid}/requests"), "partner": "vicent", "name": "Rocs"}
    taps = await asyncio.gather(
        *(
            client.post(f"/tournaments/{tid}/requests", data=form, headers=pepa.headers)
            for _ in range(N)
        )
    )
    assert {t.status_code for t in taps} == {303}, [t.text[:200] for t in taps][:2]
    assert await _count(app, TeamRequest) == 1
    page = (await client.get(f"/tournaments/{tid}", headers=pepa.headers)).text
    assert "waiting for the organisers" in page and "Withdraw the request" in page
    assert 'data-testid="request-form"' not in page  # one open request at a time


async def test_a_refused_request_form_comes_back_with_the_reason_and_what_was_typed(
    org: Org, client: httpx.AsyncClient
) -> None:
    tid = await _open_tournament(org)
    pepa = await _player(client, "pepa")
    page = (await client.get(f"/tournaments/{tid}", headers=pepa.headers)).text
    form = {**_form(page, f"/tournaments/{tid}/requests"), "partner": "ningu", "name": "Rocs"}
    answer = await client.post(f"/tournaments/{tid}/requests", data=form, headers=pepa.headers)
    assert answer.status_code == 404
    assert "There is no account ningu." in answer.text
    assert 'value="Rocs"' in answer.text and 'value="ningu"' in answer.text


async def test_the_manage_page_lists_pending_requests_and_approves_by_form(
    org: Org, client: httpx.AsyncClient, app: Any
) -> None:
    tid = await _open_tournament(org)
    for name in ("pepa", "vicent", "mirona", "toni"):
        await _player(client, name)
    pepa = Org(client, await account(client, "pepa2"))
    mirona = Org(client, await account(client, "mirona2"))
    r1 = await pepa.post(f"/tournaments/{tid}/requests", {"partner": "vicent"}, 201)
    await mirona.post(f"/tournaments/{tid}/requests", {"partner": "toni", "name": "Rocs"}, 201)
    page = (await client.get(f"/tournaments/{tid}/manage", headers=org.headers)).text
    assert "2 waiting" in page
    assert page.count('data-testid="pending-request"') == 2
    form = _form(page, f"/requests/{r1['id']}/approve")
    taps = [
        await client.post(
            f"/tournaments/{tid}/requests/{r1['id']}/approve", data=form, headers=org.headers
        )
        for _ in range(2)
    ]
    assert [t.status_code for t in taps] == [303, 303]
    assert await _count(app, Team) == 1
    page = (await client.get(f"/tournaments/{tid}/manage", headers=org.headers)).text
    assert "1 waiting" in page
    assert "approved the request of the team Pepa2 &amp; Vicent" in page
    # the approved request keeps its row a moment, its state in place of the buttons: the
    # next request's Approve does not move under a double-tapping finger (a fresh tester's
    # second tap approved the next one)
    rows = page[page.index('data-testid="requests"') :]
    assert rows.index('data-testid="decided-request"') < rows.index('data-testid="pending-request"')
    assert page.count(f'/requests/{r1["id"]}/approve"') == 0
    assert "The request is approved: the team is entered." in page  # said once, after it


async def test_the_audit_trail_says_the_requests_in_catalan_the_decline_reason_private(
    org: Org, client: httpx.AsyncClient
) -> None:
    tid = await _open_tournament(org)
    pepa = await _player(client, "pepa")
    await _player(client, "vicent")
    r = await pepa.post(f"/tournaments/{tid}/requests", {"partner": "vicent", "name": "Rocs"}, 201)
    await org.post(f"/tournaments/{tid}/requests/{r['id']}/decline", {"reason": "Sense pagar"})
    page = (await client.get(f"/tournaments/{tid}/manage?lang=ca", headers=org.headers)).text
    assert "ha demanat d&#39;inscriure l&#39;equip Rocs" in page
    assert "ha rebutjat la sol·licitud de l&#39;equip Rocs — <em>Sense pagar</em>" in page
    assert "privat: només per als organitzadors" in page
    mine = (await client.get(f"/tournaments/{tid}?lang=ca", headers=pepa.headers)).text
    assert "rebutjada pels organitzadors" in mine and "Sense pagar" in mine


async def test_the_creation_form_and_the_manage_page_switch_the_registration(
    org: Org, client: httpx.AsyncClient
) -> None:
    index = (await client.get("/tournaments", headers=org.headers)).text
    assert 'name="self_registration"' in index
    made = await client.post(
        "/tournaments",
        data={
            **_form(index, "/tournaments"),
            "name": "Lliga",
            "game": "bolot",
            "format": "swiss",
            "self_registration": "on",
        },
        headers=org.headers,
    )
    assert made.status_code == 303
    tid = int(made.headers["location"].split("/")[2])
    assert (await org.get(f"/tournaments/{tid}"))["settings"]["self_registration"] is True
    page = (await client.get(f"/tournaments/{tid}/manage", headers=org.headers)).text
    assert "Close the players' registration" in page
    closed = await client.post(
        f"/tournaments/{tid}/registration",
        data=_form(page, f"/tournaments/{tid}/registration"),
        headers=org.headers,
    )
    assert closed.status_code == 303
    assert "self_registration" not in (await org.get(f"/tournaments/{tid}"))["settings"]
    page = (await client.get(f"/tournaments/{tid}", headers=org.headers)).text
    assert 'data-testid="signup"' not in page  # closed, and no request of the viewer's


async def test_a_request_sent_after_the_registration_closed_is_told_so(
    org: Org, client: httpx.AsyncClient
) -> None:
    """A fresh tester's request, its form opened before the organiser closed the
    registration, got a 409 page with no word of why."""
    tid = await _open_tournament(org)
    pepa = await _player(client, "pepa")
    await _player(client, "vicent")
    page = (await client.get(f"/tournaments/{tid}", headers=pepa.headers)).text
    form = {**_form(page, f"/tournaments/{tid}/requests"), "partner": "vicent", "name": "Rocs"}
    await org.call("PUT", f"/tournaments/{tid}/registration", json={"open": False})
    answer = await client.post(f"/tournaments/{tid}/requests", data=form, headers=pepa.headers)
    assert answer.status_code == 409
    assert 'data-testid="form-error"' in answer.text
