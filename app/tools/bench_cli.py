"""The benchmark commands of ``tapet`` (registered by :mod:`app.tools.cli`):

* ``tapet bench engine [--game G] [--seconds S]``: random legal play, actions/s and deals/s;
* ``tapet bench bots [--game G] [--level L] [--decisions N]``: decision time p50/p95/max;
* ``tapet arena --game G --a LEVEL --b LEVEL --deals N [--matches M] [--budget-ms MS]``:
  duplicate deals (and optionally duplicate matches) between two bot levels
  (``app.bots.ARENA_NAMES``: the seats' levels, and ``strong-dd`` / ``strong-po``, the
  strong bot with and without its exact endgame; ``--exact-tricks N`` sets where it starts);
* ``tapet fit-calls --game G --deals N --seed S [--seed S2 ...]``: the strong bot's learned
  calls (:mod:`app.bots.call_model`, :mod:`app.bots.botifarra_calls`) fitted to random deals,
  their weights printed.

Figures are printed, never asserted; docs/benchmarks.md records them.
"""

from __future__ import annotations

import argparse
import os
import sys
from concurrent.futures import ProcessPoolExecutor

from tqdm import tqdm

from app.bots import ARENA_NAMES, botifarra_calls, call_model, solver, strong
from app.rules import GAMES
from app.tools.bench import arena, bench_bots, bench_engine, duplicate, seatings


def _bar(total: int, desc: str, unit: str) -> tqdm:
    """A progress bar on stderr (the figures go to stdout), gone when done."""
    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, leave=False, dynamic_ncols=True)


def _games(game: str | None) -> list[str]:
    return [game] if game else list(GAMES)


def cmd_bench_engine(args: argparse.Namespace) -> int:
    """Print the engine's speed per game."""
    print(f"{'game':<14}{'actions/s':>12}{'play actions/s':>16}{'deals/s':>10}")
    for g in _games(args.game):
        r = bench_engine(g, args.seconds)
        print(
            f"{g:<14}{r['actions_per_s']:>12,.0f}{r['play_actions_per_s']:>16,.0f}{r['deals_per_s']:>10,.0f}",
            flush=True,
        )
    return 0


def cmd_bench_bots(args: argparse.Namespace) -> int:
    """Print each bot level's decision time per game (the compiled solver warmed first, as
    the server does at its start: its load is not a decision's time)."""
    _strong_settings(args)
    solver.warm()
    levels = [args.level] if args.level else ["random", "heuristic", "strong"]
    print(f"{'game':<14}{'level':<10}{'decisions':>10}{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}")
    for g in _games(args.game):
        for level in levels:
            n = (
                min(args.decisions, args.strong_decisions)
                if level.startswith("strong")
                else args.decisions
            )
            with _bar(n, f"{g} {level}", "decision") as bar:
                r = bench_bots(g, level, n, step=bar.update)
            print(
                f"{g:<14}{level:<10}{r['decisions']:>10}{r['p50_ms']:>9.2f}{r['p95_ms']:>9.2f}{r['max_ms']:>9.2f}",
                flush=True,
            )
    return 0


def _labels(job: tuple[str, int, int]) -> list[dict]:
    game, deals, seed = job
    if game == "botifarra":
        return list(botifarra_calls.labels(deals, seed))
    return list(call_model.labels(game, deals, seed))


def cmd_fit_calls(args: argparse.Namespace) -> int:
    """Label random deals (one process a seed) and print the fitted weights, ready for
    ``call_model.WEIGHTS`` or ``botifarra_calls.WEIGHTS``. No deals: a message, exit 2."""
    seeds = args.seed or [1]
    if args.deals == 0:
        print("fit-calls: at least 1 deal to learn from", file=sys.stderr)
        return 2
    with ProcessPoolExecutor(max_workers=min(len(seeds), os.cpu_count() or 1)) as pool:
        rows = [
            r
            for part in pool.map(_labels, [(args.game, args.deals, s) for s in seeds])
            for r in part
        ]
    print(f"# {len(rows):,} calls of {args.deals * len(seeds):,} deals, seeds {seeds}")
    if args.game == "botifarra":
        for name, weights in botifarra_calls.fit(rows).items():
            print(f'"{name}": (' + " ".join(f"{w!r}," for w in weights) + "),")
        return 0
    weights = call_model.fit(args.game, rows)
    print(f'"{args.game}": (')
    for i in range(0, len(weights), 6):
        print("    " + " ".join(f"{w:.3f}," for w in weights[i : i + 6]))
    print("),")
    return 0


def _strong_settings(args: argparse.Namespace) -> None:
    """Apply ``--budget-ms`` (``TAPET_BOT_BUDGET_MS``) and ``--exact-tricks`` (every game's
    ``strong.EXACT_TRICKS``, for this process only)."""
    if args.budget_ms is not None:
        os.environ["TAPET_BOT_BUDGET_MS"] = str(args.budget_ms)
    if args.exact_tricks is not None:
        for game in GAMES:
            strong.EXACT_TRICKS[game] = args.exact_tricks


