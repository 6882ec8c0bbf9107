"""Player pages and leaderboards (issue 17 §5, §6): what they list, who may see them."""

from __future__ import annotations

from typing import Any

import httpx
from sqlalchemy import select

from app import rules
from app.accounts.models import User
from app.records import ratings
from tests.conftest import Guest
from tests.records.test_ratings import record, stored_match


async def _me(client: httpx.AsyncClient, headers: dict[str, str]) -> int:
    return int((await client.get("/api/me", headers=headers)).json()["id"])


async def _three(client: httpx.AsyncClient, guest: Guest) -> tuple[list[dict], list[int]]:
    heads = [await guest(n) for n in ("Ann", "Bea", "Cid")]
    return heads, [await _me(client, h) for h in heads]


async def _recorded(app: Any, ann: int, bea: int, cid: int) -> tuple[int, Any]:
    """A recorded Belote match (seed 1): Ann and Bea against a heuristic bot and Cid."""
    game_id, state = await stored_match(app, "belote", [ann, "heuristic", bea, cid], seed=1)
    assert await record(app, game_id)
    return game_id, state


async def test_the_player_page_lists_matches_figures_and_ratings(
    app: Any, client: httpx.AsyncClient, guest: Guest
) -> None:
    (ann_h, _, _), (ann, bea, cid) = await _three(client, guest)
    game_id, state = await _recorded(app, ann, bea, cid)
    public = rules.observe(state, None)
    data = (await client.get(f"/api/players/{ann}")).json()
    assert data["nickname"] == "Ann" and data["own"] is False
    [m] = data["matches"]
    assert m["game"] == "belote" and m["rated"] is True
    assert [p["nickname"] for p in m["partners"]] == ["Bea"]
    assert [(p["nickname"], p["bot"]) for p in m["opponents"]] == [
        ("heuristic bot", "heuristic"),
        ("Cid", None),
    ]
    assert m["result"] == ("win" if public["winner"] == 0 else "loss")
    assert m["scores"] == public["scores"]
    assert m["record"] == f"/records/{game_id}" and m["replay"].endswith("/replay")
    [f] = data["figures"]
    deals = sum(1 for _ in public["sheet"])
    assert f["matches"] == 1 and f["deals"] == deals
    assert f["points_per_deal"] == round(public["scores"][0] / deals, 1)
    [r] = data["ratings"]
    assert r["matches"] == 1 and r["provisional"] is True
    assert r["rating"] == round(ratings.ordinal(r["mu"], r["sigma"]), 1)
    page = await client.get(f"/players/{ann}", headers={"accept": "text/html"})
    assert page.status_code == 200
    assert f'href="/records/{game_id}"' in page.text and f'href="/players/{bea}"' in page.text
    assert "provisional" in page.text


async def test_a_deleted_player_s_name_is_gone_from_the_others_pages(
    app: Any, client: httpx.AsyncClient, guest: Guest
) -> None:
    """Fresh tester: Ann's page still named the opponent who had deleted his account."""
    (_, _, cid_h), (ann, bea, cid) = await _three(client, guest)
    game_id, _ = await _recorded(app, ann, bea, cid)
    assert (await client.request("DELETE", "/api/me", headers=cid_h)).status_code == 204
    [m] = (await client.get(f"/api/players/{ann}")).json()["matches"]
    assert m["partners"] == [{"user_id": bea, "bot": None, "nickname": "Bea"}]
    assert m["opponents"][1] == {"user_id": None, "bot": None, "nickname": "deleted"}
    page = (await client.get(f"/players/{ann}", headers={"accept": "text/html"})).text
    assert "Cid" not in page and f'href="/players/{cid}"' not in page
    assert (await client.get(f"/api/players/{cid}")).status_code == 404


