"""'Replay my deal' (app/records/replay_mine.py): the strong bot plays a finished deal again
from the requester's seat, with the same cards; refused to spectators and other seats,
and while the deal is played; computed once per deal and seat."""

from __future__ import annotations

import asyncio
import json
import random

import httpx
import pytest

from app import rules
from app.bots import choose
from app.core.settings import Settings
from app.main import create_app
from app.records import replay_mine as botreplay
from app.records.replay_panel import _difference
from app.web.i18n import using
from tests.conftest import Guest, empty_tables
from tests.table.test_pages import CSRF, _my_turn, _started_room
from tests.tables import Table, move, view_of


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """A short thinking time and an empty cache for every test."""
    monkeypatch.setattr(botreplay, "REPLAY_BUDGET_MS", 5.0)
    monkeypatch.setattr(botreplay, "OTHERS_BUDGET_MS", 5.0)
    botreplay.forget()


def _heuristic(view: dict, rng: random.Random) -> dict:
    """The heuristic's action; a declaration first when one is owed (the server's view also
    lists the cards playable after declaring nothing)."""
    declares = [a for a in view["legal_actions"] if a["type"] == "declare"]
    return choose("heuristic", {**view, "legal_actions": declares} if declares else view, rng)


async def _finish_first_deal(client: httpx.AsyncClient, table: Table) -> None:
    """Every seat plays the heuristic bot's choice until deal 1 is scored."""
    rng = random.Random(3)
    for _ in range(200):
        public = await view_of(client, table, None)
        if public.get("sheet"):
            return
        seat = public["to_act"]
        if seat is None:
            continue
        view = await view_of(client, table, seat)
        response = await move(client, table, seat, _heuristic(view, rng), view["seq"])
        assert response.status_code == 200, response.text
    raise AssertionError("deal 1 never ended")


def _url(table: Table, deal_no: int = 1) -> str:
    return f"/api/rooms/{table.room_id}/deals/{deal_no}/replay-mine"


async def test_the_replay_deals_the_same_cards_from_my_seat(
    client: httpx.AsyncClient, table: Table, fixed_first_deal: list[str]
) -> None:
    await _finish_first_deal(client, table)
    seat = table.seat(1)
    response = await client.post(_url(table), headers=table.headers[seat])
    assert response.status_code == 200, response.text
    got = response.json()
    record = (await client.get(f"/api/rooms/{table.room_id}/record")).json()["deals"][0]
    assert got["deck"] == fixed_first_deal == record["deck"]
    assert got["dealer"] == table.dealer == record["dealer"]
    assert got["seat"] == seat and got["levels"][seat] == "strong"
    assert got["people"] == sorted(
        s for s in range(4) if s != seat
    )  # four people: the others by the heuristic
    replay = got["replay"]
    assert replay["dealt"] == got["dealt"]
    # the hands right after the deal are the ones the rules file deals from DECK (e+1: 7c 8e 9e 10e 11e)
    assert sorted(replay["dealt"][seat]) == sorted(["7c", "8e", "9e", "10e", "11e"])
    assert [a["action"] for a in replay["all_actions"] if a["seat"] == seat] == replay["actions"]
    # the replay is a real deal of the engine: its actions replay to its result
    state = rules.new_game("bolot", record.get("options") or {}, table.dealer)
    state = rules.apply(state, {"type": "deal", "deck": fixed_first_deal})
    for step in replay["all_actions"]:
        state = rules.apply(state, step["action"])
    assert rules.observe(state, None)["last_deal"]["points"] == replay["points"]
    assert got["actual"]["points"] == record["result"]["points"]
    assert sum(got["actual"]["tricks"]) in (0, 8) and sum(replay["tricks"]) in (0, 8)
    for diff in got["differences"]:
        assert diff["kind"] in ("card", "call", "declare") and diff["mine"] != diff["bot"]


async def test_a_spectator_or_another_seat_is_refused(
    client: httpx.AsyncClient, table: Table, guest: Guest
) -> None:
    await _finish_first_deal(client, table)
    stranger = await guest("Mirona")
    assert (await client.post(_url(table), headers=stranger)).status_code == 403
    mine, other = table.seat(0), table.seat(1)
    refused = await client.post(_url(table) + f"?seat={other}", headers=table.headers[mine])
    assert refused.status_code == 403
    assert "your own seat" in refused.json()["detail"]
    assert (await client.post(_url(table))).status_code in (401, 403)  # no session at all


