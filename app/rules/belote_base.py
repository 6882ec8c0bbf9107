"""What French Belote for four (``belote``) and for two (``belote-2p``) share.

rules/belote.md §2 (the French table of ranks and points), §5 (the values of
declarations), §8 (the checks of a deal summary). The two rulesets differ in
their deal, auction, play, declaration comparison and scoring; each lives in
its own module (``belote.py``, ``belote_2p.py``).
"""

from __future__ import annotations

from typing import Any

from app.rules.cards import FRENCH_BELOTE, suit_of
from app.rules.core import TrickGame
from app.rules.declarations import run_key
from app.rules.errors import IllegalAction
from app.rules.obligations import belote_follow
from app.rules.scoring import CheckedSummary, check_common_summary, check_declared
from app.rules.state import State
from app.rules.turned import TurnedCardGame
from app.rules.types import Action, ActionIn, Summary, View

#: The answers of the 7 of trumps' holder (rules/belote.md §3, 2p; rules/belote-3p.md §3).
EXCHANGE_ACTIONS: list[Action] = [
    {"type": "exchange", "swap": True},
    {"type": "exchange", "swap": False},
]

#: rules/belote.md §2: the French table shared with Bridge-Belote.
TABLE = FRENCH_BELOTE

#: rules/belote.md §5: a carré's points, and the carrés' order (J > 9 > A > T > K > Q).
FOUR_POINTS = {"J": 200, "9": 150, "A": 100, "T": 100, "K": 100, "Q": 100}
FOUR_ORDER = ("Q", "K", "T", "A", "9", "J")  # low -> high
RUN_POINTS = {3: 20, 4: 50}  # 5, 6 or 7: 100; 8: see run_points

TARGET_OPTION = {
    "name": "target",
    "type": "int",
    "default": 1000,
    "min": 1,
    "max": 100000,
    "label": "Match to",
    "suggested": [1000, 501],
}
EIGHT_CARD_RUN_OPTION = {
    "name": "eight_card_run_120",
    "type": "bool",
    "default": True,
    "label": "A run of all 8 cards of a suit is worth 120 (quinte + tierce)",
}


def run_points(length: int, eight_card_run_120: bool = True) -> int:
    """tierce 20, quarte 50, quinte (5-7) 100; 8 cards 120, or 100 without the option (§5)."""
    if length == 8 and eight_card_run_120:
        return 120
    return RUN_POINTS.get(length, 100)


def combination_points(combo: dict[str, Any], eight_card_run_120: bool = True) -> int:
    """Points of one declared combination (rules/belote.md §5)."""
    if combo["kind"] == "four":
        return FOUR_POINTS[str(combo["rank"])]
    return run_points(int(combo["length"]), eight_card_run_120)


def four_key(combo: dict[str, Any]) -> int:
    """Rank of a carré among carrés: Q lowest, J highest (rules/belote.md §5)."""
    return FOUR_ORDER.index(str(combo["rank"]))


def declaration_key(combo: dict[str, Any], trump: str | None) -> tuple[int, ...]:
    """Comparison key of one declaration in the 4-player ranking (rules/belote.md §5).

    Any carré beats any run; carrés by rank; runs by length (5 and more
    alike), top card, then trump over plain.
    """
    if combo["kind"] == "four":
        return (1, four_key(combo), 0, 0)
    return (0, *run_key(combo, TABLE, trump))


