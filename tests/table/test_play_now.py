"""The first minute (issue 17 §1): "play now" from the lobby, the creator seated, the
empty declaration prompt skipped, form errors next to their fields.

Driven in process with httpx the way a browser posts the forms. The browser test that
counts the clicks from the home page to the first decision is tests/e2e/test_first_minute.py.
"""

from __future__ import annotations

import asyncio
import html
import json
import re
from typing import Any

import httpx
from sqlalchemy import update

from app.rooms.models import Room
from tests.conftest import Guest
from tests.table.test_pages import CSRF, _sign_in, _token
from tests.tables import Table, move, view_of

PLAY_KEY = re.compile(
    r'<form method="post" action="/play"[^>]*>\s*<input type="hidden" name="csrf" value="([0-9a-f]+)">'
    r'\s*<input type="hidden" name="creation_key" value="([^"]+)">'
)
GUEST_NAME = re.compile(r'id="nickname" name="nickname" value="([^"]+)"')


async def _play_form(client: httpx.AsyncClient) -> tuple[str, str]:
    """The csrf token and the creation key of the lobby's "play now" form."""
    page = await client.get("/")
    assert page.status_code == 200, page.text
    found = PLAY_KEY.search(page.text)
    assert found, "the lobby has a play-now form with its own creation key"
    return found.group(1), found.group(2)


def _room_of(response: httpx.Response) -> int:
    assert response.status_code == 303, response.text
    return int(response.headers["location"].rsplit("/", 1)[1])


async def test_play_now_seats_a_new_visitor_with_bots_and_starts_at_once(
    client: httpx.AsyncClient,
) -> None:
    page = await client.get("/")
    # what Tapet is, each game with its rules page and its "play now"
    assert "Tapet is a card room" in page.text
    for game in ("bolot", "belote", "belote-2p", "bridge-belote", "botifarra"):
        assert f'href="/rules/{game}"' in page.text
        assert f'data-testid="play-{game}"' in page.text
    guest_name = GUEST_NAME.search(page.text)
    assert guest_name, "a new visitor is offered a guest nickname"
    token, key = await _play_form(client)
    answer = await client.post(
        "/play",
        data={
            "csrf": token,
            "creation_key": key,
            "nickname": guest_name.group(1),
            "game": "bolot",
            "bot_bolot": "heuristic",
            "target_bolot": "1500",
        },
    )
    room_id = _room_of(answer)
    assert "tapet_session" in client.cookies  # the visitor is now that guest
    room = (await client.get(f"/api/rooms/{room_id}")).json()
    assert room["status"] == "playing"
    assert room["options"]["target"] == 1500
    me = (await client.get(f"/api/rooms/{room_id}/view")).json()
    assert me["my_seat"] == 0
    assert room["seats"][0]["kind"] == "person" and room["seats"][0]["name"] == guest_name.group(1)
    assert [s["kind"] for s in room["seats"][1:]] == ["bot"] * 3
    assert {s["bot"] for s in room["seats"][1:]} == {"heuristic"}


async def test_play_now_defaults_for_a_two_player_game(client: httpx.AsyncClient) -> None:
    await _sign_in(client, "Jules")
    token, key = await _play_form(client)
    # only the button's game is sent: bots and target take their defaults
    room_id = _room_of(
        await client.post("/play", data={"csrf": token, "creation_key": key, "game": "belote-2p"})
    )
    room = (await client.get(f"/api/rooms/{room_id}")).json()
    assert room["status"] == "playing" and room["players"] == 2
    assert room["seats"][0]["name"] == "Jules"
    assert room["seats"][1]["bot"] == "heuristic"
    assert room["options"]["target"] == 1000  # rules/belote.md: the game's default target


