"""Request guards: rate limits (429 + Retry-After), body size (413), cross-site API writes
(403), readable 422s, and the signing key. Each test tries to break one rule."""

from __future__ import annotations

import os
import stat
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.accounts.limits import RateLimiter
from app.core.settings import Settings, parse_rate
from app.main import create_app
from tests.conftest import empty_tables, limited_app

PASSWORD = "correct horse battery"


@pytest.fixture
async def limited(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    """A client of an app with small rate limits switched on."""
    strict = settings.model_copy(
        update={
            "rate_limits": True,
            "rate_login": "3/60",
            "rate_session": "4/60",
            "rate_moves": "2/60",
            "rate_hints": "2/60",
        }
    )
    await empty_tables(strict.db_url())
    app = create_app(strict)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, client=("10.0.0.1", 1234))
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            yield client


async def test_login_attempts_are_rate_limited(limited: httpx.AsyncClient) -> None:
    answers = [
        await limited.post("/api/login", json={"username": "pepa", "password": f"guess-{n}xx"})
        for n in range(5)
    ]
    assert [a.status_code for a in answers] == [401, 401, 401, 429, 429]
    assert int(answers[3].headers["retry-after"]) >= 1
    assert "try again" in answers[3].json()["detail"]


async def test_page_logins_share_the_budget(limited: httpx.AsyncClient) -> None:
    for _ in range(3):
        await limited.post("/api/login", json={"username": "pepa", "password": "whatever-pass"})
    page = await limited.post("/login", data={"username": "pepa", "password": "whatever-pass"})
    assert page.status_code == 429 and "retry-after" in page.headers


async def test_new_sessions_are_rate_limited_per_address(limited: httpx.AsyncClient) -> None:
    codes = [
        (await limited.post("/api/session", json={"nickname": f"G{n}"})).status_code
        for n in range(5)
    ]
    assert codes == [200, 200, 200, 200, 429]


async def test_moves_are_rate_limited_per_user(limited: httpx.AsyncClient) -> None:
    token = (await limited.post("/api/session", json={"nickname": "Fast"})).json()["token"]
    other = (await limited.post("/api/session", json={"nickname": "Slow"})).json()["token"]
    limited.cookies.clear()
    body = {"seq": 0, "action": {"type": "pass"}}
    codes = [
        (
            await limited.post(
                "/api/rooms/999/moves", json=body, headers={"Authorization": f"Bearer {token}"}
            )
        ).status_code
        for _ in range(3)
    ]
    assert codes == [404, 404, 429]
    # another user is not held back by the first one's flood
    again = await limited.post(
        "/api/rooms/999/moves", json=body, headers={"Authorization": f"Bearer {other}"}
    )
    assert again.status_code == 404


async def test_hints_are_rate_limited_per_user(limited: httpx.AsyncClient) -> None:
    """A hint costs the server a strong bot's thinking: a user asking in a loop meets a 429."""
    token = (await limited.post("/api/session", json={"nickname": "Curious"})).json()["token"]
    limited.cookies.clear()
    auth = {"Authorization": f"Bearer {token}"}
    codes = [(await limited.post("/rooms/999/hint", headers=auth)).status_code for _ in range(3)]
    assert codes[:2] != [429, 429] and codes[2] == 429


def test_token_bucket_refills() -> None:
    now = [0.0]
    bucket = RateLimiter(2, 10.0, clock=lambda: now[0])
    assert [bucket.hit("k"), bucket.hit("k")] == [0.0, 0.0]
    assert bucket.hit("k") == pytest.approx(5.0)
    now[0] = 5.0
    assert bucket.hit("k") == 0.0
    assert bucket.hit("other") == 0.0
    assert parse_rate("off") is None and parse_rate("10/60") == (10, 60.0)
    with pytest.raises(ValueError):
        parse_rate("-1/3")


async def test_oversized_bodies_are_refused(client: httpx.AsyncClient, guest: Any) -> None:
    auth = await guest()
    big = {"game": "bolot", "options": {"x": "a" * 70_000}}
    response = await client.post("/api/rooms", json=big, headers=auth)
    assert response.status_code == 413 and "larger than" in response.json()["detail"]

    async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: streamed
        yield b'{"game": "bolot", "options": {"x": "'
        for _ in range(20):
            yield b"a" * 4096
        yield b'"}}'

    streamed = await client.post(
        "/api/rooms", content=chunks(), headers={**auth, "content-type": "application/json"}
    )
    assert streamed.status_code == 413
    # a page: the site's error page, the visitor still shown signed in
    page = await client.post(
        "/rooms", content=b"game=bolot&x=" + b"a" * 70_000, headers={**auth, "accept": "text/html"}
    )
    assert page.status_code == 413 and "too large" in page.text
    assert "Pepa" in page.text and 'data-testid="my-page-link"' in page.text