async def test_a_deal_in_play_cannot_be_replayed(client: httpx.AsyncClient, table: Table) -> None:
    seat = table.seat(0)
    response = await client.post(_url(table), headers=table.headers[seat])
    assert response.status_code == 409
    assert "still being played" in response.json()["detail"]
    await _finish_first_deal(client, table)
    for _ in range(250):  # no deal pause, but the dealing of deal 2 is the runner's: wait for it
        commitment = (await view_of(client, table, None)).get("commitment") or {}
        if commitment.get("deal_no") == 2:
            break
        await asyncio.sleep(0.02)
    now = await client.post(_url(table, 2), headers=table.headers[seat])
    assert now.status_code == 409, now.text  # deal 2 is being played
    assert (await client.post(_url(table, 9), headers=table.headers[seat])).status_code == 404


async def test_a_second_request_gets_the_cached_replay(
    client: httpx.AsyncClient, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _finish_first_deal(client, table)
    calls = []
    real = botreplay.play_again

    def counted(*args: object, **kwargs: object) -> dict:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(botreplay, "play_again", counted)
    seat = table.seat(2)
    first = await client.post(_url(table), headers=table.headers[seat])
    second = await client.post(_url(table), headers=table.headers[seat])
    assert first.status_code == second.status_code == 200
    assert first.json()["cached"] is False and second.json()["cached"] is True
    assert {**first.json(), "cached": True} == second.json()
    assert len(calls) == 1
    # a double click: two requests at once, one computation
    seat = table.seat(3)
    both = await asyncio.gather(
        *(client.post(_url(table), headers=table.headers[seat]) for _ in range(2))
    )
    assert [r.status_code for r in both] == [200, 200]
    assert sorted(r.json()["cached"] for r in both) == [False, True]
    assert len(calls) == 2


async def test_the_page_shows_both_results_side_by_side(client: httpx.AsyncClient) -> None:
    room_id = await _started_room(client)
    rng = random.Random(5)
    for _ in range(100):  # seat 0 plays the heuristic's choice until deal 1 is scored
        view = await _my_turn(client, room_id)
        if view.get("sheet"):
            break
        page = await client.get(f"/rooms/{room_id}")
        token = CSRF.search(page.text).group(1)
        action = _heuristic(view, rng)
        await client.post(
            f"/rooms/{room_id}/moves",
            data={"csrf": token, "seq": view["seq"], "action": json.dumps(action)},
            headers={"HX-Request": "true"},
        )
    page = await client.get(f"/rooms/{room_id}")
    assert 'data-testid="replay-mine"' in page.text and 'id="replay-mine-box"' in page.text
    token = CSRF.search(page.text).group(1)
    response = await client.post(
        f"/rooms/{room_id}/deals/1/replay-mine",
        data={"csrf": token},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200, response.text
    assert 'data-testid="replay-compare"' in response.text
    assert "The strong bot" in response.text and "Points (us – them)" in response.text


async def test_replays_are_rate_limited_per_user(settings: Settings) -> None:
    strict = settings.model_copy(
        update={"rate_limits": True, "rate_replays": "2/60", "rate_session": "off"}
    )
    await empty_tables(strict.db_url())
    app = create_app(strict)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            token = (await client.post("/api/session", json={"nickname": "Eager"})).json()["token"]
            client.cookies.clear()
            headers = {"Authorization": f"Bearer {token}"}
            codes = [
                (await client.post("/api/rooms/1/deals/1/replay-mine", headers=headers)).status_code
                for _ in range(3)
            ]
    assert (
        codes[:2] == [404, 404] and codes[2] == 429
    )  # no such room, then refused before the route


def test_differences_pair_cards_by_trick_and_calls_by_turn() -> None:
    def card(c: str, **flags: bool) -> dict:
        return {"type": "play", "card": c, **flags}

    mine = [{"type": "take"}, card("7S"), card("KH", belote=True)]
    bot = [{"type": "take"}, card("7S"), card("AS")]
    assert botreplay.differences(mine, bot) == [
        {"kind": "card", "n": 2, "mine": mine[2], "bot": bot[2]}
    ]
    assert botreplay.differences([card("KH", belote=True)], [card("KH")]) == []  # the same card
    # the bot's deal was passed out: its second call differs, its (absent) cards are not listed
    passed = [{"type": "pass"}, {"type": "pass"}]
    found = botreplay.differences(mine, passed)
    assert [(d["kind"], d["n"], d["mine"]) for d in found] == [
        ("call", 1, mine[0]),
        ("call", 2, None),
    ]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "the bot: no call, the bidding was over"),
        ("fr", "le robot : aucune, les enchères étaient finies"),
        ("ca", "el bot: cap parlada, la subhasta ja s'havia acabat"),
    ],
)
def test_a_call_the_other_deal_never_made_is_said_in_words(lang: str, words: str) -> None:
    # the bot's deal ended its auction first: where "you" made a third call it made none
    # (a fresh tester read "the bot: —" as a fault)
    diff = {"kind": "call", "n": 3, "mine": {"type": "pass"}, "bot": None}
    with using(lang):
        assert _difference("belote", diff).endswith(words)


