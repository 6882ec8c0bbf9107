"""The ``strong`` bot's auction: each call judged by playing the deal out on drawn deals.

In the auction a seat knows its own cards (and the turned card, where there
is one) and the calls so far. To judge a call (take or pass, a bid, a trump
choice, a double) the bot draws the unseen cards at random, deals them with
its own cards where the deal put them, replays the public calls, makes the
call and plays the rest of the deal with the heuristic bot in every seat
(auction included), scoring own side's deal points minus the other side's.

Each drawn deal weighs by how well it agrees with the calls already made: while
the public calls are replayed on it, every call of another seat that the
heuristic, from that seat's hand in the drawn deal, would not have made multiplies
its weight by ``MISMATCH`` (:mod:`app.bots.auction_model`'s rule, applied during
the auction; the other seats bid as the heuristic does). Without the weights the
drawn deals ignore that a seat passed, so they hand strong cards to seats that
would have bid with them; with them the search beat the heuristic's calls, without
them it did not (docs/benchmarks.md, "Issue 22, 6 December 2026 (morning)").

Where a seat has many calls (Contrée's bids at every level in every suit), only a
shortlist is judged: the calls that are not bids, the heuristic's, and the lowest bid in
each suit (:func:`shortlist`).

The heuristic's call stands unless another call does clearly better on the same deals (a
few drawn deals are noisy, and a bad take costs the whole deal). Where the replay cannot
rebuild the view (an unexpected shape), the heuristic decides.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from app.bots.auction_model import MISMATCH
from app.rules import (
    GAMES,
    IllegalAction,
    State,
    apply,
    is_over,
    needs_deal,
    new_game,
    observe,
    to_act,
)
from app.rules.core import TrickGame
from app.rules.sim import brief_view, deal_points, in_play
from app.rules.types import Action, View

#: A heuristic's ``choose(view, rng)`` (app.bots.heuristic.Choose).
Heuristic = Callable[[View, random.Random], Action]

#: A call other than the heuristic's is made only when its paired mean gain exceeds this many
#: standard errors, over at least MIN_SAMPLES drawn deals.
MARGIN = 2.0
MIN_SAMPLES = 8
#: A seat with more calls than this (Contrée's forty or so: a bid at each level in each
#: suit, rules/contree.md §4) has them cut to :func:`shortlist` before they are judged,
#: so that each call gets enough drawn deals within the budget.
MAX_CALLS = 8
#: Keys of an auction record that are not part of the call itself.
RECORD_ONLY = ("seat", "round", "step")


def _layout(game: str, options: dict[str, Any], dealer: int) -> tuple[list[int | str], list[str]]:
    """Where each deck index goes for ``dealer``: a seat, ``"turned"`` or ``"stock"``; found
    by dealing a deck in its fixed order and looking at each seat's view."""
    g = GAMES[game]
    deck = list(g.deck_for(g.validate_options(options)))
    state = apply(new_game(game, options, dealer), {"type": "deal", "deck": list(deck)})
    where: dict[str, int | str] = {}
    for s in range(g.players):
        view = observe(state, s)
        for c in view["hand"] or []:
            where[c] = s
        if turned := view.get("turned"):
            where[turned] = "turned"
    if any(observe(state, s)["hand"] is None for s in range(g.players)):
        hidden = [s for s in range(g.players) if observe(state, s)["hand"] is None]
        counts = observe(state, None)["hand_counts"]
        rest = [c for c in deck if c not in where]
        for s in (
            hidden
        ):  # a hand not yet looked at (Botifarra): its cards are the next ones dealt to it
            for c in rest[: counts[s]]:
                where[c] = s
            rest = rest[counts[s] :]
    return [where.get(c, "stock") for c in deck], deck


def _draw_deck(view: View, layout: list[int | str], rng: random.Random) -> list[str] | None:
    g = GAMES[view["game"]]
    seat = view["seat"]
    mine = list(view["hand"] or [])
    turned = view.get("turned")
    unseen = [c for c in g.deck_for(view["options"]) if c not in mine and c != turned]
    rng.shuffle(unseen)
    deck: list[str] = []
    for place in layout:
        if place == seat and mine:
            deck.append(mine.pop())
        elif place == "turned" and turned:
            deck.append(turned)
            turned = None
        elif unseen:
            deck.append(unseen.pop())
        else:
            return None
    return deck if not mine and turned is None else None


def _replayed(
    view: View, deck: list[str], heuristic: Heuristic, rng: random.Random
) -> tuple[State, float] | None:
    """``(the auction position of view with deck dealt, the deal's weight)``, or None when
    it cannot be rebuilt. The weight is ``MISMATCH`` to the power of the other seats'
    calls that ``heuristic`` would not have made from their hands in this deal."""
    weight = 1.0
    try:
        state = apply(
            new_game(view["game"], view["options"], view["dealer"]), {"type": "deal", "deck": deck}
        )
        for entry in view["auction"]:
            call = {k: v for k, v in entry.items() if k not in RECORD_ONLY}
            seat = to_act(state)
            if (
                seat is not None
                and seat != view["seat"]
                and heuristic(observe(state, seat), rng) != call
            ):
                weight *= MISMATCH
            state = apply(state, call)
    except IllegalAction:
        return None
    if needs_deal(state) or is_over(state) or in_play(state) or to_act(state) != view["seat"]:
        return None
    return state, weight


