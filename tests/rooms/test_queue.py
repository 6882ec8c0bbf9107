"""Quick play with people (app/rooms/queue.py): the queue seats waiting people together,
a partner entry's two people opposite each other (seats 0 and 2, or 1 and 3: partners
sit across the table, rules/bolot.md §1), bots in the seats left once a wait runs out;
one entry per person however often they join; two workers never put a person in two
rooms. On PostgreSQL when ``DATABASE_URL`` says so (CI), else SQLite."""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select, update

from app.accounts import service as accounts
from app.accounts.models import User
from app.core.errors import Conflict, NotFound, Unprocessable
from app.core.settings import Settings
from app.main import create_app
from app.rooms import queue
from app.rooms.models import QueueEntry, Room, Seat
from tests.conftest import empty_tables, limited_app
from tests.table.test_pages import _sign_in, _token


async def _people(app: Any, *names: str) -> list[User]:
    async with app.state.sessionmaker() as db:
        return [await accounts.create_guest(db, n) for n in names]


async def _seats(app: Any, room_id: int) -> dict[int, tuple[int | None, str | None]]:
    async with app.state.sessionmaker() as db:
        rows = await db.scalars(select(Seat).where(Seat.room_id == room_id))
        return {s.seat: (s.user_id, s.bot) for s in rows}


async def _join(app: Any, user: User, game: str, **kw: Any) -> dict[str, Any]:
    async with app.state.sessionmaker() as db:
        return await queue.join(db, user, game, **kw)


async def _entries(app: Any) -> int:
    async with app.state.sessionmaker() as db:
        return int(await db.scalar(select(func.count()).select_from(QueueEntry)) or 0)


async def test_two_people_for_a_game_of_two_are_seated_together(app: Any) -> None:
    ana, ben = await _people(app, "Ana", "Ben")
    first = await _join(app, ana, "belote-2p")
    assert first["room_id"] is None and first["waiting"] == 1
    second = await _join(app, ben, "belote-2p")
    room_id = second["room_id"]
    assert room_id is not None
    async with app.state.sessionmaker() as db:
        again = await queue.status(db, ana)
        room = await db.get(Room, room_id)
    assert again is not None and again["room_id"] == room_id  # Ana's page goes there too
    assert room is not None and room.status == "playing" and room.game == "belote-2p"
    seats = await _seats(app, room_id)
    assert {seats[0][0], seats[1][0]} == {ana.id, ben.id}
    assert all(bot is None for _, bot in seats.values())


async def test_a_wait_that_runs_out_fills_the_empty_seats_with_bots(app: Any) -> None:
    (ana,) = await _people(app, "Ana")
    state = await _join(app, ana, "bolot", wait_seconds=1)
    assert state["room_id"] is None  # nobody else, the wait is not over
    await asyncio.sleep(1.1)
    async with app.state.sessionmaker() as db:
        ticked = await queue.tick(db, ana)
    assert ticked is not None and ticked["room_id"] is not None
    seats = await _seats(app, ticked["room_id"])
    # Ana in seat 0, the three others bots of the entry's level
    assert seats[0] == (ana.id, None)
    assert [seats[n] for n in (1, 2, 3)] == [(None, queue.BOT)] * 3


async def test_a_partner_entry_seats_the_partners_opposite_each_other(app: Any) -> None:
    ana, ben = await _people(app, "Ana", "Ben")
    mine = await _join(app, ana, "contree", preset="coinche", partner=True, wait_seconds=0)
    # a partner entry is not matched before the partner joins, whatever the wait
    assert mine["room_id"] is None and mine["partner_ready"] is False
    code = mine["partner_code"]
    assert re.fullmatch(f"[{queue.CODE_ALPHABET}]{{{queue.CODE_LENGTH}}}", code)
    async with app.state.sessionmaker() as db:
        joined = await queue.join_partner(db, ben, code.lower())  # the code in any case
    assert joined["room_id"] is not None
    seats = await _seats(app, joined["room_id"])
    # partners are seats 0 and 2; the opponents (1 and 3) are bots after a wait of 0 s
    assert seats[0] == (ana.id, None) and seats[2] == (ben.id, None)
    assert seats[1] == (None, queue.BOT) and seats[3] == (None, queue.BOT)
    async with app.state.sessionmaker() as db:
        room = await db.get(Room, joined["room_id"])
    assert room is not None and room.options["preset"] == "coinche"


