"""The walking skeleton in a real browser: a whole Bolot deal against bots, by clicking.

One person opens the lobby, picks a nickname, creates a Bolot room, sits,
fills the other seats with bots, starts, and plays until the first deal's
result is on the table: bidding when asked (the first offered call, which is
a take, so the deal is played), declaring when asked, clicking a playable
card when it is their turn. Along the way: a double click on a card shows no
error, a spectator sees no hand, and the table fits a 375 x 667 phone screen.
Screenshots go to screenshots/ (gitignored).
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow  # the full suite only (.ci/run; pytest -m '')

PHONE = {"width": 375, "height": 667}
DESKTOP = {"width": 1280, "height": 800}
DEAL_TIMEOUT = 120.0  # seconds for one whole deal (bots answer at once)


def _click_quietly(locator: Any, double: bool = False) -> bool:
    """Click if the element is still there; the live table may replace it meanwhile."""
    try:
        if double:
            locator.dblclick(timeout=1500)
        else:
            locator.click(timeout=1500)
        return True
    except Exception:  # noqa: BLE001 - a detached or replaced element: try again next round
        return False


def play_until_result(page: Any, shots: Path, prefix: str) -> dict[str, int]:
    """Act whenever the table asks until the deal's result appears; returns what was done."""
    done = {"calls": 0, "declares": 0, "cards": 0, "double_clicks": 0}
    deadline = time.monotonic() + DEAL_TIMEOUT
    shot_taken = False
    while time.monotonic() < deadline:
        if page.locator("[data-testid=last-deal]").count():
            return done
        calls = page.locator("[data-testid=calls] button")
        declares = page.locator("[data-testid=declares] button")
        playable = page.locator("[data-testid=hand] button.playable")
        if calls.count():
            done["calls"] += _click_quietly(calls.first)
        elif declares.count():
            done["declares"] += _click_quietly(declares.first)
        elif playable.count():
            toggle = page.locator(".toggle-last")
            if not done.get("looked_back") and toggle.count() and _click_quietly(toggle):
                done["looked_back"] = 1  # the previous trick, shown on request
                page.screenshot(path=str(shots / f"{prefix}-previous-trick.png"))
                page.evaluate("document.body.classList.remove('show-last')")
                continue
            if not shot_taken:
                page.screenshot(path=str(shots / f"{prefix}-table-my-turn.png"))
                shot_taken = True
            double = done["double_clicks"] == 0
            if _click_quietly(playable.first, double=double):
                done["cards"] += 1
                done["double_clicks"] += double
                if double:
                    page.wait_for_timeout(400)
                    assert not page.locator("[data-testid=flash]").count(), (
                        "a double click on a card showed a message: "
                        + page.locator("#flash").inner_text()
                    )
        else:
            page.wait_for_timeout(100)
    pytest.fail(
        f"no deal result after {DEAL_TIMEOUT} s; did {done}; status: "
        + page.locator("[data-testid=status]").inner_text()
    )


def test_a_whole_bolot_deal_against_bots(browser: Any, live_url: str, screenshots: Path) -> None:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    page.goto(live_url + "/")
    page.screenshot(path=str(screenshots / "phone-lobby-new-visitor.png"))
    page.fill("#nickname", "Pepa")
    page.click("[data-testid=nickname-only]")
    page.wait_for_selector("[data-testid=create-room]")
    page.select_option("#game-select", "bolot")
    page.screenshot(path=str(screenshots / "phone-lobby.png"), full_page=True)
    page.click("[data-testid=create-room] button[type=submit]")
    page.wait_for_url(re.compile(r"/rooms/\d+$"))
    room_url = page.url

    # the creator is seated in seat 0 by the create form
    page.wait_for_selector("[data-seat='0'] .tag.you")
    page.select_option("[data-testid=fill-bot-level]", "heuristic")
    page.click("[data-testid=fill-bots]")
    page.wait_for_selector("[data-testid=start]:not([disabled])")
    page.screenshot(path=str(screenshots / "phone-seats.png"))
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=scorebar]")

    # A spectator (no session) sees the table but no hand and no buttons.
    spectator = browser.new_context(viewport=PHONE).new_page()
    spectator.goto(room_url)
    spectator.wait_for_selector("[data-testid=scorebar]")
    spectator.screenshot(path=str(screenshots / "phone-spectator.png"))
    assert spectator.locator("[data-testid=hand]").count() == 0
    assert spectator.locator("[data-testid=calls]").count() == 0
    spectator.context.close()

    # The table fits a phone screen: the hand's bottom edge is on screen.
    hand = page.locator("[data-testid=hand]").bounding_box()
    assert hand is not None and hand["y"] + hand["height"] <= PHONE["height"] + 1, hand

    done = play_until_result(page, screenshots, "phone")
    assert done["cards"] >= 1, done
    result = page.locator("[data-testid=last-deal]")
    # "Deal 1" between deals, "Last deal (deal 1)" once deal 2 has started
    assert "deal 1" in result.inner_text().lower()
    assert "Card points" in result.inner_text() or "no score" in result.inner_text()
    # The live table may replace the panel at any moment: scroll by selector, not by handle.
    page.evaluate("document.querySelector('[data-testid=last-deal]')?.scrollIntoView()")
    page.screenshot(path=str(screenshots / "phone-result.png"))
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(screenshots / "phone-table.png"))

    # The same table on a desktop screen, then the lobby there.
    desk = browser.new_context(viewport=DESKTOP, storage_state=context.storage_state()).new_page()
    desk.goto(room_url)
    desk.wait_for_selector("[data-testid=scorebar]")
    desk.wait_for_timeout(300)
    desk.screenshot(path=str(screenshots / "desktop-table.png"))
    desk.goto(live_url + "/")
    desk.screenshot(path=str(screenshots / "desktop-lobby.png"))
    desk.context.close()

    assert not errors, errors
    context.close()
