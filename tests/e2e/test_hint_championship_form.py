"""The championship score-sheet form at 375 x 667 (it lives with the hint tests only for
file ownership): an organiser enters a paper Belote deal by its fields, not JSON; a wrong
deal shows score_deal's reason. Screenshots: screenshots/deal-form-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import PHONE, api, page_as

pytestmark = pytest.mark.slow  # the full suite only (.ci/run; pytest -m '')


def test_paper_deal_by_fields_on_a_phone(browser: Any, live_url: str, screenshots: Path) -> None:
    token = api(
        live_url,
        "POST",
        "/api/accounts",
        body={"username": "orgform", "password": "correct horse battery", "nickname": "Org"},
    )["token"]
    t = api(
        live_url,
        "POST",
        "/api/tournaments",
        token,
        {
            "name": "Copa",
            "game": "belote",
            "format": "swiss",
            "options": {},
            "settings": {"rounds": 2},
        },
    )
    tid = t["id"]
    for a, b in (("Pepa", "Vicent"), ("Rosa", "Xavi")):
        api(live_url, "POST", f"/api/tournaments/{tid}/teams", token, {"players": [a, b]})
    api(live_url, "POST", f"/api/tournaments/{tid}/rounds", token)
    api(live_url, "POST", f"/api/tournaments/{tid}/rounds/1/publish", token)
    page = page_as(browser, live_url, token, PHONE)
    page.goto(f"{live_url}/tournaments/{tid}/tables/1")
    form = page.locator("[data-testid=deal-form]")
    form.wait_for()
    page.select_option("[data-testid=f-trump]", "H")
    page.fill("input[name=f_tricks0]", "5")
    page.fill("input[name=f_tricks1]", "3")
    page.fill("input[name=f_cp0]", "100")
    page.fill("input[name=f_cp1]", "99")  # impossible: the reason comes back
    page.select_option("select[name=f_belote]", "0")
    form.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "deal-form-375.png"), full_page=True)
    page.click("[data-testid=add-deal]")
    page.wait_for_load_state()
    text = page.content()
    assert "card points" in text.lower()
    page.screenshot(path=str(screenshots / "deal-form-error-375.png"))
    page.goto(f"{live_url}/tournaments/{tid}/tables/1")
    page.select_option("[data-testid=f-trump]", "H")
    page.fill("input[name=f_tricks0]", "5")
    page.fill("input[name=f_tricks1]", "3")
    page.fill("input[name=f_cp0]", "100")
    page.fill("input[name=f_cp1]", "52")
    page.click("[data-testid=add-deal]")
    page.wait_for_selector("table.sheet")
    assert page.locator("table.sheet tbody tr").count() == 1
    page.screenshot(path=str(screenshots / "deal-form-added-375.png"))
    page.context.close()
