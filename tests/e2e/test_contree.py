"""Belote contrée at the table (rules/contree.md §4): the bidding panel on a phone and a
desktop. Only the bids above the standing one are enabled, a value and a suit make a bid,
coinche is offered only against the other side's bid, and the contract is shown in play.
Screenshots go to screenshots/contree-<phase>-<size>.png (gitignored) to be looked at."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import (
    DESKTOP,
    PHONE,
    api,
    create_room_by_form,
    page_as,
    play_until_result,
    shoot_result,
    sit_fill_start,
)
from tests.e2e.phone import (
    answer_until,
    assert_fits,
    assert_unobstructed,
    layout,
    my_card_to_play,
    new_table,
)

pytestmark = pytest.mark.slow  # the full suite only (.ci/run; pytest -m '')


def my_call(view: dict[str, Any]) -> bool:
    return view.get("phase") == "auction" and view.get("to_act") == 0


@pytest.mark.parametrize("preset", ["ffb", "coinche"])
def test_the_contree_bidding_panel_and_the_contract(
    browser: Any, live_url: str, screenshots: Path, preset: str
) -> None:
    """ffb bids up to 160, coinche up to 650 (rules/contree.md §10): either way the panel
    and the hand fit a phone and a desktop, and exactly the legal values can be chosen."""
    token, room = new_table(live_url, "contree", nickname="Coinche", options={"preset": preset})
    view = answer_until(live_url, token, room, my_call)
    standing = view.get("bidding") or {}
    page = page_as(browser, live_url, token, PHONE)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_url}/rooms/{room}")
    page.wait_for_selector("[data-testid=calls]")
    assert page.locator("[data-testid=preset]").inner_text() == preset
    for name, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        page.wait_for_timeout(250)
        page.screenshot(path=str(screenshots / f"contree-auction-{preset}-{name}.png"))
        assert_fits(layout(page))
        assert_unobstructed(page)
    page.set_viewport_size(PHONE)
    # exactly the legal bid values can be chosen (rules/contree.md §4): chips and list
    legal = {str(a["value"]) for a in view["legal_actions"] if a["type"] == "bid"}
    radios = page.locator("[data-testid=bid-values] input[type=radio]")
    offered = [radios.nth(i).get_attribute("value") for i in range(radios.count())]
    more = page.locator("[data-testid=bid-more] option")
    offered += [more.nth(i).get_attribute("value") for i in range(more.count())]
    offered = [v for v in offered if v]  # the list's empty first option
    assert sorted(offered) == sorted(legal)
    coinche = page.locator("[data-testid=calls] button[data-call=coinche]")
    theirs = standing.get("bidder") is not None and standing["bidder"] % 2 == 1
    assert coinche.is_enabled() == (theirs and not standing.get("coinche"))
    # bid the highest open value in hearts: a value chip, then the suit button
    if legal:
        top = max((v for v in legal if v.isdigit()), key=int, default="capot")
        if page.locator(f"[data-testid=bid-more] option[value='{top}']").count():
            page.locator("[data-testid=bid-more]").select_option(top)
        else:
            page.locator(f"[data-testid=bid-values] input[value='{top}']").check(force=True)
        page.locator("[data-testid=calls] button[data-call=bid-H]").click()
        for _ in range(100):
            after = api(live_url, "GET", f"/api/rooms/{room}/view", token)
            if any(e["seat"] == 0 for e in after["auction"]):
                break
            page.wait_for_timeout(100)
        mine = [e for e in after["auction"] if e["seat"] == 0]
        assert mine[0]["type"] == "bid" and str(mine[0]["value"]) == top
        assert mine[0]["suit"] == "H"
    # play: the contract (value, coinche level, trumps) is on the table
    answer_until(live_url, token, room, my_card_to_play)
    page.goto(f"{live_url}/rooms/{room}")
    page.wait_for_selector("[data-testid=hand] .card.playable")
    assert page.locator("[data-testid=contract-bid]").count() == 1
    for name, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        page.wait_for_timeout(250)
        page.screenshot(path=str(screenshots / f"contree-play-{preset}-{name}.png"))
    assert not errors, errors
    page.context.close()


def test_the_lobby_form_follows_the_chosen_preset(
    browser: Any, live_url: str, screenshots: Path
) -> None:
    """Choosing the coinche preset in the create form sets the options it fixes (rules/
    contree.md §10), and the room is created with them."""
    token = api(live_url, "POST", "/api/session", body={"nickname": "Lobby"})["token"]
    page = page_as(browser, live_url, token, PHONE)
    page.goto(live_url + "/")
    page.wait_for_selector("[data-testid=create-room]")
    page.select_option("#game-select", "contree")
    form = page.locator("fieldset.options[data-game=contree]")
    form.locator("select[name=opt_preset]").select_option("coinche")
    assert form.locator("select[name=opt_max_bid]").input_value() == "650"
    assert form.locator("input[name=opt_declarations][type=checkbox]").is_checked()
    assert form.locator("select[name=opt_belote_rule]").input_value() == "holder"
    form.locator("select[name=opt_preset]").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "contree-lobby-phone.png"))
    page.click("[data-testid=create-room] button[type=submit]")
    page.wait_for_url(re.compile(r"/rooms/\d+$"))
    room = int(page.url.rsplit("/", 1)[1])
    options = api(live_url, "GET", f"/api/rooms/{room}", token)["options"]
    assert options["preset"] == "coinche" and options["max_bid"] == 650
    assert options["declarations"] is True and options["rounding"] == "none"
    page.context.close()


def test_a_contree_deal_to_its_result(browser: Any, live_url: str, screenshots: Path) -> None:
    """A whole deal through the pages: created with the form, bid with the panel (its first
    enabled button), played to the end-of-deal breakdown; screenshots of each moment."""
    page = browser.new_context(viewport=PHONE).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    room_url = create_room_by_form(page, live_url, "Odile", "contree")
    sit_fill_start(page)
    done = play_until_result(page, screenshots, "contree-deal", 150.0)
    text = page.locator("[data-testid=last-deal]").inner_text()
    assert "deal 1" in text.lower(), text  # "Deal 1", or "Last deal (deal 1)" in deal 2
    shoot_result(page, live_url, room_url, browser, screenshots, "contree-deal")
    assert not errors, errors
    assert done["cards"] >= 1 or "void" in text.lower() or "no score" in text.lower(), done
    page.context.close()


def test_a_generale_by_the_deal_form_fields(browser: Any, live_url: str, screenshots: Path) -> None:
    """A paper contrée championship with option ``generale``: the deal form has the
    bidder's tricks field; §11 C22 (a *générale* made, bidder_tricks 8, cp [152, 0], `ffb`)
    entered by the fields scores [1000, 0]. Screenshots: contree-generale-form-*.png."""
    token = api(
        live_url,
        "POST",
        "/api/accounts",
        body={"username": "orggenerale", "password": "correct horse battery", "nickname": "Org"},
    )["token"]
    t = api(
        live_url,
        "POST",
        "/api/tournaments",
        token,
        {
            "name": "Générale",
            "game": "contree",
            "format": "swiss",
            "options": {"generale": True},
            "settings": {"rounds": 1},
        },
    )
    tid = t["id"]
    for a, b in (("Pepa", "Vicent"), ("Rosa", "Xavi")):
        api(live_url, "POST", f"/api/tournaments/{tid}/teams", token, {"players": [a, b]})
    api(live_url, "POST", f"/api/tournaments/{tid}/rounds", token)
    api(live_url, "POST", f"/api/tournaments/{tid}/rounds/1/publish", token)
    for name, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page = page_as(browser, live_url, token, size)
        page.goto(f"{live_url}/tournaments/{tid}/tables/1")
        form = page.locator("[data-testid=deal-form]")
        form.wait_for()
        page.select_option("[data-testid=f-trump]", "H")
        page.fill("[data-testid=f-bid]", "générale")
        page.fill("[data-testid=f-bidder-tricks]", "8")
        page.fill("input[name=f_tricks0]", "8")
        page.fill("input[name=f_tricks1]", "0")
        page.fill("input[name=f_cp0]", "152")
        page.fill("input[name=f_cp1]", "0")
        form.scroll_into_view_if_needed()
        page.screenshot(path=str(screenshots / f"contree-generale-form-{name}.png"), full_page=True)
        if name == "phone":
            page.click("[data-testid=add-deal]")
            page.wait_for_selector("table.sheet")
            table = api(live_url, "GET", f"/api/tournaments/{tid}/tables/1", token)
            assert [d["points"] for d in table["deals"]] == [[1000, 0]]
        page.context.close()


def test_a_modified_preset_is_named_so(browser: Any, live_url: str, screenshots: Path) -> None:
    """ffb with rounding none and surcoinche x3 is not ffb (rules/contree.md §10): the
    table says "ffb, modified" and its tooltip names the two options; the table still fits."""
    options = {"preset": "ffb", "rounding": "none", "surcoinche_multiplier": 3}
    token, room = new_table(live_url, "contree", nickname="Modif", options=options)
    page = page_as(browser, live_url, token, PHONE)
    page.goto(f"{live_url}/rooms/{room}?lang=en")
    preset = page.locator("[data-testid=preset]")
    preset.wait_for()
    assert preset.inner_text() == "ffb, modified"
    title = preset.get_attribute("title") or ""
    assert title.startswith("FFB contrée (2016), modified: ")
    assert "A surcoinche multiplies by: 3" in title
    for name, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        page.wait_for_timeout(250)
        page.screenshot(path=str(screenshots / f"contree-modified-{name}.png"))
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    page.context.close()