async def test_unknown_fields_and_bad_types_get_a_readable_422(
    client: httpx.AsyncClient, guest: Any
) -> None:
    auth = await guest()
    extra = await client.post("/api/rooms", json={"game": "bolot", "colour": "red"}, headers=auth)
    assert extra.status_code == 422 and extra.json()["detail"] == "unknown field 'colour'"
    wrong = await client.post(
        "/api/rooms/1/moves", json={"seq": "soon", "action": {}}, headers=auth
    )
    assert wrong.status_code == 422 and wrong.json()["detail"].startswith("seq: ")
    broken = await client.post(
        "/api/session", content=b"{nickname", headers={"content-type": "application/json"}
    )
    assert broken.status_code == 422 and "JSON" in broken.json()["detail"]
    for path in (
        f"/api/rooms/{2**40}",
        f"/api/rooms/{2**31}/view",
        f"/rooms/{2**31}",
        "/api/tournaments/99999999999",
        "/api/rooms/-2147483649",
    ):
        huge = await client.get(path)
        assert huge.status_code == 404, path
    page = await client.get(f"/rooms/{2**31}")  # a page: the site's error page, not a bare fragment
    assert page.text.lstrip().lower().startswith("<!doctype html") and "out of range" in page.text
    caught = await client.get(f"/rooms/{2**31}", headers={"hx-request": "true"})  # htmx: a flash
    assert (
        caught.status_code == 404
        and caught.text.lstrip().startswith("<p")
        and "out of range" in caught.text
    )
    told = await client.get("/api/deals/1-99999999999/verify")
    assert told.status_code == 404 and told.json()["detail"] == "game 1 has no deal 99999999999"


async def test_cross_site_api_writes_on_the_cookie_are_refused(client: httpx.AsyncClient) -> None:
    made = await client.post(
        "/api/session", json={"nickname": "Victim"}
    )  # the jar keeps the cookie
    evil = {"origin": "https://evil.example"}
    assert (
        await client.post("/api/rooms", json={"game": "bolot"}, headers=evil)
    ).status_code == 403
    fetch = {"sec-fetch-site": "cross-site"}
    assert (
        await client.post("/api/rooms", json={"game": "bolot"}, headers=fetch)
    ).status_code == 403
    login_csrf = await client.post(
        "/api/login", json={"username": "a", "password": "b" * 8}, headers=evil
    )
    assert login_csrf.status_code == 403
    # same site, or a program with its bearer token, is fine
    assert (
        await client.post(
            "/api/rooms", json={"game": "bolot"}, headers={"origin": "http://testserver"}
        )
    ).status_code == 201
    bearer = {"Authorization": f"Bearer {made.json()['token']}", **evil}
    assert (
        await client.post("/api/rooms", json={"game": "bolot"}, headers=bearer)
    ).status_code == 201


def test_the_generated_key_is_random_private_and_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    keys = []
    for name in ("one", "two"):
        folder = tmp_path / name
        folder.mkdir()
        monkeypatch.chdir(folder)
        first = Settings(secret_key=None).secret()
        assert Settings(secret_key=None).secret() == first  # kept in the file
        mode = stat.S_IMODE(os.stat(folder / "tapet-secret.key").st_mode)
        assert mode == 0o600
        keys.append(first)
    assert keys[0] != keys[1] and len(keys[0]) >= 40


def test_a_short_secret_key_is_refused() -> None:
    with pytest.raises(ValueError):
        Settings(secret_key="short").secret()


async def test_unicode_digits_in_a_path_are_not_a_server_error(client) -> None:
    """'²'.isdigit() is True but int('²') fails: such a segment is a 404/422, never a 500
    (found by schemathesis on /api/tournaments/¹/results.csv)."""
    for path in (
        "/api/tournaments/%C2%B9/results.csv",
        "/api/rooms/%C2%B2",
        "/api/rooms/%C2%B2/view",
    ):
        response = await client.get(path)
        assert response.status_code in (404, 422), (path, response.status_code)


async def test_failed_logins_are_limited_per_username_whatever_the_address(
    settings: Settings,
) -> None:
    """A botnet guessing one account's password from many addresses: the per-address limit
    never fires, the per-username one does (2 failures here), and then even the right
    password waits; another username is not affected, and a success costs nothing."""
    async with limited_app(settings, rate_login="100/60", rate_login_failures="2/600") as client:
        async with client("10.0.0.1") as a, client("10.0.0.2") as b, client("10.0.0.3") as c:
            for name in ("pepa", "vicent"):
                made = await a.post("/api/accounts", json={"username": name, "password": PASSWORD})
                assert made.status_code in (200, 201), made.text
                a.cookies.clear()
            assert (
                await a.post("/api/login", json={"username": "vicent", "password": PASSWORD})
            ).status_code == 200
            a.cookies.clear()
            assert (
                await a.post("/api/login", json={"username": "pepa", "password": "wrong-one-1"})
            ).status_code == 401
            assert (
                await b.post("/api/login", json={"username": "PEPA", "password": "wrong-one-2"})
            ).status_code == 401
            locked = await c.post("/api/login", json={"username": "pepa", "password": PASSWORD})
            assert locked.status_code == 429
            assert int(locked.headers["retry-after"]) >= 1
            assert "too many failed log-ins" in locked.json()["detail"]
            form = (await c.get("/login")).text
            token = form.split('name="csrf" value="', 1)[1].split('"', 1)[0]
            page = await c.post(
                "/login", data={"csrf": token, "username": "pepa", "password": PASSWORD}
            )
            assert page.status_code == 429 and "Too many failed log-ins" in page.text
            # vicent's successes cost nothing and pepa's failures are not his
            for _ in range(3):
                ok = await b.post("/api/login", json={"username": "vicent", "password": PASSWORD})
                assert ok.status_code == 200


def test_a_limiter_wait_takes_nothing() -> None:
    now = [0.0]
    limiter = RateLimiter(2, 60, clock=lambda: now[0])
    assert limiter.wait("k") == 0.0
    assert limiter.hit("k") == 0.0 and limiter.hit("k") == 0.0
    assert limiter.wait("k") == pytest.approx(30.0)  # one token every 30 s
    assert limiter.wait("k") == pytest.approx(30.0)  # looking took nothing
    now[0] = 30.0
    assert limiter.wait("k") == 0.0 and limiter.hit("k") == 0.0
