"""The double-dummy solver (app/bots/solver.py) against the engine itself.

* its legal-card generator equals the engine's ``legal_actions`` (and its trick winner the
  engine's) at every card of random deals of every game and variant;
* every legal card's value equals a plain minimax written here over the engine's
  ``legal_actions``/``apply`` only, on random endings (the last 3 or 4 tricks, some
  with cards already on the table) of every game, for every side;
* the position's value is the best (or worst, for the other side) of its cards' values.

The brute force counts the value as the solver's docstring defines it, from what the
engine records: the card points (the engine's ``points_table``) of the cards each side
takes after the position (``State.won``), 10 for the deal's last trick (1 a trick in
Botifarra instead).
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from app.bots import solver
from app.rules import GAMES, State, apply, legal_actions, new_deck, new_game

#: (game, options): every game, and the options that change the play (§6 of each rules file).
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("bolot", {}),
    ("belote", {}),
    ("belote", {"must_undertrump": False}),
    ("belote-2p", {}),
    ("belote-3p", {}),
    ("belote-3p", {"deal": "32", "must_undertrump": False}),
    ("bridge-belote", {}),
    ("contree", {}),
    ("contree", {"preset": "coinche"}),
    ("botifarra", {}),
    ("botifarra", {"variant": "eastern"}),
    ("botifarra", {"variant": "eastern", "eastern_extended_exception": True}),
]
IDS = [f"{g}{'-' + '-'.join(f'{k}={v}' for k, v in o.items()) if o else ''}" for g, o in CONFIGS]


@pytest.fixture(params=["compiled", "python"])
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test that takes it runs with the compiled search (app/bots/solver_jit.py) and
    with the pure-Python fallback."""
    monkeypatch.setenv(solver.SOLVER_ENV, request.param)
    assert solver.backend() == request.param
    return str(request.param)


def test_every_game_is_covered() -> None:
    assert {g for g, _ in CONFIGS} == set(GAMES)


def _deal(game: str, options: dict[str, Any], rng: random.Random) -> State:
    """A new deal of ``game``, through its auction at random to the play (void deals dealt
    again); a pass one time in two where there is one, so that low contracts are played
    too (random bids climb to All Trumps)."""
    g = GAMES[game]
    while True:
        state = new_game(game, options, dealer=rng.randrange(g.players))
        state = apply(state, {"type": "deal", "deck": new_deck(game, rng, state.options)})
        while state.phase == "auction":
            actions = legal_actions(state)
            passes = [a for a in actions if a["type"] == "pass"]
            state = apply(state, rng.choice(passes if passes and rng.random() < 0.5 else actions))
        if state.phase == "play":
            return state


def _cards(actions: list[dict[str, Any]]) -> set[str]:
    return {a["card"] for a in actions if a["type"] == "play"}


def _random_card(state: State, rng: random.Random) -> State:
    """The state after a random legal action of the play (declarations included, no claim)."""
    actions = [a for a in legal_actions(state) if a["type"] != "claim"]
    return apply(state, rng.choice(actions))


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_legal_cards_and_winners_equal_the_engines(game: str, options: dict[str, Any]) -> None:
    rng = random.Random(f"legal-{game}-{options}")
    g = GAMES[game]
    contracts: set[Any] = set()
    positions = 0
    for _ in range(40):
        state = _deal(game, options, rng)
        contracts.add(g.trump(state.contract))
        while state.phase == "play":
            seat = state.to_act
            assert seat is not None
            if not (not state.tricks and g.must_declare(state, seat)):
                pos = solver.position(state)
                assert pos.to_act == seat
                mine = set(pos.rules.codes(pos.legal()))
                assert mine == _cards(legal_actions(state)), (state.hands[seat], state.trick)
                positions += 1
            state = _random_card(state, rng)
        r = solver.rules_for(game, state.options, state.sheet[-1]["contract"])
        for t in state.sheet[-1]["tricks"]:
            cards = [r.index[c] for _, c in t["cards"]]
            w = 0
            for i in range(1, len(cards)):
                if r.beats(cards[i], cards[w]):
                    w = i
            assert t["cards"][w][0] == t["winner"]
    assert positions > 40 * 16
    if game == "bridge-belote":  # suit, No Trumps (None) and All Trumps were all played
        assert {None, "AT"} <= contracts and contracts & set("SHDC")
    if game == "botifarra":
        assert None in contracts and contracts & set("oceb")


