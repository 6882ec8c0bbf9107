"""Screenshots of the knockout's named rounds and champion, the pairing confirmation, the
message after an action and an early end, at 375x667 and 1280x800 (run by hand:
``uv run --extra dev python -m tests.tournaments.screens_knockout [OUT]``). Serves the
app on a temporary SQLite database, fills three championships through the API, then
opens the pages in Debian's chromium; PNGs under OUT (default screenshots/knockout)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import httpx

from tests.tournaments.screens import ROOT, _port

NAMES = [
    ("Pepa", "Vicent"),
    ("Amparo", "Toni"),
    ("Rosa", "Xavi"),
    ("Carme", "Quique"),
    ("Lola", "Paco"),
    ("Empar", "Josep"),
]


async def _tournament(
    c: httpx.AsyncClient, h: dict[str, str], name: str, fmt: str, teams: int
) -> tuple[int, list[int]]:
    t = (
        await c.post(
            "/api/tournaments",
            headers=h,
            json={"name": name, "game": "bolot", "format": fmt, "options": {"target": 300}},
        )
    ).json()
    ids = []
    for a, b in NAMES[:teams]:
        made = await c.post(
            f"/api/tournaments/{t['id']}/teams", headers=h, json={"players": [a, b]}
        )
        ids.append(made.json()["id"])
    return t["id"], ids


async def _round(c: httpx.AsyncClient, h: dict[str, str], tid: int, n: int) -> dict[str, Any]:
    draft = (await c.post(f"/api/tournaments/{tid}/rounds", headers=h)).json()
    await c.post(f"/api/tournaments/{tid}/rounds/{n}/publish", headers=h)
    for x in draft["tables"]:
        if x["away"]:
            await c.post(
                f"/api/tournaments/{tid}/tables/{x['number']}/result",
                headers=h,
                json={"home_score": 300, "away_score": 180},
            )
    await c.post(f"/api/tournaments/{tid}/rounds/{n}/close", headers=h)
    return draft


async def seed(base: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, timeout=30) as c:
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
        # a knockout of six, played to its champion
        ko, _ = await _tournament(c, h, "Copa de Bolot de Sagunt", "knockout", 6)
        for n in (1, 2, 3):
            await _round(c, h, ko, n)
        # a knockout of six at its semi-finals' preview
        semi, _ = await _tournament(c, h, "Copa de Bolot del Camp de Morvedre", "knockout", 6)
        await _round(c, h, semi, 1)
        await c.post(f"/api/tournaments/{semi}/rounds", headers=h)
        # a Swiss of five: round 1 played, round 2 previewed (the pairing to edit)
        swiss, ids = await _tournament(c, h, "Lliga de Bolot", "swiss", 5)
        a, b, cc, d, e = ids
        await c.post(f"/api/tournaments/{swiss}/rounds", headers=h)
        await c.put(
            f"/api/tournaments/{swiss}/rounds/1/pairing",
            headers=h,
            json={"tables": [[a, b], [cc, d], [e, None]]},
        )
        await c.post(f"/api/tournaments/{swiss}/rounds/1/publish", headers=h)
        for n in (1, 2):
            await c.post(
                f"/api/tournaments/{swiss}/tables/{n}/result",
                headers=h,
                json={"home_score": 300, "away_score": 180},
            )
        await c.post(f"/api/tournaments/{swiss}/rounds/1/close", headers=h)
        await c.post(f"/api/tournaments/{swiss}/rounds", headers=h)
        # a Swiss ended early, with its reason
        ended, _ = await _tournament(c, h, "Trofeu de Falles", "swiss", 4)
        await _round(c, h, ended, 1)
        await c.post(
            f"/api/tournaments/{ended}/end",
            headers=h,
            json={"reason": "el casal tanca a les vuit: pluja tot el dia"},
        )
        return {"token": token, "ko": ko, "semi": semi, "swiss": swiss, "ids": ids, "ended": ended}


def main() -> None:
    from playwright.sync_api import sync_playwright

    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "screenshots" / "knockout"
    out.mkdir(parents=True, exist_ok=True)
    tmp = tempfile.mkdtemp()
    port = _port()
    base = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/s.db",
        "TAPET_SECRET_KEY": "screenshots-of-the-knockout",
        "TAPET_BOT_DELAY": "0",
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
        s = asyncio.run(seed(base))
        ko, semi, swiss, ended = s["ko"], s["semi"], s["swiss"], s["ended"]
        pages = {
            "champion": f"/tournaments/{ko}",
            "champion-ca": f"/tournaments/{ko}?lang=ca",
            "standings": f"/tournaments/{ko}/standings?lang=en",
            "final-table": f"/tournaments/{ko}/tables/1?round=3",
            "print-pairings": f"/tournaments/{ko}/print/pairings?round=1",
            "print-sheets": f"/tournaments/{ko}/print/sheets?round=3",
            "manage-semi": f"/tournaments/{semi}/manage",
            "ended-early": f"/tournaments/{ended}",
        }
        a, b, c, d, e = s["ids"]
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path="/usr/bin/chromium", args=["--headless", "--disable-gpu"]
            )
            for label, size in (
                ("phone", {"width": 375, "height": 667}),
                ("desktop", {"width": 1280, "height": 800}),
            ):
                ctx = browser.new_context(viewport=size)
                ctx.add_cookies([{"name": "tapet_session", "value": s["token"], "url": base}])
                page = ctx.new_page()
                for name, path in pages.items():
                    page.goto(base + path)
                    page.screenshot(path=str(out / f"{label}-{name}.png"), full_page=True)
                # the pairing edited by hand: a v b again, e's second bye -> the second step
                page.goto(f"{base}/tournaments/{swiss}/manage?lang=en")
                page.click("[data-testid=pairing-edit] summary")
                for i, (home, away) in enumerate(((a, b), (c, d), (e, None)), 1):
                    page.select_option(f"select[name=home_{i}]", str(home))
                    page.select_option(f"select[name=away_{i}]", str(away) if away else "")
                page.click("[data-testid=pairing-edit] button[type=submit]")
                page.wait_for_selector("[data-testid=pairing-confirm]")
                page.screenshot(path=str(out / f"{label}-pairing-confirm.png"), full_page=True)
                page.screenshot(path=str(out / f"{label}-pairing-confirm-top.png"))
                page.click("[data-testid=pairing-confirm] button[type=submit]")
                page.wait_for_selector("[data-testid=flash]")
                page.screenshot(path=str(out / f"{label}-flash-saved.png"))
                # publish: the message in Catalan
                page.goto(f"{base}/tournaments/{swiss}/manage?lang=ca")
                page.click("form[action$='/rounds/2/publish'] button")
                page.wait_for_selector("[data-testid=flash]")
                page.screenshot(path=str(out / f"{label}-flash-published-ca.png"))
                # back to a draft for the next viewport
                page.click("[data-testid=unpublish] summary")
                page.click("form[action$='/rounds/2/unpublish'] button")
                page.wait_for_selector("[data-testid=flash]")
                ctx.close()
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)


if __name__ == "__main__":
    main()
