"""Keeping teams of the same club apart (issue 19 §3, setting ``avoid_same_club``, on by
default): a Swiss pairs clubmates only when no other pairing without a rematch exists,
and the groups of a groups-then-knockout take clubmates apart within the seeding pots."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.tournaments.pairing import same_club, snake_groups, swiss_round
from tests.tournaments.conftest import Org

# Teams 1..4, all on 0 points: the Dutch way pairs the top half with the bottom half,
# 1-3 and 2-4. With 1 and 3 of club A and 2 and 4 of club B, both would be clubmates.
CLUBS = {1: 10, 2: 20, 3: 10, 4: 20}


def test_a_swiss_round_pairs_clubmates_apart_when_it_can() -> None:
    assert swiss_round([1, 2, 3, 4], {}, [], []) == [(1, 3), (2, 4)]  # the Dutch way
    pairs = swiss_round([1, 2, 3, 4], {}, [], [], CLUBS)
    assert not any(same_club(CLUBS, a, b) for a, b in pairs if b is not None)
    assert sorted(t for p in pairs for t in p if t is not None) == [1, 2, 3, 4]


def test_clubmates_meet_rather_than_a_rematch() -> None:
    # 1-2 and 3-4 already met: the only pairings left are 1-3/2-4 and 1-4/2-3; the
    # second has no clubmates
    assert sorted(
        swiss_round([1, 2, 3, 4], {}, [frozenset((1, 2)), frozenset((3, 4))], [], CLUBS)
    ) == [
        (1, 4),
        (2, 3),
    ]
    # 1-4 and 2-3 also met: only 1-3/2-4 is left, clubmates or not
    met = [frozenset(p) for p in ((1, 2), (3, 4), (1, 4), (2, 3))]
    assert sorted(swiss_round([1, 2, 3, 4], {}, met, [], CLUBS)) == [(1, 3), (2, 4)]


def test_clubmates_apart_comes_before_the_score_groups() -> None:
    # 1 and 2 lead on 2 points, 3 and 4 have none: the score groups want 1-2 and 3-4, but
    # 1 and 2 are clubmates, and so are 3 and 4
    clubs = {1: 10, 2: 10, 3: 20, 4: 20}
    pairs = swiss_round([1, 2, 3, 4], {1: 2, 2: 2}, [], [], clubs)
    assert sorted(pairs) in ([(1, 3), (2, 4)], [(1, 4), (2, 3)])


@settings(max_examples=60, deadline=None)
@given(st.integers(4, 12), st.integers(1, 4), st.integers(0, 10_000))
def test_a_swiss_round_has_the_fewest_clubmate_matches_possible(
    n: int, club_count: int, seed: int
) -> None:
    """Property: no perfect pairing of the same teams (without rematch, same bye) has
    fewer clubmate matches than the one chosen. Checked by brute force."""
    rng = random.Random(seed)
    teams = list(range(1, n + 1))
    clubs = {t: rng.randrange(club_count) if rng.random() < 0.8 else None for t in teams}
    points = {t: rng.choice((0, 2)) for t in teams}
    ranked = sorted(teams, key=lambda t: -points[t])
    pairs = swiss_round(ranked, points, [], [], clubs)
    chosen = sum(same_club(clubs, a, b) for a, b in pairs if b is not None)
    playing = [t for p in pairs for t in p if t is not None and p[1] is not None]

    def best(rest: list[int]) -> int:
        if not rest:
            return 0
        a, others = rest[0], rest[1:]
        return min(same_club(clubs, a, b) + best([x for x in others if x != b]) for b in others)

    assert chosen == best(sorted(playing))


def test_groups_take_clubmates_apart_within_the_pots() -> None:
    seeded = [1, 2, 3, 4, 5, 6, 7, 8]  # two groups: pots {1,2} {3,4} {5,6} {7,8}
    assert snake_groups(seeded, 2) == [[1, 4, 5, 8], [2, 3, 6, 7]]
    clubs = {1: 10, 4: 10, 2: 20, 3: 20}  # the snake would put 1 with 4, 2 with 3
    groups = snake_groups(seeded, 2, clubs)
    assert groups == [[1, 3, 5, 8], [2, 4, 6, 7]]
    for g in groups:
        assert not any(same_club(clubs, a, b) for a, b in itertools.combinations(g, 2))
    for pot in ((1, 2), (3, 4), (5, 6), (7, 8)):  # each group still one team of each pot
        assert all(len(set(pot) & set(g)) == 1 for g in groups)


async def test_the_setting_is_on_by_default_and_can_be_turned_off(org: Org) -> None:
    on = await org.post("/tournaments", {"name": "Suís", "game": "bolot", "format": "swiss"}, 201)
    assert on["settings"]["avoid_same_club"] is True
    off = await org.post(
        "/tournaments",
        {
            "name": "Suís 2",
            "game": "bolot",
            "format": "swiss",
            "settings": {"avoid_same_club": False},
        },
        201,
    )
    assert off["settings"]["avoid_same_club"] is False
    rr = await org.post(
        "/tournaments", {"name": "Lliga", "game": "bolot", "format": "round_robin"}, 201
    )
    assert "avoid_same_club" not in rr["settings"]
    await org.post(
        "/tournaments",
        {"name": "X", "game": "bolot", "format": "swiss", "settings": {"avoid_same_club": "yes"}},
        422,
    )


async def test_a_swiss_of_two_clubs_pairs_across_clubs(org: Org) -> None:
    a = await org.post("/clubs", {"name": "Falla A", "kind": "falla", "town": "Sagunt"}, 201)
    b = await org.post("/clubs", {"name": "Falla B", "kind": "falla", "town": "Sagunt"}, 201)
    t = await org.post("/tournaments", {"name": "Suís", "game": "bolot", "format": "swiss"}, 201)
    club_of = {}
    for i, club in enumerate((a, a, b, b, a, b)):
        team = await org.post(
            f"/tournaments/{t['id']}/teams",
            {"name": f"P{i}", "players": [f"J{i}a", f"J{i}b"], "club_id": club["id"]},
            201,
        )
        club_of[team["id"]] = club["id"]
    draft = await org.post(f"/tournaments/{t['id']}/rounds", status=201)
    for x in draft["tables"]:
        assert club_of[x["home"]["id"]] != club_of[x["away"]["id"]], draft["tables"]


def test_groups_swap_within_a_pot_when_a_later_pot_needs_it() -> None:
    """Twelve teams, three groups, clubs by seed c1 c2 c3 c4 c1 c2 c3 c4 c1 c1 c2 c3 (a
    fresh tester's case): row by row leaves 3 clubmate pairs; one pair is the fewest
    possible (club 1 has four teams for three groups), and every pot still gives one team
    to each group."""
    seeded = list(range(1, 13))
    club = dict(zip(seeded, [1, 2, 3, 4, 1, 2, 3, 4, 1, 1, 2, 3], strict=True))
    groups = snake_groups(seeded, 3, club)
    pairs = sum(same_club(club, a, b) for g in groups for a, b in itertools.combinations(g, 2))
    assert pairs == 1
    for pot in (seeded[0:3], seeded[3:6], seeded[6:9], seeded[9:12]):
        assert all(len(set(pot) & set(g)) == 1 for g in groups)
