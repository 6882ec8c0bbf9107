"""'Replay my deal' in the browser: after deal 1 the button under the last deal's
breakdown shows the deal as played beside the strong bot's replay; the answer stays
through the socket's pushes and fits a phone (screenshots at 375 x 667 and 1280 x 800)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import DESKTOP, PHONE, page_as
from tests.e2e.phone import answer_until, new_table

pytestmark = pytest.mark.slow  # the full suite only (.ci/run; pytest -m '')


def test_replay_my_deal_side_by_side(browser: Any, live_url: str, screenshots: Path) -> None:
    token, rid = new_table(live_url, "bolot", "Pepa")
    answer_until(live_url, token, rid, lambda v: bool(v.get("sheet")), timeout=60)
    page = page_as(browser, live_url, token, PHONE)
    page.goto(f"{live_url}/rooms/{rid}")
    # The bots go on with deal 2 and every push redraws the side panel (and its button):
    # look the button up again until a click lands.
    deadline = time.monotonic() + 20
    while True:
        try:
            button = page.locator("[data-testid=replay-mine]")
            button.scroll_into_view_if_needed(timeout=2000)
            button.click(timeout=2000)
            break
        except Exception:  # noqa: BLE001 - detached by a push: try again
            if time.monotonic() > deadline:
                raise
            page.wait_for_timeout(200)
    result = page.locator("[data-testid=replay-mine-result]")
    result.wait_for(timeout=30_000)
    assert "The strong bot" in result.inner_text()
    assert page.locator("[data-testid=replay-compare] tbody tr").count() == 4
    # the answer is kept while the table goes on (every push redraws the side panel)
    answer_until(live_url, token, rid, lambda v: v.get("seq", 0) > 0, timeout=5)
    page.wait_for_timeout(1500)
    assert page.locator("[data-testid=replay-mine-result]").count() == 1
    box = page.evaluate(
        "(() => { const r = document.querySelector('[data-testid=replay-mine-result]').getBoundingClientRect();"
        " return [r.left, r.right, document.documentElement.scrollWidth]; })()"
    )
    assert box[0] >= 0 and box[1] <= PHONE["width"] and box[2] <= PHONE["width"], box
    result.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "replay-mine-375.png"))
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(200)
    page.locator("[data-testid=replay-mine-result]").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "replay-mine-desktop.png"))
    page.context.close()
