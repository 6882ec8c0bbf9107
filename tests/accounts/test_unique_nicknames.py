"""A nickname is unique among the people active now, guests and accounts alike, compared
as it reads (app/accounts/service.py ``nickname_refusal``): "MARTA" is "Marta", "Оlga"
with a Cyrillic О is "Olga". Active now: seated at a table not finished, waiting in the
queue, or signed in within ``TAPET_NICKNAME_ACTIVE_MINUTES``. A guest who registers
keeps their id, so their seats and history."""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta
from typing import Any

import httpx
from sqlalchemy import select, update

from app.accounts import service as accounts
from app.accounts.models import AuthSession, User
from app.core.db import utcnow
from app.rooms import queue
from app.rooms import service as rooms
from app.rooms.models import Room, Seat
from tests.rooms.test_queue import _guests_called, _me
from tests.table.test_pages import _token


async def _guest(client: httpx.AsyncClient, nickname: str) -> httpx.Response:
    answer = await client.post("/api/session", json={"nickname": nickname})
    client.cookies.clear()
    return answer


async def test_the_same_name_in_another_case_is_refused_with_a_suggestion(
    client: httpx.AsyncClient,
) -> None:
    assert (await _guest(client, "Marta")).status_code == 200
    again = await _guest(client, "MARTA")
    assert again.status_code == 409
    assert again.json()["detail"] == (
        "someone playing now is called Marta; choose another nickname, for example MARTA 2"
    )
    assert (await _guest(client, "MARTA 2")).status_code == 200
    # the next suggestion skips the number now taken too
    third = await _guest(client, "marta")
    assert third.json()["detail"].endswith("for example marta 3")


async def test_a_look_alike_of_another_script_is_the_same_name(client: httpx.AsyncClient) -> None:
    assert (await _guest(client, "Olga")).status_code == 200
    cyrillic = await _guest(client, "\u041elga")  # О: CYRILLIC CAPITAL LETTER O
    assert cyrillic.status_code == 409
    accented = await _guest(client, "Ólga")
    assert accented.status_code == 409
    assert (await _guest(client, "Olgа2")).status_code == 200  # another name ("olga2")


async def test_only_people_active_now_hold_their_name(app: Any, client: httpx.AsyncClient) -> None:
    """Signed in more than the window ago and seated nowhere: the name is free again;
    seated at an unfinished table or waiting in the queue: held, however old the session."""
    assert (await _guest(client, "Nuria")).status_code == 200
    assert (await _guest(client, "Pau")).status_code == 200
    assert (await _guest(client, "Quim")).status_code == 200
    async with app.state.sessionmaker() as db:
        old = utcnow() - timedelta(minutes=31)  # the window is 30 minutes by default
        await db.execute(update(AuthSession).values(created_at=old))
        await db.execute(update(User).values(created_at=old))  # and made as long ago
        await db.commit()
        pau = await db.scalar(select(User).where(User.nickname == "Pau"))
        quim = await db.scalar(select(User).where(User.nickname == "Quim"))
        assert pau is not None and quim is not None
        room = await rooms.create_room(db, pau, "bolot", {}, seat=0)  # Pau sits at a table
        await queue.join(db, quim, "belote")  # Quim waits in the queue
    assert (await _guest(client, "nuria")).status_code == 200  # Nuria is not active now
    assert (await _guest(client, "PAU")).status_code == 409
    assert (await _guest(client, "quim")).status_code == 409
    async with app.state.sessionmaker() as db:  # Pau's table is over, Quim left the queue
        await db.execute(update(Room).where(Room.id == room["id"]).values(status="finished"))
        await db.commit()
        await queue.leave(db, quim)
    assert (await _guest(client, "PAU")).status_code == 200
    assert (await _guest(client, "quim")).status_code == 200


async def test_an_account_and_the_registration_form(client: httpx.AsyncClient) -> None:
    answer = await client.post(
        "/api/accounts", json={"username": "rita", "password": "long enough", "nickname": "Rita"}
    )
    assert answer.status_code == 201
    client.cookies.clear()
    assert (await _guest(client, "rita")).status_code == 409  # an account holds it too
    token = await _token(client, "/register")
    page = await client.post(
        "/register",
        data={
            "csrf": token,
            "username": "rita2",
            "nickname": "RITA",
            "password": "long enough",
            "password2": "long enough",
        },
    )
    assert page.status_code == 409
    # the message is next to the nickname field, the alternative offered
    assert 'id="nickname-error"' in page.text and "RITA 2" in page.text


async def test_the_lobby_keeps_the_field_and_says_why(client: httpx.AsyncClient) -> None:
    assert (await _guest(client, "Sara")).status_code == 200
    token = await _token(client)
    page = await client.post("/play", data={"csrf": token, "game": "", "nickname": "sara"})
    assert page.status_code == 409
    assert 'id="nickname-error"' in page.text and "sara 2" in page.text


