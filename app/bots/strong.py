"""The ``strong`` bot: determinized search over the play, the heuristic elsewhere.

At each card it must choose (every game; from its own seat's view only):

1. learn what the view tells about the hidden cards (:mod:`app.bots.sampler`:
   counts, known cards, cards excluded by the other seats' past plays);
2. repeatedly draw the hidden hands at random within that knowledge, build
   the position they imply (:func:`app.rules.sim.position`), and for each
   card it may play, play the deal out with the heuristic bot in every seat
   (in the games of ``AUCTION_WEIGHTS``, each drawn deal counts by how well it
   agrees with the other seats' calls: :mod:`app.bots.auction_model`);
3. play the card with the best mean result: the deal's points for its side
   minus the other side's, as the game scores them (rules/*.md §7), plus a
   hundredth of the same difference in the deal's totals (card points and
   the rest, before the contract is judged), so that cards the points
   leave equal are told apart (Bridge-Belote rounds to tens); but keep the
   heuristic's own card unless the best one beats it, on the same drawn
   deals, by more than ``CONFIDENCE`` standard errors (a small budget draws
   few deals, and their noise would otherwise pick worse cards than the
   heuristic does).

Near the deal's end (``exact``, by default in the games of ``EXACT_GAMES``; from
``EXACT_TRICKS`` tricks left on) a
drawn deal is played out by perfect play instead of the heuristic: one solve of
the drawn position by the double-dummy solver (:mod:`app.bots.solver`) gives each
card's exact value (card points, last trick, Botifarra's trick points), then each
seat plays a card that keeps that value (the heuristic's card when it is one of
them), and the end is scored by the game like any play-out. So the card is judged
on the same scale as before, with the contract's judgement (made or failed, capot,
doubling, rounding) the rules' own: the judgement does not depend on the solver's
raw points linearly (a failed contract swings the whole deal), and the mean over
drawn deals must be the mean of the judged results, not of the card points. Where
the solver cannot start (a declaration owed) the play-outs stay.

In the games of ``AUCTION_GAMES`` the auction's calls are judged the same way, on
drawn deals weighed by the calls already made (:mod:`app.bots.strong_auction`);
elsewhere they are the heuristic's.

:func:`choose_explained` gives the same action with what that one search compared
(:class:`Explanation`: the card against the strongest other one, deal by deal), for
the hint's sentence (app/table/hints.py).

Every card is judged on the same drawn deals. The search runs within a time
budget: ``budget_ms``, else the environment variable ``TAPET_BOT_BUDGET_MS``,
else 300 ms; ``samples`` fixes the number of drawn deals instead (tests,
reproducible arenas). Declarations, the belote-2p exchange and claim are the
heuristic's; the belote/bolot is always announced.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import time
from dataclasses import dataclass
from typing import Any

from app.bots import botifarra_calls, call_model
from app.bots.auction_model import model as auction_model
from app.bots.heuristic import Choose, heuristic_for
from app.bots.memory import finished_tricks
from app.bots.sampler import STOCK, Knowledge, knowledge, sample
from app.bots.solver import OutOfTime, Table, card_of_value, solve_cards, trick_value
from app.bots.strong_auction import evaluate_calls, margin, paired_gain
from app.rules import GAMES, State, is_over, needs_deal, to_act
from app.rules.core import TrickGame
from app.rules.declarations import declare_choices, public_kind
from app.rules.sim import brief_view, deal_points, deal_totals, position
from app.rules.types import Action, View

#: Games whose strong bot judges its auction calls on drawn deals (:mod:`app.bots.strong_auction`)
#: rather than making the heuristic's: where that measured ahead of the heuristic's calls
#: (docs/benchmarks.md, "Issue 22, 6 December 2026 (morning)"; Bridge-Belote, with its
#: exact endgame, and Contrée, its calls cut to a shortlist: "(midday)"); the
#: ``strong-bid`` level of the arena searches the calls in every game.
AUCTION_GAMES: frozenset[str] = frozenset({"belote", "belote-2p", "bridge-belote", "contree"})
#: game id -> the strong bot's calls where it does not search them: learned worths of the
#: calls rather than the heuristic's thresholds. Bolot's take (:mod:`app.bots.call_model`),
#: ahead of the bolder thresholds it had before, themselves ahead of the heuristic's;
#: Botifarra's choice of trumps and double (:mod:`app.bots.botifarra_calls`), ahead of the
#: heuristic's (docs/benchmarks.md, "Issue 22, 7 December 2026 (evening)"). The arena's
#: ``strong-dd`` and ``strong-po`` keep the heuristic's calls.
LEARNED_CALLS: dict[str, Choose] = {
    "bolot": call_model.choose_call,
    "botifarra": botifarra_calls.choose_call,
}
#: game id -> the call that the searched calls (``AUCTION_GAMES``) keep unless another
#: beats it clearly on the drawn deals, where it is not the heuristic's: Belote's learned
#: take (:mod:`app.bots.call_model`; docs/benchmarks.md, "Issue 22, 7 December 2026
#: (late night)": 59.1 % of 2,000 boards against 56.2 % of 600 from the heuristic's).
#: ``strong-bid`` searches from the heuristic's.
SEARCH_DEFAULTS: dict[str, Choose] = {"belote": call_model.choose_call}
#: Games whose strong bot makes learned calls by default (``learned=None``).
LEARNED_CALL_GAMES: frozenset[str] = frozenset(LEARNED_CALLS) | frozenset(SEARCH_DEFAULTS)
#: Auction calls the search judges (the belote-2p exchange is always the heuristic's).
SEARCHED_CALLS = {
    "take",
    "pass",
    "bid",
    "double",
    "redouble",
    "trump",
    "botifarra",
    "delegate",
    "sant_vicenc",
    "coinche",
    "surcoinche",
}

BUDGET_ENV = "TAPET_BOT_BUDGET_MS"
DEFAULT_BUDGET_MS = 300.0
#: Weight of the deal's totals (card points...) beside its points in a play-out's result.
TIE_BREAK = 0.01
#: Games whose strong bot judges the drawn deals by perfect play near the deal's end (see
#: :func:`exact_from`): where it measured ahead of the play-outs at the same budget on
#: both figures in two runs (or on both in one run where a second was not made), after
#: the compiled solver (docs/benchmarks.md, "The exact endgame from further back";
#: Belote for three: "Issue 22, 6 December 2026"). Bridge-Belote was level with it
#: alone and has it with the searched calls, together ahead on three seeds ("(midday)").
EXACT_GAMES: frozenset[str] = frozenset(
    {"bolot", "belote", "belote-2p", "belote-3p", "contree", "bridge-belote", "botifarra"}
)
#: game id -> tricks left (the one in play included) at or below which a drawn deal is
#: played out by perfect play rather than by the heuristic, when exact (measured at
#: 100 ms: docs/benchmarks.md, "The exact endgame from further back"; Belote at 7 did
#: worse than at 6; Belote for three was measured at its family's 6 only). Belote for
#: two solves from its first trick (9): two hands of nine cards solve in about 20 ms, and
#: it measured ahead of 6 over 2,000 boards ("Issue 22, 6 December 2026 (midday)").
#: Botifarra solves from 6 (seven tricks left take about 5 ms a solve once compiled): ahead
#: of 4 on both figures on the two seeds run with both, 59.2 % of 2,000 boards against
#: 57.5 % ("Issue 22, 7 December 2026 (late night)").
EXACT_TRICKS: dict[str, int] = {
    "bolot": 5,
    "belote": 6,
    "belote-2p": 9,
    "belote-3p": 6,
    "contree": 6,
    "bridge-belote": 6,
    "botifarra": 6,
}
#: Drawn deals at most, however large the budget (the estimate is good enough by then).
MAX_SAMPLES = 400
#: Bot families (a ruleset's ``bot_family``) whose drawn deals are weighed by how well they agree with the other seats' calls
#: (:mod:`app.bots.auction_model`): where it measured better (docs/benchmarks.md,
#: "Weighing the drawn deals by the auction"); Bolot was not shown to be no worse.
AUCTION_WEIGHTS = frozenset({"botifarra"})


#: Thinking time of the strong bot when it advises a player from their own seat: the hint
#: (app/table/hints.py) and "Replay my deal" for the requester's seat
#: (app/records/replay_mine.py). One figure for both, with :func:`advice_rng`, so that the
#: card a hint suggested is the card the replay's bot plays in the same position.
ADVICE_BUDGET_MS = 150.0


def advice_rng(view: View) -> random.Random:
    """The random draws of an advice (a hint, the replay of the requester's deal) for the
    position ``view`` shows: seeded by the position (game, dealer, seat, ``seq``, the
    seat's hand, the scores: keys that a room's view, ``rooms.service.get_view``, and the
    engine's ``observe`` give alike), so that the same position asked twice draws the
    same deals. Within the same budget the two searches then agree on the card, except where
    the machine's load lets one of them draw more deals on a close call (the budget is
    time)."""
    key = json.dumps(
        [
            view.get("game"),
            view.get("dealer"),
            view.get("seat"),
            view.get("seq"),
            sorted(view.get("hand") or []),
            view.get("scores"),
        ],
        sort_keys=True,
        default=str,
    )
    return random.Random(int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big"))


def budget_from_env() -> float:
    """The decision budget in milliseconds: ``TAPET_BOT_BUDGET_MS``, else 300."""
    try:
        return max(1.0, float(os.environ.get(BUDGET_ENV, DEFAULT_BUDGET_MS)))
    except ValueError:
        return DEFAULT_BUDGET_MS


def candidates(actions: list[Action]) -> dict[str, Action]:
    """card -> the play action to judge: the form announcing the belote/bolot where offered."""
    out: dict[str, Action] = {}
    for a in actions:
        if a["type"] == "play" and (a["card"] not in out or len(a) > len(out[a["card"]])):
            out[a["card"]] = a
    return out


def choose(
    view: View,
    rng: random.Random,
    budget_ms: float | None = None,
    samples: int | None = None,
    exact: bool | None = None,
    auction: bool | None = None,
    learned: bool | None = None,
) -> Action:
    """The strong action for ``view`` (the bot's own seat's observe()); one of its legal_actions.

    ``exact``: judge each drawn deal by perfect play (:func:`exact_from`) once few enough
    tricks are left; None: the default (the games of ``EXACT_GAMES``). ``auction``: judge
    the auction's calls on drawn deals (:mod:`app.bots.strong_auction`); None: the default
    (the games of ``AUCTION_GAMES``). ``learned``: make the game's learned calls where the
    calls are not searched (``LEARNED_CALLS``), and search from its learned call where they
    are (``SEARCH_DEFAULTS``), rather than from the heuristic's; None: the default (the
    games of ``LEARNED_CALL_GAMES``).

    Raises:
        ValueError: the seat has nothing to do.
    """
    action, _ = choose_explained(
        view, rng, budget_ms, samples, exact, explained=False, auction=auction, learned=learned
    )
    return action


@dataclass(frozen=True)
class Explanation:
    """What the search compared for a played card (numbers only; the hint words them).

    ``card``: the card chosen; ``other``: the strongest alternative (the heuristic's card
    when the search played another one, else the best of the rest by mean, which is the
    search's best when the heuristic's card was kept for want of a clear gain);
    ``deals``: drawn deals; ``better``/``same``/``worse``: on how many of them ``card``'s
    result beat, equalled or fell below ``other``'s (they add up to ``deals``); ``gain``:
    the weighted mean of ``card``'s result less ``other``'s per deal, in the game's points
    (the own side's less the other side's, plus the tie-break hundredth of the totals).
    """

    card: str
    other: str
    deals: int
    better: int
    same: int
    worse: int
    gain: float


def choose_explained(
    view: View,
    rng: random.Random,
    budget_ms: float | None = None,
    samples: int | None = None,
    exact: bool | None = None,
    explained: bool = True,
    auction: bool | None = None,
    learned: bool | None = None,
) -> tuple[Action, Explanation | None]:
    """``(action, explanation)``: :func:`choose`'s action (the same one, from the same
    draws of ``rng``) and what its one search compared, or None where no search chose
    between cards (the auction, a single playable card, a claim, a declaration).
    ``explained=False``: no explanation (:func:`choose`: a bot's own turn spends nothing
    on it; the draws, and so the action, are the same).

    Raises:
        ValueError: the seat has nothing to do.
    """
    actions = view["legal_actions"]
    if not actions:
        raise ValueError("this seat has no action to take")
    heuristic = heuristic_for(view["game"])
    if auction is None:
        auction = view["game"] in AUCTION_GAMES
    if learned is None:
        learned = view["game"] in LEARNED_CALL_GAMES
    if (
        auction
        and view["phase"] == "auction"
        and len(actions) > 1
        and all(a["type"] in SEARCHED_CALLS for a in actions)
    ):
        budget = (budget_ms if budget_ms is not None else budget_from_env()) / 1000.0
        default_call = SEARCH_DEFAULTS.get(view["game"]) if learned else None
        call = evaluate_calls(view, rng, heuristic, budget, samples, MAX_SAMPLES, default_call)
        return (call if call is not None else (default_call or heuristic)(view, rng)), None
    if learned and view["phase"] == "auction" and view["game"] in LEARNED_CALLS:
        return LEARNED_CALLS[view["game"]](view, rng), None
    if view["phase"] != "play" or not any(a["type"] == "play" for a in actions):
        return heuristic(view, rng), None
    if view.get("played") is None:
        finished_tricks(view)  # remember the last trick even when the choice is forced
    options = candidates(actions)
    if {"type": "claim"} in actions:
        pick = heuristic(view, rng)
        if pick["type"] == "claim":
            return pick, None
    if len(options) == 1:
        return next(iter(options.values())), None
    usual = heuristic(view, rng)
    keys: list[Any] | None = [] if explained else None  # the bots' own turns skip the count
    results, weights = evaluate_each(
        view, list(options.values()), rng, budget_ms, samples, exact, keys
    )
    means = {c: _mean(r, weights) for c, r in results.items()}
    best = max(options, key=lambda c: means[c])
    usual_card = usual.get("card") if usual.get("type") == "play" else None
    chosen = best
    if (
        usual_card in options
        and best != usual_card
        and not _clearly_better(results[best], results[usual_card], weights)
    ):
        chosen = str(usual_card)
    if keys is None:
        return options[chosen], None
    if chosen != usual_card and usual_card in options:
        other = str(usual_card)
    else:
        other = max((c for c in options if c != chosen), key=lambda c: means[c])
    return options[chosen], _explain(chosen, other, results, weights, keys)


def _explain(
    card: str,
    other: str,
    results: dict[str, list[float]],
    weights: list[float],
    keys: list[Any],
) -> Explanation:
    """``card`` against ``other`` on the same drawn deals (``results``: card -> result on
    each deal, ``weights``: each deal's weight, ``keys``: each deal's hidden cards). A
    layout of the hidden cards drawn more than once (late in a deal few are possible)
    counts once, by its mean difference; ``gain`` is the search's own weighted mean."""
    diffs = [a - b for a, b in zip(results[card], results[other], strict=True)]
    by_layout: dict[Any, list[float]] = {}
    for key, d in zip(keys, diffs, strict=True):
        by_layout.setdefault(key, []).append(d)
    layouts = [sum(ds) / len(ds) for ds in by_layout.values()]
    better = sum(1 for d in layouts if d >= SAME)
    worse = sum(1 for d in layouts if d <= -SAME)
    return Explanation(
        card=card,
        other=other,
        deals=len(layouts),
        better=better,
        same=len(layouts) - better - worse,
        worse=worse,
        gain=_mean(diffs, weights),
    )


