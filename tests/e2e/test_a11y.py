"""Access: a whole Bolot deal played with the keyboard only, what a screen reader
hears, the language switch, and the table at 200 % text.

* Keyboard: Tab moves through the page; Enter or Space on a focused call, declaration
  or playable card plays it. Focus stays on the table after each push (tapet.js), and
  the focused card has a visible outline.
* Screen readers: each card is "<card>, playable" (or "not playable"), in the page
  language; the live region (#announce) says the other players' moves.
* 200 % text: nothing runs off the side; the table scrolls inside itself.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import PHONE, page_as
from tests.e2e.phone import new_table

pytestmark = pytest.mark.slow  # the full suite only (.ci/run; pytest -m '')

ACTIONABLE = (
    "[data-testid=calls] button:not([disabled]), [data-testid=declares] button, "
    "[data-testid=hand] button.playable"
)
DEAL_TIMEOUT = 150.0
# Everything the live region says, as a screen reader would hear it.
HEAR = """
window.__heard = [];
document.addEventListener("DOMContentLoaded", () => {
  const region = document.getElementById("announce");
  if (!region) return;
  new MutationObserver(() => { if (region.textContent) window.__heard.push(region.textContent); })
    .observe(region, {childList: true, characterData: true, subtree: true});
});
"""


def _focused_is_actionable(page: Any) -> bool:
    return bool(
        page.evaluate(
            f"(() => {{ const a = document.activeElement; return !!(a && a.matches('{ACTIONABLE}')); }})()"
        )
    )


def _needs_me(page: Any) -> bool:
    return page.locator(ACTIONABLE).count() > 0


def test_a_bolot_deal_with_the_keyboard_only(
    browser: Any, live_url: str, screenshots: Path
) -> None:
    token, room = new_table(live_url, "bolot", "Keys")
    page = page_as(browser, live_url, token, PHONE)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.add_init_script(HEAR)
    page.goto(f"{live_url}/rooms/{room}")
    page.wait_for_selector("[data-testid=scorebar]")
    heard: set[str] = set()
    done = {"keys": 0, "plays": 0, "outline": 0}
    deadline = time.monotonic() + DEAL_TIMEOUT
    use_space = False
    while time.monotonic() < deadline:
        if page.locator("[data-testid=last-deal]").count():
            break
        if not _needs_me(page):
            page.wait_for_timeout(60)
            continue
        tabs = 0
        while not _focused_is_actionable(page) and tabs < 80:
            page.keyboard.press("Tab")
            tabs += 1
        if not _focused_is_actionable(page):
            continue  # the table changed under us: look again
        # One read of the focused card: a move of a bot may swap the table (and the focus)
        # between two separate reads.
        focused = page.evaluate(
            """(() => { const a = document.activeElement;
                 if (!a || !a.matches('[data-testid=hand] button')) return null;
                 return [a.getAttribute('aria-label'), getComputedStyle(a).outlineStyle]; })()"""
        )
        if focused is not None:
            label, style = focused
            assert label.endswith("playable") or "says" in label, label
            done["outline"] += style not in ("none", "")
            done["plays"] += 1
        page.keyboard.press("Space" if use_space else "Enter")
        use_space = not use_space
        done["keys"] += 1
        page.wait_for_timeout(120)
    else:
        pytest.fail(f"no result after {DEAL_TIMEOUT} s with the keyboard; did {done}")
    page.screenshot(path=str(screenshots / "a11y-keyboard-result.png"))
    assert done["plays"] >= 1 and done["outline"] >= 1, done
    heard.update(page.evaluate("window.__heard || []"))
    assert any("played the" in h for h in heard), heard
    assert not errors, errors
    page.context.close()


def test_screen_reader_labels_and_language_switch(
    browser: Any, live_url: str, screenshots: Path
) -> None:
    token, room = new_table(live_url, "botifarra", "Veu")
    page = page_as(browser, live_url, token, PHONE)
    page.goto(f"{live_url}/rooms/{room}")
    page.wait_for_selector("[data-testid=scorebar]")
    # Switch to Catalan with the header's selector; it is remembered.
    page.select_option("[data-testid=lang-select]", "ca")
    page.wait_for_selector('html[lang="ca"]')
    page.goto(f"{live_url}/rooms/{room}")
    assert page.locator("html").get_attribute("lang") == "ca"
    labels = page.eval_on_selector_all(
        "[data-testid=hand] .card", "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert labels and all(" de " in x or " d'" in x for x in labels), labels
    assert page.locator("[data-testid=seat-right]").get_attribute("aria-label")
    page.screenshot(path=str(screenshots / "a11y-catalan.png"))
    page.context.close()


def test_the_table_at_200_percent_text(browser: Any, live_url: str, screenshots: Path) -> None:
    token, room = new_table(live_url, "bolot", "Lupa")
    page = page_as(browser, live_url, token, PHONE)
    page.goto(f"{live_url}/rooms/{room}")
    page.wait_for_selector("[data-testid=scorebar]")
    page.add_style_tag(content="html { font-size: 200% !important; }")
    page.wait_for_timeout(200)
    page.screenshot(path=str(screenshots / "a11y-text-200.png"))
    width = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate(
        "[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > innerWidth + 1)"
        ".slice(0, 5).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))"
    )
    assert width <= PHONE["width"] + 1, (width, wide)
    overflow = page.evaluate("getComputedStyle(document.querySelector('#room-main')).overflowY")
    assert overflow in ("auto", "scroll"), overflow
    page.context.close()


def test_move_clock_sounds_and_busy_bar(browser: Any, live_url: str, screenshots: Path) -> None:
    from tests.e2e.phone import answer_until, my_card_to_play

    token, room = new_table(live_url, "bolot", "Rellotge", options={"clock_seconds": 60})
    answer_until(live_url, token, room, my_card_to_play)
    page = page_as(browser, live_url, token, PHONE)
    page.goto(f"{live_url}/rooms/{room}")
    clock = page.wait_for_selector("[data-testid=clock]")
    page.wait_for_timeout(1200)
    seconds = int(clock.inner_text().rstrip("s"))
    assert 0 < seconds <= 60, seconds
    # Sounds are off until the player turns them on; the choice is remembered.
    switch = page.locator("[data-testid=sound-toggle]")
    assert switch.get_attribute("aria-pressed") == "false"
    switch.click()
    assert switch.get_attribute("aria-pressed") == "true"
    page.reload()
    assert page.locator("[data-testid=sound-toggle]").get_attribute("aria-pressed") == "true"
    assert page.locator("#busy.htmx-indicator").count() == 1
    page.screenshot(path=str(screenshots / "a11y-clock.png"))
    page.context.close()
