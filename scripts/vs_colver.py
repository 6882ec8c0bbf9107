"""Tapet's strong bot against colver's IS-DD bot in the play of French Belote (issue 22 §4).

colver (a Rust engine of belote contrée, on PyPI) is not a dependency of Tapet: install
it in an environment of its own and put its site-packages on the path::

    python3 -m venv /tmp/colver-venv && /tmp/colver-venv/bin/pip install colver==0.11.1
    PYTHONPATH=/tmp/colver-venv/lib/python3.11/site-packages \
        uv run python scripts/vs_colver.py BOARDS BUDGET_MS [FIRST_SEED]

Each board is one deal (``colver.Env.deal(dealer=seed % 4, seed=seed)``) played twice:
Tapet's ``strong`` (budget BUDGET_MS) in North-South and colver's default agent
(``improved_v2/isdd:20d+unif``: IS-DD, 20 deals drawn uniformly and solved double
dummy, ``set_time_ms(BUDGET_MS)``) in East-West, then the sides swapped. The auction is
colver's ``bid_improved`` for every seat in the first play and the same calls in the
second, so both plays have the same contract; a deal everybody passes is skipped.
Tapet plays under the contrée ``colver`` preset (rules/contree.md §10: colver's own
rules, tests/rules/test_contree_oracle.py). A board's figure is the mean over its two
plays of Tapet's side's points minus colver's (``Env.get_points``: card points, last
trick, belote, capot). Prints a line a board (the running mean and its 95% interval)
and the decision times of both sides.

``scripts/vs_colver.py speed`` instead times the two engines' random play of the same
work, alternately in one run (:func:`speed`)."""

import math
import random
import sys
import time
from pathlib import Path

import colver  # type: ignore[import-not-found]

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the oracle test's helpers

from app import rules
from app.bots import strong
from tests.rules.test_contree_oracle import call_action, deck_for  # noqa: E402

SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
RANK = {"10": "T"}
#: colver's default agent with its worlds drawn uniformly (no model to download).
SPEC = '[worlds]\nsource="uniform"\n'


def tcode(idx: int) -> str:
    """Tapet's code of colver's card ``idx`` ("10♥" -> "TH")."""
    name = colver.Env.card_name(idx)
    rank, suit = name[:-1], name[-1]
    return RANK.get(rank, rank) + SUIT[suit]


IDX = {tcode(i): i for i in range(32)}


def play(
    seed: int, dealer: int, tapet_team: int, budget_ms: int, calls: list[str] | None = None
) -> tuple[list[int] | None, list[str], dict[str, list[float]]]:
    """One play of deal ``seed``: Tapet's strong bot for ``tapet_team``, colver's agent for
    the other; ``calls`` replays an auction (else colver's ``bid_improved`` makes one).
    Returns (points per team, or None when everybody passed; the calls; decision times)."""
    env = colver.Env.deal(dealer=dealer, seed=seed)
    hands = [[tcode(c) for c in h] for h in env.get_hands()]
    agents = {s: colver.Agent(SPEC, s, seed=seed * 7 + s) for s in range(4) if s % 2 != tapet_team}
    for agent in agents.values():
        agent.set_time_ms(budget_ms)
        agent.init_deal(env)
    state = rules.new_game("contree", {"preset": "colver", "target": 100000}, dealer)
    state = rules.apply(state, {"type": "deal", "deck": deck_for(dealer, hands)})
    rng = random.Random(seed * 3 + tapet_team)
    made: list[str] = []
    times: dict[str, list[float]] = {"tapet": [], "colver": []}
    while not env.is_terminal() and env.phase() != 2:
        seat = env.current_player()
        if env.phase() == 0:
            if calls is not None:
                name = calls[len(made)]
                action = next(a for a in env.legal_actions() if env.action_name(a, 0) == name)
            else:
                action = env.bid_improved()
                name = colver.Env.action_name(action, 0)
            made.append(name)
            state = rules.apply(state, call_action(name))
        else:
            if state.phase != "play":
                return None, made, times
            t0 = time.perf_counter()
            if seat % 2 == tapet_team:
                mine = strong.choose(rules.observe(state, seat), rng, budget_ms=budget_ms)
                times["tapet"].append(time.perf_counter() - t0)
                action = IDX[mine["card"]]
            else:
                action = agents[seat].decide(env)["action"]
                times["colver"].append(time.perf_counter() - t0)
                card = tcode(action)
                legal = rules.legal_actions(state)
                said = [x for x in legal if x.get("card") == card and x.get("belote")]
                mine = said[0] if said else {"type": "play", "card": card}
            state = rules.apply(state, mine)
        for agent in agents.values():
            agent.observe(env, action)
        env.step(action)
    if state.phase == "auction" or not state.tricks:
        return None, made, times
    return list(env.get_points()), made, times