def test_the_panel_of_belote_for_three_compares_you_with_each_other_player() -> None:
    # Each plays for himself (rules/belote-3p.md): the rows list you, then each of the two
    # others, and the margin is over the better of them, not over "the other side"
    from app.records import replay_mine, replay_panel

    game = "belote-3p"
    deal = {"type": "deal", "deck": rules.new_deck(game, random.Random(1))}
    parts = [
        replay_mine.play_again(game, {}, 0, [], deal, [level] * 3, 0, random.Random(n))
        for n, level in ((1, "heuristic"), (2, "random"))
    ]
    actual, replay = (replay_mine.summary(game, p["last_deal"]) for p in parts)
    assert not actual["void"] and not replay["void"]
    result = {
        "game": game,
        "seat": 0,
        "deal_no": 1,
        "actual": actual,
        "replay": replay,
        "differences": [],
        "people": [],
        "budget_ms": 100,
    }
    room = {"seats": [{"seat": s, "kind": "bot", "name": f"Bot {s + 1}"} for s in range(3)]}
    panel = replay_panel.for_page(result, room)
    tricks, points = panel["rows"][1], panel["rows"][2]
    assert tricks[0] == "Tricks (you – the others)"
    assert points[0] == "Points (you – the others)"
    for part, shown in ((actual, points[1]), (replay, points[2])):
        assert shown == " – ".join(str(p) for p in part["points"])  # seat 0 first
    for shown in tricks[1:]:
        assert sum(int(n) for n in shown.split(" – ")) == 8  # 24 cards, 8 tricks
    margins = [p["points"][0] - max(p["points"][1:]) for p in (actual, replay)]
    assert margins[0] != margins[1]
    assert panel["verdict"] == (
        f"Your margin over the best of the others: {margins[0]:+d} with your play, "
        f"{margins[1]:+d} with the bot's."
    )


@pytest.mark.parametrize(("game", "seed"), [("belote", 5), ("bolot", 4), ("contree", 5)])
def test_the_replay_plays_in_my_seat_what_a_hint_advises(
    monkeypatch: pytest.MonkeyPatch, game: str, seed: int
) -> None:
    # A player who followed a hint must not see that card listed as a difference: in the
    # same position the hint's search and the replay's draw the same deals (seeded by the
    # position) for the same time. With the draws capped rather than cut by the clock,
    # they choose the same action at every one of the seat's decisions, calls included.
    from app.bots import strong
    from app.table import hints

    monkeypatch.setattr(strong, "MAX_SAMPLES", 4)
    monkeypatch.setattr(botreplay, "REPLAY_BUDGET_MS", 60_000.0)  # the cap ends each search
    players = rules.GAMES[game].players
    deal = {"type": "deal", "deck": rules.new_deck(game, random.Random(seed))}
    levels = ["heuristic"] * players
    levels[0] = "strong"
    out = botreplay.play_again(game, {}, 0, [], deal, levels, 0, random.Random(1))
    state = rules.apply(rules.new_game(game, {}, 0), deal)
    checked = 0
    for step in out["actions"]:
        if step["seat"] == 0:
            advised, _ = hints._choose(dict(rules.observe(state, 0)), 60_000.0)
            assert advised == step["action"], (checked, advised, step["action"])
            checked += 1
        state = rules.apply(state, step["action"])
    assert checked >= rules.GAMES[game].deal_tricks({})  # a card a trick at least
