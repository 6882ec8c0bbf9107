"""Replay my deal: the strong bot plays a finished deal again from the requester's seat.

``replay_mine(db, room_id, deal_no, user)`` takes a finished deal of the room's game
(app/records/service.py: a deal is public whole once the engine says it ended), puts
the match back where that deal began (``rules.replay`` of every earlier action),
applies the same ``deal`` action (the same deck, dealer and scores) and plays it
out: the ``strong`` bot in the requester's seat, every other seat by its bot level
in the room, seats of people by the ``heuristic`` bot (the answer says which). Each
bot decides from its own seat's ``observe`` only, as at the table.

The answer sets both deals side by side (contract, tricks and points per team) and
lists where the requester's actions and the bot's differ: card by card per trick
number, call by call in the auction. From the first difference on the two deals do
not have the same cards on the table; the comparison says what each did, not what
the bot would have done in the requester's position (that is the hint's job).

Cost: at most ``REPLAY_BUDGET_MS`` per strong decision of the requester's seat,
``OTHERS_BUDGET_MS`` for other strong seats, in a worker thread, one replay at a
time per process (:func:`app.records.once.limiter`: the others wait in the event loop,
not in worker threads, which the tables' bots need too). The result is cached per process by
``(game id, deal number, seat)``: a double click, a refresh or a second tab gets the
same answer without a second computation (a seeded RNG makes a recomputation
elsewhere close, not identical: the search is bounded by time).
"""

from __future__ import annotations

import random
from typing import Any

import anyio

from app import rules
from app.accounts.models import User
from app.bots.strong import ADVICE_BUDGET_MS, advice_rng
from app.core.errors import Conflict, Forbidden
from app.records import service as records
from app.records.once import Once, limiter
from app.rooms import botplay, service

#: Thinking time of the strong bot in the requester's seat, per decision (ms): the strong
#: bot's advice budget, the hint's (``strong.ADVICE_BUDGET_MS``), its draws seeded by the
#: position (``strong.advice_rng``), so that a card the hint suggested is the replay's card
#: in the same position.
REPLAY_BUDGET_MS = ADVICE_BUDGET_MS
#: Thinking time of other seats whose bot level is ``strong``, per decision (ms).
OTHERS_BUDGET_MS = 50.0
#: Replays kept per process (each a few kilobytes of JSON).
CACHE_SIZE = 256

_ONCE: Once[tuple[int, int, int], dict[str, Any]] = Once("replay", CACHE_SIZE)


# ---------------------------------------------------------------- the service


async def replay_mine(
    db: Any, room_id: int, deal_no: int, user: User | None, seat: int | None = None
) -> dict[str, Any]:
    """The strong bot's replay of deal ``deal_no`` (1-based, as the score sheet numbers
    deals) of the room's game from the requester's seat, beside the deal as played.

    Returns ``{room_id, game_id, game, deal_no, seat, dealer, deck, dealt, levels,
    people, budget_ms, actual, replay, differences, cached}``: ``dealt`` each seat's
    cards right after the deal (the same in both; None where the engine hides a hand
    from its holder), ``levels`` the bot of each seat in the replay, ``people`` the
    seats of people played by the heuristic bot; ``actual`` and ``replay`` are
    :func:`summary` dicts plus ``actions``, the seat's own actions (``replay``:
    ``all_actions`` too, ``[{seat, action}]`` in order); ``differences`` as
    :func:`differences`; ``cached`` tells whether the answer was computed before.

    ``seat`` (default: the requester's) must be the requester's own seat.
    Raises Forbidden (no seat in the room, or another seat), NotFound (no room, no
    game yet, no such deal), Conflict (the deal is still being played).
    """
    room = await service.room_info(db, room_id)
    mine = next(
        (s["seat"] for s in room["seats"] if user is not None and s["user_id"] == user.id), None
    )
    if mine is None:
        raise Forbidden(
            "only a seated player may replay a deal with the bot, from their own seat",
            "replay_seated_only",
        )
    if seat is not None and seat != mine:
        raise Forbidden(
            f"you may replay only your own seat ({mine}), not seat {seat}",
            "replay_own_seat",
            mine=mine,
            seat=seat,
        )
    game = await records.room_game(db, room_id)
    answer, cached = await _ONCE.get(
        (game.id, deal_no, mine), lambda: _replay(db, room, game, deal_no, mine)
    )
    return {**answer, "cached": cached}


