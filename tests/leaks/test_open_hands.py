"""Room option ``spectators_see_hands`` on the page: during deal N a spectator's room
page shows deal N - 1's hands exactly as they were at the start of its play, and no
card hidden in deal N anywhere else (tests/leaks/checker.py, whose page search leaves
the panel of a finished deal's hands out and flags it if it is of the deal in play).
The JSON views are proved in tests/rooms/test_spectators.py and test_server_leaks.py."""

from __future__ import annotations

import asyncio
import re
import time

import httpx

from app import rules
from app.core.settings import Settings
from tests.conftest import Guest
from tests.leaks.checker import Finder, leaks_in_text, timeline
from tests.leaks.test_server_leaks import _actions

OPTIONS = {"target": 3000}
PANEL = re.compile(r'<section\b[^>]*data-previous-deal="(\d+)"[^>]*>(.*?)</section>', re.S)
SEAT_ROW = re.compile(r'<li\b[^>]*data-seat="(\d)"[^>]*>(.*?)</li>', re.S)
CARD = re.compile(r'data-card="([^"]+)"')
SEQ = re.compile(r'data-seq="(\d+)"')


def _hands_at_first_play(actions: list[dict], dealer: int, deal_no: int) -> list[list[str]]:
    """Each seat's cards when the play of deal ``deal_no`` began (the engine's own state)."""
    state = rules.new_game("bolot", OPTIONS, dealer)
    deals = 0
    for action in actions:
        if action["type"] == "deal":
            deals += 1
        if deals == deal_no and action["type"] == "play":
            return [list(h) for h in state.hands]
        state = rules.apply(state, action)
    raise AssertionError(f"deal {deal_no} had no play")


async def _pages_during_deal_2(
    client: httpx.AsyncClient, pepa: dict[str, str], room: int
) -> list[tuple[int, str, str]]:
    """``(seq, spectator page, seat 0's page)`` at the positions of deal 2's auction and
    play where both pages and the view agree, seat 0 playing its first legal action and
    random bots the others (so at least seat 0's turns are caught)."""
    cookie = {"Cookie": f"tapet_session={pepa['Authorization'].removeprefix('Bearer ')}"}
    pages: list[tuple[int, str, str]] = []
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, f"only {len(pages)} positions of deal 2 seen"
        view = (await client.get(f"/api/rooms/{room}/view", headers=pepa)).json()
        deal_no = (view.get("commitment") or {}).get("deal_no")
        if deal_no is not None and deal_no > 2:
            return pages
        if deal_no == 2 and view["phase"] in ("auction", "play"):
            spectator = (await client.get(f"/rooms/{room}")).text
            seated = (await client.get(f"/rooms/{room}", headers=cookie)).text
            seqs = {int(SEQ.search(p).group(1)) for p in (spectator, seated)}  # type: ignore[union-attr]
            if seqs == {view["seq"]} and all(seq != view["seq"] for seq, _s, _p in pages):
                pages.append((view["seq"], spectator, seated))
        if view["to_act"] == 0 and view["legal_actions"]:
            await client.post(
                f"/api/rooms/{room}/moves",
                json={"seq": view["seq"], "action": view["legal_actions"][0]},
                headers=pepa,
            )
        else:
            await asyncio.sleep(0.01)


async def test_during_deal_2_a_spectator_sees_deal_1_s_hands_and_nothing_of_deal_2(
    client: httpx.AsyncClient, guest: Guest, settings: Settings
) -> None:
    pepa = await guest("Pepa")
    made = await client.post(
        "/api/rooms",
        json={"game": "bolot", "options": OPTIONS, "spectators_see_hands": True},
        headers=pepa,
    )
    room = made.json()["id"]
    assert (
        await client.put(f"/api/rooms/{room}/seats/0", json={}, headers=pepa)
    ).status_code == 200
    for seat in (1, 2, 3):
        await client.put(f"/api/rooms/{room}/seats/{seat}", json={"bot": "random"}, headers=pepa)
    assert (await client.post(f"/api/rooms/{room}/start", headers=pepa)).status_code == 200
    pages = await _pages_during_deal_2(client, pepa, room)
    assert len(pages) >= 6  # seat 0 acts at least once in the auction and 8 times in the play

    gid = (await client.get(f"/api/rooms/{room}/record")).json()["game_id"]
    record = (await client.get(f"/api/games/{gid}/record")).json()
    actions = await _actions(settings, gid)
    moments = timeline("bolot", record["options"], record["dealer"], actions)
    deal_1 = _hands_at_first_play(actions, record["dealer"], 1)
    finder = Finder("bolot")
    # After deal 2's last card and before the next deal's cards are dealt, the page is
    # of deal 2 with nothing hidden (every card is on the table); a fast machine rarely
    # catches that position, a slow one may. It proves nothing here, so it is left out.
    pages = [page for page in pages if moments[page[0]].hidden[None]]
    assert len(pages) >= 6
    for seq, spectator, seated in pages:
        moment = moments[seq]
        assert moment.deal_no == 2, (seq, moment)
        # nothing of deal 2's hidden hands outside the panel of deal 1's hands
        assert leaks_in_text(finder, spectator, moment, None) == [], seq
        panels = PANEL.findall(spectator)
        assert len(panels) == 1 and panels[0][0] == "1", seq
        shown = {int(s): sorted(CARD.findall(row)) for s, row in SEAT_ROW.findall(panels[0][1])}
        assert shown == {s: sorted(h) for s, h in enumerate(deal_1)}, (
            seq
        )  # deal 1's hands, seat by seat
        assert 'data-testid="open-hands"' not in seated  # a seated player is shown no one's hands