def _print_duplicate(g: str, args: argparse.Namespace) -> None:
    """Play ``args.deals`` duplicate deals of game ``g`` and print the result line."""
    with _bar(args.deals, f"{g} duplicate deals", "board") as bar:
        r = duplicate(g, args.a, args.b, args.deals, args.seed, step=bar.update)
    lo, hi = r["win_ci95"]
    dlo, dhi = r["diff_ci95"]
    print(
        f"{g}: {args.a} vs {args.b}, {r['deals']} duplicate deals ({r['plays']} plays): "
        f"{args.a} wins {r['a_board_win_rate']:.1%} of deals (95% {lo:.1%}-{hi:.1%}, ties {r['board_ties']} "
        f"counted half; {r['a_decided_win_rate']:.1%} of the others); "
        f"mean points per deal {r['a_mean_points']:.1f} vs {r['b_mean_points']:.1f}, "
        f"difference {r['diff_mean']:+.1f} (95% {dlo:+.1f} to {dhi:+.1f})",
        flush=True,
    )


def _count(text: str) -> int:
    """An argparse type: a whole number of 0 or more."""
    n = int(text)
    if n < 0:
        raise argparse.ArgumentTypeError(f"0 or more, not {n}")
    return n


def cmd_arena(args: argparse.Namespace) -> int:
    """Play duplicate deals (and matches) between two levels and print the result."""
    _strong_settings(args)
    if not args.deals and not args.matches:
        print("tapet arena: nothing to play (--deals 0 and no --matches)", file=sys.stderr)
        return 2
    for g in _games(args.game):
        if args.deals:  # --deals 0: the matches only
            _print_duplicate(g, args)
        if args.matches:
            with _bar(
                len(seatings(g, args.a, args.b)) * args.matches, f"{g} matches", "match"
            ) as bar:
                m = arena(g, args.a, args.b, args.matches, args.seed, step=bar.update)
            mlo, mhi = m["ci95"]
            print(
                f"{g}: {args.a} vs {args.b}, {m['matches']} matches (duplicate): {args.a} wins "
                f"{m['a_win_rate']:.1%} (95% {mlo:.1%}-{mhi:.1%}); mean match points "
                f"{m['a_mean_points']:.0f} vs {m['b_mean_points']:.0f}",
                flush=True,
            )
    return 0


def _exact_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--exact-tricks",
        type=_count,
        default=None,
        help="tricks left from which strong-dd (and strong, where exact by default) judges "
        "drawn deals by perfect play, every game (default: strong.EXACT_TRICKS)",
    )


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``bench`` and ``arena`` to the ``tapet`` subcommands."""
    bench = sub.add_parser("bench", help="engine and bot benchmarks")
    bsub = bench.add_subparsers(dest="what", required=True)
    eng = bsub.add_parser("engine", help="random legal play: actions/s and deals/s per game")
    eng.add_argument("--game", default=None)
    eng.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per game")
    eng.set_defaults(func=cmd_bench_engine)
    bots = bsub.add_parser("bots", help="decision time p50/p95/max per bot level")
    bots.add_argument("--game", default=None)
    bots.add_argument("--level", default=None, choices=ARENA_NAMES)
    bots.add_argument("--decisions", type=int, default=500)
    bots.add_argument(
        "--strong-decisions", type=int, default=150, help="decisions timed for the strong level"
    )
    bots.add_argument(
        "--budget-ms", type=float, default=None, help="TAPET_BOT_BUDGET_MS for the strong level"
    )
    _exact_option(bots)
    bots.set_defaults(func=cmd_bench_bots)
    fc = sub.add_parser("fit-calls", help="fit the strong bot's learned calls to random deals")
    fc.add_argument("--game", required=True, choices=["bolot", "belote", "belote-3p", "botifarra"])
    fc.add_argument("--deals", type=_count, default=20000, help="random deals a seed")
    fc.add_argument("--seed", type=int, action="append", help="one run of deals a seed")
    fc.set_defaults(func=cmd_fit_calls)
    ar = sub.add_parser("arena", help="duplicate deals between two bot levels")
    ar.add_argument("--game", default=None)
    ar.add_argument("--a", required=True, choices=ARENA_NAMES)
    ar.add_argument("--b", required=True, choices=ARENA_NAMES)
    ar.add_argument("--deals", type=_count, default=200, help="0: the matches only")
    ar.add_argument(
        "--matches", type=_count, default=0, help="also play this many duplicate matches"
    )
    ar.add_argument("--seed", type=int, default=11)
    ar.add_argument(
        "--budget-ms", type=float, default=None, help="TAPET_BOT_BUDGET_MS for the strong level"
    )
    _exact_option(ar)
    ar.set_defaults(func=cmd_arena)
