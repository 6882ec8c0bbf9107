"""The Hint button in a real browser at phone size: the strong bot's suggestion appears,
the suggested card is marked, the table still fits the screen. Screenshot: screenshots/hint-*.png."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import DESKTOP, PHONE, page_as
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
    if game == "belote":
        # A refused hint (here a form token gone stale) is a toast where every message
        # shows, not white text in the hint's white box (a fresh tester's find, on a 429).
        page.click("[data-testid=hint-close]")
        page.evaluate(
            "document.querySelector('[data-testid=hint-form] input[name=csrf]').value = 'stale'"
        )
        page.click("[data-testid=hint]")
        page.locator("#flash .msg").wait_for()
        assert "expired" in page.locator("#flash .msg").inner_text()
        assert page.locator("#hint").inner_html().strip() == ""
    page.context.close()


@pytest.mark.parametrize(
    ("game", "lang", "size"),
    [("belote", "en", "phone"), ("belote", "en", "desktop"), ("botifarra", "ca", "phone")],
)
def test_hint_says_why_from_the_search_and_fits(
    browser: Any, live_url: str, screenshots: Path, game: str, lang: str, size: str
) -> None:
    """The hint's why is the search's sentence (issue 22 §5) when the bot chose among
    cards, and the box fits the screen's width; at desktop size it covers neither the
    trick nor the own seat; × and Escape close it. Screenshots: screenshots/hint-why-*.png."""
    token, room = table_at_my_card(live_url, game, "Whyer")
    viewport = PHONE if size == "phone" else DESKTOP
    page = page_as(browser, live_url, token, viewport)
    page.goto(f"{live_url}/rooms/{room}?lang={lang}")
    page.wait_for_selector("[data-testid=hint]")
    page.wait_for_selector("html[data-ws-messages]", state="attached")
    page.click("[data-testid=hint]")
    box = page.locator("[data-testid=hint-answer]")
    box.wait_for()
    why = page.locator("[data-testid=hint-answer] .why").inner_text()
    playable = page.locator("[data-testid=hand] .card.playable").count()
    action = json.loads(box.get_attribute("data-hint-action") or "{}")
    # a first trick's declaration is a call, not a card the search chose
    if playable > 1 and action.get("type") == "play":
        drew = {"en": "I drew", "ca": "he simulat"}[lang]
        assert drew in why, why
    b = box.bounding_box()
    assert b is not None and b["x"] >= 0 and b["x"] + b["width"] <= viewport["width"] + 1
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], width
    box.scroll_into_view_if_needed()
    name = f"hint-why-{game}-{lang}-{viewport['width']}"
    page.screenshot(path=str(screenshots / f"{name}.png"))
    box.screenshot(path=str(screenshots / f"{name}-box.png"))
    if size == "desktop":  # beside the score sheet: in the felt's corner, clear of the trick
        for sel in (".pos-bottom", "[data-testid=center] .card"):
            for el in page.locator(sel).all():
                o = el.bounding_box()
                assert o is None or not (
                    b["x"] < o["x"] + o["width"]
                    and o["x"] < b["x"] + b["width"]
                    and b["y"] < o["y"] + o["height"]
                    and o["y"] < b["y"] + b["height"]
                ), (sel, b, o)
    # The × closes it and unmarks the card; the focus goes back to the Hint button.
    page.click("[data-testid=hint-close]")
    assert page.locator("[data-testid=hint-answer]").count() == 0
    assert page.locator("#room-main .hinted-choice").count() == 0
    assert page.evaluate("document.activeElement.dataset.testid") == "hint"
    # Escape closes it too.
    page.click("[data-testid=hint]")
    box.wait_for()
    page.keyboard.press("Escape")
    box.wait_for(state="detached")
    page.context.close()
