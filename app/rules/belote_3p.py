"""Belote for three, ``belote-3p`` (rules/belote-3p.md).

Three players, each for himself ("team" is the seat: ``sides`` 3). One takes a
trump suit, the *preneur*, and plays against the other two, who defend each
for himself. Its own ways: by default 24 cards (no 7s or 8s), dealt 3 + 2 with
a *retourne* that the taker adds to his hand (§3); option ``deal "32"``: 32
cards, 3 + 3, the *retourne* stays on the table (with the 7-of-trumps
exchange of belote-2p), then nine cards each one at a time (§3). The
auction is Belote's two rounds (§4); declarations are compared between the
players (§5); the play has no partner exception (§6); the taker must score
strictly more than each defender, else the two defenders share the whole deal
(*dedans*, §7); a capot's 100 is shared by the players who took tricks (§7).
"""

from __future__ import annotations

from typing import Any

from app.rules.belote_base import (
    EIGHT_CARD_RUN_OPTION,
    TARGET_OPTION,
    SevenOfTrumpExchange,
    declaration_key,
)
from app.rules.cards import rank_of
from app.rules.declarations import check_disjoint, combination_cards
from app.rules.errors import IllegalAction
from app.rules.obligations import belote_follow
from app.rules.scoring import CheckedSummary, _int, card_points_cap
from app.rules.state import State
from app.rules.types import DealScore, Summary, SummaryIn, View

#: rules/belote-3p.md §2: the ranks of the default 24-card deck (no 7s or 8s).
SHORT_RANKS = ("9", "T", "J", "Q", "K", "A")
#: The 100 points of a capot, shared by the players who took tricks (§7).
CAPOT_BONUS = 100
#: The *dix de der*: the last trick's 10 when nobody is capot (§7).
LAST_TRICK_BONUS = 10


def best_declaration_player(
    declarations: list[list[dict[str, Any]]], trump: str, eldest: int | None
) -> int | None:
    """The player holding the best single declaration, or None (rules/belote-3p.md §5).

    ``declarations``: each seat's combinations. Declarations compare as in
    belote.md §5 (any carré beats any run; carrés by rank; runs by length, 5
    and more alike, top card, trump over plain). Two equal best runs go to the
    one declared first in playing order from the eldest hand ``eldest``.

    Raises:
        IllegalAction: two players tie and ``eldest`` is None (``runs_tie_needs_eldest``).
    """
    if not any(declarations):  # the usual deal: nothing declared
        return None
    best = [
        max((declaration_key(c, trump) for c in combos), default=None) for combos in declarations
    ]
    top = max((k for k in best if k is not None), default=None)
    if top is None:
        return None
    holders = [p for p, k in enumerate(best) if k == top]
    if len(holders) == 1:
        return holders[0]
    if eldest is None:
        raise IllegalAction("runs_tie_needs_eldest")
    players = len(declarations)
    return min(holders, key=lambda p: (p - eldest) % players)


