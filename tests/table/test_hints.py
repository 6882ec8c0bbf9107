"""Hints (app/table/hints.py, ``POST /rooms/{id}/hint``): the strong bot's suggestion
from the requester's own seat, one of their legal actions; a spectator gets none."""

from __future__ import annotations

import html
import json
import re

import httpx
import pytest

from app import rules
from app.table import hints
from app.web import i18n
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


@pytest.mark.parametrize("rated", [True, False])
async def test_no_hints_in_a_rated_match_against_another_person(
    client: httpx.AsyncClient, app: object, rated: bool
) -> None:
    """A fresh tester got the strong bot's hints in a rated match between people: the bot
    would be playing for one of them. A casual table, or a rated one against bots only
    (the test above), still gives them."""
    await _sign_in(client, "Pepa")
    token = await _token(client)
    data = {"game": "belote-2p", "csrf": token} | ({"rated": "true"} if rated else {})
    made = await client.post("/rooms", data=data)
    assert made.status_code == 303, made.text
    room_id = int(made.headers["location"].rsplit("/", 1)[1])
    transport = httpx.ASGITransport(app=app)  # type: ignore[arg-type]
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as other:
        await _sign_in(other, "Mirona")
        theirs = await _token(other, f"/rooms/{room_id}")
        sat = await other.post(f"/rooms/{room_id}/seats/1", data={"csrf": theirs})
        assert sat.status_code == 303, sat.text
        token = await _token(client, f"/rooms/{room_id}")
        started = await client.post(f"/rooms/{room_id}/start", data={"csrf": token})
        assert started.status_code == 303, started.text
        for person in (client, other):  # whoever is to act: the refusal comes first
            token = await _token(person, f"/rooms/{room_id}")
            answer = await person.post(
                f"/rooms/{room_id}/hint", data={"csrf": token}, headers={"HX-Request": "true"}
            )
            assert answer.status_code == (403 if rated else 200), answer.text
            assert "data-hint-action" not in answer.text or not rated
            view = (await person.get(f"/api/rooms/{room_id}/view")).json()
            if view["to_act"] == view["my_seat"]:  # the button is shown on one's turn only
                page = (await person.get(f"/rooms/{room_id}")).text
                assert ('data-testid="hint"' in page) is not rated
    if rated:
        assert "No hints in a rated match against other people" in answer.text


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


def test_a_forced_card_and_the_doubling_calls_get_their_own_reason() -> None:
    """A fresh tester's finds: a card that is the only one playable was explained as a
    choice, a pass that declined to double as a contract not played, a coinche not at all."""
    contract = {"taker": 0, "trump": "H", "suit": "H"}
    view = _view("belote", [(1, "KS")], ["QS"], contract)
    assert hints.reason(view, {"type": "play", "card": "QS"}) == "the only card you may play"
    calls = {**view, "legal_actions": [{"type": "double"}, {"type": "pass"}]}
    assert hints.reason(calls, {"type": "pass"}) == "the bot would leave the contract as it stands"
    assert hints.reason(calls, {"type": "double"}) == "the bot expects the contract to fail"
    calls = {
        **view,
        "legal_actions": [{"type": "coinche"}, {"type": "pass"}, {"type": "bid", "value": 90}],
    }
    assert hints.reason(calls, {"type": "coinche"}) == "the bot expects the contract to fail"
    assert (
        hints.reason(calls, {"type": "pass"}) == "the bot would not play a contract with this hand"
    )
    calls = {**view, "legal_actions": [{"type": "surcoinche"}, {"type": "pass"}]}
    assert hints.reason(calls, {"type": "surcoinche"}) == "the bot expects the contract to be made"
    with i18n.using("ca"):
        assert hints.reason(calls, {"type": "pass"}) == "el bot deixaria el contracte tal com està"


def test_a_take_names_the_suit_length_only_when_it_is_a_length() -> None:
    """A fresh tester's find: "you hold 1 cards of spades" (wrong, and one card is no
    reason to name the suit). Three cards or more are named; one or two say nothing."""
    view = _view("belote", [], ["JH", "9H", "AH", "7S", "KD"], None)
    take = {"type": "take", "suit": "H"}
    assert hints.reason(view, take) == "you hold 3 cards of hearts"
    view = _view("belote", [], ["JH", "AS", "TS", "7S", "KD"], None)
    assert hints.reason(view, take) == ""


