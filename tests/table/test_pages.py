"""The HTML pages of the rooms (app/table/pages.py) and of guests (app/accounts/pages.py).

Driven in process with httpx, the way a browser without JavaScript would post
the forms (and, with ``HX-Request``, the way htmx does). The browser test with
the live socket is tests/e2e/test_table.py.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import httpx
import pytest

from tests.tables import asgi_post

CSRF = re.compile(r'name="csrf" value="([0-9a-f]+)"')


async def _token(client: httpx.AsyncClient, path: str = "/") -> str:
    page = await client.get(path)
    assert page.status_code == 200, page.text
    match = CSRF.search(page.text)
    assert match, "the page carries no CSRF token"
    return match.group(1)


async def _sign_in(client: httpx.AsyncClient, nickname: str = "Pepa") -> None:
    token = await _token(client)
    response = await client.post(
        "/session", data={"nickname": nickname, "csrf": token, "next": "/"}
    )
    assert response.status_code == 303, response.text
    assert "tapet_session" in client.cookies


async def _started_room(client: httpx.AsyncClient) -> int:
    """Sign in, create a Bolot room (its creator sits in seat 0), fill with bots, start:
    by the forms."""
    await _sign_in(client)
    token = await _token(client)
    response = await client.post(
        "/rooms", data={"game": "bolot", "opt_target": "1500", "csrf": token}
    )
    assert response.status_code == 303, response.text
    room_id = int(response.headers["location"].rsplit("/", 1)[1])
    token = await _token(client, f"/rooms/{room_id}")
    assert (await client.get(f"/api/rooms/{room_id}")).json()["seats"][0]["kind"] == "person"
    for path, data in (
        (f"/rooms/{room_id}/bots", {"bot": "random"}),
        (f"/rooms/{room_id}/start", {}),
    ):
        response = await client.post(path, data={**data, "csrf": token})
        assert response.status_code == 303, (path, response.text)
    return room_id


async def _my_turn(client: httpx.AsyncClient, room_id: int) -> dict:
    """Wait until the table waits for seat 0 (bots answer at once), and return its view."""
    for _ in range(400):
        view = (await client.get(f"/api/rooms/{room_id}/view")).json()
        if view["to_act"] == view["my_seat"] == 0 and view["legal_actions"]:
            return view
        await asyncio.sleep(0.02)
    raise AssertionError("seat 0 was never asked to act")


async def test_lobby_offers_a_nickname_to_a_new_visitor(client: httpx.AsyncClient) -> None:
    page = await client.get("/")
    assert page.status_code == 200
    assert 'data-testid="nickname"' in page.text  # the nickname field of "play now"
    assert 'data-testid="create-room"' not in page.text


async def test_nickname_form_makes_a_guest_and_the_lobby_greets_them(
    client: httpx.AsyncClient,
) -> None:
    await _sign_in(client, "Pepa")
    page = await client.get("/")
    assert "Pepa" in page.text and 'data-testid="create-room"' in page.text


async def test_bad_nickname_is_a_readable_message(client: httpx.AsyncClient) -> None:
    token = await _token(client)
    response = await client.post(
        "/session", data={"nickname": "   ", "csrf": token}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 422
    assert 'class="msg msg-error"' in response.text and "Traceback" not in response.text


async def test_a_post_without_the_csrf_token_is_refused(client: httpx.AsyncClient) -> None:
    await _sign_in(client)
    response = await client.post("/rooms", data={"game": "bolot"})
    assert response.status_code == 403


async def test_a_post_from_another_site_is_refused(client: httpx.AsyncClient) -> None:
    await _sign_in(client)
    token = await _token(client)
    response = await client.post(
        "/rooms", data={"game": "bolot", "csrf": token}, headers={"Origin": "https://evil.example"}
    )
    assert response.status_code == 403


async def test_unknown_game_is_a_message_not_a_crash(client: httpx.AsyncClient) -> None:
    await _sign_in(client)
    token = await _token(client)
    response = await client.post(
        "/rooms", data={"game": "poker", "csrf": token}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 422
    assert "poker" in response.text


async def test_room_options_come_from_the_form(client: httpx.AsyncClient) -> None:
    room_id = await _started_room(client)
    room = (await client.get(f"/api/rooms/{room_id}")).json()
    assert room["options"]["target"] == 1500
    assert [s["kind"] for s in room["seats"]] == ["person", "bot", "bot", "bot"]


async def test_player_sees_own_hand_and_spectator_sees_none(
    client: httpx.AsyncClient, app: object
) -> None:
    room_id = await _started_room(client)
    view = await _my_turn(client, room_id)
    mine = (await client.get(f"/rooms/{room_id}")).text
    assert 'data-testid="hand"' in mine
    for card in view["hand"]:
        assert f"/{card}.svg" in mine
    transport = httpx.ASGITransport(app=app)  # type: ignore[arg-type]
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as spectator:
        seen = (await spectator.get(f"/rooms/{room_id}")).text
    assert 'data-testid="hand"' not in seen
    for card in view["hand"]:  # nobody but seat 0 may see these cards
        assert f"/{card}.svg" not in seen, card


async def test_a_move_nested_thousands_deep_is_refused_not_a_server_error(
    client: httpx.AsyncClient,
) -> None:
    """A form whose action is JSON nested 3,000 deep (found by a fresh tester: json.loads
    raised RecursionError, a 500) is a 422 with the page's message, and nothing moves."""
    room_id = await _started_room(client)
    view = await _my_turn(client, room_id)
    token = await _token(client, f"/rooms/{room_id}")
    form = {"seq": str(view["seq"]), "action": "[" * 3000 + "]" * 3000, "csrf": token}
    answer = await client.post(f"/rooms/{room_id}/moves", data=form, headers={"HX-Request": "true"})
    assert answer.status_code == 422
    assert "That move could not be read" in answer.text
    assert (await _my_turn(client, room_id))["seq"] == view["seq"]


