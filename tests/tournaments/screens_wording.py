"""Screenshots of the pages issue 19 §4-§6 changed, in Catalan, at 375x667 and
1280x800 (run by hand: ``uv run --extra dev python -m tests.tournaments.screens_wording
[OUT]``): a Bolot Swiss with a drawn match worth ½ (joc/partida, 0,5, Buchholz), a
Botifarra round robin (partida/mà), and the creation form's tie-break selects, also
refused for a repeated choice. Serves the app on a temporary SQLite database."""

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

OUT = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "screenshots"


async def seed(base: str) -> tuple[int, int, str, int]:
    """(Bolot tournament, Botifarra tournament, the organiser's token, a Bolot room)."""
    async with httpx.AsyncClient(base_url=base) as c:
        token = (
            await c.post(
                "/api/accounts",
                json={"username": "organitzador", "password": "correct horse battery"},
            )
        ).json()["token"]
        h = {"Authorization": f"Bearer {token}"}
        club = (await c.post("/api/clubs", json={"name": "Falla Plaça Major"}, headers=h)).json()[
            "id"
        ]
        bolot = (
            await c.post(
                "/api/tournaments",
                headers=h,
                json={
                    "name": "Campionat de Bolot 2026",
                    "game": "bolot",
                    "format": "swiss",
                    "options": {"target": 1000},
                    "settings": {
                        "rounds": 3,
                        "match": {"kind": "target", "deals": 12},
                        "points": {"draw": 0.5},
                    },
                    "venue": "Casal Faller, Sagunt",
                },
            )
        ).json()["id"]
        for a, b in (
            ("Pepa", "Vicent"),
            ("Amparo", "Toni"),
            ("Rosa", "Xavi"),
            ("Carme", "Quique"),
            ("Lola", "Paco"),
            ("Empar", "Josep"),
        ):
            await c.post(
                f"/api/tournaments/{bolot}/teams",
                headers=h,
                json={"players": [a, b], "club_id": club if a == "Pepa" else None},
            )
        await c.post(f"/api/tournaments/{bolot}/rounds", headers=h)
        await c.post(f"/api/tournaments/{bolot}/rounds/1/publish", headers=h)
        for n, (home, away) in ((1, (1000, 640)), (2, (700, 700)), (3, (520, 1010))):
            await c.post(
                f"/api/tournaments/{bolot}/tables/{n}/result",
                headers=h,
                json={"home_score": home, "away_score": away},
            )
        await c.post(f"/api/tournaments/{bolot}/rounds/1/close", headers=h)
        await c.post(f"/api/tournaments/{bolot}/rounds", headers=h)
        await c.post(f"/api/tournaments/{bolot}/rounds/2/publish", headers=h)
        await c.post(
            f"/api/tournaments/{bolot}/tables/1/deals",
            headers=h,
            json={
                "summary": {
                    "contract": {"trump": "o", "taker_team": 0, "eldest_team": 0},
                    "card_points": [100, 52],
                    "tricks": [5, 3],
                    "last_trick_team": 0,
                    "declarations": [[], []],
                    "belote": [0, 0],
                }
            },
        )
        botifarra = (
            await c.post(
                "/api/tournaments",
                headers=h,
                json={
                    "name": "Lliga de Botifarra",
                    "game": "botifarra",
                    "format": "round_robin",
                    "options": {"target": 101},
                    "settings": {"match": {"kind": "target", "deals": 10}},
                },
            )
        ).json()["id"]
        for a, b in (("Jordi", "Marta"), ("Pere", "Anna"), ("Joan", "Núria"), ("Pau", "Laia")):
            await c.post(f"/api/tournaments/{botifarra}/teams", headers=h, json={"players": [a, b]})
        await c.post(f"/api/tournaments/{botifarra}/rounds", headers=h)
        await c.post(f"/api/tournaments/{botifarra}/rounds/1/publish", headers=h)
        await c.post(
            f"/api/tournaments/{botifarra}/tables/1/deals",
            headers=h,
            json={
                "summary": {
                    "contract": {
                        "trump": "o",
                        "botifarra": False,
                        "chooser_team": 0,
                        "doublings": 0,
                    },
                    "card_points": [36, 24],
                    "tricks": [7, 5],
                }
            },
        )
        # a Bolot room at the table: the score bar names the deal a "partida"
        room = (await c.post("/api/rooms", json={"game": "bolot", "options": {}}, headers=h)).json()
        await c.put(f"/api/rooms/{room['id']}/seats/0", json={}, headers=h)
        for seat in (1, 2, 3):
            await c.put(f"/api/rooms/{room['id']}/seats/{seat}", json={"bot": "random"}, headers=h)
        await c.post(f"/api/rooms/{room['id']}/start", json={}, headers=h)
        return bolot, botifarra, token, int(room["id"])


def main() -> None:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    tmp = tempfile.mkdtemp()
    port = _port()
    base = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/s.db",
        "TAPET_SECRET_KEY": "screenshots-of-the-wording",
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
        bolot, botifarra, token, room = asyncio.run(seed(base))
        pages = {
            "bolot-live": f"/tournaments/{bolot}",
            "bolot-standings": f"/tournaments/{bolot}/standings",
            "bolot-table": f"/tournaments/{bolot}/tables/1",
            "bolot-print-standings": f"/tournaments/{bolot}/print/standings",
            "bolot-print-sheets": f"/tournaments/{bolot}/print/sheets",
            "bolot-manage": f"/tournaments/{bolot}/manage",
            "botifarra-table": f"/tournaments/{botifarra}/tables/1",
            "botifarra-standings": f"/tournaments/{botifarra}/standings",
            "index": "/tournaments",
            "bolot-room": f"/rooms/{room}",
        }
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path="/usr/bin/chromium", args=["--headless", "--disable-gpu"]
            )
            for label, size in (
                ("phone", {"width": 375, "height": 667}),
                ("desktop", {"width": 1280, "height": 800}),
            ):
                ctx = browser.new_context(viewport=size)
                ctx.add_cookies(
                    [
                        {"name": "tapet_session", "value": token, "url": base},
                        {"name": "tapet_lang", "value": "ca", "url": base},
                    ]
                )
                page = ctx.new_page()
                for name, path in pages.items():
                    page.goto(base + path)
                    if name == "bolot-room":
                        page.wait_for_timeout(1500)  # the bots' first calls
                    page.screenshot(path=str(OUT / f"{label}-{name}.png"), full_page=True)
                # the creation form refused for a tie-break chosen twice
                page.goto(base + "/tournaments")
                page.fill("input[name=name]", "Campionat de tardor")
                page.select_option("select[name=format]", "swiss")
                page.select_option("select[name=tiebreak_1]", "buchholz")
                page.select_option("select[name=tiebreak_2]", "buchholz")
                page.click("[data-testid=create-form] button[type=submit]")
                page.locator("#tiebreaks-error").scroll_into_view_if_needed()
                page.screenshot(path=str(OUT / f"{label}-index-refused.png"))
                ctx.close()
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)


if __name__ == "__main__":
    main()
