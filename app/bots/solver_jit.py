"""The double-dummy search of :mod:`app.bots.solver`, compiled with numba (issue 22, step 1).

The same alpha-beta as ``solver._searcher`` (fail-soft, the side's future points, a
transposition table at trick starts, the same move ordering and equal-card
reduction, the last trick counted rather than searched) and the same legal cards
(``solver._legal_fn``: rules/<game>.md §6 of every game), written for numba's
``nopython`` mode on 64-bit integers: a hand is an ``int64`` bitmask (at most 48
cards: Botifarra's deck), the rules are a few arrays (:func:`arrays`), the table two
arrays (:func:`new_table`), the search one recursive function (:func:`node`) that
releases the interpreter's lock. ``solver`` chooses this search when numba imports
(``solver.backend``) and keeps its own pure-Python search as the fallback;
tests/bots/test_solver.py checks both give the same value to every card.

**The table's key.** The solver's tables serve the positions of *one* deal (the same
hands dealt: ``solver.Table``), in which every card has one owner, so the cards still
held (their union) and the leader say the whole position: ``live << 2 | leader``,
50 bits at most.

**Time.** A search given a deadline reads this thread's CPU clock
(``clock_gettime(CLOCK_THREAD_CPUTIME_ID)``, the clock of ``time.thread_time()``,
called by name from compiled code) every 1,024 trick starts, and past it
stops, marks ``stats[ABORTED]`` and stores nothing more; the caller raises
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


#: ``cfg`` slots (:func:`arrays`).
PLAYERS, WIN_TRUMP, PROCEDURE, DUTY_TRUMP, PARTNER_FREE, UNDERTRUMP = 0, 1, 2, 3, 4, 5
EASTERN, EXTENDED, COUNTING, TRICK_POINT, LAST_BONUS, PER_SUIT, SUITS = 6, 7, 8, 9, 10, 11, 12
#: ``stats`` slots: trick starts searched, 1 once past the deadline.
NODES, ABORTED = 0, 1
#: Scratch rows (cards played from the root, at most 48, plus one) and columns (moves).
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


def new_table(bits: int = TABLE_BITS) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """An empty table: ``(keys, entries)`` arrays of ``2**bits`` slots; key 0 is an empty
    slot, an entry packs (lower bound, upper bound, best lead + 1) in 16 bits each. Open
    addressing with ``PROBES`` probes, then the home slot is replaced: a lost entry costs
    time, never a wrong value (it only held bounds)."""
    size = 1 << bits
    return np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64)


@njit(cache=True, nogil=True)
def _slot(keys: Any, key: int) -> int:  # pragma: no cover - compiled
    """The slot holding ``key``, else the slot to write it in."""
    mask = len(keys) - 1
    home = ((key * _MIX) >> 24) & mask
    for k in range(PROBES):
        i = (home + k) & mask
        if keys[i] == key or keys[i] == 0:
            return i
    return home


def arrays(
    r: Any,
) -> tuple[
    np.ndarray[Any, Any],
    np.ndarray[Any, Any],
    np.ndarray[Any, Any],
    np.ndarray[Any, Any],
    np.ndarray[Any, Any],
]:
    """``(cfg, points, suit, suit_mask, above)`` of a ``solver.Rules``, as ``int64``
    arrays (``cfg`` by the slots above)."""
    cfg = np.array(
        [
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
        ],
        dtype=np.int64,
    )
    return (
        cfg,
        np.array(r.points, dtype=np.int64),
        np.array(r.suit, dtype=np.int64),
        np.array(r.suit_mask, dtype=np.int64),
        np.array(r.above, dtype=np.int64),
    )


def scratch() -> tuple[
    np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]
]:
    """``(moves, keys, stats, clock)``: the work arrays one search needs."""
    return (
        np.zeros((DEPTH, WIDTH), dtype=np.int64),
        np.zeros((DEPTH, WIDTH), dtype=np.int64),
        np.zeros(2, dtype=np.int64),
        np.zeros(2, dtype=np.int64),
    )


@njit(cache=True, nogil=True)
def _now(clock: Any) -> float:  # pragma: no cover - compiled
    _clock_gettime(_THREAD_CPU, _address(clock))  # type: ignore[call-arg, call-overload]
    return clock[0] + clock[1] * 1e-9


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
def _legal(
    cfg: Any, suit: Any, suit_mask: Any, above: Any, hand: int, led: int, w: int, wi: int, n: int
) -> int:  # pragma: no cover - compiled
    """``solver._legal_fn``'s three procedures on the same bitmasks."""
    if n == 0:
        return hand
    procedure = cfg[PROCEDURE]
    follow = hand & suit_mask[led]
    if procedure == 1:  # FOLLOW: belote for two
        return follow if follow else hand
    win_trump = cfg[WIN_TRUMP]
    if procedure == 0:  # BELOTE
        duty = cfg[DUTY_TRUMP]
        if duty == -2:
            duty = led
        if led == duty:
            if follow == 0:
                return hand
            higher = follow & above[w]
            return higher if higher else follow
        if follow:
            return follow
        trumps = hand & suit_mask[duty] if duty >= 0 else 0
        if trumps == 0:
            return hand
        if cfg[PARTNER_FREE] and wi == n - 2:
            return hand
        if suit[w] != duty:
            return trumps
        higher = trumps & above[w]
        if higher:
            return higher
        return trumps if cfg[UNDERTRUMP] else hand
    # BOTIFARRA
    pool = follow if follow else hand
    partner = wi == n - 2
    if not partner:
        beat = above[w]
        if win_trump >= 0 and suit[w] != win_trump:
            beat |= suit_mask[win_trump]
        if pool & beat:
            return pool & beat
    if not cfg[EASTERN]:
        return pool
    low = 0
    for k in range(cfg[SUITS]):
        x = pool & suit_mask[k]
        low |= x & -x
    if partner:
        return pool & (low | cfg[COUNTING])
    second = n == 1 and (follow == 0 or cfg[EXTENDED] != 0)
    return pool & (low | (cfg[COUNTING] if second else 0))


