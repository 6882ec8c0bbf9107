"""The double-dummy search of :mod:`app.bots.solver`, compiled with numba (issue 22, step 1).

The same alpha-beta as ``solver._searcher`` (fail-soft, the side's future points, a
transposition table at trick starts, the same move ordering and equal-card
reduction, the last trick counted rather than searched) and the same legal cards
(``solver._legal_fn``: rules/<game>.md §6 of every game), written for numba's
``nopython`` mode on 64-bit integers: a hand is an ``int64`` bitmask (at most 48
cards: Botifarra's deck); the rules, the hands and the counters are one array (the
search's context, :func:`context`), the table another (:func:`new_table`), the moves
of each depth a third (:func:`scratch`), and the search is one recursive function
(:func:`node`) that releases the interpreter's lock. ``solver`` chooses this search
when numba imports (``solver.backend``) and keeps its own pure-Python search as the
fallback; tests/bots/test_solver.py checks both give the same value to every card.

**The table's key.** The solver's tables serve the positions of *one* deal (the same
hands dealt: ``solver.Table``), in which every card has one owner, so the cards still
held (their union) and the leader say the whole position: ``live << 2 | leader``,
50 bits at most.

**Time.** A search given a deadline reads this thread's CPU clock
(``clock_gettime(CLOCK_THREAD_CPUTIME_ID)``, the clock of ``time.thread_time()``,
called by name from compiled code) every 1,024 trick starts, and past it
stops, marks the context's ``ABORTED`` and stores nothing more; the caller raises
``solver.OutOfTime``.

Compiled code is cached on disk beside this module (numba's ``cache=True``): the first
run of a new install compiles it in about 5 s, later processes load it (1.3 s).

Raises ImportError on import where numba is missing, or where the thread clock is not
reachable (not Linux or macOS).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

if sys.platform.startswith("linux"):
    _THREAD_CPU = 3  # CLOCK_THREAD_CPUTIME_ID
elif sys.platform == "darwin":
    _THREAD_CPU = 16
else:  # pragma: no cover - no such machine here
    raise ImportError("no thread CPU clock to stop a compiled search at its deadline")
#: libc's ``int clock_gettime(clockid_t, struct timespec *)``, bound by name when the code is
#: linked (so that the compiled code can be cached on disk, unlike a ctypes pointer).
_clock_gettime = types.ExternalFunction("clock_gettime", types.int32(types.int32, types.voidptr))


@intrinsic
def _address(typingctx: Any, arr: Any) -> Any:  # pragma: no cover - compiled
    """The address of an array's data, as a ``void *``."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        ary = context.make_array(arr)(context, builder, args[0])
        return builder.bitcast(ary.data, cgutils.voidptr_t)

    return types.voidptr(arr), codegen


#: The search's context (:func:`context`): one ``int64`` array holding the thread clock's
#: reading, the counters, the rules and the hands, at these offsets, so that a recursive
#: call passes one array rather than a dozen (each array is seven machine words a call).
CLOCK, NODES, ABORTED = 0, 2, 3  # a ``struct timespec`` (2 words); trick starts; 1 once late
_CFG = 4
PLAYERS, WIN_TRUMP, PROCEDURE, DUTY_TRUMP, PARTNER_FREE, UNDERTRUMP = range(_CFG, _CFG + 6)
EASTERN, EXTENDED, COUNTING, TRICK_POINT, LAST_BONUS, PER_SUIT, SUITS = range(_CFG + 6, _CFG + 13)
HANDS, MAXER, SUIT_MASK = 17, 21, 25  # 4 slots each: a seat's cards, 1 for the side, a suit
POINTS, SUIT, ABOVE = 32, 80, 128  # 48 slots each: a card's points, its suit, cards above it
CONTEXT = 176
#: Scratch rows (cards played from the root, at most 48, plus one); a row holds the moves
#: in its first ``WIDTH`` columns and their sort keys in the next ``WIDTH``.
DEPTH, WIDTH = 64, 48

_INF = 1 << 30


#: log2 of a table's slots at most: 2**19 slots of two int64 (8 MiB). A full Belote deal
#: from its first card searches about 10**5 trick starts.
TABLE_BITS = 19


def table_bits(tricks_left: int) -> int:
    """The table size (log2 of its slots) for a solve from ``tricks_left`` tricks: 2 bits
    a trick from 8 at 3 tricks, at most ``TABLE_BITS`` (a table much larger than the
    search costs its pages' first touches: 6 ms on a 3-trick ending at 2**19)."""
    return min(TABLE_BITS, max(8, 2 * tricks_left + 2))


