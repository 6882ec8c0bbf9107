"""An exact double-dummy solver for the play of every game (issue 22, step 1).

Given a play-phase :class:`~app.rules.state.State` in which every hand is known (a
real engine state, or a drawn deal built by :func:`app.rules.sim.position`), it
finds the value of the rest of the deal under perfect play by both sides.

**The value.** For a scoring side ``side`` (a team, or a seat where each plays
for himself: ``TrickGame.team_of``), the points that side takes *from now to
the end of the deal*:

* the card points (``TrickGame.points_table`` under the contract's trump marker,
  rules/<game>.md §2) of every trick not yet finished that the side wins, the
  trick on the table included (its cards already played count for its winner);
* plus the last-trick bonus, the *dix de der* / *últimes*, 10 to the winner of
  the deal's last trick, in every game of the Belote family (rules/bolot.md,
  belote.md, belote-3p.md, bridge-belote.md, contree.md §7);
* in Botifarra, plus 1 a trick won (the trick point: rules/botifarra.md §7; a
  hand holds 72 = 60 card points + 12 tricks), and no last-trick bonus.

Not included, because they are fixed before the play or judged after it:
tricks already finished, declarations, the belote/rebelote (the solver assumes
it is always announced, as the strong bot does; it changes no card's value),
capot bonuses (100, 90, 250...), the No-Trumps doubling of Bridge-Belote, the
contract's judgement, multipliers, rounding and points carried from other
deals. Belote for two's claim ("I'm done", rules/belote.md §6) is not a card
and is left out.

With two sides (every game but Belote for three) the value is exact minimax:
the deal's card points are a constant sum. In Belote for three the other two
players are assumed to play together against ``side`` (the "paranoid"
reduction), which is exact for the question "how much can ``side`` guarantee".

**Declarations.** The solver starts anywhere in the play, trick 1 included,
except when the player to act still owes his declaration of trick 1 (his legal
actions are then ``declare`` actions, not cards): :class:`ValueError`. A
declaration later in trick 1 by another seat changes neither the legal cards nor
what they win, so it is skipped.

**Rules.** Nothing here guesses a rule: the order of the cards in each suit is
the engine's ``power_table`` and the points its ``points_table``; which cards may
be played is the engine's own procedure (``obligations.belote_follow``,
``belote_2p.follow_suit``, ``botifarra_play.botifarra_follow``) rewritten on
bitmasks, and tests/bots/test_solver.py checks it equal to the engine's
``legal_actions`` on many random positions of every game, and checks every
card's value against a plain minimax over ``legal_actions``/``apply``.

**Search.** Cards are bits (suit ``s``, place ``i`` from the weakest: bit
``s * K + i``), a hand is an int. Alpha-beta (fail-soft) on the side's points,
the players of ``side`` maximising and the others minimising, whoever's turn it
is; a transposition table at trick starts, keyed on every hand and the leader,
holding bounds on the future points (they do not depend on how the position
was reached) and the best lead; move ordering (the table's lead first, cheap
winners first, points onto the partner's trick); equal cards played once (cards
of one suit in one hand with no other live card between them and the same
points are the same move); the last trick is counted, not searched.

**Compiled.** The search runs compiled by numba (:mod:`app.bots.solver_jit`, the same
alpha-beta on int64 bitmasks, 10 to 14 times faster on whole deals) wherever numba
imports; this module's pure-Python search is the fallback (``TAPET_SOLVER=python``,
:func:`backend`), and tests/bots/test_solver.py holds both to the brute force and to
each other. Positions, values, the tables' sharing and the deadline are the same.

``python -m app.bots.solver --bench`` measures it (see :func:`bench`); ``--warm``
compiles it.
"""

from __future__ import annotations

import argparse
import os
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.rules import GAMES, State, apply, legal_actions, new_deck, new_game
from app.rules.botifarra_play import is_counting
from app.rules.cards import suit_of
from app.rules.core import TrickGame

#: The *dix de der* / *últimes* of the Belote family (rules/*.md §7).
LAST_TRICK_BONUS = 10
#: game id -> points a trick is worth by itself (rules/botifarra.md §7: 1 a trick).
TRICK_POINT = {"botifarra": 1}
#: Games with no last-trick bonus (rules/botifarra.md §7).
NO_LAST_TRICK_BONUS = frozenset({"botifarra"})

#: The procedures that say which cards may follow a trick (see :func:`_rules`).
BELOTE, FOLLOW, BOTIFARRA = 0, 1, 2

_INF = 1 << 30
#: Solve each first card by MTD(f) (null-window searches from a guess) rather than one
#: full-window search: measured 40-60 % fewer nodes from Botifarra's trick 4.
MTDF = True


