"""Verifiable deals: GET /api/deals/{game_id}-{deal_no}/verify and /deals/{id}/verify.

The first deal is the known ``DECK`` of tests/tables.py: once it ends the
check recomputes SHA-256(salt + ",".join(deck)), matches the hash published at the
deal, and shows the hands as the engine dealt them; the deal in play shows only its
commitment, in JSON and in HTML.
"""

from __future__ import annotations

import hashlib

import httpx

from app import rules
from app.records import verify
from app.rooms import play
from tests.records.conftest import Table, play_deal_out, view_of
from tests.tables import DECK


async def _game_id(client: httpx.AsyncClient, room_id: int) -> int:
    record = (await client.get(f"/api/rooms/{room_id}/record")).json()
    return record["game_id"]


def test_the_hash_is_the_one_the_server_publishes() -> None:
    salt, deck = "00ff" * 8, list(DECK)
    expected = hashlib.sha256((salt + ",".join(deck)).encode()).hexdigest()
    assert verify.commitment_of(salt, deck) == expected == play.commitment(salt, deck)
    assert verify.parse_deal_id("12-3") == (12, 3)


async def test_an_unfinished_deal_shows_only_its_commitment(
    client: httpx.AsyncClient, table: Table
) -> None:
    game_id = await _game_id(client, table.room_id)
    view = await view_of(client, table, None)
    answer = await client.get(f"/api/deals/{game_id}-1/verify")
    assert answer.status_code == 200
    check = answer.json()
    assert check["finished"] is False and check["sha256"] == view["commitment"]["sha256"]
    assert set(check) == {
        "id",
        "game_id",
        "room_id",
        "game",
        "deal_no",
        "dealer",
        "sha256",
        "finished",
        "formula",
    }
    page = (await client.get(f"/deals/{game_id}-1/verify")).text
    assert view["commitment"]["sha256"] in page and 'data-testid="pending"' in page
    hidden = set(DECK) - {view["turned"]}
    assert not [c for c in hidden if f"/{c}.svg" in page or f'"{c}"' in page or f">{c}<" in page]
    record = (await client.get(f"/api/games/{game_id}/record")).json()
    assert record["deals"] == [] and record["actions"] == []
    assert record["in_progress"] == {"deal_no": 1, "id": f"{game_id}-1", "sha256": check["sha256"]}
    for bad in ("x", "1", "1-", f"{game_id + 10**6}-1", f"{game_id}-7"):  # no such game, deal
        assert (await client.get(f"/api/deals/{bad}/verify")).status_code == 404


async def test_a_finished_deal_reveals_deck_salt_and_hands(
    client: httpx.AsyncClient, table: Table
) -> None:
    game_id = await _game_id(client, table.room_id)
    published = (await view_of(client, table, None))["commitment"]["sha256"]
    after = await play_deal_out(client, table)
    assert after["commitment"]["deal_no"] == 2

    check = (await client.get(f"/api/deals/{game_id}-1/verify")).json()
    assert check["finished"] is True and check["deck"] == DECK
    assert check["sha256"] == published == check["recomputed"] and check["matches"] is True
    assert (
        hashlib.sha256((check["salt"] + ",".join(check["deck"])).encode()).hexdigest() == published
    )
    # The hands come from the engine dealing this deck (rules/bolot.md §3: 3 then 2 each).
    state = rules.apply(
        rules.new_game("bolot", None, check["dealer"]), {"type": "deal", "deck": DECK}
    )
    assert check["dealt"] == [rules.observe(state, s)["hand"] for s in range(4)]
    e = (check["dealer"] + 1) % 4
    assert sorted(check["dealt"][e]) == sorted(DECK[0:3] + DECK[12:14])
    assert sorted(c for h in check["hands"] for c in h) == sorted(DECK)
    assert check["turned"] == DECK[20]

    page = (await client.get(f"/deals/{game_id}-1/verify")).text
    assert check["salt"] in page and check["recomputed"] in page and "hashes match" in page
    assert all(f"/{c}.svg" in page for c in DECK)
    # the turned card in words (Bolot's Spanish deck: 7o is the seven of oros), not its code
    assert "7 of oros" in page.split("Turned card")[1].split("</p>")[0]
    assert "Turned card: 7o" not in page

    second = (await client.get(f"/api/deals/{game_id}-2/verify")).json()
    assert second["finished"] is False and "deck" not in second and "salt" not in second


async def test_a_deal_cut_short_by_a_resignation_is_revealed_when_the_match_ends(
    client: httpx.AsyncClient, table: Table
) -> None:
    # A player who resigns over a deal he doubts must be able to check it: once the match
    # has ended nothing is left to play, so the deal's deck and salt are public too
    game_id = await _game_id(client, table.room_id)
    published = (await view_of(client, table, None))["commitment"]["sha256"]
    before = (await client.get(f"/api/deals/{game_id}-1/verify")).json()
    assert "deck" not in before and "salt" not in before  # still being played
    resigned = await client.post(f"/api/rooms/{table.room_id}/resign", headers=table.headers[0])
    assert resigned.status_code == 200, resigned.text

    check = (await client.get(f"/api/deals/{game_id}-1/verify")).json()
    assert check["finished"] is False and check["cut_short"] is True
    assert check["deck"] == DECK and check["matches"] is True
    assert check["recomputed"] == published == check["sha256"]
    assert check["hands"] is None  # never played out: only what was dealt
    state = rules.apply(
        rules.new_game("bolot", None, check["dealer"]), {"type": "deal", "deck": DECK}
    )
    assert check["dealt"] == [rules.observe(state, s)["hand"] for s in range(4)]
    assert check["turned"] == DECK[20]

    page = (await client.get(f"/deals/{game_id}-1/verify")).text
    assert 'data-testid="cut-short"' in page and 'data-testid="pending"' not in page
    assert check["salt"] in page and "hashes match" in page
    assert all(f"/{c}.svg" in page for c in DECK)
    assert "not played out" in page
    assert "/replay?deal=1" not in page  # no replay of a deal that was not played out
    # the record keeps the deal as the unfinished one, its deck out of the record
    record = (await client.get(f"/api/games/{game_id}/record")).json()
    assert record["deals"] == [] and record["in_progress"]["deal_no"] == 1
    # what needs the deal played out says it never was, rather than "still being played"
    room = table.room_id
    for answer in (
        await client.get(f"/api/rooms/{room}/deals/1/costs"),
        await client.post(f"/api/rooms/{room}/deals/1/replay-mine", headers=table.headers[0]),
        await client.get(f"/rooms/{room}/replay?deal=1"),
    ):
        assert answer.status_code == 404, answer.text
        assert "not played out" in answer.text and "still being played" not in answer.text
