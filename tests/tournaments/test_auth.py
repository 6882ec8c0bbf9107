"""Accounts organise championships (DESIGN.md "People"): creating a tournament needs a
registered account: 401 without a session, 403 for a guest (with a readable message),
through the API and the page form alike."""

from __future__ import annotations

import re

import httpx

from tests.conftest import Guest
from tests.tournaments.conftest import account

BODY = {"name": "Lliga de Bolot", "game": "bolot", "format": "round_robin"}


def _csrf(html: str) -> str:
    match = re.search(r'name="csrf" value="([^"]+)"', html)
    assert match, "no csrf token on the page"
    return match.group(1)


async def test_creating_a_tournament_needs_a_session(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/tournaments", json=BODY)
    assert response.status_code == 401 and response.json()["detail"]


async def test_a_guest_cannot_create_a_tournament(client: httpx.AsyncClient, guest: Guest) -> None:
    response = await client.post("/api/tournaments", json=BODY, headers=await guest("Pepa"))
    assert response.status_code == 403
    assert "registered account" in response.json()["detail"]
    assert (await client.get("/api/tournaments")).json() == []  # nothing was made


async def test_an_account_creates_one_and_a_guest_who_registers_too(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    made = await client.post("/api/tournaments", json=BODY, headers=await account(client, "vicent"))
    assert made.status_code == 201, made.text
    # a guest who registers becomes the account (same id) and may organise
    pepa = await guest("Pepa")
    me = (await client.get("/api/me", headers=pepa)).json()
    upgraded = await client.post(
        "/api/accounts",
        json={"username": "pepa", "password": "correct horse battery"},
        headers=pepa,
    )
    assert upgraded.status_code in (200, 201) and upgraded.json()["user"]["id"] == me["id"]
    client.cookies.clear()
    again = await client.post(
        "/api/tournaments",
        json=BODY,
        headers={"Authorization": f"Bearer {upgraded.json()['token']}"},
    )
    assert again.status_code == 201, again.text


async def test_the_page_form_refuses_a_guest_with_the_reason(client: httpx.AsyncClient) -> None:
    assert (
        await client.post("/api/session", json={"nickname": "Guest"})
    ).status_code == 200  # a browser: cookie kept
    token = _csrf((await client.get("/tournaments")).text)
    refused = await client.post("/tournaments", data={"csrf": token, **BODY})
    assert refused.status_code == 403
    assert "Organising a championship needs an account" in refused.text
    assert "/api/accounts" not in refused.text  # a person is told of the page, not the API
    refused_htmx = await client.post(
        "/tournaments", data={"csrf": token, **BODY}, headers={"HX-Request": "true"}
    )
    assert refused_htmx.status_code == 403 and "needs an account" in refused_htmx.text


async def test_a_guest_is_offered_to_register_instead_of_a_form_it_cannot_send(
    client: httpx.AsyncClient,
) -> None:
    assert (await client.post("/api/session", json={"nickname": "Guest"})).status_code == 200
    page = (await client.get("/tournaments")).text
    assert 'data-testid="organise-needs-account"' in page and 'href="/register"' in page
    assert 'action="/tournaments"' not in page  # no championship form for a guest
    assert 'action="/clubs"' in page  # a guest may still enter its club
    assert (await client.get("/api/tournaments")).json() == []
