"""Hints (app/table/hints.py, ``POST /rooms/{id}/hint``): the strong bot's suggestion
from the requester's own seat, one of their legal actions; a spectator gets none."""

from __future__ import annotations

import html
import json
import re

import httpx

from app import rules
from app.table import hints
from tests.table.test_pages import CSRF, _my_turn, _sign_in, _started_room, _token

HINT = re.compile(r'data-hint-action="([^"]+)"')


async def test_the_hint_is_one_of_my_legal_actions(client: httpx.AsyncClient) -> None:
    room_id = await _started_room(client)
    view = await _my_turn(client, room_id)
    page = await client.get(f"/rooms/{room_id}")
    assert 'data-testid="hint"' in page.text
    token = CSRF.search(page.text).group(1)
    response = await client.post(
        f"/rooms/{room_id}/hint", data={"csrf": token}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200, response.text
    match = HINT.search(response.text)
    assert match, response.text
    action = json.loads(html.unescape(match.group(1)))
    current = (await client.get(f"/api/rooms/{room_id}/view")).json()
    assert current["seq"] == view["seq"]
    assert action in current["legal_actions"]
    assert 'data-testid="hint-play"' in response.text


async def test_a_spectator_gets_no_hint(client: httpx.AsyncClient, app: object) -> None:
    room_id = await _started_room(client)
    await _my_turn(client, room_id)
    transport = httpx.ASGITransport(app=app)  # type: ignore[arg-type]
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as other:
        await _sign_in(other, "Mirona")
        page = await other.get(f"/rooms/{room_id}")
        assert 'data-testid="hint"' not in page.text
        token = await _token(other, f"/rooms/{room_id}")
        response = await other.post(
            f"/rooms/{room_id}/hint", data={"csrf": token}, headers={"HX-Request": "true"}
        )
        assert response.status_code == 403
        assert "data-hint-action" not in response.text
        anonymous = await other.post(f"/rooms/{room_id}/hint", data={"csrf": token})
        assert anonymous.status_code in (401, 403)


def _view(game: str, trick: list[tuple[int, str]], hand: list[str], contract: dict) -> dict:
    return {
        "game": game,
        "seat": 0,
        "players": 4,
        "contract": contract,
        "hand": hand,
        "trick": [{"seat": s, "card": c} for s, c in trick],
        "played": [],
        "legal_actions": [{"type": "play", "card": c} for c in hand],
    }


def test_reasons_say_what_the_card_does_to_the_trick() -> None:
    g = rules.GAMES["belote"]
    contract = {"taker": 0, "trump": "H", "suit": "H"}
    trump = g.trump(contract)
    assert trump == "H"
    # Partner (seat 2) leads the ace of spades, opponent follows low: a ten to the partner.
    view = _view("belote", [(2, "AS"), (3, "7S")], ["TS", "8S"], contract)
    assert hints.reason(view, {"type": "play", "card": "TS"}).startswith("gives points")
    assert "keeps" in hints.reason(view, {"type": "play", "card": "8S"})
    # Last to play against an opponent's king: the ace wins, the seven cannot.
    view = _view("belote", [(1, "KS"), (2, "8S"), (3, "9S")], ["AS", "7S"], contract)
    assert hints.reason(view, {"type": "play", "card": "AS"}) == "wins the trick cheaply"
    # Leading a trump.
    view = _view("belote", [], ["JH", "7S"], contract)
    assert hints.reason(view, {"type": "play", "card": "JH"}) == "draws trumps"