async def test_a_repeated_move_is_quiet_and_an_illegal_one_is_explained(
    client: httpx.AsyncClient,
) -> None:
    room_id = await _started_room(client)
    view = await _my_turn(client, room_id)
    token = await _token(client, f"/rooms/{room_id}")
    form = {"seq": str(view["seq"]), "action": json.dumps(view["legal_actions"][0]), "csrf": token}
    htmx = {"HX-Request": "true"}
    first = await client.post(f"/rooms/{room_id}/moves", data=form, headers=htmx)
    assert first.status_code == 200, first.text
    again = await client.post(f"/rooms/{room_id}/moves", data=form, headers=htmx)  # a double click
    assert again.status_code == 200
    assert 'data-testid="flash"' not in again.text
    view = await _my_turn(client, room_id)
    bogus = {
        "seq": str(view["seq"]),
        "action": json.dumps({"type": "play", "card": "5o"}),
        "csrf": token,
    }
    refused = await client.post(f"/rooms/{room_id}/moves", data=bogus, headers=htmx)
    assert refused.status_code in (403, 422)
    assert 'data-testid="flash"' in refused.text and "Traceback" not in refused.text


async def test_a_move_for_a_seat_you_do_not_hold_is_forbidden(
    client: httpx.AsyncClient, app: object
) -> None:
    room_id = await _started_room(client)
    view = await _my_turn(client, room_id)
    transport = httpx.ASGITransport(app=app)  # type: ignore[arg-type]
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as other:
        await _sign_in(other, "Intruder")
        token = await _token(other, f"/rooms/{room_id}")
        form = {
            "seq": str(view["seq"]),
            "action": json.dumps(view["legal_actions"][0]),
            "csrf": token,
        }
        response = await other.post(
            f"/rooms/{room_id}/moves", data=form, headers={"HX-Request": "true"}
        )
    assert response.status_code == 403
    assert "seat" in response.text


async def test_unknown_room_is_a_404_page(client: httpx.AsyncClient) -> None:
    response = await client.get("/rooms/999999")
    assert response.status_code == 404
    assert "999999" in response.text


async def test_a_missing_page_shows_the_visitor_signed_in(
    client: httpx.AsyncClient, guest: Any
) -> None:
    """A mistyped address (no route, or a room id that is no number) is the error page in
    the site's layout, with the visitor's name and page link in the header as everywhere."""
    auth = await guest("Pepa")
    for path in ("/nonexistent", "/rooms/abc"):
        page = await client.get(path, headers={**auth, "accept": "text/html"})
        assert page.status_code == 404 and "There is no such page." in page.text, path
        assert "Pepa" in page.text and 'data-testid="my-page-link"' in page.text, path
    anonymous = await client.get("/nonexistent", headers={"accept": "text/html"})
    assert anonymous.status_code == 404 and 'data-testid="my-page-link"' not in anonymous.text