#: Slots looked at from a key's home slot before the home slot is overwritten.
PROBES = 4
_MIX = -7046029254386353131  # 0x9E3779B97F4A7C15 (Fibonacci hashing), as an int64


def new_table(bits: int = TABLE_BITS) -> np.ndarray[Any, Any]:
    """An empty table of ``2**bits`` slots, each two ``int64`` side by side: the key (0: an
    empty slot) and an entry packing (lower bound, upper bound, best lead + 1) in 16 bits
    each. Open addressing with ``PROBES`` probes, then the home slot is replaced: a lost
    entry costs time, never a wrong value (it only held bounds)."""
    return np.zeros(2 << bits, dtype=np.int64)


@njit(cache=True, nogil=True)
def _slot(tt: Any, key: int) -> int:  # pragma: no cover - compiled
    """The slot holding ``key``, else the slot to write it in (its key is at ``2 * slot``)."""
    mask = (len(tt) >> 1) - 1
    home = ((key * _MIX) >> 24) & mask
    for k in range(PROBES):
        i = (home + k) & mask
        if tt[2 * i] == key or tt[2 * i] == 0:
            return i
    return home


def context(r: Any) -> np.ndarray[Any, Any]:
    """The context of a ``solver.Rules`` (:data:`CONTEXT` slots; hands, side and counters
    zero): a search takes a copy and fills them (:func:`start_context`)."""
    ctx = np.zeros(CONTEXT, dtype=np.int64)
    ctx[_CFG : _CFG + 13] = [
        r.players,
        r.win_trump,
        r.procedure,
        r.duty_trump,
        int(r.partner_free),
        int(r.undertrump),
        int(r.eastern),
        int(r.extended),
        r.counting,
        r.trick_point,
        r.last_bonus,
        len(r.cards) // len(r.suit_mask),
        len(r.suit_mask),
    ]
    width = len(r.cards)
    ctx[SUIT_MASK : SUIT_MASK + len(r.suit_mask)] = r.suit_mask
    ctx[POINTS : POINTS + width] = r.points
    ctx[SUIT : SUIT + width] = r.suit
    ctx[ABOVE : ABOVE + width] = r.above
    return ctx


def start_context(
    rules_ctx: np.ndarray[Any, Any], hands: list[int], maxer: tuple[bool, ...]
) -> np.ndarray[Any, Any]:
    """A copy of ``rules_ctx`` (:func:`context`) with ``hands`` and the side's seats."""
    ctx = rules_ctx.copy()
    ctx[HANDS : HANDS + len(hands)] = hands
    ctx[MAXER : MAXER + len(maxer)] = maxer
    return ctx


def scratch() -> np.ndarray[Any, Any]:
    """The work rows one search needs (moves and their sort keys, a row a depth)."""
    return np.zeros((DEPTH, 2 * WIDTH), dtype=np.int64)


@njit(cache=True, nogil=True)
def _now(ctx: Any) -> float:  # pragma: no cover - compiled
    _clock_gettime(_THREAD_CPU, _address(ctx))  # type: ignore[call-arg, call-overload]
    return ctx[CLOCK] + ctx[CLOCK + 1] * 1e-9


@intrinsic
def _cttz(typingctx: Any, b: Any) -> Any:  # pragma: no cover - compiled
    """LLVM's ``cttz`` (count trailing zeros) of an int64: one machine instruction."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.int64(types.int64), codegen


@njit(cache=True, nogil=True)
def _ctz(b: int) -> int:  # pragma: no cover - compiled
    """The index of the lowest set bit of ``b`` (> 0)."""
    return _cttz(b)  # type: ignore[call-arg]


@njit(cache=True, nogil=True)
def _legal(ctx: Any, hand: int, led: int, w: int, wi: int, n: int) -> int:  # pragma: no cover
    """``solver._legal_fn``'s three procedures on the same bitmasks."""
    if n == 0:
        return hand
    procedure = ctx[PROCEDURE]
    follow = hand & ctx[SUIT_MASK + led]
    if procedure == 1:  # FOLLOW: belote for two
        return follow if follow else hand
    win_trump = ctx[WIN_TRUMP]
    if procedure == 0:  # BELOTE
        duty = ctx[DUTY_TRUMP]
        if duty == -2:
            duty = led
        if led == duty:
            if follow == 0:
                return hand
            higher = follow & ctx[ABOVE + w]
            return higher if higher else follow
        if follow:
            return follow
        trumps = hand & ctx[SUIT_MASK + duty] if duty >= 0 else 0
        if trumps == 0:
            return hand
        if ctx[PARTNER_FREE] and wi == n - 2:
            return hand
        if ctx[SUIT + w] != duty:
            return trumps
        higher = trumps & ctx[ABOVE + w]
        if higher:
            return higher
        return trumps if ctx[UNDERTRUMP] else hand
    # BOTIFARRA
    pool = follow if follow else hand
    partner = wi == n - 2
    if not partner:
        beat = ctx[ABOVE + w]
        if win_trump >= 0 and ctx[SUIT + w] != win_trump:
            beat |= ctx[SUIT_MASK + win_trump]
        if pool & beat:
            return pool & beat
    if not ctx[EASTERN]:
        return pool
    low = 0
    for k in range(ctx[SUITS]):
        x = pool & ctx[SUIT_MASK + k]
        low |= x & -x
    if partner:
        return pool & (low | ctx[COUNTING])
    second = n == 1 and (follow == 0 or ctx[EXTENDED] != 0)
    return pool & (low | (ctx[COUNTING] if second else 0))