async def _replay(
    db: Any, room: dict[str, Any], game: Any, deal_no: int, mine: int
) -> dict[str, Any]:
    """Load deal ``deal_no`` of ``game`` and play it again in a worker thread (see
    :func:`replay_mine`). Raises NotFound, Conflict (not finished)."""
    history = await records.history(db, game)
    deal = history.played_deal(
        deal_no,
        Conflict(
            f"deal {deal_no} is still being played: the bot can replay it once it ends",
            "replay_deal_in_play",
            n=deal_no,
        ),
    )
    levels, people = seat_levels(room["seats"], room["players"], mine)
    prior = [m.action for d in history.deals if d.deal_no < deal_no for m in d.moves]
    actual = {
        **summary(game.game, deal.result or {}),
        "actions": [m.action for m in deal.moves if m.actor == str(mine)],
    }
    base = {
        "room_id": room["id"],
        "game_id": game.id,
        "game": game.game,
        "deal_no": deal_no,
        "seat": mine,
        "dealer": deal.dealer,
        "deck": deal.deck,
        "dealt": deal.dealt,
        "levels": levels,
        "people": people,
        "budget_ms": REPLAY_BUDGET_MS,
        "actual": actual,
    }
    seed = f"{game.id}-{deal_no}-{mine}"
    options, dealer, deal_action = game.options, game.dealer, deal.moves[0].action

    def compute() -> dict[str, Any]:
        again = play_again(
            game.game, options, dealer, prior, deal_action, levels, mine, random.Random(seed)
        )
        replay = {
            **summary(game.game, again["last_deal"]),
            "actions": again["mine"],
            "all_actions": again["actions"],
            "dealt": again["dealt"],
        }
        return {
            **base,
            "replay": replay,
            "differences": differences(actual["actions"], again["mine"]),
        }

    return await anyio.to_thread.run_sync(compute, limiter=limiter())


def forget() -> None:
    """Drop every cached replay (tests)."""
    _ONCE.forget()


def seat_levels(
    seats: list[dict[str, Any]], players: int, mine: int
) -> tuple[list[str], list[int]]:
    """The bot of each seat in the replay and the seats of people.

    ``seats`` as ``service.room_info`` lists them. The requester's seat gets
    ``strong``; a seat with a person (even one away, a stand-in bot playing for them)
    gets ``heuristic``; a bot seat keeps its level; an empty seat (never in a started
    game) ``heuristic``."""
    levels = ["heuristic"] * players
    people: list[int] = []
    for s in seats:
        n = s["seat"]
        if n == mine or not 0 <= n < players:
            continue
        if s.get("user_id") is not None:
            people.append(n)
        elif s.get("bot"):
            levels[n] = s["bot"]
    levels[mine] = "strong"
    return levels, sorted(people)


# ---------------------------------------------------------------- the replay itself