def shortlist(actions: list[Action], default: Action) -> list[Action]:
    """The calls worth judging among many: every call that is not a bid (pass, a double or
    coinche, a redouble or surcoinche), the heuristic's call ``default``, and the lowest
    bid open in each suit (the cheapest contract there; a capot bid only where no number
    is left). Order kept as in ``actions``."""
    lowest: dict[Any, Action] = {}
    for a in actions:
        if a["type"] == "bid":
            suit = a.get("suit")
            if suit not in lowest or _level(a) < _level(lowest[suit]):
                lowest[suit] = a
    return [a for a in actions if a["type"] != "bid" or a == default or a in lowest.values()]


def _level(bid: Action) -> int:
    """A bid's number; a capot (or any word) above every number."""
    value = bid.get("value")
    return value if isinstance(value, int) else 10_000


def paired_gain(
    better: list[float], usual: list[float], weights: list[float]
) -> tuple[float, float] | None:
    """``(mean, standard error)`` of ``better - usual``, results on the same drawn deals
    paired deal by deal, each deal weighed by ``weights`` (Kish's effective sample size
    for the error); None when fewer than two deals' worth of weight stand behind it."""
    diffs = [b - u for b, u in zip(better, usual, strict=True)]
    total = sum(weights)
    if len(diffs) < 2 or not total:
        return None
    mean = sum(w * d for w, d in zip(weights, diffs, strict=True)) / total
    var = sum(w * (d - mean) ** 2 for w, d in zip(weights, diffs, strict=True)) / total
    effective = total * total / sum(w * w for w in weights)
    if effective < 2:
        return None
    se: float = (var / (effective - 1)) ** 0.5  # float ** float is typed Any (it may be complex)
    return mean, se


def evaluate_calls(
    view: View,
    rng: random.Random,
    heuristic: Heuristic,
    budget_s: float,
    samples: int | None,
    max_samples: int,
    default_call: Heuristic | None = None,
) -> Action | None:
    """The call to make: the default call (``default_call``'s, else the heuristic's), unless
    another call beats it clearly on drawn deals (its weighted mean gain, paired deal by
    deal, exceeds :data:`MARGIN` standard errors, over at least :data:`MIN_SAMPLES` deals).
    The drawn deals are played out by ``heuristic``. None when no deal could be drawn (let
    the caller decide)."""
    actions = view["legal_actions"]
    default = (default_call or heuristic)(view, random.Random(0))
    if len(actions) > MAX_CALLS:
        actions = shortlist(actions, default)
    g = GAMES[view["game"]]
    assert view["seat"] is not None  # a bot's own view
    team = g.team_of(view["seat"])
    layout, _ = _layout(view["game"], view["options"], view["dealer"])
    results: list[list[float]] = [[] for _ in actions]
    weights: list[float] = []
    start, n, failures = time.perf_counter(), 0, 0
    limit = samples if samples is not None else max_samples
    while n < limit and failures < 5:
        deck = _draw_deck(view, layout, rng)
        replayed = _replayed(view, deck, heuristic, rng) if deck else None
        if replayed is None:
            failures += 1
            continue
        base, weight = replayed
        weights.append(weight)
        for i, a in enumerate(actions):
            results[i].append(deal_result(g, g.apply(base, a), team, heuristic, rng))
        n += 1
        if samples is None:
            spent = time.perf_counter() - start
            if spent + spent / n > budget_s * 0.9:
                break
    if n == 0:
        return None
    if default not in actions:
        default = actions[0]
    d = actions.index(default)
    best, best_gain = d, 0.0
    for i in range(len(actions)):
        if i == d or n < MIN_SAMPLES:
            continue
        gain = paired_gain(results[i], results[d], weights)
        if gain is not None and gain[0] > MARGIN * gain[1] and gain[0] > best_gain:
            best, best_gain = i, gain[0]
    return actions[best]


def deal_result(
    g: TrickGame, state: State, team: int, heuristic: Heuristic, rng: random.Random
) -> float:
    """Play the deal out with ``heuristic`` in every seat; ``team``'s points less the other
    sides' mean (:func:`margin`). The learned calls' labels use it too
    (:mod:`app.bots.call_model`)."""
    while not needs_deal(state) and not is_over(state):
        seat = to_act(state)
        assert seat is not None  # neither dealing nor over
        view = brief_view(state, seat) if in_play(state) else observe(state, seat)
        state = g.apply(state, heuristic(view, rng))
    points = deal_points(state) or [0] * g.sides  # a deal nobody took scores nothing
    return margin(points, team)


def margin(points: list[int] | list[float], side: int) -> float:
    """``side``'s points less the other sides' mean (two teams: less the other team's; three
    players, each for himself: less the mean of the other two's)."""
    others = len(points) - 1
    return points[side] - (sum(points) - points[side]) / others
