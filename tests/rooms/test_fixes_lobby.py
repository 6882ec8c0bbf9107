"""The lobby and room creation: a rate limit on new rooms per user (429 + Retry-After),
the lobby lists open and live rooms only, newest first, at most 200, filtered by game."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import httpx
import pytest
from sqlalchemy import update

from app.core.db import make_engine, make_sessionmaker
from app.core.settings import Settings
from app.main import create_app
from app.rooms import service
from app.rooms.models import Room
from tests.conftest import Guest, empty_tables


@pytest.fixture
async def limited(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    """A client of an app where a user may create 3 rooms a minute."""
    strict = settings.model_copy(
        update={"rate_limits": True, "rate_rooms": "3/60", "rate_session": "off"}
    )
    await empty_tables(strict.db_url())
    app = create_app(strict)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, client=("10.0.0.9", 1234))
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            yield client


async def _token(client: httpx.AsyncClient, nickname: str) -> dict[str, str]:
    token = (await client.post("/api/session", json={"nickname": nickname})).json()["token"]
    client.cookies.clear()
    return {"Authorization": f"Bearer {token}"}


async def test_room_creation_is_rate_limited_per_user(limited: httpx.AsyncClient) -> None:
    flood, other = await _token(limited, "Flood"), await _token(limited, "Calm")
    codes = [
        (await limited.post("/api/rooms", json={"game": "bolot"}, headers=flood)).status_code
        for _ in range(5)
    ]
    assert codes == [201, 201, 201, 429, 429]
    refused = await limited.post("/api/rooms", json={"game": "bolot"}, headers=flood)
    assert refused.status_code == 429
    assert int(refused.headers["retry-after"]) >= 1
    assert "too many new rooms" in refused.json()["detail"]
    # another user (same address) is not held back, and the flood made 3 rooms only
    assert (
        await limited.post("/api/rooms", json={"game": "bolot"}, headers=other)
    ).status_code == 201
    assert len((await limited.get("/api/rooms")).json()) == 4
    # the lobby's form shares the budget: the page answers 429 too
    page = await limited.post(
        "/rooms", data={"game": "bolot"}, headers={**flood, "HX-Request": "true"}
    )
    assert page.status_code == 429 and "retry-after" in page.headers
    # reading the lobby is not limited
    assert [(await limited.get("/api/rooms")).status_code for _ in range(5)] == [200] * 5


async def test_a_refused_room_form_does_not_use_up_the_rooms_budget(
    limited: httpx.AsyncClient,
) -> None:
    """Five invalid room requests (422: they create nothing) and then the three rooms
    the limit allows all go through; the fourth real room meets the 429."""
    me = await _token(limited, "Typo")
    bad = [
        (
            await limited.post(
                "/api/rooms", json={"game": "bolot", "options": {"target": -5}}, headers=me
            )
        ).status_code
        for _ in range(5)
    ]
    assert bad == [422] * 5
    good = [
        (await limited.post("/api/rooms", json={"game": "bolot"}, headers=me)).status_code
        for _ in range(4)
    ]
    assert good == [201, 201, 201, 429]


def test_the_room_rate_is_a_setting() -> None:
    assert Settings(rate_rooms="7/30").rate("rooms") == (7, 30.0)
    assert Settings(rate_rooms="off").rate("rooms") is None
    assert Settings(rate_limits=False).rate("rooms") is None
    assert Settings().rate("rooms") == (10, 60.0)


async def _finish(settings: Settings, room_id: int) -> None:
    engine = make_engine(settings.db_url())
    try:
        async with make_sessionmaker(engine)() as db:
            await db.execute(update(Room).where(Room.id == room_id).values(status="finished"))
            await db.commit()
    finally:
        await engine.dispose()


async def test_the_lobby_lists_open_and_live_rooms_not_finished_ones(
    client: httpx.AsyncClient, guest: Guest, settings: Settings
) -> None:
    host = await guest("Host")
    ids = {}
    for name in ("open", "live", "over"):
        ids[name] = (
            await client.post("/api/rooms", json={"game": "belote-2p"}, headers=host)
        ).json()["id"]
    for name in ("live", "over"):
        rid = ids[name]
        await client.put(f"/api/rooms/{rid}/seats/0", json={"bot": "random"}, headers=host)
        await client.put(f"/api/rooms/{rid}/seats/1", json={"bot": "random"}, headers=host)
        assert (await client.post(f"/api/rooms/{rid}/start", headers=host)).status_code == 200
    await _finish(settings, ids["over"])
    lobby = (await client.get("/api/rooms")).json()
    listed = [r["id"] for r in lobby]
    assert ids["over"] not in listed
    assert ids["open"] in listed
    live = next((r for r in lobby if r["id"] == ids["live"]), None)
    assert live is None or live["status"] == "playing"  # (bots may finish it: then it leaves too)
    assert listed == sorted(listed, reverse=True)  # newest first
    # a finished room is still reachable by id
    assert (await client.get(f"/api/rooms/{ids['over']}")).json()["status"] == "finished"


async def test_the_lobby_filters_by_game(client: httpx.AsyncClient, guest: Guest) -> None:
    host = await guest("Host")
    made = {}
    for game in ("bolot", "belote", "bolot", "botifarra"):
        room = (await client.post("/api/rooms", json={"game": game}, headers=host)).json()
        made.setdefault(game, []).append(room["id"])
    bolot = (await client.get("/api/rooms", params={"game": "bolot"})).json()
    assert sorted(r["id"] for r in bolot) == sorted(made["bolot"]) and {
        r["game"] for r in bolot
    } == {"bolot"}
    assert [r["id"] for r in (await client.get("/api/rooms?game=belote")).json()] == made["belote"]
    assert (await client.get("/api/rooms?game=bridge-belote")).json() == []
    assert len((await client.get("/api/rooms")).json()) == 4
    unknown = await client.get("/api/rooms?game=chess")
    assert unknown.status_code == 422 and "unknown game" in unknown.json()["detail"]
    # the lobby page: a select of the games, and the list it filters
    page = (await client.get("/?game=belote")).text
    assert re.search(r'<select[^>]*name="game"[^>]*data-testid="lobby-game"', page)
    listed = (await client.get("/rooms/list?game=belote")).text
    assert f"#{made['belote'][0]}" in listed and f"#{made['bolot'][0]}" not in listed
    assert f"#{made['bolot'][0]}" in (await client.get("/rooms/list")).text
    assert (
        await client.get("/rooms/list?game=chess")
    ).status_code == 200  # the page ignores a bad filter


async def test_the_lobby_shows_the_newest_200(
    client: httpx.AsyncClient, guest: Guest, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert service.LOBBY_LIMIT == 200
    monkeypatch.setattr(service, "LOBBY_LIMIT", 3)  # the cap, tried on a few rooms
    host = await guest("Host")
    ids = [
        (await client.post("/api/rooms", json={"game": "bolot"}, headers=host)).json()["id"]
        for _ in range(5)
    ]
    assert [r["id"] for r in (await client.get("/api/rooms")).json()] == ids[::-1][:3]