def main() -> None:
    """``BOARDS BUDGET_MS [FIRST_SEED]``: see the module."""
    boards, budget = int(sys.argv[1]), int(sys.argv[2])
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 5000
    diffs: list[float] = []
    better = worse = 0
    every: dict[str, list[float]] = {"tapet": [], "colver": []}
    while len(diffs) < boards:
        seed += 1
        dealer = seed % 4
        a, calls, t1 = play(seed, dealer, 0, budget)
        if a is None:
            continue
        b, _, t2 = play(seed, dealer, 1, budget, calls)
        assert b is not None  # the same calls make the same contract
        for t in (t1, t2):
            for side, values in t.items():
                every[side] += values
        # Tapet's side's points minus colver's, in each play; the mean of the two
        d = ((a[0] - a[1]) + (b[1] - b[0])) / 2
        diffs.append(d)
        better += d > 0
        worse += d < 0
        n = len(diffs)
        m = sum(diffs) / n
        sd = math.sqrt(sum((x - m) ** 2 for x in diffs) / (n - 1)) if n > 1 else 0.0
        half = 1.96 * sd / math.sqrt(n)
        print(
            f"board {n} seed {seed}: A {a} B {b} d {d:+.1f} | mean {m:+.2f} ± {half:.2f}"
            f" better {better} worse {worse}",
            flush=True,
        )

    def ms(values: list[float], q: float) -> float:
        values = sorted(values)
        return values[int(len(values) * q) - 1] * 1000 if values else 0.0

    tp, cp = every["tapet"], every["colver"]
    print(
        f"decision ms p50/p95: tapet {ms(tp, 0.5):.0f}/{ms(tp, 0.95):.0f}"
        f"  colver {ms(cp, 0.5):.0f}/{ms(cp, 0.95):.0f}"
    )


def _colver_round(seconds: float, rng: random.Random) -> float:
    n, busy, end = 0, 0.0, time.perf_counter() + seconds
    while time.perf_counter() < end:
        env = colver.Env.deal(dealer=0, seed=rng.randrange(10**9))
        env.set_contract(rng.randrange(4), 80, 0, 0)
        env.set_phase_playing()
        t = time.perf_counter()
        while not env.is_terminal():
            env.step(rng.choice(env.legal_actions()))
            n += 1
        busy += time.perf_counter() - t
    return n / busy


def _tapet_round(seconds: float, rng: random.Random) -> float:
    n, busy, end = 0, 0.0, time.perf_counter() + seconds
    while time.perf_counter() < end:
        env = colver.Env.deal(dealer=0, seed=rng.randrange(10**9))
        hands = [[tcode(c) for c in h] for h in env.get_hands()]
        s = rules.new_game("contree", {"preset": "colver", "target": 100000}, 0)
        s = rules.apply(s, {"type": "deal", "deck": deck_for(0, hands)})
        s = rules.apply(s, {"type": "bid", "value": 80, "suit": "SHDC"[rng.randrange(4)]})
        for _ in range(3):
            s = rules.apply(s, {"type": "pass"})
        t = time.perf_counter()
        while s.phase == "play":
            s = rules.apply(s, rng.choice(rules.legal_actions(s)))
            n += 1
        busy += time.perf_counter() - t
    return n / busy


def speed(rounds: int = 3, seconds: float = 3.0) -> None:
    """The engines' random play of the same work from Python, alternately in one run:
    a deal of colver's, a contract of 80 in a random suit, then random legal cards to the
    end (``Env.legal_actions``/``Env.step`` against ``rules.legal_actions``/``rules.apply``;
    the deal and the contract not timed)."""
    rng = random.Random(1)
    for r in range(rounds):
        c = _colver_round(seconds, rng)
        t = _tapet_round(seconds, rng)
        print(f"round {r + 1}: colver {c:,.0f} play actions/s, tapet {t:,.0f} -> {t / c:.2f}x")


if __name__ == "__main__":
    if sys.argv[1:2] == ["speed"]:
        speed()
    else:
        main()
