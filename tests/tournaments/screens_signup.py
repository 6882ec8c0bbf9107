"""Screenshots of the players' team requests at 375x667 and 1280x800 (run by hand:
``uv run --extra dev python -m tests.tournaments.screens_signup``): the championship
page with the request form, with a pending request, with a declined one (its reason),
as the partner named, as a guest, a refused request (its reason above the form as typed); the manage page's
pending list (and in Catalan). Serves the app on a
temporary SQLite database, fills a Bolot round robin through the API, saves PNGs under
/work/wt/shots/signup/ (``SHOTS`` to change it)."""

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

OUT = Path(os.environ.get("SHOTS", "/work/wt/shots/signup"))


async def _account(c: httpx.AsyncClient, username: str, nickname: str) -> str:
    r = await c.post(
        "/api/accounts",
        json={"username": username, "password": "correct horse battery", "nickname": nickname},
    )
    c.cookies.clear()
    return str(r.json()["token"])


async def seed(base: str) -> tuple[int, dict[str, str]]:
    async with httpx.AsyncClient(base_url=base) as c:
        tokens = {"org": await _account(c, "organitzador", "Organitzador")}
        for user in ("pepa", "vicent", "rosa", "xavi", "amparo", "toni", "carme", "quique"):
            tokens[user] = await _account(c, user, user.capitalize())
        h = {"Authorization": f"Bearer {tokens['org']}"}
        clubs = []
        for name, kind in (("Falla Plaça Major", "falla"), ("Penya El Bolot", "penya")):
            r = await c.post(
                "/api/clubs", json={"name": name, "kind": kind, "town": "Sagunt"}, headers=h
            )
            clubs.append(r.json()["id"])
        t = (
            await c.post(
                "/api/tournaments",
                headers=h,
                json={
                    "name": "Lliga de Bolot de les Penyes",
                    "game": "bolot",
                    "format": "round_robin",
                    "options": {"target": 300},
                    "settings": {"self_registration": True},
                    "venue": "Casal Faller, Sagunt",
                },
            )
        ).json()
        tid = t["id"]
        for i, (a, b) in enumerate((("Lola", "Paco"), ("Empar", "Josep"), ("Maria", "Ximo"))):
            await c.post(
                f"/api/tournaments/{tid}/teams",
                headers=h,
                json={"players": [a, b], "club_id": clubs[i % 2]},
            )

        def as_(user: str) -> dict[str, str]:
            return {"Authorization": f"Bearer {tokens[user]}"}

        await c.post(
            f"/api/tournaments/{tid}/requests",
            headers=as_("rosa"),
            json={"name": "Les Rosses", "partner": "xavi", "club_id": clubs[1]},
        )
        declined = (
            await c.post(
                f"/api/tournaments/{tid}/requests",
                headers=as_("amparo"),
                json={"partner": "toni"},
            )
        ).json()
        await c.post(
            f"/api/tournaments/{tid}/requests/{declined['id']}/decline",
            headers=h,
            json={"reason": "Falta pagar la inscripció (10 €)"},
        )
        await c.post(
            f"/api/tournaments/{tid}/requests",
            headers=as_("carme"),
            json={"name": "Carme i Quique, Falla Plaça Major", "partner": "quique"},
        )
        return tid, tokens


def main() -> None:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    tmp = tempfile.mkdtemp()
    port = _port()
    base = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/s.db",
        "TAPET_SECRET_KEY": "screenshots-of-the-team-requests",
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
        tid, tokens = asyncio.run(seed(base))
        shots = [
            ("form", "pepa", f"/tournaments/{tid}#signup"),
            ("pending", "rosa", f"/tournaments/{tid}#signup"),
            ("partner", "xavi", f"/tournaments/{tid}#signup"),
            ("declined", "amparo", f"/tournaments/{tid}#signup"),
            ("guest", None, f"/tournaments/{tid}#signup"),
            ("manage", "org", f"/tournaments/{tid}/manage"),
        ]
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path="/usr/bin/chromium", args=["--headless", "--disable-gpu"]
            )
            for label, size in (
                ("phone", {"width": 375, "height": 667}),
                ("desktop", {"width": 1280, "height": 800}),
            ):
                for name, who, path in shots:
                    ctx = browser.new_context(viewport=size)
                    if who:
                        ctx.add_cookies(
                            [{"name": "tapet_session", "value": tokens[who], "url": base}]
                        )
                    page = ctx.new_page()
                    page.goto(base + path)
                    page.screenshot(path=str(OUT / f"signup-{label}-{name}.png"), full_page=True)
                    if name == "form":  # a refused request comes back with its reason
                        page.fill("input[name=partner]", "ningu")
                        page.fill("input[name=name]", "Els Rocs")
                        page.click("[data-testid=request-form] button[type=submit]")
                        page.screenshot(
                            path=str(OUT / f"signup-{label}-refused.png"), full_page=True
                        )
                    if name == "manage":  # the organiser's page in Catalan
                        page.goto(base + path + "?lang=ca")
                        page.screenshot(
                            path=str(OUT / f"signup-{label}-manage-ca.png"), full_page=True
                        )
                    ctx.close()
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)


if __name__ == "__main__":
    main()
