"""Bridge-Belote: which declarations count, and the score of one deal (rules/bridge-belote.md §5, §7-8).

Raw points are compared before rounding; each team's raw points are then
rounded to game points (÷ 10) by the table of §7, so that the two teams'
points add up to the deal total R. The declarers with fewer raw points are
"inside" (*вътре*) and the defenders write R; an undoubled tie leaves the
declarers' half hanging (*висящи точки*) for the next deal that is not a tie.
"""

from __future__ import annotations

from typing import Any

from app.rules.bridge_belote_contract import (
    ALL_TRUMPS,
    ALL_TRUMPS_KIND,
    NO_TRUMPS,
    SUIT,
    TABLE,
    trump_marker,
)
from app.rules.declarations import check_disjoint, run_key
from app.rules.errors import IllegalAction
from app.rules.scoring import check_tricks_and_points, compare_best
from app.rules.types import DealScore

#: §5: points of a four (J 200, 9 150, A T K Q 100), and their order low -> high.
FOUR_POINTS = {"J": 200, "9": 150, "A": 100, "T": 100, "K": 100, "Q": 100}
FOUR_ORDER = ("Q", "K", "T", "A", "9", "J")
CAPOT_BONUS = 90
LAST_TRICK = 10
BELOT = 20

#: §7 rounding: a unit digit at or above UP_FROM rounds up; the AMBIGUOUS digit
#: rounds down for the team with more raw points and up for the team with fewer.
UP_FROM = {SUIT: 7, ALL_TRUMPS_KIND: 5, NO_TRUMPS: 5}
AMBIGUOUS = {SUIT: 6, ALL_TRUMPS_KIND: 4}


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def run_points(length: int, eight_card_run_120: bool) -> int:
    """Tierce 20, quarte 50, quint 100 for 5 to 8 cards; 120 for 8 with the option (§5, §10)."""
    if length == 8 and eight_card_run_120:
        return 120
    return {3: 20, 4: 50}.get(length, 100)


def round_team(raw: int, more: bool, kind: str) -> int:
    """One team's raw points in game points (§7 table); ``more``: it has more than the other team."""
    q, u = divmod(raw, 10)
    if u == AMBIGUOUS.get(kind):
        return q if more else q + 1
    return q + 1 if u >= UP_FROM[kind] else q


def round_total(total: int) -> int:
    """The deal total R: the two teams' raw points to the nearest ten, ÷ 10 (§7)."""
    return (total + 5) // 10


# ---------------------------------------------------------------------- declarations
def contest_key(combo: dict[str, Any], eight_card_run_120: bool) -> tuple[int, int, int]:
    """Key of a run or four in the one contest of option ``runs_and_fours_one_contest`` (§10).

    ``(value, 1 for a four else 0, top)``: the higher value first (a run of 6-8
    is worth a quint, 100, or 120 for 8 with ``eight_card_run_120``), then a four
    beats a run of equal value, then the top card (a run's top in run order; a
    four's rank in four order, J > 9 > A > T > K > Q). docs/rules-bridge-belote-notes.md.
    """
    if combo["kind"] == "four":
        rank = str(combo["rank"])
        return (FOUR_POINTS[rank], 1, FOUR_ORDER.index(rank))
    return (
        run_points(int(combo["length"]), eight_card_run_120),
        0,
        TABLE.seq_index[str(combo["top"])],
    )


def _best_or_cancel(keys: list[list[Any]], what: str) -> int | None:
    """The team with the higher best key; None when neither has any or the best are equal."""
    if keys[0] and keys[1] and max(keys[0]) == max(keys[1]):
        return None
    return compare_best(keys, None, what)


