"""The leak proof, server side: real deals through the real server (uvicorn in process),
with every WebSocket frame and every response recorded, then searched for the cards the
engine says each viewer may not see at that seq (tests/leaks/checker.py).

Viewers: a spectator without a session, every seat, and seat 0's second tab. Recorded:
the API socket of all of them and the page socket of the spectator, seat 0 (two tabs)
and seat 1; at every position of the table each viewer's ``GET .../view``; every fourth
position each viewer's room page, the move log, the record, the check and the replay of
the deal in play (both JSON and pages), the record page; the answers to the moves
(JSON from the API, HTML fragments from the page form, alternately) and to refused
moves (a seat out of turn, a card the mover does not hold). Each game plays one whole
deal and the first moves of the next (so the reveal of a finished deal is covered);
the volume (200 deals per game) is in test_engine_leaks.py.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import secrets
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import select

from app import bots, rules
from app.core.db import make_engine, make_sessionmaker
from app.core.settings import Settings
from app.rooms.models import Move
from tests.leaks.checker import Finder, Moment, leaks_in_text, leaks_in_view, timeline

pytestmark = pytest.mark.slow  # the full suite only (.ci/run; pytest -m '')

GAMES = {
    "bolot": ({"target": 3000}, 1),
    "belote": ({"target": 3000}, 1),
    "belote-2p": ({"target": 3000, "allow_claim": False}, 1),  # a claim ends the match
    "belote-3p": ({"target": 3000}, 1),
    "bridge-belote": ({"target": 401}, 1),
    "botifarra": ({"target": 151}, 1),
    "contree": ({"target": 3000}, 1),
}
EXTRA_MOVES = 6  # moves into the deal after the last whole one
PAGE_EVERY = 4
SEQ_ATTR = re.compile(r'data-seq="(\d+)"')
#: A page-socket push of the chat alone: its log or its panel's body, nothing of the table.
CHAT_ONLY = re.compile(r'\s*<(ol|div) id="chat-(log|body)"')
SECRETS = (re.compile(r'name="csrf" value="[^"]*"'), re.compile(r'"X-CSRF-Token": "[^"]*"'))
PUBLIC_CHECK_KEYS = {
    "id",
    "game_id",
    "room_id",
    "game",
    "deal_no",
    "dealer",
    "sha256",
    "finished",
    "formula",
}


@dataclass
class Seen:
    """Everything sent to the viewers: ``(viewer, kind, seq, payload)``; ``seq`` is the
    table's position the payload shows (None: read from the payload itself)."""

    items: list[tuple[int | None, str, int | None, Any]] = field(default_factory=list)

    def add(self, viewer: int | None, kind: str, seq: int | None, payload: Any) -> None:
        self.items.append((viewer, kind, seq, payload))


def _html_seq(text: str) -> int | None:
    match = SEQ_ATTR.search(text)
    return int(match.group(1)) if match else None


def _clean(text: str) -> str:
    for pattern in SECRETS:
        text = pattern.sub("", text)
    return text


async def _record_socket(ws: Any, viewer: int | None, kind: str, seen: Seen) -> None:
    try:
        async for message in ws:
            seen.add(viewer, kind, None, message)
    except websockets.ConnectionClosed:
        pass


async def new_guest(http: httpx.AsyncClient, nickname: str) -> str:
    """A guest's bearer token from ``POST /api/session``. A 503 ("the server is busy; try
    again", app/main.py) is asked again after its Retry-After, as a client does; any
    other refusal fails the test with the server's answer."""
    for _ in range(5):
        answer = await http.post("/api/session", json={"nickname": nickname})
        if answer.status_code != 503:
            break
        await asyncio.sleep(float(answer.headers.get("Retry-After", "1")))
    assert answer.status_code == 200, f"{answer.status_code}: {answer.text}"
    return answer.json()["token"]