@njit(cache=True, nogil=True)
def _reps(moves: int, live: int, ctx: Any, work: Any, row: int) -> int:  # pragma: no cover
    """``solver._reps`` into ``work[row]``; returns how many."""
    k = 0
    prev = -1
    while moves:
        b = moves & -moves
        c = _ctz(b)
        moves ^= b
        if (
            prev >= 0
            and ctx[SUIT + c] == ctx[SUIT + prev]
            and ctx[POINTS + c] == ctx[POINTS + prev]
            and live & (b - (2 << prev)) == 0
        ):
            prev = c
            continue
        work[row, k] = c
        k += 1
        prev = c
    return k


@njit(cache=True, nogil=True)
def _sort(work: Any, row: int, m: int) -> None:  # pragma: no cover - compiled
    """Sort the moves ``work[row, :m]`` by their keys ``work[row, WIDTH:WIDTH + m]``,
    stably (insertion sort: m <= 12)."""
    for i in range(1, m):
        c = work[row, i]
        k = work[row, WIDTH + i]
        j = i - 1
        while j >= 0 and work[row, WIDTH + j] > k:
            work[row, j + 1] = work[row, j]
            work[row, WIDTH + j + 1] = work[row, WIDTH + j]
            j -= 1
        work[row, j + 1] = c
        work[row, WIDTH + j + 1] = k


_A = types.int64[::1]
_M = types.int64[:, ::1]
_I = types.int64
#: ``node``'s signature, given so that it is compiled once for these types: a recursive
#: function's cached code crashes when a call site's types differ (numba/numba#6713).
_NODE = _I(_A, _A, _M, types.float64, _I, _I, _I, _I, _I, _I, _I, _I, _I, _I, _I, _I)


