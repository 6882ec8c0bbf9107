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
GAMES = ("bolot", "belote", "belote-2p", "belote-3p", "bridge-belote", "botifarra", "contree")


def new_table(
    base: str, game: str, nickname: str = "Pepa", options: dict | None = None
) -> tuple[str, int]:
    """A started room of ``game`` with the guest in seat 0 and bots elsewhere."""
    token = guest(base, nickname)
    room = api(base, "POST", "/api/rooms", token, {"game": game, "options": options or {}})
    api(base, "PUT", f"/api/rooms/{room['id']}/seats/0", token, {})
    for seat in range(1, len(room["seats"])):
        api(base, "PUT", f"/api/rooms/{room['id']}/seats/{seat}", token, {"bot": "heuristic"})
    api(base, "POST", f"/api/rooms/{room['id']}/start", token, {})
    return token, int(room["id"])


def new_table_with_partner(base: str, game: str, nickname: str = "Pepa") -> tuple[str, str, int]:
    """A started four-seat room of ``game``: the guest in seat 0, a second guest, its
    partner, in seat 2, bots in seats 1 and 3. Returns both tokens and the room id. While
    the partner does not act the table waits at its turn, whatever plays seat 0."""
    token = guest(base, nickname)
    partner = guest(base, "Quim")
    room = api(base, "POST", "/api/rooms", token, {"game": game, "options": {}})
    api(base, "PUT", f"/api/rooms/{room['id']}/seats/0", token, {})
    api(base, "PUT", f"/api/rooms/{room['id']}/seats/2", partner, {})
    for seat in (1, 3):
        api(base, "PUT", f"/api/rooms/{room['id']}/seats/{seat}", token, {"bot": "heuristic"})
    api(base, "POST", f"/api/rooms/{room['id']}/start", token, {})
    return token, partner, int(room["id"])


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


def answer_until(
    base: str,
    token: str,
    room: int,
    stop: Any,
    timeout: float = 30.0,
    others: dict[int, str] | None = None,
) -> dict[str, Any]:
    """Answer for seat 0 through the API until ``stop(view)`` (seat 0's view); returns
    that view. ``others``: more people's seats and tokens, answered for the same way."""
    tokens = {0: token, **(others or {})}
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view = api(base, "GET", f"/api/rooms/{room}/view", token)
        if stop(view):
            return view
        seat = view.get("to_act")
        if seat in tokens:
            mine = view if seat == 0 else api(base, "GET", f"/api/rooms/{room}/view", tokens[seat])
            if mine.get("legal_actions"):
                try:
                    api(
                        base,
                        "POST",
                        f"/api/rooms/{room}/moves",
                        tokens[seat],
                        {"seq": mine["seq"], "action": _choose(mine)},
                    )
                except Exception:  # noqa: BLE001 - a bot moved first: look again
                    pass
                continue
        time.sleep(0.05)
    raise AssertionError(f"the table never reached the wanted state: {view.get('phase')}")


def my_card_to_play(view: dict[str, Any]) -> bool:
    """Seat 0 is asked to play a card."""
    return view.get("to_act") == 0 and any(
        a.get("type") == "play" for a in view.get("legal_actions") or []
    )


def table_at_my_card(
    base: str, game: str, nickname: str = "Pepa", following: bool = False
) -> tuple[str, int]:
    """A room of ``game`` where seat 0 (the guest) must now play a card; ``following``:
    to a trick already led, so there are cards in the middle of the felt."""
    token, room = new_table(base, game, nickname)
    answer_until(
        base, token, room, lambda v: my_card_to_play(v) and (not following or bool(v.get("trick")))
    )
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


def obstructions(page: Any) -> dict[str, Any]:
    """Bounding boxes of the table's parts, and what of them is cut off or covered.

    ``cut``: a part of #room-main (score bar, felt, prompt, hand), a seat box or a card
    of the hand that is not wholly on screen, or a prompt that must scroll to show its
    buttons. ``covered``: a card of the hand over a seat box, two seat boxes over each
    other, a seat box or a card on the table over the prompt or the hand.
    """
    return page.evaluate(
        """(() => {
          const box = e => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom].map(Math.round); };
          const meets = (a, b) => a[0] < b[2] - 1 && b[0] < a[2] - 1 && a[1] < b[3] - 1 && b[1] < a[3] - 1;
          const off = b => b[0] < -1 || b[1] < -1 || b[2] > innerWidth + 1 || b[3] > innerHeight + 1;
          const main = document.querySelector('#room-main');
          const parts = [...main.children].filter(k => k.getClientRects().length).map(k => [k.classList[0], box(k)]);
          const seats = [...main.querySelectorAll('.seat')].map(s => [s.dataset.testid, box(s)]);
          const hand = [...main.querySelectorAll('[data-testid=hand] .card')].map(c => [c.dataset.card, box(c)]);
          const played = [...main.querySelectorAll('.center .tcard')].filter(c => c.getClientRects().length)
            .map(c => ['table ' + c.dataset.card, box(c)]);
          const prompt = main.querySelector('[data-testid=prompt]');
          const cut = [...parts, ...seats, ...hand].filter(([, b]) => off(b)).map(([n, b]) => n + ' ' + b);
          if (prompt && prompt.scrollHeight > prompt.clientHeight + 1) cut.push('prompt scrolls ' + prompt.scrollHeight + '/' + prompt.clientHeight);
          const covered = [];
          for (const [c, cb] of hand) for (const [s, sb] of seats) if (meets(cb, sb)) covered.push(c + ' over ' + s);
          seats.forEach(([s, sb], i) => seats.slice(i + 1).forEach(([t, tb]) => { if (meets(sb, tb)) covered.push(s + ' over ' + t); }));
          const promptBox = prompt ? box(prompt) : null;
          for (const [n, b] of [...seats, ...played]) {
            if (promptBox && meets(b, promptBox)) covered.push(n + ' over the prompt');
            if (n.startsWith('table')) for (const [c, cb] of hand) if (meets(b, cb)) covered.push(n + ' over ' + c);
          }
          return {cut, covered, parts, seats, vw: innerWidth, vh: innerHeight};
        })()"""
    )