def play_again(
    game: str,
    options: dict[str, Any],
    dealer: int,
    prior: list[dict[str, Any]],
    deal_action: dict[str, Any],
    levels: list[str],
    seat: int,
    rng: random.Random,
) -> dict[str, Any]:
    """Play one deal again from its start: the match after ``prior`` (every action before
    the deal, as stored), then ``deal_action`` (the stored ``deal``: same deck), then bots
    by ``levels[seat]`` until the engine says the deal ended (phase ``deal`` or ``over``).

    ``seat`` is the requester's: the strong bot plays it as a hint would advise
    (``REPLAY_BUDGET_MS`` a decision, its draws seeded by the position:
    ``strong.advice_rng``), other ``strong`` seats think ``OTHERS_BUDGET_MS``, with
    ``rng``. Every bot sees its own seat's ``observe`` only.
    Returns ``{dealt, actions: [{seat, action}], mine: [action], last_deal}``: ``dealt``
    is each seat's ``observe(...)["hand"]`` right after the deal, ``last_deal`` the
    engine's record of the deal (rules/*.md §7-8). Raises IllegalAction if the stored
    actions do not replay (a corrupt log), RuntimeError if the deal never ends.
    """
    state = rules.replay(game, options, dealer, prior)
    state = rules.apply(state, deal_action)
    players = rules.observe(state, None)["players"]
    dealt = [rules.observe(state, s)["hand"] for s in range(players)]
    actions: list[dict[str, Any]] = []
    mine: list[rules.Action] = []
    for _step in range(1000):  # a deal is far shorter; a bound against a rules bug
        if rules.needs_deal(state) or rules.is_over(state):
            break
        to_act = rules.to_act(state)
        assert to_act is not None
        view = rules.observe(state, to_act)
        if to_act == seat:  # the requester's: as the hint would advise in this position
            action = botplay.choose_thinking(
                levels[to_act], view, advice_rng(view), REPLAY_BUDGET_MS
            )
        else:
            action = botplay.choose_thinking(levels[to_act], view, rng, OTHERS_BUDGET_MS)
        state = rules.apply(state, action)
        actions.append({"seat": to_act, "action": action})
        if to_act == seat:
            mine.append(action)
    else:
        raise RuntimeError("the replayed deal did not end")
    return {
        "dealt": dealt,
        "actions": actions,
        "mine": mine,
        "last_deal": rules.observe(state, None)["last_deal"],
    }


# ---------------------------------------------------------------- comparing


def summary(game: str, last_deal: dict[str, Any]) -> dict[str, Any]:
    """A deal's result in a few fields: ``{void, contract, points [team 0, team 1],
    tricks [team 0, team 1], outcome, last_deal}`` (``last_deal`` is the engine's whole
    record, public once the deal ended)."""
    g = rules.GAMES[game]
    tricks = [0] * g.sides
    for t in last_deal.get("tricks") or []:
        tricks[g.team_of(t["winner"])] += 1
    return {
        "void": bool(last_deal.get("void")),
        "contract": last_deal.get("contract"),
        "points": list(last_deal.get("points") or [0] * g.sides),
        "tricks": tricks,
        "outcome": last_deal.get("outcome"),
        "last_deal": last_deal,
    }


def _kind(action: dict[str, Any]) -> str:
    kind = action.get("type")
    return "card" if kind == "play" else "declare" if kind == "declare" else "call"


def differences(mine: list[dict[str, Any]], bot: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Where the bot's actions differ from the seat's own, in order.

    Actions are paired by kind and rank: the n-th card (trick n: each seat plays one card
    a trick), the n-th call of the auction, the n-th declaration; cards and declarations
    only when both deals have some (not when one was passed out). A card counts as the
    same whether or not the belote/bolot was said with it. Returns ``[{kind: "card" |
    "call" | "declare", n (1-based), mine: action | None, bot: action | None}]`` (None:
    that side took no such action)."""

    def by_kind(actions: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = {"call": [], "declare": [], "card": []}
        for a in actions:
            out[_kind(a)].append(a)
        return out

    a, b = by_kind(mine), by_kind(bot)
    found = []
    for kind in ("call", "declare", "card"):
        if kind != "call" and not (a[kind] and b[kind]):
            continue  # one side never reached the play (everybody passed): the contract tells
        for i in range(max(len(a[kind]), len(b[kind]))):
            x = a[kind][i] if i < len(a[kind]) else None
            y = b[kind][i] if i < len(b[kind]) else None
            same = (
                x is not None
                and y is not None
                and (x.get("card") == y.get("card") if kind == "card" else x == y)
            )
            if not same:
                found.append({"kind": kind, "n": i + 1, "mine": x, "bot": y})
    return found