class BeloteForThree(SevenOfTrumpExchange):
    """The ruleset ``belote-3p``: seats 0, 1, 2, each for himself (rules/belote-3p.md)."""

    id = "belote-3p"
    name = "Belote for three"
    players = 3
    sides = 3
    tricks_per_deal = 8
    packets = (3, 2)
    max_declared_cards = 8
    summary_contract_keys = ("trump", "taker", "eldest")
    summary_kind = "belote_players"
    options_schema = [
        dict(TARGET_OPTION, suggested=[1000, 701]),
        {
            "name": "deal",
            "type": "choice",
            "default": "24",
            "choices": ["24", "32"],
            "label": "Cards in the deck (32: nine each, the turned card stays on the table)",
        },
        {
            "name": "contract",
            "type": "bool",
            "default": True,
            "label": "The taker must score more than each opponent",
        },
        {
            "name": "must_undertrump",
            "type": "bool",
            "default": True,
            "label": "Unable to over-trump an opponent, you must still trump",
        },
        {
            "name": "declarations",
            "type": "bool",
            "default": True,
            "label": "Declarations (runs and carrés) are played",
        },
        {
            "name": "capoted_keep_declarations",
            "type": "bool",
            "default": False,
            "label": "A player who took no trick keeps his declarations",
        },
        EIGHT_CARD_RUN_OPTION,
        {
            "name": "seven_of_trump_exchange",
            "type": "bool",
            "default": True,
            "label": "The holder of the 7 of trumps may exchange it for the turned card",
        },
    ]

    def __init__(self) -> None:
        super().__init__()
        self._short_deck = tuple(c for c in self.table.deck if rank_of(c) in SHORT_RANKS)

    # ------------------------------------------------------------------ deck and deal (§2-3)
    @staticmethod
    def long_deal(options: dict[str, Any] | None) -> bool:
        """True under option ``deal "32"`` (32 cards, nine each)."""
        return options is not None and options.get("deal") == "32"

    @property
    def deck(self) -> list[str]:
        """The default deck: 24 cards, 9 to A in the four suits (§2)."""
        return list(self._short_deck)

    def deck_for(self, options: dict[str, Any] | None) -> tuple[str, ...]:
        """24 cards, or all 32 under option ``deal "32"`` (§2)."""
        return self.table.deck if self.long_deal(options) else self._short_deck

    def turned_to_taker(self, options: dict[str, Any]) -> bool:
        """The taker adds the *retourne* with 24 cards; with 32 it stays on the table (§3)."""
        return not self.long_deal(options)

    def deal_tricks(self, options: dict[str, Any]) -> int:
        """8 tricks, or 9 with 32 cards (§3)."""
        return 9 if self.long_deal(options) else 8

    def deal_packets(self, options: dict[str, Any]) -> tuple[int, ...]:
        """3 + 2 before the *retourne*, or 3 + 3 with 32 cards (§3)."""
        return (3, 3) if self.long_deal(options) else (3, 2)

    def hand_size(self, options: dict[str, Any]) -> int:
        """The cards each player holds for the play: 8, or 9 with 32 cards (§3)."""
        return self.deal_tricks(options)

    def complete_deal(self, state: State, taker: int) -> None:
        """24 cards: the taker adds the *retourne*, then 3 each from the eldest hand (the
        taker 2). 32 cards: cards 19-27 one at a time from the eldest; the *retourne* stays
        on the table, 28-31 are never dealt; then the 7-of-trumps exchange (§3)."""
        if not self.long_deal(state.options):
            super().complete_deal(state, taker)
            return
        order = self.seat_order(state)
        n = 3 * (self.hand_size(state.options) - sum(self.deal_packets(state.options)))
        for i, card in enumerate(state.stock[:n]):
            state.hands[order[i % 3]].append(card)
        state.stock = state.stock[n:]
        self.offer_exchange(state)

    # ------------------------------------------------------------------ play (§6)
    def legal_play(
        self,
        options: dict[str, Any],
        contract: dict[str, Any] | None,
        hand: list[str],
        trick: list[str],
    ) -> tuple[list[str], str]:
        """rules/belote-3p.md §6: Belote's duties with no partner exception (option
        ``must_undertrump``)."""
        trump = contract.get("trump") if contract else None
        if trump not in self.table.suits:
            raise IllegalAction("unknown_trump", trump=trump)
        # positional: this runs at every card of every simulated deal
        return belote_follow(
            hand,
            trick,
            trump,
            self._power.get(trump) or self.power_table(trump),
            3,
            options.get("must_undertrump", True),
        )

    # ------------------------------------------------------------------ declarations (§5)
    def declarations_allowed(
        self, contract: dict[str, Any] | None, options: dict[str, Any] | None = None
    ) -> bool:
        """Declarations are played unless option ``declarations`` is off (§10)."""
        return (options or {}).get("declarations", True) is not False

    def valid_combinations(
        self, declarations: list[list[dict[str, Any]]], trump: str, eldest_team: int | None
    ) -> list[list[bool]]:
        """Only the player with the best single declaration scores, all of his own (§5);
        ``eldest_team`` is the eldest hand's seat."""
        winner = best_declaration_player(declarations, trump, eldest_team)
        return [[p == winner] * len(combos) for p, combos in enumerate(declarations)]

    # ------------------------------------------------------------------ summary (§8)
    def deal_summary(self, state: State) -> Summary:
        """The deal summary of rules/belote-3p.md §8 for a finished deal: per player."""
        points = self.points_table(self.trump(state.contract))
        belote = [0] * self.players
        for b in state.belote:
            if not b["rebelote"]:
                belote[b["seat"]] = 1
        contract = state.contract or {}
        return {
            "contract": {
                "trump": contract.get("trump"),
                "taker": contract.get("taker"),
                "eldest": self.eldest(state),
            },
            "card_points": [sum(map(points.__getitem__, cards)) for cards in state.won],
            "tricks": list(state.tricks_won),
            "last_trick_player": state.tricks[-1]["winner"],
            "declarations": self.seat_declarations(state)[0],
            "belote": belote,
            "carried_in": 0,
        }

    def example_summary(self) -> dict[str, Any]:
        """Example T1 of rules/belote-3p.md §11: seat 1 took hearts and made it."""
        return {
            "contract": {"trump": "H", "taker": 1, "eldest": 1},
            "card_points": [40, 70, 42],
            "tricks": [2, 4, 2],
            "last_trick_player": 1,
            "declarations": [[], [], []],
            "belote": [0, 0, 0],
        }

    def _seat(self, value: Any, field: str) -> int:
        if not (_int(value) and 0 <= value < self.players):
            raise IllegalAction("seat_field", field=field, last=self.players - 1)
        seat: int = value
        return seat

    def _per_player(self, value: Any, code: str, **params: Any) -> list[int]:
        if not (
            isinstance(value, list)
            and len(value) == self.players
            and all(_int(v) and v >= 0 for v in value)
        ):
            raise IllegalAction(code, players=self.players, **params)
        return list(value)

    def played_points(self, options: dict[str, Any], trump: str) -> tuple[int, int]:
        """Fewest and most card points the played cards can hold: 152 and 152 with 24 cards;
        with 32, 152 less the five richest cards (85 under any trump) to 152 (§8)."""
        cards = self.deck_for(options)
        key = ("played", trump, cards)
        found: tuple[int, int] | None = self._memo.get(key)
        if found is None:  # once per trump and deck (the deal's end is a hot path)
            points = self.points_table(trump)
            values = sorted(points[c] for c in cards)
            n = self.players * self.deal_tricks(options)
            found = self._memo[key] = (sum(values[:n]), sum(values[-n:]))
        return found

    def check_summary_3p(self, options: dict[str, Any], summary: Any) -> CheckedSummary:
        """Validate a deal summary (rules/belote-3p.md §8).

        Returns ``(trump, taker, tricks, card_points, last_trick_player, declarations,
        belote)``, all per player.

        Raises:
            IllegalAction: each rejection §8 lists, with the reason.
        """
        if not isinstance(summary, dict):
            raise IllegalAction("summary_object")
        contract = summary.get("contract")
        if not isinstance(contract, dict):
            raise IllegalAction("summary_contract")
        trump = contract.get("trump")
        if trump not in self.table.suits:
            raise IllegalAction("unknown_trump", trump=trump)
        assert isinstance(trump, str)  # one of table.suits
        taker = self._seat(contract.get("taker"), "taker")
        if contract.get("eldest") is not None:
            self._seat(contract.get("eldest"), "eldest")
        n = self.deal_tricks(options)
        tricks = self._per_player(summary.get("tricks"), "player_tricks", n=n)
        if sum(tricks) != n:
            raise IllegalAction("player_tricks", players=self.players, n=n)
        cp = self._per_player(summary.get("card_points"), "player_card_points")
        low, high = self.played_points(options, trump)
        if low == high and sum(cp) != high:
            raise IllegalAction("card_points_total", total=high, sum=sum(cp))
        if not low <= sum(cp) <= high:
            cards = self.players * n
            raise IllegalAction("card_points_range", cards=cards, low=low, high=high, sum=sum(cp))
        for p in range(self.players):
            cap = card_points_cap(self, trump, tricks[p])
            if cp[p] > cap:
                if tricks[p] == 1:
                    raise IllegalAction("one_trick_cap", cap=cap, cp=cp[p])
                raise IllegalAction("tricks_cap", n=tricks[p], cap=cap, cp=cp[p])
        last = self._seat(summary.get("last_trick_player"), "last_trick_player")
        if tricks[last] == 0:
            raise IllegalAction("last_trick_player_no_trick")
        belote = summary.get("belote", [0] * self.players)
        if not (
            isinstance(belote, list)
            and len(belote) == self.players
            and all(b in (0, 1) and _int(b) for b in belote)
        ):
            raise IllegalAction("player_belote_values", players=self.players)
        if sum(belote) > 1:
            raise IllegalAction("one_belote_player")
        decl = summary.get("declarations", [[] for _ in range(self.players)])
        if not (
            isinstance(decl, list)
            and len(decl) == self.players
            and all(isinstance(d, list) for d in decl)
            and all(isinstance(c, dict) for d in decl for c in d)
        ):
            raise IllegalAction("player_declarations_lists", players=self.players)
        self.check_declarations(options, decl, trump, belote)
        if summary.get("carried_in", 0) not in (0, None):
            raise IllegalAction("belote_3p_no_carry")
        if summary.get("revoke_team") is not None:
            raise IllegalAction("no_revoke", game="Belote")
        return trump, taker, tricks, cp, last, decl, belote

    def check_declarations(
        self,
        options: dict[str, Any],
        decl: list[list[dict[str, Any]]],
        trump: str,
        belote: list[int],
    ) -> None:
        """§8: no declaration with option ``declarations`` off; no card outside the deck (a
        run with a 7 or 8 in the 24-card game); a card declared once; at most a hand's
        cards per player; the belote's K and Q in no other player's declarations.

        Raises:
            IllegalAction: with the reason.
        """
        if not any(decl):  # nothing declared: nothing to check
            return
        if not self.declarations_allowed(None, options):
            raise IllegalAction("declarations_off")
        deck = self._deck_set(options)
        most = self.hand_size(options)
        for combos in decl:
            for combo in combos:
                if combo.get("kind") == "four" and str(combo.get("rank")) not in self.four_ranks:
                    raise IllegalAction("four_not_declaration", rank=combo.get("rank"))
                for card in combination_cards(combo, self.table):
                    if card not in deck:
                        raise IllegalAction("declared_card_not_in_deck", card=card)
        sets = check_disjoint(decl, self.table, 10**6)
        for cards in sets:
            if len(cards) > most:
                raise IllegalAction("too_many_declared_cards_player", max_cards=most)
        pair = set(self.belote_cards({"trump": trump}))
        for p in range(self.players):
            if belote[p] and any(sets[q] & pair for q in range(self.players) if q != p):
                raise IllegalAction("belote_in_other_declarations", key=self.belote_key)

    # ------------------------------------------------------------------ scoring (§7)
    def score_deal(self, options: dict[str, Any], summary: SummaryIn) -> DealScore:
        """Score one deal from its summary (rules/belote-3p.md §7-8).

        Returns ``{"points": [s0, s1, s2], "carried_out": 0, "outcome":
        "made"|"failed"|"scored", "detail": {"totals", "card_points", "bonus",
        "declarations" (as counted in the totals), "valid_declarations", "belote",
        "capot" (the seats without a trick), "last_trick_player" (None on a capot),
        "declaration_player", "taker", "pot" (None unless failed)}}``.

        Raises:
            IllegalAction: an impossible summary (§8), with the reason.
        """
        opts = self.validate_options(options)
        return self._score(opts, self.check_summary_3p(opts, summary), summary)

    def score_own_deal(self, options: dict[str, Any], summary: Summary) -> DealScore:
        """``score_deal`` without the checks of §8: the engine's own summary is made by
        its play (``deal_summary``), which every one of those checks already holds for;
        ``options`` are the match's, validated when it began (``new_game``)."""
        contract = summary["contract"]
        checked: CheckedSummary = (
            contract["trump"],
            contract["taker"],
            summary["tricks"],
            summary["card_points"],
            summary["last_trick_player"],
            summary["declarations"],
            summary["belote"],
        )
        return self._score(options, checked, summary)

    def _score(
        self, opts: dict[str, Any], checked: CheckedSummary, summary: SummaryIn
    ) -> DealScore:
        """§7 on a checked summary (``score_deal``)."""
        trump, t, tricks, cp, last, decl, belote = checked
        players = range(self.players)
        valid = self.valid_combinations(decl, trump, summary["contract"].get("eldest"))
        vd = self.declaration_points(opts, decl, valid)
        took = [p for p in players if tricks[p] > 0]
        bonus = [0] * self.players
        if len(took) < self.players:  # someone is capot: 100 shared, no dix de der
            for p in took:
                bonus[p] = CAPOT_BONUS // len(took)
        else:
            bonus[last] = LAST_TRICK_BONUS
        eff = [vd[p] if tricks[p] or opts["capoted_keep_declarations"] else 0 for p in players]
        totals = [cp[p] + bonus[p] + eff[p] + 20 * belote[p] for p in players]
        pot = None
        if not opts["contract"]:
            points, outcome = list(totals), "scored"
        elif all(totals[t] > totals[q] for q in players if q != t):
            points, outcome = list(totals), "made"
        else:  # dedans: the defenders share the whole deal, the taker keeps his belote
            pot = sum(cp) + sum(bonus) + sum(vd)
            a, b = (t + 1) % 3, (t + 2) % 3
            points = [20 * bel for bel in belote]
            points[a] += pot - pot // 2
            points[b] += pot // 2
            outcome = "failed"
        return {
            "points": points,
            "carried_out": 0,
            "outcome": outcome,
            "detail": {
                "totals": totals,
                "card_points": cp,
                "tricks": tricks,
                "bonus": bonus,
                "declarations": eff,
                "valid_declarations": vd,
                "belote": [20 * b for b in belote],
                "capot": [p for p in players if tricks[p] == 0],
                "last_trick_player": last if len(took) == self.players else None,
                "declaration_player": next((p for p in players if any(valid[p])), None),
                "taker": t,
                "pot": pot,
            },
        }

    # ------------------------------------------------------------------ match (§9)
    def match_winner(self, state: State) -> int | None:
        """§9: a player at or over the target whose score is the single highest wins."""
        scores = state.scores
        top = max(scores)
        if top >= state.options["target"] and scores.count(top) == 1:
            return scores.index(top)
        return None

    # ------------------------------------------------------------------ views
    def observe_extra(self, state: State, seat: int | None, view: View) -> None:
        """With 32 cards the *retourne* lies face up on the table all deal, and the
        exchange is public (§3); with 24 it is in the taker's hand (``contract.turned``)."""
        super().observe_extra(state, seat, view)
        if self.long_deal(state.options):
            dealt = state.phase in ("auction", "play")
            view["turned"] = state.turned if dealt else None
            view["exchange"] = state.extra.get("exchange") if dealt else None

    def extra_from_view(self, state: State, view: View) -> None:
        """The *retourne* and the exchange are public during the play (32 cards)."""
        if self.long_deal(state.options):
            state.turned = view.get("turned")
            state.extra = {"exchange": view.get("exchange")}


GAME = BeloteForThree()
RULESETS = [GAME]
