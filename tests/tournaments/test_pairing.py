"""Pairing rules without a database: Berger tables, Swiss, knockout, groups."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.tournaments.pairing import (
    PairingError,
    berger_rounds,
    bracket_positions,
    knockout_first_round,
    knockout_next_round,
    qualifier_seeding,
    snake_groups,
    swiss_round,
)
from app.tournaments.standings import Result, standings

# ---------------------------------------------------------------- Berger


def check_berger(n: int, return_leg: bool = False) -> None:
    teams = list(range(101, 101 + n))
    rounds = berger_rounds(teams, return_leg)
    legs = 2 if return_leg else 1
    per_leg = n - 1 if n % 2 == 0 else n
    assert len(rounds) == per_leg * legs
    met: Counter[frozenset[int]] = Counter()
    home: Counter[int] = Counter()
    away: Counter[int] = Counter()
    byes: Counter[int] = Counter()
    for rnd in rounds:
        seen = [t for pair in rnd for t in pair if t is not None]
        assert sorted(seen) == teams  # every team once per round
        for a, b in rnd:
            if b is None:
                byes[a] += 1
                continue
            met[frozenset((a, b))] += 1
            home[a] += 1
            away[b] += 1
        assert [p[1] for p in rnd].count(None) == n % 2
    assert set(met) == {frozenset(p) for p in itertools.combinations(teams, 2)}
    assert set(met.values()) == {legs}
    if n % 2:
        assert all(byes[t] == legs for t in teams)
    for t in teams:
        assert abs(home[t] - away[t]) <= (0 if return_leg else 1), (t, home[t], away[t])


@pytest.mark.parametrize("n", range(3, 17))
def test_berger_everybody_meets_everybody_once_with_balanced_seats(n: int) -> None:
    check_berger(n)


@pytest.mark.parametrize("n", [3, 4, 7, 10])
def test_return_leg_swaps_home_and_away(n: int) -> None:
    check_berger(n, return_leg=True)
    rounds = berger_rounds(list(range(n)), return_leg=True)
    half = len(rounds) // 2
    for first, second in zip(rounds[:half], rounds[half:], strict=True):
        assert {(b, a) if b is not None else (a, None) for a, b in first} == set(second)


@given(st.integers(min_value=2, max_value=30))
def test_berger_invariants_hold_for_any_size(n: int) -> None:
    check_berger(n)


def test_round_robin_refuses_one_team_or_duplicates() -> None:
    with pytest.raises(PairingError):
        berger_rounds([1])
    with pytest.raises(PairingError):
        berger_rounds([1, 2, 2])


# ---------------------------------------------------------------- Swiss


def play_swiss(n: int, rounds: int, rng: random.Random) -> list[list[tuple[int, int | None]]]:
    """A Swiss of ``n`` teams over ``rounds``, results at random; checks every round."""
    teams = list(range(1, n + 1))
    results: list[Result] = []
    history = []
    for _ in range(rounds):
        table = standings(teams, results, ("buchholz", "point_difference", "points_scored"))
        ranked = [r.team for r in table]
        mp = {r.team: r.match_points for r in table}
        met = {frozenset((r.home, r.away)) for r in results if r.away is not None}
        had_bye = {r.home for r in results if r.away is None}
        pairs = swiss_round(ranked, mp, met, had_bye)
        check_swiss_round(pairs, ranked, mp, met, had_bye)
        history.append(pairs)
        for a, b in pairs:
            if b is None:
                results.append(Result(a, None, winner=a))
                continue
            sa, sb = rng.randrange(0, 1200, 10), rng.randrange(0, 1200, 10)
            results.append(Result(a, b, sa, sb, winner=None if sa == sb else (a if sa > sb else b)))
    byes = Counter(a for rnd in history for a, b in rnd if b is None)
    assert all(v == 1 for v in byes.values())
    assert len(byes) == (rounds if n % 2 else 0)
    return history


def _cost(pairs, mp) -> int:
    levels = sorted(set(mp.values()), reverse=True)
    return sum((levels.index(mp[a]) - levels.index(mp[b])) ** 2 for a, b in pairs if b is not None)


def _best_cost(teams: list[int], mp, met) -> int | None:
    """Brute force: the smallest sum of squared score-group gaps of any pairing without rematch."""
    if not teams:
        return 0
    first, rest = teams[0], teams[1:]
    best = None
    for i, other in enumerate(rest):
        if frozenset((first, other)) in met:
            continue
        sub = _best_cost(rest[:i] + rest[i + 1 :], mp, met)
        if sub is None:
            continue
        cost = _cost([(first, other)], mp) + sub
        best = cost if best is None else min(best, cost)
    return best


def check_swiss_round(pairs, ranked, mp, met, had_bye) -> None:
    seen = [t for p in pairs for t in p if t is not None]
    assert sorted(seen) == sorted(ranked)
    for a, b in pairs:
        assert b is None or frozenset((a, b)) not in met, "rematch"
    bye = [a for a, b in pairs if b is None]
    if len(ranked) % 2:
        assert len(bye) == 1 and bye[0] not in had_bye
        # the lowest-ranked team without a bye gets it, unless the rest then cannot pair
        lower = [t for t in ranked[ranked.index(bye[0]) + 1 :] if t not in had_bye]
        for t in lower:
            rest = [x for x in ranked if x != t]
            assert _best_cost(rest, mp, met) is None
    else:
        assert not bye
    played = [p for p in pairs if p[1] is not None]
    rest = [t for t in ranked if t not in bye]
    assert _cost(played, mp) == _best_cost(rest, mp, met), "not paired within score groups"


@pytest.mark.parametrize("n", [10, 11])
def test_swiss_five_rounds_no_rematch_one_bye_score_groups(n: int) -> None:
    for seed in range(5):
        play_swiss(n, 5, random.Random(seed))


def test_swiss_first_round_is_top_half_against_bottom_half() -> None:
    pairs = swiss_round(list(range(1, 11)), dict.fromkeys(range(1, 11), 0), [], [])
    assert pairs == [(1, 6), (2, 7), (3, 8), (4, 9), (5, 10)]


def test_swiss_bye_goes_to_the_lowest_ranked_team_without_one() -> None:
    ranked = [1, 2, 3, 4, 5]
    pairs = swiss_round(ranked, dict.fromkeys(ranked, 0), [], had_bye=[5])
    assert pairs[-1] == (4, None)


def test_swiss_refuses_when_only_rematches_are_left() -> None:
    with pytest.raises(PairingError):
        swiss_round([1, 2], {1: 2, 2: 0}, [frozenset((1, 2))], [])


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=4, max_value=9), st.integers(min_value=0, max_value=10_000))
def test_swiss_invariants_over_random_championships(n: int, seed: int) -> None:
    play_swiss(n, min(3, n - 1 if n % 2 == 0 else n - 2), random.Random(seed))


# ---------------------------------------------------------------- knockout and groups


def test_bracket_positions_keep_top_seeds_apart() -> None:
    assert bracket_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    with pytest.raises(PairingError):
        bracket_positions(6)


def test_knockout_of_six_gives_byes_to_the_top_seeds() -> None:
    teams = [11, 12, 13, 14, 15, 16]  # seeds 1..6
    first = knockout_first_round(teams)
    assert first == [(11, None), (14, 15), (12, None), (13, 16)]
    # the winners, in bracket order, meet their neighbours: 1 v winner of 4-5, 2 v winner of 3-6
    assert knockout_next_round([11, 15, 12, 13]) == [(11, 15), (12, 13)]
    assert knockout_next_round([11, 12]) == [(11, 12)]


def test_snake_groups_and_qualifier_seeding() -> None:
    groups = snake_groups(list(range(1, 9)), 2)
    assert groups == [[1, 4, 5, 8], [2, 3, 6, 7]]
    seeded = qualifier_seeding([[1, 4], [2, 3]], 2)
    assert seeded == [1, 2, 4, 3]
    first = knockout_first_round(seeded)
    assert first == [(1, 3), (2, 4)]  # winners meet the other group's runner-up