async def open_sockets(base: str, rid: int, tokens: list[str], seen: Seen) -> tuple[list, list]:
    """The recorded sockets of room ``rid``: the API socket of a spectator, of every seat
    (``tokens`` in seat order) and of seat 0's second tab; the page socket of a spectator,
    of seat 0 in two tabs and of seat 1. Returns (sockets, their recording tasks)."""
    ws_base = base.replace("http://", "ws://")
    api = f"{ws_base}/api/rooms/{rid}/ws"
    page = f"{ws_base}/rooms/{rid}/ws"
    second_tab = {"Authorization": f"Bearer {tokens[0]}"}
    sockets = [(await websockets.connect(api, max_size=None), None, "api-ws")]
    sockets += [
        (await websockets.connect(f"{api}?token={t}", max_size=None), s, "api-ws")
        for s, t in enumerate(tokens)
    ]
    sockets.append(
        (await websockets.connect(api, additional_headers=second_tab, max_size=None), 0, "api-ws")
    )
    sockets.append((await websockets.connect(page, max_size=None), None, "page-ws"))
    for s in (0, 0, 1):
        header = {"Cookie": f"tapet_session={tokens[s]}"}
        sockets.append(
            (await websockets.connect(page, additional_headers=header, max_size=None), s, "page-ws")
        )
    return sockets, [asyncio.create_task(_record_socket(ws, v, k, seen)) for ws, v, k in sockets]


