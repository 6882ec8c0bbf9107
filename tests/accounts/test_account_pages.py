"""The log-in, registration and log-out pages: CSRF on every form, no GET that changes anything."""

from __future__ import annotations

import re

import httpx

PASSWORD = "correct horse battery"


def _csrf(html: str) -> str:
    match = re.search(r'name="csrf" value="([0-9a-f]+)"', html)
    assert match, "no CSRF field in the page"
    return match.group(1)


async def test_register_log_out_and_log_in_through_the_pages(client: httpx.AsyncClient) -> None:
    page = await client.get("/register")
    assert page.status_code == 200 and 'action="/register"' in page.text
    made = await client.post(
        "/register",
        data={
            "csrf": _csrf(page.text),
            "username": "marta",
            "nickname": "Marta",
            "password": PASSWORD,
            "password2": PASSWORD,
            "next": "/account",
        },
    )
    assert made.status_code == 303 and made.headers["location"] == "/account"
    account = await client.get("/account")
    assert "marta" in account.text
    confirm = await client.get("/logout")  # a GET only asks
    assert confirm.status_code == 200 and "marta" in (await client.get("/account")).text
    out = await client.post("/logout", data={"csrf": _csrf(confirm.text)})
    assert out.status_code == 303
    client.cookies.clear()
    login = await client.get("/login")
    wrong = await client.post(
        "/login", data={"csrf": _csrf(login.text), "username": "marta", "password": "nope-nope"}
    )
    assert wrong.status_code == 401 and "Wrong username or password." in wrong.text
    # once, by the form: not again in a toast over the page's heading (a fresh tester's)
    assert wrong.text.count("Wrong username or password.") == 1
    assert 'data-testid="flash"' not in wrong.text
    right = await client.post(
        "/login",
        data={
            "csrf": _csrf(login.text),
            "username": "marta",
            "password": PASSWORD,
            "next": "https://evil.example/",
        },
    )
    assert right.status_code == 303 and right.headers["location"] == "/"
    assert "tapet_session=" in right.headers["set-cookie"]


async def test_account_forms_without_the_token_or_from_another_site_are_refused(
    client: httpx.AsyncClient,
) -> None:
    for path in ("/login", "/register", "/logout", "/session"):
        bare = await client.post(
            path, data={"username": "marta", "password": PASSWORD, "nickname": "M"}
        )
        assert bare.status_code == 403, path
    token = _csrf((await client.get("/login")).text)
    cross = await client.post(
        "/login",
        data={"csrf": token, "username": "marta", "password": PASSWORD},
        headers={"origin": "https://evil.example"},
    )
    assert cross.status_code == 403


async def test_registration_page_reports_mistakes(client: httpx.AsyncClient) -> None:
    token = _csrf((await client.get("/register")).text)
    differ = await client.post(
        "/register",
        data={
            "csrf": token,
            "username": "marta",
            "password": PASSWORD,
            "password2": PASSWORD + "x",
        },
    )
    assert differ.status_code == 422 and "differ" in differ.text
    short = await client.post(
        "/register",
        data={"csrf": token, "username": "marta", "password": "short", "password2": "short"},
    )
    assert short.status_code == 422 and "8 to 256" in short.text
    assert short.text.count("8 to 256") == 1 and 'data-testid="flash"' not in short.text


async def test_each_visitor_gets_a_form_token_of_their_own(client: httpx.AsyncClient) -> None:
    # A token read from our own login page by someone else must not log the victim in
    # (login CSRF): before any session, tokens are tied to a random pre-session cookie.
    first = await client.get("/login")
    assert "tapet_pre=" in first.headers["set-cookie"] and "HttpOnly" in first.headers["set-cookie"]
    mine = _csrf(first.text)
    assert _csrf((await client.get("/login")).text) == mine  # the same visitor keeps it
    client.cookies.clear()
    other = await client.get("/login")
    assert _csrf(other.text) != mine
    stolen = await client.post(
        "/login", data={"csrf": mine, "username": "marta", "password": PASSWORD}
    )
    assert stolen.status_code == 403


async def test_a_guest_registering_through_the_page_ends_its_guest_session(
    client: httpx.AsyncClient,
) -> None:
    guest = (await client.post("/api/session", json={"nickname": "Marta"})).json()
    page = await client.get("/register")
    made = await client.post(
        "/register",
        data={
            "csrf": _csrf(page.text),
            "username": "marta",
            "password": PASSWORD,
            "password2": PASSWORD,
            "next": "/account",
        },
    )
    assert made.status_code == 303
    assert (await client.get("/api/me")).json()["id"] == guest["user"]["id"]  # the new cookie
    client.cookies.clear()
    old = await client.get("/api/me", headers={"Authorization": f"Bearer {guest['token']}"})
    assert old.status_code == 401


async def test_a_bot_like_username_is_refused_on_the_page(client: httpx.AsyncClient) -> None:
    page = await client.get("/register")
    made = await client.post(
        "/register",
        data={
            "csrf": _csrf(page.text),
            "username": "bot-2",
            "password": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert made.status_code == 422 and "bot" in made.text


async def test_a_double_tapped_register_form_signs_in_both_times(
    client: httpx.AsyncClient,
) -> None:
    """Two copies of one Register form at once (a double tap): one account, and both
    answers sign in as it (a fresh tester was told "taken" and left signed out). Someone
    else naming the username with another password is told it is taken."""
    import asyncio

    token = _csrf((await client.get("/register")).text)
    form = {
        "csrf": token,
        "username": "joan",
        "nickname": "Joan",
        "password": PASSWORD,
        "password2": PASSWORD,
        "next": "/account",
    }
    answers = await asyncio.gather(*(client.post("/register", data=form) for _ in range(2)))
    assert [a.status_code for a in answers] == [303, 303]
    assert all("tapet_session=" in a.headers["set-cookie"] for a in answers)
    client.cookies.clear()
    token = _csrf((await client.get("/register")).text)
    other = await client.post(
        "/register",
        data=dict(form, csrf=token, password="another secret!", password2="another secret!"),
    )
    assert other.status_code == 409 and "joan is taken" in other.text