async def test_a_form_posted_to_a_malformed_address_gets_the_error_page(
    client: httpx.AsyncClient, guest: Any
) -> None:
    """A browser's form sent to an address whose id is no number (a fresh tester's
    ``POST /rooms/2/seats/abc``) gets the error page, not JSON; the API keeps its JSON."""
    auth = await guest("Pepa")
    html = {**auth, "accept": "text/html"}
    for path in ("/rooms/1/seats/abc", "/rooms/abc/resign", "/rooms/1/deals/abc/replay-mine"):
        page = await client.post(path, headers=html)
        assert page.status_code == 404 and "There is no such page." in page.text, path
        assert page.headers["content-type"].startswith("text/html"), path
    api = await client.post("/api/rooms/abc/resign", headers=html, json={})
    assert api.status_code == 422 and api.headers["content-type"] == "application/json"


async def test_page_socket_pushes_each_viewer_their_own_table(
    live_server: str, fixed_first_deal: list[str]
) -> None:
    """WS /rooms/{id}/ws: hx-swap-oob fragments of the viewer's own view, at connect and
    after every change; a spectator's fragments carry no hand and none of its cards."""
    import websockets

    from tests.tables import DECK, live_table

    ws_base = live_server.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=live_server) as http:
        room_id, tokens, dealer = await live_table(http)
        room = {"id": room_id}
        auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
        eldest = (dealer + 1) % 4
        hand = DECK[0:3] + DECK[12:14]

        url = f"{ws_base}/rooms/{room['id']}/ws"
        async with (
            websockets.connect(f"{url}?token={tokens[eldest]}") as player,
            websockets.connect(url) as spectator,
        ):
            mine = str(await asyncio.wait_for(player.recv(), 10))
            seen = str(await asyncio.wait_for(spectator.recv(), 10))
            assert 'id="room-main"' in mine and 'hx-swap-oob="true"' in mine
            assert 'data-seq="1"' in mine and "Vaig (" in mine
            for card in hand:
                assert f"/{card}.svg" in mine
                assert f"/{card}.svg" not in seen
            assert 'data-testid="hand"' not in seen and "Vaig (" not in seen

            moved = await http.post(
                f"/api/rooms/{room['id']}/moves",
                json={"seq": 1, "action": {"type": "pass"}},
                headers=auth[eldest],
            )
            assert moved.status_code == 200
            async with asyncio.timeout(10):
                while 'data-seq="2"' not in (pushed := str(await player.recv())):
                    pass
            assert "No vaig" in pushed  # the pass shows by the seat


async def test_page_socket_from_another_site_is_refused(live_server: str) -> None:
    import websockets

    url = live_server.replace("http://", "ws://") + "/rooms/1/ws"
    with pytest.raises(websockets.exceptions.InvalidStatus):
        async with websockets.connect(url, origin="https://evil.example"):  # type: ignore[arg-type]
            pass


async def test_seat_form_offers_the_strong_bot_with_translated_labels(
    client: httpx.AsyncClient,
) -> None:
    await _sign_in(client)
    token = await _token(client)
    response = await client.post("/rooms", data={"game": "bolot", "csrf": token})
    room_id = int(response.headers["location"].rsplit("/", 1)[1])
    page = await client.get(f"/rooms/{room_id}")
    assert '<option value="strong"' in page.text and "Strong bot" in page.text
    assert "Strong bots" in page.text and "Heuristic bot" in page.text
    token = CSRF.search(page.text).group(1)
    response = await client.post(f"/rooms/{room_id}/seats/1", data={"bot": "strong", "csrf": token})
    assert response.status_code == 303, response.text
    page = await client.get(f"/rooms/{room_id}?lang=ca")
    assert "Bot fort" in page.text