def valid_declarations(
    declarations: list[list[dict[str, Any]]], options: dict[str, Any]
) -> dict[str, Any]:
    """Which runs and fours count (§5 "Which declarations count"); belots are not compared here.

    Returns ``{"points": [p0, p1], "run_winner": team|None, "four_winner": team|None}``
    (the team whose runs, or fours, score).
    Runs against runs (longer, then higher top; 5-8 count as 5; equal best runs
    cancel every run), fours against fours (J > 9 > A > T > K > Q), each side
    independent; with ``carre_kills_quint`` a team's four first cancels the other
    team's runs of 5 or more. With ``runs_and_fours_one_contest`` (the 2001
    program, docs/rules-bridge-belote-notes.md) runs and fours are one contest (:func:`contest_key`): the team
    with the best declaration scores all its runs and fours, and an exact tie
    cancels every run and four of both teams.
    """
    eight = options["eight_card_run_120"]
    runs = [[c for c in d if c["kind"] == "sequence"] for d in declarations]
    fours = [[c for c in d if c["kind"] == "four"] for d in declarations]
    if options["carre_kills_quint"]:
        runs = [[c for c in runs[t] if not (fours[1 - t] and c["length"] >= 5)] for t in (0, 1)]
    points = [0, 0]
    if options["runs_and_fours_one_contest"]:
        winner = _best_or_cancel(
            [[contest_key(c, eight) for c in runs[t] + fours[t]] for t in (0, 1)], "declarations"
        )
        if winner is None:
            return {"points": points, "run_winner": None, "four_winner": None}
        points[winner] = sum(run_points(c["length"], eight) for c in runs[winner]) + sum(
            FOUR_POINTS[str(c["rank"])] for c in fours[winner]
        )
        return {
            "points": points,
            "run_winner": winner if runs[winner] else None,
            "four_winner": winner if fours[winner] else None,
        }
    run_winner = _best_or_cancel(
        [[run_key(c, TABLE, None) for c in runs[t]] for t in (0, 1)], "runs"
    )
    if run_winner is not None:
        points[run_winner] += sum(run_points(c["length"], eight) for c in runs[run_winner])
    four_winner = compare_best(
        [[FOUR_ORDER.index(str(c["rank"])) for c in fours[t]] for t in (0, 1)], None, "fours"
    )
    if four_winner is not None:
        points[four_winner] += sum(FOUR_POINTS[str(c["rank"])] for c in fours[four_winner])
    return {"points": points, "run_winner": run_winner, "four_winner": four_winner}


# ---------------------------------------------------------------------- summary checks
def check_summary(game: Any, summary: Any) -> dict[str, Any]:
    """Validate a deal summary (§8) and return its parts.

    Returns ``{"kind", "trump", "declarer", "multiplier", "tricks", "card_points",
    "last", "declarations", "belote", "carried_in"}``.

    Raises:
        IllegalAction: each rejection of §8, with the reason.
    """
    if not isinstance(summary, dict):
        raise IllegalAction("summary_object")
    contract = summary.get("contract")
    trump = trump_marker(contract)
    assert isinstance(contract, dict)  # trump_marker refused anything else
    kind = contract["kind"]
    declarer = contract.get("declarer_team")
    if not _int(declarer) or declarer not in (0, 1):
        raise IllegalAction("team_field", field="declarer_team")
    multiplier = contract.get("multiplier", 1)
    if not _int(multiplier) or multiplier not in (1, 2, 4):
        raise IllegalAction("multiplier")
    tricks, cp = check_tricks_and_points(game, summary, trump)
    last = summary.get("last_trick_team")
    if not _int(last) or last not in (0, 1):
        raise IllegalAction("team_field", field="last_trick_team")
    if tricks[last] == 0:
        raise IllegalAction("last_trick_no_trick")
    carried = summary.get("carried_in", 0) or 0
    if not _int(carried) or carried < 0:
        raise IllegalAction("carried_in_hanging")
    if summary.get("revoke_team") is not None:
        raise IllegalAction("no_revoke", game="Bridge-Belote")
    decl, belote = _check_declarations(summary, kind, trump)
    return {
        "kind": kind,
        "trump": trump,
        "declarer": declarer,
        "multiplier": multiplier,
        "tricks": tricks,
        "card_points": cp,
        "last": last,
        "declarations": decl,
        "belote": belote,
        "carried_in": carried,
    }


