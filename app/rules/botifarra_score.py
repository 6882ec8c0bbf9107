"""Scoring one Botifarra hand from its summary (rules/botifarra.md §4, §7-8).

Each hand holds 72 points (60 card points and 1 per trick); the pair that
takes more than 36 scores the excess times the multiplier; 36-36 scores
nothing. A *renúncia* (revoke: breaking a rule of play) exists only on paper
score sheets: the other pair scores 36 times the multiplier.
"""

from __future__ import annotations

from typing import Any, TypeGuard

from app.rules.errors import IllegalAction
from app.rules.scoring import check_tricks_and_points
from app.rules.types import DealScore

#: rules/botifarra.md §4: the multiplier after 0-3 doubling steps, per ``doubling_scale``.
SCALES = {"2-4-8": (1, 2, 4, 8), "2-3-4": (1, 2, 3, 4)}
#: Half the points of a hand: above this a pair scores (rules/botifarra.md §7).
HALF = 36


def multiplier(options: dict[str, Any], botifarra: bool, doublings: int) -> int:
    """``(2 if botifarra else 1) * scale[doublings]`` (rules/botifarra.md §4)."""
    return (2 if botifarra else 1) * SCALES[options["doubling_scale"]][doublings]


def max_doublings(options: dict[str, Any], botifarra: bool) -> int:
    """3 steps (contrar, recontrar, Sant Vicenç); 2 on botifarra without ``sant_vicenc_on_botifarra``."""
    return 2 if botifarra and not options["sant_vicenc_on_botifarra"] else 3


def _team(value: Any) -> TypeGuard[int]:
    return value in (0, 1) and isinstance(value, int) and not isinstance(value, bool)


def check_contract(game: Any, options: dict[str, Any], summary: Any) -> tuple[str | None, int, int]:
    """Validate the summary's contract and the parts Botifarra does not have.

    Returns ``(trump or None, chooser_team, doublings)``.

    Raises:
        IllegalAction: the reasons of rules/botifarra.md §8 (bad trump,
            chooser_team or doublings; Sant Vicenç on botifarra when the option
            is off; declarations, a belote or points carried in).
    """
    if not isinstance(summary, dict):
        raise IllegalAction("summary_object")
    contract = summary.get("contract")
    if not isinstance(contract, dict):
        raise IllegalAction("summary_contract")
    if "trump" not in contract or (
        contract["trump"] is not None and contract["trump"] not in game.table.suits
    ):
        raise IllegalAction("contract_trump_or_null")
    trump = contract["trump"]
    chooser = contract.get("chooser_team")
    if not _team(chooser):
        raise IllegalAction("team_field", field="chooser_team")
    doublings = contract.get("doublings", 0)
    if (
        doublings not in (0, 1, 2, 3)
        or not isinstance(doublings, int)
        or isinstance(doublings, bool)
    ):
        raise IllegalAction("doublings_range")
    if doublings > max_doublings(options, trump is None):
        raise IllegalAction("sant_vicenc_on_botifarra")
    if contract.get("delegated", False) not in (True, False):
        raise IllegalAction("delegated_bool")
    declarations = summary.get("declarations") or [[], []]
    if not isinstance(declarations, list) or any(d for d in declarations):
        raise IllegalAction("botifarra_no_declarations")
    belote = summary.get("belote") or [0, 0]
    if not isinstance(belote, list) or any(b for b in belote):
        raise IllegalAction("botifarra_no_belote")
    if summary.get("carried_in") not in (0, None):
        raise IllegalAction("botifarra_no_carry")
    return trump, chooser, doublings


def score_botifarra(game: Any, options: dict[str, Any], summary: Any) -> DealScore:
    """Score one hand (rules/botifarra.md §7) from a summary shaped as in §8.

    Returns ``{"points": [s0, s1], "carried_out": 0, "outcome": "made" |
    "failed" | "tie" | "revoke", "detail": {"totals": [t0, t1] | None,
    "multiplier": m, ...}}``; ``totals`` is None for a revoke, whose tricks
    and card points are not used.

    Raises:
        IllegalAction: an impossible summary, with the reason (§8).
    """
    trump, chooser, doublings = check_contract(game, options, summary)
    m = multiplier(options, trump is None, doublings)
    revoke = summary.get("revoke_team")
    if revoke is not None and not _team(revoke):
        raise IllegalAction("revoke_team")
    detail: dict[str, Any] = {
        "totals": None,
        "multiplier": m,
        "chooser_team": chooser,
        "doublings": doublings,
        "botifarra": trump is None,
        "revoke_team": revoke,
    }
    points = [0, 0]
    if revoke is not None:
        points[1 - revoke] = HALF * m
        return {"points": points, "carried_out": 0, "outcome": "revoke", "detail": detail}
    tricks, card_points = check_tricks_and_points(game, summary, trump)
    totals = [card_points[p] + tricks[p] for p in (0, 1)]
    detail.update(totals=totals, card_points=card_points, tricks=tricks)
    other = 1 - chooser
    if totals[chooser] > HALF:
        points[chooser], outcome = (totals[chooser] - HALF) * m, "made"
    elif totals[other] > HALF:
        points[other], outcome = (totals[other] - HALF) * m, "failed"
    else:
        outcome = "tie"
    return {"points": points, "carried_out": 0, "outcome": outcome, "detail": detail}