async def test_two_partner_entries_and_two_pairs_of_partners(app: Any) -> None:
    """Two pairs fill a table of four: the first pair in 0 and 2, the second in 1 and 3."""
    ana, ben, cai, dan = await _people(app, "Ana", "Ben", "Cai", "Dan")
    a = await _join(app, ana, "belote", partner=True)
    async with app.state.sessionmaker() as db:
        await queue.join_partner(db, ben, a["partner_code"])
    c = await _join(app, cai, "belote", partner=True)
    async with app.state.sessionmaker() as db:
        done = await queue.join_partner(db, dan, c["partner_code"])
    assert done["room_id"] is not None
    seats = await _seats(app, done["room_id"])
    assert seats == {0: (ana.id, None), 2: (ben.id, None), 1: (cai.id, None), 3: (dan.id, None)}


async def test_a_pair_and_two_singles_make_a_table_and_a_single_waits(app: Any) -> None:
    ana, ben, cai, dan = await _people(app, "Ana", "Ben", "Cai", "Dan")
    await _join(app, cai, "bolot")
    a = await _join(app, ana, "bolot", partner=True)
    async with app.state.sessionmaker() as db:
        paired = await queue.join_partner(db, ben, a["partner_code"])
    assert paired["room_id"] is None  # three people: not a table yet
    full = await _join(app, dan, "bolot")
    seats = await _seats(app, full["room_id"])
    # Cai came first but is alone: the pair takes 0 and 2, the singles 1 and 3
    assert seats[0][0] == ana.id and seats[2][0] == ben.id
    assert {seats[1][0], seats[3][0]} == {cai.id, dan.id}


async def test_joining_twice_or_ten_times_at_once_is_one_entry(app: Any) -> None:
    (ana,) = await _people(app, "Ana")
    answers = await asyncio.gather(*(_join(app, ana, "bolot") for _ in range(10)))
    assert {a["room_id"] for a in answers} == {None}
    assert await _entries(app) == 1
    assert (await _join(app, ana, "bolot"))["waiting"] == 1
    with pytest.raises(Conflict) as other:
        await _join(app, ana, "belote")
    assert other.value.code == "queue_other"


async def test_leaving_the_queue_and_a_partner_leaving(app: Any) -> None:
    ana, ben = await _people(app, "Ana", "Ben")
    a = await _join(app, ana, "belote", partner=True)
    async with app.state.sessionmaker() as db:
        await queue.join_partner(db, ben, a["partner_code"])
        await queue.leave(db, ben)
        # the pair's entry goes with either of them: Ana's page says she is in no queue
        assert await queue.status(db, ana) is None
        await queue.leave(db, ana)  # nothing to leave: nothing happens
        with pytest.raises(NotFound):
            await queue.join_partner(db, ben, a["partner_code"])
    assert await _entries(app) == 0
    assert (await _join(app, ana, "belote"))["room_id"] is None  # she may join again


async def test_refusals(app: Any) -> None:
    ana, ben, cai = await _people(app, "Ana", "Ben", "Cai")
    for kwargs, code in (
        ({"game": "chess"}, "unknown_game"),
        ({"game": "contree", "preset": "house"}, "queue_preset"),
        ({"game": "bolot", "wait_seconds": 601}, "queue_wait"),
        ({"game": "bolot", "wait_seconds": "soon"}, "queue_wait"),
        ({"game": "belote-2p", "partner": True}, "queue_no_partners"),
    ):
        async with app.state.sessionmaker() as db:
            with pytest.raises(Unprocessable) as refused:
                await queue.join(db, ana, **kwargs)
        assert refused.value.code == code
    a = await _join(app, ana, "bolot", partner=True)
    async with app.state.sessionmaker() as db:
        with pytest.raises(Conflict) as own:
            await queue.join_partner(db, ana, a["partner_code"])
        assert own.value.code == "queue_own_code"
        await queue.join_partner(db, ben, a["partner_code"])
        assert (await queue.join_partner(db, ben, a["partner_code"]))["partner"] == "Ana"
        with pytest.raises(Conflict) as full:
            await queue.join_partner(db, cai, a["partner_code"])
        assert full.value.code == "queue_partner_full"