async def test_a_player_whose_seat_has_a_stand_in_can_take_it_back(
    client: httpx.AsyncClient,
) -> None:
    room_id = await _started_room(client)
    page = await client.get(f"/rooms/{room_id}")
    assert 'data-testid="sit-again"' not in page.text
    token = CSRF.search(page.text).group(1)
    response = await client.post(f"/rooms/{room_id}/seats/0/leave", data={"csrf": token})
    assert response.status_code == 303, response.text
    page = await client.get(f"/rooms/{room_id}")
    assert 'data-testid="sit-again"' in page.text and "Take my seat back" in page.text
    assert f'action="/rooms/{room_id}/seats/0"' in page.text
    response = await client.post(
        f"/rooms/{room_id}/seats/0", data={"csrf": token}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200, response.text
    assert 'data-testid="sit-again"' not in response.text
    view = (await client.get(f"/api/rooms/{room_id}/view")).json()
    assert view["my_seat"] == 0
    seat0 = next(s for s in view["seats"] if s["seat"] == 0)
    assert not seat0["stand_in"]


async def test_lobby_leaves_unset_options_empty_and_a_room_nickname_comes_back(
    client: httpx.AsyncClient,
) -> None:
    lobby = await client.get("/")
    assert 'value="None"' not in lobby.text
    await _sign_in(client)
    lobby = await client.get("/")
    assert 'name="opt_max_hands" value=""' in lobby.text
    assert 'value="None"' not in lobby.text
    token = await _token(client)
    response = await client.post(
        "/rooms", data={"game": "botifarra", "opt_max_hands": "", "csrf": token}
    )
    assert response.status_code == 303, response.text
    room_url = response.headers["location"]
    transport = client._transport  # noqa: SLF001 - a second visitor on the same app
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as visitor:
        page = await visitor.get(room_url)
        assert f'name="next" value="{room_url}"' in page.text
        token = CSRF.search(page.text).group(1)
        response = await visitor.post(
            "/session", data={"nickname": "Nova", "csrf": token, "next": room_url}
        )
        assert response.status_code == 303 and response.headers["location"] == room_url


def test_championship_deal_fields_build_a_summary_the_rules_score() -> None:
    """The per-game score-sheet form (app/tournaments/pages.py) builds §8 summaries."""
    from app import rules
    from app.core.errors import ServiceError
    from app.tournaments.pages import summary_from_fields

    def score(game: str, form: dict[str, str]) -> dict:
        return rules.score_deal(game, {}, summary_from_fields(game, form))

    base = {"f_taker": "0", "f_tricks0": "5", "f_tricks1": "3", "f_last": "0", "f_belote": ""}
    made = score(
        "belote",
        {
            **base,
            "f_trump": "H",
            "f_cp0": "100",
            "f_cp1": "52",
            "f_d0_team": "0",
            "f_d0_kind": "sequence",
            "f_d0_length": "3",
            "f_d0_top": "A",
            "f_d0_suit": "S",
        },
    )
    assert made["outcome"] == "made" and made["detail"]["declarations"][0] == 20
    bolot = score("bolot", {**base, "f_trump": "o", "f_cp0": "100", "f_cp1": "52", "f_belote": "0"})
    assert bolot["points"][0] > 0
    botifarra = score(
        "botifarra",
        {
            "f_trump": "",
            "f_taker": "1",
            "f_tricks0": "5",
            "f_tricks1": "7",
            "f_cp0": "20",
            "f_cp1": "40",
            "f_doublings": "1",
        },
    )
    assert botifarra["detail"]["botifarra"] and botifarra["points"][1] > 0
    bridge = score(
        "bridge-belote",
        {
            "f_trump": "NT",
            "f_taker": "0",
            "f_tricks0": "6",
            "f_tricks1": "2",
            "f_cp0": "100",
            "f_cp1": "20",
            "f_last": "0",
            "f_multiplier": "1",
        },
    )
    assert bridge["detail"]["raw"][0] == 2 * (100 + 10)
    two = score(
        "belote-2p",
        {**base, "f_trump": "S", "f_tricks0": "5", "f_tricks1": "4", "f_cp0": "90", "f_cp1": "46"},
    )
    assert two["outcome"] == "scored" and two["points"][0] > 0
    try:
        summary_from_fields("belote", {**base, "f_trump": "H", "f_cp0": "lots", "f_cp1": "52"})
    except ServiceError as exc:
        # the field is named and the input is not echoed (docs/security.md: 422s echo nothing)
        assert "card points of team 1" in exc.message and "whole number" in exc.message
        assert "lots" not in exc.message
    else:
        raise AssertionError("a word in a number field is refused")
    try:
        score("belote", {**base, "f_trump": "H", "f_cp0": "100", "f_cp1": "99"})
    except rules.IllegalAction as exc:
        assert str(exc)  # score_deal's reason, shown on the page as it is
    else:
        raise AssertionError("impossible card points are refused")


async def test_the_lobby_form_sets_a_move_clock_or_none(client: httpx.AsyncClient) -> None:
    """The create form's move clock: off by default (a friendly room), else seconds a move
    (issue 9 §4); a value that is no number is refused with the reason, not a 500."""
    await _sign_in(client)
    token = await _token(client)
    lobby = (await client.get("/")).text
    assert 'name="clock_seconds"' in lobby and '<option value="0" selected>' in lobby
    made = await client.post("/rooms", data={"game": "bolot", "csrf": token})
    room = (await client.get(f"/api/rooms/{made.headers['location'].rsplit('/', 1)[1]}")).json()
    assert room["clock_seconds"] is None
    timed = await client.post(
        "/rooms", data={"game": "bolot", "clock_seconds": "30", "csrf": token}
    )
    assert timed.status_code == 303
    room = (await client.get(f"/api/rooms/{timed.headers['location'].rsplit('/', 1)[1]}")).json()
    assert room["clock_seconds"] == 30
    bad = await client.post(
        "/rooms", data={"game": "bolot", "clock_seconds": "soon", "csrf": token}
    )
    assert bad.status_code == 422 and "Move clock: off, or a number of seconds." in bad.text


async def test_a_client_gone_mid_post_is_no_server_error(app: Any) -> None:
    """A phone that drops its connection while posting a move: the form read meets
    ``http.disconnect``; the answer (nobody reads it) is a 400, not a 500 with a traceback."""
    sent = await asgi_post(
        app,
        "/rooms/1/moves",
        [(b"content-type", b"application/x-www-form-urlencoded"), (b"content-length", b"20")],
        [],
    )
    start = next(m for m in sent if m["type"] == "http.response.start")
    assert start["status"] == 400


async def test_the_seating_page_lists_the_options_set_not_the_unset_ones(
    client: httpx.AsyncClient,
) -> None:
    """A casual Botifarra room: its target and rules of play are listed; the championship
    limits it leaves unset ("Tournament: …: —", a fresh tester's noise) are not."""
    await _sign_in(client, "Nuri")
    token = await _token(client)
    made = await client.post("/rooms", data={"game": "botifarra", "csrf": token})
    assert made.status_code == 303, made.text
    page = (await client.get(made.headers["location"])).text
    listed = re.search(r'<ul class="options-list[^"]*">(.*?)</ul>', page, re.S)
    assert listed is not None
    assert "Game to: <b>101</b>" in listed.group(1)
    assert "Tournament" not in listed.group(1) and "—" not in listed.group(1)


async def test_a_stranger_is_offered_a_seat_but_not_the_bots_or_the_start(
    client: httpx.AsyncClient,
) -> None:
    """Before the start only the room's creator and its seated people may seat or remove
    bots and start (app/rooms/service.py); the page offers a stranger a seat alone (it
    showed them every button, each then refused: a fresh tester's find). Once seated, the
    same person gets the controls."""
    await _sign_in(client, "Owner")
    token = await _token(client)
    made = await client.post("/rooms", data={"game": "bolot", "csrf": token})
    room_id = int(made.headers["location"].rsplit("/", 1)[1])
    token = await _token(client, f"/rooms/{room_id}")
    seated = await client.post(f"/rooms/{room_id}/seats/1", data={"bot": "random", "csrf": token})
    assert seated.status_code == 303
    controls = ('data-testid="fill-bots"', 'data-testid="start"', ">Seat bot<", ">Remove bot<")
    owner_page = (await client.get(f"/rooms/{room_id}")).text
    assert all(c in owner_page for c in controls)
    async with httpx.AsyncClient(transport=client._transport, base_url="http://testserver") as b:
        await _sign_in(b, "Stranger")
        page = (await b.get(f"/rooms/{room_id}")).text
        assert 'data-testid="take-seat-2"' in page
        assert not [c for c in controls if c in page]
        btoken = await _token(b, f"/rooms/{room_id}")
        sat = await b.post(f"/rooms/{room_id}/seats/2", data={"csrf": btoken})
        assert sat.status_code == 303
        page = (await b.get(f"/rooms/{room_id}")).text
        assert all(c in page for c in controls)
