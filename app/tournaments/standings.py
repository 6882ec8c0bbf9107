"""Standings of a championship and the club ranking: pure functions over results.

The order (docs/tournaments.md, shown on the standings page):

1. match points (win 2, draw 1, loss 0 and a bye 2 by default, the tournament's
   ``points`` setting);
2. the tournament's tie-breaks in their order, each applied only to the teams
   still level at that step:

   * ``head_to_head``: match points in the matches among the teams still level (a
     mini-league; skipped when not every two of them have met, as in Swiss);
   * ``point_difference``: game points scored minus conceded;
   * ``points_scored``: game points scored;
   * ``buchholz``: the sum of the match points of every opponent met (a bye adds
     nothing);
   * ``wins``: matches won;

   A criterion that splits the level teams sends each part on to the next criterion,
   so a three-way tie may be broken in two steps;
3. teams still level share the rank, listed in seeding order.

Forfeits count for match points only (no game points); a bye of a round robin or a
Swiss counts as a match played and won with no game points, so played = won + drawn +
lost on every row. A bye of a knockout only takes the team to the next round: it is no
match (neither played nor won, no match points) and counts in ``byes`` alone, so the
identity holds there too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

TIEBREAKS: dict[str, str] = {
    "head_to_head": "head-to-head (match points among the teams level)",
    "point_difference": "point difference (scored minus conceded)",
    "points_scored": "points scored",
    "buchholz": "Buchholz (sum of the opponents' match points)",
    "wins": "matches won",
}

DEFAULT_POINTS = {"win": 2, "draw": 1, "loss": 0, "bye": 2}


@dataclass(frozen=True, slots=True)
class Result:
    """One finished match: ``away`` None for a bye; ``winner`` a team id or None for a
    draw; ``forfeit`` when it was not played (the winner gets match points only);
    ``knockout`` for a bye of a knockout round, which advances the team but is no match
    (docs/tournaments.md "Standings")."""

    home: int
    away: int | None
    home_score: int = 0
    away_score: int = 0
    winner: int | None = None
    forfeit: bool = False
    knockout: bool = False


@dataclass(slots=True)
class Row:
    """A team's line: counts, match points, the tie-break values, rank and ``decided_by``
    (the criterion that put it above the next team, None when match points did or
    nothing did)."""

    team: int
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    byes: int = 0
    match_points: float = 0
    points_for: int = 0
    points_against: int = 0
    buchholz: float = 0
    head_to_head: float | None = None
    rank: int = 0
    decided_by: str | None = None
    opponents: list[int] = field(default_factory=list)

    @property
    def point_difference(self) -> int:
        """Game points scored minus conceded."""
        return self.points_for - self.points_against

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape of the row."""
        return {
            "team": self.team,
            "rank": self.rank,
            "played": self.played,
            "won": self.won,
            "drawn": self.drawn,
            "lost": self.lost,
            "byes": self.byes,
            "match_points": self.match_points,
            "points_for": self.points_for,
            "points_against": self.points_against,
            "point_difference": self.point_difference,
            "buchholz": self.buchholz,
            "head_to_head": self.head_to_head,
            "decided_by": self.decided_by,
        }


def match_points_of(result: Result, team: int, points: Mapping[str, float]) -> float:
    """The match points ``team`` earns from ``result`` (none for a knockout's bye)."""
    if result.away is None:
        return 0 if result.knockout else points.get("bye", points["win"])
    if result.winner is None:
        return points["draw"]
    return points["win"] if result.winner == team else points["loss"]


