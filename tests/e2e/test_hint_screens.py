"""Phone screenshots (375 x 667) of the table changes around the hint: the seat form's bot
levels, the round-1 take naming its suit, the won trick's caption, "Take my seat back"."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import PHONE, api, click_quietly, guest, page_as
from tests.e2e.phone import answer_until, new_table_with_partner

pytestmark = pytest.mark.slow  # the full suite only (.ci/run; pytest -m '')


def test_phone_screens_of_seats_take_caption_and_sit_again(
    browser: Any, live_url: str, screenshots: Path
) -> None:
    token = guest(live_url, "Pepa")
    room = api(live_url, "POST", "/api/rooms", token, {"game": "bolot", "options": {}})
    page = page_as(browser, live_url, token, PHONE)
    page.goto(f"{live_url}/rooms/{room['id']}")
    page.wait_for_selector("[data-testid=fill-bot-level]")
    labels = page.locator("[data-testid=fill-bot-level] option").all_inner_texts()
    assert "Strong bots" in labels
    page.screenshot(path=str(screenshots / "seats-strong-375.png"))
    page.context.close()

    # a partner who stops answering once seat 0 has left: the stand-in's play stops at
    # its turn, so the page stays still and the match cannot run to its end meanwhile
    token, partner, rid = new_table_with_partner(live_url, "bolot", "Pere")
    others = {2: partner}
    view = answer_until(
        live_url,
        token,
        rid,
        lambda v: v.get("to_act") == 0 or v.get("phase") == "play",
        others=others,
    )
    page = page_as(browser, live_url, token, PHONE)
    page.goto(f"{live_url}/rooms/{rid}")
    if view.get("phase") == "auction" and any(
        a["type"] == "take" and "suit" not in a for a in view["legal_actions"]
    ):
        take = page.locator("[data-testid=calls] button.call-take").first
        assert "Vaig (" in take.inner_text()
        page.screenshot(path=str(screenshots / "take-names-suit-375.png"))
    # Play on until a trick has been won, then look at the caption.
    try:  # a trick seat 0 won, seat 0 to lead: the caption says "You win the trick"
        answer_until(
            live_url,
            token,
            rid,
            lambda v: (
                v.get("phase") == "play"
                and v.get("to_act") == 0
                and v.get("last_trick")
                and not v.get("trick")
                and v["last_trick"]["winner"] == 0
            ),
            timeout=40,
            others=others,
        )
        page.goto(f"{live_url}/rooms/{rid}")
        assert "You win the trick" in page.locator(".trick.done .caption").inner_text()
        page.screenshot(path=str(screenshots / "trick-caption-375.png"))
    except AssertionError:
        pass  # the deal went another way: no screenshot of the caption this time
    # Leave: a stand-in plays (until the partner's turn); the button takes the seat back.
    token_csrf = page.locator("input[name=csrf]").first.get_attribute("value")
    left = page.request.post(
        f"{live_url}/rooms/{rid}/seats/0/leave",
        form={"csrf": token_csrf or ""},
        headers={"Origin": live_url},
    )
    assert left.ok, (left.status, left.text()[:2000])
    page.goto(f"{live_url}/rooms/{rid}")
    page.wait_for_selector("[data-testid=sit-again]")
    page.screenshot(path=str(screenshots / "sit-again-375.png"))
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and page.locator("[data-testid=sit-again]").count():
        click_quietly(page.locator("[data-testid=sit-again]").first)  # pushes redraw the seat
        time.sleep(0.3)
    flash = page.locator("#flash").inner_text()
    page.goto(f"{live_url}/rooms/{rid}")  # the server's word, should a push come late
    assert page.locator("[data-testid=sit-again]").count() == 0, flash
    page.context.close()