#: A difference smaller than this is no difference to a player: the deal's points are
#: whole (halves with three players' means), and below them lies only the tie-break
#: hundredth of the card totals (``TIE_BREAK``), which the score does not show.
SAME = 0.5


#: How many standard errors the search's card must gain over the heuristic's card, on
#: the same drawn deals, to be played instead (few drawn deals are noisy: a small budget
#: then plays like the heuristic rather than worse; docs/benchmarks.md).
CONFIDENCE = 1.0


def _mean(values: list[float], weights: list[float]) -> float:
    total = sum(weights)
    return sum(w * v for w, v in zip(weights, values, strict=True)) / total if total else 0.0


def _clearly_better(best: list[float], usual: list[float], weights: list[float]) -> bool:
    """True when ``best`` beats ``usual`` (results on the same drawn deals, paired) by more
    than ``CONFIDENCE`` standard errors of the weighted mean difference."""
    gain = paired_gain(best, usual, weights)
    return gain is not None and gain[0] > CONFIDENCE * gain[1]


def evaluate_each(
    view: View,
    plays: list[Action],
    rng: random.Random,
    budget_ms: float | None = None,
    samples: int | None = None,
    exact: bool | None = None,
    keys: list[Any] | None = None,
) -> tuple[dict[str, list[float]], list[float]]:
    """``(card -> its result on each drawn deal, each deal's weight)``: the result of a
    play-out is the own side's deal points minus the other side's; every card is played
    on the same drawn deals, so that two cards can be compared deal by deal. In the games
    of ``AUCTION_WEIGHTS`` a deal weighs by its agreement with the auction
    (:mod:`app.bots.auction_model`), else 1. With ``exact`` (default: the game in ``EXACT_GAMES``) and at
    most :func:`exact_from` tricks left, the deal is played out by perfect play
    (:func:`_perfect_out`) instead of the heuristic. ``keys``: a list that gets, for each
    drawn deal, its layout of the hidden cards (each seat's cards, sorted), which tells
    a layout drawn twice."""
    g = GAMES[view["game"]]
    heuristic = heuristic_for(view["game"])
    seat = view["seat"]
    assert seat is not None  # the bot's own view
    tricks = finished_tricks(view)
    know = knowledge(view, tricks)
    limit = samples if samples is not None else MAX_SAMPLES
    budget = (budget_ms if budget_ms is not None else budget_from_env()) / 1000.0
    start = time.perf_counter()
    weigh = (
        auction_model(view, heuristic) if g.bot_family in AUCTION_WEIGHTS and know.pool else None
    )
    results: dict[str, list[float]] = {a["card"]: [] for a in plays}
    weights: list[float] = []
    left = g.deal_tricks(view["options"]) - view["trick_number"] + 1
    if exact is None:
        exact = view["game"] in EXACT_GAMES
    solved = exact and left <= exact_from(view["game"])
    # an exact deal is not cut by the loop's check below: the solver stops itself at the
    # budget (this thread's CPU clock), and the deal is then dropped
    deadline = time.thread_time() + budget if samples is None else None
    n = 0
    while n < limit:
        base = _draw(view, know, tricks, rng)
        try:
            values = _solved(g, base, plays, seat, heuristic, rng, deadline) if solved else None
        except OutOfTime:
            if n:
                break  # the deals drawn so far decide
            solved, values = False, None  # not even one: play-outs, as before the switch
        if keys is not None:  # which layout of the hidden cards this is (the hint's count)
            keys.append(tuple(tuple(sorted(h)) for h in _initial_hands(view, base)))
        weights.append(weigh.weight(_initial_hands(view, base), rng) if weigh is not None else 1.0)
        if values is None:
            solved = False  # the solver cannot start here (a declaration owed): play-outs
            values = [_play_out(g, g.apply(base, a), seat, heuristic, rng) for a in plays]
        for a, v in zip(plays, values, strict=True):
            results[a["card"]].append(v)
        n += 1
        if not know.pool:
            break  # nothing hidden: one deal tells all
        if samples is None:
            spent = time.perf_counter() - start
            if spent + spent / n > budget * 0.9:
                break
    return results, weights


