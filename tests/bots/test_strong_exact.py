"""The strong bot's exact endgame (``strong.exact_from``): near the deal's end each drawn
deal is played out by perfect play (app/bots/solver.py) and scored by the game's rules."""

import random

import pytest

from app.bots import ARENA_NAMES, choose, strong
from app.bots.heuristic import heuristic_for
from app.bots.memory import forget
from app.rules import (
    GAMES,
    apply,
    is_over,
    legal_actions,
    needs_deal,
    new_deck,
    new_game,
    observe,
    to_act,
)
from app.rules.state import State

ALL_GAMES = ["bolot", "belote", "belote-2p", "belote-3p", "bridge-belote", "botifarra", "contree"]


def seven_or_jack() -> State:
    """Belote, hearts trumps, seat 0 (team 0) took. Trick 7: seat 1 leads the ace of
    spades, 7 and 8 of spades follow; seat 0, void in spades, holds the jack (20, the
    highest trump) and the 7 of trumps, and must trump. Unseen by seat 0: 9 and queen of
    hearts and king of spades, one card each in seats 1, 2, 3.

    Worked out by hand (rules/belote.md §2, §7): team 0 has 46 card points, team 1 has 54.
    The 7 wins trick 7 (11) and keeps the jack, which wins trick 8 whatever is led to it
    (41 and the last trick's 10): 46 + 62 = 108 against 54, the contract made. The jack
    wins trick 7 (31), but then the 7 is led to the last trick and any trump beats it:
    when an opponent holds the 9 (two deals in three) team 1 takes trick 8 (21 + 10),
    77 against 85: the contract fails and team 1 scores everything. The 7 is right."""
    g = GAMES["belote"]
    tricks = [
        (0, ["7C", "8C", "9C", "TC"], 3),
        (3, ["7D", "8D", "9D", "AD"], 2),
        (2, ["JC", "QC", "AC", "KC"], 0),
        (0, ["KD", "TD", "JD", "QD"], 1),
        (1, ["9S", "TS", "JS", "QS"], 2),
        (2, ["8H", "KH", "TH", "AH"], 1),
    ]
    hands = [["JH", "7H"], ["QH"], ["KS"], ["9H"]]
    trick = [(1, "AS"), (2, "7S"), (3, "8S")]
    state = State(game="belote", options=g.validate_options({}), players=4, dealer=3)
    state.phase, state.seq, state.deal_no, state.to_act = "play", 40, 1, 0
    state.contract = {"trump": "H", "taker": 0, "taker_team": 0, "round": 1, "turned": "TH"}
    state.auction = [{"seat": 0, "type": "take"}]
    state.declared = [[], [], [], []]
    state.tricks = [
        {"leader": lead, "cards": [((lead + i) % 4, c) for i, c in enumerate(cards)], "winner": w}
        for lead, cards, w in tricks
    ]
    state.won = [[], []]
    state.tricks_won = [0, 0]
    for t in state.tricks:
        state.won[g.team_of(t["winner"])].extend(c for _, c in t["cards"])
        state.tricks_won[g.team_of(t["winner"])] += 1
    state.hands = [list(h) for h in hands]
    state.trick = trick
    state.leader = 1
    played = [[c for t in state.tricks for s, c in t["cards"] if s == seat] for seat in range(4)]
    state.initial_hands = [played[s] + hands[s] + [c for t, c in trick if t == s] for s in range(4)]
    return state


def test_the_hand_made_position_is_what_its_docstring_says():
    state = seven_or_jack()
    assert sorted(a["card"] for a in legal_actions(state)) == ["7H", "JH"]
    g = GAMES["belote"]
    points = g.points_table("H")
    assert [sum(points[c] for c in cards) for cards in state.won] == [46, 54]
    for card, made in (("7H", True), ("JH", False)):
        s = apply(state, {"type": "play", "card": card})
        while not needs_deal(s):  # the true deal: seat 3 (an opponent) holds the 9
            s = apply(s, legal_actions(s)[0])
        assert (s.sheet[-1]["points"][0] > 0) is made


