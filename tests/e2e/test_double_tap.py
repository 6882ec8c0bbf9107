"""A double tap at the table never becomes a second, unchosen move (static/js/tapet.js).

A fresh tester double-tapped "Take" 150 ms apart at a Belote-for-three table: the
first tap's answer drew "Declare" where "Take" had been, and the second tap declared a
tierce nobody chose. The page now drops a tap on a table button drawn after the previous
tap when it comes less than 400 ms after it; a button that was already there (the same
card tapped twice) still takes the tap, and the server answers the repeat.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import DESKTOP, PHONE, page_as
from tests.e2e.phone import new_table

pytestmark = pytest.mark.slow  # the full suite only (.ci/run; pytest -m '')

# Taps on test buttons of a move form inside #room-main (the room's other buttons, such
# as Start, are not guarded); each reports whether the page let it through (a dropped
# tap is cancelled before the form or htmx sees it).
FORM = """
  const form = document.createElement("form");
  form.setAttribute("action", "/rooms/0/moves");
  document.getElementById("room-main").appendChild(form);
"""
TAPS = (
    """() => {"""
    + FORM
    + """
  const make = (stamp) => {
    const b = document.createElement("button");
    b.type = "button";
    if (stamp !== null) b.setAttribute("data-drawn-at", String(stamp));
    form.appendChild(b);
    return b;
  };
  const tap = (b) => b.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true}));
  const old = make(Date.now() - 5000);       // on the table before the first tap
  const first = tap(old);
  const again = tap(old);                     // the same button again: goes through
  const drawnAfter = make(null);              // drawn by the first tap's answer
  const second = tap(drawnAfter);             // the double tap's second half: dropped
  return {first, again, second};
}"""
)

LATER = (
    """() => new Promise((done) => setTimeout(() => {"""
    + FORM
    + """
  const b = document.createElement("button");
  b.type = "button";
  form.appendChild(b);
  done(b.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true})));
}, 600))"""
)


def test_a_double_tap_does_not_land_on_the_button_drawn_by_the_first(
    browser: Any, live_url: str, screenshots: Path
) -> None:
    token, room = new_table(live_url, "belote-3p", nickname="Tap")
    page = page_as(browser, live_url, token, PHONE)
    page.goto(f"{live_url}/rooms/{room}")
    page.wait_for_selector("#room-main")
    taps = page.evaluate(TAPS)
    assert taps == {"first": True, "again": True, "second": False}, taps
    # A tap well after the previous one (a player's next decision) always goes through.
    assert page.evaluate(LATER) is True
    page.context.close()


# The chat's form: a reaction tapped, then a tap on the form its answer drew (dropped),
# and a tap on a button that was there before (goes through; the server answers a repeat
# of the same message id with the first message).
CHAT_TAPS = """() => {
  const form = document.createElement("form");
  form.className = "chat-form";
  form.setAttribute("action", "/rooms/0/chat");
  document.body.appendChild(form);
  const make = () => {
    const b = document.createElement("button");
    b.type = "button";
    form.appendChild(b);
    return b;
  };
  const tap = (b) => b.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true}));
  const old = make();
  const first = tap(old);
  const again = tap(old);
  const redrawn = make();
  const second = tap(redrawn);
  return {first, again, second};
}"""


def test_a_double_tap_on_a_chat_reaction_does_not_post_it_twice(
    browser: Any, live_url: str, screenshots: Path
) -> None:
    token, room = new_table(live_url, "bolot", nickname="Xat")
    page = page_as(browser, live_url, token, PHONE)
    page.goto(f"{live_url}/rooms/{room}")
    page.wait_for_selector("#room-main")
    taps = page.evaluate(CHAT_TAPS)
    assert taps == {"first": True, "again": True, "second": False}, taps
    page.wait_for_timeout(500)  # a tap well after the previous one goes through
    assert (
        page.evaluate(
            """() => document.querySelector("form.chat-form:last-of-type button:last-child")
             .dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true}))"""
        )
        is True
    )
    page.context.close()


def test_enter_in_the_chat_field_sends_the_typed_message(
    browser: Any, live_url: str, screenshots: Path
) -> None:
    """Enter in "Your message" sends what was typed (a fresh tester's Enter posted the
    first reaction, "Well played", and the text was lost): Send is the form's first
    submit button."""
    token, room = new_table(live_url, "bolot", nickname="Enter")
    page = page_as(browser, live_url, token, DESKTOP)
    page.goto(f"{live_url}/rooms/{room}")
    field = page.wait_for_selector("[data-testid=chat-text]")
    field.fill("bona sort a tots")
    field.press("Enter")
    page.wait_for_selector("[data-testid=chat-msg]:has-text('bona sort a tots')")
    page.screenshot(path=str(screenshots / "chat-enter-1280.png"))
    said = page.eval_on_selector_all("[data-testid=chat-msg]", "ms => ms.map(m => m.innerText)")
    assert len(said) == 1 and "bona sort a tots" in said[0], said
    assert page.input_value("[data-testid=chat-text]") == ""
    page.context.close()