async def _play(
    base: str, game: str, options: dict, whole_deals: int, seen: Seen
) -> tuple[int, int]:
    """Play the deals, recording everything; returns (room id, game id)."""
    rng = random.Random(f"tapet-server-leaks-{game}")
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        tokens = []
        players = rules.GAMES[game].players
        for n in range(players):
            tokens.append(await new_guest(http, f"P{n} {secrets.token_hex(3)}"))
            http.cookies.clear()
        auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
        cookie = [{"Cookie": f"tapet_session={t}"} for t in tokens]
        # spectators_see_hands on: the spectators' views carry the hands one deal late too
        room = (
            await http.post(
                "/api/rooms",
                json={"game": game, "options": options, "spectators_see_hands": True},
                headers=auth[0],
            )
        ).json()
        rid = room["id"]
        for seat in range(players):
            assert (
                await http.put(f"/api/rooms/{rid}/seats/{seat}", json={}, headers=auth[seat])
            ).status_code == 200
        assert (await http.post(f"/api/rooms/{rid}/start", headers=auth[0])).status_code == 200
        gid = (await http.get(f"/api/rooms/{rid}/record")).json()["game_id"]

        sockets, tasks = await open_sockets(base, rid, tokens, seen)

        viewers: list[int | None] = [None, *range(players)]

        async def view(v: int | None) -> dict:
            return (
                await http.get(f"/api/rooms/{rid}/view", headers=auth[v] if v is not None else {})
            ).json()

        async def settled() -> dict:
            for _ in range(2000):
                public = await view(None)
                if public["phase"] == "over":
                    # A Botifarra deal with doublings can pass the greatest target (151)
                    # by itself: the match's end reveals the finished deal just the same.
                    assert len(public["sheet"]) >= whole_deals, "the match ended early"
                    return public
                if public["to_act"] is not None:
                    mine = await view(public["to_act"])
                    if mine["legal_actions"] != [{"type": "declare", "combinations": []}]:
                        return public
                await asyncio.sleep(0.01)
            raise AssertionError("the table never settled")

        step = 0
        remaining = None
        while remaining is None or remaining > 0:
            public = await settled()
            seq = public["seq"]
            over = public["phase"] == "over"
            if remaining is None and len(public["sheet"]) >= whole_deals:
                remaining = EXTRA_MOVES
            for v in viewers:
                seen.add(v, "view", None, await view(v))
            if step % PAGE_EVERY == 0 or over:
                batch: list[tuple[int | None, str, Any]] = []
                for v in viewers:
                    batch.append(
                        (
                            v,
                            "page",
                            (
                                await http.get(
                                    f"/rooms/{rid}", headers=cookie[v] if v is not None else {}
                                )
                            ).text,
                        )
                    )
                deal_id = f"{gid}-{public['commitment']['deal_no']}"
                batch.append((None, "moves", (await http.get(f"/api/rooms/{rid}/moves")).json()))
                batch.append((None, "record", (await http.get(f"/api/games/{gid}/record")).json()))
                batch.append(
                    (None, "check", (await http.get(f"/api/deals/{deal_id}/verify")).json())
                )
                for url in (
                    f"/deals/{deal_id}/verify",
                    f"/rooms/{rid}/replay?deal={public['commitment']['deal_no']}",
                    f"/rooms/{rid}/replay",
                    f"/records/{gid}",
                ):
                    batch.append((None, "html", (await http.get(url)).text))
                if (await view(None))[
                    "seq"
                ] == seq:  # nothing moved meanwhile: the batch shows ``seq``
                    for v, kind, payload in batch:
                        seen.add(v, kind, seq, payload)
            if over:
                break
            actor = public["to_act"]
            mine = await view(actor)
            # Refused moves: out of turn, and a card the mover does not hold.
            other = next(s for s in range(players) if s != actor)
            refused = await http.post(
                f"/api/rooms/{rid}/moves",
                json={"seq": seq, "action": {"type": "pass"}},
                headers=auth[other],
            )
            seen.add(other, "error", seq, (refused.text, ""))
            if mine["hand"]:
                named = rng.choice(sorted(set(finder_deck(game)) - set(mine["hand"])))
                refused = await http.post(
                    f"/api/rooms/{rid}/moves",
                    json={"seq": seq, "action": {"type": "play", "card": named}},
                    headers=auth[actor],
                )
                assert refused.status_code in (403, 422), refused.text
                seen.add(
                    actor, "error", seq, (refused.text, named)
                )  # the card it named may come back
            # A seat owing its declaration is offered its declarations and its cards (a card
            # = "no declarations"); the bots choose among the declarations, as in the engine.
            declares = [a for a in mine["legal_actions"] if a["type"] == "declare"]
            bot_view = dict(mine, legal_actions=declares) if declares else mine
            action = bots.choose("heuristic" if actor % 2 == 0 else "random", bot_view, rng)
            if step % 2 == 0:
                answer = await http.post(
                    f"/api/rooms/{rid}/moves",
                    json={"seq": seq, "action": action},
                    headers=auth[actor],
                )
                assert answer.status_code == 200, answer.text
                seen.add(actor, "view", None, answer.json())
            else:
                html = (await http.get(f"/rooms/{rid}", headers=cookie[actor])).text
                token = re.search(r'name="csrf" value="([^"]*)"', html).group(1)
                answer = await http.post(
                    f"/rooms/{rid}/moves",
                    data={"csrf": token, "seq": str(seq), "action": json.dumps(action)},
                    headers={"HX-Request": "true", **cookie[actor]},
                )
                assert answer.status_code == 200, answer.text
                seen.add(actor, "html", None, answer.text)
            step += 1
            if remaining is not None:
                remaining -= 1
        final = (await view(None))["seq"]
        for _ in range(300):  # let every socket receive the last push
            last = {}
            for v, kind, _s, payload in seen.items:
                if kind in ("api-ws", "page-ws"):
                    last[(v, kind)] = max(last.get((v, kind), -1), _frame_seq(kind, payload) or -1)
            if len(last) >= 3 and all(s >= final for s in last.values()):
                break
            await asyncio.sleep(0.02)
        for ws, _v, _k in sockets:
            await ws.close()
        await asyncio.gather(*tasks)
    return rid, gid


def finder_deck(game: str) -> list[str]:
    """The game's cards."""
    return rules.GAMES[game].deck


def _frame_seq(kind: str, payload: Any) -> int | None:
    if kind == "api-ws":
        return json.loads(payload).get("seq")
    return _html_seq(payload)


async def _actions(settings: Settings, gid: int) -> list[dict]:
    engine = make_engine(settings.db_url())
    try:
        async with make_sessionmaker(engine)() as db:
            moves = (
                await db.scalars(select(Move).where(Move.game_id == gid).order_by(Move.seq))
            ).all()
            return [m.action for m in moves]
    finally:
        await engine.dispose()