def _ending(game: str, options: dict[str, Any], left: int, rng: random.Random) -> State:
    """A random position with ``left`` tricks to play, the one in play included, and 0 to
    ``players - 1`` of its cards already on the table."""
    g = GAMES[game]
    state = _deal(game, options, rng)
    tricks = g.deal_tricks(state.options)
    on_table = rng.randrange(g.players)
    while len(state.tricks) < tricks - left or len(state.trick) < on_table:
        state = _random_card(state, rng)
    return state


def _value(start: State, end: State, side: int) -> int:
    """What ``side`` took from ``start`` to ``end`` (the end of the deal), counted from the
    engine's records: the card points won, 10 for the last trick (rules/*.md §7), or in
    Botifarra 1 a trick (rules/botifarra.md §7)."""
    g = GAMES[start.game]
    points = g.points_table(g.trump(start.contract))
    won = end.won[side][len(start.won[side]) :]
    total = sum(points[c] for c in won)
    if start.game == "botifarra":
        return total + end.tricks_won[side] - start.tricks_won[side]
    if g.team_of(end.tricks[-1]["winner"]) == side:
        total += 10
    return total


def _brute(start: State, state: State, side: int) -> int:
    """Plain minimax over the engine's legal actions: ``side``'s points to the end."""
    if state.phase != "play":
        return _value(start, state, side)
    g = GAMES[state.game]
    seat = state.to_act
    assert seat is not None
    # one action a card: the belote's announced form changes no value (checked at the root)
    plays = {a["card"]: a for a in legal_actions(state) if a["type"] == "play"}
    values = [_brute(start, apply(state, a), side) for a in plays.values()]
    return max(values) if g.team_of(seat) == side else min(values)


def _brute_cards(state: State, side: int) -> dict[str, int]:
    """card -> its value by :func:`_brute`; both forms of a card (with and without the
    belote announced) must give the same."""
    out: dict[str, int] = {}
    for a in legal_actions(state):
        if a["type"] != "play":
            continue
        v = _brute(state, apply(state, a), side)
        assert out.setdefault(a["card"], v) == v, "the belote flag changed a value"
    return out


def _check_ending(game: str, options: dict[str, Any], left: int, seed: str) -> None:
    rng = random.Random(seed)
    state = _ending(game, options, left, rng)
    g = GAMES[game]
    seat = state.to_act
    assert seat is not None
    for side in range(g.sides):
        cards = solver.solve_cards(state, side)
        assert cards == _brute_cards(state, side), (side, state.hands, state.trick)
        best = max(cards.values()) if g.team_of(seat) == side else min(cards.values())
        assert solver.solve(state, side) == best
    assert solver.solve_cards(state) == solver.solve_cards(state, g.team_of(seat))


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_three_trick_endings_equal_brute_force(
    game: str, options: dict[str, Any], backend: str
) -> None:
    for i in range(10):
        _check_ending(game, options, 3, f"3-{game}-{options}-{i}")


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_four_trick_endings_equal_brute_force(
    game: str, options: dict[str, Any], backend: str
) -> None:
    for i in range(2):
        _check_ending(game, options, 4, f"4-{game}-{options}-{i}")


@pytest.mark.slow
@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_many_endings_equal_brute_force(game: str, options: dict[str, Any]) -> None:
    """The compiled search, the default, on many more endings (the fallback is held to the
    brute force by the fast tests above and to the compiled search below)."""
    assert solver.backend() == "compiled"
    for i in range(40):
        _check_ending(game, options, 3 + i % 2, f"slow-{game}-{options}-{i}")


