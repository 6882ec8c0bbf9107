"""Every game's table on a phone (375 x 667 and 667 x 375) and a desktop (1280 x 800).

The table is set up through the API (tests/e2e/phone.py) until the person in seat 0
must play a card, then opened in chromium with the person's cookie. At each size the
whole table fits without scrolling, each card of the fanned hand shows its index
(12 cards in Botifarra), and the cards that may be played are marked in more ways
than a colour (raised, a mark, "playable" in the label). On a phone, upright or on its
side, nothing of the table is cut off and nothing covers anything else: the hand is
clear of the seat boxes, the seat boxes of each other and of the prompt. Botifarra's
twelve cards leave each card a strip of at least 32 px to tap. Screenshots go to
screenshots/phone-<game>-<size>.png (gitignored) for a person to look at; a played
card is tapped, not dragged.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import DESKTOP, PHONE, page_as
from tests.e2e.phone import (
    GAMES,
    LANDSCAPE,
    answer_until,
    assert_fits,
    assert_unobstructed,
    cut_calls,
    finger_strips,
    layout,
    new_table,
    obstructions,
    table_at_my_card,
    unreachable,
)

pytestmark = pytest.mark.slow  # the full suite only (.ci/run; pytest -m '')

SIZES = {"portrait": PHONE, "landscape": LANDSCAPE, "desktop": DESKTOP}


@pytest.mark.parametrize("game", GAMES)
def test_the_table_fits_every_screen(
    browser: Any, live_url: str, screenshots: Path, game: str
) -> None:
    token, room = table_at_my_card(live_url, game, nickname=f"Phone {game[:6]}")
    page = page_as(browser, live_url, token, PHONE)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_url}/rooms/{room}")
    page.wait_for_selector("[data-testid=hand] .card.playable")
    for name, size in SIZES.items():
        page.set_viewport_size(size)
        page.wait_for_timeout(250)
        page.screenshot(path=str(screenshots / f"phone-{game}-{name}.png"))
        if name != "desktop":
            assert_fits(layout(page))
            assert_unobstructed(page)
    page.set_viewport_size(PHONE)
    playable = page.locator("[data-testid=hand] .card.playable")
    label = playable.first.get_attribute("aria-label") or ""
    assert "playable" in label and playable.first.locator(".play-mark").count() == 1
    assert page.locator("[data-testid=hand] .card[draggable=true]").count() == 0
    # A tap plays the card: the hand is one card shorter.
    before = page.locator("[data-testid=hand] .card").count()
    playable.first.click(position={"x": 8, "y": 24})
    for _ in range(100):  # a polling loop, not wait_for_function: the pages' CSP forbids eval
        if page.locator("[data-testid=hand] .card").count() < before:
            break
        page.wait_for_timeout(100)
    assert page.locator("[data-testid=hand] .card").count() < before
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("game", GAMES)
def test_the_table_at_200_percent_text(
    browser: Any, live_url: str, screenshots: Path, game: str
) -> None:
    """Text at 200 % (WCAG 1.4.4, 1.4.10): the page is never wider than the screen, the
    hand, the prompt and the trick can each be scrolled into view (the table may scroll
    inside itself), and nothing covers anything; a phone on its side falls back to the
    upright layout, which scrolls."""
    token, room = table_at_my_card(live_url, game, nickname=f"Big text {game[:6]}", following=True)
    for name, size in SIZES.items():
        page = page_as(browser, live_url, token, size)
        page.goto(f"{live_url}/rooms/{room}")
        page.wait_for_selector("[data-testid=hand] .card.playable")
        page.add_style_tag(content="html { font-size: 200%; }")
        page.wait_for_timeout(250)
        page.screenshot(path=str(screenshots / f"text200-{game}-{name}.png"))
        wide = page.evaluate(
            "[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > innerWidth + 1"
            " && !e.closest('.panel')).slice(0, 4).map(e => e.tagName + '.' + e.className)"
        )
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], (name, wide)
        for part in (
            "[data-testid=hand] .card",
            "[data-testid=hand] .card:last-child",
            "[data-testid=prompt]",
            ".center .trick",
        ):
            for _ in range(20):  # a loaded machine may still be laying the bigger text out
                if not unreachable(page, part):
                    break
                page.wait_for_timeout(150)
            assert not unreachable(page, part), (name, unreachable(page, part))
        assert not obstructions(page)["covered"], (name, obstructions(page)["covered"])
        page.context.close()


@pytest.mark.parametrize("game", ["bridge-belote", "contree"])
def test_the_auction_calls_at_200_percent_text(
    browser: Any, live_url: str, screenshots: Path, game: str
) -> None:
    """At 200 % text on a phone, upright and on its side, every call of the auction
    reads whole: Bridge-Belote's buttons were cut to "C…", "No …", "Con…", Contrée's
    suits to "spa…" and its "Capot" chip spilled out of its box. A label may wrap onto
    two lines, never be cut or overflow; the page does not scroll sideways, the calls can
    be scrolled into view and nothing covers anything. At 100 % too."""
    token, room = new_table(live_url, game, nickname=f"Big calls {game[:6]}")
    answer_until(
        live_url, token, room, lambda v: v.get("phase") == "auction" and v.get("to_act") == 0
    )
    for name in ("portrait", "landscape"):
        size = SIZES[name]
        page = page_as(browser, live_url, token, size)
        page.goto(f"{live_url}/rooms/{room}")
        page.wait_for_selector("[data-testid=calls] button")
        page.wait_for_selector("html[data-ws-messages]", state="attached")
        page.screenshot(path=str(screenshots / f"text100-calls-{game}-{name}.png"))
        # at 100 % text the calls keep their grid of three a row and read whole (on its
        # side Contrée's trump buttons show the suit's icon alone: the words were cut)
        at100 = page.evaluate(
            "(() => { const s = getComputedStyle(document.querySelector("
            "'[data-testid=calls] .call-pass').parentElement);"
            " return [s.display, s.gridTemplateColumns.split(' ').length]; })()"
        )
        if game == "contree" and name == "landscape":
            # on its side Contrée's three calls are as wide as their words ("Surcoin…"),
            # and its whole bidding fits the column: a fresh tester found Pass, Coinche
            # and Surcoinche below the column's edge, nothing showing they were there
            assert at100[0] == "flex", (name, at100)
            assert (
                page.evaluate(
                    "(() => { const p = document.querySelector('[data-testid=calls]')"
                    ".closest('.prompt'); return p.scrollHeight - p.clientHeight; })()"
                )
                <= 1
            ), name
        else:
            assert at100 == ["grid", 3], (name, at100)
        assert not cut_calls(page), (name, "100 %", cut_calls(page))
        page.add_style_tag(content="html { font-size: 200%; }")
        page.wait_for_timeout(250)
        for _ in range(20):  # a loaded machine may still be laying the bigger text out
            if not cut_calls(page) and not unreachable(page, "[data-testid=calls]"):
                break
            page.wait_for_timeout(150)
        page.evaluate(
            "document.querySelector('[data-testid=calls]').scrollIntoView({block: 'nearest'})"
        )
        page.screenshot(path=str(screenshots / f"text200-calls-{game}-{name}.png"))
        assert not cut_calls(page), (name, cut_calls(page))
        assert not unreachable(page, "[data-testid=calls]"), (
            name,
            unreachable(page, "[data-testid=calls]"),
        )
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], name
        assert not obstructions(page)["covered"], (name, obstructions(page)["covered"])
        page.context.close()


@pytest.mark.parametrize("name", ["portrait", "landscape"])
def test_a_prompt_taller_than_the_screen_scrolls_inside_itself(
    browser: Any, live_url: str, screenshots: Path, name: str
) -> None:
    """At 200 % text a prompt of many parts (a first trick of Belote for two: the
    declarations' choices, a claim, the Belote line, the previous trick) was taller than a
    phone's screen, and its top could never be seen. Eight more long buttons stand for
    them: the prompt is then as tall as the table at most, scrolls inside itself, and the
    hint opens inside it. A phone on its side too: there CI once drew a Belote-for-three
    first trick whose prompt was 462 px on a 375 px screen."""
    token, room = table_at_my_card(live_url, "belote-2p", nickname=f"Tall prompt {name[:4]}")
    page = page_as(browser, live_url, token, SIZES[name])
    page.goto(f"{live_url}/rooms/{room}")
    page.wait_for_selector("[data-testid=hand] .card.playable")
    # The socket's first push redraws the table, the prompt with it: the buttons added
    # below go in after it, or they may vanish before they are measured.
    page.wait_for_selector("html[data-ws-messages]", state="attached")
    page.add_style_tag(content="html { font-size: 200%; }")
    page.evaluate(
        """() => { const p = document.querySelector('[data-testid=prompt]');
          for (let i = 0; i < 8; i++) { const b = document.createElement('button');
            b.textContent = 'Tierce to the Queen of diamonds ' + i; p.appendChild(b); } }"""
    )
    page.wait_for_timeout(250)
    assert not unreachable(page, "[data-testid=prompt]"), unreachable(page, "[data-testid=prompt]")
    sizes = page.evaluate(
        "(() => { const p = document.querySelector('[data-testid=prompt]');"
        " return [p.scrollHeight, p.clientHeight]; })()"
    )
    assert sizes[0] > sizes[1], sizes  # it scrolls inside itself
    page.click("[data-testid=hint]")
    page.wait_for_selector("#hint .hint-box")
    assert page.evaluate(
        "document.querySelector('[data-testid=prompt]').contains(document.querySelector('#hint .hint-box'))"
        " && getComputedStyle(document.querySelector('#hint')).position === 'static'"
    )
    page.screenshot(path=str(screenshots / f"text200-tall-prompt-{name}.png"))
    # With the Hint button at the screen's bottom edge, the answer opens below it: it is
    # brought into view, its "Do it" included (a fresh tester's hint opened off screen).
    page.goto(f"{live_url}/rooms/{room}")
    page.wait_for_selector("[data-testid=hand] .card.playable")
    page.add_style_tag(content="html { font-size: 200%; }")
    page.wait_for_timeout(250)
    page.evaluate("document.querySelector('[data-testid=hint]').scrollIntoView({block: 'end'})")
    page.click("[data-testid=hint]")
    page.wait_for_selector("#hint .hint-box")
    page.wait_for_timeout(250)
    box = page.evaluate(
        "(() => { const b = document.querySelector('#hint .hint-box').getBoundingClientRect();"
        " return [b.top, b.bottom, innerHeight]; })()"
    )
    assert box[0] >= -1 and box[1] <= box[2] + 1, box
    page.screenshot(path=str(screenshots / f"text200-hint-in-view-{name}.png"))
    page.context.close()


def test_botifarra_twelve_cards_each_leave_a_strip_to_tap(
    browser: Any, live_url: str, screenshots: Path
) -> None:
    token, room = new_table(live_url, "botifarra", "Dotze")
    answer_until(
        live_url, token, room, lambda v: len(v.get("hand") or []) == 12 and not v.get("hand_hidden")
    )
    page = page_as(browser, live_url, token, PHONE)
    page.goto(f"{live_url}/rooms/{room}")
    page.wait_for_selector("[data-testid=hand] .card >> nth=11")
    page.wait_for_timeout(250)
    page.screenshot(path=str(screenshots / "phone-botifarra-twelve.png"))
    strips = finger_strips(page)
    assert len(strips) == 12 and min(strips) >= 32, strips
    assert_fits(layout(page))
    assert_unobstructed(page)
    page.context.close()


@pytest.mark.parametrize("lang", ["ca", "bg"])
def test_rules_page_on_a_phone(browser: Any, live_url: str, screenshots: Path, lang: str) -> None:
    token, room = new_table(live_url, "botifarra", f"Regles {lang}", options={"variant": "eastern"})
    page = page_as(browser, live_url, token, PHONE)
    page.goto(f"{live_url}/rooms/{room}")
    link = page.locator(".contract .rules-link")
    assert link.get_attribute("href") == f"/rules/botifarra?room={room}"
    page.goto(f"{live_url}/rules/botifarra?room={room}&lang={lang}")
    page.wait_for_selector("[data-testid=rules]")
    assert page.locator("tr.changed[data-option=variant]").count() == 1
    assert page.locator(".opt.on").count() >= 1
    page.screenshot(path=str(screenshots / f"rules-botifarra-{lang}.png"), full_page=True)
    wide = page.evaluate(
        "[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > innerWidth + 1)"
        ".slice(0, 4).map(e => e.tagName + '.' + e.className)"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], wide
    # The options table itself does not scroll sideways either (its rows are stacked).
    options = page.locator("[data-testid=rules-options]")
    assert options.evaluate("t => t.scrollWidth <= t.clientWidth + 1"), options.evaluate(
        "t => [t.scrollWidth, t.clientWidth]"
    )
    # ... and each value keeps its column's name ("This room: ...", "Default: ...").
    assert options.locator("td").last.evaluate(
        "td => getComputedStyle(td, '::before').content"
    ) not in ("none", "")
    page.context.close()


@pytest.mark.parametrize("lang", ["ca", "es", "bg", "fr", "pt", "en"])
def test_pages_fit_a_phone_in_every_language(
    browser: Any, live_url: str, screenshots: Path, lang: str
) -> None:
    from tests.e2e.helpers import guest

    token = guest(live_url, f"Llarg {lang}")
    page = page_as(browser, live_url, token, PHONE)
    for path in ("/", "/tournaments", "/rules", "/rules/bridge-belote"):
        page.goto(f"{live_url}{path}?lang={lang}")
        assert page.locator("html").get_attribute("lang") == lang
        wide = page.evaluate(
            "[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > innerWidth + 1"
            " && !e.closest('table')).slice(0, 4).map(e => e.tagName + '.' + e.className)"
        )
        assert not wide, (path, wide)
    page.goto(f"{live_url}/?lang={lang}")
    page.screenshot(path=str(screenshots / f"lobby-{lang}.png"), full_page=True)
    page.context.close()