def _check(game: str, moments: list[Moment], record_options: dict, seen: Seen) -> list[str]:
    finder = Finder(game)
    problems: list[str] = []
    counted = {"hidden": 0}
    for viewer, kind, seq, payload in seen.items:
        if kind in ("api-ws", "view"):
            data = json.loads(payload) if isinstance(payload, str) else payload
            seq = data["seq"]
        elif kind in ("page-ws", "html", "page") and seq is None:
            seq = _html_seq(payload)
        if seq is None:
            if kind in ("html",) and "data-seq" not in payload:
                continue  # an answer without a table (cannot happen for a move: checked below)
            if kind == "page-ws" and CHAT_ONLY.match(payload) and "data-seq" not in payload:
                continue  # the chat's own push (app/chat/delivery.py): people's words, no table

            problems.append(f"{kind} for {viewer}: no seq")
            continue
        moment = moments[seq]
        counted["hidden"] += len(moment.hidden.get(viewer, ()))
        where = f"{kind} for viewer {viewer} at seq {seq} (deal {moment.deal_no}, {moment.phase})"
        if kind in ("api-ws", "view"):
            found = leaks_in_view(finder, data, moment, viewer)
        elif kind in ("page-ws", "html", "page"):
            found = leaks_in_text(finder, _clean(payload), moment, viewer)
        elif kind == "error":
            text, named = payload
            found = [c for c in leaks_in_text(finder, text, moment, viewer) if c != named]
        elif kind == "moves":
            current = [
                m for m in payload if moment.deal_seq is not None and m["seq"] >= moment.deal_seq
            ]
            found = leaks_in_text(finder, json.dumps(current, ensure_ascii=False), moment, viewer)
            if moment.phase not in ("deal", "over") and current and "deck" in current[0]["action"]:
                found.append("the deck of the deal in play")
        elif kind == "record":
            found = []
            if moment.phase not in ("deal", "over"):
                if any(d["deal_no"] >= moment.deal_no for d in payload["deals"]):
                    found.append("the deal in play is in the record")
                if len(payload["actions"]) > (moment.deal_seq or 0):
                    found.append("actions of the deal in play are in the record")
                if set(payload["in_progress"]) != {"deal_no", "id", "sha256"}:
                    found.append(f"in_progress shows {sorted(payload['in_progress'])}")
        elif kind == "check":
            found = (
                []
                if moment.phase in ("deal", "over") or set(payload) == PUBLIC_CHECK_KEYS
                else [f"check shows {sorted(payload)}"]
            )
        else:
            found = [f"unknown kind {kind}"]
        if found:
            problems.append(f"{where}: {found}")
    assert counted["hidden"] > 0
    return problems


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_nothing_sent_to_anyone_shows_a_hidden_card(
    live_server: str, settings: Settings, game: str
) -> None:
    options, whole = GAMES[game]
    seen = Seen()
    _rid, gid = await _play(live_server, game, options, whole, seen)
    async with httpx.AsyncClient(base_url=live_server) as http:
        record = (await http.get(f"/api/games/{gid}/record")).json()
    actions = await _actions(settings, gid)
    moments = timeline(game, record["options"], record["dealer"], actions)
    kinds = {kind for _v, kind, _s, _p in seen.items}
    assert {
        "api-ws",
        "page-ws",
        "view",
        "page",
        "html",
        "moves",
        "record",
        "check",
        "error",
    } <= kinds
    # The moves after the whole deal(s) may pass a deal out (belote-3p: six passes void the
    # deal, rules/belote-3p.md §4; EXTRA_MOVES is six): such a deal is its deal action (the
    # record keeps it, to replay the deck) and passes only.
    played, thrown_in = record["deals"][:whole], record["deals"][whole:]
    assert len(played) == whole and record["in_progress"] is not None
    for deal in thrown_in:
        kinds = [entry["action"]["type"] for entry in deal["actions"]]
        assert kinds[0] == "deal" and set(kinds[1:]) == {"pass"}, (deal["deal_no"], kinds)
    problems = _check(game, moments, record["options"], seen)
    assert not problems, f"{len(problems)} leaks, first: " + "\n".join(problems[:10])
