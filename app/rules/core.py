"""The shared trick-taking core of every Tapet game.

:class:`TrickGame` is a ruleset: rules as data (a :class:`~.cards.CardTable`,
option defaults) plus hooks that a game module overrides only where its rules
really differ. The state machine is the same for every game::

    deal -> auction (or trump choice) -> play (declarations in trick 1) -> deal end
         -> next deal ... -> over

A game module supplies: ``deal_cards`` (how a deck order becomes hands),
the auction hooks ``auction_actions``/``do_auction``, ``legal_play`` (which
cards may follow a trick) and ``score_deal`` (one deal from its summary).
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

from app.rules import obligations
from app.rules.cards import CardTable, rank_of, suit_of
from app.rules.declarations import canonical, declare_choices
from app.rules.errors import IllegalAction, Reason
from app.rules.state import State
from app.rules.tables import Lookups
from app.rules.types import Action, ActionIn, DealScore, Summary, SummaryIn
from app.rules.views import Views

#: The card of a trick's ``(seat, card)`` pair.
_CARD = itemgetter(1)


class TrickGame(Lookups, Views):
    """Base ruleset for a trick-taking game of 2, 3 or 4 players: two teams of two, or each
    player for himself (``sides``: the scoring sides; a "team" is then the seat).

    Class attributes a game sets: ``id``, ``name``, ``players``, ``table``,
    ``tricks_per_deal``, ``options_schema`` (list of ``{"name", "type",
    "default", "choices"?, "label", "nullable"?}``; a ``nullable`` option also
    accepts null, meaning "off"), ``four_ranks`` (declarable fours, empty
    when the game has no declarations), ``belote_ranks`` (the two ranks of the
    trump belote, or ``()``), ``belote_key`` (the flag name on ``play``) and
    ``summary_contract_keys`` (the contract fields of the deal summary, §8).
    """

    id = ""
    name = ""
    players = 4
    #: The scoring sides: two teams (4 players) or the seats themselves (2 or 3 players).
    #: ``team_of`` maps a seat to its side; ``scores``, ``tricks_won``, ``won`` and a deal's
    #: ``points`` have one entry per side.
    sides = 2
    table: CardTable
    tricks_per_deal = 8
    options_schema: list[dict[str, Any]] = []
    four_ranks: tuple[str, ...] = ()
    belote_ranks: tuple[str, ...] = ()
    belote_key = "belote"
    summary_contract_keys: tuple[str, ...] = ("trump", "taker_team", "round", "eldest_team")
    #: The deal's finished tricks may be looked at (the view's ``played``). The rules of the
    #: Belote family are silent, and every card played is in the public move log anyway;
    #: Botifarra keeps them face down except the last (its view shows only ``last_trick``).
    tricks_public = True
    #: The pack: ``"french"`` (7 to Ace of spades, hearts, diamonds, clubs) or ``"spanish"``
    #: (the Catalan pack of oros, copes, espases, bastos: rules/bolot.md §2, rules/botifarra.md §2).
    deck_family = "french"
    #: No bidding: the dealer (or the partner he delegates to) chooses trumps
    #: (rules/botifarra.md §4). False where an auction decides the contract.
    trump_chosen = False
    #: The shape of the deal summary (§8 of the rules file) that ``score_deal`` reads:
    #: ``"belote"`` (a taker team, last trick, declarations, belote flags), ``"belote_players"``
    #: (the same per player: rules/belote-3p.md §8), ``"bridge"``
    #: (a declarer's contract with its multiplier, belot counts, points hanging) or
    #: ``"botifarra"`` (a chooser team, doublings, tricks; no declarations).
    summary_kind = "belote"
    #: Only one pair scores a deal (rules/botifarra.md §7), so both cannot reach the target.
    one_side_scores = False
    #: The option that ends the match after a number of deals (a tournament's), or None.
    deal_limit_option: str | None = None
    #: The option that lets a player claim, ending the match at once (rules/belote.md §6), or None.
    claim_option: str | None = None
    #: Which of the bots' heuristic modules plays this game (app/bots/<bot_family>.py).
    bot_family = "belote_family"

    @property
    def has_declarations(self) -> bool:
        """True when the players declare runs and fours in the first trick (§5 of the rules)."""
        return bool(self.four_ranks)

    def turned_to_taker(self, options: dict[str, Any]) -> bool:
        """True when the taker adds the turned card to his hand, so everyone knows he holds
        it (rules/bolot.md §3, rules/belote.md §3 for four; rules/belote-3p.md §3 with 24
        cards); False where it stays on the table (Belote for two) or there is none."""
        return self.players == 4

    def summary_contract_fields(self, options: dict[str, Any]) -> tuple[str, ...]:
        """The contract fields a deal summary may carry under ``options`` (validated): the
        ``summary_contract_keys``, and any field an option adds (rules/<game>.md §8)."""
        return self.summary_contract_keys

    def ends_before_target(self, options: dict[str, Any]) -> bool:
        """True when, under ``options``, a match may end before a team reaches the target:
        after a fixed number of deals (``deal_limit_option``) or on a claim (``claim_option``)."""
        return any(bool(options.get(o)) for o in (self.deal_limit_option, self.claim_option) if o)

    def example_summary(self) -> dict[str, Any]:
        """A plausible deal summary (§8 of the rules file) to start a score-sheet form from:
        team 0 took the contract in the first suit of the pack and 100 card points."""
        trump = "o" if self.deck_family == "spanish" else "H"
        return {
            "contract": {"trump": trump, "taker_team": 0, "eldest_team": 0},
            "card_points": [100, 52],
            "tricks": [5, self.tricks_per_deal - 5],
            "last_trick_team": 0,
            "declarations": [[], []],
            "belote": [0, 0],
        }

    # ------------------------------------------------------------------ options
    @property
    def deck(self) -> list[str]:
        """All the card codes of this game's deck, in a fixed order (default options)."""
        return list(self.table.deck)

    def deck_for(self, options: dict[str, Any] | None) -> tuple[str, ...]:
        """The card codes dealt under ``options``, in a fixed order: the whole table's deck,
        unless an option removes cards (rules/belote-3p.md §2: 24 cards or 32)."""
        return self.table.deck

    def deal_tricks(self, options: dict[str, Any]) -> int:
        """The tricks of one deal under ``options`` (``tricks_per_deal`` unless an option
        changes the deal: rules/belote-3p.md §3, 8 or 9)."""
        return self.tricks_per_deal

    def validate_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """Options with defaults filled in.

        Raises:
            IllegalAction: an unknown option name or a value of the wrong type or range.
        """
        schema, defaults = self._schema()
        out = dict(defaults)
        for name, value in (options or {}).items():
            if name not in schema:
                raise IllegalAction("unknown_option", option=name, game=self.id)
            o = schema[name]
            if value is None and o.get("nullable"):
                pass
            elif o["type"] == "bool":
                if not isinstance(value, bool):
                    raise IllegalAction("option_bool", option=name)
            elif o["type"] == "int":
                if (
                    not isinstance(value, int)
                    or isinstance(value, bool)
                    or value < o.get("min", 1)
                    or value > o.get("max", 100000)
                ):
                    raise IllegalAction(
                        "option_int", option=name, lo=o.get("min", 1), hi=o.get("max", 100000)
                    )
            elif o["type"] == "choice":
                if value not in o["choices"]:
                    raise IllegalAction(
                        "option_choice", option=name, choices=", ".join(map(str, o["choices"]))
                    )
            out[name] = value
        return out

    def _schema(self) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
        """``(option name -> its schema entry, option name -> default)``, built once per
        ``options_schema`` list (every deal's scoring validates the options)."""
        found = self._memo.get(("schema",))
        if found is None or found[0] is not self.options_schema:
            by_name = {o["name"]: o for o in self.options_schema}
            defaults = {name: o["default"] for name, o in by_name.items()}
            found = self._memo[("schema",)] = (self.options_schema, by_name, defaults)
        return found[1], found[2]

    # ------------------------------------------------------------------ seats
    def team_of(self, seat: int) -> int:
        """Team of a seat: seats 0 and 2 are team 0 (in 2- and 3-player games, the seat itself)."""
        return seat % self.sides

    def next_seat(self, seat: int) -> int:
        """The seat that plays after ``seat``."""
        return (seat + 1) % self.players

    def eldest(self, state: State) -> int:
        """The eldest hand: the seat after the dealer."""
        return (state.dealer + 1) % self.players

    # ------------------------------------------------------------------ lifecycle
    def new_state(self, options: dict[str, Any] | None, dealer: int) -> State:
        """The state before the first deal. Raises IllegalAction for a bad option or dealer."""
        opts = self.validate_options(options)
        if not isinstance(dealer, int) or not 0 <= dealer < self.players:
            raise IllegalAction("dealer_range", last=self.players - 1)
        state = State(game=self.id, options=opts, players=self.players, dealer=dealer)
        if self.sides != 2:
            state.scores, state.won, state.tricks_won = self._per_side()
        return state

    def _per_side(self) -> tuple[list[int], list[list[str]], list[int]]:
        """Fresh ``(scores, won, tricks_won)``: one entry per side."""
        return [0] * self.sides, [[] for _ in range(self.sides)], [0] * self.sides

    def legal_actions(self, state: State) -> list[Action]:
        """Every action the player to act may take now ([] in phase deal/over).

        The ``play`` actions are shared dicts (``Lookups._plays``): read them,
        pass them to :meth:`apply`, copy one to change it; never change one in place.
        """
        phase = state.phase
        if phase == "play":  # the hot path first: bots play out thousands of deals
            seat = state.to_act
            assert seat is not None
            # declarations are owed in trick 1 only
            if not state.tricks and self.must_declare(state, seat):
                return [
                    {"type": "declare", "combinations": c}
                    for c in self._declare_choices(state, seat)
                ]
            return self.play_actions(state, seat)
        if phase == "auction":
            return self.auction_actions(state)
        return []

    def _declare_choices(self, state: State, seat: int) -> list[list[dict[str, Any]]]:
        """declare_choices for ``seat``'s hand, remembered on the state for the ``apply`` that follows."""
        hand = state.hands[seat]
        key = ("declare", seat, tuple(hand))
        memo = state.cache
        if memo is not None and memo[0] == key:
            remembered: list[list[dict[str, Any]]] = memo[1]
            return remembered
        choices = declare_choices(hand, self.table, self.four_ranks)
        state.cache = (key, choices)
        return choices

    def _legal_now(self, state: State, seat: int) -> list[str]:
        """The cards ``seat`` may play now, remembered on the state (keyed by what they depend on)."""
        hand, trick, contract = state.hands[seat], state.trick, state.contract
        memo = state.cache
        # the memo holds the very lists it was computed from, so their ids cannot be reused
        if (
            memo is not None
            and memo[0] == "play"
            and memo[1] is hand
            and memo[2] is trick
            and memo[3] is contract
            and memo[4] == seat
            and memo[5] == len(hand)
            and memo[6] == len(trick)
        ):
            remembered: list[str] = memo[7]
            return remembered
        if trick:
            cards = list(map(_CARD, trick))  # the card codes of the (seat, card) pairs
            legal = self.legal_play(state.options, contract, hand, cards)[0]
        else:  # a lead is free in every game of the family (rules/*.md §6)
            legal = list(hand)
        state.cache = ("play", hand, trick, contract, seat, len(hand), len(trick), legal)
        return legal

    def apply(self, state: State, action: ActionIn) -> State:
        """The state after ``action``; ``state`` is left untouched.

        Raises:
            IllegalAction: the action is not allowed now, with the reason.
        """
        if not isinstance(action, dict):
            raise IllegalAction("action_object")
        kind = action.get("type")
        phase = state.phase
        if phase == "play" and kind != "deal":  # the hot path first
            # the play replaces what it changes (see State.shallow), so the copy is shallow
            new = state.shallow()
            new.cache = state.cache
            seat = new.to_act
            assert seat is not None
            if kind == "play":
                # declarations are owed in trick 1 only
                if not new.tricks and self.must_declare(new, seat):
                    raise IllegalAction("declare_first")
                self.do_play(new, seat, action)
            elif kind == "declare":
                self.do_declare(new, seat, action)
            elif not isinstance(kind, str):  # {} or {"type": 5}: no call to name
                raise IllegalAction("action_object")
            else:
                raise IllegalAction("time_to_play", kind=kind)
        elif phase == "over":
            raise IllegalAction("match_over")
        elif phase == "deal":
            if kind != "deal":
                raise IllegalAction("not_dealt")
            new = state.clone()
            self.do_deal(new, action.get("deck"))
        elif kind == "deal":
            raise IllegalAction("already_dealt")
        else:
            new = state.clone()
            self.do_auction(new, action)
        new.seq = state.seq + 1
        new.cache = None
        return new

    # ------------------------------------------------------------------ deal
    def _is_whole_deck(self, deck: Any, options: dict[str, Any]) -> bool:
        whole = self._deck_set(options)
        if not isinstance(deck, list) or len(deck) != len(whole):
            return False
        try:
            return set(deck) == whole
        except TypeError:  # an unhashable item is no card
            return False

    def _deck_set(self, options: dict[str, Any]) -> frozenset[str]:
        cards = self.deck_for(options)
        found: frozenset[str] | None = self._memo.get(("deck", cards))
        if found is None:
            found = self._memo[("deck", cards)] = frozenset(cards)
        return found

    def do_deal(self, state: State, deck: Any) -> None:
        """Check that ``deck`` is a permutation of the deck and hand out the cards."""
        if not self._is_whole_deck(deck, state.options):
            raise IllegalAction("deck_once", n=len(self.deck_for(state.options)))
        state.deck = list(deck)
        state.deal_no += 1
        state.hands = [[] for _ in range(self.players)]
        state.auction, state.contract, state.declared, state.belote = [], None, [], []
        state.trick, state.tricks = [], []
        _, state.won, state.tricks_won = self._per_side()
        state.turned, state.stock, state.extra = None, [], {}
        self.deal_cards(state, list(deck))

    def deal_cards(self, state: State, deck: list[str]) -> None:  # pragma: no cover - abstract
        """Hand out ``deck`` (top card first) and open the auction. Game-specific."""
        raise NotImplementedError

    def close_auction(self, state: State) -> None:  # pragma: no cover - abstract
        """The bidding is over: fix the contract and begin the play. Game-specific."""
        raise NotImplementedError

    def pass_in_bidding(self, state: State, seat: int) -> None:
        """``seat`` passes in a bidding auction (rules/bridge-belote.md §4,
        rules/contree.md §4): every seat passing without a bid voids the deal; after a
        bid, the others' passes in a row (``players - 1``) close the auction; else the
        next seat speaks. ``state.extra`` keeps the standing ``bid`` and the ``passes``
        in a row (a bid or a double sets them back)."""
        state.auction.append({"seat": seat, "type": "pass"})
        ex = state.extra
        ex["passes"] += 1
        if ex["bid"] is None and ex["passes"] == self.players:
            self.void_deal(state)
        elif ex["bid"] is not None and ex["passes"] == self.players - 1:
            self.close_auction(state)
        else:
            state.to_act = self.next_seat(seat)

    def void_deal(self, state: State) -> None:
        """Nobody took: record a void deal and pass the deal to the next dealer."""
        state.sheet = state.sheet + [
            {
                "deal": state.deal_no,
                "dealer": state.dealer,
                "void": True,
                "contract": None,
                "points": [0] * self.sides,
                "outcome": None,
                "detail": None,
                "carried_out": state.carried,
                "scores_after": list(state.scores),
            }
        ]
        state.dealer = self.next_seat(state.dealer)
        state.phase, state.to_act = "deal", None

    # ------------------------------------------------------------------ auction (game hooks)
    def auction_actions(self, state: State) -> list[Action]:  # pragma: no cover - abstract
        raise NotImplementedError

    def do_auction(
        self, state: State, action: dict[str, Any]
    ) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    # ------------------------------------------------------------------ play
    def trump(self, contract: dict[str, Any] | None) -> str | None:
        """The trump suit of a contract (None: no trumps)."""
        return (contract or {}).get("trump")

    def begin_play(self, state: State, leader: int) -> None:
        """Hands are complete: remember them and let ``leader`` lead trick 1."""
        state.phase = "play"
        state.leader = state.to_act = leader
        state.initial_hands = [list(h) for h in state.hands]
        allowed = self.declarations_allowed(state.contract, state.options)
        state.declared = [None] * self.players if allowed else []
        trump = self.trump(state.contract)
        for hand in state.hands:
            hand.sort(key=lambda c: self.table.sort_key(c, trump))

    def declarations_allowed(
        self, contract: dict[str, Any] | None, options: dict[str, Any] | None = None
    ) -> bool:
        """True when the seats declare in trick 1 under ``contract`` and the match's
        ``options`` (by default: the game has declarations)."""
        return bool(self.four_ranks)

    def must_declare(self, state: State, seat: int) -> bool:
        """True while ``seat`` still owes its one ``declare`` action of trick 1."""
        return bool(state.declared) and not state.tricks and state.declared[seat] is None

    def do_declare(self, state: State, seat: int, action: ActionIn) -> None:
        """Record a seat's declaration (rules/bolot.md §5 "When")."""
        if not self.must_declare(state, seat):
            raise IllegalAction("declare_once")
        combos = action.get("combinations")
        if not isinstance(combos, list) or not all(isinstance(c, dict) for c in combos):
            raise IllegalAction("combinations_list")
        choices = self._declare_choices(state, seat)
        # the very list ``legal_actions`` offered (the usual case), else any order of one
        chosen = next((c for c in choices if c is combos), None)
        if chosen is None:
            allowed = {canonical(c): c for c in choices}
            key = canonical(combos)
            if key not in allowed:
                raise IllegalAction("declaration_not_held")
            chosen = allowed[key]
        declared = list(state.declared)
        declared[seat] = chosen
        state.declared = declared

    def belote_cards(self, contract: dict[str, Any] | None) -> tuple[str, ...]:
        """The two trump cards of the belote under ``contract`` (empty when none)."""
        trump = self.trump(contract)
        if not self.belote_ranks or trump is None or len(trump) != 1:
            return ()
        return tuple(r + trump for r in self.belote_ranks)

    def belote_partner(self, contract: dict[str, Any] | None, card: str) -> str | None:
        """The other card of the belote ``card`` belongs to under ``contract`` (None: none).

        One trump pair by default; a game with several belotes (All Trumps in
        rules/bridge-belote.md §5) overrides :meth:`belote_pairs`.
        """
        return self._pairs(self.trump(contract)).get(card)

    def belote_refusal(self, state: State, seat: int, card: str) -> str | None:
        """Why ``seat`` may not announce the belote with ``card`` now (None: he may).

        He may with the first of the two belote cards, the other still in his hand.
        """
        other = self.belote_partner(state.contract, card)
        if other is None or other not in state.hands[seat]:
            return Reason(
                "belote_first_card", key=self.belote_key, ranks=" and ".join(self.belote_ranks)
            )
        return None

    def can_announce_belote(self, state: State, seat: int, card: str) -> bool:
        """True when ``seat`` may announce the belote with ``card`` now."""
        return self.belote_refusal(state, seat, card) is None

    def play_actions(self, state: State, seat: int) -> list[Action]:
        """The ``play`` actions of ``seat``: each legal card, and its belote form where allowed."""
        cards = self._legal_now(state, seat)
        # the shared action dicts (Lookups._plays): no dict is built per card
        plain: list[Action] = list(map(self._plays.__getitem__, cards))  # type: ignore[arg-type]
        if not self.belote_ranks:
            return plain
        pairs = self._contract_pairs(state.contract)
        if pairs.keys().isdisjoint(cards):  # no belote card among them: the usual case
            return plain
        hand = state.hands[seat]
        out: list[Action] = []
        for c in cards:
            out.append(self._plays[c])  # type: ignore[arg-type]
            other = pairs.get(c)
            if other is not None and other in hand and self.can_announce_belote(state, seat, c):
                # belote_key is "belote" or "bolot" per game: both are Action keys
                out.append(self._belote_plays[c])  # type: ignore[arg-type]
        return out

    def do_play(self, state: State, seat: int, action: ActionIn) -> None:
        """Play a card: check it, add it to the trick, close the trick and the deal when due.

        ``state`` is a shallow copy (see :meth:`apply`): everything a card
        changes is replaced here, never mutated in place.
        """
        card = action.get("card")
        hand = state.hands[seat]
        if card not in self._legal_now(state, seat):
            if card not in hand:
                raise (
                    IllegalAction("card_not_held", card=card)
                    if isinstance(card, str)
                    else IllegalAction("name_a_card")
                )
            legal, reason = self.legal_play(
                state.options, state.contract, hand, [c for _, c in state.trick]
            )
            trump = self.trump(state.contract)
            best = max(legal, key=lambda c: self.card_power(c, suit_of(c), trump))
            raise IllegalAction(reason, held=best)
        if self.belote_ranks:
            flag = action.get(self.belote_key, False)
            if flag not in (True, False):
                raise IllegalAction("belote_flag", key=self.belote_key)
            if flag:
                refusal = self.belote_refusal(state, seat, card)
                if refusal:
                    raise IllegalAction(refusal)
                state.belote = state.belote + [{"seat": seat, "card": card, "rebelote": False}]
            elif state.belote:  # a rebelote follows an announced belote
                other = self.belote_partner(state.contract, card)
                if other is not None and any(
                    b["seat"] == seat and b["card"] == other and not b["rebelote"]
                    for b in state.belote
                ):
                    state.belote = state.belote + [{"seat": seat, "card": card, "rebelote": True}]
        hands = list(state.hands)
        rest = list(hand)
        rest.remove(card)  # a card is dealt once, so it is in the hand once
        hands[seat] = rest
        state.hands = hands
        trick = state.trick = state.trick + [(seat, card)]
        players = self.players
        if len(trick) < players:  # the usual card: the next seat plays (next_seat)
            state.to_act = (seat + 1) % players
        else:
            self.after_card(state)

    def after_card(self, state: State) -> None:
        """Pass the turn, or close the trick (and the deal) when everyone has played.

        Replaces (never mutates) ``tricks``, ``won`` and ``tricks_won``.
        """
        trick = state.trick
        players = self.players
        if len(trick) < players:
            state.to_act = (state.to_act + 1) % players  # type: ignore[operator] # next_seat
            return
        cards = list(map(_CARD, trick))
        winner = trick[self.winning_index(cards, state.contract)][0]  # trick_winner, inline
        team = self.team_of(winner)
        state.tricks = state.tricks + [
            {"leader": state.leader, "cards": list(trick), "winner": winner}
        ]
        won = list(state.won)
        won[team] = won[team] + cards
        state.won = won
        tricks_won = list(state.tricks_won)
        tricks_won[team] += 1
        state.tricks_won = tricks_won
        state.trick = []
        state.leader = state.to_act = winner
        if len(state.tricks) == self.deal_tricks(state.options):
            self.finish_deal(state)

    def card_power(self, card: str, led: str, trump: str | None) -> int:
        """How strong ``card`` is in a trick led in suit ``led``: 0 cannot win."""
        s = suit_of(card)
        if s == trump:
            return 100 + self.table.trump_power[rank_of(card)]
        if s == led:
            return self.table.plain_power[rank_of(card)]
        return 0

    def trick_winner(self, trick: list[tuple[int, str]], contract: dict[str, Any] | None) -> int:
        """The seat whose card wins ``trick``: the highest trump, else the highest of the led suit."""
        return trick[self.winning_index([c for _, c in trick], contract)][0]

    def winning_index(self, trick: list[str], contract: dict[str, Any] | None) -> int:
        """Index in ``trick`` (card codes in order) of the card now winning it (the first of
        the highest :meth:`card_power`)."""
        trump = self.trump(contract)
        strength = self._power.get(trump) or self.power_table(trump)
        return obligations.winning_index(trick, trump, strength)

    def legal_play(
        self,
        options: dict[str, Any],
        contract: dict[str, Any] | None,
        hand: list[str],
        trick: list[str],
    ) -> tuple[list[str], str]:  # pragma: no cover - abstract
        """``(legal cards, the rule's wording)`` for the player next on ``trick``."""
        raise NotImplementedError

    def legal_cards(
        self, options: dict[str, Any], contract: dict[str, Any], hand: list[str], trick: list[str]
    ) -> list[str]:
        """Which cards of ``hand`` may be played next on ``trick`` (see app.rules.legal_cards)."""
        opts = self.validate_options(options)
        if not isinstance(contract, dict):
            raise IllegalAction("contract_object")
        return self.legal_play(opts, contract, list(hand), list(trick))[0]

    # ------------------------------------------------------------------ deal end
    def deal_summary(self, state: State) -> Summary:
        """The deal summary (rules/<game>.md §8) of a finished deal."""
        points = self.points_table(self.trump(state.contract))
        last_winner = state.tricks[-1]["winner"]
        declarations: list[list[dict[str, Any]]] = [[], []]
        for seat, combos in enumerate(state.declared):
            declarations[self.team_of(seat)].extend(combos or [])
        belote = [0, 0]
        for b in state.belote:
            if not b["rebelote"]:
                belote[self.team_of(b["seat"])] = 1
        contract = dict(state.contract or {})
        contract["eldest_team"] = self.team_of(self.eldest(state))
        return {
            "contract": {k: v for k, v in contract.items() if k in self.summary_contract_keys},
            "card_points": [sum(points[c] for c in cards) for cards in state.won],
            "tricks": list(state.tricks_won),
            "last_trick_team": self.team_of(last_winner),
            "declarations": declarations,
            "belote": belote,
            "carried_in": state.carried,
            "revoke_team": None,
        }

    def finish_deal(self, state: State) -> None:
        """Score the deal, add it to the sheet, and end the match or pass the deal on."""
        summary = self.deal_summary(state)
        result = self.score_own_deal(state.options, summary)
        state.scores = [state.scores[i] + result["points"][i] for i in range(self.sides)]
        state.carried = result.get("carried_out", 0)
        state.sheet = state.sheet + [
            {
                "deal": state.deal_no,
                "dealer": state.dealer,
                "void": False,
                "contract": state.contract,
                "points": result["points"],
                "outcome": result["outcome"],
                "detail": result["detail"],
                "carried_out": state.carried,
                "summary": summary,
                "scores_after": list(state.scores),
                "hands": state.initial_hands,
                "declared": list(state.declared),
                "tricks": state.tricks,
            }
        ]
        state.winner = self.match_winner(state)
        state.to_act = None
        if self.match_over(state):
            state.phase = "over"
        else:
            state.phase = "deal"
            state.dealer = self.next_seat(state.dealer)

    def at_target(self, options: dict[str, Any], score: int) -> bool:
        """True when ``score`` is far enough to end a match to ``options["target"]``
        (validated options): at or over it (rules/bolot.md, belote.md §9). A game where
        the target must be passed overrides it (rules/contree.md §9, ``win_rule``)."""
        return bool(score >= options["target"])

    def match_winner(self, state: State) -> int | None:
        """rules/bolot.md §9: a team at or over the target with a higher score than the other wins."""
        a, b = state.scores
        if self.at_target(state.options, max(a, b)) and a != b:
            return 0 if a > b else 1
        return None

    def match_over(self, state: State) -> bool:
        """Hook: the match ends after this deal (a winner, or a game's own end such as a draw)."""
        return state.winner is not None

    def score_deal(
        self, options: dict[str, Any], summary: SummaryIn
    ) -> DealScore:  # pragma: no cover - abstract
        raise NotImplementedError

    def score_own_deal(self, options: dict[str, Any], summary: Summary) -> DealScore:
        """Score a deal the engine has just played, from its own ``deal_summary``: the
        same result as ``score_deal`` (tests/rules/test_own_deal_scoring.py checks it on
        random deals). A game may skip there the checks of its rules' §8 that its own
        play already guarantees (the deal's end is on the hot path of every simulated
        deal); a summary from outside (a score sheet) always goes through ``score_deal``.
        ``options`` are the match's own (``State.options``), validated by ``new_game``."""
        return self.score_deal(options, summary)
