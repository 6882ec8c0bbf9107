"""Screenshots of the table page's "Points only" form (issue 19 §2) at 375x667 and
1280x800 (run by hand: ``uv run --extra dev python -m tests.tournaments.screens_points
[OUT_DIR]``): the Bolot Swiss of ``screens.seed``, a points-only deal entered at table 3
of round 2, then the table page, the form refusing an impossible deal, the correction
form of the points-only deal and the printed score sheets."""

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

from tests.tournaments.screens import ROOT, _port, seed


async def points_deal(base: str, tid: int, token: str) -> None:
    async with httpx.AsyncClient(base_url=base) as c:
        r = await c.post(
            f"/api/tournaments/{tid}/tables/3/deals",
            headers={"Authorization": f"Bearer {token}"},
            json={"points": [64, 98]},
        )
        assert r.status_code == 201, r.text


def main() -> None:
    from playwright.sync_api import sync_playwright

    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    tmp = tempfile.mkdtemp()
    port = _port()
    base = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/s.db",
        "TAPET_SECRET_KEY": "screenshots-of-the-points-only-form",
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
        asyncio.run(points_deal(base, tid, token))
        table = f"/tournaments/{tid}/tables/3"
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path="/usr/bin/chromium", args=["--headless", "--disable-gpu"]
            )
            for label, size in (
                ("375x667", {"width": 375, "height": 667}),
                ("1280x800", {"width": 1280, "height": 800}),
            ):
                ctx = browser.new_context(viewport=size)
                ctx.add_cookies([{"name": "tapet_session", "value": token, "url": base}])
                page = ctx.new_page()
                page.goto(base + table)
                page.screenshot(path=str(out / f"table-{label}.png"), full_page=True)
                page.locator("#points-only").screenshot(path=str(out / f"points-form-{label}.png"))
                page.fill('[data-testid="p0"]', "1100")
                page.fill('[data-testid="p1"]', "0")
                page.click('[data-testid="add-points"]')
                page.wait_for_load_state()
                page.locator("#points-only").screenshot(
                    path=str(out / f"points-refused-{label}.png")
                )
                page.goto(base + table + "?round=2&fix=2#fix")
                page.locator('[data-testid="fix-panel"]').screenshot(
                    path=str(out / f"points-fix-{label}.png")
                )
                page.goto(base + f"/tournaments/{tid}/print/sheets")
                page.screenshot(path=str(out / f"sheets-{label}.png"))
                ctx.close()
            # the Catalan page on a phone: the longest words must still fit
            ctx = browser.new_context(viewport={"width": 375, "height": 667}, locale="ca-ES")
            ctx.add_cookies([{"name": "tapet_session", "value": token, "url": base}])
            page = ctx.new_page()
            page.goto(base + table)
            page.screenshot(path=str(out / "table-ca-375x667.png"), full_page=True)
            ctx.close()
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)


if __name__ == "__main__":
    main()