async def test_a_double_tap_on_play_now_makes_one_room(client: httpx.AsyncClient) -> None:
    await _sign_in(client, "Rita")
    token, key = await _play_form(client)
    before = len((await client.get("/api/rooms")).json())
    form = {"csrf": token, "creation_key": key, "game": "belote"}
    answers = await asyncio.gather(*(client.post("/play", data=form) for _ in range(6)))
    assert {a.status_code for a in answers} == {303}, [a.text for a in answers]
    assert len({a.headers["location"] for a in answers}) == 1
    assert len((await client.get("/api/rooms")).json()) == before + 1
    room_id = _room_of(answers[0])
    assert (await client.get(f"/api/rooms/{room_id}")).json()["status"] == "playing"
    # the lobby is never shown again from the cache; but a page kept anyway (Back) whose
    # form sends the same key for another game makes that game's room, not the old one
    assert (await client.get("/")).headers["cache-control"] == "no-store"
    other = _room_of(await client.post("/play", data={**form, "game": "belote-2p"}))
    assert other != room_id
    assert (await client.get(f"/api/rooms/{other}")).json()["game"] == "belote-2p"


async def test_a_new_visitors_double_tap_is_one_guest_in_one_room(
    client: httpx.AsyncClient,
) -> None:
    token, key = await _play_form(client)
    pre = dict(client.cookies)  # no session yet: both taps leave before the first answer
    form = {"csrf": token, "creation_key": key, "game": "bolot", "nickname": "Quim"}
    first = await client.post("/play", data=form)
    first_session = client.cookies["tapet_session"]
    client.cookies.clear()
    client.cookies.update(pre)
    second = await client.post("/play", data=form)
    assert second.headers["location"] == first.headers["location"]
    room_id = _room_of(second)
    assert client.cookies["tapet_session"] != first_session  # a new session...
    view = (await client.get(f"/api/rooms/{room_id}/view")).json()
    assert view["my_seat"] == 0  # ...of the same guest, seated
    room = (await client.get(f"/api/rooms/{room_id}")).json()
    assert [s["kind"] for s in room["seats"]] == ["person", "bot", "bot", "bot"]


async def test_a_new_visitors_second_tap_after_the_first_answer_goes_to_the_same_room(
    client: httpx.AsyncClient,
) -> None:
    """The second tap leaves after the first answer set the session cookie: it carries that
    cookie and the page's pre-session token, and is the same room (a 403 "form expired"
    page before), for the guest the first tap made."""
    token, key = await _play_form(client)
    form = {"csrf": token, "creation_key": key, "game": "bolot", "nickname": "Roser"}
    first = await client.post("/play", data=form)
    assert "tapet_session" in client.cookies and "tapet_pre" in client.cookies
    second = await client.post("/play", data=form)
    assert second.status_code == 303, second.text
    assert second.headers["location"] == first.headers["location"]
    room_id = _room_of(second)
    assert (await client.get(f"/api/rooms/{room_id}/view")).json()["my_seat"] == 0
    assert [r["id"] for r in (await client.get("/api/rooms")).json()] == [room_id]


async def test_a_token_of_another_browsers_pre_session_is_still_refused(
    client: httpx.AsyncClient,
) -> None:
    token, key = await _play_form(client)
    client.cookies.set("tapet_pre", "another-browser")
    form = {"csrf": token, "creation_key": key, "game": "bolot", "nickname": "Pau"}
    assert (await client.post("/play", data=form)).status_code == 403


async def test_a_key_read_off_another_browsers_page_signs_nobody_in(
    client: httpx.AsyncClient,
) -> None:
    """Within the minute a form's key signs its guest in again, another browser sending
    that key (read off the first one's page) under the same nickname with its own token
    is refused as any visitor taking a name in use is: the key is tied to the browser
    that was shown it (``csrf.browser_key``), not only to the nickname."""
    token, key = await _play_form(client)
    form = {"csrf": token, "creation_key": key, "game": "bolot", "nickname": "Xavier"}
    assert (await client.post("/play", data=form)).status_code == 303
    async with httpx.AsyncClient(transport=client._transport, base_url="http://testserver") as b:
        own_token, _ = await _play_form(b)
        stolen = await b.post("/play", data={**form, "csrf": own_token})
        assert stolen.status_code == 409, stolen.text
        assert "Someone playing now is called Xavier" in stolen.text
        assert "tapet_session" not in b.cookies


