"""The end of a session reaches its tokens and its sockets (issue 20): log-out, a password
change, a revoked session, a deleted account; stored sessions are listed, expire and are
revoked one by one; the same request fired many times at once is never a 500."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import httpx
import pytest
import websockets
from sqlalchemy import update

from app.accounts.models import AuthSession
from app.core.db import make_engine, make_sessionmaker, utcnow
from app.core.settings import Settings

PASSWORD = "correct horse battery"


async def _account(http: httpx.AsyncClient, username: str) -> str:
    made = await http.post("/api/accounts", json={"username": username, "password": PASSWORD})
    assert made.status_code == 201, made.text
    http.cookies.clear()
    return made.json()["token"]


async def _login(http: httpx.AsyncClient, username: str, password: str = PASSWORD) -> str:
    response = await http.post("/api/login", json={"username": username, "password": password})
    assert response.status_code == 200, response.text
    http.cookies.clear()
    return response.json()["token"]


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _closed(ws: websockets.ClientConnection, timeout: float = 10) -> bool:
    """True when the server closes ``ws`` within ``timeout`` seconds (views may come first)."""
    try:
        async with asyncio.timeout(timeout):
            while True:
                await ws.recv()
    except websockets.ConnectionClosed:
        return True
    except TimeoutError:
        return False


async def _room(http: httpx.AsyncClient, token: str) -> int:
    room = await http.post("/api/rooms", json={"game": "bolot"}, headers=_auth(token))
    assert room.status_code in (200, 201), room.text
    return room.json()["id"]


@pytest.mark.parametrize("how", ["logout", "page-logout", "password", "revoke", "delete"])
async def test_the_end_of_a_session_closes_its_sockets(live_server: str, how: str) -> None:
    ws_base = live_server.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=live_server) as http:
        token = await _account(http, "pepa")
        spare = await _login(http, "pepa")  # the same person on another device
        other = await _account(http, "vicent")  # someone else: untouched
        room = await _room(http, token)
        api = f"{ws_base}/api/rooms/{room}/ws"
        page = f"{ws_base}/rooms/{room}/ws"
        async with (
            websockets.connect(f"{api}?token={token}") as api_ws,
            websockets.connect(
                page, additional_headers={"Cookie": f"tapet_session={token}"}
            ) as page_ws,
            websockets.connect(f"{api}?token={other}") as bystander,
        ):
            await api_ws.recv(), await page_ws.recv(), await bystander.recv()
            if how == "logout":
                assert (await http.post("/api/logout", headers=_auth(spare))).status_code == 204
            elif how == "page-logout":
                cookie = {"Cookie": f"tapet_session={token}"}
                form = await http.get("/logout", headers=cookie)
                csrf = form.text.split('name="csrf" value="')[1].split('"')[0]
                out = await http.post("/logout", data={"csrf": csrf}, headers=cookie)
                assert out.status_code == 303
            elif how == "password":
                changed = await http.post(
                    "/api/password",
                    json={"current_password": PASSWORD, "new_password": "another long one"},
                    headers=_auth(spare),
                )
                assert changed.status_code == 200, changed.text
                assert (
                    await http.get("/api/me", headers=_auth(changed.json()["token"]))
                ).is_success
            elif how == "revoke":
                sessions = (await http.get("/api/sessions", headers=_auth(spare))).json()
                assert len(sessions) == 2 and sum(s["current"] for s in sessions) == 1
                mine = next(s["id"] for s in sessions if not s["current"])
                gone = await http.delete(f"/api/sessions/{mine}", headers=_auth(spare))
                assert gone.status_code == 204
            else:
                gone = await http.request(
                    "DELETE", "/api/me", json={"password": PASSWORD}, headers=_auth(spare)
                )
                assert gone.status_code == 204, gone.text
            assert await _closed(api_ws) and await _closed(page_ws)
            assert not await _closed(bystander, timeout=0.5)
        http.cookies.clear()
        assert (await http.get("/api/me", headers=_auth(token))).status_code == 401
        still = (await http.get("/api/me", headers=_auth(spare))).status_code
        assert still == (200 if how == "revoke" else 401)
        # a socket opened with the dead token now is a spectator's
        async with websockets.connect(f"{api}?token={token}") as late:
            assert '"my_seat":null' in (await late.recv()).replace(" ", "")


async def test_sessions_are_listed_and_revoked_one_by_one(client: httpx.AsyncClient) -> None:
    one = await _account(client, "pepa")
    two = await _login(client, "pepa")
    other = await _account(client, "vicent")
    listed = (await client.get("/api/sessions", headers=_auth(one))).json()
    assert [s["current"] for s in listed].count(True) == 1 and len(listed) == 2
    theirs = (await client.get("/api/sessions", headers=_auth(other))).json()[0]["id"]
    assert (await client.delete(f"/api/sessions/{theirs}", headers=_auth(one))).status_code == 404
    assert (await client.delete("/api/sessions/nope", headers=_auth(one))).status_code == 404
    second = next(s["id"] for s in listed if not s["current"])
    for _ in range(2):  # ending an ended session again: the same answer
        assert (
            await client.delete(f"/api/sessions/{second}", headers=_auth(one))
        ).status_code == 204
    assert (await client.get("/api/me", headers=_auth(two))).status_code == 401
    assert (await client.get("/api/me", headers=_auth(one))).status_code == 200
    assert (await client.get("/api/me", headers=_auth(other))).status_code == 200
    assert (await client.get("/api/sessions")).status_code == 401


async def test_a_session_expires(client: httpx.AsyncClient, settings: Settings) -> None:
    token = await _account(client, "pepa")
    assert (await client.get("/api/me", headers=_auth(token))).status_code == 200
    engine = make_engine(settings.db_url())
    try:
        async with make_sessionmaker(engine)() as db:
            await db.execute(update(AuthSession).values(expires_at=utcnow() - timedelta(seconds=1)))
            await db.commit()
    finally:
        await engine.dispose()
    assert (await client.get("/api/me", headers=_auth(token))).status_code == 401
    assert (await client.get("/api/sessions", headers=_auth(await _login(client, "pepa")))).json()


async def test_a_password_change_checks_the_old_one_and_ends_every_session(
    client: httpx.AsyncClient, guest: object
) -> None:
    token = await _account(client, "pepa")
    other = await _login(client, "pepa")
    body = {"current_password": "wrong password!", "new_password": "another long one"}
    assert (await client.post("/api/password", json=body, headers=_auth(token))).status_code == 401
    body = {"current_password": PASSWORD, "new_password": "short"}
    assert (await client.post("/api/password", json=body, headers=_auth(token))).status_code == 422
    assert (await client.get("/api/me", headers=_auth(other))).status_code == 200  # nothing ended
    body = {"current_password": PASSWORD, "new_password": "another long one"}
    changed = await client.post("/api/password", json=body, headers=_auth(token))
    assert changed.status_code == 200
    client.cookies.clear()
    for old in (token, other):
        assert (await client.get("/api/me", headers=_auth(old))).status_code == 401
    assert (await client.get("/api/me", headers=_auth(changed.json()["token"]))).status_code == 200
    bad = await client.post("/api/login", json={"username": "pepa", "password": PASSWORD})
    assert bad.status_code == 401
    await _login(client, "pepa", "another long one")
    visitor = await client.post("/api/session", json={"nickname": "Ana"})
    client.cookies.clear()
    refused = await client.post("/api/password", json=body, headers=_auth(visitor.json()["token"]))
    assert refused.status_code == 403  # a guest has no password


async def test_a_deleted_account_is_gone(client: httpx.AsyncClient) -> None:
    token = await _account(client, "pepa")
    wrong = await client.request(
        "DELETE", "/api/me", json={"password": "wrong password!"}, headers=_auth(token)
    )
    assert wrong.status_code == 401
    gone = await client.request(
        "DELETE", "/api/me", json={"password": PASSWORD}, headers=_auth(token)
    )
    assert gone.status_code == 204
    again = await client.request(
        "DELETE", "/api/me", json={"password": PASSWORD}, headers=_auth(token)
    )
    assert again.status_code == 401
    login = await client.post("/api/login", json={"username": "pepa", "password": PASSWORD})
    assert login.status_code == 401
    assert (
        await client.post("/api/accounts", json={"username": "pepa", "password": PASSWORD})
    ).status_code == 201


async def test_the_same_request_many_times_at_once(client: httpx.AsyncClient) -> None:
    """Races (run on PostgreSQL in CI): log-outs, revocations, password changes and
    deletions fired 12 at a time with one token: each a clean answer, never a 500."""
    for attempt in ("logout", "revoke", "password", "delete"):
        client.cookies.clear()
        token = await _account(client, f"race-{attempt}")
        sid = (await client.get("/api/sessions", headers=_auth(token))).json()[0]["id"]
        client.cookies.clear()

        async def fire(token: str = token, sid: str = sid, attempt: str = attempt) -> int:
            if attempt == "logout":
                response = await client.post("/api/logout", headers=_auth(token))
            elif attempt == "revoke":
                response = await client.delete(f"/api/sessions/{sid}", headers=_auth(token))
            elif attempt == "password":
                response = await client.post(
                    "/api/password",
                    json={"current_password": PASSWORD, "new_password": "another long one"},
                    headers=_auth(token),
                )
            else:
                response = await client.request(
                    "DELETE", "/api/me", json={"password": PASSWORD}, headers=_auth(token)
                )
            return response.status_code

        statuses = await asyncio.gather(*(fire() for _ in range(12)))
        assert set(statuses) <= {200, 204, 401}, (attempt, statuses)
        assert any(s in (200, 204) for s in statuses), (attempt, statuses)
        client.cookies.clear()
        assert (await client.get("/api/me", headers=_auth(token))).status_code == 401
