"""The first minute of a new player (issue 17 §1), in a real browser: from the home page
to the first decision at a table against bots, counting the clicks.

A visitor without a nickname opens the home page and clicks "Play now" beside a game:
the guest name offered is taken, the room is made with bots in the other seats and
started, and the table asks its first question (a bid, a declaration or a card). The
clicks are counted and must be at most 3; the time is printed, not asserted (speed is
measured by a command, CONTRIBUTING.md). Screenshots of the home page and of that first
table at 375 x 667 and 1280 x 800 go to screenshots/ (gitignored).
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import DESKTOP, PHONE

pytestmark = pytest.mark.slow  # the full suite only (.ci/run; pytest -m '')

#: What the table shows when it waits for this player: a call, a declaration or a card.
DECISION = (
    "[data-testid=calls] button, [data-testid=declares] button, [data-testid=hand] button.playable"
)


@pytest.mark.parametrize(("size", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_play_now_reaches_the_first_decision_in_at_most_3_clicks(
    browser: Any, live_url: str, screenshots: Path, size: str, viewport: dict[str, int]
) -> None:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    clicks = 0

    started = time.monotonic()
    page.goto(live_url + "/")
    page.wait_for_selector("[data-testid=play-now]")
    page.screenshot(path=str(screenshots / f"first-minute-home-{size}.png"), full_page=True)
    # a new visitor: the nickname field already holds a guest name they may keep
    assert page.input_value("[data-testid=nickname]").strip()
    page.click("[data-testid=play-bolot]")
    clicks += 1
    page.wait_for_url(re.compile(r"/rooms/\d+$"))
    page.wait_for_selector(DECISION, timeout=30_000)
    elapsed = time.monotonic() - started
    page.wait_for_timeout(300)  # the cards' deal animation
    page.screenshot(path=str(screenshots / f"first-minute-table-{size}.png"))
    print(f"first minute ({size}): {clicks} click(s), {elapsed:.2f} s to the first decision")

    assert clicks <= 3
    # seated in seat 0 with three bots; the game is running
    assert page.locator("[data-testid=scorebar]").count() == 1
    assert errors == []
    context.close()
