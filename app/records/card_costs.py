"""What each card of a finished deal cost, by the exact solver (issue 22 §5; what
colver.net calls a "DD pass").

For every card played, the position just before it is solved double dummy, every hand
known (:func:`app.bots.solver.solve_cards`: the exact value of each legal card for the
player's side under perfect play by every seat after it, in card points, the
last-trick bonus and Botifarra's trick point; rules/<game>.md §2 and §7). A card's
**cost** is the value of the best card there minus the value of the card played: 0 for
a card of perfect play, else the points the player's side gave away with it, if
everyone plays perfectly from then on. A replay of a finished deal shows every hand, so
nothing here is hidden from the viewer that the replay does not already show.

Cost of the work: the positions are solved from the deal's last card back to its first,
with one transposition table a side for the whole deal, so each solve finds the later
ones' work done (the table sized for the whole deal: ``solver.Table(tricks)``). A whole
deal of the Belote family takes about 0.1 to 2.2 s of CPU with the compiled search (0.7
to more than 8 s with the pure-Python one); Botifarra's first tricks (12 a deal) take
far longer, so the work stops at ``BUDGET_S`` of CPU and the earliest cards are left
unsolved (``cost`` None; 5 to 9 of 48 measured, the first trick or two). The solving
runs in a worker *process* of its own (one per server process, started at the first
request): in a thread the pure-Python search holds the interpreter's lock the tables
need (a live table's view took 0.37 s instead of 0.01 s during a solve); the compiled
one releases it, but the fallback must not stall a server either. At most
``MAX_WAITING`` deals are in hand at once and each requester may start
``NEW_PER_MINUTE`` new ones a minute (a burst of six, then one every ten seconds; 429
with ``Retry-After`` beyond either, and only for a finished deal not yet kept), and each
deal's answer is kept (app/records/once.py): a double tap or a second viewer does not
solve it twice, and a kept answer is never refused.
"""

from __future__ import annotations

import asyncio
import math
import multiprocessing
import signal
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import anyio

from app import rules
from app.accounts.limits import RateLimiter
from app.bots import solver
from app.core.errors import Conflict, TooManyRequests
from app.records import service as records
from app.records.once import Once, limiter

#: CPU seconds of solving a deal at most (this thread's clock).
BUDGET_S = 8.0
#: Deals whose costs are kept per process (each a few kilobytes).
CACHE_SIZE = 256
#: New deals being worked out at most per process (one solving, the rest waiting): a
#: request for another is refused with 429 until one ends, so nobody can queue hours of
#: solving by asking for every deal of the site; a kept answer is always given.
MAX_WAITING = 2
#: What a refused request is told to wait, in seconds.
BUSY_RETRY_S = 10
#: New deals one requester (a user, else an address) may have worked out a minute: a
#: burst of this many, then one every ``60 / NEW_PER_MINUTE`` seconds (a token bucket,
#: as the site's other limits, app/accounts/limits.py).
NEW_PER_MINUTE = 6
#: Where the solving runs: "process" (the worker process), or "thread" (a worker thread
#: of this process: tests that count the calls).
RUN_IN = "process"

_NEW = RateLimiter(NEW_PER_MINUTE, 60.0)
_POOL: ProcessPoolExecutor | None = None

_ONCE: Once[tuple[int, int], dict[str, Any]] = Once("card costs", CACHE_SIZE)