def exact_from(game: str) -> int:
    """Tricks left (the one in play included) at or below which ``game``'s drawn deals are
    played out by perfect play (``EXACT_TRICKS``; 0: never)."""
    return EXACT_TRICKS.get(game, 0)


def _solved(
    g: TrickGame,
    base: State,
    plays: list[Action],
    seat: int,
    heuristic: Choose,
    rng: random.Random,
    deadline: float | None = None,
) -> list[float] | None:
    """Each play's result on the drawn position ``base`` when the deal is then played out
    by perfect play (:func:`_perfect_out`; one solve of ``base`` gives every card's exact
    value, and its transposition table serves the lines after), on the play-outs' scale;
    None when the solver cannot start (a declaration owed). ``deadline``: the first
    solve's (``time.thread_time()``), which raises :class:`OutOfTime` past it; the lines
    after it are not cut. With two sides, cards of the same exact value share one line:
    perfect play after either ends with the same points for each side, so the rules
    judge them alike (a capot, which no points show, aside: the line of the first such
    card decides)."""
    tt = Table()
    team = g.team_of(seat)
    try:
        values = solve_cards(base, team, tt, deadline)
        out = []
        # a line's judged result, by the card's exact value (two sides) or by the card (three
        # players: the other two may split their points otherwise)
        lines: dict[int | str, float] = {}
        for a in plays:
            key = values[a["card"]] if g.sides == 2 else a["card"]
            if key not in lines:
                after = g.apply(base, a)
                value = values[a["card"]]
                if len(after.tricks) > len(base.tricks):  # the card ended the trick
                    value -= trick_value(after, team)
                lines[key] = _perfect_out(g, after, value, seat, team, tt, heuristic, rng)
            out.append(lines[key])
        return out
    except ValueError:
        return None