def standings(
    teams: Sequence[int],
    results: Iterable[Result],
    tiebreaks: Sequence[str] = ("head_to_head", "point_difference", "points_scored"),
    points: Mapping[str, float] | None = None,
) -> list[Row]:
    """The ranked rows of ``teams`` (in seeding order) after ``results``.

    Raises ValueError for an unknown tie-break name."""
    pts = {**DEFAULT_POINTS, **(points or {})}
    unknown = [t for t in tiebreaks if t not in TIEBREAKS]
    if unknown:
        raise ValueError(f"unknown tie-break {unknown[0]!r}; known: {', '.join(TIEBREAKS)}")
    rows = {t: Row(team=t) for t in teams}
    played = [r for r in results if r.home in rows and (r.away is None or r.away in rows)]
    for r in played:
        home = rows[r.home]
        if r.away is None:
            home.byes += 1
            if r.knockout:  # the team goes through: no match played, none won
                continue
            home.played += 1  # a bye is a match won: played = won + drawn + lost
            home.won += 1
            home.match_points += match_points_of(r, r.home, pts)
            continue
        away = rows[r.away]
        for me, other, mine, theirs in (
            (home, away, r.home_score, r.away_score),
            (away, home, r.away_score, r.home_score),
        ):
            me.played += 1
            me.opponents.append(other.team)
            me.match_points += match_points_of(r, me.team, pts)
            if not r.forfeit:
                me.points_for += mine
                me.points_against += theirs
            if r.winner is None:
                me.drawn += 1
            elif r.winner == me.team:
                me.won += 1
            else:
                me.lost += 1
    for row in rows.values():
        row.buchholz = sum(rows[o].match_points for o in row.opponents)
    reach = knockout_reach(played)
    seed = {t: i for i, t in enumerate(teams)}
    ordered: list[list[Row]] = []  # groups of rows still level, best first
    by_mp: dict[tuple[int, int, float], list[Row]] = {}
    for row in sorted(
        rows.values(),
        key=lambda x: (*(-k for k in reach.get(x.team, (0, 0))), -x.match_points, seed[x.team]),
    ):
        by_mp.setdefault((*reach.get(row.team, (0, 0)), row.match_points), []).append(row)
    for group in by_mp.values():
        ordered.extend(_break(group, list(tiebreaks), played, pts, seed))
    out: list[Row] = []
    for group in ordered:
        rank = len(out) + 1
        for row in group:
            row.rank = rank
            out.append(row)
    return out


def knockout_reach(results: Sequence[Result]) -> dict[int, tuple[int, int]]:
    """How far each team went in the knockout (``results`` in round order): ``(knockout
    rounds it took part in, byes included; 1 if it went on from the last of them, else
    0)``. The standings rank on it before the match points, so the champion is first,
    the runner-up second, the semi-finalists next, and a team out in the groups below
    every team of the knockout, whatever the match points of the group stage (a fresh
    organiser's semi-finalist stood below two quarter-finalists). Teams of a format
    without a knockout are all (0, 0): nothing changes for them."""
    out: dict[int, tuple[int, int]] = {}
    for r in results:
        if not r.knockout:
            continue
        for team in (r.home, r.away):
            if team is None:
                continue
            went_on = r.away is None or r.winner == team
            out[team] = (out.get(team, (0, 0))[0] + 1, int(went_on))
    return out


def _break(
    group: list[Row],
    criteria: list[str],
    results: list[Result],
    pts: Mapping[str, float],
    seed: Mapping[int, int],
) -> list[list[Row]]:
    """Split a level ``group`` by ``criteria`` in order; returns the parts best first."""
    if len(group) == 1 or not criteria:
        return [sorted(group, key=lambda r: seed[r.team])]
    name, rest = criteria[0], criteria[1:]
    value = _criterion(name, group, results, pts)
    if value is None:
        return _break(group, rest, results, pts, seed)
    parts: dict[float, list[Row]] = {}
    for row in group:
        parts.setdefault(value(row), []).append(row)
    if len(parts) == 1:
        return _break(group, rest, results, pts, seed)
    out: list[list[Row]] = []
    keys = sorted(parts, reverse=True)
    for i, key in enumerate(keys):
        pieces = _break(parts[key], rest, results, pts, seed)
        if i + 1 < len(keys):
            pieces[-1][-1].decided_by = pieces[-1][-1].decided_by or name
        out.extend(pieces)
    return out