async def test_a_person_seated_at_a_playing_table_is_told_so(app: Any) -> None:
    ana, ben = await _people(app, "Ana", "Ben")
    await _join(app, ana, "belote-2p")
    room_id = (await _join(app, ben, "belote-2p"))["room_id"]
    async with app.state.sessionmaker() as db:
        with pytest.raises(Conflict) as seated:
            await queue.join(db, ana, "bolot")
    assert seated.value.code == "queue_seated" and seated.value.params["room"] == room_id
    async with app.state.sessionmaker() as db:  # the table is over: she may queue again
        await db.execute(update(Room).where(Room.id == room_id).values(status="finished"))
        await db.commit()
    assert (await _join(app, ana, "bolot"))["room_id"] is None


async def test_an_entry_whose_page_stopped_asking_is_dropped(app: Any) -> None:
    ana, ben = await _people(app, "Ana", "Ben")
    await _join(app, ana, "belote-2p")
    async with app.state.sessionmaker() as db:  # Ana closed her page long ago
        await db.execute(
            update(QueueEntry).values(
                seen_at=func.datetime("now", "-1 hour")
                if db.bind.dialect.name == "sqlite"
                else func.now() - func.make_interval(0, 0, 0, 0, 1)
            )
        )
        await db.commit()
    state = await _join(app, ben, "belote-2p")
    assert state["room_id"] is None and state["waiting"] == 1
    async with app.state.sessionmaker() as db:
        assert await queue.status(db, ana) is None


async def test_two_workers_joining_at_once_put_nobody_in_two_rooms(settings: Settings) -> None:
    """Twelve people join the queue of a game of four at once, half through each of two
    apps (two engines on one database, as two workers): three full tables, each person
    at exactly one seat of one of them."""
    await empty_tables(settings.db_url())
    first, second = create_app(settings), create_app(settings)
    async with first.router.lifespan_context(first), second.router.lifespan_context(second):
        people = await _people(first, *(f"P{n}" for n in range(12)))
        apps = [first if n % 2 else second for n in range(12)]
        await asyncio.gather(*(_join(a, p, "belote") for a, p in zip(apps, people, strict=True)))
        # a match that found a row held by another worker's match left it for the next tick
        for a, p in zip(apps, people, strict=True):
            async with a.state.sessionmaker() as db:
                await queue.tick(db, p)
        async with first.state.sessionmaker() as db:
            seats = (await db.scalars(select(Seat).where(Seat.user_id.is_not(None)))).all()
            rooms = (await db.scalars(select(Room))).all()
    held = [s.user_id for s in seats]
    assert sorted(held) == sorted(p.id for p in people)  # everyone once, nobody twice
    assert len(rooms) == 3 and all(r.status == "playing" for r in rooms)


# ---------------------------------------------------------------- the pages

CODE = re.compile(r'data-testid="partner-code">([A-Z0-9]+)<')


async def test_the_pages_join_wait_and_go_to_the_table(client: httpx.AsyncClient) -> None:
    page = await client.get("/queue?game=belote-2p")
    assert page.status_code == 200 and 'data-testid="queue-form"' in page.text
    # a new visitor is offered a guest nickname, as on the home page: one tap to join
    offered = re.search(r'id="nickname" name="nickname" value="Guest (\d{4})"', page.text)
    assert offered and 1000 <= int(offered.group(1)) <= 9999
    token = await _token(client, "/queue")
    refused = await client.post(
        "/queue", data={"csrf": token, "game": "belote-2p", "nickname": "", "wait_seconds": "30"}
    )
    assert refused.status_code == 422 and 'id="nickname-error"' in refused.text
    # what was typed stays (an emptied field stays empty, with its error)
    assert 'id="nickname" name="nickname" value=""' in refused.text
    joined = await client.post(
        "/queue",
        data={"csrf": token, "game": "belote-2p", "nickname": "Ana", "wait_seconds": "30"},
    )
    assert joined.status_code == 303 and joined.headers["location"] == "/queue"
    waiting = await client.get("/queue")
    assert 'data-testid="queue-waiting"' in waiting.text and "1 person waiting" in waiting.text
    token = await _token(client, "/queue")
    fragment = await client.post(
        "/queue/tick", data={"csrf": token}, headers={"HX-Request": "true"}
    )
    assert fragment.status_code == 200 and 'id="queue-status"' in fragment.text
    # a second person in another browser: both are sent to the one table
    async with httpx.AsyncClient(transport=client._transport, base_url="http://testserver") as b:
        await _sign_in(b, "Ben")
        btoken = await _token(b, "/queue")
        done = await b.post(
            "/queue", data={"csrf": btoken, "game": "belote-2p", "wait_seconds": "30"}
        )
        assert done.status_code == 303
        there = await b.get("/queue")
        assert there.status_code == 303 and there.headers["location"].startswith("/rooms/")
    moved = await client.post("/queue/tick", data={"csrf": token}, headers={"HX-Request": "true"})
    assert moved.headers["HX-Redirect"] == there.headers["location"]