def test_refuses_a_position_that_is_not_play_or_owes_a_declaration() -> None:
    rng = random.Random(5)
    state = new_game("belote")
    with pytest.raises(ValueError):
        solver.solve(state)
    state = _deal("belote", {}, rng)
    assert legal_actions(state)[0]["type"] == "declare"
    with pytest.raises(ValueError):
        solver.solve_cards(state)
    # once the player to act has declared, the cards are solved (the others' declarations
    # in trick 1 change no card's value)
    state = apply(state, legal_actions(state)[0])
    state = _random_card(state, rng)
    assert state.to_act is not None and legal_actions(state)[0]["type"] == "declare"
    with pytest.raises(ValueError):
        solver.solve(state)
    with pytest.raises(ValueError):
        solver.solve(_ending("belote", {}, 3, rng), side=2)


def test_a_whole_deal_from_trick_two_is_consistent() -> None:
    """From trick 2 of a Belote deal (too big for the brute force): the value is the best
    card's, and the two sides' values add up to everything left (a constant sum)."""
    rng = random.Random(11)
    state = _deal("belote", {}, rng)
    while len(state.tricks) < 1:
        state = _random_card(state, rng)
    seat = state.to_act
    assert seat is not None
    team = seat % 2
    mine, theirs = solver.solve(state, team), solver.solve(state, 1 - team)
    cards = solver.solve_cards(state)
    assert mine == max(cards.values())
    g = GAMES["belote"]
    points = g.points_table(g.trump(state.contract))
    left = sum(points[c] for h in state.hands for c in h) + 10
    assert mine + theirs == left


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_card_of_value_and_a_shared_table_follow_a_perfect_line(
    game: str, options: dict[str, Any], backend: str
) -> None:
    """Down a whole line of perfect play from 4 tricks left, one transposition table
    shared: ``card_of_value`` finds a card of the position's value (and only such a
    card), ``trick_value`` keeps the value in step as tricks end, and the shared table
    changes no value (each step checked against a fresh solve)."""
    for i in range(2):
        rng = random.Random(f"line-{game}-{options}-{i}")
        state = _ending(game, options, 4, rng)
        g = GAMES[game]
        side = g.team_of(state.to_act or 0)
        tt = solver.Table()
        value = solver.solve(state, side)
        while state.phase == "play":
            cards = solver.solve_cards(state, side, tt)
            assert cards == solver.solve_cards(state, side)
            mover = state.to_act
            assert mover is not None
            best = max(cards.values()) if g.team_of(mover) == side else min(cards.values())
            assert best == value
            first = rng.choice(sorted(cards))
            card = solver.card_of_value(state, value, side, tt, first)
            assert card is not None and cards[card] == value
            assert (card == first) == (cards[first] == value)
            beyond = value + 1000 if g.team_of(mover) == side else value - 1000
            assert solver.card_of_value(state, beyond, side, tt) is None
            done = len(state.tricks)
            state = apply(state, {"type": "play", "card": card})
            if len(state.tricks) > done:
                value -= solver.trick_value(state, side)
        assert value == 0


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_the_compiled_search_gives_the_fallbacks_values_on_longer_endings(
    game: str, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Beyond the brute force's reach (5 and 6 tricks left, cards on the table or not),
    the compiled search and the pure-Python one give every card the same value, for
    every side; the fallback is the one checked against the brute force above."""
    g = GAMES[game]
    for i in range(3):
        state = _ending(game, options, 5 + i % 2, random.Random(f"long-{game}-{options}-{i}"))
        for side in range(g.sides):
            monkeypatch.setenv(solver.SOLVER_ENV, "python")
            fallback = solver.solve_cards(state, side)
            monkeypatch.setenv(solver.SOLVER_ENV, "compiled")
            assert solver.solve_cards(state, side) == fallback, (side, state.hands)


def test_numba_is_there_so_the_compiled_search_is_the_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(solver.SOLVER_ENV, raising=False)
    assert solver.backend() == "compiled"
    monkeypatch.setenv(solver.SOLVER_ENV, "python")
    assert solver.backend() == "python"


def test_a_deadline_already_passed_stops_a_whole_deal_solve(backend: str) -> None:
    """A whole Belote deal from its second trick takes many trick starts: with a deadline
    already passed, both searches stop at their first check and raise OutOfTime."""
    rng = random.Random(11)
    state = _deal("belote", {}, rng)
    while len(state.tricks) < 1:
        state = _random_card(state, rng)
    with pytest.raises(solver.OutOfTime):
        solver.solve_cards(state, None, solver.Table(), time.thread_time())