def _check_declarations(
    summary: dict[str, Any], kind: str, trump: str | None
) -> tuple[list[list[dict[str, Any]]], list[int]]:
    decl = summary.get("declarations", [[], []])
    if not (
        isinstance(decl, list)
        and len(decl) == 2
        and all(isinstance(d, list) for d in decl)
        and all(isinstance(c, dict) for d in decl for c in d)
    ):
        raise IllegalAction("declarations_lists")
    belote = summary.get("belote", [0, 0])
    if not (
        isinstance(belote, list) and len(belote) == 2 and all(_int(b) and b >= 0 for b in belote)
    ):
        raise IllegalAction("belot_numbers")
    if kind == NO_TRUMPS and (decl[0] or decl[1] or sum(belote)):
        raise IllegalAction("no_trumps_no_declarations")
    if kind == SUIT and sum(belote) > 1:
        raise IllegalAction("suit_one_belot")
    if sum(belote) > 4:
        raise IllegalAction("all_trumps_four_belots")
    for combos in decl:
        for combo in combos:
            if combo.get("kind") == "four" and str(combo.get("rank")) not in FOUR_POINTS:
                raise IllegalAction("four_worthless", rank=combo.get("rank"))
    sets = check_disjoint(decl, TABLE, 16)
    # The K and Q of a team's belot cannot sit in the other team's declarations.
    suits = TABLE.suits if trump == ALL_TRUMPS else (trump,) if trump else ()
    free = [{s for s in suits if not {"K" + s, "Q" + s} & sets[1 - t]} for t in (0, 1)]
    if any(belote[t] > len(free[t]) for t in (0, 1)) or sum(belote) > len(free[0] | free[1]):
        raise IllegalAction("belot_in_other_declarations")
    return decl, belote


# ---------------------------------------------------------------------- the score
def score(game: Any, options: dict[str, Any], summary: Any) -> DealScore:
    """Score one deal of ``game`` (the ruleset) from its summary (§7), ``options`` already validated.

    Returns ``{"points": [s0, s1], "carried_out": pool, "outcome": "made" |
    "inside" | "hanging", "detail": {"raw", "deal_total", "multiplier",
    "rounded", "card_points", "last_trick_team", "declarations", "belote",
    "capot", "run_winner", "four_winner", "declarer_team", "carried_in"}}``.
    ``rounded`` is the §7 table. With option ``at_least_one_point``, ``detail``
    also has ``minimum_point``: the team raised from 0 to 1 (the point taken from
    the declarers), else None.

    Raises:
        IllegalAction: an impossible summary (§8), with the reason.
    """
    s = check_summary(game, summary)
    kind, dec, m, pool = s["kind"], s["declarer"], s["multiplier"], s["carried_in"]
    df = 1 - dec
    counted = valid_declarations(s["declarations"], options)
    capot = next((t for t in (0, 1) if s["tricks"][t] == game.tricks_per_deal), None)
    raw = [0, 0]
    for t in (0, 1):
        raw[t] = s["card_points"][t] + (LAST_TRICK if s["last"] == t else 0)
        if kind == NO_TRUMPS:
            raw[t] *= 2
        raw[t] += counted["points"][t] + BELOT * s["belote"][t]
        if capot == t:
            raw[t] += CAPOT_BONUS
    if capot is not None and not options["capot_multiplied_by_contra"]:
        m = 1
    d, f = raw[dec], raw[df]
    total = round_total(d + f)
    points, carried_out = [0, 0], 0
    minimum_point: int | None = None
    rounded = [
        round_team(raw[t], raw[t] > raw[1 - t] or (d == f and t == df), kind) for t in (0, 1)
    ]
    if m > 1:
        if d == f:
            carried_out, outcome = pool + total * m, "hanging"
        else:
            w = dec if d > f else df
            points[w] = total * m + pool
            outcome = "made" if w == dec else "inside"
    elif d < f:
        points[df], outcome = total + pool, "inside"
    elif d == f:
        points[df] = rounded[df]
        carried_out, outcome = pool + rounded[dec], "hanging"
    else:
        points = list(rounded)
        if options["at_least_one_point"] and raw[df] > 0 and points[df] == 0:
            points[df], points[dec] = 1, points[dec] - 1  # the 2001 program's rule
            minimum_point = df
        points[dec] += pool
        outcome = "made"
    detail: dict[str, Any] = {
        "raw": raw,
        "deal_total": total,
        "multiplier": m,
        "rounded": rounded,
        "card_points": s["card_points"],
        "last_trick_team": s["last"],
        "declarations": counted["points"],
        "belote": [BELOT * b for b in s["belote"]],
        "capot": capot,
        "run_winner": counted["run_winner"],
        "four_winner": counted["four_winner"],
        "declarer_team": dec,
        "carried_in": pool,
    }
    if options["at_least_one_point"]:
        detail["minimum_point"] = minimum_point
    return {"points": points, "carried_out": carried_out, "outcome": outcome, "detail": detail}
