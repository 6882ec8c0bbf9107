"""Resign with its confirmation, the finished panel and a rematch, in two browsers."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import DESKTOP, PHONE, api, guest, page_as, scroll_to
from tests.e2e.phone import LANDSCAPE, new_table

pytestmark = pytest.mark.slow  # the full suite only (.ci/run; pytest -m '')


def test_resign_confirmed_by_keyboard_then_both_accept_the_rematch(
    browser: Any, live_url: str, screenshots: Path
) -> None:
    ana, bru = guest(live_url, "Ana"), guest(live_url, "Bru")
    room = api(live_url, "POST", "/api/rooms", ana, {"game": "bolot", "options": {"target": 1500}})
    rid = room["id"]
    api(live_url, "PUT", f"/api/rooms/{rid}/seats/0", ana, {})
    api(live_url, "PUT", f"/api/rooms/{rid}/seats/1", bru, {})
    for seat in (2, 3):
        api(live_url, "PUT", f"/api/rooms/{rid}/seats/{seat}", ana, {"bot": "heuristic"})
    api(live_url, "POST", f"/api/rooms/{rid}/start", ana, {})

    desk = page_as(browser, live_url, ana, DESKTOP)
    phone = page_as(browser, live_url, bru, PHONE)
    phone.goto(f"{live_url}/rooms/{rid}")
    phone.wait_for_selector("[data-testid=resign-link]")
    phone.wait_for_selector("html[data-ws-messages]", state="attached")  # its socket is open
    scroll_to(phone, "[data-testid=match-actions]")
    phone.screenshot(path=str(screenshots / "aftermatch-playing-375x667.png"))
    desk.goto(f"{live_url}/rooms/{rid}")
    desk.click("[data-testid=resign-link]")
    desk.wait_for_selector("[data-testid=confirm-resign]")
    desk.screenshot(path=str(screenshots / "aftermatch-confirm-1280x800.png"))
    # The confirmation answers the keyboard: its button has the focus, Enter resigns.
    assert desk.evaluate("document.activeElement.dataset.testid") == "confirm-yes"
    phone_confirm = page_as(browser, live_url, ana, PHONE)
    phone_confirm.goto(f"{live_url}/rooms/{rid}/resign")
    phone_confirm.screenshot(path=str(screenshots / "aftermatch-confirm-375x667.png"))
    phone_confirm.click("[data-testid=confirm-no]")  # "No": back to the table, nothing ends
    phone_confirm.wait_for_selector("[data-testid=resign-link]")
    phone_confirm.context.close()
    desk.keyboard.press("Enter")
    desk.wait_for_url(f"{live_url}/rooms/{rid}")
    desk.wait_for_selector("[data-testid=rematch-accept]")
    assert "You resigned" in desk.inner_text("[data-testid=end-reason]")

    # Bru's table changes by itself (the socket): Ana resigned, the rematch is offered.
    phone.wait_for_selector("[data-testid=rematch-accept]")
    assert "Ana resigned" in phone.inner_text("[data-testid=end-reason]")
    assert "You win the match!" in phone.inner_text("[data-testid=winner]")
    scroll_to(phone, "[data-testid=winner]")
    phone.screenshot(path=str(screenshots / "aftermatch-finished-375x667.png"))
    desk.screenshot(path=str(screenshots / "aftermatch-finished-1280x800.png"))

    desk.click("[data-testid=rematch-accept]")
    # Bru sees that Ana accepted without reloading.
    phone.locator("[data-testid=rematch-seats] li.rm-accepted").first.wait_for()
    assert "Ana: accepted" in phone.inner_text("[data-testid=rematch-seats]")
    phone.screenshot(path=str(screenshots / "aftermatch-accepted-375x667.png"))
    phone.click("[data-testid=rematch-accept]")
    new_room = re.compile(rf"{re.escape(live_url)}/rooms/(?!{rid}$)\d+$")
    phone.wait_for_url(new_room)
    desk.wait_for_url(new_room)  # sent to the new table when it started
    assert desk.url == phone.url
    desk.wait_for_selector("[data-testid=resign-link]")
    desk.context.close()
    phone.context.close()


@pytest.mark.parametrize("game", ["belote", "contree"])
def test_on_a_phone_on_its_side_the_rematch_button_is_not_under_the_hand(
    browser: Any, live_url: str, screenshots: Path, game: str
) -> None:
    """Resigned in the first deal, 667 x 375: the result panel is taller than the felt, and
    the cards left in hand were drawn over its Rematch button (a fresh tester could not
    tap it). The hand of a finished match is not shown; the button is what a tap meets."""
    token, rid = new_table(live_url, game, f"Sideways {game[:4]}")
    api(live_url, "POST", f"/api/rooms/{rid}/resign", token, {})
    page = page_as(browser, live_url, token, LANDSCAPE)
    page.goto(f"{live_url}/rooms/{rid}")
    page.wait_for_selector("html[data-ws-messages]", state="attached")  # the first push drawn
    scroll_to(page, "[data-testid=rematch-accept]")
    page.screenshot(path=str(screenshots / f"aftermatch-{game}-667x375.png"))
    assert not page.is_visible("[data-testid=hand]")
    hit = page.evaluate(
        """() => { const b = document.querySelector('[data-testid=rematch-accept]');
          const r = b.getBoundingClientRect();
          return b.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)); }"""
    )
    assert hit
    page.click("[data-testid=rematch-accept]")  # a real tap goes through
    page.wait_for_url(re.compile(rf"/rooms/(?!{rid}\b)\d+"))
    page.context.close()