def _perfect_out(
    g: TrickGame,
    state: State,
    value: int,
    seat: int,
    team: int,
    tt: Table,
    heuristic: Choose,
    rng: random.Random,
) -> float:
    """Play the deal out double dummy from ``state`` (every hand known), whose exact value
    for ``team`` is ``value`` (:mod:`app.bots.solver`: card points, last trick, Botifarra's
    trick points): each seat plays a card that keeps that value, so the ``team``'s players
    take the most points they can and the others let them take the fewest (three players:
    the other two together, "paranoid"); of such cards the heuristic's when it is one.
    The end is then scored by the game itself, on the play-outs' scale (:func:`_result`):
    the contract's judgement (made or failed, capot, doubling, rounding) is the rules',
    not the solver's raw points."""
    apply = g.apply
    while not needs_deal(state) and not is_over(state):
        mover = to_act(state)
        assert mover is not None  # neither dealing nor over
        options = candidates(g.legal_actions(state))
        if not options:
            raise ValueError("no card to play")  # a declaration (trick 1 only)
        if len(options) == 1:
            card = next(iter(options))
        else:
            usual = heuristic(brief_view(state, mover), rng).get("card")
            found = card_of_value(state, value, team, tt, usual)
            # ``value`` is the position's exact value, so a card keeps it; were none found,
            # the heuristic's card rather than a failed bot turn
            card = (
                found if found is not None else (usual if usual in options else next(iter(options)))
            )
        done = len(state.tricks)
        state = apply(state, options[card])
        if len(state.tricks) > done:
            value -= trick_value(state, team)
    return _result(g, state, seat)