async def _ana_waits_for_a_partner(
    client: httpx.AsyncClient, wait_seconds: int, game: str = "bolot", name: str = "Ana"
) -> tuple[str, re.Match[str]]:
    """Ana (``name``) signs in and joins ``game``'s queue with a partner to come: her
    page's CSRF token and the match of her partner code (``CODE``) on the waiting page."""
    await _sign_in(client, name)
    token = await _token(client, "/queue")
    await client.post(
        "/queue",
        data={"csrf": token, "game": game, "partner": "true", "wait_seconds": str(wait_seconds)},
    )
    code = CODE.search((await client.get("/queue")).text)
    assert code
    return token, code


async def test_the_partner_link_page(client: httpx.AsyncClient) -> None:
    token, code = await _ana_waits_for_a_partner(client, 10)
    async with httpx.AsyncClient(transport=client._transport, base_url="http://testserver") as b:
        invite = await b.get(f"/queue/p/{code.group(1)}")
        assert invite.status_code == 200 and 'data-testid="partner-form"' in invite.text
        assert re.search(r'name="nickname" value="Guest \d{4}"', invite.text)  # offered
        btoken = await _token(b, f"/queue/p/{code.group(1)}")
        ok = await b.post(f"/queue/p/{code.group(1)}", data={"csrf": btoken, "nickname": "Ben"})
        assert ok.status_code == 303
        assert "Your partner: Ana" in (await b.get("/queue")).text
        # Ben opening the link he joined again goes to his waiting page, not "someone else
        # joined"
        again = await b.get(f"/queue/p/{code.group(1)}")
        assert again.status_code == 303 and again.headers["location"] == "/queue"
        btoken = await _token(b, "/queue")  # a session now: its own CSRF token
        wrong = await b.post("/queue/p/NOPE99", data={"csrf": btoken})
        assert wrong.status_code == 404
        # a made-up code's page says so, rather than "your partner waits for you"
        made_up = await b.get("/queue/p/NOPE99")
        assert made_up.status_code == 404
        assert "No partner is waiting with this code" in made_up.text
        assert "Your partner waits for you" not in made_up.text
        assert 'data-testid="partner-form"' not in made_up.text
    # a third person opening the used link is told so (it was a 500: fresh tester), with
    # no form (it showed one: the third fresh tester); the join sent anyway is refused
    async with httpx.AsyncClient(transport=client._transport, base_url="http://testserver") as c:
        used = await c.get(f"/queue/p/{code.group(1)}")
        assert used.status_code == 409 and "already joined" in used.text
        assert 'data-testid="partner-form"' not in used.text
        assert "Your partner waits for you" not in used.text
        ctoken = await _token(c, "/")
        late = await c.post(f"/queue/p/{code.group(1)}", data={"csrf": ctoken, "nickname": "Cai"})
        assert late.status_code == 409 and "already joined" in late.text
    # a minute after the place was taken no twin tap can be the one who took it: a stale
    # form sent then makes no guest (within it, the form's guest tells a twin from a loser)
    async with client._transport.app.state.sessionmaker() as db:  # type: ignore[attr-defined]
        await db.execute(
            update(QueueEntry)
            .where(QueueEntry.partner_code == code.group(1), QueueEntry.slot == 1)
            .values(joined_at=QueueEntry.joined_at - timedelta(minutes=2))
        )
        await db.commit()
    async with httpx.AsyncClient(transport=client._transport, base_url="http://testserver") as d:
        dtoken = await _token(d, "/")
        stale = await d.post(
            f"/queue/p/{code.group(1)}", data={"csrf": dtoken, "nickname": "Dídac"}
        )
        assert stale.status_code == 409 and "already joined" in stale.text
        assert "tapet_session" not in d.cookies
    # Ana's own link tells her it is hers, with no form
    own = await client.get(f"/queue/p/{code.group(1)}")
    assert own.status_code == 409 and 'data-testid="partner-form"' not in own.text
    left = await client.post("/queue/leave", data={"csrf": token})
    assert left.status_code == 303
    assert 'data-testid="queue-form"' in (await client.get("/queue")).text