def _criterion(
    name: str, group: list[Row], results: list[Result], pts: Mapping[str, float]
) -> Callable[[Row], float] | None:
    """The value function of tie-break ``name`` for ``group``, or None when it does not apply."""
    if name == "point_difference":
        return lambda r: r.point_difference
    if name == "points_scored":
        return lambda r: r.points_for
    if name == "buchholz":
        return lambda r: r.buchholz
    if name == "wins":
        return lambda r: r.won
    ids = {r.team for r in group}
    among = [r for r in results if r.away is not None and r.home in ids and r.away in ids]
    met = {frozenset((r.home, r.away)) for r in among}
    if any(frozenset(p) not in met for p in combinations(ids, 2)):
        return None
    mini = {t: 0.0 for t in ids}
    for r in among:
        mini[r.home] += match_points_of(r, r.home, pts)
        assert r.away is not None
        mini[r.away] += match_points_of(r, r.away, pts)
    for row in group:
        row.head_to_head = mini[row.team]
    return lambda r: mini[r.team]


def club_ranking(rows: Sequence[Row], club_of: Mapping[int, int | None]) -> list[dict[str, Any]]:
    """Clubs ranked by the sum of their teams' match points, then point difference,
    then points scored: ``[{club, rank, teams, match_points, point_difference,
    points_for}]``. Teams without a club are left out."""
    clubs: dict[int, dict[str, Any]] = {}
    for row in rows:
        club = club_of.get(row.team)
        if club is None:
            continue
        c = clubs.setdefault(
            club,
            {"club": club, "teams": 0, "match_points": 0, "point_difference": 0, "points_for": 0},
        )
        c["teams"] += 1
        c["match_points"] += row.match_points
        c["point_difference"] += row.point_difference
        c["points_for"] += row.points_for
    key = lambda c: (c["match_points"], c["point_difference"], c["points_for"])  # noqa: E731
    ranked = sorted(
        clubs.values(),
        key=lambda c: (-c["match_points"], -c["point_difference"], -c["points_for"], c["club"]),
    )
    for i, c in enumerate(ranked):
        c["rank"] = ranked[i - 1]["rank"] if i and key(ranked[i - 1]) == key(c) else i + 1
    return ranked


def explain(tiebreaks: Sequence[str]) -> list[str]:
    """The order of the standings as sentences, for the page."""
    lines = ["match points"]
    lines += [TIEBREAKS[t] for t in tiebreaks]
    lines.append("teams still level share the rank")
    return lines


def pairs_met(results: Iterable[Result]) -> set[frozenset[int]]:
    """The pairs of teams that have played each other (byes excluded)."""
    return {frozenset((r.home, r.away)) for r in results if r.away is not None}


# ---------------------------------------------------------------- three players each for himself

#: How a championship of three players each for himself ranks (the organiser chooses).
RANKINGS = ("match_points", "points")


@dataclass(frozen=True, slots=True)
class TableOfThree:
    """One finished table of a game of three players each for himself: ``players`` in
    seat order and their match ``scores``; a bye is ``players=(p,)`` and no scores.
    ``resigned``: the seat whose player resigned the match (last, whatever the scores:
    docs/tournaments.md), or None."""

    players: tuple[int, ...]
    scores: tuple[int, ...] = ()
    resigned: int | None = None


def place_keys(scores: Sequence[int], resigned: int | None = None) -> list[tuple[int, int]]:
    """What places a table of three: ``(0, score)`` for the seat that resigned, ``(1,
    score)`` for the others, so the resigner is last and the others rank by score."""
    return [(0 if i == resigned else 1, s) for i, s in enumerate(scores)]


