"""Benchmarks and the bot arena, as commands (``tapet bench ...``, ``tapet arena ...``).

Figures, not tests: nothing here fails on a slow machine. docs/benchmarks.md
records what these print on the project's machine.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable

from app.bots import choose
from app.rules import (
    GAMES,
    apply,
    is_over,
    legal_actions,
    needs_deal,
    new_deck,
    new_game,
    observe,
    to_act,
)

#: Called with 1 after each unit of work (a decision, a match played, a board): a progress bar's
#: ``update``.
Step = Callable[[int], object]


def bench_engine(game: str, seconds: float = 2.0, seed: int = 1) -> dict:
    """Random legal play on one core for about ``seconds`` of this process's CPU time.

    Returns ``{"game", "deals", "actions", "deals_per_s", "actions_per_s",
    "play_actions", "play_actions_per_s"}``: whole deals (deal, auction,
    declarations and play; each ``legal_actions`` + ``apply`` counts as one
    action, the deal itself as none) and the play phase alone (from the first
    card-phase action to the deal's end). Times are CPU time
    (``time.process_time``), so other processes on the machine disturb the
    figures less than wall time would.
    """
    rng = random.Random(seed)
    draw = rng.random  # one C call a choice: the loop's own cost is not the engine's
    players = GAMES[game].players
    deals = actions = play_actions = 0
    play_time = 0.0
    clock = time.process_time
    start = clock()
    while clock() - start < seconds:
        state = new_game(game, {}, dealer=rng.randrange(players))
        state = apply(state, {"type": "deal", "deck": new_deck(game, rng)})
        play_start = None
        while to_act(state) is not None:  # None: the deal is over (to deal again, or the end)
            if play_start is None and state.phase == "play":
                play_start, play_from = clock(), actions
            legal = legal_actions(state)
            state = apply(state, legal[int(draw() * len(legal))])
            actions += 1
        if play_start is not None:
            play_time += clock() - play_start
            play_actions += actions - play_from
        deals += 1
    elapsed = clock() - start
    return {
        "game": game,
        "deals": deals,
        "actions": actions,
        "deals_per_s": deals / elapsed,
        "actions_per_s": actions / elapsed,
        "play_actions": play_actions,
        "play_actions_per_s": play_actions / play_time if play_time else 0.0,
    }


def bench_bots(
    game: str, level: str, decisions: int = 500, seed: int = 2, step: Step | None = None
) -> dict:
    """Decision time of bot ``level`` over ``decisions`` decisions of matches it plays
    against itself (every decision counted: auction, declarations, cards).

    Returns ``{"game", "level", "decisions", "p50_ms", "p95_ms", "max_ms"}``.
    """
    rng = random.Random(seed)
    times: list[float] = []
    while len(times) < decisions:
        state = new_game(game, {}, dealer=0)
        while not is_over(state) and len(times) < decisions:
            if needs_deal(state):
                state = apply(state, {"type": "deal", "deck": new_deck(game, rng)})
                continue
            view = observe(state, to_act(state))
            t0 = time.perf_counter()
            action = choose(level, view, rng)
            times.append((time.perf_counter() - t0) * 1000)
            if step is not None:
                step(1)
            state = apply(state, action)
    times.sort()
    return {
        "game": game,
        "level": level,
        "decisions": len(times),
        "p50_ms": times[len(times) // 2],
        "p95_ms": times[int(len(times) * 0.95) - 1],
        "max_ms": times[-1],
    }


def _play_match(
    game: str, levels: list[str], seed: int, max_deals: int | None = None
) -> tuple[int | None, list[int]]:
    """One match between team levels; ``seed`` fixes every deck (duplicate play replays it)."""
    deck_rng = random.Random(seed)
    bot_rng = random.Random(seed + 1)
    players = GAMES[game].players
    state = new_game(game, {}, dealer=seed % players)
    deals = 0
    while not is_over(state):
        if needs_deal(state):
            if max_deals is not None and deals >= max_deals:
                break
            state = apply(state, {"type": "deal", "deck": new_deck(game, deck_rng)})
            deals += 1
            continue
        seat = to_act(state)
        assert seat is not None  # neither dealing nor over
        state = apply(
            state, choose(levels[GAMES[game].team_of(seat)], observe(state, seat), bot_rng)
        )
    return state.winner, state.scores


def seatings(game: str, a: str, b: str) -> list[tuple[int, list[str]]]:
    """The rotations of a duplicate: ``(A's side, the level of each side)``, A in each side
    once and B in every other (two teams: A then B as team 0; three players each for
    himself: A in each seat against two B players)."""
    sides = GAMES[game].sides
    out = []
    for a_side in range(sides):
        levels = [b] * sides
        levels[a_side] = a
        out.append((a_side, levels))
    return out


def arena(game: str, a: str, b: str, matches: int, seed: int = 7, step: Step | None = None) -> dict:
    """Duplicate matches: each seed is played once per side with A on that side (the teams'
    seats swapped; with three players, A in each seat against two B players).

    Returns ``{"game", "a", "b", "matches", "a_win_rate", "ci95",
    "a_mean_points", "b_mean_points"}`` (B's points: the mean of its sides' scores);
    ``ci95`` is the normal-approximation 95% interval of A's match-win rate.

    Raises ValueError when ``matches`` is below 1 (no rate of no matches).
    """
    if matches < 1:
        raise ValueError(f"duplicate matches: at least 1 match, not {matches}")
    wins = played = 0
    points_a: list[float] = []
    points_b: list[float] = []
    for i in range(matches):
        for a_team, levels in seatings(game, a, b):
            winner, scores = _play_match(game, levels, seed + i)
            played += 1
            wins += winner == a_team
            points_a.append(scores[a_team])
            points_b.append(_others_mean(scores, a_team))
            if step is not None:
                step(1)
    rate = wins / played
    half = 1.96 * math.sqrt(rate * (1 - rate) / played)
    return {
        "game": game,
        "a": a,
        "b": b,
        "matches": played,
        "a_win_rate": rate,
        "ci95": (max(0.0, rate - half), min(1.0, rate + half)),
        "a_mean_points": statistics.fmean(points_a),
        "b_mean_points": statistics.fmean(points_b),
    }


def _others_mean(points: list[int], side: int) -> float:
    """The mean of the other sides' points (two teams: the other team's)."""
    others = [p for s, p in enumerate(points) if s != side]
    return sum(others) / len(others)


def play_deal(game: str, levels: list[str], deck: list[str], dealer: int, seed: int) -> list[int]:
    """One deal from a fresh match, team ``t`` played by ``levels[t]``; the deal's points per team
    (all 0 for a deal nobody took)."""
    rules = GAMES[game]
    bot_rng = random.Random(seed)
    state = apply(new_game(game, {}, dealer=dealer), {"type": "deal", "deck": list(deck)})
    while not needs_deal(state) and not is_over(state):
        seat = to_act(state)
        assert seat is not None  # neither dealing nor over
        state = apply(state, choose(levels[rules.team_of(seat)], observe(state, seat), bot_rng))
    return list(state.sheet[-1]["points"]) if state.sheet else [0] * rules.sides


def duplicate(
    game: str, a: str, b: str, deals: int, seed: int = 11, step: Step | None = None
) -> dict:
    """Duplicate deals: each deal is played once per side, the same cards, A on that side
    (two teams: twice, the seats swapped; three players: three times, A in each seat).

    A *board* is one deal's plays; A wins it when its points over the plays exceed B's
    (with three players, the mean of the two B seats' points). Returns ``{"game", "a", "b", "deals", "a_board_win_rate", "board_ties",
    "a_decided_win_rate" (boards that were not ties), "win_ci95", "a_mean_points", "b_mean_points", "diff_mean", "diff_ci95"}``: points are
    per deal played (one play of a board), the intervals are normal 95% intervals (win
    rate with ties counted as half).

    Raises ValueError when ``deals`` is below 1 (no rate of no deals).
    """
    if deals < 1:
        raise ValueError(f"duplicate deals: at least 1 deal, not {deals}")
    rng = random.Random(seed)
    players = GAMES[game].players
    wins = ties = 0
    diffs: list[float] = []
    pa: list[float] = []
    pb: list[float] = []
    rotations = seatings(game, a, b)
    for i in range(deals):
        deck = new_deck(game, rng)
        dealer = i % players
        board = [0.0, 0.0]
        for a_team, levels in rotations:
            points = play_deal(game, levels, deck, dealer, seed * 100003 + i)
            board[0] += points[a_team]
            board[1] += _others_mean(points, a_team)
            pa.append(points[a_team])
            pb.append(_others_mean(points, a_team))
        wins += board[0] > board[1]
        ties += board[0] == board[1]
        diffs.append((board[0] - board[1]) / len(rotations))
        if step is not None:
            step(1)
    decided = deals - ties
    rate = (wins + ties / 2) / deals
    half = 1.96 * math.sqrt(rate * (1 - rate) / deals)
    mean = statistics.fmean(diffs)
    dhalf = 1.96 * (statistics.stdev(diffs) / math.sqrt(deals) if deals > 1 else 0.0)
    return {
        "game": game,
        "a": a,
        "b": b,
        "deals": deals,
        "plays": deals * len(rotations),
        "a_board_win_rate": rate,
        "board_ties": ties,
        "a_decided_win_rate": wins / decided if decided else 0.5,
        "win_ci95": (max(0.0, rate - half), min(1.0, rate + half)),
        "a_mean_points": statistics.fmean(pa),
        "b_mean_points": statistics.fmean(pb),
        "diff_mean": mean,
        "diff_ci95": (mean - dhalf, mean + dhalf),
    }
