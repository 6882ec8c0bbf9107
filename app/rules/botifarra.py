"""Catalan Botifarra with the 48-card Spanish deck (rules/botifarra.md).

Four players in two fixed pairs; the dealer chooses trumps, *botifarra* (no
trumps, counting double) or delegates the choice to his partner; the
defenders may double (*contrar*), the choosing pair redouble (*recontrar*)
and the defenders re-redouble (*Sant Vicenç*). The *manilla* (the 9) is the
highest card of every suit. 12 tricks; each hand holds 72 points and the
pair taking more than 36 scores the excess times the multiplier. A game
(*partida*) is played to 101. Western rules of play (*occidental*) by
default, eastern (*oriental*) as an option.

The pieces live in ``botifarra_choice`` (trump choice and doubling ladder),
``botifarra_play`` (which cards may follow) and ``botifarra_score`` (one hand
from its summary).
"""

from __future__ import annotations

from typing import Any

from app.rules.botifarra_choice import TrumpChoiceGame
from app.rules.botifarra_play import botifarra_follow
from app.rules.botifarra_score import score_botifarra
from app.rules.cards import SPANISH_SUITS, CardTable
from app.rules.errors import IllegalAction
from app.rules.state import State
from app.rules.types import DealScore, SummaryIn, View

ORDER = ("9", "1", "12", "11", "10", "8", "7", "6", "5", "4", "3", "2")
POINTS = {"9": 5, "1": 4, "12": 3, "11": 2, "10": 1} | {r: 0 for r in ORDER[5:]}

#: rules/botifarra.md §2: the same order and points in every suit, trump or not.
TABLE = CardTable(
    suits=SPANISH_SUITS,
    ranks=tuple(str(n) for n in range(1, 13)),
    trump_order=ORDER,
    plain_order=ORDER,
    trump_points=POINTS,
    plain_points=POINTS,
)