def card_costs(
    game: str,
    options: dict[str, Any],
    dealer: int,
    prior: list[dict[str, Any]],
    actions: list[dict[str, Any]],
    budget_s: float = BUDGET_S,
) -> list[dict[str, Any]]:
    """The cost of each card of one deal, in the order played.

    ``prior``: every action of the match before the deal (``rules.replay`` from
    ``dealer``); ``actions``: the deal's own, its ``deal`` action first. Returns one
    ``{step, trick, seat, card, cost, best}`` a card played: ``step`` its index in
    ``actions``, ``trick`` 1-based, ``cost`` as the module says (None when the budget
    ran out before the solver reached it: always a beginning of the deal), ``best``
    the cards of perfect play there (empty when unsolved).

    Raises:
        app.rules.IllegalAction: ``actions`` do not replay (a corrupt record).
    """
    state = rules.replay(game, options, dealer, prior)
    plays: list[tuple[int, Any, str]] = []
    for step, action in enumerate(actions):
        if action.get("type") == "play":
            plays.append((step, state, action["card"]))
        state = rules.apply(state, action)
    g = rules.GAMES[game]
    tables: dict[int, solver.Table] = {}
    deadline = time.thread_time() + budget_s
    out: list[dict[str, Any]] = []
    in_time = True
    for step, before, card in reversed(plays):
        seat = before.to_act
        entry: dict[str, Any] = {
            "step": step,
            "trick": len(before.tricks) + 1,
            "seat": seat,
            "card": card,
            "cost": None,
            "best": [],
        }
        if in_time:
            side = g.team_of(seat)
            try:
                if side not in tables:
                    tables[side] = solver.Table(g.deal_tricks(before.options))
                values = solver.solve_cards(before, side, tables[side], deadline)
            except solver.OutOfTime:
                in_time = False
            except ValueError:  # not a position the solver starts from: left unsolved
                pass
            else:
                top = max(values.values())
                entry["cost"] = top - values[card]
                entry["best"] = [c for c, v in values.items() if v == top]
        out.append(entry)
    out.reverse()
    return out


def timed_costs(
    game: str,
    options: dict[str, Any],
    dealer: int,
    prior: list[dict[str, Any]],
    actions: list[dict[str, Any]],
    budget_s: float,
) -> tuple[list[dict[str, Any]], float]:
    """:func:`card_costs` and the CPU seconds it took (what the worker process runs)."""
    t0 = time.thread_time()
    cards = card_costs(game, options, dealer, prior, actions, budget_s)
    return cards, time.thread_time() - t0


def _worker_start() -> None:
    """The worker process's start. Ctrl-C in a terminal interrupts its whole process group,
    the worker included; the server is the one to stop it (:func:`shutdown`), so the worker
    ignores the interrupt rather than die of it with a traceback (it was already started
    with the interrupt ignored, :func:`_pool`; this holds where that could not be done).
    Then it loads (or compiles) the compiled solver before its first deal, so that the load
    does not count against that deal's ``BUDGET_S``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    solver.warm_quietly()


def _pool() -> ProcessPoolExecutor:
    """The worker process's pool, its worker started now. The worker is spawned with Ctrl-C
    ignored: a new interpreter keeps an ignored SIGINT ignored (Python installs its
    KeyboardInterrupt handler only where the parent left SIGINT alone), so an interrupt
    during its imports, before :func:`_worker_start` runs, does not kill it either. The
    server's own handler is put back at once (only the main thread may change it;
    elsewhere the worker starts as it is)."""
    global _POOL
    if _POOL is None:
        pool = ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_worker_start,
        )
        try:
            handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
        except ValueError:  # not the main thread
            handler = None
        try:
            pool.submit(int)  # the pool spawns its worker on a first task, in this thread
        finally:
            if handler is not None:
                signal.signal(signal.SIGINT, handler)
        _POOL = pool
    return _POOL


def shutdown() -> None:
    """Stop the worker process and wait for it (the server's end; a later request starts
    another). A deal being worked out is dropped: the worker is terminated rather than
    waited for, so the shutdown does not wait up to ``BUDGET_S``, and nothing is left for
    the interpreter's exit to join. Blocks briefly: call it from a thread."""
    global _POOL
    pool, _POOL = _POOL, None
    if pool is None:
        return
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
    else:  # before 3.14 the pool has no public way to stop a worker in the middle of a task
        for process in list(getattr(pool, "_processes", {}).values()):
            process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)