@njit(cache=True, nogil=True)
def _reps(
    moves: int, live: int, points: Any, suit: Any, out: Any, row: int
) -> int:  # pragma: no cover
    """``solver._reps`` into ``out[row]``; returns how many."""
    k = 0
    prev = -1
    while moves:
        b = moves & -moves
        c = _ctz(b)
        moves ^= b
        if (
            prev >= 0
            and suit[c] == suit[prev]
            and points[c] == points[prev]
            and live & (b - (2 << prev)) == 0
        ):
            prev = c
            continue
        out[row, k] = c
        k += 1
        prev = c
    return k


@njit(cache=True, nogil=True)
def _sort(moves: Any, keys: Any, row: int, m: int) -> None:  # pragma: no cover - compiled
    """Sort ``moves[row, :m]`` by ``keys[row, :m]``, stably (insertion sort: m <= 12)."""
    for i in range(1, m):
        c = moves[row, i]
        k = keys[row, i]
        j = i - 1
        while j >= 0 and keys[row, j] > k:
            moves[row, j + 1] = moves[row, j]
            keys[row, j + 1] = keys[row, j]
            j -= 1
        moves[row, j + 1] = c
        keys[row, j + 1] = k


_A = types.int64[::1]
_M = types.int64[:, ::1]
_I = types.int64
#: ``node``'s signature, given so that it is compiled once for these types: a recursive
#: function's cached code crashes when a call site's types differ (numba/numba#6713).
_NODE = _I(
    _A, _A, _A, _A, _A, _A, _A, _A, _A, _A, _A, types.float64, _M, _M,
    _I, _I, _I, _I, _I, _I, _I, _I, _I, _I, _I, _I,
)  # fmt: skip


