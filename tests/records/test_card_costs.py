"""What each card cost (app/records/card_costs.py): the exact solver's cost of every card
of a finished deal, checked against a plain minimax over the engine's own
``legal_actions``/``apply`` (tests/bots/test_solver.py), and the replay's "What each card
cost" section and its JSON: refused where the replay is, worked out once per deal."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import signal
import time
from typing import Any

import httpx
import pytest

from app import rules
from app.records import card_costs
from app.rooms import invites
from tests.bots.test_solver import _brute_cards
from tests.conftest import Guest
from tests.records.test_replay_mine import _finish_first_deal
from tests.rooms.test_invitations import _code, _room, _started
from tests.tables import Table

GAMES = ["bolot", "belote", "belote-2p", "belote-3p", "contree", "bridge-belote", "botifarra"]


@pytest.fixture(autouse=True)
def fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing kept, and the solving in a thread, where a test can count the calls (one
    test below uses the worker process, as the server does)."""
    card_costs.forget()
    monkeypatch.setattr(card_costs, "RUN_IN", "thread")


def _random_deal(game: str, seed: int) -> list[dict[str, Any]]:
    """The actions of one deal played at random from dealer 0, its ``deal`` first; a deal
    everybody passed is dealt again."""
    rng = random.Random(seed)
    g = rules.GAMES[game]
    while True:
        state = rules.new_game(game, None, dealer=0)
        actions = [{"type": "deal", "deck": rules.new_deck(game, rng, state.options)}]
        state = rules.apply(state, actions[0])
        while state.phase in ("auction", "play"):
            legal = [a for a in rules.legal_actions(state) if a["type"] != "claim"]
            actions.append(rng.choice(legal))
            state = rules.apply(state, actions[-1])
        if len(state.tricks) == g.deal_tricks(state.options):
            return actions


@pytest.mark.parametrize("game", GAMES)
def test_each_late_card_costs_what_plain_minimax_says(game: str) -> None:
    g = rules.GAMES[game]
    for seed in range(2):
        actions = _random_deal(game, seed)
        costs = card_costs.card_costs(game, {}, 0, [], actions, budget_s=0.3)
        plays = [(i, a) for i, a in enumerate(actions) if a["type"] == "play"]
        assert [(c["step"], c["card"]) for c in costs] == [(i, a["card"]) for i, a in plays]
        # what was solved is the end of the deal: the budget stops the work at its start
        solved = [c["cost"] is not None for c in costs]
        assert solved == sorted(solved) and solved[-1]
        state = rules.new_game(game, None, dealer=0)
        late = (g.deal_tricks(state.options) - 3) * g.players  # the last three tricks
        for step, action in enumerate(actions):
            if action["type"] == "play":
                c = costs[[i for i, _ in plays].index(step)]
                assert c["seat"] == state.to_act
                assert c["trick"] == len(state.tricks) + 1
                if c["cost"] is not None and len(state.tricks) * g.players >= late:
                    values = _brute_cards(state, g.team_of(state.to_act))
                    top = max(values.values())
                    assert c["cost"] == top - values[action["card"]], (game, seed, step)
                    assert sorted(c["best"]) == sorted(k for k, v in values.items() if v == top)
            state = rules.apply(state, action)
        # the last trick: every card is forced, so none costs anything
        assert [c["cost"] for c in costs[-g.players :]] == [0] * g.players


def test_the_budget_leaves_the_first_cards_unsolved() -> None:
    actions = _random_deal("botifarra", 1)  # twelve tricks: the first cannot be solved at once
    costs = card_costs.card_costs("botifarra", {}, 0, [], actions, budget_s=0.0)
    assert costs[0]["cost"] is None and costs[0]["best"] == []
    assert costs[-1]["cost"] == 0


def _url(table: Table, deal_no: int = 1) -> str:
    return f"/api/rooms/{table.room_id}/deals/{deal_no}/costs"