@dataclass(slots=True)
class Rules:
    """One game's play under one contract, in compact form.

    ``cards``: card code by index; ``index``: card code -> index (``suit * per_suit +
    place``, place 0 the weakest in its suit under the contract: the engine's
    ``power_table``); ``points``: card points by index (the engine's
    ``points_table``); ``suit``: suit index by card index; ``suit_mask``: the bits of
    each suit; ``above``: by card index, the bits of the stronger cards of its suit;
    ``win_trump``: the suit index that beats every other suit (-1: none, as in No
    Trumps, All Trumps, botifarra); ``procedure``: BELOTE, FOLLOW or BOTIFARRA;
    ``duty_trump``: the suit BELOTE's obligations treat as trumps (-1 none, -2 the suit
    led: All Trumps); ``partner_free``: a void player whose partner is winning may play
    anything (4 players, rules/belote.md §6); ``undertrump``: unable to over-trump,
    one must still trump; ``eastern``, ``extended``: Botifarra's rule 3 and its option
    (rules/botifarra.md §6); ``counting``: bits of the counting cards; ``players``;
    ``trick_point``, ``last_bonus``: see the module's value.
    """

    game: str
    cards: tuple[str, ...]
    index: dict[str, int]
    points: tuple[int, ...]
    suit: tuple[int, ...]
    suit_mask: tuple[int, ...]
    above: tuple[int, ...]
    win_trump: int
    procedure: int
    duty_trump: int
    partner_free: bool
    undertrump: bool
    eastern: bool
    extended: bool
    counting: int
    players: int
    trick_point: int
    last_bonus: int
    #: ``follow(hand, led suit, winning card, its place, cards on the table)``: the bits of
    #: ``hand`` that may be played on a trick of at least one card (:func:`_legal_fn`).
    follow: Callable[[int, int, int, int, int], int] = field(init=False, compare=False)
    #: The same tables in the compiled search's context array (``solver_jit.context``),
    #: made at its first use.
    compiled: Any = field(default=None, init=False, compare=False)

    def mask(self, cards: list[str]) -> int:
        """The bits of ``cards`` (codes). Raises KeyError for a card not of this deck."""
        m = 0
        for c in cards:
            m |= 1 << self.index[c]
        return m

    def codes(self, mask: int) -> list[str]:
        """The card codes of ``mask``, weakest first in each suit."""
        out = []
        while mask:
            b = mask & -mask
            out.append(self.cards[b.bit_length() - 1])
            mask ^= b
        return out

    def beats(self, card: int, winning: int) -> bool:
        """True when ``card`` beats the card ``winning`` now winning a trick (§6 of every
        rules file: the highest trump, else the highest card of the suit led)."""
        s, t = self.suit[card], self.suit[winning]
        return card > winning if s == t else s == self.win_trump

    def legal(self, hand: int, trick: list[int], win_pos: int) -> int:
        """The bits of ``hand`` that may follow ``trick`` (card indices in playing order),
        whose card at ``win_pos`` is now winning (ignored when empty)."""
        if not trick:
            return hand
        return self.follow(hand, self.suit[trick[0]], trick[win_pos], win_pos, len(trick))


_RULES: dict[tuple[str, Any, tuple[Any, ...]], Rules] = {}


def rules_for(game: str, options: dict[str, Any], contract: dict[str, Any] | None) -> Rules:
    """The compact :class:`Rules` of ``game`` (an id of ``GAMES``) under validated
    ``options`` and ``contract`` (as in ``State.contract``), built once and remembered.

    The procedure per game: rules/bolot.md, belote.md (4p), contree.md §6 and
    bridge-belote.md §6 (suit, All Trumps, No Trumps) are Belote's; belote-3p.md §6 is
    Belote's without the partner's exception; belote.md §6 2p is follow suit only;
    botifarra.md §6 is Botifarra's (western, or eastern with its option).

    Raises:
        ValueError: a game the solver does not know.
    """
    g = GAMES.get(game)
    if g is None or game not in _PROCEDURES:
        raise ValueError(f"the solver does not know the game {game!r}")
    trump = g.trump(contract)
    key = (
        game,
        trump,
        tuple(options.get(o) for o in ("must_undertrump", "variant", "eastern_extended_exception")),
    )
    found = _RULES.get(key)
    if found is None:
        found = _RULES[key] = _build(g, options, trump)
    return found


#: game id -> (procedure, the partner's exception, forced under-trumping: True, False, or
#: None for the option ``must_undertrump``, on unless given).
_PROCEDURES: dict[str, tuple[int, bool, bool | None]] = {
    "bolot": (BELOTE, True, True),
    "belote": (BELOTE, True, None),
    "contree": (BELOTE, True, None),
    "bridge-belote": (BELOTE, True, False),
    "belote-3p": (BELOTE, False, None),
    "belote-2p": (FOLLOW, False, False),
    "botifarra": (BOTIFARRA, True, False),
}