async def test_a_new_visitors_taps_at_once_are_one_guest_in_one_room(
    client: httpx.AsyncClient,
) -> None:
    token, key = await _play_form(client)
    form = {"csrf": token, "creation_key": key, "game": "botifarra", "nickname": "Mireia"}
    answers = await asyncio.gather(*(client.post("/play", data=form) for _ in range(5)))
    assert {a.status_code for a in answers} == {303}, [a.text for a in answers]
    assert len({a.headers["location"] for a in answers}) == 1
    room_id = _room_of(answers[0])
    # whichever answer's cookie the browser keeps, it is the seated guest's
    for answer in answers:
        session = answer.cookies["tapet_session"]
        bearer = {"authorization": f"Bearer {session}"}  # the cookie's value, as the API takes it
        view = (await client.get(f"/api/rooms/{room_id}/view", headers=bearer)).json()
        assert view["my_seat"] == 0
    rooms = (await client.get("/api/rooms")).json()
    assert [r["id"] for r in rooms] == [room_id]


async def test_play_now_refusals_are_next_to_their_field_and_never_a_500(
    client: httpx.AsyncClient,
) -> None:
    token, key = await _play_form(client)
    # a nickname that looks like a bot's (app/accounts/service.py): the lobby again, the
    # message under the nickname field, what was typed kept, nobody made
    refused = await client.post(
        "/play", data={"csrf": token, "creation_key": key, "game": "bolot", "nickname": "Bot 2"}
    )
    assert refused.status_code == 422
    assert 'id="nickname-error"' in refused.text
    assert 'value="Bot 2"' in refused.text
    assert 'aria-invalid="true"' in refused.text
    assert "tapet_session" not in client.cookies
    # an empty nickname, an unknown game, bot or target: refused, not a 500
    for data in (
        {"game": "bolot", "nickname": "   "},
        {"game": "whist", "nickname": "Pep"},
        {"game": "bolot", "nickname": "Pep", "bot_bolot": "genius"},
        {"game": "bolot", "nickname": "Pep", "target_bolot": "ten"},
        {"game": "botifarra", "nickname": "Pep", "target_botifarra": "77"},
    ):
        answer = await client.post("/play", data={"csrf": token, "creation_key": key, **data})
        assert answer.status_code == 422, (data, answer.status_code)
        assert 'class="field-error"' in answer.text, data
        assert "tapet_session" not in client.cookies, data
    # botifarra's target is 51, 101 or 151 (rules/botifarra.md): 77 is shown next to it
    assert 'id="target_botifarra-error"' in answer.text
    # a form from another site
    assert (await client.post("/play", data={"game": "bolot"})).status_code == 403


async def test_only_taking_a_nickname_shows_the_create_form(client: httpx.AsyncClient) -> None:
    token, key = await _play_form(client)
    answer = await client.post(
        "/play", data={"csrf": token, "creation_key": key, "game": "", "nickname": "Nuri"}
    )
    assert answer.status_code == 303 and answer.headers["location"] == "/"
    page = await client.get("/")
    assert "Nuri" in page.text and 'data-testid="create-room"' in page.text


async def test_only_taking_a_nickname_five_times_at_once_is_one_guest(
    client: httpx.AsyncClient,
) -> None:
    """A new visitor's double tap on "Only take this nickname": every answer signs in the
    one guest (four of five were "Someone playing now is called Nil": a fresh tester)."""
    token, key = await _play_form(client)
    form = {"csrf": token, "creation_key": key, "game": "", "nickname": "Nil"}
    answers = await asyncio.gather(*(client.post("/play", data=form) for _ in range(5)))
    assert [a.status_code for a in answers] == [303] * 5, [a.text[-300:] for a in answers]
    ids = set()
    for answer in answers:
        bearer = {"authorization": f"Bearer {answer.cookies['tapet_session']}"}
        ids.add((await client.get("/api/me", headers=bearer)).json()["id"])
    assert len(ids) == 1