def _initial_hands(view: View, state: State) -> list[list[str]]:
    """Each seat's cards when the play began in a drawn position: its cards in the finished
    tricks and its hand (``state.initial_hands``), plus its card on the table now."""
    out = [list(h) for h in state.initial_hands]
    for t in view["trick"]:
        out[t["seat"]].append(t["card"])
    return out


def _play_out(
    g: TrickGame, state: State, seat: int, heuristic: Choose, rng: random.Random
) -> float:
    """Play the deal out with ``heuristic`` in every seat; ``seat``'s side's points minus the
    other's (with three players each for himself, minus the mean of the other two's)."""
    apply = g.apply
    while not needs_deal(state) and not is_over(state):
        mover = to_act(state)
        assert mover is not None  # neither dealing nor over
        state = apply(state, heuristic(brief_view(state, mover), rng))
    return _result(g, state, seat)


def _result(g: TrickGame, state: State, seat: int) -> float:
    """A finished deal's result for ``seat``: its side's points minus the other's (three
    players: minus the mean of the other two's), plus ``TIE_BREAK`` times the same
    difference in the deal's totals."""
    points = deal_points(state) or [0] * g.sides
    totals = deal_totals(state) or [0] * g.sides
    team = g.team_of(seat)
    # the points decide; the totals only part results the points leave equal
    return margin(points, team) + TIE_BREAK * margin(totals, team)


