"""Screenshots of a championship of Belote for three at 375x667 and 1280x800 (run by
hand: ``uv run --extra dev python -m tests.tournaments.screens_three``): seven players,
round 1 entered (a bye), round 2 in play with one table on its deals; the manage page,
the standings, a table and the printable sheets saved as screenshots/three-*.png."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import time
import urllib.request

import httpx

from tests.tournaments.screens import OUT, ROOT, _port
from tests.tournaments.test_three_player import made


async def seed(base: str) -> tuple[int, str]:
    async with httpx.AsyncClient(base_url=base) as c:
        token = (
            await c.post(
                "/api/accounts",
                json={"username": "organitzador", "password": "correct horse battery"},
            )
        ).json()["token"]
        h = {"Authorization": f"Bearer {token}"}
        t = (
            await c.post(
                "/api/tournaments",
                headers=h,
                json={
                    "name": "Belote à trois du Casal",
                    "game": "belote-3p",
                    "format": "swiss",
                    "settings": {"rounds": 3, "match": {"kind": "deals", "deals": 6}},
                    "venue": "Casal, Sagunt",
                },
            )
        ).json()
        tid = t["id"]
        for name in ("Pepa", "Vicent", "Amparo", "Toni", "Rosa", "Xavi", "Carme"):
            await c.post(
                f"/api/tournaments/{tid}/teams", headers=h, json={"name": name, "players": [name]}
            )
        await c.post(f"/api/tournaments/{tid}/rounds", headers=h)
        await c.post(f"/api/tournaments/{tid}/rounds/1/publish", headers=h)
        for n, scores in ((1, (512, 377, 420)), (2, (298, 610, 455))):
            await c.post(
                f"/api/tournaments/{tid}/tables/{n}/result",
                headers=h,
                json={"home_score": scores[0], "away_score": scores[1], "third_score": scores[2]},
            )
        await c.post(f"/api/tournaments/{tid}/rounds/1/close", headers=h)
        await c.post(f"/api/tournaments/{tid}/rounds", headers=h)
        await c.post(f"/api/tournaments/{tid}/rounds/2/publish", headers=h)
        for taker in (0, 1, 2):
            await c.post(
                f"/api/tournaments/{tid}/tables/1/deals", headers=h, json={"summary": made(taker)}
            )
        return tid, token


def main() -> None:
    from playwright.sync_api import sync_playwright

    tmp = tempfile.mkdtemp()
    port = _port()
    base = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/s.db",
        "TAPET_SECRET_KEY": "screenshots-of-the-championships",
        "TAPET_BOT_DELAY": "0",
    }
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
        for _ in range(600):
            try:
                urllib.request.urlopen(base + "/tournaments")
                break
            except OSError:
                time.sleep(0.2)
        tid, token = asyncio.run(seed(base))
        pages = {
            "manage": f"/tournaments/{tid}/manage",
            "standings": f"/tournaments/{tid}/standings",
            "table": f"/tournaments/{tid}/tables/1",
            "live": f"/tournaments/{tid}",
            "sheets": f"/tournaments/{tid}/print/sheets",
        }
        OUT.mkdir(exist_ok=True)
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path="/usr/bin/chromium", args=["--headless", "--disable-gpu"]
            )
            for label, size in (
                ("phone", {"width": 375, "height": 667}),
                ("desktop", {"width": 1280, "height": 800}),
            ):
                ctx = browser.new_context(viewport=size)
                ctx.add_cookies([{"name": "tapet_session", "value": token, "url": base}])
                page = ctx.new_page()
                for name, path in pages.items():
                    page.goto(base + path)
                    page.screenshot(path=str(OUT / f"three-{label}-{name}.png"), full_page=True)
                ctx.close()
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)


if __name__ == "__main__":
    main()
