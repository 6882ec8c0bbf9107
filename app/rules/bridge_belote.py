"""Bridge-Belote (Bulgarian *Белот*), the ruleset ``bridge-belote`` (rules/bridge-belote.md).

Its own words (§1): *обява* is a ``bid`` (♣ < ♦ < ♥ < ♠ < *без коз* No Trumps <
*всичко коз* All Trumps), *пас* ``pass``, *контра* / *реконтра* ``double`` /
``redouble``; *терца*, *кварта*, *квинта* are runs of 3, 4, 5+; *каре* a four
of a kind; *белот* the K and Q of a trump suit (in All Trumps, of any suit);
*валат* / *капо* the capot; *вътре* "inside"; *висящи точки* hanging points.

This module holds the play and the match; the deal and auction are in
:mod:`.bridge_belote_auction`, the contract table in
:mod:`.bridge_belote_contract`, and the score in :mod:`.bridge_belote_scoring`.
"""

from __future__ import annotations

from typing import Any

from app.rules.bridge_belote_auction import BridgeAuction
from app.rules.bridge_belote_contract import ALL_TRUMPS, NO_TRUMPS, TABLE, trump_marker
from app.rules.bridge_belote_scoring import FOUR_POINTS, score
from app.rules.cards import rank_of, suit_of
from app.rules.errors import Reason
from app.rules.obligations import belote_follow
from app.rules.state import State
from app.rules.types import DealScore, Summary, SummaryIn, View