def places_points(
    scores: Sequence[int], points: Mapping[str, float], resigned: int | None = None
) -> list[float]:
    """The match points of each seat of a table of three from its scores: the highest
    score gets ``win``, the second ``draw``, the third ``loss`` (2, 1, 0 by default);
    players with equal scores share the mean of the places they cover (two first:
    (2 + 1) / 2 = 1.5 each). The seat ``resigned`` is third whatever its score."""
    values = [points["win"], points["draw"], points["loss"]]
    keys = place_keys(scores, resigned)
    order = sorted(range(len(scores)), key=lambda i: keys[i], reverse=True)
    out = [0.0] * len(scores)
    place = 0
    while place < len(order):
        same = [i for i in order if keys[i] == keys[order[place]]]
        share = sum(values[place : place + len(same)]) / len(same)
        for i in same:
            out[i] = share
        place += len(same)
    return out


def standings_three(
    players: Sequence[int],
    tables: Iterable[TableOfThree],
    ranking: str = "match_points",
    points: Mapping[str, float] | None = None,
) -> list[Row]:
    """The ranked rows of ``players`` (in seeding order) of a championship of three
    players each for himself (docs/tournaments.md "Three players each for himself").

    ``ranking`` "match_points": match points (places: 2, 1, 0; a bye ``points["bye"]``,
    by default a second place's), then points scored, then first places won;
    "points": points scored (the sum of the player's match scores; a bye adds none),
    then match points, then first places. Players still level share the rank. In a
    row, ``won``/``drawn``/``lost`` count first, second and third places (a first
    place shared counts as won), ``points_against`` the opponents' scores (each table
    adds both), ``buchholz`` the opponents' match points. Raises ValueError for an
    unknown ranking."""
    if ranking not in RANKINGS:
        raise ValueError(f"unknown ranking {ranking!r}; known: {', '.join(RANKINGS)}")
    pts = {**DEFAULT_POINTS, **(points or {})}
    rows = {p: Row(team=p) for p in players}
    counted = [x for x in tables if all(p in rows for p in x.players)]
    for x in counted:
        if len(x.players) == 1:
            row = rows[x.players[0]]
            row.byes += 1
            row.match_points += pts["bye"]
            continue
        earned = places_points(x.scores, pts, x.resigned)
        keys = place_keys(x.scores, x.resigned)
        top = max(keys)
        for i, p in enumerate(x.players):
            row = rows[p]
            row.played += 1
            row.match_points += earned[i]
            row.points_for += x.scores[i]
            row.points_against += sum(s for j, s in enumerate(x.scores) if j != i)
            row.opponents.extend(q for q in x.players if q != p)
            higher = sum(1 for k in keys if k > keys[i])
            if keys[i] == top:
                row.won += 1
            elif higher == 1:
                row.drawn += 1
            else:
                row.lost += 1
    for row in rows.values():
        row.buchholz = sum(rows[o].match_points for o in row.opponents)
    seed = {p: i for i, p in enumerate(players)}
    if ranking == "match_points":
        names = ("match_points", "points_scored", "wins")

        def key(r: Row) -> tuple[float, ...]:
            return (r.match_points, r.points_for, r.won)
    else:
        names = ("points_scored", "match_points", "wins")

        def key(r: Row) -> tuple[float, ...]:
            return (r.points_for, r.match_points, r.won)

    ordered = sorted(rows.values(), key=lambda r: tuple(-v for v in key(r)) + (seed[r.team],))
    for i, row in enumerate(ordered):
        if i and key(ordered[i - 1]) == key(row):
            row.rank = ordered[i - 1].rank
        else:
            row.rank = i + 1
        if i + 1 < len(ordered) and key(ordered[i + 1]) != key(row):
            nxt = key(ordered[i + 1])
            first = next(k for k, (a, b) in enumerate(zip(key(row), nxt, strict=True)) if a != b)
            row.decided_by = None if first == 0 else names[first]
    return ordered


def explain_three(ranking: str) -> list[str]:
    """The order of a three-player championship's standings as sentences, for the page."""
    first = ["match points", "points scored"]
    if ranking == "points":
        first.reverse()
    return first + ["first places", "players still level share the rank"]
