"""Screenshots of the championship pages at 375x667 and 1280x900 (run by hand:
``uv run --extra dev python -m tests.tournaments.screens``). Serves the app on a
temporary SQLite database, fills a Bolot Swiss through the API, then opens the
pages in Debian's chromium and saves PNGs under screenshots/tournament-*.png."""

from __future__ import annotations

import asyncio
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import httpx

from tests.tournaments.conftest import bolot_deal

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "screenshots"


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def seed(base: str) -> tuple[int, str]:
    async with httpx.AsyncClient(base_url=base) as c:
        token = (
            await c.post(
                "/api/accounts",
                json={
                    "username": "organitzador",
                    "password": "correct horse battery",
                    "nickname": "Organitzador",
                },
            )
        ).json()["token"]
        h = {"Authorization": f"Bearer {token}"}
        clubs = []
        for name, kind in (
            ("Falla Plaça Major", "falla"),
            ("Penya El Bolot", "penya"),
            ("Falla Mig Camí", "falla"),
            ("Societat Recreativa", "society"),
        ):
            clubs.append(
                (
                    await c.post(
                        "/api/clubs", json={"name": name, "kind": kind, "town": "Sagunt"}, headers=h
                    )
                ).json()["id"]
            )
        t = (
            await c.post(
                "/api/tournaments",
                headers=h,
                json={
                    "name": "Campionat de Bolot de Falles 2026",
                    "game": "bolot",
                    "format": "swiss",
                    "options": {"target": 300},
                    "settings": {"rounds": 4},
                    "venue": "Casal Faller, Sagunt",
                },
            )
        ).json()
        tid = t["id"]
        names = [
            ("Pepa", "Vicent"),
            ("Amparo", "Toni"),
            ("Rosa", "Xavi"),
            ("Carme", "Quique"),
            ("Lola", "Paco"),
            ("Empar", "Josep"),
            ("Maria", "Ximo"),
            ("Teresa", "Pau"),
            ("Nela", "Berto"),
        ]
        for i, (a, b) in enumerate(names):
            await c.post(
                f"/api/tournaments/{tid}/teams",
                headers=h,
                json={"players": [a, b], "club_id": clubs[i % 4]},
            )
        rng = random.Random(3)
        for n in (1, 2):
            draft = (await c.post(f"/api/tournaments/{tid}/rounds", headers=h)).json()
            await c.post(f"/api/tournaments/{tid}/rounds/{n}/publish", headers=h)
            for x in draft["tables"]:
                if not x["away"]:
                    continue
                if n == 2 and x["number"] >= 3:
                    await c.post(
                        f"/api/tournaments/{tid}/tables/{x['number']}/deals",
                        headers=h,
                        json={"summary": bolot_deal(rng)},
                    )
                    continue
                status = "pending"
                while status != "done":
                    status = (
                        await c.post(
                            f"/api/tournaments/{tid}/tables/{x['number']}/deals",
                            headers=h,
                            json={"summary": bolot_deal(rng)},
                        )
                    ).json()["status"]
            if n == 1:
                await c.post(f"/api/tournaments/{tid}/rounds/1/close", headers=h)
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
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/tournaments")
                break
            except OSError:
                time.sleep(0.2)
        tid, token = asyncio.run(seed(base))
        pages = {
            "live": f"/tournaments/{tid}",
            "standings": f"/tournaments/{tid}/standings",
            "team": f"/tournaments/{tid}/teams/1",
            "manage": f"/tournaments/{tid}/manage",
            "table": f"/tournaments/{tid}/tables/3",
            "index": "/tournaments",
            "sheets": f"/tournaments/{tid}/print/sheets",
        }
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path="/usr/bin/chromium", args=["--headless", "--disable-gpu"]
            )
            for label, size in (
                ("phone", {"width": 375, "height": 667}),
                ("desktop", {"width": 1280, "height": 900}),
            ):
                ctx = browser.new_context(viewport=size)
                ctx.add_cookies([{"name": "tapet_session", "value": token, "url": base}])
                page = ctx.new_page()
                for name, path in pages.items():
                    page.goto(base + path)
                    page.screenshot(
                        path=str(OUT / f"tournament-{label}-{name}.png"), full_page=True
                    )
                ctx.close()
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)


if __name__ == "__main__":
    main()
