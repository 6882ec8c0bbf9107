"""Botifarra through the API: a whole game between four bots, the dealer's partner's
hidden hand, and the paper score sheet (rules/botifarra.md §3-4, §7-9)."""

from __future__ import annotations

import httpx

from tests.conftest import Guest, finished_view


async def start_room(
    client: httpx.AsyncClient, guest: Guest, options: dict, bots: tuple | None
) -> tuple[int, list]:
    """A started Botifarra room: four bots (``bots``) or four guests (``bots`` None)."""
    host = await guest("Host")
    room = (
        await client.post(
            "/api/rooms", json={"game": "botifarra", "options": options}, headers=host
        )
    ).json()
    assert len(room["seats"]) == 4
    headers = []
    for seat in range(4):
        if bots:
            body, h = {"bot": bots[seat]}, host
        else:
            body, h = {}, await guest(f"P{seat}")
            headers.append(h)
        response = await client.put(f"/api/rooms/{room['id']}/seats/{seat}", json=body, headers=h)
        assert response.status_code == 200, response.text
    assert (await client.post(f"/api/rooms/{room['id']}/start", headers=host)).status_code == 200
    return room["id"], headers


async def test_four_bots_play_a_whole_botifarra_game(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    room_id, _ = await start_room(client, guest, {}, ("heuristic", "random", "heuristic", "random"))
    view = await finished_view(client, room_id)
    assert view["phase"] == "over" and view["winner"] in (0, 1)
    winner = view["winner"]
    assert view["scores"][winner] >= 101 and view["scores"][1 - winner] < 101
    assert [sum(d["points"][t] for d in view["sheet"]) for t in (0, 1)] == view["scores"]
    assert all(0 in d["points"] and sum(d["detail"]["totals"]) == 72 for d in view["sheet"])
    assert view["hands_played"] == len(view["sheet"])
    log = (await client.get(f"/api/rooms/{room_id}/moves")).json()
    assert [m["seq"] for m in log] == list(range(view["seq"]))
    assert len([m for m in log if m["action"]["type"] == "deal"]) == len(view["sheet"])


async def test_eastern_game_with_max_hands_ends_after_them(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    options = {"variant": "eastern", "max_hands": 2, "cap_score": 60, "target": 151}
    room_id, _ = await start_room(client, guest, options, ("heuristic",) * 4)
    view = await finished_view(client, room_id)
    assert len(view["sheet"]) == 2 or max(view["scores"]) >= 151
    assert view["recorded_scores"] == [min(s, 60) for s in view["scores"]]
    a, b = view["scores"]
    assert view["winner"] == (None if a == b else int(b > a)) and view["draw"] is (a == b)


async def test_dealers_partner_sees_his_cards_only_after_the_choice(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    room_id, headers = await start_room(client, guest, {}, None)
    public = (await client.get(f"/api/rooms/{room_id}/view")).json()
    dealer = public["dealer"]
    partner = (dealer + 2) % 4
    assert (
        public["phase"] == "auction"
        and public["to_act"] == dealer
        and public["choice_step"] == "choose"
    )
    mine = (await client.get(f"/api/rooms/{room_id}/view", headers=headers[partner])).json()
    assert (
        mine["hand"] is None and mine["hand_hidden"] is True and mine["hand_counts"][partner] == 12
    )
    log = (await client.get(f"/api/rooms/{room_id}/moves")).json()
    assert "deck" not in log[0]["action"]  # the deck stays redacted while the hand is played
    dealer_view = (await client.get(f"/api/rooms/{room_id}/view", headers=headers[dealer])).json()
    assert {"type": "delegate"} in dealer_view["legal_actions"] and len(dealer_view["hand"]) == 12
    response = await client.post(
        f"/api/rooms/{room_id}/moves",
        headers=headers[dealer],
        json={"seq": dealer_view["seq"], "action": {"type": "delegate"}},
    )
    assert response.status_code == 200, response.text
    mine = (await client.get(f"/api/rooms/{room_id}/view", headers=headers[partner])).json()
    assert len(mine["hand"]) == 12 and mine["to_act"] == partner and mine["delegated"] is True
    assert {"type": "delegate"} not in mine["legal_actions"] and {"type": "botifarra"} in mine[
        "legal_actions"
    ]
    response = await client.post(
        f"/api/rooms/{room_id}/moves",
        headers=headers[partner],
        json={"seq": mine["seq"], "action": {"type": "delegate"}},
    )
    assert response.status_code == 422 and "cannot delegate it back" in response.json()["detail"]


async def test_paper_score_sheet(client: httpx.AsyncClient) -> None:
    bt3 = {
        "contract": {"trump": "c", "chooser_team": 0, "delegated": False, "doublings": 1},
        "card_points": [18, 42],
        "tricks": [4, 8],
        "last_trick_team": None,
        "declarations": [[], []],
        "belote": [0, 0],
        "carried_in": 0,
        "revoke_team": None,
    }
    response = await client.post("/api/games/botifarra/score", json={"options": {}, "summary": bt3})
    assert response.status_code == 200
    assert response.json()["points"] == [0, 28] and response.json()["outcome"] == "failed"
    revoke = dict(bt3, revoke_team=1, card_points=[0, 0], tricks=[0, 0])
    response = await client.post(
        "/api/games/botifarra/score", json={"options": {}, "summary": revoke}
    )
    assert response.json()["points"] == [72, 0] and response.json()["outcome"] == "revoke"
    bad = dict(bt3, card_points=[18, 41])
    response = await client.post("/api/games/botifarra/score", json={"options": {}, "summary": bad})
    assert (
        response.status_code == 422 and "card points must add up to 60" in response.json()["detail"]
    )
    buti_sv = dict(bt3, contract={"trump": None, "chooser_team": 0, "doublings": 3})
    response = await client.post(
        "/api/games/botifarra/score",
        json={"options": {"sant_vicenc_on_botifarra": False}, "summary": buti_sv},
    )
    assert response.status_code == 422 and "Sant Vicenç" in response.json()["detail"]


async def test_games_list_offers_botifarra_options(client: httpx.AsyncClient) -> None:
    games = {g["id"]: g for g in (await client.get("/api/games")).json()}
    names = {o["name"]: o for o in games["botifarra"]["options_schema"]}
    assert set(names) == {
        "target",
        "variant",
        "eastern_extended_exception",
        "sant_vicenc_on_botifarra",
        "doubling_scale",
        "max_hands",
        "cap_score",
    }
    assert names["target"]["default"] == 101 and names["max_hands"]["default"] is None


async def test_the_move_log_keeps_the_face_down_tricks_of_the_deal_in_play_hidden(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    """rules/botifarra.md: a finished trick lies face down; only the last one may be looked
    at. The log shows no more than the table: while the deal is played, the cards of its
    tricks before the last finished one are not in it (a fresh tester read them there)."""
    room_id, headers = await start_room(client, guest, {}, None)
    played: list[str] = []  # the cards played, in order
    for _ in range(200):
        public = (await client.get(f"/api/rooms/{room_id}/view")).json()
        if public["phase"] == "play" and public["trick_number"] == 4 and public["trick"]:
            break  # tricks 1-3 finished, trick 4 started
        seat = public["to_act"]
        mine = (await client.get(f"/api/rooms/{room_id}/view", headers=headers[seat])).json()
        action = mine["legal_actions"][0]
        response = await client.post(
            f"/api/rooms/{room_id}/moves",
            headers=headers[seat],
            json={"seq": mine["seq"], "action": action},
        )
        assert response.status_code == 200, response.text
        if action["type"] == "play":
            played.append(action["card"])
    assert len(played) == 13  # three tricks of four, and trick 4's lead
    for who in [{}, *headers]:
        log = (await client.get(f"/api/rooms/{room_id}/moves", headers=who)).json()
        plays = [m["action"] for m in log if m["action"]["type"] == "play"]
        # tricks 1 and 2: the play without its card; trick 3 (the last) and 4: the cards
        assert plays == [{"type": "play"}] * 8 + [{"type": "play", "card": c} for c in played[8:]]
    # the same from a later ``since``: the count of the deal's plays starts at its deal
    since = next(m["seq"] for m in log if m["action"] == {"type": "play"}) + 5
    later = (await client.get(f"/api/rooms/{room_id}/moves", params={"since": since})).json()
    assert [m["action"] for m in later if m["action"]["type"] == "play"] == [
        {"type": "play"}
    ] * 3 + [{"type": "play", "card": c} for c in played[8:]]