async def test_the_creator_of_a_room_is_seated_in_seat_0(client: httpx.AsyncClient) -> None:
    await _sign_in(client, "Pepa")
    token = await _token(client)
    room_id = _room_of(await client.post("/rooms", data={"game": "bolot", "csrf": token}))
    room = (await client.get(f"/api/rooms/{room_id}")).json()
    assert room["status"] == "open"
    assert [s["kind"] for s in room["seats"]] == ["person", "empty", "empty", "empty"]
    assert room["seats"][0]["name"] == "Pepa"
    # the page says it too: seat 0 is "you"
    page = (await client.get(f"/rooms/{room_id}")).text
    assert re.search(r'data-seat="0".*?tag you', page, re.S)


async def test_create_room_errors_are_next_to_their_field_with_what_was_typed(
    client: httpx.AsyncClient,
) -> None:
    await _sign_in(client, "Pepa")
    token = await _token(client)
    form = {
        "game": "bolot",
        "opt_target": "lots",
        "clock_seconds": "30",
        "spectators_see_hands": "true",
        "csrf": token,
    }
    plain = await client.post("/rooms", data=form)
    assert plain.status_code == 422
    section = plain.text[plain.text.index('id="create-room"') :]
    assert 'id="bolot-opt_target-error"' in section
    assert 'value="lots"' in section  # what was typed stays in the field
    assert re.search(r'<option value="30" selected>', section)
    assert re.search(r'name="spectators_see_hands" value="true"[^>]*checked', section)
    # htmx: the form alone comes back, put in place of the old one
    htmx = await client.post("/rooms", data=form, headers={"HX-Request": "true"})
    assert htmx.status_code == 422
    assert htmx.headers["HX-Retarget"] == "#create-room"
    assert htmx.headers["HX-Reswap"] == "outerHTML"
    assert 'id="bolot-opt_target-error"' in htmx.text and 'value="lots"' in htmx.text
    # a target out of range: the engine's refusal (rules/bolot.md: a whole number), by its field
    form["opt_target"] = "0"
    out = await client.post("/rooms", data=form)
    assert out.status_code == 422 and 'id="bolot-opt_target-error"' in out.text
    assert (await client.get("/api/rooms")).json() == []


# ---------------------------------------------------------------- the empty declaration


async def _to_e_plus_1s_declaration(client: httpx.AsyncClient, table: Table) -> None:
    """tests/tables.py's deal: e takes in round 1, declares nothing and leads 1c; then
    e+1 (7c 8e 9e 10e 11e + 1o 3o 12o: no run, no four; rules/bolot.md §5) is to act
    and owes its declaration, whose only choice is "no declarations"."""
    for action in (
        {"type": "take"},
        {"type": "declare", "combinations": []},
        {"type": "play", "card": "1c"},
    ):
        assert (await move(client, table, table.eldest, action)).status_code == 200
    mine = await view_of(client, table, table.seat(1))
    assert mine["to_act"] == table.seat(1)
    assert [a for a in mine["legal_actions"] if a["type"] == "declare"] == [
        {"type": "declare", "combinations": []}
    ]


async def test_the_table_skips_a_declaration_prompt_whose_only_answer_is_none(
    client: httpx.AsyncClient, table: Table
) -> None:
    await _to_e_plus_1s_declaration(client, table)
    seat = table.seat(1)
    page = await client.get(f"/rooms/{table.room_id}", headers=table.headers[seat])
    assert page.status_code == 200
    assert 'data-testid="declares"' not in page.text
    assert "Your turn to play" in page.text and "Your turn to declare" not in page.text
    # the card (e+1 must follow copes with the 7c, rules/bolot.md §6) stands for the empty
    # declaration: both stored as e+1's own moves, at the same moment
    assert (await move(client, table, seat, {"type": "play", "card": "7c"})).status_code == 200
    log = (await client.get(f"/api/rooms/{table.room_id}/moves")).json()
    declare, card = log[-2], log[-1]
    assert declare["action"] == {"type": "declare", "combinations": []}
    assert card["action"]["card"] == "7c"
    assert declare["actor"] == card["actor"] == seat
    assert declare["at"] == card["at"]


