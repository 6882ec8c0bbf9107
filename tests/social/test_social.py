"""Friends and presence (app/social, issue 18 §3, §5): following is idempotent (twenty at
once leave one row), refused for oneself and hidden profiles; the Following list shows
who is online now and at which lobby-listed table, never for a person who hid their
online status; presence is written at most once per 30 s per person and worker and is
read by another worker. On PostgreSQL when ``DATABASE_URL`` says so (CI), else SQLite."""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta
from typing import Any

import httpx
from sqlalchemy import func, select, update

from app.accounts.models import User
from app.core.db import as_utc, utcnow
from app.core.settings import Settings
from app.main import create_app
from app.rooms.models import Room
from app.social import presence
from app.social.models import Follow
from tests.conftest import Guest, empty_tables
from tests.table.test_pages import _sign_in, _token


def _uid(client_headers: dict[str, str]) -> int:
    from app.accounts.service import user_id_from_token

    uid = user_id_from_token(client_headers["Authorization"].split(" ", 1)[1])
    assert uid is not None
    return uid


async def _follows(app: Any) -> list[tuple[int, int]]:
    async with app.state.sessionmaker() as db:
        rows = (await db.execute(select(Follow.follower_id, Follow.followed_id))).all()
    return sorted((a, b) for a, b in rows)


async def _set(app: Any, uid: int, **values: Any) -> None:
    async with app.state.sessionmaker() as db:
        await db.execute(update(User).where(User.id == uid).values(**values))
        await db.commit()


async def _seated_room(client: httpx.AsyncClient, headers: dict[str, str]) -> int:
    """A Bolot room (four seats) where ``headers``' person sits at seat 0: three free."""
    room = await client.post("/api/rooms", json={"game": "bolot", "options": {}}, headers=headers)
    assert room.status_code == 201, room.text
    room_id = room.json()["id"]
    sat = await client.put(f"/api/rooms/{room_id}/seats/0", json={}, headers=headers)
    assert sat.status_code == 200, sat.text
    return int(room_id)


async def test_twenty_follows_at_once_leave_one_row(
    app: Any, client: httpx.AsyncClient, guest: Guest
) -> None:
    ana, ben = await guest("Ana"), await guest("Ben")
    answers = await asyncio.gather(
        *(client.put(f"/api/players/{_uid(ben)}/follow", headers=ana) for _ in range(20))
    )
    assert [a.status_code for a in answers] == [200] * 20
    assert sum(a.json()["new"] for a in answers) == 1  # one insert, nineteen no-ops
    assert await _follows(app) == [(_uid(ana), _uid(ben))]
    # unfollowing twice: one row goes, the second call changes nothing
    first = await client.delete(f"/api/players/{_uid(ben)}/follow", headers=ana)
    second = await client.delete(f"/api/players/{_uid(ben)}/follow", headers=ana)
    assert first.json() == {"following": False, "removed": True}
    assert second.json() == {"following": False, "removed": False}
    assert await _follows(app) == []


async def test_following_is_refused_for_oneself_a_hidden_profile_and_nobody(
    app: Any, client: httpx.AsyncClient, guest: Guest
) -> None:
    ana, ben = await guest("Ana"), await guest("Ben")
    me = await client.put(f"/api/players/{_uid(ana)}/follow", headers=ana)
    assert me.status_code == 403 and me.json()["detail"] == "you cannot follow yourself"
    await _set(app, _uid(ben), profile_hidden=True)
    hidden = await client.put(f"/api/players/{_uid(ben)}/follow", headers=ana)
    assert hidden.status_code == 403
    assert hidden.json()["detail"] == "this profile is private: it cannot be followed"
    nobody = await client.put("/api/players/999999/follow", headers=ana)
    assert nobody.status_code == 404
    # unfollowing nobody says so too (a fresh tester got a Follow button back)
    assert (await client.delete("/api/players/999999/follow", headers=ana)).status_code == 404
    anonymous = await client.put(f"/api/players/{_uid(ben)}/follow")
    assert anonymous.status_code == 401
    await _sign_in(client, "Cai")  # the pages' own visitor
    token = await _token(client)
    made_up = await client.post(
        "/players/999999/follow",
        data={"csrf": token, "follow": "false"},
        headers={"HX-Request": "true"},
    )
    assert made_up.status_code == 404 and 'data-testid="follow"' not in made_up.text
    button = await client.get("/players/999999/follow")  # no button to follow nobody
    assert button.status_code == 404 and 'data-testid="follow"' not in button.text
    assert await _follows(app) == []