async def test_a_loss_counted_for_leaving_says_so_when_the_other_side_resigned(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    """Fresh tester: Ann left, took her seat back, then Bea resigned; Ann's page said
    "lost 0 – 0 (resigned)". Leaving a rated match is a loss whatever follows (docs/
    ratings.md), so her page now says why: "(left)"; Bea's says "(resigned)"."""
    (ann_h, bea_h, _), (ann, bea, _) = await _three(client, guest)
    rid = (await client.post("/api/rooms", json={"game": "belote-2p"}, headers=ann_h)).json()["id"]
    for seat, who in ((0, ann_h), (1, bea_h)):
        sat = await client.put(f"/api/rooms/{rid}/seats/{seat}", json={}, headers=who)
        assert sat.status_code == 200
    assert (await client.post(f"/api/rooms/{rid}/start", headers=ann_h)).status_code == 200
    assert (await client.post(f"/api/rooms/{rid}/leave", headers=ann_h)).status_code == 200
    back = await client.put(f"/api/rooms/{rid}/seats/0", json={}, headers=ann_h)
    assert back.status_code == 200
    assert (await client.post(f"/api/rooms/{rid}/resign", headers=bea_h)).status_code == 200
    [mine] = (await client.get(f"/api/players/{ann}")).json()["matches"]
    assert (mine["result"], mine["counted_loss"]) == ("loss", True)  # she left a rated match
    assert (mine["side"], mine["resigned_side"]) == (0, 1)
    [theirs] = (await client.get(f"/api/players/{bea}")).json()["matches"]
    assert (theirs["result"], theirs["resigned_side"]) == ("loss", 1)
    page = (await client.get(f"/players/{ann}", headers={"accept": "text/html"})).text
    assert 'data-testid="why-left">(left)' in page and "(resigned)" not in page
    page = (await client.get(f"/players/{bea}", headers={"accept": "text/html"})).text
    assert "(resigned)" in page and "why-left" not in page


async def test_a_hidden_profile_is_private_to_others_and_off_the_leaderboard(
    app: Any, client: httpx.AsyncClient, guest: Guest
) -> None:
    (ann_h, bea_h, _), (ann, bea, cid) = await _three(client, guest)
    game_id, _ = await _recorded(app, ann, bea, cid)
    board = (await client.get("/api/leaderboard/belote")).json()
    assert {e["user_id"] for e in board["entries"] if e["user_id"]} == {ann, bea, cid}
    hide = await client.put("/api/me/profile", json={"hidden": True}, headers=ann_h)
    assert hide.status_code == 200 and hide.json() == {"hidden": True}
    other = await client.get(f"/api/players/{ann}", headers=bea_h)
    assert other.status_code == 404 and other.json()["detail"] == "this profile is private"
    anonymous = await client.get(f"/players/{ann}", headers={"accept": "text/html"})
    assert anonymous.status_code == 404 and "This profile is private." in anonymous.text
    own = await client.get(f"/api/players/{ann}", headers=ann_h)
    assert own.status_code == 200 and own.json()["hidden"] is True and own.json()["own"]
    board = (await client.get("/api/leaderboard/belote")).json()
    assert {e["user_id"] for e in board["entries"] if e["user_id"]} == {bea, cid}
    # a hidden page hides her history, not her presence in others' matches; shown again:
    assert (await client.put("/api/me/profile", json={"hidden": False}, headers=ann_h)).json() == {
        "hidden": False
    }
    assert (await client.get(f"/api/players/{ann}", headers=bea_h)).status_code == 200


async def test_the_account_form_hides_the_page(
    app: Any, client: httpx.AsyncClient, guest: Guest
) -> None:
    await client.post("/api/session", json={"nickname": "Pepa"})  # the cookie stays
    page = await client.get("/account")
    assert 'action="/account/profile"' in page.text and "/players/" in page.text
    token = page.text.split('name="csrf" value="')[1].split('"')[0]
    done = await client.post(
        "/account/profile",
        data={"csrf": token, "hidden": "true"},
        headers={"origin": "http://testserver"},
    )
    assert done.status_code == 303
    async with app.state.sessionmaker() as db:
        user = await db.scalar(select(User).where(User.nickname == "Pepa"))
        assert user is not None and user.profile_hidden
    refused = await client.post("/account/profile", data={"hidden": "true"})
    assert refused.status_code == 403


async def test_unknown_players_and_games(client: httpx.AsyncClient) -> None:
    assert (await client.get("/api/players/999")).status_code == 404
    assert (await client.get("/api/leaderboard/chess")).status_code == 404
    assert (await client.get("/api/players/0")).status_code == 422
    page = await client.get("/players/999", headers={"accept": "text/html"})
    assert page.status_code == 404 and "There is no player 999." in page.text
    assert (
        await client.get("/leaderboard/chess", headers={"accept": "text/html"})
    ).status_code == 404


async def test_the_leaderboard_shows_bots_as_anchors_and_marks_provisional(
    app: Any, client: httpx.AsyncClient, guest: Guest
) -> None:
    (_, _, _), (ann, bea, cid) = await _three(client, guest)
    game_id, _ = await _recorded(app, ann, bea, cid)
    board = (await client.get("/api/leaderboard/belote")).json()
    bots = [e for e in board["entries"] if e["bot"]]
    assert {(e["bot"], e["rank"], e["rating"]) for e in bots} == {
        ("random", None, round(12.0 - 3.0, 1)),
        ("heuristic", None, round(25.0 - 3.0, 1)),
        ("strong", None, round(30.0 - 3.0, 1)),
    }
    people = [e for e in board["entries"] if e["user_id"]]
    assert [e["rank"] for e in people] == [1, 2, 3]
    assert all(e["provisional"] for e in people)  # one rated match each
    ordered = [e["rating"] for e in board["entries"]]
    assert ordered == sorted(ordered, reverse=True)
    page = await client.get("/leaderboard/belote", headers={"accept": "text/html"})
    assert page.status_code == 200 and "anchor" in page.text
    assert f'href="/players/{ann}"' in page.text
    assert (await client.get("/leaderboard", headers={"accept": "text/html"})).status_code == 200


async def test_a_guest_who_registers_keeps_history_and_rating(
    app: Any, client: httpx.AsyncClient, guest: Guest
) -> None:
    (ann_h, _, _), (ann, bea, cid) = await _three(client, guest)
    game_id, _ = await _recorded(app, ann, bea, cid)
    before = (await client.get(f"/api/players/{ann}")).json()
    done = await client.post(
        "/api/accounts",
        json={"username": "anna", "password": "a long enough password 1"},
        headers=ann_h,
    )
    assert done.status_code in (200, 201), done.text
    assert done.json()["user"]["id"] == ann  # the same id: the history follows
    after = (await client.get(f"/api/players/{ann}")).json()
    assert after["kind"] == "account"
    assert after["matches"] == before["matches"] and after["ratings"] == before["ratings"]


async def test_rooms_are_rated_unless_made_casual(client: httpx.AsyncClient, guest: Guest) -> None:
    host = await guest("Host")
    rated = await client.post("/api/rooms", json={"game": "belote"}, headers=host)
    casual = await client.post("/api/rooms", json={"game": "belote", "rated": False}, headers=host)
    assert rated.json()["rated"] is True and casual.json()["rated"] is False
    lobby = (await client.get("/api/rooms")).json()
    assert {r["id"]: r["rated"] for r in lobby} == {
        rated.json()["id"]: True,
        casual.json()["id"]: False,
    }
    bad = await client.post("/api/rooms", json={"game": "belote", "rated": "yes"}, headers=host)
    assert bad.status_code == 422
    await client.post("/api/session", json={"nickname": "Formy"})
    page = await client.get("/")
    box = page.text.split('name="rated"')[1].split(">")[0]
    assert "checked" in box  # the lobby form's default


async def test_the_lobby_form_makes_a_casual_room_when_unticked(client: httpx.AsyncClient) -> None:
    from tests.table.test_pages import _sign_in, _token

    await _sign_in(client, "Formy")
    token = await _token(client)
    made = {}
    for ticked in (True, False):
        data = {"game": "bolot", "csrf": token} | ({"rated": "true"} if ticked else {})
        response = await client.post("/rooms", data=data)
        assert response.status_code == 303, response.text
        room = int(response.headers["location"].rsplit("/", 1)[1])
        made[ticked] = (await client.get(f"/api/rooms/{room}")).json()["rated"]
    assert made == {True: True, False: False}
