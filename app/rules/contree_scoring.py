"""Belote contrée: the score of one deal from its summary (rules/contree.md §7-8).

"Points faits + points demandés": the takers' points toward the contract (trick
points, and by option declarations and belote) must reach the bid; a made deal
scores each team its own points and the takers the contract; a failed, coinched or
flat capot deal goes whole to its winner (§7 ``score``).
"""

from __future__ import annotations

from typing import Any

from app.rules.belote import best_declaration_team, check_runs_by
from app.rules.belote_base import declaration_key
from app.rules.contree_auction import CAPOT, GENERALE
from app.rules.errors import IllegalAction
from app.rules.scoring import _int, capot_team, check_common_summary, check_declared
from app.rules.types import DealScore


def round_points(points: int, rounding: str) -> int:
    """Trick points rounded to ten (§7 ``R``): ``half_up`` 85 -> 90, 84 -> 80; ``six_up``
    85 -> 80, 86 -> 90; ``none`` unchanged."""
    if rounding == "half_up":
        return (points + 5) // 10 * 10
    if rounding == "six_up":
        return (points + 4) // 10 * 10
    return points


def valid_combinations(
    declarations: list[list[dict[str, Any]]], trump: str, declaration_tie: str
) -> list[list[bool]]:
    """For each team, which of its declarations score (§5): only the team with the best
    single declaration, all of its own. Two equal best runs go to the first declared from
    the eldest hand (``"eldest"``, rules/belote.md §5) or cancel every declaration
    (``"cancel"``).

    Raises:
        IllegalAction: an equal best runs tie under ``"eldest"`` without ``by``.
    """
    if declaration_tie == "cancel":
        best = [max((declaration_key(c, trump) for c in d), default=None) for d in declarations]
        if best[0] is not None and best[0] == best[1]:
            return [[False] * len(d) for d in declarations]
    winner = best_declaration_team(declarations, trump)
    return [[team == winner] * len(declarations[team]) for team in (0, 1)]


def check_summary(game: Any, options: dict[str, Any], summary: Any) -> dict[str, Any]:
    """Validate a contrée deal summary (§8) under validated ``options``.

    Returns ``{"trump", "taker", "bid", "coinche", "bidder_tricks", "tricks",
    "card_points", "last", "declarations", "belote", "carried_in"}``.

    Raises:
        IllegalAction: each rejection §8 lists, with the reason.
    """
    trump, taker, tricks, cp, last, decl, belote = check_common_summary(game, summary)
    contract = summary["contract"]
    bid = contract.get("bid")
    numeric = _int(bid) and 80 <= bid <= options["max_bid"] and bid % 10 == 0
    if not (numeric or bid == CAPOT or (bid == GENERALE and options["generale"])):
        raise IllegalAction("contree_summary_bid", max_bid=options["max_bid"])
    coinche = contract.get("coinche", 0)
    if not (_int(coinche) and coinche in (0, 1, 2)):
        raise IllegalAction("coinche_level")
    if coinche and not numeric and not options["coinche_capot"]:
        raise IllegalAction("no_coinche_on_capot")
    bidder_tricks = contract.get("bidder_tricks")
    if bid == GENERALE and not (_int(bidder_tricks) and 0 <= bidder_tricks <= tricks[taker]):
        raise IllegalAction("bidder_tricks", n=tricks[taker])
    if (decl[0] or decl[1]) and not options["declarations"]:
        raise IllegalAction("declarations_off")
    check_declared(game, decl, trump, belote, game.max_declared_cards)
    check_runs_by(summary, decl)
    carried = summary.get("carried_in", 0)
    if not (_int(carried) and carried >= 0):
        raise IllegalAction("carried_in_whole")
    if carried and not (options["must_beat_defense"] and options["tie_rule"] == "litige"):
        raise IllegalAction("contree_no_carry")
    if summary.get("revoke_team") is not None:
        raise IllegalAction("no_revoke", game="Belote contrée")
    return {
        "trump": trump,
        "taker": taker,
        "bid": bid,
        "coinche": coinche,
        "bidder_tricks": bidder_tricks,
        "tricks": tricks,
        "card_points": cp,
        "last": last,
        "declarations": decl,
        "belote": belote,
        "carried_in": carried,
    }