async def test_the_prompt_stays_when_the_room_option_is_off(
    client: httpx.AsyncClient, guest: Guest, fixed_first_deal: list[str]
) -> None:
    headers = [await guest(name) for name in ("Anna", "Berto", "Carme", "Dani")]
    made = await client.post(
        "/api/rooms",
        json={"game": "bolot", "skip_empty_declaration": False},
        headers=headers[0],
    )
    assert made.status_code == 201 and made.json()["skip_empty_declaration"] is False
    room_id = made.json()["id"]
    for seat, h in enumerate(headers):
        await client.put(f"/api/rooms/{room_id}/seats/{seat}", json={}, headers=h)
    await client.post(f"/api/rooms/{room_id}/start", headers=headers[0])
    dealer = (await client.get(f"/api/rooms/{room_id}/view")).json()["dealer"]
    table = Table(room_id, headers, dealer)
    await _to_e_plus_1s_declaration(client, table)
    page = await client.get(f"/rooms/{room_id}", headers=headers[table.seat(1)])
    assert 'data-testid="declares"' in page.text
    assert "Your turn to declare" in page.text


async def test_a_real_choice_of_declaration_is_always_asked(
    client: httpx.AsyncClient, table: Table
) -> None:
    # e holds copes 3-10-11-12-1 (tests/tables.py): a run to declare, so it is asked
    assert (await move(client, table, table.eldest, {"type": "take"})).status_code == 200
    page = await client.get(f"/rooms/{table.room_id}", headers=table.headers[table.eldest])
    assert 'data-testid="declares"' in page.text
    assert "Your turn to declare" in page.text


async def test_the_hint_is_the_card_when_the_empty_declaration_is_not_asked(
    app: Any, client: httpx.AsyncClient, table: Table
) -> None:
    async with app.state.sessionmaker() as db:  # four people: hints at a casual table only
        await db.execute(update(Room).where(Room.id == table.room_id).values(rated=False))
        await db.commit()
    await _to_e_plus_1s_declaration(client, table)
    mine = table.headers[table.seat(1)]
    page = await client.get(f"/rooms/{table.room_id}", headers=mine)
    token = CSRF.search(page.text)
    assert token
    answer = await client.post(
        f"/rooms/{table.room_id}/hint",
        data={"csrf": token.group(1)},
        headers={**mine, "HX-Request": "true"},
    )
    assert answer.status_code == 200, answer.text
    hinted = re.search(r'data-hint-action="([^"]+)"', answer.text)
    assert hinted, answer.text
    # e+1 must follow copes and holds one copa, the 7c (rules/bolot.md §6): the only card
    assert json.loads(html.unescape(hinted.group(1))) == {"type": "play", "card": "7c"}


async def test_the_site_is_installable_on_a_phone(client: httpx.AsyncClient) -> None:
    page = (await client.get("/")).text
    assert '<link rel="manifest" href="/static/manifest.webmanifest">' in page
    answer = await client.get("/static/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/manifest+json")
    manifest = answer.json()
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    pngs = {i["sizes"]: i["src"] for i in manifest["icons"] if i["type"] == "image/png"}
    assert set(pngs) == {"192x192", "512x512"}
    for sizes, src in pngs.items():
        icon = await client.get(src)
        assert icon.status_code == 200 and icon.content[:8] == b"\x89PNG\r\n\x1a\n"
        # the PNG header (IHDR) gives width and height, 4 bytes each, from byte 16
        width = int.from_bytes(icon.content[16:20], "big")
        height = int.from_bytes(icon.content[20:24], "big")
        assert f"{width}x{height}" == sizes
        assert len(icon.content) < 64_000  # small