async def test_a_partner_code_typed_on_the_queue_page(client: httpx.AsyncClient) -> None:
    """The code can be typed as a person reads it out (lower case, a dash, spaces)."""
    token, code = await _ana_waits_for_a_partner(client, 10)
    waiting = (await client.get("/queue")).text
    assert f'data-copy="http://testserver/queue/p/{code.group(1)}"' in waiting
    async with httpx.AsyncClient(transport=client._transport, base_url="http://testserver") as b:
        form = await b.get("/queue")
        assert 'data-testid="partner-code-form"' in form.text
        typed = f" {code.group(1)[:3].lower()}-{code.group(1)[3:].lower()} "
        went = await b.get("/queue/p", params={"code": typed})
        assert went.status_code == 303 and went.headers["location"] == f"/queue/p/{code.group(1)}"
        empty = await b.get("/queue/p", params={"code": " - "})
        assert empty.status_code == 200 and 'id="code-error"' in empty.text
        # letters of the code's own alphabet only: nothing else reaches the address
        odd = await b.get("/queue/p", params={"code": "a/b?c<d>"})
        assert odd.headers["location"] == "/queue/p/ABCD"
        # the invitation reached by a lower-case link joins the same entry
        btoken = await _token(b, f"/queue/p/{code.group(1).lower()}")
        ok = await b.post(
            f"/queue/p/{code.group(1).lower()}", data={"csrf": btoken, "nickname": "Ben"}
        )
        assert ok.status_code == 303
        assert "Your partner: Ana" in (await b.get("/queue")).text


async def test_a_queue_table_is_rated(app: Any) -> None:
    """Quick play is rated, as Play now is (a fresh tester found every queue room casual)."""
    ana, ben = await _people(app, "Ana", "Ben")
    await _join(app, ana, "belote-2p")
    room_id = (await _join(app, ben, "belote-2p"))["room_id"]
    async with app.state.sessionmaker() as db:
        room = await db.get(Room, room_id)
        assert room is not None and room.rated is True


async def test_a_person_seated_elsewhere_meanwhile_leaves_the_queue(app: Any) -> None:
    """Ana waits, then sits at a table that starts (Play now in another tab): the queue does
    not seat her a second time; Ben goes on waiting."""
    ana, ben = await _people(app, "Ana", "Ben")
    await _join(app, ana, "belote-2p")
    async with app.state.sessionmaker() as db:
        room = Room(game="bolot", options={}, status="playing", created_by=ana.id)
        room.seats = [Seat(seat=0, user_id=ana.id, stand_in=False)] + [
            Seat(seat=n, bot="heuristic", stand_in=False) for n in (1, 2, 3)
        ]
        db.add(room)
        await db.commit()
    assert (await _join(app, ben, "belote-2p"))["room_id"] is None
    async with app.state.sessionmaker() as db:
        waiting = list(await db.scalars(select(QueueEntry.user_id)))
    assert waiting == [ben.id]


async def test_a_signed_in_double_post_of_the_join_form_is_one_entry(
    client: httpx.AsyncClient,
) -> None:
    """The same join form sent twice at once by a signed-in guest: both answers go to the
    waiting page, one entry (the twin's answer was a 500: a fresh tester's find)."""
    await _sign_in(client, "Cara")
    token = await _token(client, "/queue")
    form = {"csrf": token, "game": "belote", "wait_seconds": "10"}
    answers = await asyncio.gather(*(client.post("/queue", data=form) for _ in range(2)))
    assert [a.status_code for a in answers] == [303, 303]
    assert 'data-testid="queue-form"' not in (await client.get("/queue")).text