def test_exact_endgame_plays_the_seven_and_its_values_are_honest():
    state = seven_or_jack()
    view = observe(state, 0)
    assert strong.exact_from("belote") >= 2
    plays = [{"type": "play", "card": "7H"}, {"type": "play", "card": "JH"}]
    results, _ = strong.evaluate_each(view, plays, random.Random(3), samples=30, exact=True)
    seven, jack = results["7H"], results["JH"]
    # the 7 makes the contract on every drawn deal; the jack fails it whenever an
    # opponent holds the 9 (and the failed contract's points are the rules', not the
    # solver's raw card points: a swing of far more than the 31 card points)
    assert all(s >= j for s, j in zip(seven, jack, strict=True))
    assert min(seven) > 0
    assert sum(j < -100 for j in jack) >= 10
    assert sum(s - j > 150 for s, j in zip(seven, jack, strict=True)) >= 10
    pick = strong.choose(view, random.Random(3), samples=30, exact=True)
    assert pick["card"] == "7H"


def test_the_exact_path_is_used_from_the_switch_point_on(monkeypatch):
    calls = []
    real = strong._solved

    def spy(g, base, plays, seat, heuristic, rng, deadline=None):
        calls.append(g.deal_tricks(base.options) - len(base.tricks))
        return real(g, base, plays, seat, heuristic, rng, deadline)

    monkeypatch.setattr(strong, "_solved", spy)
    monkeypatch.setitem(strong.EXACT_TRICKS, "bolot", 3)
    monkeypatch.setattr(strong, "EXACT_GAMES", frozenset({"bolot"}))  # None: as True
    lefts = set()
    for exact in (True, False, None):
        forget()
        rng = random.Random(8)
        state = new_game("bolot", {}, dealer=0)
        state = apply(state, {"type": "deal", "deck": new_deck("bolot", rng)})
        while not needs_deal(state) and not is_over(state):
            seat = to_act(state)
            view = observe(state, seat)
            before = len(calls)
            action = strong.choose(view, rng, samples=2, exact=exact)
            if state.phase == "play" and len(strong.candidates(view["legal_actions"])) > 1:
                left = GAMES["bolot"].deal_tricks(state.options) - len(state.tricks)
                used = exact is not False and left <= 3
                assert (len(calls) > before) == used, (exact, left)
                lefts.add((exact is not False, left))
            state = apply(state, action)
    assert {(True, 3), (True, 2)} & lefts
    assert {(True, 5), (True, 4)} & lefts
    assert any(not e for e, _ in lefts)


def _minimax(g, state, seat, top):
    """The exact judged result for ``seat`` (its side's deal points minus the other's,
    plus the tie-break on the totals, as strong._result) by a plain minimax over the
    engine's legal_actions/apply, every seat's side maximising its own result."""
    if needs_deal(state) or is_over(state):
        return strong._result(g, state, seat)
    mover = to_act(state)
    values = [
        _minimax(g, apply(state, a), seat, False)
        for a in strong.candidates(legal_actions(state)).values()
    ]
    return max(values) if g.team_of(mover) == g.team_of(seat) else min(values)


@pytest.mark.parametrize("game", [g for g in ALL_GAMES if g != "belote-3p"])
def test_perfect_play_out_equals_a_plain_minimax_of_the_judged_score(game):
    """Near the end, on the true deal, each card's exact result (perfect play, then the
    game's scoring) equals a minimax of the game's own judged score: the judgement is a
    non-decreasing function of the side's points, so playing for points is playing for
    the score."""
    g = GAMES[game]
    heuristic = heuristic_for(game)
    checked = 0
    for seed in range(12):
        forget()
        rng = random.Random(seed)
        state = new_game(game, {}, dealer=seed % g.players)
        state = apply(state, {"type": "deal", "deck": new_deck(game, rng)})
        while not needs_deal(state) and not is_over(state):
            left = g.deal_tricks(state.options) - len(state.tricks)
            seat = to_act(state)
            options = strong.candidates(legal_actions(state))
            if state.phase == "play" and left <= 2 and len(options) > 1:
                plays = list(options.values())
                got = strong._solved(g, state, plays, seat, heuristic, rng)
                assert got is not None
                want = [_minimax(g, apply(state, a), seat, True) for a in plays]
                assert got == pytest.approx(want), (game, seed, plays)
                checked += 1
                break
            state = apply(state, choose("heuristic", observe(state, seat), rng))
        if checked >= 3:
            break
    assert checked >= 1


