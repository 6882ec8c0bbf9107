"""Screenshots of invitations at 375x667 and 1280x800 (run by hand:
``uv run --extra dev python -m tests.table.screens_invites [OUT]``): the share panel of a
waiting table and of a started one, the lobby's code field (and a wrong code), the
invitation with an offered seat, and a private table refused to a visitor. Serves the
app on a temporary SQLite database; saves PNGs under OUT (default /work/wt/shots/invites).
It also checks the "your turn" title of a hidden tab (printed)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from tests.e2e.helpers import DESKTOP, PHONE, api, guest

ROOT = Path(__file__).resolve().parents[2]


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _context(browser: Any, base: str, size: dict[str, int], token: str | None) -> Any:
    ctx = browser.new_context(viewport=size)
    if token:
        ctx.add_cookies([{"name": "tapet_session", "value": token, "url": base}])
    return ctx


def main() -> None:
    from playwright.sync_api import sync_playwright

    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/work/wt/shots/invites")
    out.mkdir(parents=True, exist_ok=True)
    tmp = tempfile.mkdtemp()
    port = _port()
    base = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/s.db",
        "TAPET_SECRET_KEY": "screenshots-of-the-invitations",
        "TAPET_BOT_DELAY": "0",
    }
    env.pop("REDIS_URL", None)
    subprocess.run(
        [sys.executable, "-m", "app.tools.cli", "migrate"], env=env, cwd=ROOT, check=False
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--factory", "app.main:create_app", "--port", str(port)]
        + ["--log-level", "warning"],
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
        host = guest(base, "Amparo")
        # a private waiting table: Amparo in seat 0, a bot in seat 1, seat 2 offered
        waiting = api(base, "POST", "/api/rooms", host, {"game": "botifarra", "private": True})
        api(base, "PUT", f"/api/rooms/{waiting['id']}/seats/0", host, {})
        api(base, "PUT", f"/api/rooms/{waiting['id']}/seats/1", host, {"bot": "heuristic"})
        api(base, "PUT", f"/api/rooms/{waiting['id']}/offers/2", host, {"offered": True})
        code = api(base, "GET", f"/api/rooms/{waiting['id']}/invitation", host)["code"]
        # a public started table with bots, where Amparo offers a bot's seat
        live = api(base, "POST", "/api/rooms", host, {"game": "bolot", "rated": False})
        api(base, "PUT", f"/api/rooms/{live['id']}/seats/0", host, {})
        for seat in (1, 2, 3):
            api(base, "PUT", f"/api/rooms/{live['id']}/seats/{seat}", host, {"bot": "heuristic"})
        api(base, "POST", f"/api/rooms/{live['id']}/start", host)
        api(base, "PUT", f"/api/rooms/{live['id']}/offers/3", host, {"offered": True})
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path="/usr/bin/chromium", args=["--headless", "--disable-gpu"]
            )
            for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
                ctx = _context(browser, base, size, host)
                page = ctx.new_page()
                page.goto(f"{base}/rooms/{waiting['id']}?share=1")
                page.wait_for_timeout(600)
                page.screenshot(path=str(out / f"{label}-share-waiting.png"))
                page.goto(f"{base}/rooms/{live['id']}?share=1")
                page.wait_for_timeout(1500)
                page.screenshot(path=str(out / f"{label}-share-table.png"))
                page.goto(f"{base}/rooms/{live['id']}")
                page.wait_for_timeout(1500)
                page.click("[data-testid=table-menu] summary")
                page.screenshot(path=str(out / f"{label}-table-menu-notify.png"))
                # the title of a hidden tab when it is Amparo's turn
                page.evaluate(
                    "Object.defineProperty(document, 'hidden', {get: () => true});"
                    "document.dispatchEvent(new Event('visibilitychange'))"
                )
                turn = page.locator(".prompt.my-turn").count()
                print(label, "my turn:", bool(turn), "hidden title:", page.title())
                ctx.close()

                visitor = _context(browser, base, size, None)
                page = visitor.new_page()
                page.goto(base + "/")
                page.screenshot(path=str(out / f"{label}-lobby-code.png"))
                page.fill("#lobby-code", "zzz-zz2")
                page.click("[data-testid=lobby-join-code] button")
                page.screenshot(path=str(out / f"{label}-lobby-code-wrong.png"))
                page.goto(f"{base}/rooms/{waiting['id']}")
                page.screenshot(path=str(out / f"{label}-private-refused.png"))
                page.goto(f"{base}/join/{code}")
                page.screenshot(path=str(out / f"{label}-invitation.png"))
                visitor.close()
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)


if __name__ == "__main__":
    main()
