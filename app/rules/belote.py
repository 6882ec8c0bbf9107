"""Classic French Belote: ``belote`` (four players in pairs) and ``belote-2p``.

rules/belote.md. Its words: *prendre* / *passer* is ``take`` / ``pass``;
*annonces* are declarations (tierce 20, quarte 50, quinte 100, carrés 100 to
200); *belote* / *rebelote* the K and Q of trumps in one hand (20); *dix de
der* the 10 for the last trick; *capot* all 8 tricks (252); *dedans*: the
takers failed; *litige*: a tie, whose takers' points are held for the next
deal's winner. The two-player game is in :mod:`.belote_2p`.
"""

from __future__ import annotations

from typing import Any, cast

from app.rules.belote_2p import BeloteForTwo
from app.rules.belote_base import (
    EIGHT_CARD_RUN_OPTION,
    TARGET_OPTION,
    FrenchBelote,
    declaration_key,
)
from app.rules.errors import IllegalAction
from app.rules.scoring import CheckedSummary, _int, capot_team, compare_best, deal_totals
from app.rules.state import State
from app.rules.types import DealScore, SummaryIn, View


def best_declaration_team(declarations: list[list[dict[str, Any]]], trump: str) -> int | None:
    """The team holding the best single declaration, or None (rules/belote.md §5, 4 players).

    Two equal plain runs go to the one declared first in playing order from
    the eldest hand: the lower ``by``.

    Raises:
        IllegalAction: two equal best runs of which one has no ``by``.
    """
    keys = [[declaration_key(c, trump) for c in declarations[t]] for t in (0, 1)]
    best = [max(k) if k else None for k in keys]
    tie_team = None
    if best[0] is not None and best[0] == best[1]:
        first: list[int] = []
        for team in (0, 1):
            bys = [
                c.get("by")
                for c, k in zip(declarations[team], keys[team], strict=True)
                if k == best[team]
            ]
            if any(b is None for b in bys):
                raise IllegalAction("runs_tie_by")
            first.append(min(cast("list[int]", bys)))  # none is None: refused above
        if first[0] == first[1]:
            raise IllegalAction("by_both_teams")
        tie_team = 0 if first[0] < first[1] else 1
    return compare_best(keys, tie_team, "declarations")


def check_runs_by(summary: Any, declarations: list[list[dict[str, Any]]]) -> None:
    """Each run's ``by`` (its declarer's position from the eldest hand, 0-3) names a
    player of the team that declared it (rules/belote.md §8, 4 players).

    Raises:
        IllegalAction: ``by`` out of range or of the other team.
    """
    eldest = summary["contract"].get("eldest_team")
    for team, combos in enumerate(declarations):
        for combo in combos:
            by = combo.get("by")
            if by is None:
                continue
            if not (_int(by) and 0 <= by <= 3):
                raise IllegalAction("by_range")
            if eldest is not None and (eldest if by % 2 == 0 else 1 - eldest) != team:
                raise IllegalAction("by_not_of_team", by=by, team=team)


class Belote(FrenchBelote):
    """The ruleset ``belote``: four players, seats 0 and 2 against 1 and 3 (rules/belote.md)."""

    id = "belote"
    name = "Belote"
    players = 4
    runs_carry_by = True
    options_schema = [
        TARGET_OPTION,
        {
            "name": "tie_rule",
            "type": "choice",
            "default": "litige",
            "choices": ["litige", "fail"],
            "label": "A tie between takers and defenders",
        },
        {
            "name": "must_undertrump",
            "type": "bool",
            "default": True,
            "label": "Unable to over-trump an opponent, you must still trump",
        },
        {
            "name": "capoted_keep_declarations",
            "type": "bool",
            "default": False,
            "label": "A team that took no trick keeps its declarations",
        },
        EIGHT_CARD_RUN_OPTION,
    ]

    def valid_combinations(
        self, declarations: list[list[dict[str, Any]]], trump: str, eldest_team: int | None
    ) -> list[list[bool]]:
        """Only the team with the best single declaration scores, all of its own (§5)."""
        winner = best_declaration_team(declarations, trump)
        return [[team == winner] * len(declarations[team]) for team in (0, 1)]

    def check_summary(self, summary: Any) -> CheckedSummary:
        """§8 plus the 4-player checks: ``carried_in`` and each run's ``by``."""
        checked = super().check_summary(summary)
        carried = summary.get("carried_in", 0)
        if not (_int(carried) and carried >= 0):
            raise IllegalAction("carried_in_whole")
        check_runs_by(summary, checked[5])
        return checked

    def score_deal(self, options: dict[str, Any], summary: SummaryIn) -> DealScore:
        """Score one deal from its summary (rules/belote.md §7-8, 4 players).

        Returns ``{"points": [s0, s1], "carried_out": n, "outcome":
        "made"|"failed"|"litige", "detail": {...}}``.

        Raises:
            IllegalAction: an impossible summary (§8), with the reason.
        """
        opts = self.validate_options(options)
        trump, t, tricks, cp, last, decl, belote = self.check_summary(summary)
        o = 1 - t
        pool = summary.get("carried_in", 0)
        valid = self.valid_combinations(decl, trump, None)
        vd = self.declaration_points(opts, decl, valid)
        capot = capot_team(tricks)
        eff = list(vd)
        if not opts["capoted_keep_declarations"]:
            eff = [0 if tricks[p] == 0 else vd[p] for p in (0, 1)]
        totals = deal_totals(cp, eff, belote, capot, last)
        points, carried_out = [0, 0], 0
        if totals[t] > totals[o]:
            points, outcome = list(totals), "made"
            points[t] += pool
        elif totals[t] < totals[o] or opts["tie_rule"] == "fail":
            points[o] = (252 if capot == o else 162) + vd[0] + vd[1] + 20 * belote[o] + pool
            points[t] = 20 * belote[t]
            outcome = "failed"
        else:
            points[o], outcome = totals[o], "litige"
            carried_out = pool + totals[t]
        return {
            "points": points,
            "carried_out": carried_out,
            "outcome": outcome,
            "detail": {
                "totals": totals,
                "points_in_play": totals[0] + totals[1] + pool,
                "needed": totals[o] + 1,
                "card_points": cp,
                "last_trick_team": None if capot is not None else last,
                "capot": capot,
                "declarations": eff,
                "declaration_team": next((p for p in (0, 1) if any(valid[p])), None),
                "belote": [20 * b for b in belote],
                "taker_team": t,
                "carried_in": pool,
                "carried_out": carried_out,
            },
        }

    def observe_extra(self, state: State, seat: int | None, view: View) -> None:
        """Adds ``held``: points held from *litiges* for the next scored deal (§7; dropped at the end)."""
        super().observe_extra(state, seat, view)
        view["held"] = state.carried if state.phase != "over" else 0


GAME = Belote()
RULESETS = [GAME, BeloteForTwo()]
