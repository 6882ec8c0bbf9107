"""The Hint button in a real browser at phone size: the strong bot's suggestion appears,
the suggested card is marked, the table still fits the screen. Screenshot: screenshots/hint-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import PHONE, page_as
from tests.e2e.phone import table_at_my_card

pytestmark = pytest.mark.slow  # the full suite only (.ci/run; pytest -m '')


@pytest.mark.parametrize("game", ["belote", "botifarra"])
def test_hint_marks_a_playable_card_on_a_phone(
    browser: Any, live_url: str, screenshots: Path, game: str
) -> None:
    token, room = table_at_my_card(live_url, game, "Hinter")
    page = page_as(browser, live_url, token, PHONE)
    page.goto(f"{live_url}/rooms/{room}")
    page.wait_for_selector("[data-testid=hint]")
    # The socket's first push redraws the table (and the hint box): ask after it, not during it.
    page.wait_for_selector("html[data-ws-messages]", state="attached")
    page.click("[data-testid=hint]")
    page.wait_for_selector("[data-testid=hint-answer]")
    assert page.locator("[data-testid=hint-play]").count() == 1
    # The suggested card (or declaration, or call) is marked where it is on the table.
    marked = page.locator("#room-main button.hinted-choice")
    marked.first.wait_for(state="attached")
    assert marked.count() == 1
    want = page.locator("[data-testid=hint-answer]").get_attribute("data-hint-action")
    assert marked.first.get_attribute("value") == want
    if '"play"' in (want or ""):
        assert "playable" in (marked.first.get_attribute("class") or "")
    page.screenshot(path=str(screenshots / f"hint-{game}-375.png"))
    page.context.close()
