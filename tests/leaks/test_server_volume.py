"""The leak proof at volume, server side: 200 deals of every game played by bots through
the real server, with every WebSocket frame recorded, then searched for the cards the
engine says each viewer may not see at that seq (tests/leaks/checker.py).

The players sit, start, then leave: a stand-in bot plays each seat (at full speed in
tests) while the seat stays theirs, so their sockets keep receiving that seat's view.
Recorded: the API socket of a spectator, of every seat and of seat 0's second tab; the
page socket (the table's HTML) of a spectator, of seat 0 in two tabs and of seat 1.
Rooms have ``spectators_see_hands`` on, so the one-deal-late hands are checked too.
A match that ends before the count is reached is followed by another room. The pages,
move log, records and refused moves of each position are in test_server_leaks.py.

``TAPET_LEAK_DEALS`` sets the number of deals per game (default 200; .ci/run lowers it
to 25 on SQLite and 15 on PostgreSQL, to stay within CI's time on a slow machine).
"""

from __future__ import annotations

import asyncio
import os
import secrets
import time
import zlib

import httpx
import pytest

from app import rules
from app.core.settings import Settings
from tests.leaks.checker import timeline
from tests.leaks.test_server_leaks import Seen as AllSeen
from tests.leaks.test_server_leaks import _actions, _check, _frame_seq, new_guest, open_sockets

pytestmark = pytest.mark.slow  # the full suite only (.ci/run; pytest -m '')


class Seen(AllSeen):
    """What the sockets sent, each payload compressed; ``speakers`` keeps which (viewer,
    socket kind) pairs sent something, and ``last`` each one's highest seq."""

    def __init__(self) -> None:
        super().__init__([])
        self.speakers: set = set()
        self.last: dict = {}

    def add(self, viewer, kind, seq, payload) -> None:  # type: ignore[override]
        # kept compressed (the HTML of 200 deals would take gigabytes), checked at the end
        super().add(
            viewer,
            kind,
            seq,
            zlib.compress(payload.encode() if isinstance(payload, str) else payload, 1),
        )
        self.speakers.add((viewer, kind))
        shown = _frame_seq(kind, payload)
        if shown is not None:
            self.last[(viewer, kind)] = max(self.last.get((viewer, kind), -1), shown)


DEALS = int(os.environ.get("TAPET_LEAK_DEALS", "200"))
CHUNK = 5000  #: frames decompressed and checked at a time
#: Long matches, so that few rooms are needed (Botifarra's longest is 151).
OPTIONS = {
    "bolot": {"target": 100000},
    "belote": {"target": 100000},
    "belote-2p": {"target": 100000, "allow_claim": False},
    "belote-3p": {"target": 100000},
    "bridge-belote": {"target": 100000},
    "botifarra": {"target": 151},
    "contree": {"target": 100000},
}


async def _one_room(
    base: str, settings: Settings, game: str, want: int, seen: Seen
) -> tuple[int, int, int]:
    """Play one room until ``want`` deals are finished or its match ends; returns
    (game id, finished deals, frames checked). Every frame goes into ``seen``, compressed,
    and is checked once the room stops."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        players = rules.GAMES[game].players
        tokens = []
        for n in range(players):
            tokens.append(await new_guest(http, f"V{n} {secrets.token_hex(3)}"))
            http.cookies.clear()
        auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
        room = (
            await http.post(
                "/api/rooms",
                json={"game": game, "options": OPTIONS[game], "spectators_see_hands": True},
                headers=auth[0],
            )
        ).json()
        rid = room["id"]
        for seat in range(players):
            assert (
                await http.put(f"/api/rooms/{rid}/seats/{seat}", json={}, headers=auth[seat])
            ).status_code == 200
        # started first (people to act: nothing moves yet), so every frame shows a table
        assert (await http.post(f"/api/rooms/{rid}/start", headers=auth[0])).status_code == 200
        sockets, tasks = await open_sockets(base, rid, tokens, seen)
        gid = (await http.get(f"/api/rooms/{rid}/record")).json()["game_id"]
        for seat in range(players):  # the stand-in bots play; the seats stay the players'
            left = await http.delete(f"/api/rooms/{rid}/seats/{seat}", headers=auth[seat])
            assert left.status_code == 200, left.text
        deadline = time.monotonic() + 1200
        while True:
            public = (await http.get(f"/api/rooms/{rid}/view")).json()
            done = len(public["sheet"])
            if done >= want or public["phase"] == "over":
                break
            assert time.monotonic() < deadline, f"{game}: {done} deals in 20 minutes"
            await asyncio.sleep(0.5)
        # the seats come back, which stops the bots: every socket then gets the last push
        for seat in range(players):
            await http.put(f"/api/rooms/{rid}/seats/{seat}", json={}, headers=auth[seat])
        final = (await http.get(f"/api/rooms/{rid}/view")).json()["seq"]
        for _ in range(300):
            if all(s >= final for s in seen.last.values()):
                break
            await asyncio.sleep(0.02)
        for ws, _v, _k in sockets:
            await ws.close()
        await asyncio.gather(*tasks)
        return gid, min(done, want), await _check_all(http, settings, game, gid, seen)


async def _check_all(
    http: httpx.AsyncClient, settings: Settings, game: str, gid: int, seen: Seen
) -> int:
    """Check every recorded frame against the game's timeline (built once), a chunk at a
    time (decompressed, checked, dropped); returns how many. Every frame's move is stored
    before it is sent, so the actions read now cover every seq the frames show."""
    record = (await http.get(f"/api/games/{gid}/record")).json()
    moments = timeline(game, record["options"], record["dealer"], await _actions(settings, gid))
    items, seen.items = seen.items, []
    assert {kind for _v, kind, _s, _p in items} <= {"api-ws", "page-ws"}
    for start in range(0, len(items), CHUNK):
        batch = AllSeen(
            [(v, k, q, zlib.decompress(p).decode()) for v, k, q, p in items[start : start + CHUNK]]
        )
        problems = _check(game, moments, record["options"], batch)
        assert not problems, f"{len(problems)} leaks, first: " + "\n".join(problems[:10])
    return len(items)


@pytest.mark.parametrize("game", sorted(OPTIONS))
async def test_200_deals_of_bots_send_nobody_a_hidden_card(
    live_server: str, settings: Settings, game: str
) -> None:
    played = 0
    frames = 0
    while played < DEALS:
        seen = Seen()
        gid, done, checked = await _one_room(live_server, settings, game, DEALS - played, seen)
        played += done
        frames += checked
        # every socket spoke: API (spectator, each seat), page (spectator, seats 0 and 1)
        assert len(seen.speakers) == rules.GAMES[game].players + 4, seen.speakers
    assert played >= DEALS and frames > DEALS * 10
