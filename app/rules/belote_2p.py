"""Belote for two, ``belote-2p`` (rules/belote.md, the parts marked **2p**; seed 001).

Each player plays for himself ("team" is the seat). Its own ways: 6 cards
each then the *retourne* beside the stock; after the take 3 more cards each,
one at a time, and the bottom card turned up for information (§3); the
exchange of the 7 of trumps for the *retourne* (§3); free play, following
suit only (§6); *brelans* (carrés) void the opponent's runs (§5); the
"I'm done" claim that ends the match (§6); no contract to make (§7).
"""

from __future__ import annotations

from typing import Any

from app.rules.belote_base import (
    EIGHT_CARD_RUN_OPTION,
    TARGET_OPTION,
    SevenOfTrumpExchange,
    four_key,
)
from app.rules.cards import suit_of
from app.rules.declarations import run_key
from app.rules.errors import IllegalAction, Reason
from app.rules.scoring import capot_team, compare_best, deal_totals
from app.rules.state import State
from app.rules.types import Action, ActionIn, DealScore, SummaryIn, View


def follow_suit(hand: list[str], trick: list[str]) -> tuple[list[str], str]:
    """Follow the suit led if you can, trumps included; otherwise any card (§6, 2p)."""
    if not trick:
        return list(hand), ""
    led = suit_of(trick[0])
    follow = [c for c in hand if suit_of(c) == led]
    if follow:
        return follow, Reason("must_follow_suit", suit=led)
    return list(hand), ""


