"""Bolot, the Belote of Sagunt (Camp de Morvedre), played with the Spanish deck.

Its own words, as the rules use them (rules/bolot.md §1): *vaig* / *no vaig*
is ``take`` / ``pass``; *cants* are declarations: *tercera* (run of 3, 20),
*cinquanta* (run of 4, 50), *cent* (run of 5+, or a four of a kind, 100);
*bolot i rebolot* is the Cavall (11) and Rei (12) of trumps in one hand (20);
*últimes* the 10 for the last trick; *estar llocs*: the going pair failed
and every point of the deal goes to the defenders; *fer capot*: all 8 tricks.
"""

from __future__ import annotations

from typing import Any

from app.rules.cards import SPANISH_SUITS, CardTable
from app.rules.declarations import run_key
from app.rules.errors import IllegalAction
from app.rules.obligations import belote_follow
from app.rules.scoring import (
    capot_team,
    check_common_summary,
    check_declared,
    compare_best,
    deal_totals,
)
from app.rules.turned import TurnedCardGame
from app.rules.types import DealScore, SummaryIn

TABLE = CardTable(
    suits=SPANISH_SUITS,
    ranks=("1", "3", "7", "8", "9", "10", "11", "12"),
    trump_order=("10", "9", "1", "3", "12", "11", "8", "7"),
    plain_order=("1", "3", "12", "11", "10", "9", "8", "7"),
    trump_points={"10": 20, "9": 14, "1": 11, "3": 10, "12": 4, "11": 3, "8": 0, "7": 0},
    plain_points={"10": 2, "9": 0, "1": 11, "3": 10, "12": 4, "11": 3, "8": 0, "7": 0},
    sequence_order=("7", "8", "9", "3", "10", "11", "12", "1"),
)

#: rules/bolot.md §5: points of a four, and their order (10 > 9 > 1 > 3 > 12 > 11).
FOUR_POINTS = {"10": 200, "9": 150, "1": 100, "3": 100, "12": 100, "11": 100}
FOUR_ORDER = ("11", "12", "3", "1", "9", "10")  # low -> high
RUN_POINTS = {3: 20, 4: 50}  # 5 or more: 100


def run_points(length: int) -> int:
    """*tercera* 20, *cinquanta* 50, *cent* 100 for 5 to 8 cards (rules/bolot.md §5)."""
    return RUN_POINTS.get(length, 100)


class Bolot(TurnedCardGame):
    """The ruleset ``bolot`` (rules/bolot.md)."""

    id = "bolot"
    name = "Bolot"
    deck_family = "spanish"
    players = 4
    table = TABLE
    four_ranks = tuple(FOUR_POINTS)
    belote_ranks = ("11", "12")
    belote_key = "bolot"
    options_schema = [
        {
            "name": "target",
            "type": "int",
            "default": 1000,
            "min": 1,
            "max": 100000,
            "label": "Match to",
            "suggested": [1000, 1500],
        },
        {
            "name": "tie_rule",
            "type": "choice",
            "default": "fail",
            "choices": ["fail", "half"],
            "label": "Takers exactly on half the points",
        },
        {
            "name": "second_round_other_suit",
            "type": "bool",
            "default": True,
            "label": "Round 2 must name another suit than the turned card's",
        },
        {
            "name": "capoted_keep_declarations",
            "type": "bool",
            "default": True,
            "label": "A capoted pair keeps its declarations",
        },
    ]

    def legal_play(
        self,
        options: dict[str, Any],
        contract: dict[str, Any] | None,
        hand: list[str],
        trick: list[str],
    ) -> tuple[list[str], str]:
        """rules/bolot.md §6."""
        trump = self.trump(contract)
        if trump not in self.table.suits:
            raise IllegalAction("unknown_trump", trump=trump)
        return belote_follow(hand, trick, trump, self.power_table(trump))

    def score_deal(self, options: dict[str, Any], summary: SummaryIn) -> DealScore:
        """Score one deal from its summary (rules/bolot.md §7-8).

        Returns ``{"points": [s0, s1], "carried_out": 0, "outcome":
        "made"|"failed"|"tie", "detail": {...}}``.

        Raises:
            IllegalAction: an impossible summary (rules/bolot.md §8), with the reason.
        """
        opts = self.validate_options(options)
        trump, taker, tricks, cp, last, decl, belote = check_common_summary(self, summary)
        if summary.get("carried_in", 0) not in (0, None):
            raise IllegalAction("bolot_no_carry")
        if summary.get("revoke_team") is not None:
            raise IllegalAction("no_revoke", game="Bolot")
        check_declared(self, decl, trump, belote, 16)
        eldest = summary["contract"].get("eldest_team")

        runs = [[c for c in decl[t] if c["kind"] == "sequence"] for t in (0, 1)]
        fours = [[c for c in decl[t] if c["kind"] == "four"] for t in (0, 1)]
        run_winner = compare_best(
            [[run_key(c, self.table, trump) for c in runs[t]] for t in (0, 1)], eldest, "runs"
        )
        four_winner = compare_best(
            [[FOUR_ORDER.index(str(c["rank"])) for c in fours[t]] for t in (0, 1)], None, "fours"
        )
        vd = [0, 0]
        if run_winner is not None:
            vd[run_winner] += sum(run_points(c["length"]) for c in runs[run_winner])
        if four_winner is not None:
            vd[four_winner] += sum(FOUR_POINTS[str(c["rank"])] for c in fours[four_winner])

        capot = capot_team(tricks)
        if capot is not None and not opts["capoted_keep_declarations"]:
            vd[1 - capot] = 0
        totals = deal_totals(cp, vd, belote, capot, last)
        pot = totals[0] + totals[1]
        o = 1 - taker
        if 2 * totals[taker] > pot:
            points, outcome = list(totals), "made"
        elif 2 * totals[taker] == pot and opts["tie_rule"] == "half":
            points, outcome = [0, 0], "tie"
            points[o] = totals[o]
        else:
            points, outcome = [0, 0], "failed"
            points[o] = pot
        return {
            "points": points,
            "carried_out": 0,
            "outcome": outcome,
            "detail": {
                "totals": totals,
                "points_in_play": pot,
                "needed": pot // 2 + 1,
                "card_points": cp,
                "last_trick_team": None if capot is not None else last,
                "capot": capot,
                "declarations": vd,
                "run_winner": run_winner,
                "four_winner": four_winner,
                "belote": [20 * b for b in belote],
                "taker_team": taker,
            },
        }


GAME = Bolot()
RULESETS = [GAME]
