"""The chat's forms on the room page (htmx): a message posted once per client id, HTML
inert, a refusal next to the field, a reaction in the reader's language, the finished
match's record page, block from a player's page (issue 18 §2, §5; docs/chat.md)."""

from __future__ import annotations

import asyncio

import httpx

from tests.table.test_pages import _started_room, _token

HX = {"HX-Request": "true"}


async def test_the_chat_form_posts_once_escapes_and_refuses_next_to_the_field(
    client: httpx.AsyncClient,
) -> None:
    room_id = await _started_room(client)
    page = await client.get(f"/rooms/{room_id}")
    assert 'data-testid="chat"' in page.text  # the panel, filled by the socket
    token = await _token(client, f"/rooms/{room_id}")
    url = f"/rooms/{room_id}/chat"
    evil = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    data = {"csrf": token, "text": evil, "client_id": "form-1"}
    first = await client.post(url, data=data, headers=HX)
    again = await client.post(url, data=data, headers=HX)
    assert first.status_code == again.status_code == 200
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;" in (
        again.text
    )
    assert "<script>alert" not in again.text and "<img src=x" not in again.text
    assert again.text.count('data-testid="chat-msg"') == 1  # the double tap posted once
    long = await client.post(
        url, data={"csrf": token, "text": "b" * 301, "client_id": "form-2"}, headers=HX
    )
    assert 'data-testid="chat-error"' in long.text
    assert "A message has at most 300 characters." in long.text
    assert 'value="' + "b" * 301 + '"' in long.text  # the draft is kept to be shortened
    # a reaction, read in Catalan
    await client.post(
        url, data={"csrf": token, "reaction": "well_played", "client_id": "form-3"}, headers=HX
    )
    chat = await client.get(f"/api/rooms/{room_id}/chat")
    assert [m["reaction"] for m in chat.json()["messages"]] == [None, "well_played"]
    # without a valid CSRF token: refused, nothing stored
    forged = await client.post(url, data={"csrf": "0" * 32, "text": "forged"}, headers=HX)
    assert forged.status_code == 403
    assert len((await client.get(f"/api/rooms/{room_id}/chat")).json()["messages"]) == 2


async def test_the_record_page_shows_the_finished_matchs_chat(client: httpx.AsyncClient) -> None:
    room_id = await _started_room(client)
    token = await _token(client, f"/rooms/{room_id}")
    await client.post(
        f"/rooms/{room_id}/chat",
        data={"csrf": token, "text": "<b>good</b> game", "client_id": "rec-1"},
        headers=HX,
    )
    game_id = (await client.get(f"/api/rooms/{room_id}/chat")).json()["messages"][0]["game_id"]
    assert game_id is not None  # stored with the match
    record = await client.get(f"/records/{game_id}")
    assert "&lt;b&gt;good&lt;/b&gt; game" not in record.text  # not before the end
    assert (await client.post(f"/rooms/{room_id}/resign", data={"csrf": token})).status_code in (
        200,
        303,
    )
    record = await client.get(f"/records/{game_id}")
    assert 'data-testid="record-chat"' in record.text
    assert "&lt;b&gt;good&lt;/b&gt; game" in record.text and "<b>good</b>" not in record.text


async def test_block_from_the_players_page(client: httpx.AsyncClient) -> None:
    other = (await client.post("/api/session", json={"nickname": "Other"})).json()["user"]["id"]
    client.cookies.clear()
    from tests.table.test_pages import _sign_in

    await _sign_in(client, "Pepa")
    page = await client.get(f"/players/{other}")
    assert 'data-testid="block-toggle"' in page.text and "Block Other" in page.text
    token = await _token(client, f"/players/{other}")
    blocked = await client.post(f"/people/{other}/block", data={"csrf": token, "on": "1"})
    assert blocked.status_code == 303 and blocked.headers["location"] == f"/players/{other}"
    page = await client.get(f"/players/{other}")
    assert 'data-testid="blocked"' in page.text and "Unblock" in page.text
    await client.post(f"/people/{other}/block", data={"csrf": token, "on": "0"})
    assert 'data-testid="blocked"' not in (await client.get(f"/players/{other}")).text


async def test_mute_and_block_twice_from_the_room_answer_the_chat_each_time(
    client: httpx.AsyncClient,
) -> None:
    """A second mute (a double tap, a retry) finds the row there and rolls back: the
    answer, the room's chat again, needs the signed-in user after that rollback (a fresh
    tester got a 500 here, MissingGreenlet, the user expired by the rollback)."""
    other = (await client.post("/api/session", json={"nickname": "Loud"})).json()["user"]["id"]
    client.cookies.clear()
    room_id = await _started_room(client)
    token = await _token(client, f"/rooms/{room_id}")
    for what in ("mute", "block"):
        for _ in range(2):
            answer = await client.post(
                f"/people/{other}/{what}",
                data={"csrf": token, "on": "1", "room": str(room_id)},
                headers=HX,
            )
            assert answer.status_code == 200, answer.text
            assert (
                'data-testid="chat-body"' in answer.text
                and 'data-testid="chat-form"' in answer.text
            )


async def test_the_same_chat_form_sent_four_times_at_once_posts_once(
    client: httpx.AsyncClient,
) -> None:
    """A double-submitted form: one message, and every answer is the chat with it (the
    race's losers meet the unique client id, roll back, and answer with the chat)."""
    room_id = await _started_room(client)
    token = await _token(client, f"/rooms/{room_id}")
    data = {"csrf": token, "text": "hola", "client_id": "race-1"}
    answers = await asyncio.gather(
        *(client.post(f"/rooms/{room_id}/chat", data=data, headers=HX) for _ in range(4))
    )
    assert [a.status_code for a in answers] == [200] * 4, [a.text[-300:] for a in answers]
    assert all(a.text.count('data-testid="chat-msg"') == 1 for a in answers)
    stored = (await client.get(f"/api/rooms/{room_id}/chat")).json()["messages"]
    assert [m["text"] for m in stored] == ["hola"]