QUEUE_FORM = re.compile(
    r'action="/queue" class="queue-join"[^>]*>\s*<input type="hidden" name="csrf" value="([0-9a-f]+)">'
    r'\s*<input type="hidden" name="creation_key" value="([^"]+)">'
)


async def _queue_form(client: httpx.AsyncClient, nickname: str) -> dict[str, str]:
    """What a new visitor's "Join the queue" (Bolot, 60 s) posts: its csrf token, its
    one-time creation key and the typed ``nickname``."""
    page = await client.get("/queue?game=bolot")
    found = QUEUE_FORM.search(page.text)
    assert found, "the join form carries its own creation key"
    token, key = found.groups()
    return {
        "csrf": token,
        "creation_key": key,
        "game": "bolot",
        "nickname": nickname,
        "wait_seconds": "60",
    }


async def _guests_called(app: Any, nickname: str) -> list[int]:
    async with app.state.sessionmaker() as db:
        return list(await db.scalars(select(User.id).where(User.nickname == nickname)))


async def _me(client: httpx.AsyncClient, answer: httpx.Response) -> dict[str, Any]:
    """The person an answer's session cookie signs in (the cookie's value, as a bearer)."""
    bearer = {"authorization": f"Bearer {answer.cookies['tapet_session']}"}
    me = await client.get("/api/me", headers=bearer)
    assert me.status_code == 200, me.text
    return dict(me.json())


async def test_a_new_visitors_taps_at_once_on_join_are_one_guest_in_the_queue(
    app: Any, client: httpx.AsyncClient
) -> None:
    """The tester's race: "Join the queue" sent five times at once by a visitor without a
    session (the same cookies, csrf and key): one guest, one entry, and every answer goes
    to the waiting page signed in as that guest, whichever the browser keeps."""
    form = await _queue_form(client, "Núria")
    answers = await asyncio.gather(*(client.post("/queue", data=form) for _ in range(5)))
    assert [a.status_code for a in answers] == [303] * 5, [a.text[:300] for a in answers]
    assert {a.headers["location"] for a in answers} == {"/queue"}
    guests = await _guests_called(app, "Núria")
    assert len(guests) == 1
    assert [(await _me(client, a))["id"] for a in answers] == guests * 5
    assert await _entries(app) == 1
    waiting = await client.get("/queue")
    assert "1 person waiting for this game" in waiting.text


async def test_a_second_tap_whose_first_answer_the_browser_dropped_is_the_same_guest(
    app: Any, client: httpx.AsyncClient
) -> None:
    """The browser's double click: it drops the first answer (and its cookie) and shows
    the second, which signs in the guest the first made (not "someone playing now is
    called" their own name, with that guest left waiting alone)."""
    form = await _queue_form(client, "Oriol")
    pre = dict(client.cookies)
    first = await client.post("/queue", data=form)
    assert first.status_code == 303
    client.cookies.clear()
    client.cookies.update(pre)  # the first answer never reached the page
    second = await client.post("/queue", data=form)
    assert second.status_code == 303 and second.headers["location"] == "/queue", second.text
    assert (await _me(client, second))["id"] == (await _me(client, first))["id"]
    assert len(await _guests_called(app, "Oriol")) == 1
    assert await _entries(app) == 1
    assert "1 person waiting for this game" in (await client.get("/queue")).text
    # another browser's form (another key) under that name is still refused: the key,
    # not the name, is what signs the guest in again
    # nor is this form's key read off this page and sent from another browser: tied to
    # the browser that was shown it (csrf.browser_key)
    async with httpx.AsyncClient(transport=client._transport, base_url="http://testserver") as b:
        own = await _queue_form(b, "Oriol")
        for key in (own["creation_key"], form["creation_key"]):
            other = await b.post("/queue", data={**own, "creation_key": key})
            assert other.status_code == 409 and "Someone playing now is called Oriol" in other.text
            assert "tapet_session" not in b.cookies
    assert await _entries(app) == 1