@njit(_NODE, cache=True, nogil=True)
def node(
    cfg: Any,
    points: Any,
    suit: Any,
    suit_mask: Any,
    above: Any,
    hands: Any,
    maxer: Any,
    tt_keys: Any,
    tt_entries: Any,
    stats: Any,
    clock: Any,
    deadline: float,
    moves: Any,
    keys: Any,
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
    table (``solver``'s ``in_trick``); ``only >= 0``: that card is played. ``hands``
    (one bitmask a seat) is changed and restored; ``rem``: the most points still to
    take."""
    players = cfg[PLAYERS]
    win_trump = cfg[WIN_TRUMP]
    per_suit = cfg[PER_SUIT]
    h = hands[seat]
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
            gain = points[lw]
            for k in range(1, players):
                c = _ctz(hands[(seat + k) % players])
                gain += points[c]
                s = suit[c]
                if (c > lw) if s == suit[lw] else (s == win_trump):
                    lw = c
                    lwi = k
            if maxer[(seat + lwi) % players]:
                return gain + cfg[LAST_BONUS] + cfg[TRICK_POINT]
            return 0
        live = 0
        for s in range(players):
            live |= hands[s]
        key = (live << 2) | seat
        best_lead = -1
        slot = _slot(tt_keys, key)
        if tt_keys[slot] == key:
            packed = tt_entries[slot]
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
        stats[NODES] += 1
        if stats[NODES] & 1023 == 0 and deadline > 0.0:
            if _now(clock) > deadline:
                stats[ABORTED] = 1
                return 0
        m = _reps(h, live, points, suit, moves, depth)
        for i in range(m):
            c = moves[depth, i]
            keys[depth, i] = -1000 if c == best_lead else -(c % per_suit)
        _sort(moves, keys, depth, m)
        is_max = maxer[seat]
        best = -_INF if is_max else _INF
        a = alpha
        b = beta
        bcard = moves[depth, 0]
        nxt = (seat + 1) % players
        for i in range(m):
            c = moves[depth, i]
            bit = 1 << c
            hands[seat] = h ^ bit
            v = node(
                cfg, points, suit, suit_mask, above, hands, maxer, tt_keys, tt_entries, stats, clock, deadline,
                moves, keys, depth + 1,
                nxt, one, suit[c], c, zero, points[c], bit, rem, a, b, none,
            )  # fmt: skip
            hands[seat] = h
            if stats[ABORTED]:
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
        slot = _slot(tt_keys, key)  # the search below may have filled the first one
        tt_keys[slot] = key
        tt_entries[slot] = lo | (hi << 16) | ((bcard + 1) << 32)
        return best

    leader = (seat - n + players) % players
    if only >= 0:
        m = 1
        moves[depth, 0] = only
    else:
        legal = _legal(cfg, suit, suit_mask, above, h, led, w, wi, n)
        if legal & (legal - 1) == 0:
            m = 1
            moves[depth, 0] = _ctz(legal)
        else:
            live = tmask
            for s in range(players):
                live |= hands[s]
            m = _reps(legal, live, points, suit, moves, depth)
        if m > 1:
            # cheap winners first against the other side; onto one's own side's trick,
            # the counting cards first
            mine = maxer[(leader + wi) % players] == maxer[seat]
            ws = suit[w]
            for i in range(m):
                c = moves[depth, i]
                s = suit[c]
                wins = (c > w) if s == ws else (s == win_trump)
                if mine:
                    keys[depth, i] = 1_000_000 + c if wins else -points[c]
                elif wins:
                    keys[depth, i] = c % per_suit + (per_suit if s == win_trump else 0)
                else:
                    keys[depth, i] = 1_000_000 + points[c] * 64 + c % per_suit
            _sort(moves, keys, depth, m)
    is_max = maxer[seat]
    best = -_INF if is_max else _INF
    last = n + 1 == players
    for i in range(m):
        c = moves[depth, i]
        bit = 1 << c
        s = suit[c]
        if n == 0:
            nw = c
            nwi = 0
            nled = s
        else:
            nled = led
            if (c > w) if s == suit[w] else (s == win_trump):
                nw = c
                nwi = n
            else:
                nw = w
                nwi = wi
        hands[seat] = h ^ bit
        if last:
            winner = (leader + nwi) % players
            gain = tp + points[c] + cfg[TRICK_POINT]
            nrem = rem - gain
            if hands[seat] == 0:
                gain += cfg[LAST_BONUS]
                nrem -= cfg[LAST_BONUS]
            if maxer[winner]:
                v = gain + node(
                    cfg, points, suit, suit_mask, above, hands, maxer, tt_keys, tt_entries, stats, clock,
                    deadline, moves, keys, depth + 1,
                    winner, zero, zero, zero, zero, zero, zero, nrem, alpha - gain, beta - gain, none,
                )  # fmt: skip
            else:
                v = node(
                    cfg, points, suit, suit_mask, above, hands, maxer, tt_keys, tt_entries, stats, clock,
                    deadline, moves, keys, depth + 1,
                    winner, zero, zero, zero, zero, zero, zero, nrem, alpha, beta, none,
                )  # fmt: skip
        else:
            v = node(
                cfg, points, suit, suit_mask, above, hands, maxer, tt_keys, tt_entries, stats, clock, deadline,
                moves, keys, depth + 1,
                (seat + 1) % players, n + 1, nled, nw, nwi, tp + points[c], tmask | bit, rem,
                alpha, beta, none,
            )  # fmt: skip
        hands[seat] = h
        if stats[ABORTED]:
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
