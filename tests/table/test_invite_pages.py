"""The pages of invitations (app/table/invite_pages.py): the lobby's code field, the link
that remembers the code, a visitor taking an offered seat, the owner's share panel and
the refusal of a private room, driven in process with httpx as a browser without
JavaScript would."""

from __future__ import annotations

import re

import httpx

from tests.table.test_pages import _sign_in, _token

CODE = re.compile(r'data-testid="share-code">([A-Z0-9]{3})-([A-Z0-9]{3})<')


async def _room(client: httpx.AsyncClient, private: bool) -> int:
    token = await _token(client)
    form = {"game": "bolot", "opt_target": "1500", "csrf": token}
    if private:
        form["private"] = "true"
    made = await client.post("/rooms", data=form)
    assert made.status_code == 303, made.text
    return int(made.headers["location"].rsplit("/", 1)[1])


async def _share_code(client: httpx.AsyncClient, room_id: int) -> str:
    page = await client.get(f"/rooms/{room_id}")
    assert page.status_code == 200
    found = CODE.search(page.text)
    assert found, "the owner's page shows no code"
    return found.group(1) + found.group(2)


async def test_the_lobby_has_the_code_field_and_a_bad_code_is_told_next_to_it(
    client: httpx.AsyncClient,
) -> None:
    lobby = await client.get("/")
    assert 'data-testid="lobby-join-code"' in lobby.text and 'action="/join"' in lobby.text
    empty = await client.get("/join", params={"code": "  "})
    assert empty.status_code == 422
    assert 'id="join-code-error"' in empty.text and "Type the code of the table" in empty.text
    unknown = await client.get("/join", params={"code": "zzz-zz2"})
    assert unknown.status_code == 404
    assert "No table has this code" in unknown.text
    assert 'value="zzz-zz2"' in unknown.text  # what was typed is kept


async def test_a_private_room_made_by_the_form_is_refused_then_opened_by_its_code(
    client: httpx.AsyncClient,
) -> None:
    await _sign_in(client, "Host")
    room_id = await _room(client, private=True)
    assert (await client.get(f"/api/rooms/{room_id}")).json()["private"] is True
    code = await _share_code(client, room_id)
    lobby = await client.get("/rooms/list")
    assert f'href="/rooms/{room_id}"' not in lobby.text

    client.cookies.clear()  # a visitor, with nothing
    refused = await client.get(f"/rooms/{room_id}")
    assert refused.status_code == 403
    assert "This table is private" in refused.text and 'name="code"' in refused.text
    assert 'data-testid="share-code"' not in refused.text
    typed = await client.get("/join", params={"code": f"{code[:3].lower()}-{code[3:].lower()}"})
    assert typed.status_code == 303 and typed.headers["location"] == f"/join/{code}"
    link = await client.get(f"/join/{code}")
    assert link.status_code == 303 and link.headers["location"] == f"/rooms/{room_id}"
    assert code in (client.cookies.get("tapet_codes") or "")
    opened = await client.get(f"/rooms/{room_id}")
    assert opened.status_code == 200
    # a spectator of a private room with the code sees no share code: only players share it
    assert 'data-testid="share-code"' not in opened.text


async def test_a_visitor_opens_the_link_gives_a_nickname_and_lands_in_the_offered_seat(
    client: httpx.AsyncClient,
) -> None:
    await _sign_in(client, "Host")
    room_id = await _room(client, private=False)
    code = await _share_code(client, room_id)
    token = await _token(client, f"/rooms/{room_id}")
    offer = await client.post(f"/rooms/{room_id}/offers/2", data={"csrf": token, "offered": "1"})
    assert offer.status_code == 303 and offer.headers["location"] == f"/rooms/{room_id}?share=1"
    panel = await client.get(f"/rooms/{room_id}?share=1")
    assert 'data-testid="offered-2"' in panel.text and 'data-testid="withdraw-2"' in panel.text

    client.cookies.clear()
    invited = await client.get(f"/join/{code}")
    assert invited.status_code == 200
    assert 'data-testid="take-offer-2"' in invited.text and 'name="nickname"' in invited.text
    token = re.search(r'name="csrf" value="([0-9a-f]+)"', invited.text)
    assert token
    taken = await client.post(
        f"/join/{code}", data={"csrf": token.group(1), "seat": "2", "nickname": "Marta"}
    )
    assert taken.status_code == 303, taken.text
    assert taken.headers["location"] == f"/rooms/{room_id}"
    seat = (await client.get(f"/api/rooms/{room_id}")).json()["seats"][2]
    assert (seat["kind"], seat["name"], seat["offered"]) == ("person", "Marta", False)
    # the form sent again (now with Marta's session): the same seat, to the table again
    fresh = await _token(client, f"/rooms/{room_id}")
    again = await client.post(f"/join/{code}", data={"csrf": fresh, "seat": "2"})
    assert again.status_code == 303 and again.headers["location"] == f"/rooms/{room_id}"
    # the link again: Marta is seated, straight to the table
    link = await client.get(f"/join/{code}")
    assert link.status_code == 303 and link.headers["location"] == f"/rooms/{room_id}"


