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
and the decision times of both sides."""
import json, math, random, sys, time
from app import rules
from app.bots import strong
import colver

SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
SIGN = {v: k for k, v in SUIT.items()}
RANK = {"10": "T"}

def tcode(idx):
    n = colver.Env.card_name(idx)
    r, s = n[:-1], n[-1]
    return RANK.get(r, r) + SUIT[s]

IDX = {tcode(i): i for i in range(32)}

def call_action(name):
    if name in ("Pass", "Coinche", "Surcoinche"):
        return {"type": name.lower()}
    value, suit = name[:-1], SUIT[name[-1]]
    return {"type": "bid", "value": "capot" if value == "Capot" else int(value), "suit": suit}

def deck_for(dealer, hands):
    deck = [""] * 32
    eldest = (dealer + 1) % 4
    for i in range(4):
        seat = (eldest + i) % 4
        places = [*range(3 * i, 3 * i + 3), *range(12 + 2 * i, 14 + 2 * i), *range(20 + 3 * i, 23 + 3 * i)]
        for place, card in zip(places, hands[seat], strict=True):
            deck[place] = card
    return deck

SPEC = '[worlds]\nsource="uniform"\n'

def play(seed, dealer, tapet_team, budget_ms, calls=None):
    env = colver.Env.deal(dealer=dealer, seed=seed)
    hands = [[tcode(c) for c in h] for h in env.get_hands()]
    agents = {s: colver.Agent(SPEC, s, seed=seed * 7 + s) for s in range(4) if s % 2 != tapet_team}
    for a in agents.values():
        a.set_time_ms(budget_ms)
        a.init_deal(env)
    state = rules.new_game("contree", {"preset": "colver", "target": 100000}, dealer)
    state = rules.apply(state, {"type": "deal", "deck": deck_for(dealer, hands)})
    rng = random.Random(seed * 3 + tapet_team)
    made_calls = []
    k = 0
    times = {"tapet": [], "colver": []}
    while not env.is_terminal() and env.phase() != 2:
        seat = env.current_player()
        if env.phase() == 0:
            if calls is not None:
                name = calls[k]; k += 1
                action = next(a for a in env.legal_actions() if colver.Env.action_name(a, 0) == name)
            else:
                action = env.bid_improved()
                name = colver.Env.action_name(action, 0)
            made_calls.append(name)
            state = rules.apply(state, call_action(name))
        else:
            if state.phase != "play":
                return None, made_calls, times  # all passed
            if seat % 2 == tapet_team:
                view = rules.observe(state, seat)
                t0 = time.perf_counter()
                a = strong.choose(view, rng, budget_ms=budget_ms)
                times["tapet"].append(time.perf_counter() - t0)
                card = a["card"]
                action = IDX[card]
                tapet_action = a
            else:
                t0 = time.perf_counter()
                action = agents[seat].decide(env)["action"]
                times["colver"].append(time.perf_counter() - t0)
                card = tcode(action)
                said = [x for x in rules.legal_actions(state) if x.get("card") == card and x.get("belote")]
                tapet_action = said[0] if said else {"type": "play", "card": card}
            state = rules.apply(state, tapet_action)
        for a in agents.values():
            a.observe(env, action)
        env.step(action)
    if state.phase == "auction" or not state.tricks:
        return None, made_calls, times
    pts = env.get_points()
    return pts, made_calls, times

def main():
    boards, budget = int(sys.argv[1]), int(sys.argv[2])
    seed0 = int(sys.argv[3]) if len(sys.argv) > 3 else 5000
    diffs = []; better = worse = 0; alltimes = {"tapet": [], "colver": []}
    seed = seed0
    while len(diffs) < boards:
        seed += 1
        dealer = seed % 4
        a, calls, t1 = play(seed, dealer, 0, budget)
        if a is None:
            continue
        b, _, t2 = play(seed, dealer, 1, budget, calls)
        for t in (t1, t2):
            for k in t: alltimes[k] += t[k]
        # Tapet's side's points minus colver's, in each play; the mean of the two
        d = ((a[0] - a[1]) + (b[1] - b[0])) / 2
        diffs.append(d); better += d > 0; worse += d < 0
        n = len(diffs); m = sum(diffs) / n
        sd = math.sqrt(sum((x - m) ** 2 for x in diffs) / (n - 1)) if n > 1 else 0
        print(f"board {n} seed {seed}: A {a} B {b} d {d:+.1f} | mean {m:+.2f} ± {1.96*sd/math.sqrt(n):.2f} better {better} worse {worse}", flush=True)
    def p(ts, q): ts = sorted(ts); return ts[int(len(ts) * q) - 1] * 1000 if ts else 0
    print(f"decision ms p50/p95: tapet {p(alltimes['tapet'],.5):.0f}/{p(alltimes['tapet'],.95):.0f}  colver {p(alltimes['colver'],.5):.0f}/{p(alltimes['colver'],.95):.0f}")

main()
