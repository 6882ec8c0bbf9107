"""Tables for the screenshot and access tests, set up through the API.

``table_at_my_card(base, game)`` creates a room as a new guest, sits in seat 0, seats
heuristic bots in the other seats, starts, and answers for seat 0 through the API
(the first offered call, so a contract is made, and the best declaration) until seat 0
is asked to play a card. It returns the guest's token and the room id; the page is
then opened with that guest's cookie (helpers.page_as).
"""

from __future__ import annotations

import time
from typing import Any

from tests.e2e.helpers import api, guest

LANDSCAPE = {"width": 667, "height": 375}
GAMES = ("bolot", "belote", "belote-2p", "bridge-belote", "botifarra")


def new_table(base: str, game: str, nickname: str = "Pepa", options: dict | None = None) -> tuple[str, int]:
    """A started room of ``game`` with the guest in seat 0 and bots elsewhere."""
    token = guest(base, nickname)
    room = api(base, "POST", "/api/rooms", token, {"game": game, "options": options or {}})
    api(base, "PUT", f"/api/rooms/{room['id']}/seats/0", token, {})
    for seat in range(1, len(room["seats"])):
        api(base, "PUT", f"/api/rooms/{room['id']}/seats/{seat}", token, {"bot": "heuristic"})
    api(base, "POST", f"/api/rooms/{room['id']}/start", token, {})
    return token, int(room["id"])


def _choose(view: dict[str, Any]) -> dict[str, Any]:
    acts = view["legal_actions"]
    for kind in ("take", "bid", "trump", "botifarra"):
        for a in acts:
            if a.get("type") == kind:
                return a
    declares = [a for a in acts if a.get("type") == "declare"]
    if declares:
        return max(declares, key=lambda a: len(a.get("combinations") or []))
    exchange = [a for a in acts if a.get("type") == "exchange"]
    if exchange:
        return exchange[0]
    return next((a for a in acts if a.get("type") == "pass"), acts[0])


def answer_until(base: str, token: str, room: int, stop: Any, timeout: float = 30.0) -> dict[str, Any]:
    """Answer for seat 0 through the API until ``stop(view)``; returns that view."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view = api(base, "GET", f"/api/rooms/{room}/view", token)
        if stop(view):
            return view
        if view.get("to_act") == 0 and view.get("legal_actions"):
            try:
                api(base, "POST", f"/api/rooms/{room}/moves", token, {"seq": view["seq"], "action": _choose(view)})
            except Exception:  # noqa: BLE001 - a bot moved first: look again
                pass
        else:
            time.sleep(0.05)
    raise AssertionError(f"the table never reached the wanted state: {view.get('phase')}")


def my_card_to_play(view: dict[str, Any]) -> bool:
    """Seat 0 is asked to play a card."""
    return view.get("to_act") == 0 and any(a.get("type") == "play" for a in view.get("legal_actions") or [])


def table_at_my_card(base: str, game: str, nickname: str = "Pepa") -> tuple[str, int]:
    """A room of ``game`` where seat 0 (the guest) must now play a card."""
    token, room = new_table(base, game, nickname)
    answer_until(base, token, room, my_card_to_play)
    return token, room


def layout(page: Any) -> dict[str, Any]:
    """What the fit checks need: the table's box and overflow, the hand's cards."""
    return page.evaluate(
        """(() => {
          const m = document.querySelector('#room-main');
          const r = m.getBoundingClientRect();
          const cards = [...document.querySelectorAll('[data-testid=hand] .card')].map(c => {
            const b = c.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; });
          const hidden = [...document.querySelectorAll('[data-testid=hand] .card')].filter((c, i, all) => {
            // the top-left index of each card must not be covered by the next card
            const b = c.getBoundingClientRect();
            const el = document.elementFromPoint(b.left + 6, b.top + 14);
            return !(el && c.contains(el));
          }).length;
          return {bottom: r.bottom, right: r.right, scroll_h: m.scrollHeight, client_h: m.clientHeight,
                  page_w: document.documentElement.scrollWidth, cards, hidden,
                  vw: window.innerWidth, vh: window.innerHeight};
        })()"""
    )


def assert_fits(box: dict[str, Any]) -> None:
    """The whole table is on screen: no scrolling, every card inside the width, every index visible."""
    assert box["bottom"] <= box["vh"] + 1, box
    assert box["scroll_h"] <= box["client_h"] + 1, box
    assert box["page_w"] <= box["vw"], box
    for left, _top, right, bottom in box["cards"]:
        assert left >= -1 and right <= box["vw"] + 1 and bottom <= box["vh"] + 1, box
    assert box["hidden"] == 0, box
