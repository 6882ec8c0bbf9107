"""The chat on the room sockets (issue 18 §2, §5; docs/chat.md): every message each socket
receives during a match is recorded, and checked against who may read what: a player
never receives the spectators' chat before the match ends, a blocked person's messages
never reach the blocker, HTML sent in a message is inert on the page and in the JSON."""

from __future__ import annotations

import asyncio
import contextlib
import json

import httpx
import websockets

from tests.tables import live_table

SCRIPT = "<script>alert(1)</script><b onclick=x()>bold</b>"


async def _record(ws: websockets.ClientConnection, into: list[str]) -> None:
    with contextlib.suppress(websockets.exceptions.ConnectionClosed):
        async for message in ws:
            into.append(str(message))


async def _until(got: list[str], needle: str, timeout: float = 10) -> None:
    async with asyncio.timeout(timeout):
        while not any(needle in m for m in got):
            await asyncio.sleep(0.05)


def _chat_texts(messages: list[str]) -> list[str]:
    """Every text of every ``chat`` message an API socket received."""
    texts = []
    for raw in messages:
        data = json.loads(raw)
        if data.get("type") == "chat":
            texts += [m["text"] or m["reaction"] for m in data["messages"]]
    return texts


async def test_each_socket_receives_only_its_audiences_chat(
    live_server: str, fixed_first_deal: list[str]
) -> None:
    ws_base = live_server.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=live_server) as http:
        room_id, tokens, _dealer = await live_table(http)
        auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
        watcher = (await http.post("/api/session", json={"nickname": "Watcher"})).json()["token"]
        http.cookies.clear()
        wauth = {"Authorization": f"Bearer {watcher}"}
        me = [(await http.get("/api/me", headers=h)).json()["id"] for h in auth]
        # Carme (seat 2) blocks Berto (seat 1)
        assert (await http.put(f"/api/people/{me[1]}/block", headers=auth[2])).status_code == 200

        api = f"{ws_base}/api/rooms/{room_id}/ws"
        page = f"{ws_base}/rooms/{room_id}/ws"
        got: dict[str, list[str]] = {}
        sockets = {
            **{f"api{n}": f"{api}?chat=1&token={tokens[n]}" for n in range(4)},
            "page0": f"{page}?token={tokens[0]}",
            "page2": f"{page}?token={tokens[2]}",
            "api_watch": f"{api}?chat=1&token={watcher}",
            "page_watch": f"{page}?token={watcher}",
            "api_anon": f"{api}?chat=1",
            "api_old": f"{api}?token={tokens[0]}",  # a client that did not opt in
        }
        async with contextlib.AsyncExitStack() as stack:
            tasks = []
            for name, url in sockets.items():
                ws = await stack.enter_async_context(websockets.connect(url))
                got[name] = []
                tasks.append(asyncio.create_task(_record(ws, got[name])))
            for name in sockets:
                if name != "api_old":
                    await _until(got[name], "chat")  # every socket has its first chat push

            async def say(h: dict[str, str], text: str) -> None:
                r = await http.post(f"/api/rooms/{room_id}/chat", json={"text": text}, headers=h)
                assert r.status_code == 201, r.text

            await say(auth[0], "hello table")
            await say(auth[1], "berto speaks")
            await say(wauth, "secret: seat 3 holds the bastos")
            await say(wauth, SCRIPT)
            await say(auth[3], "last of the match")
            for name in ("api0", "api2", "api_watch", "api_anon"):
                await _until(got[name], "last of the match")
            await _until(got["page0"], "last of the match")
            await _until(got["page_watch"], "last of the match")
            await asyncio.sleep(0.3)  # anything late would arrive now
            mark = {name: len(msgs) for name, msgs in got.items()}  # all during the match
            # the match ends: now the players receive the spectators' chat too
            assert (await http.post(f"/api/rooms/{room_id}/resign", headers=auth[1])).is_success
            await _until(got["api0"], "secret: seat 3")
            await _until(got["page0"], "secret: seat 3")
            await asyncio.sleep(0.3)
            for task in tasks:
                task.cancel()

        # players: during the match, no spectator's text in any message of their sockets
        for name in ("api0", "api1", "api2", "api3", "page0", "page2"):
            during = got[name][: mark[name]]
            assert any("hello table" in m for m in during), name
            assert not any("holds the bastos" in m or "alert(1)" in m for m in during), name
        # a client that did not ask for the chat gets views only, as before
        assert got["api_old"] and all(json.loads(m)["type"] == "view" for m in got["api_old"])
        # the spectators' sockets got everything, in order
        watch = _chat_texts(got["api_watch"])
        assert "secret: seat 3 holds the bastos" in watch and SCRIPT in watch
        # a blocked person's messages never reach the blocker (Carme, seat 2), on any socket
        assert not any("berto speaks" in m for m in got["api2"] + got["page2"])
        assert any("berto speaks" in m for m in got["api0"])  # the others do get them
        # the JSON carries the text as a JSON string (the client escapes); the page's HTML
        # carries it escaped, never as markup
        page_text = "".join(got["page_watch"])
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page_text
        assert "<script>alert" not in page_text and "<b onclick" not in page_text
