"""The replay in a real browser: four bots finish a deal, then a visitor steps through it
with the arrow keys on a phone-sized screen, every hand face up, and opens the deal's
check. Screenshots go to screenshots/ (gitignored)."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.slow  # the full suite only (.ci/run; pytest -m '')

PHONE = {"width": 375, "height": 667}


def _api(
    base: str, method: str, path: str, body: dict | None = None, token: str | None = None
) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("content-type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"null")


def _finished_deal(base: str) -> tuple[int, dict]:
    token = _api(base, "POST", "/api/session", {"nickname": "Host"})["token"]
    room = _api(base, "POST", "/api/rooms", {"game": "bolot", "options": {"target": 3000}}, token)
    for seat in range(4):
        _api(base, "PUT", f"/api/rooms/{room['id']}/seats/{seat}", {"bot": "random"}, token)
    _api(base, "POST", f"/api/rooms/{room['id']}/start", None, token)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        record = _api(base, "GET", f"/api/rooms/{room['id']}/record")
        if record["deals"]:
            return room["id"], record
        time.sleep(0.2)
    raise AssertionError("no deal finished in 120 s")


def test_step_through_a_deal_with_the_arrow_keys(
    live_url: str, browser: Any, screenshots: Path
) -> None:
    room_id, record = _finished_deal(live_url)
    deal = record["deals"][0]
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{live_url}/rooms/{room_id}/replay?deal=1")
    where = page.locator("[data-testid=replay-where]")
    assert "step 1 /" in where.inner_text()
    hands = page.locator("[data-testid=replay-hands] img[data-card]")
    assert hands.count() == 20  # five cards each after the deal, all face up
    page.keyboard.press("ArrowRight")
    expect(where).to_contain_text(
        "step 2 /"
    )  # locator assertions, not eval: the pages' CSP forbids it
    page.keyboard.press("ArrowRight")
    expect(where).to_contain_text(
        "step 3 /"
    )  # locator assertions, not eval: the pages' CSP forbids it
    page.keyboard.press("ArrowLeft")
    expect(where).to_contain_text(
        "step 2 /"
    )  # locator assertions, not eval: the pages' CSP forbids it
    assert "step=1" in page.url
    page.screenshot(path=str(screenshots / "replay-phone.png"))
    steps = len(deal["actions"])
    page.goto(f"{live_url}/rooms/{room_id}/replay?deal=1&step={steps - 1}")
    assert page.locator("#replay-next").count() == 0 and page.locator("#replay-prev").count() == 1
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1, f"the replay is {width}px wide on a phone"
    page.screenshot(path=str(screenshots / "replay-end-phone.png"), full_page=True)
    page.click("text=Check this deal's shuffle")
    page.wait_for_selector("[data-testid=verdict]")
    assert "hashes match" in page.locator("[data-testid=verdict]").inner_text()
    page.screenshot(path=str(screenshots / "verify-phone.png"), full_page=True)
    # The match's record in Bulgarian (long column names, hashes) fits the phone too.
    page.goto(f"{live_url}/records/{record['game_id']}?lang=bg")
    page.wait_for_selector("[data-testid=record-deals]")
    page.screenshot(path=str(screenshots / "record-bg-phone.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1, f"the record is {width}px wide on a phone"
    context.close()


# Cards on the table (the trick, a won trick, the previous trick shown on request)
# that meet a seat box or the hands under the felt.
COVERED = """(() => {
  const box = e => e.getBoundingClientRect();
  const meets = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const cards = [...document.querySelectorAll('.center .tcard')].filter(c => c.getClientRects().length && getComputedStyle(c).opacity > 0);
  const others = [...document.querySelectorAll('.seat, .replay-hands')];
  const found = [];
  for (const c of cards) for (const o of others) if (meets(box(c), box(o))) found.push(c.dataset.card + ' over ' + (o.dataset.testid || o.className));
  return found;
})()"""


def test_the_tricks_of_a_replay_stay_off_the_seats(
    live_url: str, browser: Any, screenshots: Path
) -> None:
    room_id, record = _finished_deal(live_url)
    steps = len(record["deals"][0]["actions"])
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    for step in range(min(steps, 24)):
        page.goto(f"{live_url}/rooms/{room_id}/replay?deal=1&step={step}")
        for show_last in (False, True):
            if show_last:
                if not page.locator(".toggle-last").count():
                    continue
                page.click(".toggle-last")
            found = page.evaluate(COVERED)
            if found:
                page.screenshot(path=str(screenshots / "replay-covered.png"), full_page=True)
            assert not found, (step, show_last, found)
    context.close()


def test_what_each_card_cost_loads_under_the_replay_and_follows_the_step(
    live_url: str, browser: Any, screenshots: Path
) -> None:
    room_id, record = _finished_deal(live_url)
    plays = [
        i for i, m in enumerate(record["deals"][0]["actions"]) if m["action"]["type"] == "play"
    ]
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{live_url}/rooms/{room_id}/replay?deal=1&step={plays[4]}")
    cells = page.locator("#costs [data-testid=cost]")
    expect(cells).to_have_count(32, timeout=60_000)  # eight tricks of four cards, solved
    last_trick = page.locator("#costs .costs-trick").last
    # the last trick: every card is forced, so every one is a card of perfect play
    expect(last_trick.locator(".cost-value")).to_have_text(["perfect"] * 4)
    expect(page.locator("#costs a.current")).to_have_attribute("data-step", str(plays[4]))
    page.keyboard.press("ArrowRight")  # the replay steps in place; the mark follows
    expect(page.locator("#costs a.current")).to_have_attribute("data-step", str(plays[4] + 1))
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1, f"the costs are {width}px wide on a phone"
    page.locator("#costs").screenshot(path=str(screenshots / "costs-phone.png"))
    cells.nth(20).click()  # a card opens its step
    expect(page.locator("[data-testid=replay-where]")).to_contain_text(f"step {plays[20] + 1} /")
    expect(page.locator("#costs a.current")).to_have_attribute("data-step", str(plays[20]))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.locator("#costs").screenshot(path=str(screenshots / "costs-desktop.png"))
    context.close()


def test_two_quick_presses_take_two_steps(live_url: str, browser: Any) -> None:
    room_id, _ = _finished_deal(live_url)
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{live_url}/rooms/{room_id}/replay?deal=1&step=3")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")  # before the first step has come back
    expect(page.locator("[data-testid=replay-where]")).to_contain_text("step 6 /")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("[data-testid=replay-where]")).to_contain_text("step 3 /")
    context.close()