def _draw(
    view: View, know: Knowledge, tricks: list[dict[str, Any] | None], rng: random.Random
) -> State:
    """A position of ``view`` with the hidden cards drawn at random within ``know``."""
    g = GAMES[view["game"]]
    assert view["hand"] is not None  # the bot's own view
    places = sample(know, rng)
    hands = [list(view["hand"]) if s == view["seat"] else places[s] for s in range(g.players)]
    full = _fill_unseen(g, view, tricks, places.get(STOCK, []))
    return position(view, hands, full, _declared(g, view, hands, full))


def _fill_unseen(
    g: TrickGame, view: View, tricks: list[dict[str, Any] | None], spare: list[str]
) -> list[dict[str, Any]]:
    """Tricks the seat did not see (Botifarra, a bot that took over mid-deal), made up from
    cards drawn for them, each won by a side that still has tricks to account for."""
    if all(t is not None for t in tricks):
        return list(tricks)  # type: ignore[arg-type]
    left = list(view["tricks_won"])
    for t in tricks:
        if t is not None:
            left[g.team_of(t["winner"])] -= 1
    spare = list(spare)
    out: list[dict[str, Any]] = []
    for t in tricks:
        if t is None:
            team = next((s for s, n in enumerate(left) if n > 0), len(left) - 1)
            left[team] -= 1
            cards = [(s, spare.pop() if spare else "") for s in range(g.players)]
            t = {"leader": 0, "cards": [(s, c) for s, c in cards if c], "winner": team}
        out.append(t)
    return out


