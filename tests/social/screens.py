"""Screenshots of friends and presence at 375x667 and 1280x800 (run by hand:
``uv run --extra dev python -m tests.social.screens``): a player page with Follow, and
after following (Unfollow); the Following page (online at a table with a free seat, online
at a full table, one who hid their status, one offline; the invite box of one's own table),
also in Catalan; the account page's online-status setting. Serves the app on a temporary
SQLite database, saves PNGs under /work/wt/shots/social/ (``SHOTS`` to change it)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import httpx

from tests.tournaments.screens import ROOT, _port

OUT = Path(os.environ.get("SHOTS", "/work/wt/shots/social"))


async def _account(c: httpx.AsyncClient, username: str, nickname: str) -> tuple[str, int]:
    r = await c.post(
        "/api/accounts",
        json={"username": username, "password": "correct horse battery", "nickname": nickname},
    )
    c.cookies.clear()
    token = str(r.json()["token"])
    # the id from the token's payload (signed, not secret): no request with the token, so
    # nobody is marked online by being created
    from itsdangerous import URLSafeTimedSerializer

    claims = URLSafeTimedSerializer("unused").loads_unsafe(token)[1]
    return token, int(claims["uid"])


async def _room(c: httpx.AsyncClient, h: dict[str, str], bots: bool) -> int:
    room = (await c.post("/api/rooms", json={"game": "bolot", "options": {}}, headers=h)).json()
    await c.put(f"/api/rooms/{room['id']}/seats/0", json={}, headers=h)
    if bots:
        for seat in (1, 2, 3):
            await c.put(
                f"/api/rooms/{room['id']}/seats/{seat}", json={"bot": "heuristic"}, headers=h
            )
        await c.post(f"/api/rooms/{room['id']}/start", headers=h)
    return int(room["id"])


async def seed(base: str) -> tuple[dict[str, str], dict[str, int]]:
    async with httpx.AsyncClient(base_url=base) as c:
        tokens, ids = {}, {}
        for user in ("pepa", "vicent", "rosa", "xavi", "amparo", "toni"):
            tokens[user], ids[user] = await _account(c, user, user.capitalize())
        h = {u: {"Authorization": f"Bearer {t}"} for u, t in tokens.items()}
        for other in ("vicent", "rosa", "xavi", "amparo"):
            await c.put(f"/api/players/{ids[other]}/follow", headers=h["pepa"])
        await _room(c, h["pepa"], bots=False)  # Pepa's table: three free seats
        await _room(c, h["vicent"], bots=False)  # Vicent waits at a table with free seats
        await _room(c, h["rosa"], bots=True)  # Rosa plays with three bots
        await _room(c, h["xavi"], bots=False)
        await c.put("/api/account/presence", json={"hidden": True}, headers=h["xavi"])
        # Amparo made no request with her token since signing up: not online
        return tokens, ids


def main() -> None:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    tmp = tempfile.mkdtemp()
    port = _port()
    base = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/s.db",
        "TAPET_SECRET_KEY": "screenshots-of-friends-and-presence",
        "TAPET_BOT_DELAY": "2",
    }
    env.pop("REDIS_URL", None)
    subprocess.run(
        [sys.executable, "-m", "app.tools.cli", "migrate"], env=env, cwd=ROOT, check=False
    )
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "--factory",
            "app.main:create_app",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        env=env,
        cwd=ROOT,
    )
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/tournaments")
                break
            except OSError:
                time.sleep(0.2)
        tokens, ids = asyncio.run(seed(base))
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path="/usr/bin/chromium", args=["--headless", "--disable-gpu"]
            )
            for label, size in (
                ("phone", {"width": 375, "height": 667}),
                ("desktop", {"width": 1280, "height": 800}),
            ):
                ctx = browser.new_context(viewport=size)  # type: ignore[arg-type]  # a ViewportSize
                ctx.add_cookies([{"name": "tapet_session", "value": tokens["pepa"], "url": base}])
                page = ctx.new_page()
                page.goto(f"{base}/players/{ids['toni']}")
                page.wait_for_selector("[data-testid=follow]")
                page.screenshot(path=str(OUT / f"social-{label}-player-follow.png"), full_page=True)
                page.click("[data-testid=follow]")
                page.wait_for_selector("[data-testid=unfollow]")
                page.screenshot(
                    path=str(OUT / f"social-{label}-player-following.png"), full_page=True
                )
                page.goto(f"{base}/players/{ids['pepa']}")  # My page: the link to Following
                page.screenshot(path=str(OUT / f"social-{label}-my-page.png"), full_page=True)
                page.click("[data-testid=following-link]")
                page.screenshot(path=str(OUT / f"social-{label}-following.png"), full_page=True)
                page.click("[data-testid=invite-" + str(ids["vicent"]) + "] summary")
                page.screenshot(
                    path=str(OUT / f"social-{label}-following-invite.png"), full_page=True
                )
                page.goto(f"{base}/following?lang=ca")
                page.screenshot(path=str(OUT / f"social-{label}-following-ca.png"), full_page=True)
                page.goto(f"{base}/account?lang=en")
                page.screenshot(path=str(OUT / f"social-{label}-account.png"), full_page=True)
                ctx.close()
                # unfollow Toni again so the next size starts from "Follow"
                urllib.request.urlopen(
                    urllib.request.Request(
                        f"{base}/api/players/{ids['toni']}/follow",
                        method="DELETE",
                        headers={"Authorization": f"Bearer {tokens['pepa']}"},
                    )
                )
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)


if __name__ == "__main__":
    main()
