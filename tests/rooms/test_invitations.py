"""Invitations and private rooms through the JSON API (app/rooms/invites.py,
docs/invitations.md): the code, offered seats (raced 20 at once), a bot's seat taken over
mid-match, and every endpoint of a private room refusing whoever has not its code."""

from __future__ import annotations

import asyncio
import re

import httpx
import pytest
import websockets

from app.core.settings import Settings
from app.rooms.invites import normalize_code, spoken
from tests.conftest import Guest, limited_app


async def _room(client: httpx.AsyncClient, host: dict[str, str], **extra: object) -> int:
    made = await client.post("/api/rooms", json={"game": "bolot", **extra}, headers=host)
    assert made.status_code == 201, made.text
    room_id: int = made.json()["id"]
    sat = await client.put(f"/api/rooms/{room_id}/seats/0", json={}, headers=host)
    assert sat.status_code == 200, sat.text
    return room_id


async def _code(client: httpx.AsyncClient, room_id: int, host: dict[str, str]) -> str:
    shown = await client.get(f"/api/rooms/{room_id}/invitation", headers=host)
    assert shown.status_code == 200, shown.text
    code: str = shown.json()["code"]
    return code


async def _started(client: httpx.AsyncClient, room_id: int, host: dict[str, str]) -> None:
    for seat in (1, 2, 3):
        bot = await client.put(
            f"/api/rooms/{room_id}/seats/{seat}", json={"bot": "random"}, headers=host
        )
        assert bot.status_code == 200, bot.text
    started = await client.post(f"/api/rooms/{room_id}/start", headers=host)
    assert started.status_code == 200, started.text


def test_a_code_is_read_in_any_case_with_dashes_spaces_or_as_a_link() -> None:
    assert normalize_code("abc-def") == "ABCDEF"
    assert normalize_code("  aBc dEf ") == "ABCDEF"
    assert normalize_code("https://tapet.example/join/abc-def") == "ABCDEF"
    assert normalize_code("ABC.DEF") == "ABCDEF"
    # 0, O, 1, I and L are not in the alphabet (look-alikes); the length is 6
    assert normalize_code("ABCDE0") is None
    assert normalize_code("ABCDEI") is None
    assert normalize_code("ABCDEFG") is None
    assert normalize_code("") is None
    assert spoken("ABCDEF") == "ABC-DEF"


