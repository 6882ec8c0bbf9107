"""What the browser tests of the games share: guests through the API, a room
opened in chromium with a guest's cookie, and a loop that answers the table by
clicking until the first deal's result is shown.

The loop clicks what a careful player would: the first enabled call (a take or
the lowest bid, so the deal is played), the best declaration (offered first),
then a playable card. It never claims ("I'm done") unless told to.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

PHONE = {"width": 375, "height": 667}
DESKTOP = {"width": 1280, "height": 800}
SESSION_COOKIE = "tapet_session"


def api(base: str, method: str, path: str, token: str | None = None, body: Any = None) -> Any:
    """One JSON call to the live server's API; returns the decoded answer."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as response:
        raw = response.read()
    return json.loads(raw) if raw else None


def guest(base: str, nickname: str) -> str:
    """A new guest; returns its token (also the value of its session cookie)."""
    return str(api(base, "POST", "/api/session", body={"nickname": nickname})["token"])


def page_as(browser: Any, base: str, token: str, viewport: dict[str, int] = PHONE) -> Any:
    """A new page in a new browser context signed in with ``token``'s session cookie."""
    context = browser.new_context(viewport=viewport)
    context.add_cookies([{"name": SESSION_COOKIE, "value": token, "url": base}])
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def four_guests_at_a_started_table(
    base: str, names: tuple[str, str, str, str], game: str, options: dict[str, Any] | None = None
) -> tuple[dict[str, Any], list[str], dict[str, Any]]:
    """Four guests sit in a new ``game`` room and start; returns (room, tokens, first view).

    The first dealer is drawn at random, so a test that needs a given seat (the dealer,
    the first to speak) reads it from the view and opens the table as that guest."""
    tokens = [guest(base, name) for name in names]
    room = api(base, "POST", "/api/rooms", tokens[0], {"game": game, "options": options or {}})
    for seat, token in enumerate(tokens):
        api(base, "PUT", f"/api/rooms/{room['id']}/seats/{seat}", token, {})
    api(base, "POST", f"/api/rooms/{room['id']}/start", tokens[0])
    view = api(base, "GET", f"/api/rooms/{room['id']}/view", tokens[0])
    return room, tokens, view


def leave_to_stand_ins(base: str, room: dict[str, Any], tokens: list[str], stay: int) -> None:
    """Every guest but the one in seat ``stay`` leaves; a stand-in bot takes each seat."""
    for seat, token in enumerate(tokens):
        if seat != stay:
            api(base, "DELETE", f"/api/rooms/{room['id']}/seats/{seat}", token)


def create_room_by_form(page: Any, base: str, nickname: str, game: str) -> str:
    """Pick a nickname ("only take this nickname" under the lobby's "play now") and create
    a room of ``game`` with the lobby form, which seats its creator in seat 0; returns
    the room URL."""
    page.goto(base + "/")
    page.fill("#nickname", nickname)
    page.click("[data-testid=nickname-only]")
    page.wait_for_selector("[data-testid=create-room]")
    page.select_option("#game-select", game)
    page.click("[data-testid=create-room] button[type=submit]")
    page.wait_for_url(re.compile(r"/rooms/\d+$"))
    return str(page.url)


def sit_fill_start(page: Any, seat: int = 0) -> None:
    """As the room's creator (seated in seat 0 when the room was made), move to ``seat``
    if it is another one, fill the other seats with heuristic bots, start the match."""
    page.wait_for_selector("[data-seat='0'] .tag.you")
    if seat != 0:
        page.click("[data-seat='0'] form[action$='/leave'] button")
        page.click(f"[data-testid=take-seat-{seat}]")
        page.wait_for_selector(f"[data-seat='{seat}'] .tag.you")
    page.select_option("[data-testid=fill-bot-level]", "heuristic")
    page.click("[data-testid=fill-bots]")
    page.wait_for_selector("[data-testid=start]:not([disabled])")
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=scorebar]")


def click_quietly(locator: Any, corner: bool = False) -> bool:
    """Click if the element is still there; the live table may replace it meanwhile.

    ``corner``: click near the top-left corner, the part of an overlapped card in a
    fanned hand that stays visible (its index)."""
    try:
        locator.click(timeout=1500, position={"x": 8, "y": 24} if corner else None)
        return True
    except Exception:  # noqa: BLE001 - a detached or replaced element: try again next round
        return False