async def test_a_new_partners_taps_at_once_are_one_guest_beside_the_partner(
    app: Any, client: httpx.AsyncClient
) -> None:
    token, code = await _ana_waits_for_a_partner(client, 60)
    async with httpx.AsyncClient(transport=client._transport, base_url="http://testserver") as b:
        page = (await b.get(f"/queue/p/{code.group(1)}")).text
        key = re.search(r'name="creation_key" value="([^"]+)"', page)
        csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page)
        assert key and csrf
        form = {"csrf": csrf.group(1), "creation_key": key.group(1), "nickname": "Pau"}
        answers = await asyncio.gather(
            *(b.post(f"/queue/p/{code.group(1)}", data=form) for _ in range(3))
        )
        assert [a.status_code for a in answers] == [303] * 3, [
            re.findall(r"(?:queue-missing|field-error)[^>]*>([^<]*)", a.text) for a in answers
        ]
        guests = await _guests_called(app, "Pau")
        assert len(guests) == 1
        assert [(await _me(b, a))["id"] for a in answers] == guests * 3
    assert await _entries(app) == 2  # Ana's entry and her partner's


async def test_wrong_partner_codes_are_limited_per_address(settings: Settings) -> None:
    """A partner code that names no waiting entry counts against the address's wrong codes,
    as an invitation code does (``TAPET_RATE_CODE_FAILURES``, docs/invitations.md: they
    could be guessed without limit, a fresh tester's find); a right one does not. Once
    they are used up no code is tried, the right one neither (429, no form), and a
    visitor's refused join makes no guest."""
    async with limited_app(settings, rate_code_failures="3/60") as at:
        async with at("10.0.0.3") as ana, at("10.0.0.4") as b, at("10.0.0.4") as c:
            _, found = await _ana_waits_for_a_partner(ana, 60)
            right = found.group(1)
            for _ in range(4):  # right codes, more than the limit: never counted
                assert (await b.get(f"/queue/p/{right}")).status_code == 200
            btoken = await _token(b, f"/queue/p/{right}")
            statuses = [
                (await b.get("/queue/p/NOPE97")).status_code,
                (await b.get("/queue/p/NOPE98")).status_code,
            ]
            wrong = await b.post("/queue/p/NOPE99", data={"csrf": btoken, "nickname": "Ben"})
            assert statuses + [wrong.status_code] == [404, 404, 404]
            # a wrong code makes no guest, and its page offers no form to send it again
            assert "tapet_session" not in b.cookies
            assert 'data-testid="partner-form"' not in wrong.text
            assert "No partner is waiting with this code" in wrong.text
            late = await b.get(f"/queue/p/{right}")
            assert late.status_code == 429 and "invitation codes" in late.text
            assert int(late.headers["retry-after"]) >= 1
            assert 'data-testid="partner-form"' not in late.text
            ctoken = await _token(c, "/")  # another visitor behind the same address
            joined = await c.post(f"/queue/p/{right}", data={"csrf": ctoken, "nickname": "Cai"})
            assert joined.status_code == 429 and int(joined.headers["retry-after"]) >= 1
            assert 'data-testid="partner-form"' not in joined.text
            assert "tapet_session" not in c.cookies  # no guest made
            assert (await ana.get("/queue")).status_code == 200  # another address: not refused


async def test_a_visitor_s_double_tap_on_join_is_one_guest_and_one_partner(
    client: httpx.AsyncClient,
) -> None:
    """The partner's Join sent twice by a visitor, the second before the first answer's
    cookie counts (the same one-time key and nickname): both go to the waiting page as the
    one guest, though the entry looks full by then (``queue.check_partner`` is asked
    for the guest the twin made)."""
    _, code = await _ana_waits_for_a_partner(client, 10)
    link = f"/queue/p/{code.group(1)}"
    async with httpx.AsyncClient(transport=client._transport, base_url="http://testserver") as b:
        page = (await b.get(link)).text
        btoken = await _token(b, link)
        key = re.search(r'name="creation_key" value="([^"]+)"', page)
        assert key
        form = {"csrf": btoken, "nickname": "Ben", "creation_key": key.group(1)}
        first = await b.post(link, data=form)
        assert first.status_code == 303
        b.cookies.delete("tapet_session")  # the twin left before the first answer came
        second = await b.post(link, data=form)
        assert second.status_code == 303, second.text
        assert "Your partner: Ana" in (await b.get("/queue")).text
    async with client._transport.app.state.sessionmaker() as db:  # type: ignore[attr-defined]
        bens = await db.scalar(select(func.count()).select_from(User).where(User.nickname == "Ben"))
    assert bens == 1


