"""Belote contrée (coinche), the ruleset ``contree`` (rules/contree.md).

French Belote with an auction. Its words: *enchère* / *contrat* a ``bid`` (80 to
160 by tens, with a trump suit) and the last one the contract; *contrer* /
*coincher* ``coinche`` (double), *surcontrer* / *surcoincher* ``surcoinche``
(redouble); *preneurs* the takers; *capot* all 8 tricks, also a bid to take
them; *générale* a bid that the bidder alone takes them; *chute* / *dedans*
the contract failed; *litige* a tie whose takers' points are held.

The deal and auction are in :mod:`.contree_auction`, the options and presets in
:mod:`.contree_options`, and the score in :mod:`.contree_scoring`; the play,
belote and declarations are French Belote's (:mod:`.belote_base`).
"""

from __future__ import annotations

from typing import Any

from app.rules.contree_auction import GENERALE, ContreeAuction
from app.rules.contree_options import PRESETS, options_schema
from app.rules.contree_scoring import score, valid_combinations
from app.rules.errors import IllegalAction
from app.rules.state import State
from app.rules.types import DealScore, Summary, SummaryIn, View


class Contree(ContreeAuction):
    """The ruleset ``contree``: four players, seats 0 and 2 against 1 and 3 (rules/contree.md)."""

    id = "contree"
    name = "Belote contrée"
    players = 4
    bot_family = "contree"
    runs_carry_by = True
    summary_contract_keys = ("trump", "taker_team", "bid", "coinche", "eldest_team")
    options_schema = options_schema()

    def summary_contract_fields(self, options: dict[str, Any]) -> tuple[str, ...]:
        """§8: with option ``generale`` a *générale* also gives ``bidder_tricks`` (the
        tricks the bidder took himself)."""
        extra = ("bidder_tricks",) if options.get("generale") else ()
        return self.summary_contract_keys + extra

    # ------------------------------------------------------------------ options
    def validate_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """Options with the preset's values filled in; options given with the preset
        override it (rules/contree.md §10).

        Raises:
            IllegalAction: an unknown preset or option, or a value of the wrong type.
        """
        given = dict(options or {})
        preset = given.get("preset", "ffb")
        if not isinstance(preset, str) or preset not in PRESETS:
            raise IllegalAction("option_choice", option="preset", choices=", ".join(PRESETS))
        return super().validate_options({**PRESETS[preset], **given})

    def example_summary(self) -> dict[str, Any]:
        """The score-sheet form's start (§8): team 0 made 100 in hearts with 100 card points."""
        summary = super().example_summary()
        summary["contract"].update(bid=100, coinche=0, eldest_team=1)
        return summary

    # ------------------------------------------------------------------ play
    def declarations_allowed(
        self, contract: dict[str, Any] | None, options: dict[str, Any] | None = None
    ) -> bool:
        """The seats declare in trick 1 only with option ``declarations`` (§5)."""
        return bool((options or {}).get("declarations"))

    def compared(
        self, state: State
    ) -> tuple[list[list[dict[str, Any]]], list[list[tuple[int, int]]], list[list[bool]]]:
        """The deal's declarations per team, where each came from, and which are valid, under
        option ``declaration_tie`` (§5)."""
        per_team, where = self.seat_declarations(state)
        valid = valid_combinations(
            per_team, self.trump(state.contract) or "", state.options["declaration_tie"]
        )
        return per_team, where, valid

    # ------------------------------------------------------------------ deal end and match
    def deal_summary(self, state: State) -> Summary:
        """The §8 summary of a finished deal; a *générale* adds ``bidder_tricks``."""
        summary = super().deal_summary(state)
        contract = state.contract or {}
        if contract.get("bid") == GENERALE:
            bidder = contract["bidder"]
            summary["contract"]["bidder_tricks"] = sum(
                1 for t in state.tricks if t["winner"] == bidder
            )
        return summary

    def score_deal(self, options: dict[str, Any], summary: SummaryIn) -> DealScore:
        """Score one deal from its summary (rules/contree.md §7-8).

        Returns ``{"points": [s0, s1], "carried_out": n, "outcome": "made" | "failed" |
        "litige", "detail": {"totals", "needed", "multiplier", "trick_points",
        "declarations", "base", ...}}``.

        Raises:
            IllegalAction: an unknown option or an impossible summary, with the reason.
        """
        return score(self, self.validate_options(options), summary)

    def at_target(self, options: dict[str, Any], score: int) -> bool:
        """§9: ``score`` ends the match when it reaches the target (``win_rule "reach"``)
        or passes it (``"exceed"``); ``options`` are validated ones. The match winner is
        then the base rule's: a team there wins if the scores differ, the higher score
        when both are there."""
        if options["win_rule"] == "exceed":
            return bool(score > options["target"])
        return bool(score >= options["target"])

    # ------------------------------------------------------------------ views
    def observe_extra(self, state: State, seat: int | None, view: View) -> None:
        """Public additions (docs/engine-face.md, "Belote contrée"): the standing call during
        the auction (``bidding``) and the points held from a *litige* (``held``)."""
        super().observe_extra(state, seat, view)
        ex = state.extra
        view["bidding"] = (
            {
                k: ex.get(k)
                for k in ("bid", "suit", "bidder", "coinche", "coinched_by", "surcoinched_by")
            }
            if state.phase == "auction"
            else None
        )
        view["held"] = state.carried if state.phase != "over" else 0


GAME = Contree()
RULESETS = [GAME]
