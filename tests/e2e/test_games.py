"""One deal of each game in a real browser, by clicking (Debian chromium, live server).

* ``belote``: a whole deal against three bots, with the four-colour deck switched on;
* ``belote-2p``: a two-seat room, the stock and the bottom card on the table;
* ``belote-3p``: a three-seat room, the two bots left and right, three columns on the sheet;
* ``bridge-belote``: the person bids in the bidding panel, then plays the deal;
* ``botifarra``: four guests sit, the one the draw made dealer opens the table
  in the browser, the three others leave (stand-in bots take their seats), and
  the dealer delegates the choice to his partner, then plays the hand.

Each test is bounded (a deal within ``DEAL_TIMEOUT`` seconds). Screenshots of
the auction, the play and the result at 375 x 667 and 1280 x 800 go to
screenshots/ (gitignored).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import (
    DESKTOP,
    PHONE,
    click_quietly,
    create_room_by_form,
    fits_phone,
    four_guests_at_a_started_table,
    leave_to_stand_ins,
    page_as,
    play_until_result,
    shoot_result,
    sit_fill_start,
)

pytestmark = pytest.mark.slow  # the full suite only (.ci/run; pytest -m '')

DEAL_TIMEOUT = 150.0


def _errors(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


def test_a_belote_deal_with_the_four_colour_deck(
    browser: Any, live_url: str, screenshots: Path
) -> None:
    page = browser.new_context(viewport=PHONE).new_page()
    errors = _errors(page)
    room_url = create_room_by_form(page, live_url, "Manon", "belote")
    assert page.locator("[data-testid=seats] li").count() == 4
    sit_fill_start(page)
    # The four-colour deck: a switch in the header, remembered in a cookie.
    page.click("[data-testid=deck-toggle]")
    page.wait_for_selector("[data-testid=deck-toggle][aria-pressed=true]")
    assert "/cards/fr4/" in page.locator("[data-testid=hand] img").first.get_attribute("src")
    done = play_until_result(page, screenshots, "belote", DEAL_TIMEOUT)
    text = page.locator("[data-testid=last-deal]").inner_text()
    assert "deal 1" in text.lower() and ("Card points" in text or "no score" in text), text
    shoot_result(page, live_url, room_url, browser, screenshots, "belote")
    assert done["cards"] >= 1 and not errors, (done, errors)
    page.context.close()


def test_a_belote_for_two_deal(browser: Any, live_url: str, screenshots: Path) -> None:
    page = browser.new_context(viewport=PHONE).new_page()
    errors = _errors(page)
    room_url = create_room_by_form(page, live_url, "Jules", "belote-2p")
    assert page.locator("[data-testid=seats] li").count() == 2
    sit_fill_start(page)
    page.wait_for_selector("[data-testid=stock]")
    assert page.locator(".felt.players-2 [data-testid=seat-top]").count() == 1
    assert page.locator("[data-testid=seat-left]").count() == 0

    def look_at_the_stock(page: Any, done: dict[str, int]) -> bool:
        if (
            not done.get("bottom")
            and page.locator("[data-testid=stock] img[data-card]").count() >= 2
        ):
            done["bottom"] = 1  # the retourne and the bottom card, face up beside the stock
        return False

    done = play_until_result(page, screenshots, "belote2p", DEAL_TIMEOUT, look_at_the_stock)
    assert done.get("bottom"), "the bottom card was never shown beside the stock"
    assert page.locator("[data-testid=claim]").count() == 0 or done["cards"] > 0
    shoot_result(page, live_url, room_url, browser, screenshots, "belote2p")
    assert not errors, errors
    page.context.close()


def test_a_belote_for_three_deal(browser: Any, live_url: str, screenshots: Path) -> None:
    page = browser.new_context(viewport=PHONE).new_page()
    errors = _errors(page)
    room_url = create_room_by_form(page, live_url, "Odile", "belote-3p")
    assert page.locator("[data-testid=seats] li").count() == 3
    sit_fill_start(page)
    # you at the bottom, the next seat on the right, the one after on the left; none on top
    page.wait_for_selector(".felt.players-3 [data-testid=seat-right]")
    assert page.locator("[data-testid=seat-left]").count() == 1
    assert page.locator("[data-testid=seat-top]").count() == 0
    assert page.locator("[data-testid=scorebar] .score").count() == 3
    done = play_until_result(page, screenshots, "belote3p", DEAL_TIMEOUT)
    text = page.locator("[data-testid=last-deal]").inner_text()
    assert "deal 1" in text.lower() and ("Card points" in text or "no score" in text), text
    # the breakdown and the sheet: one column per player
    if "Card points" in text:
        row = page.locator("[data-testid=last-deal] table.breakdown tbody tr").first
        assert row.locator("td").count() == 3
    assert page.locator("[data-testid=sheet] thead th").count() == 2 + 3
    shoot_result(page, live_url, room_url, browser, screenshots, "belote3p")
    assert done["cards"] >= 1 or "no score" in text, done
    assert not errors, errors
    page.context.close()


def test_a_belote_for_three_deal_with_32_cards(
    browser: Any, live_url: str, screenshots: Path
) -> None:
    """Option deal "32": the retourne stays face up beside the stock during the play."""
    page = browser.new_context(viewport=PHONE).new_page()
    errors = _errors(page)
    page.goto(live_url + "/")
    page.fill("#nickname", "Anouk")
    page.click("[data-testid=nickname-only]")
    page.wait_for_selector("[data-testid=create-room]")
    page.select_option("#game-select", "belote-3p")
    page.select_option("fieldset[data-game=belote-3p] select[name=opt_deal]", "32")
    page.click("[data-testid=create-room] button[type=submit]")
    page.wait_for_url(re.compile(r"/rooms/\d+$"))
    sit_fill_start(page)

    def look_at_the_retourne(page: Any, done: dict[str, int]) -> bool:
        if (
            not done.get("retourne")
            and page.locator("[data-testid=hand] button.playable").count()
            and page.locator("[data-testid=stock] img[data-card]").count() == 1
        ):
            done["retourne"] = 1
            assert page.locator("[data-testid=hand] button").count() == 9
        return False

    done = play_until_result(page, screenshots, "belote3p-32", DEAL_TIMEOUT, look_at_the_retourne)
    text = page.locator("[data-testid=last-deal]").inner_text()
    assert done.get("retourne") or "no score" in text, done
    assert not errors, errors
    page.context.close()


def test_a_bridge_belote_deal_where_the_person_bids(
    browser: Any, live_url: str, screenshots: Path
) -> None:
    # The person sits where the bidding starts: a bot speaking first may bid all
    # trumps, the highest contract, and leave the person nothing to bid.
    room, tokens, view = four_guests_at_a_started_table(
        live_url, ("Boris", "Vesela", "Ivan", "Mira"), "bridge-belote"
    )
    first = view["to_act"]
    page = page_as(browser, live_url, tokens[first])
    errors = _errors(page)
    room_url = f"{live_url}/rooms/{room['id']}"
    page.goto(room_url)
    page.wait_for_selector("[data-testid=bidding]")
    leave_to_stand_ins(live_url, room, tokens, stay=first)

    def bid(page: Any, done: dict[str, int]) -> bool:
        """The first time asked, bid the lowest contract the panel enables."""
        if done.get("bid"):
            return False
        bids = page.locator("[data-testid=bidding] button.call-bid:not([disabled])")
        if not bids.count():
            return False
        # Exactly the legal calls are enabled: Contra/Recontra stay disabled without a bid to double.
        standing = page.locator("[data-testid=standing]").inner_text()
        assert "No bid yet" in standing, standing
        assert page.locator("[data-testid=bidding] button[data-call=double]").is_disabled()
        assert page.locator("[data-testid=bidding] button[data-call=redouble]").is_disabled()
        page.screenshot(path=str(screenshots / "bridge-bidding.png"))
        if click_quietly(bids.first):
            done["bid"] = 1
            return True
        return False

    done = play_until_result(page, screenshots, "bridge", DEAL_TIMEOUT, bid)
    assert done.get("bid"), done
    text = page.locator("[data-testid=last-deal]").inner_text()
    assert "Raw points" in text and "Rounded" in text, text
    shoot_result(page, live_url, room_url, browser, screenshots, "bridge")
    assert not errors, errors
    page.context.close()


def test_a_botifarra_hand_where_the_dealer_delegates(
    browser: Any, live_url: str, screenshots: Path
) -> None:
    room, tokens, view = four_guests_at_a_started_table(
        live_url, ("Anna", "Berto", "Carme", "Dani"), "botifarra", {"target": 51}
    )
    dealer = view["dealer"]
    page = page_as(browser, live_url, tokens[dealer])
    errors = _errors(page)
    room_url = f"{live_url}/rooms/{room['id']}"
    page.goto(room_url)
    page.wait_for_selector("[data-testid=choice] [data-call=delegate]")
    fits_phone(page)
    page.screenshot(path=str(screenshots / "botifarra-choice.png"))
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(screenshots / "botifarra-choice-desktop.png"))
    page.set_viewport_size(PHONE)
    # The partner sees his twelve cards face down while the dealer decides.
    partner = page_as(browser, live_url, tokens[(dealer + 2) % 4])
    partner.goto(room_url)
    partner.wait_for_selector(".hidden-hand")
    assert partner.locator("[data-testid=hand]").count() == 0
    assert partner.locator(".hidden-hand img").count() == 12
    partner.screenshot(path=str(screenshots / "botifarra-partner-face-down.png"))
    partner.context.close()
    leave_to_stand_ins(live_url, room, tokens, stay=dealer)
    assert page.locator("[data-testid=hand] button").count() == 12
    page.click("[data-testid=choice] [data-call=delegate]")
    page.wait_for_selector("[data-testid=contract] b")

    def doubling(page: Any, done: dict[str, int]) -> bool:
        """Pass at the doubling steps (after a screenshot with the multiplier shown)."""
        step = page.locator("[data-testid=choice] [data-call=pass]")
        if not step.count():
            return False
        if not done.get("doubling_shot"):
            assert page.locator("[data-testid=multiplier]").count() == 1
            page.screenshot(path=str(screenshots / "botifarra-doubling.png"))
            done["doubling_shot"] = 1
        return click_quietly(step)

    done = play_until_result(page, screenshots, "botifarra", DEAL_TIMEOUT * 1.5, doubling)
    text = page.locator("[data-testid=last-deal]").inner_text()
    assert "Tricks (1 each)" in text, text
    sheet = page.locator("[data-testid=sheet]").inner_text()
    assert "del." in sheet, sheet
    shoot_result(page, live_url, room_url, browser, screenshots, "botifarra")
    assert done["cards"] >= 1 and not errors, (done, errors)
    page.context.close()