async def test_a_guest_who_follows_keeps_it_after_registering(
    app: Any, client: httpx.AsyncClient, guest: Guest
) -> None:
    ben = await guest("Ben")
    await _sign_in(client, "Ana")
    token = await _token(client, f"/players/{_uid(ben)}")
    done = await client.post(f"/players/{_uid(ben)}/follow", data={"csrf": token, "follow": "true"})
    assert done.status_code == 303 and done.headers["location"] == f"/players/{_uid(ben)}"
    token = await _token(client, "/register")
    registered = await client.post(
        "/register",
        data={
            "csrf": token,
            "username": "ana.r",
            "password": "a long password",
            "password2": "a long password",
            "nickname": "Ana",
            "next": "/following",
        },
    )
    assert registered.status_code == 303
    page = await client.get("/following")
    assert f'data-testid="followed-{_uid(ben)}"' in page.text and ">Ben</a>" in page.text


async def test_the_following_page_shows_who_is_online_and_at_which_table(
    app: Any, client: httpx.AsyncClient, guest: Guest
) -> None:
    ana, ben, cai, dan = [await guest(n) for n in ("Ana", "Ben", "Cai", "Dan")]
    for other in (ben, cai, dan):
        assert (await client.put(f"/api/players/{_uid(other)}/follow", headers=ana)).status_code
    ben_room = await _seated_room(client, ben)  # Ben sits alone at a room of four: 3 free
    await _seated_room(client, cai)  # Cai too, but hides his online status
    await _set(app, _uid(cai), presence_hidden=True)
    await _set(app, _uid(dan), seen_at=utcnow() - timedelta(minutes=10))  # Dan left long ago
    listed = (await client.get("/api/following", headers=ana)).json()["people"]
    by_name = {p["nickname"]: p for p in listed}
    assert [p["nickname"] for p in listed] == ["Ben", "Cai", "Dan"]  # online first
    assert by_name["Ben"]["online"] is True
    assert by_name["Ben"]["table"] == {
        "id": ben_room,
        "game": "bolot",
        "game_name": "Bolot",
        "status": "open",
        "free": 3,
        "bots": 0,
    }
    assert by_name["Cai"]["online"] is False and by_name["Cai"]["table"] is None
    assert by_name["Dan"]["online"] is False and by_name["Dan"]["table"] is None
    # a hidden profile is not listed at all (even though Ana followed it before)
    await _set(app, _uid(dan), profile_hidden=True)
    listed = (await client.get("/api/following", headers=ana)).json()["people"]
    assert [p["nickname"] for p in listed] == ["Ben", "Cai"]
    # the page: Ben online with a join link; Cai's room is named nowhere
    page = (await client.get("/following", headers=ana)).text
    ben_item = page.split(f'data-testid="followed-{_uid(ben)}"')[1].split("</li>")[0]
    cai_item = page.split(f'data-testid="followed-{_uid(cai)}"')[1].split("</li>")[0]
    assert 'data-testid="online"' in ben_item and f'href="/rooms/{ben_room}"' in ben_item
    assert 'data-testid="offline"' in cai_item and "/rooms/" not in cai_item
    # a finished room is no table any more (the lobby does not list it)
    async with app.state.sessionmaker() as db:
        await db.execute(update(Room).where(Room.id == ben_room).values(status="finished"))
        await db.commit()
    listed = (await client.get("/api/following", headers=ana)).json()["people"]
    assert listed[0]["nickname"] == "Ben" and listed[0]["table"] is None


async def test_invite_to_my_table_gives_the_rooms_link(
    app: Any, client: httpx.AsyncClient, guest: Guest
) -> None:
    ana, ben = await guest("Ana"), await guest("Ben")
    await client.put(f"/api/players/{_uid(ben)}/follow", headers=ana)
    before = (await client.get("/following", headers=ana)).text
    assert 'data-testid="my-table"' not in before  # Ana sits nowhere yet
    room = await _seated_room(client, ana)
    await client.get("/api/following", headers=ben)  # Ben is online
    page = (await client.get("/following", headers=ana)).text
    assert f'value="http://testserver/rooms/{room}"' in page
    assert f'data-testid="invite-{_uid(ben)}"' in page


async def test_a_hidden_online_status_leaks_nowhere(
    app: Any, client: httpx.AsyncClient, guest: Guest
) -> None:
    ana, ben = await guest("Ana"), await guest("Ben")
    await client.put(f"/api/players/{_uid(ben)}/follow", headers=ana)
    room = await _seated_room(client, ben)
    hidden = await client.put("/api/account/presence", json={"hidden": True}, headers=ben)
    assert hidden.json() == {"hidden": True}
    await client.get("/", headers=ben)  # Ben is active right now
    listed = (await client.get("/api/following", headers=ana)).json()["people"]
    assert listed == [
        {"id": _uid(ben), "nickname": "Ben", "kind": "guest", "online": False, "table": None}
    ]
    page = (await client.get("/following", headers=ana)).text
    assert f"/rooms/{room}" not in page and 'data-testid="online"' not in page
    shown = await client.put("/api/account/presence", json={"hidden": False}, headers=ben)
    assert shown.json() == {"hidden": False}
    listed = (await client.get("/api/following", headers=ana)).json()["people"]
    assert listed[0]["online"] is True and listed[0]["table"]["id"] == room