def scroll_to(page: Any, selector: str, tries: int = 10) -> None:
    """Scroll the element into view on a live table, whose socket may redraw it meanwhile.

    Playwright's scroll does not retry an element detached while it waits for it to be
    stable (seen on a loaded machine: the bots' rematch answers redraw the result panel);
    this asks again. Raises Playwright's error for anything else, or after ``tries``."""
    for attempt in range(tries):
        try:
            page.locator(selector).scroll_into_view_if_needed()
            return
        except PlaywrightError as e:
            if "not attached" not in str(e) or attempt == tries - 1:
                raise


def fits_phone(page: Any, settle_ms: int = 2000) -> None:
    """At 375 x 667 the whole table fits: nothing of #room-main is below the screen.

    The live table is replaced by every push and its cards animate, so the check
    looks again for up to ``settle_ms`` before failing; the failure names the
    height of each part of the table and keeps a screenshot (``fits-phone-failed.png``).
    """
    measure = (
        "(() => { const m = document.querySelector('#room-main');"
        " return [m.getBoundingClientRect().bottom, m.scrollHeight, m.clientHeight,"
        " document.documentElement.scrollWidth,"
        " [...m.children].map(k => k.className + ':' + Math.round(k.getBoundingClientRect().height)"
        " + '/' + k.scrollHeight).join(' ')]; })()"
    )
    deadline = time.monotonic() + settle_ms / 1000
    while True:
        bottom, scroll_h, client_h, width, parts = page.evaluate(measure)
        if bottom <= PHONE["height"] + 1 and scroll_h <= client_h + 1 and width <= PHONE["width"]:
            return
        if time.monotonic() > deadline:
            page.screenshot(
                path=str(
                    Path(__file__).resolve().parents[2] / "screenshots" / "fits-phone-failed.png"
                )
            )
            raise AssertionError([bottom, scroll_h, client_h, width, parts])
        page.wait_for_timeout(200)


def play_until_result(
    page: Any,
    shots: Path,
    prefix: str,
    timeout: float = 120.0,
    on_turn: Any = None,
) -> dict[str, int]:
    """Answer the table until the first deal's result is shown; returns what was clicked.

    ``on_turn(page, done)`` may act first on any round (return True when it did).
    Screenshots (phone, and ``-desktop`` at 1280 x 800): ``<prefix>-auction.png`` when
    first asked to call, ``-declare``, ``-play`` when first asked to play a card; the
    phone table is checked to fit the screen at those moments.
    """
    done = {"calls": 0, "declares": 0, "cards": 0}
    shot: set[str] = set()

    def snap(name: str) -> None:
        """The phone screenshot, and the same moment at 1280 x 800."""
        shot.add(name)
        page.screenshot(path=str(shots / f"{prefix}-{name}.png"))
        page.set_viewport_size(DESKTOP)
        page.wait_for_timeout(120)
        page.screenshot(path=str(shots / f"{prefix}-{name}-desktop.png"))
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(120)

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.locator("[data-testid=last-deal]").count():
            return done
        if on_turn is not None and on_turn(page, done):
            continue
        calls = page.locator("[data-testid=calls] button:not([disabled])")
        declares = page.locator("[data-testid=declares] button")
        playable = page.locator("[data-testid=hand] button.playable")
        if calls.count():
            if "auction" not in shot:
                snap("auction")
                fits_phone(page)
                continue
            done["calls"] += click_quietly(calls.first)
        elif declares.count():
            if "declare" not in shot:
                snap("declare")
                continue
            done["declares"] += click_quietly(declares.first)
        elif playable.count():
            if "play" not in shot and page.locator("[data-testid=hand] button").count() >= 4:
                snap("play")
                fits_phone(page)
                continue
            done["cards"] += click_quietly(playable.first, corner=True)
        else:
            page.wait_for_timeout(80)
    pytest.fail(
        f"no deal result after {timeout} s; did {done}; status: "
        + page.locator("[data-testid=status]").inner_text()
    )


def shoot_result(
    page: Any, base_url: str, room_url: str, browser: Any, shots: Path, prefix: str
) -> None:
    """The result on the phone (scrolled to the breakdown) and the table on a desktop screen."""
    page.evaluate("document.querySelector('[data-testid=last-deal]')?.scrollIntoView()")
    page.screenshot(path=str(shots / f"{prefix}-result.png"))
    page.evaluate("window.scrollTo(0, 0)")
    desk = browser.new_context(
        viewport=DESKTOP, storage_state=page.context.storage_state()
    ).new_page()
    desk.goto(room_url)
    desk.wait_for_selector("[data-testid=scorebar]")
    desk.wait_for_timeout(300)
    desk.screenshot(path=str(shots / f"{prefix}-desktop.png"))
    desk.context.close()