class BridgeBelote(BridgeAuction):
    """The ruleset ``bridge-belote`` (rules/bridge-belote.md)."""

    id = "bridge-belote"
    name = "Bridge-Belote"
    summary_kind = "bridge"
    bot_family = "bridge_belote"
    players = 4
    table = TABLE
    four_ranks = tuple(FOUR_POINTS)
    belote_ranks = ("K", "Q")
    belote_key = "belote"
    summary_contract_keys = ("kind", "trump", "declarer_team", "multiplier")
    options_schema = [
        {
            "name": "target",
            "type": "int",
            "default": 151,
            "min": 1,
            "max": 100000,
            "label": "Match to",
            "suggested": [151],
        },
        {
            "name": "burgas_contra_lock",
            "type": "bool",
            "default": False,
            "label": "After a contra nobody may bid again (Burgas)",
        },
        {
            "name": "recontra_closes_auction",
            "type": "bool",
            "default": True,
            "label": "A recontra ends the auction",
        },
        {
            "name": "carre_kills_quint",
            "type": "bool",
            "default": False,
            "label": "A four of a kind cancels the other side's runs of 5 or more",
        },
        {
            "name": "eight_card_run_120",
            "type": "bool",
            "default": False,
            "label": "A run of 8 is worth 120",
        },
        {
            "name": "capot_multiplied_by_contra",
            "type": "bool",
            "default": True,
            "label": "Contra and recontra multiply a capot deal",
        },
        {
            "name": "no_exit_on_capot",
            "type": "bool",
            "default": True,
            "label": "No exit on a capot: the match cannot end on a capot deal",
        },
        {
            "name": "runs_and_fours_one_contest",
            "type": "bool",
            "default": False,
            "label": "2001 program: runs and fours are one contest; "
            "the team with the best declaration scores all of its own",
        },
        {
            "name": "at_least_one_point",
            "type": "bool",
            "default": False,
            "label": "2001 program: on a made contract, a side that took any points writes at least 1",
        },
    ]

    # ------------------------------------------------------------------ contract and cards
    def trump(self, contract: dict[str, Any] | None) -> str | None:
        """The trump marker (§2): the trump suit, ``ALL_TRUMPS``, or None in No Trumps."""
        return trump_marker(contract) if contract else None

    def card_power(self, card: str, led: str, trump: str | None) -> int:
        """Strength in a trick led in ``led`` (0 cannot win); in All Trumps only the suit led,
        in trump order, can win (§6)."""
        if trump == ALL_TRUMPS:
            return self.table.trump_power[rank_of(card)] if suit_of(card) == led else 0
        return super().card_power(card, led, trump)

    def legal_play(
        self,
        options: dict[str, Any],
        contract: dict[str, Any] | None,
        hand: list[str],
        trick: list[str],
    ) -> tuple[list[str], str]:
        """Which cards of ``hand`` may follow ``trick`` (§6), and the wording of the rule.

        Suit contract: the Belote procedure without forced under-trumping. All
        Trumps: every suit led is trumps (follow and go higher). No Trumps:
        follow suit only.

        Raises:
            IllegalAction: an unknown contract kind or trump.
        """
        trump = trump_marker(contract)
        as_trump = suit_of(trick[0]) if trick and trump == ALL_TRUMPS else trump
        return belote_follow(hand, trick, as_trump, self.power_table(trump), must_undertrump=False)

    # ------------------------------------------------------------------ declarations and belot
    def declarations_allowed(
        self, contract: dict[str, Any] | None, options: dict[str, Any] | None = None
    ) -> bool:
        """No Trumps has no declarations (§5)."""
        return not (contract and contract["kind"] == NO_TRUMPS)

    def belote_pairs(self, trump: str | None) -> dict[str, str]:
        """card -> the other card of its belot: the K and Q of the trump suit, of every suit
        in All Trumps, none in No Trumps (§5)."""
        suits = (
            self.table.suits
            if trump == ALL_TRUMPS
            else [trump]
            if trump in self.table.suits
            else []
        )
        pairs: dict[str, str] = {}
        for s in suits:
            pairs["K" + s], pairs["Q" + s] = "Q" + s, "K" + s
        return pairs

    def belote_refusal(self, state: State, seat: int, card: str) -> str | None:
        """The belot is announced with its first card, led, following suit, or (suit
        contract) trumping a suit the player lacks (§5 "Belot, when")."""
        reason = super().belote_refusal(state, seat, card)
        if reason or not state.trick:
            return reason
        suit = suit_of(card)
        if suit == suit_of(state.trick[0][1]) or suit == self.trump(state.contract):
            return None
        return Reason("belot_not_discard")

    def declarations_shown(self, state: State) -> bool:
        """Only the kinds are public during play; the cards after the last trick (§5)."""
        return len(state.tricks) == self.tricks_per_deal

    # ------------------------------------------------------------------ deal end and match
    def deal_summary(self, state: State) -> Summary:
        """The §8 summary of a finished deal: belots are counted (up to four in All Trumps)."""
        summary = super().deal_summary(state)
        belote = [0, 0]
        for b in state.belote:
            if not b["rebelote"]:
                belote[self.team_of(b["seat"])] += 1
        summary["belote"] = belote
        return summary

    def example_summary(self) -> dict[str, Any]:
        """The deal summary of rules/bridge-belote.md §8 itself, for the score-sheet form:
        team 0 declared diamonds doubled and took 3 tricks; team 1 a four of jacks and a
        belot."""
        return {
            "contract": {"kind": "suit", "trump": "D", "declarer_team": 0, "multiplier": 2},
            "card_points": [60, 92],
            "tricks": [3, 5],
            "last_trick_team": 1,
            "declarations": [[], [{"kind": "four", "rank": "J"}]],
            "belote": [0, 1],
            "carried_in": 0,
            "revoke_team": None,
        }

    def score_deal(self, options: dict[str, Any], summary: SummaryIn) -> DealScore:
        """Score one deal from its summary (rules/bridge-belote.md §7-8).

        Returns ``{"points": [s0, s1], "carried_out": n, "outcome": "made" |
        "inside" | "hanging", "detail": {"raw", "deal_total", "multiplier", ...}}``.

        Raises:
            IllegalAction: an unknown option or an impossible summary, with the reason.
        """
        return score(self, self.validate_options(options), summary)

    def match_winner(self, state: State) -> int | None:
        """§9: a team at or over the target with more points wins, but not on a capot deal
        while ``no_exit_on_capot`` is on; hanging points never delay the end."""
        if self.exit_blocked_by_capot(state):
            return None
        return super().match_winner(state)

    def exit_blocked_by_capot(self, state: State) -> bool:
        """True when the last deal played out was a capot and option ``no_exit_on_capot`` is on."""
        played = [e for e in state.sheet if not e["void"]]
        return bool(
            state.options["no_exit_on_capot"]
            and played
            and played[-1]["detail"]["capot"] is not None
        )

    # ------------------------------------------------------------------ views
    def observe_extra(self, state: State, seat: int | None, view: View) -> None:
        """Public additions (docs/engine-face.md, "Bridge-Belote"): the standing call during
        the auction, the hanging points, and whether a capot forbids the match to end now."""
        ex = state.extra
        view["bidding"] = (
            {k: ex.get(k) for k in ("bid", "bidder", "multiplier", "doubled_by", "redoubled_by")}
            if state.phase == "auction"
            else None
        )
        view["hanging_points"] = (
            state.carried if state.phase != "over" else 0
        )  # §9: dropped at the end
        view["no_exit_after_capot"] = self.exit_blocked_by_capot(state) and state.phase != "over"


GAME = BridgeBelote()
RULESETS = [GAME]