async def test_a_second_person_on_a_taken_offer_gets_a_clear_message(
    client: httpx.AsyncClient,
) -> None:
    await _sign_in(client, "Host")
    room_id = await _room(client, private=False)
    code = await _share_code(client, room_id)
    token = await _token(client, f"/rooms/{room_id}")
    await client.post(f"/rooms/{room_id}/offers/1", data={"csrf": token, "offered": "1"})
    client.cookies.clear()
    await _sign_in(client, "First")
    token = await _token(client, f"/join/{code}")
    assert (
        await client.post(f"/join/{code}", data={"csrf": token, "seat": "1"})
    ).status_code == 303
    client.cookies.clear()
    await _sign_in(client, "Second")
    late = await client.get(f"/join/{code}")
    assert late.status_code == 303  # nothing offered any more: the table
    token = await _token(client, f"/rooms/{room_id}")
    refused = await client.post(f"/join/{code}", data={"csrf": token, "seat": "1"})
    assert refused.status_code == 409
    assert "Someone took this seat before you." in refused.text


async def test_a_spectator_of_a_public_room_shares_its_address_only(
    client: httpx.AsyncClient,
) -> None:
    await _sign_in(client, "Host")
    room_id = await _room(client, private=False)
    client.cookies.clear()
    page = await client.get(f"/rooms/{room_id}")
    assert 'data-testid="share"' in page.text
    assert f'value="http://testserver/rooms/{room_id}"' in page.text
    assert 'data-testid="share-code"' not in page.text and "offer-" not in page.text


async def test_only_the_owner_offers_a_seat_by_the_form(client: httpx.AsyncClient) -> None:
    await _sign_in(client, "Host")
    room_id = await _room(client, private=False)
    client.cookies.clear()
    await _sign_in(client, "Other")
    token = await _token(client, f"/rooms/{room_id}")
    refused = await client.post(f"/rooms/{room_id}/offers/1", data={"csrf": token, "offered": "1"})
    assert refused.status_code == 403
    assert "Only the table&#39;s owner may do this." in refused.text
    forged = await client.post(f"/rooms/{room_id}/offers/1", data={"csrf": "0" * 32})
    assert forged.status_code == 403
    assert (await client.get(f"/api/rooms/{room_id}")).json()["seats"][1]["offered"] is False


async def test_a_private_room_by_its_address_and_code_remembers_the_code(
    client: httpx.AsyncClient,
) -> None:
    await _sign_in(client, "Host")
    room_id = await _room(client, private=True)
    code = await _share_code(client, room_id)
    client.cookies.clear()
    await _sign_in(client, "Guest")
    token = await _token(client, "/")
    # without the code a stranger may not sit down by the page's form either
    sit = await client.post(f"/rooms/{room_id}/seats/1", data={"csrf": token})
    assert sit.status_code == 403
    assert (await client.get(f"/api/rooms/{room_id}")).status_code == 403
    opened = await client.get(f"/rooms/{room_id}", params={"code": code.lower()})
    assert opened.status_code == 200
    assert code in (client.cookies.get("tapet_codes") or "")
    assert (await client.get(f"/rooms/{room_id}")).status_code == 200  # the cookie now
    sit = await client.post(f"/rooms/{room_id}/seats/1", data={"csrf": token})
    assert sit.status_code == 303
    seat = (await client.get(f"/api/rooms/{room_id}")).json()["seats"][1]
    assert seat["name"] == "Guest"


def test_the_lobby_marks_my_playing_championship_table_and_nobody_else_s() -> None:
    from app.web.templating import templates

    room = {
        "id": 7,
        "game": "bolot",
        "game_name": "Bolot",
        "status": "playing",
        "rated": False,
        "seats": [
            {"seat": n, "kind": "person", "name": f"P{n}", "user_id": 10 + n} for n in range(4)
        ],
        "scores": [0, 0],
        "target": 1000,
        "match": None,
        "spectators": 0,
        "tournament": {"tournament_id": 1, "tournament": "Falles", "round": 1, "table": 2},
    }
    html = templates.get_template("rooms/_room_list.html").render(
        rooms=[room], user=type("U", (), {"id": 12})(), status_words={}
    )
    assert 'data-testid="your-table"' in html and "data-table-ready=" in html
    other = templates.get_template("rooms/_room_list.html").render(
        rooms=[room], user=type("U", (), {"id": 99})(), status_words={}
    )
    assert "your-table" not in other
    casual = dict(room, tournament=None)
    plain = templates.get_template("rooms/_room_list.html").render(
        rooms=[casual], user=type("U", (), {"id": 12})(), status_words={}
    )
    assert "your-table" not in plain


async def test_the_lobby_lists_my_private_tables_to_me_only(client: httpx.AsyncClient) -> None:
    await _sign_in(client, "Host")
    room_id = await _room(client, private=True)
    mine = await client.get("/")
    assert 'data-testid="my-private"' in mine.text
    assert f'<a href="/rooms/{room_id}">Bolot #{room_id}</a>' in mine.text
    client.cookies.clear()
    await _sign_in(client, "Other")
    other = await client.get("/")
    assert 'data-testid="my-private"' not in other.text
    assert f'href="/rooms/{room_id}"' not in other.text


async def test_fill_with_bots_leaves_the_offered_seat_for_the_invited(
    client: httpx.AsyncClient,
) -> None:
    await _sign_in(client, "Host")
    room_id = await _room(client, private=False)
    token = await _token(client, f"/rooms/{room_id}")
    await client.post(f"/rooms/{room_id}/offers/3", data={"csrf": token, "offered": "1"})
    filled = await client.post(f"/rooms/{room_id}/bots", data={"csrf": token, "bot": "random"})
    assert filled.status_code == 303
    kinds = [s["kind"] for s in (await client.get(f"/api/rooms/{room_id}")).json()["seats"]]
    assert kinds == ["person", "bot", "bot", "empty"]
    page = await client.get(f"/rooms/{room_id}")
    assert 'data-testid="seat-offered-3"' in page.text
    assert 'data-testid="take-seat-3"' not in page.text