async def test_many_requests_write_seen_at_once_per_interval(
    app: Any, client: httpx.AsyncClient, guest: Guest
) -> None:
    ana = await guest("Ana")
    people: presence.People = app.state.people
    start = people.writes
    for _ in range(50):
        await client.get("/api/rooms", headers=ana)
    assert people.writes - start == 1  # fifty requests, one UPDATE
    # after the interval, one more
    people.throttle._last = {k: v - presence.TOUCH_EVERY for k, v in people.throttle._last.items()}
    await client.get("/api/rooms", headers=ana)
    assert people.writes - start == 2


async def test_a_revoked_token_marks_nobody_online(
    app: Any, client: httpx.AsyncClient, guest: Guest
) -> None:
    ana = await guest("Ana")
    await _set(app, _uid(ana), seen_at=None)
    app.state.people.throttle.forget([_uid(ana)])
    out = await client.post("/api/logout", headers=ana)
    assert out.status_code in (200, 204), out.text
    await _set(app, _uid(ana), seen_at=None)
    app.state.people.throttle.forget([_uid(ana)])
    await client.get("/api/rooms", headers=ana)  # the dead token
    async with app.state.sessionmaker() as db:
        assert await db.scalar(select(User.seen_at).where(User.id == _uid(ana))) is None


async def test_presence_crosses_two_workers(settings: Settings) -> None:
    """Two apps on one database (two workers): a person who makes a request to the first,
    or holds a socket open on it, is seen online by the second."""
    await empty_tables(settings.db_url())
    first, second = create_app(settings), create_app(settings)
    async with first.router.lifespan_context(first), second.router.lifespan_context(second):
        one = httpx.AsyncClient(transport=httpx.ASGITransport(app=first), base_url="http://a")
        two = httpx.AsyncClient(transport=httpx.ASGITransport(app=second), base_url="http://b")
        async with one, two:
            ben = (await one.post("/api/session", json={"nickname": "Ben"})).json()["token"]
            one.cookies.clear()
            ana = (await two.post("/api/session", json={"nickname": "Ana"})).json()["token"]
            two.cookies.clear()
            ben_h, ana_h = {"Authorization": f"Bearer {ben}"}, {"Authorization": f"Bearer {ana}"}
            ben_id = _uid(ben_h)
            await two.put(f"/api/players/{ben_id}/follow", headers=ana_h)
            # Ben was last seen long ago: offline for everyone
            await _set(first, ben_id, seen_at=utcnow() - timedelta(minutes=10))
            listed = (await two.get("/api/following", headers=ana_h)).json()["people"]
            assert listed[0]["online"] is False
            # a request to the first worker: the second sees him online
            first.state.people.throttle.forget([ben_id])
            await one.get("/api/rooms", headers=ben_h)
            listed = (await two.get("/api/following", headers=ana_h)).json()["people"]
            assert listed[0]["online"] is True
            # long after, only a socket open on the first worker: its heartbeat keeps him on
            await _set(first, ben_id, seen_at=utcnow() - timedelta(minutes=10))
            first.state.people.throttle.forget([ben_id])
            room_id = await _seated_room(one, ben_h)
            await _set(first, ben_id, seen_at=utcnow() - timedelta(minutes=10))
            first.state.people.throttle.forget([ben_id])
            with first.state.hub.presence.watching(room_id, ben_id):
                assert await first.state.people.beat() == 1  # one UPDATE for the socket people
                assert await first.state.people.beat() == 0  # not due again within 30 s
            listed = (await two.get("/api/following", headers=ana_h)).json()["people"]
            assert listed[0]["online"] is True and listed[0]["table"]["id"] == room_id
            # the second worker's own heartbeat has nobody to write
            assert await second.state.people.beat() == 0


