"""Records and replays: GET /api/games/{id}/record replays through app.rules to the same
scores; the replay and record pages show finished deals whole and nothing of the deal
in play."""

from __future__ import annotations

import httpx
import pytest

from app import rules
from tests.records.conftest import Guest, Table, bot_room, play_deal_out, wait_for
from tests.tables import DECK

SMALL = {
    "bolot": {"target": 151},
    "belote": {"target": 151},
    "belote-2p": {"target": 151},
    "belote-3p": {"target": 151},
    "bridge-belote": {"target": 31},
    "botifarra": {"target": 51},
}


@pytest.mark.parametrize("game", sorted(SMALL))
async def test_a_finished_match_record_replays_to_the_same_scores(
    client: httpx.AsyncClient, guest: Guest, game: str
) -> None:
    room_id = await bot_room(client, guest, game, SMALL[game])
    final = await wait_for(client, room_id, lambda v: v["status"] == "finished")
    record = (await client.get(f"/api/rooms/{room_id}/record")).json()
    assert record == (await client.get(f"/api/games/{record['game_id']}/record")).json()
    assert record["game"] == game and record["over"] is True and record["in_progress"] is None
    state = rules.replay(game, record["options"], record["dealer"], record["actions"])
    public = rules.observe(state, None)
    assert public["phase"] == "over"
    assert public["scores"] == record["scores"] == final["scores"]
    assert [e["scores_after"] for e in public["sheet"]] == [
        d["result"]["scores_after"] for d in record["deals"]
    ]
    assert [a for d in record["deals"] for a in (m["action"] for m in d["actions"])] == record[
        "actions"
    ]
    for d in record["deals"]:
        assert d["actions"][0]["action"] == {"type": "deal", "deck": d["deck"]}
    # The permalink page and a replay of the last deal.
    page = await client.get(f"/records/{record['game_id']}")
    assert page.status_code == 200 and f"{record['scores'][0]} – {record['scores'][1]}" in page.text
    last = record["deals"][-1]
    steps = len(last["actions"])
    replay = await client.get(f"/rooms/{room_id}/replay?deal={last['deal_no']}&step={steps - 1}")
    assert (
        replay.status_code == 200
        and 'id="replay-prev"' in replay.text
        and 'id="replay-next"' not in replay.text
    )


async def test_belote_for_three_with_32_cards_deals_the_options_deck(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    """rules/belote-3p.md §3 option deal "32": the server shuffles the 32 cards the
    options ask for, and the record replays to the same scores."""
    options = {"target": 151, "deal": "32"}
    room_id = await bot_room(client, guest, "belote-3p", options)
    await wait_for(client, room_id, lambda v: v["status"] == "finished")
    record = (await client.get(f"/api/rooms/{room_id}/record")).json()
    assert all(len(d["deck"]) == 32 for d in record["deals"])
    state = rules.replay("belote-3p", record["options"], record["dealer"], record["actions"])
    assert rules.observe(state, None)["scores"] == record["scores"]
    assert len(record["scores"]) == 3


async def test_replay_steps_show_every_hand_of_a_finished_deal_only(
    client: httpx.AsyncClient, table: Table
) -> None:
    record = (await client.get(f"/api/rooms/{table.room_id}/record")).json()
    assert (
        await client.get(f"/rooms/{table.room_id}/replay?deal=1")
    ).status_code == 404  # being played
    await play_deal_out(client, table)
    record = (await client.get(f"/api/rooms/{table.room_id}/record")).json()
    assert [d["deal_no"] for d in record["deals"]] == [1] and record["deals"][0]["deck"] == DECK
    assert record["in_progress"]["deal_no"] == 2
    log = (await client.get(f"/api/rooms/{table.room_id}/moves")).json()
    second_deal_seq = next(m["seq"] for m in log if m["action"].get("deal_no") == 2)
    assert [m["seq"] for m in record["deals"][0]["actions"]] == list(range(second_deal_seq))
    assert record["actions"] == [m["action"] for m in record["deals"][0]["actions"]]
    assert "deck" not in str(record["in_progress"])

    first = await client.get(f"/rooms/{table.room_id}/replay?deal=1&step=0")
    assert first.status_code == 200
    for card in DECK[0:3] + DECK[12:14]:  # the eldest's five cards after the deal, face up
        assert f'data-card="{card}"' in first.text
    assert 'id="replay-next"' in first.text and 'id="replay-prev"' not in first.text
    middle = await client.get(f"/rooms/{table.room_id}/replay?deal=1&step=10")
    assert 'id="replay-prev"' in middle.text and "step 11 /" in middle.text
    assert (await client.get(f"/rooms/{table.room_id}/replay?deal=2")).status_code == 404
    index = await client.get(f"/rooms/{table.room_id}/replay")
    assert index.status_code == 200 and "/deals/" in index.text and "being played" in index.text


async def test_the_replay_of_deal_n_opens_at_deal_n(
    client: httpx.AsyncClient, table: Table
) -> None:
    """Issue 17 §7: the replay of deal 2 opened with "Deal 1" (the result the view still
    carries until deal 2 is scored). Its first step names deal 2 and shows no result of
    deal 1; its last step shows deal 2's own result."""
    await play_deal_out(client, table)
    await play_deal_out(client, table)
    record = (await client.get(f"/api/rooms/{table.room_id}/record")).json()
    assert [d["deal_no"] for d in record["deals"]][:2] == [1, 2]
    first = (await client.get(f"/rooms/{table.room_id}/replay?deal=2&step=0&lang=en")).text
    assert 'data-testid="deal-no">Deal 2<' in first
    assert "Deal 1" not in first and "Last deal" not in first
    assert 'data-testid="result-short"' not in first
    steps = len(record["deals"][1]["actions"])
    last = await client.get(f"/rooms/{table.room_id}/replay?deal=2&step={steps - 1}&lang=en")
    assert 'data-testid="result-short"' in last.text and "Deal 2:" in last.text


async def test_a_player_who_left_keeps_their_name_on_the_deals_they_played(
    client: httpx.AsyncClient, table: Table
) -> None:
    """A fresh tester left a match after four deals: the replay and the record then named
    the stand-in bot ("Bot 2") as the player of those deals. Berto (seat 1) plays deal 1,
    then leaves; a bot stands in for him (the seat is kept for him, ``away``)."""
    await play_deal_out(client, table)
    left = await client.delete(f"/api/rooms/{table.room_id}/seats/1", headers=table.headers[1])
    assert left.status_code == 200
    seat = next(s for s in left.json()["seats"] if s["seat"] == 1)
    assert seat["kind"] == "bot" and seat["away"]
    for page in (
        f"/rooms/{table.room_id}/replay?deal=1&step=0&lang=en",
        f"/rooms/{table.room_id}/replay?lang=en",
    ):
        text = (await client.get(page)).text
        assert "Berto" in text and "Bot 2" not in text, page
    # the JSON record too (a fresh tester found it naming "heuristic bot")
    record = (await client.get(f"/api/rooms/{table.room_id}/record")).json()
    assert record["seats"][1] == {
        "seat": 1,
        "kind": "person",
        "name": "Berto",
        "bot": "heuristic",
        "left": True,
    }
    assert record["seats"][0]["left"] is False and record["seats"][0]["kind"] == "person"
    # the table itself shows who plays now: the stand-in
    assert "Bot 2" in (await client.get(f"/rooms/{table.room_id}?lang=en")).text
