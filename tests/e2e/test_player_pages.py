"""Browser: a player page and a leaderboard on a phone (375x667) and a desktop (1280x800),
screenshots kept in screenshots/ (issue 17 §5, §6)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from app.core.db import make_engine, make_sessionmaker
from tests.records.test_ratings import record, stored_match, users

pytestmark = pytest.mark.slow

SIZES = {"phone": (375, 667), "desktop": (1280, 800)}


async def _seed(url: str) -> tuple[int, int]:
    """Four people, five ended matches (rated, casual, a resignation, a leave)."""
    engine = make_engine(url)
    app = SimpleNamespace(state=SimpleNamespace(sessionmaker=make_sessionmaker(engine)))
    try:
        ann, bea, cid, dan = await users(app, "Anna Marí", "Bea", "Cid", "Dolors")
        made = [
            await stored_match(app, "belote", [ann, "heuristic", bea, cid], seed=1),
            await stored_match(app, "belote", [cid, ann, "strong", dan], seed=2, minutes=1),
            await stored_match(
                app,
                "belote",
                [dan, bea, ann, cid],
                seed=8,
                minutes=2,
                end_reason="resigned",
                resigned_seat=1,
                deals=1,
            ),
            await stored_match(app, "belote-3p", [ann, bea, "random"], seed=3, minutes=3),
            await stored_match(app, "belote-2p", [ann, dan], seed=4, minutes=5, rated=False),
        ]
        for game_id, _ in made:
            await record(app, game_id)
        return ann, bea
    finally:
        await engine.dispose()


def test_player_page_and_leaderboard_fit_phone_and_desktop(
    live_url: str, database_url: str, browser: Any, screenshots: Path
) -> None:
    # Playwright's sync API runs a loop in this thread: seed from another one
    with ThreadPoolExecutor(1) as pool:
        ann, _ = pool.submit(asyncio.run, _seed(database_url)).result()
    for name, (width, height) in SIZES.items():
        context = browser.new_context(viewport={"width": width, "height": height})
        try:
            page = context.new_page()
            # a guest of its own: the header shows "My page"
            assert context.request.post(
                f"{live_url}/api/session", data={"nickname": f"Viewer {name}"}
            ).ok
            page.goto(f"{live_url}/players/{ann}")
            page.wait_for_selector("[data-testid=matches]")
            assert page.locator("[data-testid=my-page-link]").count() == 1
            assert page.locator("[data-testid=matches] tbody tr").count() == 5
            assert page.get_by_text("provisional").first.is_visible()
            overflow = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow <= 0, f"the player page scrolls sideways at {width}px"
            page.screenshot(path=str(screenshots / f"player-{name}.png"), full_page=True)
            page.goto(f"{live_url}/leaderboard/belote")
            page.wait_for_selector("[data-testid=board]")
            assert page.locator("tr.bot").count() == 3
            overflow = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow <= 0, f"the leaderboard scrolls sideways at {width}px"
            page.screenshot(path=str(screenshots / f"leaderboard-{name}.png"), full_page=True)
            # a nickname on the board leads to that player's page
            page.get_by_role("link", name="Anna Marí").click()
            page.wait_for_selector("[data-testid=player]")
            assert page.url.endswith(f"/players/{ann}")
            # the account page hides the viewer's own page; the owner still sees it
            page.goto(f"{live_url}/account")
            form = page.locator("[data-testid=profile-form]")
            form.locator("input[name=hidden]").check()
            page.screenshot(path=str(screenshots / f"account-profile-{name}.png"), full_page=True)
            form.get_by_role("button").click()
            page.wait_for_url(f"{live_url}/account")
            assert page.locator("[data-testid=profile-form] input[name=hidden]").is_checked()
            page.locator("[data-testid=my-page-link]").click()
            page.wait_for_selector("[data-testid=visibility]")
            assert "hidden" in page.locator("[data-testid=visibility]").inner_text()
        finally:
            context.close()