@njit(_NODE, cache=True, nogil=True)
def node(
    ctx: Any,
    tt: Any,
    work: Any,
    deadline: float,
    depth: int,
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
) -> int:  # pragma: no cover - compiled
    """The side's points from here on (fail-soft within ``(alpha, beta)``).

    With ``n == 0`` and ``only < 0``: a trick start, ``seat`` to lead (``solver``'s
    ``start``); else ``seat`` plays the ``n``-th card (from 0) of a trick led in
    ``led``, ``w`` winning at place ``wi``, ``tp`` points and ``tmask`` cards on the
    table (``solver``'s ``in_trick``); ``only >= 0``: that card is played. The hands in
    ``ctx`` (:func:`context`) are changed and restored; ``rem``: the most points still to
    take; ``tt``: :func:`new_table`; ``work``: :func:`scratch`."""
    players = ctx[PLAYERS]
    win_trump = ctx[WIN_TRUMP]
    per_suit = ctx[PER_SUIT]
    h = ctx[HANDS + seat]
    # the recursive calls pass variables, never literals: a literal's own type there
    # would name another, never compiled, version of this function (numba/numba#6713)
    zero = depth - depth
    one = zero + 1
    none = zero - 1
    if n == 0 and only < 0:
        if h == 0:
            return 0
        if rem <= alpha:
            return rem
        if beta <= 0:
            return 0
        if h & (h - 1) == 0:  # the last trick: every card is forced
            lw = _ctz(h)
            lwi = 0
            gain = ctx[POINTS + lw]
            for k in range(1, players):
                c = _ctz(ctx[HANDS + (seat + k) % players])
                gain += ctx[POINTS + c]
                s = ctx[SUIT + c]
                if (c > lw) if s == ctx[SUIT + lw] else (s == win_trump):
                    lw = c
                    lwi = k
            if ctx[MAXER + (seat + lwi) % players]:
                return gain + ctx[LAST_BONUS] + ctx[TRICK_POINT]
            return 0
        live = 0
        for s in range(players):
            live |= ctx[HANDS + s]
        key = (live << 2) | seat
        best_lead = -1
        slot = _slot(tt, key)
        if tt[2 * slot] == key:
            packed = tt[2 * slot + 1]
            lo = packed & 0xFFFF
            hi = (packed >> 16) & 0xFFFF
            best_lead = (packed >> 32) - 1
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
            lo = 0
            hi = rem
        ctx[NODES] += 1
        if ctx[NODES] & 1023 == 0 and deadline > 0.0:
            if _now(ctx) > deadline:
                ctx[ABORTED] = 1
                return 0
        m = _reps(h, live, ctx, work, depth)
        for i in range(m):
            c = work[depth, i]
            work[depth, WIDTH + i] = -1000 if c == best_lead else -(c % per_suit)
        _sort(work, depth, m)
        is_max = ctx[MAXER + seat]
        best = -_INF if is_max else _INF
        a = alpha
        b = beta
        bcard = work[depth, 0]
        nxt = (seat + 1) % players
        for i in range(m):
            c = work[depth, i]
            bit = 1 << c
            ctx[HANDS + seat] = h ^ bit
            v = node(
                ctx, tt, work, deadline, depth + 1,
                nxt, one, ctx[SUIT + c], c, zero, ctx[POINTS + c], bit, rem, a, b, none,
            )  # fmt: skip
            ctx[HANDS + seat] = h
            if ctx[ABORTED]:
                return 0
            if is_max:
                if v > best:
                    best = v
                    bcard = c
                    if v > a:
                        a = v
                        if a >= b:
                            break
            elif v < best:
                best = v
                bcard = c
                if v < b:
                    b = v
                    if a >= b:
                        break
        if best <= alpha:
            hi = min(hi, best)
        elif best >= beta:
            lo = max(lo, best)
        else:
            lo = best
            hi = best
        slot = _slot(tt, key)  # the search below may have filled the first one
        tt[2 * slot] = key
        tt[2 * slot + 1] = lo | (hi << 16) | ((bcard + 1) << 32)
        return best

    leader = (seat - n + players) % players
    if only >= 0:
        m = 1
        work[depth, 0] = only
    else:
        legal = _legal(ctx, h, led, w, wi, n)
        if legal & (legal - 1) == 0:
            m = 1
            work[depth, 0] = _ctz(legal)
        else:
            live = tmask
            for s in range(players):
                live |= ctx[HANDS + s]
            m = _reps(legal, live, ctx, work, depth)
        if m > 1:
            # cheap winners first against the other side; onto one's own side's trick,
            # the counting cards first
            mine = ctx[MAXER + (leader + wi) % players] == ctx[MAXER + seat]
            ws = ctx[SUIT + w]
            for i in range(m):
                c = work[depth, i]
                s = ctx[SUIT + c]
                wins = (c > w) if s == ws else (s == win_trump)
                if mine:
                    order = 1_000_000 + c if wins else -ctx[POINTS + c]
                elif wins:
                    order = c % per_suit + (per_suit if s == win_trump else 0)
                else:
                    order = 1_000_000 + ctx[POINTS + c] * 64 + c % per_suit
                work[depth, WIDTH + i] = order
            _sort(work, depth, m)
    is_max = ctx[MAXER + seat]
    best = -_INF if is_max else _INF
    last = n + 1 == players
    for i in range(m):
        c = work[depth, i]
        bit = 1 << c
        s = ctx[SUIT + c]
        if n == 0:
            nw = c
            nwi = 0
            nled = s
        else:
            nled = led
            if (c > w) if s == ctx[SUIT + w] else (s == win_trump):
                nw = c
                nwi = n
            else:
                nw = w
                nwi = wi
        ctx[HANDS + seat] = h ^ bit
        if last:
            winner = (leader + nwi) % players
            gain = tp + ctx[POINTS + c] + ctx[TRICK_POINT]
            nrem = rem - gain
            if ctx[HANDS + seat] == 0:
                gain += ctx[LAST_BONUS]
                nrem -= ctx[LAST_BONUS]
            if ctx[MAXER + winner]:
                v = gain + node(
                    ctx, tt, work, deadline, depth + 1,
                    winner, zero, zero, zero, zero, zero, zero, nrem, alpha - gain, beta - gain, none,
                )  # fmt: skip
            else:
                v = node(
                    ctx, tt, work, deadline, depth + 1,
                    winner, zero, zero, zero, zero, zero, zero, nrem, alpha, beta, none,
                )  # fmt: skip
        else:
            v = node(
                ctx, tt, work, deadline, depth + 1,
                (seat + 1) % players, n + 1, nled, nw, nwi, tp + ctx[POINTS + c], tmask | bit, rem,
                alpha, beta, none,
            )  # fmt: skip
        ctx[HANDS + seat] = h
        if ctx[ABORTED]:
            return 0
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