def requester(user: Any, request: Any) -> str:
    """The key of ``NEW_PER_MINUTE`` for a request (a Starlette ``HTTPConnection``): the
    user, else the client's address."""
    if user is not None:
        return f"user:{user.id}"
    return f"ip:{request.client.host if request.client else ''}"


async def deal_costs(db: Any, room_id: int, deal_no: int, who: str = "") -> dict[str, Any]:
    """The solver's cost of each card of finished deal ``deal_no`` (1-based) of the
    room's game: ``{game_id, game, deal_no, budget_s, cards, solved, seconds, cached}``,
    ``cards`` as :func:`card_costs`, ``solved`` how many have a cost, ``seconds`` the CPU
    time it took, ``cached`` whether it was worked out before this request. ``who``:
    the requester (``"user:ID"``, ``"ip:ADDRESS"``), for ``NEW_PER_MINUTE``.

    Raises NotFound (no room, no game yet, no such deal), Conflict (the deal is still
    being played: its hands are not public yet), TooManyRequests (``MAX_WAITING`` other
    deals are being worked out, or the requester asked for too many new ones)."""
    game = await records.room_game(db, room_id)
    key = (game.id, deal_no)
    history = None
    if not _ONCE.knows(key):
        # the deal first: a missing or unfinished one uses up nobody's allowance
        history = await records.history(db, game)
        _finished(history, deal_no)
    # looked up again: a double tap's first request may have started it meanwhile
    if not _ONCE.knows(key):
        if _ONCE.running >= MAX_WAITING:
            raise TooManyRequests(
                f"the solver is busy with other deals: try again in {BUSY_RETRY_S} s",
                BUSY_RETRY_S,
                "costs_busy",
                n=BUSY_RETRY_S,
            )
        wait = _NEW.hit(who)
        if wait > 0:
            seconds = math.ceil(wait)
            raise TooManyRequests(
                f"you have asked the solver for many deals: try again in {seconds} s",
                seconds,
                "costs_too_many",
                n=seconds,
            )
    answer, cached = await _ONCE.get(key, lambda: _compute(db, game, deal_no, history))
    return {**answer, "cached": cached}


def _finished(history: records.GameHistory, deal_no: int) -> records.DealHistory:
    return history.played_deal(
        deal_no,
        Conflict(
            f"deal {deal_no} is still being played: what each card cost is shown once it ends",
            "costs_deal_in_play",
            n=deal_no,
        ),
    )


async def _compute(
    db: Any, game: Any, deal_no: int, history: records.GameHistory | None
) -> dict[str, Any]:
    if history is None:
        history = await records.history(db, game)
    deal = _finished(history, deal_no)
    prior = [m.action for d in history.deals if d.deal_no < deal_no for m in d.moves]
    actions = [m.action for m in deal.moves]
    name, options, dealer = game.game, game.options, game.dealer

    work = (name, options, dealer, prior, actions, BUDGET_S)
    if RUN_IN == "thread":
        cards, seconds = await anyio.to_thread.run_sync(timed_costs, *work, limiter=limiter())
    else:
        cards, seconds = await _in_worker(work)
    return {
        "game_id": game.id,
        "game": name,
        "deal_no": deal_no,
        "budget_s": BUDGET_S,
        "cards": cards,
        "solved": sum(c["cost"] is not None for c in cards),
        "seconds": round(seconds, 2),
    }


async def _in_worker(work: tuple[Any, ...]) -> tuple[list[dict[str, Any]], float]:
    """:func:`timed_costs` in the worker process; a worker that died (killed, out of
    memory) is replaced once."""
    for attempt in (1, 2):
        try:
            return await asyncio.get_running_loop().run_in_executor(_pool(), timed_costs, *work)
        except BrokenProcessPool:
            shutdown()
            if attempt == 2:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def forget() -> None:
    """Drop every kept answer and the requesters' counts (tests)."""
    global _NEW
    _ONCE.forget()
    _NEW = RateLimiter(NEW_PER_MINUTE, 60.0)