def _build(g: TrickGame, options: dict[str, Any], trump: str | None) -> Rules:
    table = g.table
    suits = table.suits
    per_suit = len(table.ranks)
    power = g.power_table(trump)
    pts = g.points_table(trump)
    cards: list[str] = []
    for s in suits:
        cards += sorted((c for c in table.deck if suit_of(c) == s), key=power.__getitem__)
    index = {c: i for i, c in enumerate(cards)}
    suit = tuple(i // per_suit for i in range(len(cards)))
    suit_mask = tuple(((1 << per_suit) - 1) << (k * per_suit) for k in range(len(suits)))
    above = tuple(suit_mask[suit[i]] & ~((2 << i) - 1) for i in range(len(cards)))
    procedure, partner_free, under = _PROCEDURES[g.id]
    trump_index = suits.index(trump) if trump in suits else -1
    if g.id == "bridge-belote" and trump not in suits and trump is not None:
        duty = -2  # All Trumps: the suit led is trumps (rules/bridge-belote.md §6)
    else:
        duty = trump_index
    counting = 0
    if procedure == BOTIFARRA:
        for i, c in enumerate(cards):
            if is_counting(c):
                counting |= 1 << i
    rules = Rules(
        game=g.id,
        cards=tuple(cards),
        index=index,
        points=tuple(pts[c] for c in cards),
        suit=suit,
        suit_mask=suit_mask,
        above=above,
        win_trump=trump_index,
        procedure=procedure,
        duty_trump=duty,
        partner_free=partner_free and g.players == 4,
        undertrump=bool(options.get("must_undertrump", True)) if under is None else under,
        eastern=options.get("variant") == "eastern",
        extended=bool(options.get("eastern_extended_exception")),
        counting=counting,
        players=g.players,
        trick_point=TRICK_POINT.get(g.id, 0),
        last_bonus=0 if g.id in NO_LAST_TRICK_BONUS else LAST_TRICK_BONUS,
    )
    rules.follow = _legal_fn(rules)
    return rules


@dataclass(slots=True)
class Position:
    """A play-phase position in compact form: ``hands`` one bitmask per seat, ``trick``
    the card indices on the table in playing order, ``leader`` the seat that led it,
    ``rules`` the game's :class:`Rules`, ``tricks_left`` the number of tricks left,
    the one in play included."""

    rules: Rules
    hands: list[int]
    trick: list[int]
    leader: int
    tricks_left: int

    @property
    def to_act(self) -> int:
        """The seat to play now."""
        return (self.leader + len(self.trick)) % self.rules.players

    def win_pos(self) -> int:
        """Index in ``trick`` of the card now winning it (0 when empty)."""
        w = 0
        for i in range(1, len(self.trick)):
            if self.rules.beats(self.trick[i], self.trick[w]):
                w = i
        return w

    def legal(self) -> int:
        """The bits of the cards the player to act may play."""
        return self.rules.legal(self.hands[self.to_act], self.trick, self.win_pos())

    def live(self) -> int:
        """The bits of every card still in play: in a hand or on the table."""
        out = 0
        for h in self.hands:
            out |= h
        for c in self.trick:
            out |= 1 << c
        return out


def position(state: State) -> Position:
    """The compact form of ``state``.

    Raises:
        ValueError: not the play phase, nobody to act, an unknown game, or the player
            to act still owes his declaration of trick 1.
    """
    if state.phase != "play" or state.to_act is None:
        raise ValueError("the solver needs a position of the play phase")
    g = GAMES.get(state.game)
    if g is None:
        raise ValueError(f"unknown game {state.game!r}")
    if not state.tricks and g.must_declare(state, state.to_act):
        raise ValueError("the player to act must declare first (trick 1): no card to solve")
    r = rules_for(state.game, state.options, state.contract)
    hands = [r.mask(h) for h in state.hands]
    trick = [r.index[c] for _, c in state.trick]
    leader = state.trick[0][0] if state.trick else state.to_act
    left = g.deal_tricks(state.options) - len(state.tricks)
    return Position(r, hands, trick, leader, left)


class OutOfTime(Exception):
    """A solve given a ``deadline`` (:func:`solve_cards`) passed it before it ended."""


#: The environment variable that chooses the search: ``python`` forces the pure-Python
#: one; anything else (or nothing) takes the compiled one where numba imports.
SOLVER_ENV = "TAPET_SOLVER"
_jit_module: Any = None
_jit_tried = False


def backend() -> str:
    """``"compiled"`` (numba: :mod:`app.bots.solver_jit`) or ``"python"``, the search the
    solves of this process use: compiled unless ``TAPET_SOLVER=python`` or numba does not
    import. Both give the same values (tests/bots/test_solver.py)."""
    global _jit_module, _jit_tried
    if os.environ.get(SOLVER_ENV, "").strip().lower() == "python":
        return "python"
    if not _jit_tried:
        _jit_tried = True
        try:
            from app.bots import solver_jit
        except ImportError:  # pragma: no cover - numba is a dependency
            solver_jit = None  # type: ignore[assignment]
        _jit_module = solver_jit
    return "python" if _jit_module is None else "compiled"


class Table:
    """A transposition table that several solves of positions of *one* deal may share (the
    same hands dealt, contract and side: :func:`solve_cards`). ``entries`` serves the
    pure-Python search (key: the leader and every hand), ``compiled`` the compiled one
    (``solver_jit.new_table``'s arrays, made at its first use; key: the cards still held
    and the leader, which say the position within one deal). Each maps a trick start to (lower
    bound, upper bound, best lead or -1) on the side's points from there on.

    ``tricks``: the most tricks left of the positions it will serve, which sizes the
    compiled store (``solver_jit.table_bits``); default: the first solve's (right when
    the first is the largest, as down a line of play; a deal solved from its end back
    passes the deal's tricks)."""

    __slots__ = ("entries", "compiled", "tricks")

    def __init__(self, tricks: int | None = None) -> None:
        self.entries: dict[int, tuple[int, int, int]] = {}
        self.compiled: Any = None
        self.tricks = tricks


class _Search:
    """One alpha-beta search for one side: its transposition table outlives single
    calls, so the values of several first cards share it. ``deadline``: a
    ``time.thread_time()`` past which the search raises :class:`OutOfTime` (checked
    every 256 trick starts; the table keeps only bounds that were proved)."""

    def __init__(
        self,
        pos: Position,
        maxer: tuple[bool, ...],
        tt: Table | None = None,
        deadline: float | None = None,
    ) -> None:
        self.pos = pos
        self.maxer = maxer
        self.table = Table() if tt is None else tt
        self.nodes = 0
        self.deadline = deadline
        r = pos.rules
        if backend() == "compiled":
            self.start, self.in_trick = _compiled_searcher(r, pos.hands, maxer, self.table, self)
        else:
            self.start, self.in_trick = _searcher(r, pos.hands, maxer, self.table.entries, self)

    def guess(self) -> int:
        """A first guess of the value: half of what is left."""
        return self.remaining() // 2

    def remaining(self) -> int:
        """The most points still to take (cards in hands and on the table, bonuses)."""
        r = self.pos.rules
        total = sum(r.points[c] for c in self.pos.trick)
        for h in self.pos.hands:
            while h:
                b = h & -h
                total += r.points[b.bit_length() - 1]
                h ^= b
        return total + r.last_bonus + r.trick_point * self.pos.tricks_left

    def value_after(self, card: int, guess: int | None = None) -> int:
        """The exact value once the player to act plays ``card``: MTD(f), null-window
        searches closing in on it from ``guess`` (the transposition table keeps the bounds
        each one proves); one full-window search when ``guess`` is None."""
        if guess is None or not MTDF:
            return self.bounded(card, -_INF, _INF)
        lo, hi = -_INF, _INF
        g = guess
        while lo < hi:
            beta = g + 1 if g == lo else g
            g = self.bounded(card, beta - 1, beta)
            if g < beta:
                hi = g
            else:
                lo = g
        return g

    def bounded(self, card: int, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta once the player to act plays ``card``: the value when it is
        strictly inside ``(alpha, beta)``, else a bound on it beyond the window."""
        pos = self.pos
        r = pos.rules
        seat = pos.to_act
        trick = pos.trick
        wp = pos.win_pos()
        n = len(trick)
        if n == 0:
            led, w, wi = r.suit[card], card, 0
        else:
            led, w, wi = r.suit[trick[0]], trick[wp], wp
        tp = sum(r.points[c] for c in trick)
        tmask = 0
        for c in trick:
            tmask |= 1 << c
        rem = self.remaining()
        return self.in_trick(seat, n, led, w, wi, tp, tmask, rem, alpha, beta, card)


def _searcher(
    r: Rules,
    hands: list[int],
    maxer: tuple[bool, ...],
    tt: dict[int, tuple[int, int, int]],
    stats: _Search,
) -> tuple[Callable[..., int], Callable[..., int]]:
    """The two mutually recursive functions of the search, closed over the tables."""
    players = r.players
    points = r.points
    suit = r.suit
    win_trump = r.win_trump
    trick_point = r.trick_point
    last_bonus = r.last_bonus
    legal_fn = r.follow
    width = len(r.cards)
    per_suit = width // len(r.suit_mask)
    seats = range(players)

    def start(leader: int, rem: int, alpha: int, beta: int) -> int:
        """The side's points from a trick start on; ``rem`` the most still to take."""
        h = hands[leader]
        if not h:
            return 0
        if rem <= alpha:
            return rem
        if beta <= 0:
            return 0
        if not h & (h - 1):  # the last trick: every card is forced
            w = h.bit_length() - 1
            wi = 0
            gain = points[w]
            for k in range(1, players):
                c = hands[(leader + k) % players].bit_length() - 1
                gain += points[c]
                s = suit[c]
                if (c > w) if s == suit[w] else (s == win_trump):
                    w, wi = c, k
            return gain + last_bonus + trick_point if maxer[(leader + wi) % players] else 0
        key = leader
        for s in seats:
            key = (key << width) | hands[s]
        entry = tt.get(key)
        best_lead = -1
        if entry is not None:
            lo, hi, best_lead = entry
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        else:
            lo, hi = 0, rem
        stats.nodes += 1
        if stats.deadline is not None and not stats.nodes & 255:
            if time.thread_time() > stats.deadline:
                raise OutOfTime
        # the leads, equal cards once, the table's best first, then strong cards first
        live = 0
        for s in seats:
            live |= hands[s]
        moves = _reps(h, live, points, suit)
        moves.sort(key=lambda c: -(c % per_suit))
        if best_lead >= 0 and best_lead in moves:
            moves.remove(best_lead)
            moves.insert(0, best_lead)
        is_max = maxer[leader]
        best = -_INF if is_max else _INF
        a, b = alpha, beta
        bcard = moves[0]
        nxt = (leader + 1) % players
        for c in moves:
            bit = 1 << c
            hands[leader] = h ^ bit
            v = in_trick(nxt, 1, suit[c], c, 0, points[c], bit, rem, a, b, -1)
            hands[leader] = h
            if is_max:
                if v > best:
                    best, bcard = v, c
                    if v > a:
                        a = v
                        if a >= b:
                            break
            elif v < best:
                best, bcard = v, c
                if v < b:
                    b = v
                    if a >= b:
                        break
        if best <= alpha:
            hi = min(hi, best)
        elif best >= beta:
            lo = max(lo, best)
        else:
            lo = hi = best
        tt[key] = (lo, hi, bcard)
        return best

    def in_trick(
        seat: int,
        n: int,
        led: int,
        w: int,
        wi: int,
        tp: int,
        tmask: int,
        rem: int,
        alpha: int,
        beta: int,
        only: int,
    ) -> int:
        """The side's points from a trick in play on: ``seat`` plays its ``n``-th card
        (from 0) of a trick led in ``led``, ``w`` winning at place ``wi``, ``tp`` points
        and ``tmask`` cards on the table; ``only`` >= 0: that card is played."""
        h = hands[seat]
        leader = (seat - n) % players
        if only >= 0:
            moves = [only]
        else:
            legal = legal_fn(h, led, w, wi, n)
            if not legal & (legal - 1):  # one card: nothing to choose
                moves = [legal.bit_length() - 1]
            else:
                live = tmask
                for s in seats:
                    live |= hands[s]
                moves = _reps(legal, live, points, suit)
            if len(moves) > 1:
                # cheap winners first against the other side; onto one's own side's
                # trick, the counting cards first
                mine = maxer[(leader + wi) % players] == maxer[seat]
                ws = suit[w]

                def order(c: int) -> tuple[int, int]:
                    s = suit[c]
                    wins = (c > w) if s == ws else (s == win_trump)
                    if mine:
                        return (1, c) if wins else (0, -points[c])
                    return (
                        (0, c % per_suit + (per_suit if s == win_trump else 0))
                        if wins
                        else (
                            1,
                            points[c] * 64 + c % per_suit,
                        )
                    )

                moves.sort(key=order)
        is_max = maxer[seat]
        best = -_INF if is_max else _INF
        last = n + 1 == players
        for c in moves:
            bit = 1 << c
            s = suit[c]
            if n == 0:
                nw, nwi = c, 0
                nled = s
            else:
                nled = led
                if (c > w) if s == suit[w] else (s == win_trump):
                    nw, nwi = c, n
                else:
                    nw, nwi = w, wi
            hands[seat] = h ^ bit
            if last:
                winner = (leader + nwi) % players
                gain = tp + points[c] + trick_point
                nrem = rem - gain
                if not hands[seat]:
                    gain += last_bonus
                    nrem -= last_bonus
                if maxer[winner]:
                    v = gain + start(winner, nrem, alpha - gain, beta - gain)
                else:
                    v = start(winner, nrem, alpha, beta)
            else:
                v = in_trick(
                    (seat + 1) % players,
                    n + 1,
                    nled,
                    nw,
                    nwi,
                    tp + points[c],
                    tmask | bit,
                    rem,
                    alpha,
                    beta,
                    -1,
                )
            hands[seat] = h
            if is_max:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            elif v < best:
                best = v
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        return best

    return start, in_trick


def _compiled_searcher(
    r: Rules, hands: list[int], maxer: tuple[bool, ...], table: Table, stats: _Search
) -> tuple[Callable[..., int], Callable[..., int]]:
    """:func:`_searcher`'s two functions, calling the compiled search
    (:func:`app.bots.solver_jit.node`) on ``hands`` as they are at each call."""
    jit = _jit_module
    if r.compiled is None:
        r.compiled = jit.context(r)
    if table.compiled is None:
        tricks = stats.pos.tricks_left if table.tricks is None else table.tricks
        table.compiled = jit.new_table(jit.table_bits(tricks))
    tt = table.compiled
    work = jit.scratch()
    ctx = jit.start_context(r.compiled, hands, maxer)
    at = slice(jit.HANDS, jit.HANDS + len(hands))
    deadline = 0.0 if stats.deadline is None else stats.deadline

    def in_trick(*trick: int) -> int:
        """:func:`_searcher`'s ``in_trick``, the same arguments (seat ... only)."""
        ctx[at] = hands
        v = jit.node(ctx, tt, work, deadline, 0, *trick)
        stats.nodes = int(ctx[jit.NODES])
        if ctx[jit.ABORTED]:
            raise OutOfTime
        return int(v)

    def start(leader: int, rem: int, alpha: int, beta: int) -> int:
        return in_trick(leader, 0, 0, 0, 0, 0, 0, rem, alpha, beta, -1)

    return start, in_trick


def _legal_fn(r: Rules) -> Callable[[int, int, int, int, int], int]:
    """``legal(hand, led, winning card, its place, cards on the table)``: the bits of
    ``hand`` that may follow (as :meth:`Rules.legal`, without the trick's list)."""
    suit = r.suit
    suit_mask = r.suit_mask
    above = r.above
    win_trump = r.win_trump
    if r.procedure == BELOTE:
        duty_trump = r.duty_trump
        partner_free = r.partner_free
        undertrump = r.undertrump

        def belote(hand: int, led: int, w: int, wi: int, n: int) -> int:
            if n == 0:
                return hand
            follow = hand & suit_mask[led]
            duty = led if duty_trump == -2 else duty_trump
            if led == duty:
                if not follow:
                    return hand
                return (follow & above[w]) or follow
            if follow:
                return follow
            trumps = hand & suit_mask[duty] if duty >= 0 else 0
            if not trumps:
                return hand
            if partner_free and wi == n - 2:
                return hand
            if suit[w] != duty:
                return trumps
            higher = trumps & above[w]
            if higher:
                return higher
            return trumps if undertrump else hand

        return belote
    if r.procedure == FOLLOW:

        def follow_suit(hand: int, led: int, w: int, wi: int, n: int) -> int:
            if n == 0:
                return hand
            return (hand & suit_mask[led]) or hand

        return follow_suit
    eastern, extended, counting = r.eastern, r.extended, r.counting

    def botifarra(hand: int, led: int, w: int, wi: int, n: int) -> int:
        if n == 0:
            return hand
        follow = hand & suit_mask[led]
        pool = follow or hand
        partner = wi == n - 2
        if not partner:
            beat = above[w]
            if win_trump >= 0 and suit[w] != win_trump:
                beat |= suit_mask[win_trump]
            if pool & beat:
                return pool & beat
        if not eastern:
            return pool
        low = 0
        for sm in suit_mask:
            x = pool & sm
            low |= x & -x
        if partner:
            return pool & (low | counting)
        second = n == 1 and (not follow or extended)
        return pool & (low | (counting if second else 0))

    return botifarra


def _reps(moves: int, live: int, points: tuple[int, ...], suit: tuple[int, ...]) -> list[int]:
    """One card of each set of equal moves in ``moves`` (bits), weakest first: cards of
    one suit with the same points and no ``live`` card (held or on the table) between
    them win and lose against the same cards and count the same, so the value after
    either is the same (the positions are the same up to renaming them)."""
    out: list[int] = []
    prev = -1
    while moves:
        b = moves & -moves
        c = b.bit_length() - 1
        moves ^= b
        if (
            prev >= 0
            and suit[c] == suit[prev]
            and points[c] == points[prev]
            and not live & (b - (2 << prev))
        ):
            prev = c  # the same move as the last one kept
            continue
        out.append(c)
        prev = c
    return out


def _groups(
    moves: int, live: int, points: tuple[int, ...], suit: tuple[int, ...]
) -> list[list[int]]:
    """The sets of equal moves of :func:`_reps`, each weakest first (a set runs from its
    representative up to the next one, in bit order)."""
    reps = set(_reps(moves, live, points, suit))
    out: list[list[int]] = []
    while moves:
        b = moves & -moves
        c = b.bit_length() - 1
        moves ^= b
        if c in reps:
            out.append([c])
        else:
            out[-1].append(c)
    return out


def _side_and_search(
    state: State, side: int | None, tt: Table | None = None, deadline: float | None = None
) -> tuple[Position, _Search]:
    pos = position(state)
    g = GAMES[state.game]
    if side is None:
        side = g.team_of(pos.to_act)
    if not (isinstance(side, int) and 0 <= side < g.sides):
        raise ValueError(f"no side {side!r} in {state.game}")
    maxer = tuple(g.team_of(s) == side for s in range(g.players))
    return pos, _Search(pos, maxer, tt, deadline)


def solve_cards(
    state: State, side: int | None = None, tt: Table | None = None, deadline: float | None = None
) -> dict[str, int]:
    """card code -> the exact value (see the module) for ``side`` once the player to act
    plays it, for each card he may play (the engine's legal cards; belote-2p's claim and
    the belote flag aside). ``side``: a scoring side (``TrickGame.team_of``); default
    the player to act's own. ``tt``: a transposition table to read and fill (a dict,
    empty at first), shared by several solves of positions of *one* deal (the same hands
    dealt, contract and ``side``; any seat to act): its entries are bounds on the side's
    points from a trick start on, true however the position was reached, so a later
    solve of the same deal (the next card of a line) finds most of its work done.
    ``deadline``: a ``time.thread_time()`` (this thread's CPU clock) not to pass.

    Raises:
        ValueError: not a play position with a card to play (see :func:`position`), or no
            such side.
        OutOfTime: ``deadline`` passed (what was proved stays in ``tt``).
    """
    pos, search = _side_and_search(state, side, tt, deadline)
    r = pos.rules
    live = pos.live()
    out: dict[str, int] = {}
    guess = None
    for group in _groups(pos.legal(), live, r.points, r.suit):
        v = guess = search.value_after(group[0], guess if guess is not None else search.guess())
        for c in group:
            out[r.cards[c]] = v
    return out


def card_of_value(
    state: State, value: int, side: int, tt: Table | None = None, first: str | None = None
) -> str | None:
    """A card the player to act may play whose exact value for ``side`` is ``value``,
    given the value of ``state`` itself (:func:`solve`): a card of perfect play. Each
    try asks only whether a card reaches ``value`` for its player (at least it, for a
    player of ``side``; at most it, for another), one null-window search; ``first`` (a
    card code) is tried first, then the others, so this costs far less than
    :func:`solve_cards` when ``first`` is right. ``tt``: as in :func:`solve_cards`. None
    when no card reaches ``value`` (it was better for the player than the position's).

    Raises:
        ValueError: as :func:`solve_cards`.
    """
    pos, search = _side_and_search(state, side, tt)
    r = pos.rules
    legal = pos.legal()
    live = pos.live()
    order = _reps(legal, live, r.points, r.suit)
    if first is not None and r.index.get(first, -1) >= 0 and legal >> r.index[first] & 1:
        f = r.index[first]
        order = [f] + [c for c in order if c != f]
    if search.maxer[pos.to_act]:
        for c in order:
            if search.bounded(c, value - 1, value) >= value:
                return r.cards[c]
    else:
        for c in order:
            if search.bounded(c, value, value + 1) <= value:
                return r.cards[c]
    return None


def trick_value(state: State, side: int) -> int:
    """What the last finished trick of ``state`` brought ``side`` in the solver's value
    (see the module): its card points, Botifarra's trick point and, the deal's last
    trick, the last-trick bonus, when one of ``side``'s players won it; else 0."""
    g = GAMES[state.game]
    t = state.tricks[-1]
    if g.team_of(t["winner"]) != side:
        return 0
    r = rules_for(state.game, state.options, state.contract)
    last = len(state.tricks) == g.deal_tricks(state.options)
    return (
        sum(r.points[r.index[c]] for _, c in t["cards"])
        + r.trick_point
        + (r.last_bonus if last else 0)
    )


def solve(state: State, side: int | None = None) -> int:
    """The exact value (see the module) of ``state`` for ``side`` under perfect play by
    every seat: the best of :func:`solve_cards` for ``side``'s player to act, the worst
    for another side's. ``side`` defaults to the player to act's.

    Raises:
        ValueError: as :func:`solve_cards`.
    """
    pos, search = _side_and_search(state, side)
    r = pos.rules
    seat = pos.to_act
    if not pos.trick:
        rem = search.remaining()
        return search.start(seat, rem, -_INF, _INF)
    live = 0
    for h in pos.hands:
        live |= h
    values = [
        search.value_after(c, search.guess()) for c in _reps(pos.legal(), live, r.points, r.suit)
    ]
    return max(values) if search.maxer[seat] else min(values)


# ---------------------------------------------------------------------- benchmark


def random_position(
    game: str, trick_number: int, rng: random.Random, options: dict[str, Any] | None = None
) -> State:
    """A position at the start of trick ``trick_number`` (1 is the first) of a deal
    dealt and played at random with the engine (auction included; a void deal is dealt
    again). Raises ValueError when ``trick_number`` is not a trick of the deal."""
    g = GAMES[game]
    for _ in range(1000):
        state = new_game(game, options, dealer=rng.randrange(g.players))
        tricks = g.deal_tricks(state.options)
        if not 1 <= trick_number <= tricks:
            raise ValueError(f"{game} has {tricks} tricks a deal")
        state = apply(state, {"type": "deal", "deck": new_deck(game, rng, state.options)})
        while state.phase in ("auction", "play"):
            if state.phase == "play" and len(state.tricks) == trick_number - 1 and not state.trick:
                if not (not state.tricks and g.must_declare(state, state.to_act or 0)):
                    return state
            actions = [a for a in legal_actions(state) if a["type"] != "claim"]
            state = apply(state, rng.choice(actions))
    raise ValueError("no position found")  # pragma: no cover - 1000 void deals


def bench(games: list[str], tricks: list[int], deals: int, seed: int = 1) -> list[dict[str, Any]]:
    """Time :func:`solve_cards` on ``deals`` random positions (:func:`random_position`)
    of each game at the start of each trick number in ``tricks``. Returns one row a game
    and trick: ``{"game", "trick", "tricks_left", "deals", "mean_s", "max_s",
    "mean_nodes"}`` (CPU time of this process, so that other processes disturb it less;
    nodes: trick starts searched)."""
    rows = []
    for game in games:
        for t in tricks:
            rng = random.Random(f"{seed}-{game}-{t}")
            times, nodes = [], []
            left = 0
            for _ in range(deals):
                state = random_position(game, t, rng)
                left = GAMES[game].deal_tricks(state.options) - t + 1
                t0 = time.process_time()
                pos, search = _side_and_search(state, None)
                live = 0
                for h in pos.hands:
                    live |= h
                r = pos.rules
                g = search.guess()
                for c in _reps(pos.legal(), live, r.points, r.suit):
                    g = search.value_after(c, g)
                times.append(time.process_time() - t0)
                nodes.append(search.nodes)
            rows.append(
                {
                    "game": game,
                    "trick": t,
                    "tricks_left": left,
                    "deals": deals,
                    "mean_s": sum(times) / len(times),
                    "max_s": max(times),
                    "mean_nodes": sum(nodes) / len(nodes),
                }
            )
    return rows


def warm() -> tuple[str, float]:
    """Compile the compiled search, or load it from numba's cache, by solving one small
    position: ``(backend, seconds)``. The first solve of a process pays this otherwise
    (about 5 s to compile on a new install, 1.3 s to load, import included)."""
    t0 = time.perf_counter()
    solve(random_position("belote", 7, random.Random(0)))
    return backend(), time.perf_counter() - t0


_warming: threading.Thread | None = None


def warm_in_background() -> None:
    """Start :func:`warm` in a daemon thread, once a process (the server's start calls
    it): the first bot move or hint that solves then finds the search ready instead of
    waiting for it (measured: a bot's first exact decision took 1.2 s, the cache's
    load). A failure there is left to the first real solve to raise."""
    global _warming
    if _warming is None:
        _warming = threading.Thread(target=warm_quietly, name="solver-warm", daemon=True)
        _warming.start()


def join_warming(timeout: float = 30.0) -> None:
    """Wait up to ``timeout`` s for :func:`warm_in_background`'s thread (the server's end:
    a process does not exit in the middle of numba's compiling)."""
    if _warming is not None:
        _warming.join(timeout)


def warm_quietly() -> None:
    """:func:`warm`, a failure left to the first real solve to raise (a worker process's
    initializer, a warming thread)."""
    try:
        warm()
    except Exception:  # noqa: BLE001 - the first real solve raises it where it is seen
        pass


def main(argv: list[str] | None = None) -> int:
    """``python -m app.bots.solver --bench [--game G ...] [--tricks 5 4 3 2] [--deals N]``:
    print the time of a full solve (every first card's value) per game and trick, with
    the search ``TAPET_SOLVER`` chooses (:func:`backend`). ``--warm``: compile it (the
    Dockerfile calls :func:`warm`, so that its cache ships in the image)."""
    p = argparse.ArgumentParser(prog="python -m app.bots.solver")
    p.add_argument("--bench", action="store_true", help="time solves on random positions")
    p.add_argument("--warm", action="store_true", help="compile the compiled search once")
    p.add_argument("--game", action="append", help="a game id (again for more)")
    p.add_argument("--tricks", type=int, nargs="+", default=[5, 4, 3, 2])
    p.add_argument("--deals", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    if args.warm:
        name, seconds = warm()
        print(f"{name} search ready in {seconds:.1f} s")
        return 0
    if not args.bench:
        p.print_help()
        return 0
    games = args.game or ["belote", "bolot", "botifarra"]
    print(f"search: {backend()}")
    print(
        f"{'game':<14}{'trick':>6}{'left':>6}{'deals':>6}{'mean s':>10}{'max s':>10}{'nodes':>10}"
    )
    for row in bench(games, args.tricks, args.deals, args.seed):
        print(
            f"{row['game']:<14}{row['trick']:>6}{row['tricks_left']:>6}{row['deals']:>6}"
            f"{row['mean_s']:>10.3f}{row['max_s']:>10.3f}{row['mean_nodes']:>10.0f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