def assert_unobstructed(page: Any, settle_ms: int = 2000) -> None:
    """Nothing of the table is cut off or covered (``obstructions``); a push may be
    redrawing the table, so look again for up to ``settle_ms``."""
    deadline = time.monotonic() + settle_ms / 1000
    while True:
        found = obstructions(page)
        if not found["cut"] and not found["covered"]:
            return
        if time.monotonic() > deadline:
            raise AssertionError(found)
        page.wait_for_timeout(200)


def finger_strips(page: Any) -> list[int]:
    """For each card of the hand, how many pixels wide a tap hits that card: scanned
    across the card 20 px below its top edge (where its index is) with elementFromPoint."""
    return page.evaluate(
        """[...document.querySelectorAll('[data-testid=hand] .card')].map(c => {
          const b = c.getBoundingClientRect(); let hits = 0;
          for (let x = Math.ceil(b.left); x < b.right; x++) {
            const e = document.elementFromPoint(x, b.top + 20);
            if (e && c.contains(e)) hits++;
          }
          return hits; })"""
    )


def unreachable(page: Any, selector: str) -> list[str]:
    """Why the first element matching ``selector`` cannot be scrolled into view: it is
    missing, or once scrolled to it is still outside the screen or cut off by an
    ancestor that clips its overflow (overflow other than visible). Empty if it can."""
    return page.evaluate(
        """sel => {
          const e = document.querySelector(sel);
          if (!e) return ['no ' + sel];
          e.scrollIntoView({block: 'nearest', inline: 'nearest'});
          const box = x => { const b = x.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom].map(Math.round); };
          const b = box(e), bad = [];
          const outside = c => b[0] < c[0] - 1 || b[1] < c[1] - 1 || b[2] > c[2] + 1 || b[3] > c[3] + 1;
          if (outside([0, 0, innerWidth, innerHeight])) bad.push(sel + ' ' + b + ' off the screen');
          for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
            const s = getComputedStyle(a);
            if ((s.overflowX !== 'visible' || s.overflowY !== 'visible') && outside(box(a)))
              bad.push(sel + ' ' + b + ' cut by ' + a.tagName + '.' + a.className + ' ' + box(a));
          }
          return bad;
        }""",
        selector,
    )


def cut_calls(page: Any) -> list[str]:
    """The calls of the auction prompt (``[data-testid=calls]``) whose label is not
    shown whole: a button, a bid value's chip or a span inside either that is narrower
    or shorter than what it holds (which an ellipsis or ``overflow: hidden`` would cut,
    or which spills out of its box), or that reaches outside its button or the screen."""
    return page.evaluate(
        """(() => {
          const form = document.querySelector('[data-testid=calls]');
          if (!form) return ['no calls'];
          const name = e => e.tagName + '.' + [...e.classList].join('.') + ' "' + e.textContent.trim() + '"';
          const bad = [];
          const parts = [...form.querySelectorAll('button, button span, .bid-value span')]
            .filter(e => e.getClientRects().length);
          for (const e of parts) {
            const s = getComputedStyle(e), b = e.getBoundingClientRect();
            if (e.scrollWidth > e.clientWidth + 0.5)
              bad.push(name(e) + ' wide ' + e.scrollWidth + '/' + e.clientWidth + (s.textOverflow === 'ellipsis' ? ' (ellipsis)' : ''));
            if (e.scrollHeight > e.clientHeight + 0.5)
              bad.push(name(e) + ' high ' + e.scrollHeight + '/' + e.clientHeight);
            if (b.left < -1 || b.right > innerWidth + 1) bad.push(name(e) + ' off the screen ' + [b.left, b.right]);
            const box = e.parentElement.closest('button, .bid-value');
            if (box) {
              const o = box.getBoundingClientRect();
              if (b.left < o.left - 1 || b.right > o.right + 1 || b.top < o.top - 1 || b.bottom > o.bottom + 1)
                bad.push(name(e) + ' out of its ' + name(box));
            }
          }
          return bad;
        })()"""
    )
