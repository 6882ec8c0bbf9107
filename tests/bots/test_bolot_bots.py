"""Bots choose only legal actions, from their seat's view, and the heuristic beats random."""

import random

from app.bots import choose
from app.rules import apply, is_over, legal_actions, needs_deal, new_deck, new_game, observe, to_act


def play_match(levels, seed, game="bolot"):
    rng = random.Random(seed)
    state = new_game(game, {"target": 1000}, dealer=rng.randrange(4))
    while not is_over(state):
        if needs_deal(state):
            state = apply(state, {"type": "deal", "deck": new_deck(game, rng)})
            continue
        seat = to_act(state)
        view = observe(state, seat)
        action = choose(levels[seat % 2], view, rng)
        assert action in legal_actions(state)
        state = apply(state, action)
    return state


def test_heuristic_and_random_bots_finish_matches_with_legal_actions():
    for seed in range(6):
        state = play_match(["heuristic", "random"], seed)
        assert state.winner in (0, 1)


def test_heuristic_beats_random_most_of_the_time():
    # 20 matches, seats swapped every other match; measured 40/40 over 40 matches.
    wins = 0
    for seed in range(20):
        levels = ["heuristic", "random"] if seed % 2 == 0 else ["random", "heuristic"]
        state = play_match(levels, 1000 + seed)
        wins += state.winner == seed % 2
    assert wins >= 15
