"""Quick play with people in two browsers: two visitors join the Bolot queue from its
page (a nickname each, a 10 s wait); nobody else comes, so after the wait bots take the
two empty seats and both pages are sent to the same table, each person seated there.
Screenshots of the join form and the waiting page at 375 x 667 and 1280 x 800 go to
screenshots/ (gitignored)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import DESKTOP, PHONE, api

pytestmark = pytest.mark.slow  # a browser and a live server


def _join(browser: Any, base: str, nickname: str, viewport: dict[str, int]) -> Any:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(f"{base}/")
    page.locator("[data-testid=queue-bolot]").click()
    page.wait_for_url(re.compile(r"/queue\?game=bolot$"))
    page.locator("[data-testid=nickname]").fill(nickname)
    page.locator("[data-testid=queue-wait]").select_option("10")
    return page


def test_two_browsers_in_the_queue_land_at_the_same_table(
    browser: Any, live_url: str, screenshots: Path
) -> None:
    ana = _join(browser, live_url, "Ana Queue", PHONE)
    ana.screenshot(path=str(screenshots / "queue-join-phone.png"), full_page=True)
    ana.locator("[data-testid=queue-join]").click()
    ana.wait_for_url(re.compile(r"/queue$"))
    ben = _join(browser, live_url, "Ben Queue", DESKTOP)
    ben.locator("[data-testid=queue-join]").click()
    ben.wait_for_url(re.compile(r"/queue$"))
    # the waiting pages count both people and the seconds waited, live
    for page in (ana, ben):
        page.locator("[data-testid=queue-waiting]").filter(has_text="2").wait_for(timeout=5000)
    ana.wait_for_timeout(2500)  # a poll later: the clock has moved
    assert not ana.locator("[data-testid=queue-waited]").inner_text().startswith("0")
    ana.screenshot(path=str(screenshots / "queue-waiting-phone.png"), full_page=True)
    ben.screenshot(path=str(screenshots / "queue-waiting-desktop.png"), full_page=True)
    # after the 10 s wait both go to one table: Ana and Ben seated, bots in the rest
    for page in (ana, ben):
        page.wait_for_url(re.compile(r"/rooms/\d+$"), timeout=30_000)
    assert ana.url == ben.url
    room = api(live_url, "GET", "/api/rooms/" + ana.url.rsplit("/", 1)[1])
    kinds = {s["name"]: s["kind"] for s in room["seats"]}
    assert kinds.get("Ana Queue") == kinds.get("Ben Queue") == "person"
    assert [s["kind"] for s in room["seats"]].count("bot") == 2
    assert room["status"] == "playing"
    ben.screenshot(path=str(screenshots / "queue-table-desktop.png"))
    ana.context.close()
    ben.context.close()


def test_the_join_form_and_a_partner_entry(browser: Any, live_url: str, screenshots: Path) -> None:
    """Contrée shows its rules presets (Bolot has none); a partner entry's page gives the
    link to send."""
    page = _join(browser, live_url, "Cai Queue", DESKTOP)
    assert not page.locator("#preset-contree").is_visible()
    page.locator("[data-testid=queue-game]").select_option("contree")
    assert page.locator("#preset-contree").is_visible()
    page.locator("#preset-contree").select_option("coinche")
    page.locator("[data-testid=queue-partner]").check()
    page.screenshot(path=str(screenshots / "queue-join-desktop.png"), full_page=True)
    page.locator("[data-testid=queue-join]").click()
    page.wait_for_url(re.compile(r"/queue$"))
    link = page.locator("[data-testid=partner-link]").inner_text()
    assert re.search(r"/queue/p/[A-Z0-9]{6}$", link)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(screenshots / "queue-partner-phone.png"), full_page=True)
    page.context.close()