@pytest.mark.parametrize("game", ALL_GAMES)
def test_strong_dd_plays_legal_actions_through_a_deal(game, monkeypatch):
    monkeypatch.setenv("TAPET_BOT_BUDGET_MS", "3")
    assert {"strong-dd", "strong-po"} <= set(ARENA_NAMES)
    forget()
    rng = random.Random(5)
    state = new_game(game, {}, dealer=0)
    state = apply(state, {"type": "deal", "deck": new_deck(game, rng)})
    while not needs_deal(state) and not is_over(state):
        seat = to_act(state)
        level = "strong-dd" if seat % 2 == 0 else "strong-po"
        action = choose(level, observe(state, seat), rng)
        assert action in legal_actions(state)
        state = apply(state, action)


def test_the_explanation_is_the_searchs_own_comparison_worked_out_by_hand():
    """seven_or_jack's two lines, scored by the rules (rules/belote.md §7) with the
    tie-break hundredth of the card points: the 7 makes the contract whoever holds the 9
    of hearts, 108 against 54: 54 + 0.54 = 54.54. The jack makes it the same way when the
    partner (seat 2) holds the 9; when an opponent holds it the jack's line fails, 77
    against 85, and the other side scores the whole 162: -162 + (77 - 85) / 100 = -162.08.
    So the 7 does better by 216.62 on the deals where an opponent holds the 9 and the same
    on the others, never worse. The three hidden cards, one to each other seat, lie in 3!
    = 6 ways: the 9 with an opponent in 4 of them, with the partner in 2; 30 draws meet
    each of the six (these draws do), and each counts once."""
    view = observe(seven_or_jack(), 0)
    action, e = strong.choose_explained(view, random.Random(3), samples=30, exact=True)
    assert action == {"type": "play", "card": "7H"}
    assert e is not None
    assert (e.card, e.other, e.deals) == ("7H", "JH", 6)
    assert (e.better, e.same, e.worse) == (4, 2, 0)
    # the gain is the search's own mean over its 30 draws: the 9 was with an opponent in 20
    assert e.gain == pytest.approx(216.62 * 20 / 30)
    # the same numbers as the search's own results, deal by deal
    plays = [{"type": "play", "card": "7H"}, {"type": "play", "card": "JH"}]
    results, _ = strong.evaluate_each(view, plays, random.Random(3), samples=30, exact=True)
    diffs = [s - j for s, j in zip(results["7H"], results["JH"], strict=True)]
    assert sorted({round(d, 2) for d in diffs}) == [0.0, 216.62]
    assert sum(d > 0 for d in diffs) == 20  # draws; the explanation counts layouts


def test_a_solve_past_the_budget_is_dropped_and_never_loses_the_turn(monkeypatch):
    """The solver stops itself at the decision's budget (``OutOfTime``): a drawn deal cut
    short is not counted; if it was the first, the deal is played out by the heuristic."""
    from app.bots.solver import OutOfTime

    real = strong.solve_cards
    calls = []

    def slow_after(first_ok):
        def solve(state, side, tt, deadline=None):
            calls.append(deadline)
            if len(calls) > first_ok:
                raise OutOfTime
            return real(state, side, tt, deadline)

        return solve

    rng = random.Random(4)
    state = new_game("bolot", {}, dealer=0)
    state = apply(state, {"type": "deal", "deck": new_deck("bolot", rng)})
    while not (
        state.phase == "play"
        and GAMES["bolot"].deal_tricks(state.options) - len(state.tricks) <= 3
        and len(strong.candidates(legal_actions(state))) > 1
    ):
        state = apply(state, choose("heuristic", observe(state, to_act(state)), rng))
    view = observe(state, to_act(state))
    legal = [a["card"] for a in view["legal_actions"] if a["type"] == "play"]
    plays = list(strong.candidates(view["legal_actions"]).values())
    # the first deal's solve in time, the second's cut short: the first alone decides
    monkeypatch.setattr(strong, "solve_cards", slow_after(1))
    results, _ = strong.evaluate_each(view, plays, random.Random(1), 5000.0, None, True)
    assert {len(v) for v in results.values()} == {1} and set(results) <= set(legal)
    assert len(calls) == 2 and all(d is not None for d in calls)
    # not even the first in time: that deal and the next are played out by the heuristic
    forget()
    calls.clear()
    monkeypatch.setattr(strong, "solve_cards", slow_after(0))
    results, _ = strong.evaluate_each(view, plays, random.Random(1), 30.0, None, True)
    assert min(len(v) for v in results.values()) >= 1 and len(calls) == 1
