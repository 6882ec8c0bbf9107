"""The championship pages render for the public and the organiser, forms need CSRF."""

from __future__ import annotations

import random
import re

import httpx

from tests.conftest import Guest
from tests.tournaments.conftest import Org, bolot_deal, make_tournament


def _csrf(html: str) -> str:
    match = re.search(r'name="csrf" value="([0-9a-f]+)"', html)
    assert match, "no CSRF field in the page"
    return match.group(1)


async def test_pages_render_for_public_and_organiser(org: Org, client: httpx.AsyncClient) -> None:
    t, teams = await make_tournament(org, 5, fmt="swiss", settings={"rounds": 3})
    tid = t["id"]
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    await org.post(f"/tournaments/{tid}/rounds/1/publish")
    await org.post(
        f"/tournaments/{tid}/tables/1/deals", {"summary": bolot_deal(random.Random(1))}, 201
    )
    await org.post(f"/tournaments/{tid}/tables/2/result", {"home_score": 300, "away_score": 120})
    for path in (
        "/tournaments",
        f"/tournaments/{tid}",
        f"/tournaments/{tid}/live",
        f"/tournaments/{tid}/standings",
        f"/tournaments/{tid}/teams/{teams[0]['id']}",
        f"/tournaments/{tid}/tables/1",
        f"/tournaments/{tid}/print/pairings",
        f"/tournaments/{tid}/print/sheets",
    ):
        public = await client.get(path)
        assert public.status_code == 200, (path, public.text[:300])
    page = (await client.get(f"/tournaments/{tid}")).text
    assert 'hx-trigger="every 5s"' in page and "Parella 1" in page and "bye" in page
    standings = (await client.get(f"/tournaments/{tid}/standings")).text
    assert (
        "How the order is decided" in standings
        and "Buchholz" in standings
        and "Falla 1" in standings
    )
    sheets = (await client.get(f"/tournaments/{tid}/print/sheets")).text
    assert sheets.count('class="sheet-page"') == 2  # two matches, the bye has no sheet
    assert (await client.get(f"/tournaments/{tid}/manage")).status_code == 403
    manage = await client.get(f"/tournaments/{tid}/manage", headers=org.headers)
    assert manage.status_code == 200 and "Close round 1" in manage.text
    table = await client.get(f"/tournaments/{tid}/tables/1", headers=org.headers)
    assert "Enter the next deal" in table.text
    # "Correct a deal" (issue 19 §2: fields, never JSON): the form of deal 1 carries the
    # deal whole, its fields give back the stored summary
    import html as html_lib

    from app.tournaments.pages import summary_from_fields

    stored = (await org.get(f"/tournaments/{tid}/tables/1"))["deals"][0]["summary"]
    fixing = (await client.get(f"/tournaments/{tid}/tables/1?fix=1", headers=org.headers)).text
    form = re.search(r'<form [^>]*data-testid="fix-form".*?</form>', fixing, re.S)
    assert form and "<textarea" not in form.group(0)
    fields: dict[str, str] = {}
    for name, value in re.findall(r'<input name="(f_\w+)"[^>]*value="([^"]*)"', form.group(0)):
        fields[name] = html_lib.unescape(value)
    for name, value in re.findall(r'type="hidden" name="(f_\w+)" value="([^"]*)"', form.group(0)):
        fields[name] = html_lib.unescape(value)
    for name, options in re.findall(
        r'<select name="(f_\w+)"[^>]*>(.*?)</select>', form.group(0), re.S
    ):
        chosen = re.search(r'<option value="([^"]*)" selected', options) or re.search(
            r'<option value="([^"]*)"', options
        )
        fields[name] = html_lib.unescape(chosen.group(1)) if chosen else ""
    assert summary_from_fields("bolot", fields) == stored


async def test_organiser_forms_check_csrf_and_work(client: httpx.AsyncClient, guest: Guest) -> None:
    session = await client.post("/api/session", json={"nickname": "Org"})
    assert session.status_code == 200  # the cookie stays: this is a browser
    # organising needs an account: the guest registers (same id, a new cookie)
    registered = await client.post(
        "/api/accounts", json={"username": "org", "password": "correct horse battery"}
    )
    assert registered.status_code in (200, 201), registered.text
    index = await client.get("/tournaments")
    token = _csrf(index.text)
    refused = await client.post(
        "/tournaments", data={"name": "X", "game": "bolot", "format": "swiss"}
    )
    assert refused.status_code == 403
    made = await client.post(
        "/tournaments",
        data={
            "csrf": token,
            "name": "Lliga",
            "game": "bolot",
            "format": "round_robin",
            "target": "500",
        },
    )
    assert made.status_code == 303
    manage_url = made.headers["location"]
    tid = int(manage_url.split("/")[2])
    for name in ("Ana & Berto", "Carme & Dani", "Eva & Ferran"):
        posted = await client.post(f"/tournaments/{tid}/teams", data={"csrf": token, "name": name})
        assert posted.status_code == 303
    assert (
        await client.post(f"/tournaments/{tid}/rounds", data={"csrf": token})
    ).status_code == 303
    assert (
        await client.post(f"/tournaments/{tid}/rounds/1/publish", data={"csrf": token})
    ).status_code == 303
    bad = await client.post(f"/tournaments/{tid}/rounds/1/close", data={"csrf": token})
    assert bad.status_code == 409 and "cannot close while a table is playing" in bad.text
    done = await client.post(
        f"/tournaments/{tid}/tables/1/result",
        data={"csrf": token, "home_score": "500", "away_score": "260"},
    )
    assert done.status_code == 303
    fix = await client.post(
        f"/tournaments/{tid}/tables/1/result",
        data={"csrf": token, "home_score": "500", "away_score": "280"},
    )
    assert fix.status_code == 422 and "reason" in fix.text
    assert (
        await client.post(f"/tournaments/{tid}/rounds/1/close", data={"csrf": token})
    ).status_code == 303
    info = (await client.get(f"/api/tournaments/{tid}")).json()
    assert info["options"]["target"] == 500 and info["rounds"][0]["status"] == "closed"


