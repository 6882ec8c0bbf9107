"""Is this a deal's score some real deal can give? The check of a "points only" entry.

A café's score sheet keeps each side's points per deal, not the cards. A championship
may enter a paper deal as those points alone; this module says whether they are
plausible: never a score a legal deal of the game cannot give, and never a refusal of
one it can. The bounds are upper bounds worked out from the rules files (the most
points one deal can put on the sheet, every side together), not the tightest ones:
they assume the largest declarations one side's cards can hold, even where the other
sides' cards could not then make theirs.

    plausible_deal_points("bolot", options, [1200, 0])   # Reason("deal_points_above_max", ...)

Where a game writes points in steps (contrée rounded to tens, Botifarra's multiples of
its doubling) the step is checked too. Points carried in from an earlier deal (Belote's
*litige*, Bridge-Belote's hanging points) may be written on top of a deal's own: the
caller passes them as ``carried_in`` and they widen the bound.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.rules.errors import Reason

#: Declarations, worked out from belote.md §5 / bolot.md §5 / bridge-belote.md §5.
#: The most one side of 16 cards (two hands of 8) scores in fours: the four best fours,
#: Js (Bolot: 10s) 200, 9s 150, and two of 100; a hand of 8 holds two fours at most.
FOURS_OF_A_SIDE = 200 + 150 + 100 + 100
#: The most one hand of 8 scores in runs: a run of 5 (100) and a run of 3 (20) in two
#: suits, 120 (an 8-card run is 100, or 120 with ``eight_card_run_120``: no more).
RUNS_OF_A_HAND = 100 + 20
#: The most one hand of 8 or 9 cards declares when runs and fours are compared together
#: (belote.md §5 "Comparison": only the side with the best declaration scores): two
#: fours, Js and 9s, 350 (a four and a run of 5 is 300; an 8-card run 120).
BEST_HAND = 200 + 150
#: The capot: all card points and the capot bonus (152 + 100), belote.md §2, bolot.md §2.
CAPOT = 152 + 100
BELOTE = 20


@dataclass(frozen=True)
class DealBound:
    """What one deal of a game may write on the sheet.

    * ``total``: the most points all sides together score in one deal (carried points
      aside);
    * ``unit``: every side's points are a multiple of it (1: any whole number);
    * ``one_side``: at most one side scores in a deal (Botifarra, rules/botifarra.md §7);
    * ``steps``: when not empty, a side's points are ``k * m`` for some ``m`` of ``steps``
      and ``1 <= k <= step_max`` (Botifarra: points over 36 times the multiplier).
    """

    total: int
    unit: int = 1
    one_side: bool = False
    steps: tuple[int, ...] = field(default=())
    step_max: int = 0


def _bolot(options: dict[str, Any]) -> DealBound:
    """rules/bolot.md §7: P = 162 (252 on a capot) + both pairs' valid declarations + the
    bolot; the takers' points and the defenders' add up to P at most (a failure gives P to
    the defenders). Runs and fours are compared apart (§5): one pair scores fours (at most
    550), one pair runs (two hands of a run of 5 and a run of 3: 240), one bolot (20).
    So 252 + 550 + 240 + 20 = 1062. No rounding."""
    return DealBound(CAPOT + FOURS_OF_A_SIDE + 2 * RUNS_OF_A_HAND + BELOTE)


def _belote(options: dict[str, Any]) -> DealBound:
    """rules/belote.md §7, four players: both totals add up to 252 (capot) + the
    declarations of the one team that wins the comparison (§5: two hands, fours of J and
    9 then of A and T, 550) + the belote (20): 822, made or *dedans*. No rounding."""
    return DealBound(CAPOT + FOURS_OF_A_SIDE + BELOTE)


def _belote_2p(options: dict[str, Any]) -> DealBound:
    """rules/belote.md §7, two players: 18 cards are played, holding at most 146 card
    points (§2), + 100 for a capot; one player scores declarations (§5 "Comparison, 2p":
    the best four cancels the other's fours, and runs score nothing against a four),
    from 9 cards at most 350; the belote 20. So 146 + 100 + 350 + 20 = 616."""
    return DealBound(146 + 100 + BEST_HAND + BELOTE)


def _belote_3p(options: dict[str, Any]) -> DealBound:
    """rules/belote-3p.md §7: all card points (152) + the capot bonus shared (100) + the
    one player's declarations (§5: only the best scores, from 8 or 9 cards: 350; none
    with ``declarations`` off) + one belote (20): made or *dedans*, the three scores add
    up to 622 at most (272 without declarations). No rounding."""
    decl = BEST_HAND if options.get("declarations", True) else 0
    return DealBound(CAPOT + decl + BELOTE)


def _bridge_belote(options: dict[str, Any]) -> DealBound:
    """rules/bridge-belote.md §7 (game points, raw points ÷ 10): the sheet gets R × m at
    most, R the deal's raw total rounded. The richest raw total is All Trumps: 248 card
    points + 10 last trick + 90 capot, fours of one team (550), runs of one team (240,
    §5: runs and fours are compared apart), four belots (80): 1218, R = 122; × 4
    (recontra) = 488. (Suit: 1062, R 106; No Trumps: 260 + 90, R 35.)"""
    raw = 248 + 10 + 90 + FOURS_OF_A_SIDE + 2 * RUNS_OF_A_HAND + 4 * BELOTE
    return DealBound(round(raw / 10) * 4)


def _botifarra(options: dict[str, Any]) -> DealBound:
    """rules/botifarra.md §4 and §7: one pair scores (total − 36) × m, at most 36 × m (a
    capot, or the other pair's revoke); m is 1, 2, 4, 8 for a suit and ×2 for botifarra
    (``doubling_scale`` "2-3-4": 1, 2, 3, 4), Sant Vicenç on botifarra only with
    ``sant_vicenc_on_botifarra``."""
    scale = (1, 2, 3, 4) if options.get("doubling_scale") == "2-3-4" else (1, 2, 4, 8)
    botifarra = scale if options.get("sant_vicenc_on_botifarra", True) else scale[:3]
    steps = tuple(sorted(set(scale) | {2 * m for m in botifarra}))
    return DealBound(36 * max(steps), one_side=True, steps=steps, step_max=36)


def _contree(options: dict[str, Any]) -> DealBound:
    """rules/contree.md §7: the most a deal writes is a coinched deal's winner taking it
    all: the base (``failure_base``, or the capot's ``capot_points``) and the contract V
    multiplied (``multiplier_on``: V × m, or (base + V) × m), or a flat capot or
    *générale* 2 × V × m; plus every declaration (one team's, 550, with
    ``declarations``) and the belote (20). V is at most ``max_bid``, ``capot_value``
    or ``generale_value`` (with ``generale``), m at most ``surcoinche_multiplier``.
    A numeric bid is always multiplied that way; a capot or *générale* bid is flat
    under ``capot_scoring`` "flat". A standard made deal (trick points, V,
    declarations, belote) writes no more.
    With ``rounding`` every part is a multiple of 10 (trick points rounded; bids,
    capot values, 160 and declarations are tens) unless ``failure_base`` is 162 or a
    *générale* value is not a ten."""
    m = int(options.get("surcoinche_multiplier", 4))
    base = max(int(options.get("failure_base", 160)), int(options.get("capot_points", 252)))
    bid, capot = int(options.get("max_bid", 160)), [int(options.get("capot_value", 250))]
    if options.get("generale"):
        capot.append(int(options.get("generale_value", 500)))
    flat = options.get("capot_scoring") == "flat"

    def doubled(v: int) -> int:
        return base + v * m if options.get("multiplier_on") == "contract" else (base + v) * m

    values = [bid, *capot]
    best = max([doubled(bid)] + [2 * v * m if flat else doubled(v) for v in capot])
    decl = FOURS_OF_A_SIDE if options.get("declarations") else 0
    tens = (
        options.get("rounding", "none") != "none"
        and int(options.get("failure_base", 160)) % 10 == 0
        and all(v % 10 == 0 for v in values)
    )
    return DealBound(best + decl + BELOTE, unit=10 if tens else 1)


BOUNDS = {
    "bolot": _bolot,
    "belote": _belote,
    "belote-2p": _belote_2p,
    "belote-3p": _belote_3p,
    "bridge-belote": _bridge_belote,
    "botifarra": _botifarra,
    "contree": _contree,
}


def deal_bound(game_id: str, options: dict[str, Any]) -> DealBound:
    """The bound of one deal of ``game_id`` under ``options`` (validated: every option
    present). Raises KeyError for a game without one."""
    return BOUNDS[game_id](options)


def check_points(bound: DealBound, sides: int, points: Any, carried_in: int = 0) -> Reason | None:
    """Why ``points`` (one whole number per side) cannot be one deal's score under
    ``bound``, or None when some deal can give them. ``carried_in``: points held from
    earlier deals that this deal's winner may have added to his own."""
    if not isinstance(points, list | tuple) or len(points) != sides:
        return Reason("deal_points_count", n=sides)
    if any(isinstance(p, bool) or not isinstance(p, int) for p in points):
        return Reason("deal_points_whole")
    if any(p < 0 for p in points):
        return Reason("deal_points_negative")
    top = bound.total + max(carried_in, 0)
    if sum(points) > top:
        return Reason("deal_points_above_max", max=top)
    if bound.one_side and sum(1 for p in points if p) > 1:
        return Reason("deal_points_one_side")
    if bound.unit > 1 and not carried_in and any(p % bound.unit for p in points):
        return Reason("deal_points_unit", unit=bound.unit)
    if bound.steps:
        allowed = {k * m for m in bound.steps for k in range(1, bound.step_max + 1)}
        if any(p and p not in allowed for p in points):
            return Reason(
                "deal_points_steps",
                most=bound.step_max,
                steps=", ".join(str(m) for m in bound.steps),
            )
    return None