async def test_the_player_page_follow_button_and_account_setting(
    app: Any, client: httpx.AsyncClient, guest: Guest
) -> None:
    ben = await guest("Ben")
    await _sign_in(client, "Ana")
    page = await client.get(f"/players/{_uid(ben)}")
    assert 'data-testid="follow-slot"' in page.text
    button = await client.get(f"/players/{_uid(ben)}/follow")
    assert 'data-testid="follow"' in button.text
    token = await _token(client, f"/players/{_uid(ben)}")
    swapped = await client.post(
        f"/players/{_uid(ben)}/follow",
        data={"csrf": token, "follow": "true"},
        headers={"HX-Request": "true"},
    )
    assert swapped.status_code == 200 and 'data-testid="unfollow"' in swapped.text
    again = await client.post(
        f"/players/{_uid(ben)}/follow",
        data={"csrf": token, "follow": "true"},
        headers={"HX-Request": "true"},
    )
    assert again.status_code == 200
    assert (await client.get(f"/players/{_uid(ben)}/follow")).text.count(
        'data-testid="unfollow"'
    ) == 1
    async with app.state.sessionmaker() as db:
        assert await db.scalar(select(func.count()).select_from(Follow)) == 1
    # a hidden profile: refused with the message
    await _set(app, _uid(ben), profile_hidden=True)
    refused = await client.post(
        f"/players/{_uid(ben)}/follow",
        data={"csrf": token, "follow": "true"},
        headers={"HX-Request": "true"},
    )
    assert refused.status_code == 403
    assert "This profile is private: it cannot be followed." in refused.text
    bad = await client.post(f"/players/{_uid(ben)}/follow", data={"csrf": "x", "follow": "true"})
    assert bad.status_code == 403
    # the account page's setting
    account = await client.get("/account")
    assert 'data-testid="presence-form"' in account.text
    token = await _token(client, "/account")
    saved = await client.post("/account/presence", data={"csrf": token, "hidden": "true"})
    assert saved.status_code == 303 and saved.headers["location"] == "/account"
    assert re.search(
        r'name="hidden" value="true" checked> [^<]*online', (await client.get("/account")).text
    )


async def test_opening_a_socket_marks_its_person_seen(live_server: str, settings: Settings) -> None:
    """A socket's connect counts as being seen (the middleware sees websockets too); a
    socket without a token marks nobody."""
    import websockets

    from app.core.db import make_engine

    async with httpx.AsyncClient(base_url=live_server) as http:
        ben = {
            "Authorization": f"Bearer {(await http.post('/api/session', json={'nickname': 'Ben'})).json()['token']}"
        }
        http.cookies.clear()
        room = await _seated_room(http, ben)
        # Cai got his token without any request carrying it: never seen yet
        cai = (await http.post("/api/session", json={"nickname": "Cai"})).json()["token"]
        http.cookies.clear()
    cai_id = _uid({"Authorization": f"Bearer {cai}"})
    engine = make_engine(settings.db_url())

    async def seen() -> Any:
        async with engine.connect() as conn:
            return (await conn.execute(select(User.seen_at).where(User.id == cai_id))).scalar()

    try:
        assert await seen() is None
        ws_url = live_server.replace("http://", "ws://") + f"/api/rooms/{room}/ws"
        async with websockets.connect(ws_url) as spectator:  # no token: nobody
            await spectator.recv()
        assert await seen() is None
        async with websockets.connect(f"{ws_url}?token={cai}") as socket:
            await socket.recv()
            at = await seen()
        assert at is not None and utcnow() - timedelta(seconds=60) < as_utc(at) <= utcnow()
    finally:
        await engine.dispose()


async def test_a_registered_block_list_stops_following_and_listing(
    app: Any, client: httpx.AsyncClient, guest: Guest
) -> None:
    """The hook point for the chat feature's blocks (service.BLOCKS): a blocked pair cannot
    follow, and an earlier follow is not listed, with the words of a hidden profile."""
    from app.social import service

    ana, ben, cai = await guest("Ana"), await guest("Ben"), await guest("Cai")
    await client.put(f"/api/players/{_uid(ben)}/follow", headers=ana)
    pair = (_uid(ana), _uid(ben))

    async def blocked_pairs(_db: Any, ids: list[int]) -> set[tuple[int, int]]:
        return {pair} if set(pair) <= set(ids) else set()

    service.BLOCKS.append(blocked_pairs)
    try:
        listed = (await client.get("/api/following", headers=ana)).json()["people"]
        assert listed == []
        again = await client.put(f"/api/players/{_uid(ben)}/follow", headers=ana)
        assert again.status_code == 403
        assert again.json()["detail"] == "this profile is private: it cannot be followed"
        other = await client.put(f"/api/players/{_uid(cai)}/follow", headers=ana)
        assert other.status_code == 200  # Cai is not blocked
    finally:
        service.BLOCKS.remove(blocked_pairs)


async def test_a_block_made_in_the_chat_stops_following(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    """The chat's block list is the one the social pages use (app/chat/wiring.py): Ben
    blocks Ana through the chat's API; Ana can no longer follow him, nor he her."""
    ana, ben = await guest("Ana"), await guest("Ben")
    blocked = await client.put(f"/api/people/{_uid(ana)}/block", headers=ben)
    assert blocked.status_code in (200, 204), blocked.text
    refused = await client.put(f"/api/players/{_uid(ben)}/follow", headers=ana)
    assert refused.status_code == 403
    back = await client.put(f"/api/players/{_uid(ana)}/follow", headers=ben)
    assert back.status_code == 403