async def test_the_owner_and_the_players_see_the_code_and_a_stranger_not(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    host, stranger = await guest("Host"), await guest("Stranger")
    room_id = await _room(client, host)
    code = await _code(client, room_id, host)
    assert normalize_code(code) == code  # 6 characters of the alphabet
    again = await client.get(f"/api/rooms/{room_id}/invitation", headers=host)
    assert again.json()["code"] == code  # given once, then kept
    assert again.json()["link"] == f"/join/{code}"
    assert again.json()["offerable"] == [1, 2, 3]  # seat 0 is the host's
    refused = await client.get(f"/api/rooms/{room_id}/invitation", headers=stranger)
    assert refused.status_code == 403
    found = await client.get(f"/api/invitations/{code[:3].lower()}-{code[3:].lower()}")
    assert found.status_code == 200 and found.json()["id"] == room_id
    assert (await client.get("/api/invitations/ZZZ-ZZ2")).status_code in (404,)


async def test_a_private_room_is_not_listed_and_a_public_one_is(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    host = await guest("Host")
    public = await _room(client, host)
    private = await _room(client, host, private=True)
    listed = [r["id"] for r in (await client.get("/api/rooms")).json()]
    assert listed == [public]
    assert [r["id"] for r in (await client.get("/api/rooms?game=bolot")).json()] == [public]
    page = await client.get("/rooms/list")
    assert f'href="/rooms/{public}"' in page.text
    assert f'href="/rooms/{private}"' not in page.text
    info = (await client.get(f"/api/rooms/{private}", headers=host)).json()
    assert info["private"] is True and info["spectators_open"] is False


async def test_every_endpoint_of_a_private_room_refuses_a_stranger_and_answers_its_code(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    host, stranger = await guest("Host"), await guest("Stranger")
    room_id = await _room(client, host, private=True)
    code = await _code(client, room_id, host)
    # before the start: a stranger may not even sit down without the code
    sit = await client.put(f"/api/rooms/{room_id}/seats/1", json={}, headers=stranger)
    assert sit.status_code == 403 and "private" in sit.json()["detail"]
    await _started(client, room_id, host)
    record = await client.get(f"/api/rooms/{room_id}/record", headers=host)
    assert record.status_code == 200, record.text
    game_id = record.json()["game_id"]
    urls = [
        f"/api/rooms/{room_id}",
        f"/api/rooms/{room_id}/view",
        f"/api/rooms/{room_id}/moves",
        f"/api/rooms/{room_id}/record",
        f"/api/games/{game_id}/record",
        f"/api/deals/{game_id}-1/verify",
        f"/api/rooms/{room_id}/chat",
        f"/rooms/{room_id}",
        f"/rooms/{room_id}/replay",
        f"/records/{game_id}",
        f"/deals/{game_id}-1/verify",
    ]
    for url in urls:
        client.cookies.clear()  # the page with ?code= remembers it (a cookie): each URL alone
        for who in (stranger, {}):  # a signed-in stranger, and nobody
            refused = await client.get(url, headers=who)
            assert refused.status_code == 403, (url, refused.status_code)
        wrong = await client.get(url, params={"code": "ABC-DEF"}, headers=stranger)
        assert wrong.status_code == 403, url
        shown = await client.get(url, params={"code": code.lower()}, headers=stranger)
        assert shown.status_code == 200, (url, shown.text[:200])
        header = await client.get(url, headers={**stranger, "X-Tapet-Code": code})
        assert header.status_code == 200, url
        mine = await client.get(url, headers=host)  # the owner (seated) needs no code
        assert mine.status_code == 200, url
    # the refused view carries nothing of the table
    refused = await client.get(f"/api/rooms/{room_id}/view", headers=stranger)
    assert set(refused.json()) == {"detail"}


async def test_a_private_rooms_chat_takes_no_message_from_a_stranger(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    """The chat's writes of a private room, as its reads: a stranger without the code
    may not post (API and page), report its messages or have a form render its chat
    (a fresh tester read and wrote a private table's chat by its number)."""
    host, stranger = await guest("Host"), await guest("Stranger")
    room_id = await _room(client, host, private=True)
    code = await _code(client, room_id, host)
    await _started(client, room_id, host)
    said = await client.post(
        f"/api/rooms/{room_id}/chat", json={"text": "secret plan"}, headers=host
    )
    assert said.status_code == 201, said.text
    message_id = said.json()["id"]
    post = await client.post(f"/api/rooms/{room_id}/chat", json={"text": "hi"}, headers=stranger)
    assert post.status_code == 403 and "private" in post.json()["detail"]
    report = await client.post(f"/api/chat/messages/{message_id}/report", json={}, headers=stranger)
    assert report.status_code == 403
    host_id = (await client.get("/api/me", headers=host)).json()["id"]
    # the pages: the stranger's own csrf token (from a page it may open), its own cookie
    client.cookies.set("tapet_session", stranger["Authorization"].split()[1])
    page = await client.get("/")
    token = re.search(r'name="csrf" value="([0-9a-f]+)"', page.text)
    assert token
    htmx = {"HX-Request": "true", "X-CSRF-Token": token.group(1)}
    for url, form in (
        (f"/rooms/{room_id}/chat", {"text": "hi"}),
        (f"/chat/messages/{message_id}/report", {}),
        (f"/people/{host_id}/mute", {"room": str(room_id), "on": "1"}),
        (f"/people/{host_id}/block", {"room": str(room_id), "on": "1"}),
    ):
        answer = await client.post(url, data={"csrf": token.group(1), **form}, headers=htmx)
        assert answer.status_code == 403, (url, answer.status_code)
        assert "secret plan" not in answer.text
    # refused before anything was done: no block (nor mute) was made by the refused forms
    assert 'data-testid="blocked"' not in (await client.get(f"/players/{host_id}")).text
    client.cookies.clear()
    read = await client.get(f"/api/rooms/{room_id}/chat", headers=host)
    assert [m["text"] for m in read.json()["messages"]] == ["secret plan"]  # nothing got in
    # with the code, a spectator writes in the spectators' chat
    let_in = {**stranger, "X-Tapet-Code": code}
    post = await client.post(f"/api/rooms/{room_id}/chat", json={"text": "hola"}, headers=let_in)
    assert post.status_code == 201, post.text


async def test_the_owner_may_open_a_private_room_to_spectators(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    host, other = await guest("Host"), await guest("Other")
    room_id = await _room(client, host, private=True)
    assert (await client.get(f"/api/rooms/{room_id}/view", headers=other)).status_code == 403
    url = f"/api/rooms/{room_id}/spectators"
    assert (await client.put(url, json={"open": True}, headers=other)).status_code == 403
    for _ in range(2):  # a double tap: the same
        opened = await client.put(url, json={"open": True}, headers=host)
        assert opened.status_code == 200 and opened.json()["spectators_open"] is True
    assert (await client.get(f"/api/rooms/{room_id}/view", headers=other)).status_code == 200
    assert (await client.get(f"/rooms/{room_id}")).status_code == 200
    assert room_id not in [r["id"] for r in (await client.get("/api/rooms")).json()]  # unlisted
    closed = await client.put(url, json={"open": False}, headers=host)
    assert closed.json()["spectators_open"] is False
    assert (await client.get(f"/api/rooms/{room_id}/view", headers=other)).status_code == 403
    public = await _room(client, host)
    refused = await client.put(f"/api/rooms/{public}/spectators", json={"open": True}, headers=host)
    assert refused.status_code == 422


async def test_an_offered_seat_goes_to_the_first_of_twenty_and_the_others_are_told(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    host = await guest("Host")
    people = [await guest(f"Friend{n}") for n in range(20)]
    room_id = await _room(client, host, private=True)
    code = await _code(client, room_id, host)
    for _ in range(2):  # offering twice is one offer
        offered = await client.put(
            f"/api/rooms/{room_id}/offers/2", json={"offered": True}, headers=host
        )
        assert offered.status_code == 200 and offered.json()["seats"][2]["offered"] is True
    answers = await asyncio.gather(
        *(
            client.post(f"/api/rooms/{room_id}/offers/2/take", json={"code": code}, headers=h)
            for h in people
        )
    )
    codes = sorted(a.status_code for a in answers)
    assert codes == [200] + [409] * 19, [a.text for a in answers if a.status_code != 409]
    winner = next(i for i, a in enumerate(answers) if a.status_code == 200)
    assert all(
        a.json()["detail"] == "someone took that seat before you"
        for a in answers
        if a.status_code == 409
    )
    seat = (await client.get(f"/api/rooms/{room_id}", headers=host)).json()["seats"][2]
    assert seat["kind"] == "person" and seat["name"] == f"Friend{winner}"
    assert seat["offered"] is False
    again = await client.post(
        f"/api/rooms/{room_id}/offers/2/take", json={"code": code}, headers=people[winner]
    )
    assert again.status_code == 200  # a double tap of the winner: the same seat
    assert again.json()["seats"][2]["name"] == f"Friend{winner}"


async def test_one_person_s_taps_at_once_on_an_offered_seat_all_answer_that_it_is_theirs(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    """A fresh tester's four taps at once: one took the seat, the three others were told
    "someone took that seat before you", the someone being the same person."""
    host, friend = await guest("Host"), await guest("Friend")
    room_id = await _room(client, host, private=True)
    code = await _code(client, room_id, host)
    offered = await client.put(
        f"/api/rooms/{room_id}/offers/2", json={"offered": True}, headers=host
    )
    assert offered.status_code == 200
    answers = await asyncio.gather(
        *(
            client.post(f"/api/rooms/{room_id}/offers/2/take", json={"code": code}, headers=friend)
            for _ in range(12)
        )
    )
    assert [a.status_code for a in answers] == [200] * 12, [a.text for a in answers]
    assert {a.json()["seats"][2]["name"] for a in answers} == {"Friend"}


async def test_a_seat_is_offered_only_by_the_owner_and_taken_only_with_the_code(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    host, friend, other = await guest("Host"), await guest("Friend"), await guest("Other")
    room_id = await _room(client, host)
    code = await _code(client, room_id, host)
    url = f"/api/rooms/{room_id}/offers"
    assert (await client.put(f"{url}/1", json={}, headers=friend)).status_code == 403
    assert (await client.put(f"{url}/0", json={}, headers=host)).status_code == 409  # the host's
    not_offered = await client.post(f"{url}/1/take", json={"code": code}, headers=friend)
    assert not_offered.status_code == 409
    assert (await client.put(f"{url}/1", json={}, headers=host)).status_code == 200
    wrong = await client.post(f"{url}/1/take", json={"code": "ABC-DEF"}, headers=friend)
    assert wrong.status_code == 403
    taken = await client.post(f"{url}/1/take", json={"code": code}, headers=friend)
    assert taken.status_code == 200 and taken.json()["seats"][1]["name"] == "Friend"
    # withdrawn: nobody else may take the next seat
    assert (await client.put(f"{url}/3", json={}, headers=host)).status_code == 200
    withdrawn = await client.put(f"{url}/3", json={"offered": False}, headers=host)
    assert withdrawn.json()["seats"][3]["offered"] is False
    late = await client.post(f"{url}/3/take", json={"code": code}, headers=other)
    assert late.status_code == 409
    # one seat a person: the friend may not take a second one
    assert (await client.put(f"{url}/2", json={}, headers=host)).status_code == 200
    second = await client.post(f"{url}/2/take", json={"code": code}, headers=friend)
    assert second.status_code == 409


async def test_a_bot_s_seat_offered_mid_match_is_taken_over_and_played(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    host, friend = await guest("Host"), await guest("Friend")
    rated = await _room(client, host)
    await _started(client, rated, host)
    refused = await client.put(f"/api/rooms/{rated}/offers/2", json={}, headers=host)
    assert refused.status_code == 409  # a rated match is rated as seated at the start
    room_id = await _room(client, host, private=True, rated=False)
    code = await _code(client, room_id, host)
    await _started(client, room_id, host)
    offered = await client.put(f"/api/rooms/{room_id}/offers/2", json={}, headers=host)
    assert offered.status_code == 200, offered.text
    assert offered.json()["seats"][2]["kind"] == "bot"
    taken = await client.post(
        f"/api/rooms/{room_id}/offers/2/take", json={"code": code}, headers=friend
    )
    assert taken.status_code == 200, taken.text
    seat = taken.json()["seats"][2]
    assert (seat["kind"], seat["name"], seat["bot"], seat["stand_in"]) == (
        "person",
        "Friend",
        None,
        False,
    )
    # the friend now sees the seat's own hand (Bolot: 8 cards a seat once dealt, fewer
    # as the tricks are played), with no code needed: they are seated
    view = (await client.get(f"/api/rooms/{room_id}/view", headers=friend)).json()
    assert view["my_seat"] == 2
    assert view["hand"] is not None and 1 <= len(view["hand"]) <= 8
    # a stranger's offer refusal after the start: a person's seat is never offered
    again = await client.put(f"/api/rooms/{room_id}/offers/2", json={}, headers=host)
    assert again.status_code == 409


async def _live_host(http: httpx.AsyncClient) -> dict[str, str]:
    """A new guest's bearer header on a live server (its cookie dropped: the sockets that
    follow are a stranger's)."""
    made = await http.post("/api/session", json={"nickname": "Host"})
    http.cookies.clear()
    return {"Authorization": f"Bearer {made.json()['token']}"}


@pytest.mark.slow
async def test_the_socket_of_a_private_room_refuses_a_stranger(live_server: str) -> None:
    ws_base = live_server.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=live_server) as http:
        host = await _live_host(http)
        room_id = await _room(http, host, private=True)
        code = await _code(http, room_id, host)
    for path in (f"/api/rooms/{room_id}/ws", f"/rooms/{room_id}/ws"):
        origin = {"Origin": live_server}
        with pytest.raises((websockets.InvalidStatus, websockets.ConnectionClosed)):
            async with websockets.connect(ws_base + path, additional_headers=origin) as ws:
                await asyncio.wait_for(ws.recv(), 5)
        async with websockets.connect(
            f"{ws_base}{path}?code={code}", additional_headers=origin
        ) as ws:
            assert await asyncio.wait_for(ws.recv(), 5)


@pytest.mark.slow
async def test_a_socket_let_in_while_open_to_spectators_is_closed_when_the_room_closes(
    live_server: str,
) -> None:
    """A stranger watching a private room that its owner opened to spectators (both
    sockets, the chat's feed asked for) is cut off when the owner closes it again: the
    socket closes (4403 on the API's, 1008 on the page's) and gets no message said after
    (a fresh tester saw both sockets keep the chat and the table)."""
    ws_base = live_server.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=live_server) as http:
        host = await _live_host(http)
        room_id = await _room(http, host, private=True)
        await _started(http, room_id, host)
        spectators = f"/api/rooms/{room_id}/spectators"
        assert (await http.put(spectators, json={"open": True}, headers=host)).is_success
        origin = {"Origin": live_server}
        async with (
            websockets.connect(
                f"{ws_base}/api/rooms/{room_id}/ws?chat=1", additional_headers=origin
            ) as api_ws,
            websockets.connect(
                f"{ws_base}/rooms/{room_id}/ws", additional_headers=origin
            ) as page_ws,
        ):
            for ws in (api_ws, page_ws):
                assert await asyncio.wait_for(ws.recv(), 5)  # let in: the table
            assert (await http.put(spectators, json={"open": False}, headers=host)).is_success
            said = await http.post(
                f"/api/rooms/{room_id}/chat", json={"text": "AFTERCLOSE"}, headers=host
            )
            assert said.status_code == 201, said.text
            for ws, code in ((api_ws, 4403), (page_ws, 1008)):
                received = []
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    while True:
                        received.append(await asyncio.wait_for(ws.recv(), 5))
                assert closed.value.rcvd is not None and closed.value.rcvd.code == code
                assert not any("AFTERCLOSE" in str(r) for r in received)


async def test_the_rematch_of_a_private_room_is_private_with_a_code_of_its_own(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    host, stranger = await guest("Host"), await guest("Stranger")
    room_id = await _room(client, host, private=True)
    code = await _code(client, room_id, host)  # the old room has a code: it is not copied
    await _started(client, room_id, host)
    assert (await client.post(f"/api/rooms/{room_id}/resign", headers=host)).status_code == 200
    rematch = await client.post(f"/api/rooms/{room_id}/rematch", json={}, headers=host)
    assert rematch.status_code == 200, rematch.text
    new_id = rematch.json()["room"]
    assert isinstance(new_id, int) and new_id != room_id
    info = (await client.get(f"/api/rooms/{new_id}", headers=host)).json()
    assert info["private"] is True and info["status"] == "playing"
    assert (await client.get(f"/api/rooms/{new_id}/view", headers=stranger)).status_code == 403
    new_code = await _code(client, new_id, host)
    assert new_code != code
    # the old code opens the old room only
    old = await client.get(f"/api/rooms/{new_id}/view", params={"code": code}, headers=stranger)
    assert old.status_code == 403
    assert new_id not in [r["id"] for r in (await client.get("/api/rooms")).json()]


async def test_a_private_match_is_listed_on_its_player_s_page_to_that_player_only(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    host, stranger = await guest("Host"), await guest("Stranger")
    me = (await client.get("/api/me", headers=host)).json()["id"]
    public = await _room(client, host)
    await _started(client, public, host)
    assert (await client.post(f"/api/rooms/{public}/resign", headers=host)).status_code == 200
    private = await _room(client, host, private=True)
    await _started(client, private, host)
    assert (await client.post(f"/api/rooms/{private}/resign", headers=host)).status_code == 200
    own = (await client.get(f"/api/players/{me}", headers=host)).json()
    assert sorted(m["room_id"] for m in own["matches"]) == [public, private]
    seen = (await client.get(f"/api/players/{me}", headers=stranger)).json()
    assert [m["room_id"] for m in seen["matches"]] == [public]
    anyone = (await client.get(f"/api/players/{me}")).json()
    assert [m["room_id"] for m in anyone["matches"]] == [public]


async def test_an_offered_empty_seat_is_kept_for_the_invited(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    host, walker = await guest("Host"), await guest("Walker")
    room_id = await _room(client, host)  # public: anyone may sit in an empty seat
    assert (await client.put(f"/api/rooms/{room_id}/offers/1", json={}, headers=host)).is_success
    walk_in = await client.put(f"/api/rooms/{room_id}/seats/1", json={}, headers=walker)
    assert walk_in.status_code == 409
    assert walk_in.json()["detail"] == "seat 1 is offered to the person the owner invited"
    bot = await client.put(f"/api/rooms/{room_id}/seats/1", json={"bot": "random"}, headers=host)
    assert bot.status_code == 409
    other = await client.put(f"/api/rooms/{room_id}/seats/2", json={}, headers=walker)
    assert other.status_code == 200  # the seats not offered are as before
    await client.put(f"/api/rooms/{room_id}/offers/1", json={"offered": False}, headers=host)
    bot = await client.put(f"/api/rooms/{room_id}/seats/1", json={"bot": "random"}, headers=host)
    assert bot.status_code == 200


async def test_a_cookie_of_many_codes_tries_only_as_many_as_the_server_keeps(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    """The server writes at most ``COOKIE_KEEP`` (20) codes in the cookie; a cookie of
    thousands tried them all at once (a fresh tester opened a room with 2,200 guesses in one
    request). Only the first 20 are read."""
    host, stranger = await guest("Host"), await guest("Stranger")
    room_id = await _room(client, host, private=True)
    code = await _code(client, room_id, host)
    others = [f"ABC{n:03d}".replace("0", "A").replace("1", "B") for n in range(25)]
    url = f"/api/rooms/{room_id}/view"
    for place, status in ((19, 200), (20, 403)):  # the 20th code is read, the 21st is not
        codes = others[:place] + [code] + others[place:]
        client.cookies.clear()
        answer = await client.get(
            url, headers={**stranger, "Cookie": f"tapet_codes={'.'.join(codes)}"}
        )
        assert answer.status_code == status, place


async def test_wrong_codes_are_limited_per_address(settings: Settings) -> None:
    """``TAPET_RATE_CODE_FAILURES`` (app/rooms/invites.py, docs/invitations.md): a code that
    opens nothing (shown to a private room, looked up, or sent to take an offered seat)
    counts against the address; once they are used up, no code of that address is tried,
    the right one neither (429). Nothing else is refused, nor counted: a public room, the
    lobby, another refusal (fresh testers found a first limit that locked people out)."""
    async with limited_app(settings, rate_code_failures="3/60") as at:
        async with at("10.0.0.2") as http:

            async def guest(name: str) -> dict[str, str]:
                made = await http.post("/api/session", json={"nickname": name})
                http.cookies.clear()
                return {"Authorization": f"Bearer {made.json()['token']}"}

            host, other = await guest("Host"), await guest("Other")
            room_id = await _room(http, host, private=True)
            public_id = await _room(http, other)
            code = await _code(http, room_id, host)
            offered = await http.put(
                f"/api/rooms/{room_id}/offers/1", json={"offered": True}, headers=host
            )
            assert offered.status_code == 200, offered.text
            url = f"/api/rooms/{room_id}/view"
            not_owner = await http.get(f"/api/rooms/{room_id}/invitation", headers=other)
            assert not_owner.status_code == 403  # a refusal that tries no code: not counted
            statuses = [
                (await http.get(url, params={"code": "ABC-DEF"})).status_code,
                (await http.get("/api/invitations/ABCDEG")).status_code,
                (
                    await http.post(
                        f"/api/rooms/{room_id}/offers/1/take",
                        json={"code": "ABCDEH"},
                        headers=other,
                    )
                ).status_code,
            ]
            assert statuses == [403, 404, 403]
            late = await http.get(url, params={"code": code})  # the right one, too late
            assert late.status_code == 429 and int(late.headers["retry-after"]) >= 1
            assert "invitation codes" in late.json()["detail"]
            assert (await http.get(f"/api/invitations/{code}")).status_code == 429
            take = await http.post(
                f"/api/rooms/{room_id}/offers/1/take", json={"code": code}, headers=other
            )
            assert take.status_code == 429
            # the pages too, saying when to come back as the API does
            for page in (f"/join/{code}", f"/rooms/{room_id}?code={code}"):
                refused = await http.get(page)
                assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
            # nothing that tries no code is refused, the cookie of a good code carried or not
            http.cookies.set("tapet_codes", code)
            assert (await http.get(url, headers=host)).status_code == 200  # the owner
            assert (await http.get(f"/api/rooms/{public_id}/view")).status_code == 200
            assert (await http.get("/api/rooms")).status_code == 200
            assert (await http.get("/")).status_code == 200


async def test_wrong_codes_fired_at_once_are_each_counted(settings: Settings) -> None:
    """Ten wrong codes sent together against a limit of three: three are tried (403), the
    other seven wait (429), as one after the other would (a token is taken before the
    database is asked)."""
    async with limited_app(settings, rate_code_failures="3/60") as at:
        async with at("10.0.0.3") as http:
            made = await http.post("/api/session", json={"nickname": "Host"})
            http.cookies.clear()
            host = {"Authorization": f"Bearer {made.json()['token']}"}
            room_id = await _room(http, host, private=True)
            answers = await asyncio.gather(
                *(
                    http.get(f"/api/rooms/{room_id}/view", params={"code": f"ABCDE{c}"})
                    for c in "ABCDEFGHJK"
                )
            )
            assert sorted(a.status_code for a in answers) == [403] * 3 + [429] * 7