async def test_a_finished_deal_s_costs_are_worked_out_once(
    client: httpx.AsyncClient, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert (await client.get(_url(table))).status_code == 409  # deal 1 is being played
    await _finish_first_deal(client, table)
    calls = []
    real = card_costs.card_costs

    def counted(*args: Any, **kwargs: Any) -> list[dict[str, Any]]:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(card_costs, "card_costs", counted)
    monkeypatch.setattr(card_costs, "BUDGET_S", 0.5)
    both = await asyncio.gather(*(client.get(_url(table)) for _ in range(3)))  # a triple tap
    assert [r.status_code for r in both] == [200, 200, 200]
    assert sorted(r.json()["cached"] for r in both) == [False, True, True]
    again = await client.get(_url(table))
    assert again.json()["cached"] is True and len(calls) == 1
    got = again.json()
    record = (await client.get(f"/api/rooms/{table.room_id}/record")).json()
    moves = record["deals"][0]["actions"]
    played = [
        (int(m["actor"]), m["action"]["card"]) for m in moves if m["action"]["type"] == "play"
    ]
    assert [(c["seat"], c["card"]) for c in got["cards"]] == played
    assert got["solved"] == sum(c["cost"] is not None for c in got["cards"]) > 0
    assert all(c["cost"] is None or c["cost"] >= 0 for c in got["cards"])
    assert (await client.get(_url(table, 9))).status_code == 404
    # a missing or unfinished deal uses up none of a requester's new deals
    monkeypatch.setattr(card_costs, "_NEW", card_costs.RateLimiter(1, 60.0))
    for _ in range(3):
        assert (await client.get(_url(table, 9))).status_code == 404
    card_costs._ONCE.forget()
    assert (await client.get(_url(table))).status_code == 200
    # a new deal while the solver has its hands full: refused, and told when to come back
    monkeypatch.setattr(card_costs, "MAX_WAITING", 0)
    card_costs.forget()
    busy = await client.get(_url(table))
    assert busy.status_code == 429 and busy.headers["Retry-After"] == "10"
    assert "busy" in busy.json()["detail"] and len(calls) == 2
    # nor may one requester start more than NEW_PER_MINUTE new deals a minute
    monkeypatch.setattr(card_costs, "MAX_WAITING", 2)
    monkeypatch.setattr(card_costs, "_NEW", card_costs.RateLimiter(1, 60.0))
    assert (await client.get(_url(table))).status_code == 200  # new: the one allowed
    assert (await client.get(_url(table))).status_code == 200  # kept: never refused
    card_costs._ONCE.forget()
    again = await client.get(_url(table))
    assert again.status_code == 429 and "many deals" in again.json()["detail"]
    assert int(again.headers["Retry-After"]) > 0


async def test_the_server_solves_in_a_worker_process(
    client: httpx.AsyncClient, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(card_costs, "RUN_IN", "process")
    monkeypatch.setattr(card_costs, "BUDGET_S", 0.5)
    await _finish_first_deal(client, table)
    try:
        got = (await client.get(_url(table))).json()
    finally:
        card_costs.shutdown()
    record = (await client.get(f"/api/rooms/{table.room_id}/record")).json()
    actions = [m["action"] for m in record["deals"][0]["actions"]]
    alone = card_costs.card_costs(
        record["game"], record["options"], record["dealer"], [], actions, 0.5
    )
    # the same answers where both reached (the budget is CPU time: either may reach further)
    for mine, theirs in zip(got["cards"], alone, strict=True):
        if mine["cost"] is not None and theirs["cost"] is not None:
            assert mine["cost"] == theirs["cost"] and sorted(mine["best"]) == sorted(theirs["best"])
    assert got["solved"] > 0


def _gone(pid: int, within: float = 5.0) -> bool:
    """Whether process ``pid`` has ended (and been reaped) within ``within`` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def test_the_worker_ignores_ctrl_c_and_ends_with_the_server() -> None:
    # Ctrl-C in a terminal interrupts the server's whole process group, the worker with it:
    # the worker must not die of it (a traceback in the log), the server stops it
    others = {p.pid for p in multiprocessing.active_children()}  # any that another test left
    pool = card_costs._pool()
    try:
        # at once, while the new interpreter is still importing (before its initializer)
        (early,) = [p.pid for p in multiprocessing.active_children() if p.pid not in others]
        os.kill(early, signal.SIGINT)
        pid = pool.submit(os.getpid).result(timeout=120)
        assert pid == early  # it lived through it
        os.kill(pid, signal.SIGINT)  # and once it runs
        time.sleep(0.5)
        assert pool.submit(os.getpid).result(timeout=30) == pid  # the same worker, alive
        busy = pool.submit(time.sleep, 60)  # a long deal being worked out at the shutdown
        time.sleep(0.2)
    finally:
        started = time.monotonic()
        card_costs.shutdown()
    assert time.monotonic() - started < 10  # terminated, not waited for
    assert _gone(pid)
    assert busy.done()


async def test_the_replay_page_loads_the_costs_and_marks_the_step(
    client: httpx.AsyncClient, table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(card_costs, "BUDGET_S", 0.5)
    await _finish_first_deal(client, table)
    step = (await client.get(_url(table))).json()["cards"][5]["step"]  # the sixth card
    replay = await client.get(f"/rooms/{table.room_id}/replay?deal=1&step={step}")
    url = f"/rooms/{table.room_id}/replay/costs?deal=1&amp;step={step}"
    assert replay.status_code == 200 and f'hx-get="{url}"' in replay.text
    part = await client.get(url.replace("&amp;", "&"), headers={"HX-Request": "true"})
    assert part.status_code == 200 and "<html" not in part.text
    assert part.text.count('data-testid="cost"') == 32
    assert part.text.count('aria-current="step"') == 1
    assert f'data-step="{step}" aria-current="step"' in part.text
    page = await client.get(url.replace("&amp;", "&"))
    assert page.status_code == 200 and "<html" in page.text and "What each card cost" in page.text
    # opened with a private room's ?code= (no cookie is set), the steps and costs carry it
    code = invites.CODE_ALPHABET[:6]
    coded = await client.get(f"/rooms/{table.room_id}/replay?deal=1&step={step}&code={code}")
    assert f'{url}&amp;code={code}"' in coded.text
    assert f"deal=1&amp;code={code}&amp;step={step + 1}" in coded.text
    # a busy solver: the section keeps its heading and asks again after Retry-After
    card_costs.forget()
    monkeypatch.setattr(card_costs, "MAX_WAITING", 0)
    busy = await client.get(url.replace("&amp;", "&"), headers={"HX-Request": "true"})
    assert busy.status_code == 429 and busy.headers["Retry-After"] == "10"
    assert "What each card cost" in busy.text and 'hx-trigger="load delay:10s"' in busy.text
    assert (await client.get(url.replace("&amp;", "&"))).headers["Retry-After"] == "10"


async def test_a_private_room_s_costs_need_its_code(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    host, stranger = await guest("Host"), await guest("Stranger")
    room_id = await _room(client, host, private=True)
    code = await _code(client, room_id, host)
    await _started(client, room_id, host)
    for url in (f"/api/rooms/{room_id}/deals/1/costs", f"/rooms/{room_id}/replay/costs?deal=1"):
        client.cookies.clear()
        for who in (stranger, {}):
            assert (await client.get(url, headers=who)).status_code == 403, url
        # with the code the door opens, and the deal in play is still refused
        shown = await client.get(url, headers={**stranger, "X-Tapet-Code": code})
        assert shown.status_code == 409, url


def test_a_deal_everybody_passed_says_so() -> None:
    from app.records.pages import costs_for_page
    from app.web.templating import templates

    answer = {"deal_no": 1, "cards": [], "solved": 0, "budget_s": 8.0}
    costs = costs_for_page(answer, ["Ana", "Ben", "Cai", "Dan"], None)
    ctx = {"costs": costs, "room": {"id": 1}, "code_q": ""}
    html = templates.get_template("records/_costs.html").render(ctx)
    assert "No card was played in this deal: everybody passed." in html
    assert 'data-testid="cost"' not in html and "costs-seats" not in html