async def test_a_guest_who_registers_keeps_their_id_seat_and_name(
    app: Any, client: httpx.AsyncClient
) -> None:
    made = await _guest(client, "Tina")
    headers = {"Authorization": f"Bearer {made.json()['token']}"}
    guest_id = made.json()["user"]["id"]
    room = (await client.post("/api/rooms", json={"game": "bolot"}, headers=headers)).json()
    assert (
        await client.put(f"/api/rooms/{room['id']}/seats/1", json={}, headers=headers)
    ).status_code == 200
    # registering under the guest's own nickname is not refused: it is theirs
    registered = await client.post(
        "/api/accounts",
        json={"username": "tina", "password": "long enough"},
        headers=headers,
    )
    assert registered.status_code == 201, registered.text
    assert registered.json()["user"]["id"] == guest_id
    async with app.state.sessionmaker() as db:
        user = await db.get(User, guest_id)
        seat = await db.scalar(select(Seat).where(Seat.room_id == room["id"], Seat.seat == 1))
    assert user is not None and user.kind == "account" and user.nickname == "Tina"
    assert seat is not None and seat.user_id == guest_id


async def test_the_suggestion_fits_in_24_characters() -> None:
    name = "A" * 24
    assert accounts.suggest_nickname(name, {accounts.skeleton(name)}) == "A" * 22 + " 2"


async def test_the_rooms_nickname_form_answers_htmx_with_the_reason(
    client: httpx.AsyncClient,
) -> None:
    """The seats page's nickname form posts with htmx: a taken name comes back as a
    message for the place next to its field, a free one as a redirect."""
    assert (await _guest(client, "Uma")).status_code == 200
    token = await _token(client)
    hx = {"HX-Request": "true"}
    taken = await client.post(
        "/session", data={"csrf": token, "nickname": "UMA", "next": "/"}, headers=hx
    )
    assert taken.status_code == 409 and "UMA 2" in taken.text
    free = await client.post(
        "/session", data={"csrf": token, "nickname": "Uma Bis", "next": "/"}, headers=hx
    )
    assert free.headers["HX-Redirect"] == "/"


async def test_ten_people_taking_one_name_at_once_get_it_once(client: httpx.AsyncClient) -> None:
    """A race (the same new name sent ten times at once, as ten people): one guest gets
    it, the nine others are refused cleanly (409), never two people of one name."""
    answers = await asyncio.gather(*(_guest(client, "Remei") for _ in range(10)))
    assert sorted(a.status_code for a in answers) == [200] + [409] * 9


async def _room_nickname_form(
    client: httpx.AsyncClient, nickname: str, room_id: int | None = None
) -> dict[str, str]:
    """A room (made by someone else unless ``room_id`` is given), and its page's nickname
    form as a new visitor sees it (templates/accounts/_nickname.html): its fields, filled
    with ``nickname``."""
    if room_id is None:
        transport = client._transport
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as host:
            assert (await host.post("/api/session", json={"nickname": "Amfitrió"})).is_success
            made = await host.post("/api/rooms", json={"game": "belote"})
            assert made.is_success, made.text
            room_id = int(made.json()["id"])
    page = (await client.get(f"/rooms/{room_id}")).text
    form = page[page.index('data-testid="nickname-form"') :]
    fields = dict(re.findall(r'name="(csrf|next|creation_key)" value="([^"]*)"', form)[:3])
    assert set(fields) == {"csrf", "next", "creation_key"}, fields
    assert fields["next"] == f"/rooms/{room_id}"
    return {**fields, "nickname": nickname}


async def test_a_double_tap_on_a_rooms_nickname_form_is_one_guest(
    app: Any, client: httpx.AsyncClient
) -> None:
    """The room page's "Play" under a new nickname, sent twice (the browser dropped the
    first answer and its cookie): both answers sign in the one guest the first made, not
    "someone playing now is called" the visitor's own name."""
    form = await _room_nickname_form(client, "Vicenta")
    pre = dict(client.cookies)
    first = await client.post("/session", data=form)
    client.cookies.clear()
    client.cookies.update(pre)
    second = await client.post("/session", data=form)
    assert first.status_code == second.status_code == 303, second.text
    assert second.headers["location"] == form["next"]
    assert (await _me(client, first))["id"] == (await _me(client, second))["id"]
    assert len(await _guests_called(app, "Vicenta")) == 1
    # another browser under that name is still refused, with its own form's key and with
    # this one's (read off this page: the key is tied to the browser that was shown it)
    async with httpx.AsyncClient(transport=client._transport, base_url="http://testserver") as b:
        room_id = int(form["next"].rsplit("/", 1)[1])
        own = await _room_nickname_form(b, "Vicenta", room_id)
        for key in (own["creation_key"], form["creation_key"]):
            other = await b.post("/session", data={**own, "creation_key": key})
            assert other.status_code == 409, other.text
            assert "tapet_session" not in b.cookies


async def test_a_rooms_nickname_form_sent_five_times_at_once_is_one_guest(
    app: Any, client: httpx.AsyncClient
) -> None:
    form = await _room_nickname_form(client, "Batiste")
    answers = await asyncio.gather(*(client.post("/session", data=form) for _ in range(5)))
    assert [a.status_code for a in answers] == [303] * 5, [a.text[:300] for a in answers]
    guests = await _guests_called(app, "Batiste")
    assert len(guests) == 1
    assert [(await _me(client, a))["id"] for a in answers] == guests * 5