class FrenchBeloteRules(TrickGame):
    """What the French Belote games share apart from the deal and auction: the French
    table, the belote, declarations in trick 1 and their summary checks (rules/belote.md
    §2, §5, §6, §8); ``belote`` and ``belote-2p`` (with a turned card, :class:`FrenchBelote`)
    and ``contree`` (with an auction, rules/contree.md §5-6).

    A subclass sets ``players``, the options and ``max_declared_cards``, and
    gives ``valid_combinations`` (its declaration comparison) and ``score_deal``.
    """

    table = TABLE
    four_ranks = tuple(FOUR_POINTS)
    belote_ranks = ("K", "Q")
    belote_key = "belote"
    #: Most cards a side can declare: the cards it holds (§8: 16, or 9 for two).
    max_declared_cards = 16
    #: A run in the deal summary carries ``by``, its declarer's position from the eldest
    #: hand (rules/belote.md §8, 4 players: it breaks a tie of equal runs).
    runs_carry_by = False

    def legal_play(
        self,
        options: dict[str, Any],
        contract: dict[str, Any] | None,
        hand: list[str],
        trick: list[str],
    ) -> tuple[list[str], str]:
        """rules/belote.md §6, 4 players (option ``must_undertrump``, on unless given);
        rules/contree.md §6 is the same procedure.

        Raises:
            IllegalAction: an unknown trump.
        """
        trump = self.trump(contract)
        if trump not in self.table.suits:
            raise IllegalAction("unknown_trump", trump=trump)
        return belote_follow(
            hand,
            trick,
            trump,
            self._power.get(trump) or self.power_table(trump),
            must_undertrump=options.get("must_undertrump", True),
        )

    # ------------------------------------------------------------------ declarations
    def valid_combinations(
        self, declarations: list[list[dict[str, Any]]], trump: str, eldest_team: int | None
    ) -> list[list[bool]]:  # pragma: no cover - abstract
        """For each side, which of its declarations score after the comparison (§5)."""
        raise NotImplementedError

    def declaration_points(
        self,
        options: dict[str, Any],
        declarations: list[list[dict[str, Any]]],
        valid: list[list[bool]],
    ) -> list[int]:
        """Points of each side's valid declarations (rules/belote.md §5)."""
        if not any(declarations):  # the usual deal: nothing declared
            return [0] * len(declarations)
        eight = options.get("eight_card_run_120", True)
        return [
            sum(
                combination_points(c, eight)
                for c, ok in zip(declarations[t], valid[t], strict=True)
                if ok
            )
            for t in range(len(declarations))
        ]

    def summary_item(self, state: State, seat: int, combo: dict[str, Any]) -> dict[str, Any]:
        """One declared combination as a deal summary lists it (§8); with ``runs_carry_by``
        a run carries ``by``, its declarer's position from the eldest hand."""
        if self.runs_carry_by and combo["kind"] == "sequence":
            return dict(combo, by=(seat - self.eldest(state)) % self.players)
        return dict(combo)

    def seat_declarations(
        self, state: State
    ) -> tuple[list[list[dict[str, Any]]], list[list[tuple[int, int]]]]:
        """Each side's declarations in summary form, with where each came from: ``(seat, index)``."""
        per_team: list[list[dict[str, Any]]] = [[] for _ in range(self.sides)]
        where: list[list[tuple[int, int]]] = [[] for _ in range(self.sides)]
        for seat, combos in enumerate(state.declared):
            for i, combo in enumerate(combos or []):
                team = self.team_of(seat)
                per_team[team].append(self.summary_item(state, seat, combo))
                where[team].append((seat, i))
        return per_team, where

    def compared(
        self, state: State
    ) -> tuple[list[list[dict[str, Any]]], list[list[tuple[int, int]]], list[list[bool]]]:
        """The deal's declarations per side, where each came from, and which are valid (§5)."""
        per_team, where = self.seat_declarations(state)
        valid = self.valid_combinations(
            per_team, self.trump(state.contract) or "", self.team_of(self.eldest(state))
        )
        return per_team, where, valid

    def valid_by_seat(self, state: State) -> dict[int, list[bool]]:
        """Seat -> validity of each of its declared combinations (after trick 1)."""
        _, where, valid = self.compared(state)
        out: dict[int, list[bool]] = {
            s: [False] * len(c or []) for s, c in enumerate(state.declared)
        }
        for team in range(self.sides):
            for (seat, i), ok in zip(where[team], valid[team], strict=True):
                out[seat][i] = ok
        return out

    def valid_points(self, state: State) -> list[int]:
        """Each side's points of valid declarations in the deal being played (after trick 1)."""
        per_team, _, valid = self.compared(state)
        return self.declaration_points(state.options, per_team, valid)

    def deal_summary(self, state: State) -> Summary:
        """The deal summary of rules/belote.md §8 for a finished deal."""
        summary = super().deal_summary(state)
        summary["declarations"] = self.seat_declarations(state)[0]
        return summary

    # ------------------------------------------------------------------ scoring
    def check_summary(self, summary: Any) -> CheckedSummary:
        """Validate a deal summary (rules/belote.md §8).

        Returns ``(trump, taker_team, tricks, card_points, last_trick_team,
        declarations, belote)``.

        Raises:
            IllegalAction: each rejection §8 lists, with the reason.
        """
        trump, taker, tricks, cp, last, decl, belote = check_common_summary(self, summary)
        check_declared(self, decl, trump, belote, self.max_declared_cards)
        if summary.get("revoke_team") is not None:
            raise IllegalAction("no_revoke", game="Belote")
        return trump, taker, tricks, cp, last, decl, belote

    # ------------------------------------------------------------------ views
    def observe_extra(self, state: State, seat: int | None, view: View) -> None:
        """Once trick 1 is complete, mark each shown declaration valid or not (§5)."""
        if not (state.declared and self.declarations_shown(state)):
            return
        valid = self.valid_by_seat(state)
        for entry in view["declarations"]:
            flags = valid[entry["seat"]]
            for item, ok in zip(entry["combinations"], flags, strict=True):
                item["valid"] = ok
            entry["valid"] = any(flags)