def _declared(
    g: TrickGame, view: View, hands: list[list[str]], tricks: list[dict[str, Any]]
) -> list[list[dict[str, Any]] | None] | None:
    """Each seat's declaration for the position: as shown, or (only kinds public) a choice of
    its drawn hand with the same kinds; None for seats yet to declare."""
    if not g.declarations_allowed(view["contract"], view["options"]):
        return None
    out: list[list[dict[str, Any]] | None] = [None] * g.players
    played = [[c for t in tricks for s, c in t["cards"] if s == seat] for seat in range(g.players)]
    played_now = {t["seat"]: t["card"] for t in view["trick"]}
    for entry in view.get("declarations") or []:
        s = entry["seat"]
        combos = entry["combinations"]
        if entry.get("shown"):
            out[s] = [
                {k: v for k, v in c.items() if k in ("kind", "length", "top", "suit", "rank")}
                for c in combos
            ]
            continue
        want = sorted(repr(c) for c in combos)
        held = hands[s] + played[s] + ([played_now[s]] if s in played_now else [])
        match = [
            ch
            for ch in declare_choices(held, g.table, g.four_ranks)
            if sorted(repr(public_kind(c)) for c in ch) == want
        ]
        out[s] = match[0] if match else []
    if tricks:
        out = [[] if d is None else d for d in out]
    return out