async def test_the_same_club_twice_is_refused_with_a_page_not_a_crash(
    client: httpx.AsyncClient,
) -> None:
    """A duplicate club rolls the session back; the error page must still name who is
    signed in (it crashed with MissingGreenlet reading the expired user, a tester found)."""
    assert (await client.post("/api/session", json={"nickname": "Clubber"})).status_code == 200
    token = _csrf((await client.get("/tournaments")).text)
    form = {"csrf": token, "name": "Penya Unique 1", "kind": "penya", "town": "Sagunt"}
    first = await client.post("/clubs", data=form)
    assert first.status_code == 303, first.text
    again = await client.post("/clubs", data=form)
    assert again.status_code == 409
    assert "Penya Unique 1" in again.text and "Clubber" in again.text


async def test_the_team_form_links_players_accounts_by_username(client: httpx.AsyncClient) -> None:
    # An online table seats the players by their accounts: the organiser's form takes usernames.
    async with httpx.AsyncClient(
        transport=client._transport, base_url=str(client.base_url)
    ) as other:
        for username in ("ana_fc", "bernat_fc"):
            other.cookies.clear()
            made = await other.post(
                "/api/accounts",
                json={
                    "username": username,
                    "password": "correct horse battery",
                    "nickname": username.split("_")[0].title(),
                },
            )
            assert made.status_code in (200, 201), made.text
    assert (
        await client.post(
            "/api/accounts", json={"username": "org2", "password": "correct horse battery"}
        )
    ).status_code in (200, 201)
    token = _csrf((await client.get("/tournaments")).text)
    made = await client.post(
        "/tournaments",
        data={"csrf": token, "name": "Falles", "game": "bolot", "format": "swiss", "target": "500"},
    )
    tid = int(made.headers["location"].split("/")[2])
    form = {
        "csrf": token,
        "name": "Falla A",
        "player1": "",
        "account1": "Ana_FC",
        "player2": "Bernat",
        "account2": "bernat_fc",
    }
    assert (await client.post(f"/tournaments/{tid}/teams", data=form)).status_code == 303
    team = (await client.get(f"/api/tournaments/{tid}/teams")).json()[0]
    assert team["players"] == ["Ana", "Bernat"] and len(team["user_ids"]) == 2
    unknown = await client.post(
        f"/tournaments/{tid}/teams",
        data={**form, "name": "Falla B", "account1": "nobody_here", "account2": ""},
    )
    assert unknown.status_code == 404 and "nobody_here" in unknown.text
    backwards = await client.post(
        f"/tournaments/{tid}/teams", data={**form, "name": "Falla C", "account1": ""}
    )
    assert backwards.status_code == 422


async def test_a_cap_score_for_a_game_without_one_names_the_field(
    client: httpx.AsyncClient,
) -> None:
    """The form's "Cap score (Botifarra)" filled in for a Bolot championship: refused by
    the field's name ("bolot has no option Tournament: highest score recorded for
    standings" was a fresh tester's puzzle), in the page's language; Botifarra takes it."""
    registered = await client.post(
        "/api/accounts", json={"username": "capper", "password": "correct horse battery"}
    )
    assert registered.status_code in (200, 201), registered.text
    token = _csrf((await client.get("/tournaments")).text)
    form = {"csrf": token, "name": "Lliga", "format": "round_robin", "cap_score": "121"}
    refused = await client.post("/tournaments", data={**form, "game": "bolot"})
    assert refused.status_code == 422, refused.text
    assert "The cap score is an option of Botifarra only" in refused.text
    catalan = await client.post("/tournaments?lang=ca", data={**form, "game": "bolot"})
    assert "La puntuació màxima és una opció només de la botifarra" in catalan.text
    made = await client.post("/tournaments", data={**form, "game": "botifarra"})
    assert made.status_code == 303, made.text
    tid = int(made.headers["location"].split("/")[2])
    assert (await client.get(f"/api/tournaments/{tid}")).json()["options"]["cap_score"] == 121