async def _visitor_joins(
    transport: Any, link: str, nickname: str
) -> tuple[httpx.AsyncClient, dict[str, str]]:
    """A new visitor's client (open: the caller closes it) that opened ``link`` and the
    join form they would send (their CSRF token, one-time key and ``nickname``)."""
    v = httpx.AsyncClient(transport=transport, base_url="http://testserver")
    page = (await v.get(link)).text
    csrf_token = re.search(r'name="csrf" value="([^"]+)"', page)
    key = re.search(r'name="creation_key" value="([^"]+)"', page)
    assert csrf_token and key, page
    return v, {"csrf": csrf_token.group(1), "nickname": nickname, "creation_key": key.group(1)}


async def test_visitors_racing_for_one_partner_place_one_joins(
    client: httpx.AsyncClient, app: Any
) -> None:
    """Six visitors press Join on one partner link at once: one joins, the others are told
    someone else did (409, not "no partner waits", which would count as a wrong code);
    the entry has one partner. (The losers stay the guests their forms made: deleting
    them could delete a double tap's own guest, a fresh tester found.)"""
    _, code = await _ana_waits_for_a_partner(client, 60)
    link = f"/queue/p/{code.group(1)}"
    visitors = [await _visitor_joins(client._transport, link, f"Racer {i}") for i in range(6)]
    try:
        answers = await asyncio.gather(*(v.post(link, data=form) for v, form in visitors))
        assert sorted(a.status_code for a in answers) == [303, 409, 409, 409, 409, 409]
        assert all("already joined" in a.text for a in answers if a.status_code == 409), [
            a.text[-400:] for a in answers
        ]
        winner = next(
            v for (v, _), a in zip(visitors, answers, strict=True) if a.status_code == 303
        )
        assert "Your partner: Ana" in (await winner.get("/queue")).text
    finally:
        for v, _ in visitors:
            await v.aclose()
    assert await _entries(app) == 2  # Ana's entry and one partner's


async def test_a_double_tap_whose_first_join_makes_the_table_goes_to_it_too(
    client: httpx.AsyncClient, app: Any
) -> None:
    """Two pairs of Contrée make a table at once: the second partner's Join makes it.
    That Join tapped four times at once is one guest, seated, and every answer goes to
    their place; sent again later (without the first answer's cookie), and their link
    opened again, go there too, as does the maker's own link; a stranger is told someone
    else joined (409), not "no partner is waiting", which would count as a wrong code
    (a fresh tester's finds: a tap deleted the seated guest, or its entry)."""
    _, first = await _ana_waits_for_a_partner(client, 60, "contree", "Ana")
    async with httpx.AsyncClient(transport=client._transport, base_url="http://testserver") as a2:
        _, second = await _ana_waits_for_a_partner(a2, 60, "contree", "Berta")
        p1, form1 = await _visitor_joins(client._transport, f"/queue/p/{first.group(1)}", "Pau")
        link = f"/queue/p/{second.group(1)}"
        v, form = await _visitor_joins(client._transport, link, "Vera")
        s, sform = await _visitor_joins(client._transport, link, "Sara")
        try:
            assert (await p1.post(f"/queue/p/{first.group(1)}", data=form1)).status_code == 303
            taps = await asyncio.gather(*(v.post(link, data=form) for _ in range(4)))
            assert [t.status_code for t in taps] == [303] * 4, [t.text[-300:] for t in taps]
            table = (await v.get("/queue")).headers.get("location", "")
            assert table.startswith("/rooms/")
            seats = (await v.get(f"/api{table}")).json()["seats"]
            assert [x["name"] for x in seats].count("Vera") == 1
            v.cookies.delete("tapet_session")
            twin = await v.post(link, data=form)
            assert twin.status_code == 303 and twin.headers["location"] == "/queue"
            for who in (v, a2):  # the partner's link, and the maker's own
                again = await who.get(link)
                assert again.status_code == 303 and again.headers["location"] == "/queue"
            late = await s.post(link, data=sform)
            assert late.status_code == 409 and "already joined" in late.text
            assert (await s.get(link)).status_code == 409
        finally:
            for c in (p1, v, s):
                await c.aclose()
    async with app.state.sessionmaker() as db:
        veras = list(await db.scalars(select(User.kind).where(User.nickname == "Vera")))
    assert veras == ["guest"]