class BeloteForTwo(SevenOfTrumpExchange):
    """The ruleset ``belote-2p``: seats 0 and 1, each for himself (rules/belote.md)."""

    id = "belote-2p"
    name = "Belote for two"
    claim_option = "allow_claim"
    players = 2
    tricks_per_deal = 9
    packets = (3, 3)
    max_declared_cards = 9
    options_schema = [
        TARGET_OPTION,
        EIGHT_CARD_RUN_OPTION,
        {
            "name": "seven_of_trump_exchange",
            "type": "bool",
            "default": True,
            "label": "The holder of the 7 of trumps may exchange it for the turned card",
        },
        {
            "name": "allow_claim",
            "type": "bool",
            "default": True,
            "label": '"I\'m done": a player may claim he has reached the target',
        },
    ]

    # ------------------------------------------------------------------ deal and exchange (§3)
    def complete_deal(self, state: State, taker: int) -> None:
        """Cards 13-18 one at a time from the eldest; card 31 turned up; 19-30 stay unseen.

        The *retourne* stays beside the stock. Then the holder of the 7 of
        trumps is asked about the exchange when it applies; otherwise play begins.
        """
        e = self.eldest(state)
        for i, card in enumerate(state.stock[:6]):
            state.hands[e if i % 2 == 0 else 1 - e].append(card)
        state.extra["bottom"] = state.stock[-1]
        state.stock = state.stock[6:-1]
        self.offer_exchange(state)

    # ------------------------------------------------------------------ play (§6)
    def legal_play(
        self,
        options: dict[str, Any],
        contract: dict[str, Any] | None,
        hand: list[str],
        trick: list[str],
    ) -> tuple[list[str], str]:
        """rules/belote.md §6, 2p: follow suit if you can; no duty to beat or to trump."""
        if self.trump(contract) not in self.table.suits:
            raise IllegalAction("unknown_trump", trump=self.trump(contract))
        return follow_suit(hand, trick)

    def can_claim(self, state: State, seat: int) -> bool:
        """ "I'm done" (§6): option on, not the last trick, and a won trick with card points."""
        if not state.options["allow_claim"] or state.phase != "play" or len(state.tricks) >= 8:
            return False
        points = self.points_table(self.trump(state.contract))
        return any(
            t["winner"] == seat and any(points[c] for _, c in t["cards"]) for t in state.tricks
        )

    def won_card_points(self, state: State) -> list[int]:
        """Card points of the tricks each player has won so far in this deal."""
        points = self.points_table(self.trump(state.contract))
        return [sum(points[c] for c in state.won[p]) for p in (0, 1)]

    def claim_total(self, state: State, seat: int) -> int:
        """Match score + card points won + valid declarations + a belote whose two cards are played (§6)."""
        total = state.scores[seat] + self.won_card_points(state)[seat]
        if state.tricks and state.declared:
            total += self.valid_points(state)[seat]
        said = [b for b in state.belote if b["seat"] == seat]
        if len(said) == 2:
            total += 20
        return total

    def play_actions(self, state: State, seat: int) -> list[Action]:
        actions = super().play_actions(state, seat)
        if self.can_claim(state, seat):
            actions.append({"type": "claim"})
        return actions

    def apply(self, state: State, action: ActionIn) -> State:
        """As the core, plus ``{"type": "claim"}`` during the play (§6)."""
        if not (isinstance(action, dict) and action.get("type") == "claim"):
            return super().apply(state, action)
        if state.phase != "play" or not state.options["allow_claim"]:
            raise IllegalAction(
                "claim_only_in_play" if state.options["allow_claim"] else "claim_not_played"
            )
        seat = state.to_act
        assert seat is not None
        if not self.can_claim(state, seat):
            raise IllegalAction("claim_after_points")
        new = state.clone()
        self.do_claim(new, seat)
        new.seq = state.seq + 1
        return new

    def do_claim(self, state: State, seat: int) -> None:
        """Stop the play: the claimer wins the match if his claim total reaches the target, else loses it."""
        total, target = self.claim_total(state, seat), state.options["target"]
        correct = total >= target
        points = [0, 0]
        points[seat] = total - state.scores[seat]
        state.scores = [state.scores[p] + points[p] for p in (0, 1)]
        state.sheet = state.sheet + [
            {
                "deal": state.deal_no,
                "dealer": state.dealer,
                "void": False,
                "contract": state.contract,
                "points": points,
                "outcome": "claim",
                "detail": {
                    "claim": {"seat": seat, "total": total, "target": target, "correct": correct},
                    "card_points": self.won_card_points(state),
                },
                "scores_after": list(state.scores),
                "hands": state.initial_hands,
                "declared": list(state.declared),
                "tricks": state.tricks,
            }
        ]
        state.winner = seat if correct else 1 - seat
        state.phase, state.to_act = "over", None

    # ------------------------------------------------------------------ declarations and scoring
    def valid_combinations(
        self, declarations: list[list[dict[str, Any]]], trump: str, eldest_team: int | None
    ) -> list[list[bool]]:
        """§5, 2p: the higher carré cancels the other's; any carré voids the opponent's runs;
        the remaining runs compare as in 4p, an exact tie to the eldest hand."""
        fours = [[four_key(c) for c in declarations[p] if c["kind"] == "four"] for p in (0, 1)]
        four_winner = compare_best(fours, None, "carrés")
        runs = [
            [
                run_key(c, self.table, trump)
                if c["kind"] == "sequence" and not fours[1 - p]
                else None
                for c in declarations[p]
            ]
            for p in (0, 1)
        ]
        run_winner = compare_best(
            [[k for k in runs[p] if k is not None] for p in (0, 1)], eldest_team, "runs"
        )
        return [
            [
                (c["kind"] == "four" and p == four_winner)
                or (runs[p][i] is not None and p == run_winner)
                for i, c in enumerate(declarations[p])
            ]
            for p in (0, 1)
        ]

    def example_summary(self) -> dict[str, Any]:
        """A deal summary for the score-sheet form (rules/belote.md §8, **2p**; the card
        points of example S1 of §11): seat 0 took hearts, 5 tricks and 58 card points with
        the last trick, seat 1 4 tricks and 45."""
        return {
            "contract": {"trump": "H", "taker_team": 0, "eldest_team": 0},
            "card_points": [58, 45],
            "tricks": [5, 4],
            "last_trick_team": 0,
            "declarations": [[], []],
            "belote": [0, 0],
        }

    def score_deal(self, options: dict[str, Any], summary: SummaryIn) -> DealScore:
        """Score one deal from its summary (rules/belote.md §7-8, 2p): each player scores his total.

        Returns ``{"points": [s0, s1], "carried_out": 0, "outcome": "scored", "detail": {...}}``.

        Raises:
            IllegalAction: an impossible summary (§8), with the reason.
        """
        opts = self.validate_options(options)
        trump, taker, tricks, cp, last, decl, belote = self.check_summary(summary)
        if summary.get("carried_in", 0) not in (0, None):
            raise IllegalAction("belote_2p_no_carry")
        valid = self.valid_combinations(decl, trump, summary["contract"].get("eldest_team"))
        vd = self.declaration_points(opts, decl, valid)
        capot = capot_team(tricks)
        totals = deal_totals(cp, vd, belote, capot, last)
        return {
            "points": list(totals),
            "carried_out": 0,
            "outcome": "scored",
            "detail": {
                "totals": totals,
                "card_points": cp,
                "last_trick_team": None if capot is not None else last,
                "capot": capot,
                "declarations": vd,
                "belote": [20 * b for b in belote],
                "taker_team": taker,
            },
        }

    # ------------------------------------------------------------------ match (§9)
    def finish_deal(self, state: State) -> None:
        """As the core; then the player who scored more in the deal deals (equal: the other one)."""
        dealer = state.dealer
        super().finish_deal(state)
        if state.phase == "deal":
            a, b = state.sheet[-1]["points"]
            state.dealer = 0 if a > b else 1 if b > a else 1 - dealer

    def extra_from_view(self, state: State, view: View) -> None:
        """The *retourne*, the bottom card and the exchange are public during the play."""
        state.turned = view.get("turned")
        state.extra = {"bottom": view.get("bottom_card"), "exchange": view.get("exchange")}

    # ------------------------------------------------------------------ views
    def observe_extra(self, state: State, seat: int | None, view: View) -> None:
        """Public 2p fields: the *retourne* all deal, the bottom card, the exchange, claim totals."""
        super().observe_extra(state, seat, view)
        dealt = state.phase in ("auction", "play")
        view["turned"] = state.turned if dealt else None
        view["bottom_card"] = state.extra.get("bottom") if dealt else None
        view["exchange"] = state.extra.get("exchange") if dealt else None
        in_play = state.phase == "play"
        view["card_points_won"] = self.won_card_points(state) if in_play else [0, 0]
        view["claim_totals"] = [self.claim_total(state, p) for p in (0, 1)] if in_play else None
