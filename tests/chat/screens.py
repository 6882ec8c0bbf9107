"""Screenshots of the table's chat at 375x667 and 1280x800 (run by hand:
``uv run --extra dev python -m tests.chat.screens``): a Bolot table of four guests with a
few messages, a reaction and a spectator's aside; as a player (chat closed then open on
the phone, open on the desktop), as a spectator, a refusal next to the field, the
message menu. Serves the app on a temporary SQLite database; saves PNGs under
/work/wt/shots/chat/ (``SHOTS`` to change it)."""

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

OUT = Path(os.environ.get("SHOTS", "/work/wt/shots/chat"))


async def seed(base: str) -> tuple[int, list[str], str]:
    async with httpx.AsyncClient(base_url=base) as c:
        tokens = []
        for name in ("Pepa", "Vicent", "Rosa", "Xavi", "Amparo"):
            tokens.append((await c.post("/api/session", json={"nickname": name})).json()["token"])
            c.cookies.clear()
        h = [{"Authorization": f"Bearer {t}"} for t in tokens]
        room = (await c.post("/api/rooms", json={"game": "bolot"}, headers=h[0])).json()
        for seat in range(4):
            await c.put(f"/api/rooms/{room['id']}/seats/{seat}", json={}, headers=h[seat])
        await c.post(f"/api/rooms/{room['id']}/start", headers=h[0])
        url = f"/api/rooms/{room['id']}/chat"
        await c.post(url, json={"reaction": "good_luck"}, headers=h[1])
        await c.post(url, json={"text": "Bona sort a tots!"}, headers=h[0])
        await c.post(url, json={"text": "<b>no</b> HTML here <script>x</script>"}, headers=h[2])
        await c.post(url, json={"reaction": "well_played"}, headers=h[3])
        await c.post(url, json={"text": "Quina mà té el de la dreta…"}, headers=h[4])
        # a second table whose match ends (Vicent resigns): its record shows the chat
        done = (await c.post("/api/rooms", json={"game": "bolot"}, headers=h[0])).json()
        for seat in range(4):
            await c.put(f"/api/rooms/{done['id']}/seats/{seat}", json={}, headers=h[seat])
        await c.post(f"/api/rooms/{done['id']}/start", headers=h[0])
        url = f"/api/rooms/{done['id']}/chat"
        await c.post(url, json={"text": "Som-hi!"}, headers=h[0])
        await c.post(url, json={"text": "Vicent no s'ho pensa gens"}, headers=h[4])
        await c.post(f"/api/rooms/{done['id']}/resign", headers=h[1])
        await c.post(url, json={"reaction": "good_game"}, headers=h[2])
        game_id = (await c.get(url)).json()["messages"][0]["game_id"]
        me = (await c.get("/api/me", headers=h[1])).json()["id"]
        global EXTRA
        EXTRA = [("record", f"/records/{game_id}"), ("player-page", f"/players/{me}")]
        return room["id"], tokens, tokens[4]


EXTRA: list[tuple[str, str]] = []


def main() -> None:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    tmp = tempfile.mkdtemp()
    port = _port()
    base = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/s.db",
        "TAPET_SECRET_KEY": "screenshots-of-the-table-chat",
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
                urllib.request.urlopen(base + "/")
                break
            except OSError:
                time.sleep(0.2)
        room_id, tokens, watcher = asyncio.run(seed(base))
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path="/usr/bin/chromium", args=["--headless", "--disable-gpu"]
            )
            for label, size in (
                ("phone", {"width": 375, "height": 667}),
                ("desktop", {"width": 1280, "height": 800}),
            ):
                for who, token in (("player", tokens[0]), ("spectator", watcher)):
                    ctx = browser.new_context(viewport=size)
                    ctx.add_cookies([{"name": "tapet_session", "value": token, "url": base}])
                    page = ctx.new_page()
                    page.goto(f"{base}/rooms/{room_id}?lang=ca")
                    page.wait_for_selector("[data-testid=chat-log]", state="attached")
                    page.wait_for_timeout(500)
                    page.screenshot(path=str(OUT / f"chat-{label}-{who}.png"))
                    if label == "phone":
                        page.click("[data-testid=table-menu] summary")  # ⚙, then Chat
                        page.click("[data-testid=chat-jump]")
                        page.wait_for_timeout(300)
                        page.screenshot(path=str(OUT / f"chat-{label}-{who}-open.png"))
                    if who == "player":
                        page.fill("[data-testid=chat-text]", "x" * 301)
                        page.evaluate(
                            "document.querySelector('[data-testid=chat-text]').removeAttribute('maxlength')"
                        )
                        page.fill("[data-testid=chat-text]", "x" * 301)
                        page.click("[data-testid=chat-send]")
                        page.wait_for_selector("[data-testid=chat-error]")
                        page.screenshot(
                            path=str(OUT / f"chat-{label}-refused.png"), full_page=label == "phone"
                        )
                        page.fill("[data-testid=chat-text]", "Som-hi!")
                        page.click("[data-testid=chat-send]")
                        page.wait_for_timeout(500)
                        page.click(".chat-msg:nth-child(1) .chat-menu summary")
                        page.screenshot(
                            path=str(OUT / f"chat-{label}-menu.png"), full_page=label == "phone"
                        )
                    ctx.close()
                for name, path in EXTRA:  # pages the chat touches, as Pepa
                    ctx = browser.new_context(viewport=size)
                    ctx.add_cookies([{"name": "tapet_session", "value": tokens[0], "url": base}])
                    page = ctx.new_page()
                    page.goto(f"{base}{path}?lang=ca")
                    page.screenshot(path=str(OUT / f"chat-{label}-{name}.png"), full_page=True)
                    ctx.close()
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)


if __name__ == "__main__":
    main()