class Botifarra(TrumpChoiceGame):
    """The ruleset ``botifarra`` (rules/botifarra.md); options as in its §10."""

    id = "botifarra"
    name = "Botifarra"
    deck_family = "spanish"
    trump_chosen = True
    summary_kind = "botifarra"
    one_side_scores = True
    deal_limit_option = "max_hands"
    bot_family = "botifarra"
    players = 4
    table = TABLE
    tricks_per_deal = 12
    tricks_public = False  # face down; only the last trick may be looked at
    summary_contract_keys = ("trump", "chooser_team", "delegated", "doublings")
    options_schema = [
        {
            "name": "target",
            "type": "choice",
            "default": 101,
            "choices": [51, 101, 151],
            "label": "Game to",
        },
        {
            "name": "variant",
            "type": "choice",
            "default": "western",
            "choices": ["western", "eastern"],
            "label": "Rules of play (western: follow and beat; eastern: also play your lowest)",
        },
        {
            "name": "eastern_extended_exception",
            "type": "bool",
            "default": False,
            "label": "Eastern: the second player may play a counting card even when he follows suit",
        },
        {
            "name": "sant_vicenc_on_botifarra",
            "type": "bool",
            "default": True,
            "label": "Sant Vicenç allowed on botifarra",
        },
        {
            "name": "doubling_scale",
            "type": "choice",
            "default": "2-4-8",
            "choices": ["2-4-8", "2-3-4"],
            "label": "Doubling scale (contrar, recontrar, Sant Vicenç)",
        },
        {
            "name": "max_hands",
            "type": "int",
            "default": None,
            "nullable": True,
            "min": 1,
            "max": 1000,
            "label": "Tournament: the game ends after this many hands",
            "suggested": [12],
        },
        {
            "name": "cap_score",
            "type": "int",
            "default": None,
            "nullable": True,
            "min": 1,
            "max": 100000,
            "label": "Tournament: highest score recorded for standings",
            "suggested": [121],
        },
    ]

    # ------------------------------------------------------------------ deal
    def deal_cards(self, state: State, deck: list[str]) -> None:
        """Four at a time from the seat after the dealer: card i goes to ``(d + 1 + i // 4) % 4`` (§3)."""
        d = state.dealer
        for i, card in enumerate(deck):
            state.hands[(d + 1 + i // 4) % self.players].append(card)
        self.open_choice(state)

    def hand_hidden(self, state: State, seat: int) -> bool:
        """The dealer's partner may not look at his cards until the dealer has chosen or delegated (§3)."""
        return (
            state.phase == "auction"
            and state.extra.get("step") == "choose"
            and not state.extra.get("delegated")
            and seat == self.partner(state.dealer)
        )

    # ------------------------------------------------------------------ play
    def legal_play(
        self,
        options: dict[str, Any],
        contract: dict[str, Any] | None,
        hand: list[str],
        trick: list[str],
    ) -> tuple[list[str], str]:
        """Rules 1-2 (western) or 1-3 (eastern) of rules/botifarra.md §6.

        Raises:
            IllegalAction: a contract without a trump that is o, c, e, b or null (botifarra).
        """
        trump = self.trump(contract)
        if (trump is not None and trump not in self.table.suits) or "trump" not in (contract or {}):
            raise IllegalAction("trump_or_null")
        return botifarra_follow(
            hand,
            trick,
            trump,
            self.power_table(trump),
            eastern=options["variant"] == "eastern",
            extended_exception=options["eastern_extended_exception"],
        )

    # ------------------------------------------------------------------ scoring and match
    def score_deal(self, options: dict[str, Any], summary: SummaryIn) -> DealScore:
        """One hand from its summary (rules/botifarra.md §7-8); see ``botifarra_score.score_botifarra``.

        Raises:
            IllegalAction: an unknown option or an impossible summary, with the reason.
        """
        return score_botifarra(self, self.validate_options(options), summary)

    def example_summary(self) -> dict[str, Any]:
        """A deal summary for the score-sheet form (§8): team 0 chose oros and took 7 tricks
        and 33 of the 60 card points, 40 points with the trick points (§7: 72 in all)."""
        return {
            "contract": {"trump": "o", "botifarra": False, "chooser_team": 0, "doublings": 0},
            "card_points": [33, 27],
            "tricks": [7, 5],
        }

    def hands_played(self, state: State) -> int:
        """Hands finished in this game (Botifarra has no void deals)."""
        return len(state.sheet)

    def hands_limit_reached(self, state: State) -> bool:
        """True when option ``max_hands`` is set and that many hands are played (§9)."""
        limit = state.options.get("max_hands")
        return limit is not None and self.hands_played(state) >= limit

    def match_winner(self, state: State) -> int | None:
        """The pair at or over the target, or after ``max_hands`` the higher score; None for a draw (§9)."""
        a, b = state.scores
        if a != b and (max(a, b) >= state.options["target"] or self.hands_limit_reached(state)):
            return 0 if a > b else 1
        return None

    def match_over(self, state: State) -> bool:
        """A pair won, or ``max_hands`` were played (equal scores: a draw, winner None)."""
        return state.winner is not None or self.hands_limit_reached(state)

    def recorded_scores(self, state: State) -> list[int]:
        """The scores for standings: at most ``cap_score`` when that option is set (§9)."""
        cap = state.options.get("cap_score")
        return [s if cap is None else min(s, cap) for s in state.scores]

    def extra_from_view(self, state: State, view: View) -> None:
        """The choice is over during the play (see botifarra_choice)."""
        state.extra = {"step": None, "asked": (), "delegated": bool(view.get("delegated"))}

    # ------------------------------------------------------------------ view
    def observe_extra(self, state: State, seat: int | None, view: View) -> None:
        """Botifarra's public keys (docs/engine-face.md, "Botifarra")."""
        contract = state.contract if state.phase in ("auction", "play") else None
        step = state.extra.get("step") if state.phase == "auction" else None
        view.update(
            {
                "choice_step": step,
                "trump_maker": contract["chooser"] if contract else None,
                "delegated": bool(state.extra.get("delegated"))
                if state.phase in ("auction", "play")
                else False,
                "doublings": contract["doublings"] if contract else 0,
                "multiplier": contract["multiplier"] if contract else None,
                "hand_hidden": seat is not None and self.hand_hidden(state, seat),
                "hands_played": self.hands_played(state),
                "recorded_scores": self.recorded_scores(state),
                "draw": state.phase == "over" and state.winner is None,
            }
        )


GAME = Botifarra()
RULESETS = [GAME]
