"""Pairings of a championship: round robin (Berger tables), Swiss, knockout, groups.

Pure functions over team ids; nothing here touches the database, so every rule is
unit-tested on its own (tests/tournaments/test_pairing.py). A pairing is a list
of ``(home, away)`` tuples in table order; ``away`` is None for a bye. "Home" is
the first team named on the sheet: at an online table it sits in seats 0 and 2.

Rules (docs/tournaments.md states them for organisers):

* Round robin: Berger tables by the circle method. With an odd number of teams a
  dummy is added and whoever meets it has the bye. Each team is home in half of
  its matches (one more or one fewer when the count is odd). A return leg plays
  the same rounds again with home and away swapped.
* Swiss: teams are ranked (match points, then tie-breaks); with an odd count the
  lowest-ranked team that has not had a bye gets it. The rest are paired inside
  their score groups, top half against bottom half (the Dutch way), never twice
  against the same team; when a group cannot be paired the fewest teams float to
  the nearest group. This is a maximum-weight perfect matching (networkx), so the
  choice is optimal, deterministic and fails only when no pairing without a
  rematch exists at all. With ``clubs`` given (the setting ``avoid_same_club``, on by
  default), two teams of the same club meet only when no pairing without a rematch
  has fewer such matches: fewer same-club matches come before the score groups, the
  score groups before the Dutch order.
* Knockout: a bracket of the next power of two, seeded so that 1 and 2 can meet
  only in the final (1 v 16, 8 v 9, ...); the missing places are byes, which
  therefore go to the top seeds.
* Groups then knockout: teams are dealt into groups in snake order of seeding
  (1 2 3 4 / 8 7 6 5 / ...); each group plays a round robin; the first ``advance``
  of each group go to a knockout seeded group winners first. With ``clubs`` given,
  each team of a snake row goes to the group, among those of its row still free, with
  the fewest of its clubmates (snake order breaks a tie), so every group still takes
  one team of each row (the seeding pots hold).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import networkx as nx

Pair = tuple[int, int | None]

__all__ = [
    "Pair",
    "PairingError",
    "berger_rounds",
    "bracket_places",
    "bracket_positions",
    "knockout_first_round",
    "knockout_next_round",
    "qualifier_seeding",
    "same_club",
    "snake_groups",
    "swiss_round",
    "swiss_triples",
    "Triple",
]


class PairingError(ValueError):
    """No pairing satisfies the rules (e.g. every remaining opponent was already met)."""


# ---------------------------------------------------------------- round robin


def berger_rounds(teams: Sequence[int], return_leg: bool = False) -> list[list[Pair]]:
    """All rounds of a round robin among ``teams`` (in seeding order), Berger tables.

    Returns one list of pairs per round; byes (odd counts) come last in their round
    as ``(team, None)``. Each pair of teams meets exactly once per leg; with
    ``return_leg`` the second leg repeats the first with home and away swapped.

    >>> berger_rounds([1, 2, 3, 4])[0]
    [(1, 4), (2, 3)]
    """
    ids: list[int | None] = list(teams)
    if len(set(ids)) != len(ids):
        raise PairingError("a team is listed twice")
    if len(ids) < 2:
        raise PairingError("a round robin needs at least two teams")
    if len(ids) % 2:
        ids.append(None)
    n = len(ids)
    m = n - 1
    first: list[list[Pair]] = []
    for r in range(m):
        raw = [(ids[r], ids[m]) if r % 2 == 0 else (ids[m], ids[r])]
        for i in range(1, n // 2):
            a, b = ids[(r + i) % m], ids[(r - i) % m]
            raw.append((a, b) if i % 2 == 1 else (b, a))
        first.append(_with_byes(raw))
    if not return_leg:
        return first
    second = [[(b, a) if b is not None else (a, None) for a, b in rnd] for rnd in first]
    return first + [_with_byes(rnd) for rnd in second]


def _with_byes(raw: Iterable[tuple[int | None, int | None]]) -> list[Pair]:
    games: list[Pair] = []
    byes: list[Pair] = []
    for a, b in raw:
        if a is None and b is not None:
            byes.append((b, None))
        elif b is None and a is not None:
            byes.append((a, None))
        elif a is not None:
            games.append((a, b))
    return games + byes


# ---------------------------------------------------------------- Swiss


#: A team's club (None: no club), for keeping clubmates apart.
Clubs = Mapping[int, int | None]


def same_club(clubs: Clubs | None, a: int, b: int) -> bool:
    """True when teams ``a`` and ``b`` play for the same club (never for clubless teams)."""
    if not clubs:
        return False
    club = clubs.get(a)
    return club is not None and club == clubs.get(b)


def swiss_round(
    ranked: Sequence[int],
    points: Mapping[int, float],
    met: Iterable[frozenset[int]],
    had_bye: Iterable[int],
    clubs: Clubs | None = None,
) -> list[Pair]:
    """The next Swiss round for ``ranked`` (best first: match points, tie-breaks, seed).

    ``points`` are the teams' match points (the score groups), ``met`` the pairs that
    have already played, ``had_bye`` the teams that already had a bye, ``clubs`` each
    team's club when clubmates are to be kept apart (``None``: not). Returns the
    pairs, best table first, the bye last. Raises PairingError when no pairing
    without a rematch exists (or every team already had its bye).
    """
    order = list(ranked)
    met_set = {frozenset(p) for p in met}
    byes = set(had_bye)
    if len(order) < 2:
        raise PairingError("a Swiss round needs at least two teams")
    if len(order) % 2 == 0:
        pairs = _swiss_match(order, points, met_set, clubs)
        if pairs is None:
            raise PairingError("every pairing of this round would repeat a match")
        return pairs
    for bye in reversed(order):  # the lowest-ranked team without a bye, if the rest can pair
        if bye in byes:
            continue
        rest = [t for t in order if t != bye]
        pairs = _swiss_match(rest, points, met_set, clubs)
        if pairs is not None:
            return pairs + [(bye, None)]
    raise PairingError("no team can take the bye without forcing a repeated match")


def _swiss_match(
    order: list[int],
    points: Mapping[int, float],
    met: set[frozenset[int]],
    clubs: Clubs | None = None,
) -> list[Pair] | None:
    """A perfect matching of ``order`` without rematches, with the fewest clubmates
    paired (``clubs``), then best by score groups, or None."""
    import networkx as nx  # here: its import costs about a second of the server's start

    rank = {t: i for i, t in enumerate(order)}
    levels = sorted({points.get(t, 0) for t in order}, reverse=True)
    level = {t: levels.index(points.get(t, 0)) for t in order}
    groups: dict[int, list[int]] = {}
    for t in order:
        groups.setdefault(level[t], []).append(t)
    pos = {t: groups[level[t]].index(t) for t in order}
    n = len(order)
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(order)
    # Weights: crossing score groups costs far more than any within-group preference,
    # and a wide crossing more than two narrow ones (squared distance).
    big = (n + 1) ** 2
    unit = 10 * big**3  # more than any one pair's cost below
    club_cost = n * unit  # more than the costs of a whole round's pairs together
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            if frozenset((a, b)) in met:
                continue
            gap = abs(level[a] - level[b])
            if gap == 0:
                size = len(groups[level[a]])
                dutch = abs(abs(pos[a] - pos[b]) - size // 2)
            else:
                dutch = abs(rank[a] - rank[b])
            cost = gap * gap * big * big + dutch * big
            if same_club(clubs, a, b):
                cost += club_cost
            graph.add_edge(a, b, weight=club_cost + unit - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if len(matching) * 2 != n:
        return None
    pairs = [(a, b) if rank[a] < rank[b] else (b, a) for a, b in matching]
    pairs.sort(key=lambda p: rank[p[0]])
    return list(pairs)


# ---------------------------------------------------------------- knockout


def bracket_positions(size: int) -> list[int]:
    """Seeds (1-based) in bracket order for a power-of-two ``size``: 8 -> 1 8 4 5 2 7 3 6.

    Neighbours play each other; seeds 1 and 2 can meet only in the final."""
    if size < 1 or size & (size - 1):
        raise PairingError("a bracket has a power-of-two size")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def knockout_first_round(seeded: Sequence[int]) -> list[Pair]:
    """The first knockout round of ``seeded`` (best first), in bracket order.

    The bracket has the next power of two places; the places beyond the field are
    byes, so they go to the top seeds: ``(team, None)``. The list keeps bracket order
    (byes included), so ``knockout_next_round`` pairs neighbours."""
    teams = list(seeded)
    if len(teams) < 2:
        raise PairingError("a knockout needs at least two teams")
    if len(set(teams)) != len(teams):
        raise PairingError("a team is listed twice")
    size = 1
    while size < len(teams):
        size *= 2
    order = bracket_positions(size)
    slots = [teams[s - 1] if s <= len(teams) else None for s in order]
    pairs: list[Pair] = []
    for i in range(0, size, 2):
        a, b = slots[i], slots[i + 1]
        assert a is not None  # the better seed of a pair is always within the field
        pairs.append((a, b))
    return pairs


def bracket_places(stage: str, tables: int) -> int | None:
    """The places of a knockout round of ``tables`` tables (byes included): 2 for the
    final, 4 for the semi-finals, 8 for the quarter-finals, 16 for the round of 16, ...
    (the teams left, counting a bye's empty place as the bracket does); None for a round
    of another stage. The pages name the round from it (``pages.round_name``)."""
    return 2 * tables if stage == "knockout" and tables else None


def knockout_next_round(winners: Sequence[int]) -> list[Pair]:
    """The next knockout round: the winners of the previous round, in bracket order,
    meet their neighbours (1st v 2nd, 3rd v 4th, ...)."""
    if len(winners) < 2 or len(winners) % 2:
        raise PairingError("the next knockout round needs an even number of winners")
    return [(winners[i], winners[i + 1]) for i in range(0, len(winners), 2)]


# ---------------------------------------------------------------- groups


def snake_groups(seeded: Sequence[int], count: int, clubs: Clubs | None = None) -> list[list[int]]:
    """Deal ``seeded`` teams (best first) into ``count`` groups in snake order; with
    ``clubs``, a team takes the free group of its row with the fewest clubmates."""
    if count < 1:
        raise PairingError("at least one group")
    if len(seeded) < 2 * count:
        raise PairingError(f"{count} groups need at least {2 * count} teams")
    groups: list[list[int]] = [[] for _ in range(count)]
    for start in range(0, len(seeded), count):
        lap = start // count
        snake = list(range(count)) if lap % 2 == 0 else list(reversed(range(count)))
        for team in seeded[start : start + count]:
            place = min(
                snake, key=lambda g: sum(same_club(clubs, team, other) for other in groups[g])
            )
            snake.remove(place)
            groups[place].append(team)
    if clubs:
        _fewer_clubmates(groups, clubs)
    return groups


def _clubmate_pairs(group: list[int], clubs: Clubs) -> int:
    return sum(same_club(clubs, a, b) for i, a in enumerate(group) for b in group[i + 1 :])


def _fewer_clubmates(groups: list[list[int]], clubs: Clubs) -> None:
    """Swap two teams of one seeding row (the same place in two groups) while it lowers
    the number of clubmate pairs in the groups: the row-by-row choice of ``snake_groups``
    cannot see that a later row would fit better after an earlier swap. Every swap keeps
    each group's one team per row; it ends, as each swap lowers a finite count."""
    improved = True
    while improved:
        improved = False
        for row in range(max(len(g) for g in groups)):
            for a, b in combinations([g for g in groups if len(g) > row], 2):
                before = _clubmate_pairs(a, clubs) + _clubmate_pairs(b, clubs)
                a[row], b[row] = b[row], a[row]
                if _clubmate_pairs(a, clubs) + _clubmate_pairs(b, clubs) < before:
                    improved = True
                else:
                    a[row], b[row] = b[row], a[row]


def qualifier_seeding(places: Sequence[Sequence[int]], advance: int) -> list[int]:
    """Knockout seeding from group standings: ``places[g]`` is group g's final order.

    All group winners first (group A, B, ...), then the runners-up (A, B, ...), and
    so on; with the bracket's seeding a winner never meets its own runner-up in the
    first round (2 or 4 groups, two qualifiers each)."""
    seeded: list[int] = []
    for place in range(advance):
        seeded.extend(g[place] for g in places if len(g) > place)
    return seeded


# ---------------------------------------------------------------- Swiss in threes


Triple = tuple[int, int | None, int | None]


def swiss_triples(
    ranked: Sequence[int],
    met: Iterable[frozenset[int]],
    had_bye: Iterable[int],
) -> list[Triple]:
    """The next Swiss round of a game of three players each for himself (Belote for
    three, docs/tournaments.md "Three players each for himself").

    ``ranked`` best first (by match points or by points, the organiser's choice),
    ``met`` the pairs of players who have already sat at one table, ``had_bye`` the
    players who already had a bye. When the count is not a multiple of three, the one
    or two lowest-ranked players without a bye (else the lowest-ranked) get a bye each,
    ``(player, None, None)``, listed last. The rest sit in threes, best table first:
    the search takes the best player left and seats him with the two nearest in the
    ranking with whom no one at the table has sat before; a repeat is allowed only when
    no seating without one exists (the fewest repeated pairs; among seatings with as
    few, the first found, best player first, nearest ranks first).
    Raises PairingError for fewer than three players."""
    order = list(ranked)
    if len(set(order)) != len(order):
        raise PairingError("a player is listed twice")
    if len(order) < 3:
        raise PairingError("a table of three needs at least three players")
    met_set = {frozenset(p) for p in met}
    byes_had = set(had_bye)
    extra = len(order) % 3
    byes: list[int] = []
    for player in reversed(order):
        if len(byes) == extra:
            break
        if player not in byes_had:
            byes.append(player)
    for player in reversed(order):  # everyone had one: the lowest-ranked again
        if len(byes) == extra:
            break
        if player not in byes:
            byes.append(player)
    rest = [p for p in order if p not in byes]
    rank = {p: i for i, p in enumerate(order)}
    best: list[tuple[tuple[int, int], list[Triple]]] = []
    budget = [20000]  # nodes searched: the first table-by-table answer found is kept

    def repeats(a: int, b: int, c: int) -> int:
        return sum(frozenset(x) in met_set for x in ((a, b), (a, c), (b, c)))

    def search(left: list[int], tables: list[Triple], cost: tuple[int, int], allowed: int) -> bool:
        budget[0] -= 1
        if budget[0] < 0:
            return False
        if not left:
            best.append((cost, list(tables)))
            return True
        a, others = left[0], left[1:]
        options = []
        for i, b in enumerate(others):
            for c in others[i + 1 :]:
                r = repeats(a, b, c)
                if cost[0] + r <= allowed:
                    options.append((r, rank[b] + rank[c], b, c))
        options.sort()
        for r, spread, b, c in options:
            tables.append((a, b, c))
            found = search(
                [p for p in others if p not in (b, c)],
                tables,
                (cost[0] + r, cost[1] + spread),
                allowed,
            )
            tables.pop()
            if found:
                return True
        return False

    for allowed in range(0, len(rest) + 1):
        budget[0] = 20000
        if search(rest, [], (0, 0), allowed):
            break
    if not best:
        raise PairingError("no seating of this round was found")
    tables = best[0][1]
    return tables + [(p, None, None) for p in sorted(byes, key=lambda p: rank[p])]
