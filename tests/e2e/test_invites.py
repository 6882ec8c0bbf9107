"""Two friends in two browsers (docs/invitations.md): Ana makes a private casual table from
the lobby form, offers seat 3 in its share panel and reads the code; Ben, a visitor,
types the code in the lobby (lower case, with a dash), gives a nickname and lands in
seat 3; a third visitor without the code is refused. Then, the match started, Ana's
hidden tab says "● Your turn — Tapet" on her turn and its own title again once visible."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.helpers import DESKTOP, PHONE, api

pytestmark = pytest.mark.slow  # a browser and a live server


def _hide(page: Any, hidden: bool) -> None:
    flag = "true" if hidden else "false"
    page.evaluate(
        f"Object.defineProperty(document, 'hidden', {{configurable: true, get: () => {flag}}});"
        "document.dispatchEvent(new Event('visibilitychange'))"
    )


def test_two_friends_by_code_then_the_turn_title(browser: Any, live_url: str) -> None:
    ana = browser.new_context(viewport=DESKTOP).new_page()
    ana.goto(f"{live_url}/")
    ana.locator("[data-testid=nickname]").fill("Ana Invita")
    ana.locator("[data-testid=nickname-only]").click()
    ana.wait_for_url(f"{live_url}/")
    form = ana.locator("[data-testid=create-room]")
    form.locator("select[name=game]").select_option("bolot")
    form.locator("[data-testid=private]").check()
    form.locator("[data-testid=rated]").uncheck()
    form.locator("button[type=submit]").click()
    ana.wait_for_url(re.compile(r"/rooms/\d+$"))
    room_id = int(ana.url.rsplit("/", 1)[1])
    share = ana.locator("[data-testid=share]")  # the header's (desktop); a phone's is in ⚙
    share.locator("summary").click()
    share.locator("[data-testid=offer-2]").click()
    ana.wait_for_url(re.compile(r"\?share=1$"))
    share.locator("[data-testid=offered-2]").wait_for()
    spoken = share.locator("[data-testid=share-code]").inner_text()
    assert re.fullmatch(r"[A-Z0-9]{3}-[A-Z0-9]{3}", spoken)

    ben = browser.new_context(viewport=PHONE).new_page()
    ben.goto(f"{live_url}/")
    ben.locator("#lobby-code").fill(spoken.lower())
    ben.locator("[data-testid=lobby-join-code] button").click()
    ben.locator("[data-testid=take-offer-2]").wait_for()
    ben.locator("#nickname").fill("Ben Convidat")
    ben.locator("[data-testid=take-offer-2]").click()
    ben.wait_for_url(f"{live_url}/rooms/{room_id}")
    room = api(live_url, "GET", f"/api/rooms/{room_id}?code={spoken}")
    assert room["seats"][2]["name"] == "Ben Convidat" and room["private"] is True

    eve = browser.new_context(viewport=PHONE).new_page()
    answer = eve.goto(f"{live_url}/rooms/{room_id}")
    assert answer is not None and answer.status == 403
    assert eve.locator("[data-testid=join-code-form]").is_visible()

    # bots in the other seats; Ana starts; bots answer at once; Ben answers his turns
    ana.goto(f"{live_url}/rooms/{room_id}")
    ana.locator("[data-testid=fill-bots]").click()
    ana.locator("[data-testid=start]").click()
    ana.locator("#room-main").wait_for()
    ben.goto(f"{live_url}/rooms/{room_id}")
    for _ in range(40):
        if ana.locator(".prompt.my-turn").count():
            break
        if ben.locator(".prompt.my-turn").count():
            # a card that does not follow suit is aria-disabled, not disabled; a choice kept
            # folded (a card played "without saying Bolot") is not visible
            ben.locator(
                "#room-main button[name=action]:enabled:not([aria-disabled=true]):visible"
            ).first.click()
        ana.wait_for_timeout(500)
    assert ana.locator(".prompt.my-turn").count() == 1
    title = ana.title()
    assert "Your turn" not in title
    _hide(ana, True)
    assert ana.title() == "● Your turn — Tapet"
    _hide(ana, False)
    assert ana.title() == title
    for page in (ana, ben, eve):
        page.context.close()