class FrenchBelote(FrenchBeloteRules, TurnedCardGame):
    """The parts of ``belote`` and ``belote-2p`` that are the same (rules/belote.md): the
    French Belote rules dealt around a turned card (rules/belote.md §3-4)."""


class SevenOfTrumpExchange(FrenchBelote):
    """The exchange of the 7 of trumps for the *retourne* that stays on the table, after a
    round-1 take (rules/belote.md §3, 2p; rules/belote-3p.md §3 with 32 cards; option
    ``seven_of_trump_exchange``). The holder answers ``{"type": "exchange", "swap": bool}``
    while the phase is still ``"auction"``; then the eldest hand leads.
    """

    def offer_exchange(self, state: State) -> None:
        """The hands are complete: ask the 7 of trumps' holder when the exchange applies,
        else begin the play."""
        holder = self.exchange_holder(state)
        if holder is None:
            self.begin_play(state, self.eldest(state))
        else:
            state.extra["exchange"] = {"seat": holder, "swap": None}
            state.to_act = holder

    def exchange_holder(self, state: State) -> int | None:
        """The seat holding the 7 of trumps when the trump is the *retourne*'s suit (option on)."""
        trump = self.trump(state.contract)
        if not state.options["seven_of_trump_exchange"] or trump != suit_of(state.turned or ""):
            return None
        seven = "7" + trump
        return next((s for s in range(self.players) if seven in state.hands[s]), None)

    def exchange_pending(self, state: State) -> bool:
        """True while the 7 of trumps' holder has not answered."""
        ex = state.extra.get("exchange")
        return state.phase == "auction" and ex is not None and ex["swap"] is None

    def auction_actions(self, state: State) -> list[Action]:
        if self.exchange_pending(state):
            return [a.copy() for a in EXCHANGE_ACTIONS]
        return super().auction_actions(state)

    def do_auction(self, state: State, action: ActionIn) -> None:
        if not self.exchange_pending(state):
            if action.get("type") == "exchange":
                raise IllegalAction("no_seven_to_exchange")
            super().do_auction(state, action)
            return
        swap = action.get("swap")
        if action.get("type") != "exchange" or swap not in (True, False):
            raise IllegalAction("exchange_first")
        seat = state.extra["exchange"]["seat"]
        if swap:
            hand = state.hands[seat]
            hand.remove("7" + self.trump(state.contract))  # type: ignore[operator]
            hand.append(state.turned)
            state.turned = "7" + self.trump(state.contract)  # type: ignore[operator]
        state.extra["exchange"] = {"seat": seat, "swap": swap}
        self.begin_play(state, self.eldest(state))