def score(game: Any, options: dict[str, Any], summary: Any) -> DealScore:
    """Score one deal (§7 ``score``) from its summary, ``options`` already validated.

    Returns ``{"points": [s0, s1], "carried_out": n, "outcome": "made" | "failed" |
    "litige", "detail": {"totals", "needed", "multiplier", "trick_points",
    "declarations", "base", "card_points", "last_trick_team", "capot", "belote",
    "taker_team", "carried_in", "carried_out", "points_in_play"}}``.

    Raises:
        IllegalAction: an impossible summary (§8), with the reason.
    """
    s = check_summary(game, options, summary)
    t, bid, k, pool = s["taker"], s["bid"], s["coinche"], s["carried_in"]
    d = 1 - t
    m = [1, 2, options["surcoinche_multiplier"]][k]
    value = (
        options["capot_value"]
        if bid == CAPOT
        else options["generale_value"]
        if bid == GENERALE
        else bid
    )
    capot = capot_team(s["tricks"])
    cp, last = s["card_points"], s["last"]
    tp = [
        options["capot_points"]
        if capot == p
        else 0
        if capot is not None
        else cp[p] + (10 if last == p else 0)
        for p in (0, 1)
    ]
    vd = [0, 0]
    if options["declarations"]:
        decl = s["declarations"]
        valid = valid_combinations(decl, s["trump"], options["declaration_tie"])
        vd = game.declaration_points(options, decl, valid)
        if capot is not None:
            vd[capot], vd[1 - capot] = vd[0] + vd[1], 0
    b = [20 * x for x in s["belote"]]
    toward = [
        tp[p]
        + (vd[p] if options["declarations_count_for_contract"] else 0)
        + (b[p] if options["belote_counts_for_contract"] else 0)
        for p in (0, 1)
    ]
    litige = False
    need: int | None = None
    if bid == CAPOT:
        made = capot == t
    elif bid == GENERALE:
        made = s["bidder_tricks"] == game.tricks_per_deal
    else:
        need = 82 if (bid == 80 and options["eighty_needs_82"]) else bid
        made = toward[t] >= need
        if made and options["must_beat_defense"]:
            if toward[t] < toward[d]:
                made = False
            elif toward[t] == toward[d]:
                if options["tie_rule"] == "litige" and k == 0:
                    litige = True
                made = False
    rnd = options["rounding"]
    flat = bid in (CAPOT, GENERALE) and options["capot_scoring"] == "flat"
    points, carried_out, base = [0, 0], 0, None
    if litige:
        points[d] = round_points(tp[d], rnd) + vd[d] + b[d]
        carried_out = pool + round_points(tp[t], rnd) + vd[t] + b[t]
        outcome = "litige"
    elif made and k == 0 and not flat:
        points[t] = round_points(tp[t], rnd) + value + vd[t] + b[t] + pool
        points[d] = round_points(tp[d], rnd) + vd[d] + b[d]
        outcome = "made"
    else:
        w = t if made else d
        if flat:
            points[w] = 2 * value * m
        else:
            base = options["failure_base"]
            if made and capot == t:
                base = round_points(options["capot_points"], rnd)
            if options["multiplier_on"] == "contract":
                points[w] = base + value * m
            else:
                points[w] = (base + value) * m
        points[w] += vd[0] + vd[1] + pool
        if (flat and made and k == 0) or options["belote_rule"] == "holder":
            points = [points[p] + b[p] for p in (0, 1)]
        else:
            points[w] += b[0] + b[1]
        outcome = "made" if made else "failed"
    return {
        "points": points,
        "carried_out": carried_out,
        "outcome": outcome,
        "detail": {
            "totals": toward,
            "needed": need,
            "multiplier": m,
            "trick_points": tp,
            "declarations": vd,
            "base": base,
            "card_points": cp,
            "tricks": s["tricks"],
            "last_trick_team": None if capot is not None else last,
            "capot": capot,
            "belote": b,
            "taker_team": t,
            "bid": bid,
            "coinche": k,
            "carried_in": pool,
            "carried_out": carried_out,
            "points_in_play": toward[0] + toward[1] + pool,
        },
    }