def test_the_why_of_a_searched_card_is_what_the_search_compared() -> None:
    from app.bots.strong import Explanation

    e = Explanation(card="7H", other="TH", deals=38, better=31, same=7, worse=0, gain=8.4)
    assert hints.explain(e) == (
        "in 31 of the 38 deals I drew, the 7 of hearts does better than the 10 of hearts, "
        "and the same in the others: on average 8 points a deal more in your side's favour"
    )
    every = Explanation(card="7H", other="JH", deals=30, better=30, same=0, worse=0, gain=216.62)
    assert hints.explain(every) == (
        "in all 30 deals I drew, the 7 of hearts does better than the Jack of hearts: "
        "on average 217 points a deal more in your side's favour"
    )
    mixed = Explanation(card="AS", other="KS", deals=12, better=5, same=4, worse=3, gain=0.6)
    assert hints.explain(mixed) == (
        "in 5 of the 12 deals I drew, the Ace of spades does better than the King of spades, "
        "and worse in 3: on average less than a point a deal more in your side's favour"
    )
    one = Explanation(card="7H", other="JH", deals=1, better=1, same=0, worse=0, gain=1.0)
    assert hints.explain(one) == (
        "in the one deal I drew, the 7 of hearts does better than the Jack of hearts: "
        "on average 1 point a deal more in your side's favour"
    )
    same = Explanation(card="8S", other="7S", deals=40, better=0, same=40, worse=0, gain=0.0)
    assert hints.explain(same) == (
        "the 8 of spades and the 7 of spades come to the same in all 40 deals I drew, "
        "so I play as usual"
    )
    kept = Explanation(card="8S", other="AS", deals=9, better=2, same=3, worse=4, gain=-3.0)
    assert hints.explain(kept) == (
        "over the 9 deals I drew, the Ace of spades is not clearly better than "
        "the 8 of spades, so I play as usual"
    )
    with i18n.using("fr"):
        assert hints.explain(every) == (
            "dans les 30 donnes que j'ai simulées, le 7 de cœur fait toujours mieux que "
            "le Valet de cœur : en moyenne 217 points de plus par donne en faveur de votre camp"
        )
        # the article agrees with the As (i18n.french_articles), in the plural forms too
        assert "l'As de pique" in hints.explain(mixed)
    with i18n.using("ca"):
        assert hints.explain(e).startswith("en 31 dels 38 repartiments que he simulat, el 7 ")


async def test_the_hint_of_a_searched_card_says_what_the_search_compared(monkeypatch) -> None:
    """The hint's why comes from the same search as its card (one search: the explanation
    is asked for together with the action), the view's reason only without one."""
    from app.bots import strong
    from app.rooms import botplay

    calls = []

    def explained(view, rng, budget_ms=None, samples=None, exact=None):
        calls.append(budget_ms)
        card = view["legal_actions"][0]["card"]
        return view["legal_actions"][0], strong.Explanation(card, "7S", 20, 20, 0, 0, 12.0)

    async def no_labels(db: object, room_ids: list[int]) -> dict:
        return {}  # no database here: no championship names the room

    monkeypatch.setattr(strong, "choose_explained", explained)
    monkeypatch.setattr(hints.HOOKS, "room_labels", no_labels)
    view = _view("belote", [(1, "KS"), (2, "8S"), (3, "9S")], ["AS", "7S"], {"trump": "H"})
    view.update(my_seat=0, to_act=0, phase="play")
    out = await hints.hint(None, 1, object(), budget_ms=150.0, view=view)  # type: ignore[arg-type]
    assert out is not None and out["card"] == "AS"
    assert out["why"].startswith("in all 20 deals I drew, the Ace of spades does better")
    assert calls == [150.0]  # one search, at the hint's budget
    # no explanation (a forced card, a call): the view's reason
    monkeypatch.setattr(
        botplay.strong,
        "choose_explained",
        lambda v, r, budget_ms=None: (v["legal_actions"][0], None),
    )
    out = await hints.hint(None, 1, object(), budget_ms=150.0, view=view)  # type: ignore[arg-type]
    assert out is not None and out["why"] == "wins the trick cheaply"


async def test_a_rooms_view_and_the_engines_seed_an_advice_alike(
    client: httpx.AsyncClient, app: object
) -> None:
    # The hint reads the room's view (the engine's with the room's keys added); the replay
    # of the deal reads the engine's own. Both must seed the advice's draws alike, or the
    # two would draw different deals in the same position (strong.advice_rng).
    from app.bots import strong
    from app.rooms import service

    room_id = await _started_room(client)
    room_view = await _my_turn(client, room_id)
    async with app.state.sessionmaker() as db:  # type: ignore[attr-defined]
        snap = await service.read_snapshot(db, room_id)
    engine_view = rules.observe(snap.state, room_view["my_seat"])
    assert engine_view["seq"] == room_view["seq"]
    draws = [strong.advice_rng(v).random() for v in (room_view, engine_view)]  # type: ignore[arg-type]
    assert draws[0] == draws[1]
    assert strong.advice_rng(engine_view).random() == draws[0]  # a seed, not a fresh one
