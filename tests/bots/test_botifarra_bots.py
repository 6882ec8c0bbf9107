"""The Botifarra heuristic bot: always legal (both variants), sensible choices, beats random."""

import random

import pytest

from app.bots import choose
from app.bots.botifarra import botifarra_strength, decide, trump_strength
from app.rules import apply, is_over, legal_actions, needs_deal, new_deck, new_game, observe, to_act

OPTION_SETS = [
    {},
    {"variant": "eastern"},
    {"variant": "eastern", "eastern_extended_exception": True, "doubling_scale": "2-3-4"},
    {"sant_vicenc_on_botifarra": False, "target": 51},
]


def play_match(levels, seed, options=None, check=True):
    """One match; ``levels[seat % 2]`` plays each seat. Checks every heuristic decision is legal."""
    rng = random.Random(seed)
    state = new_game("botifarra", options or {}, dealer=rng.randrange(4))
    while not is_over(state):
        if needs_deal(state):
            state = apply(state, {"type": "deal", "deck": new_deck("botifarra", rng)})
            continue
        seat = to_act(state)
        view = observe(state, seat)
        if levels[seat % 2] == "heuristic" and check:
            action = decide(view, rng)
        else:
            action = choose(levels[seat % 2], view, rng)
        assert action in legal_actions(state), (action, view["trick"], view["hand"])
        state = apply(state, action)
    return state


@pytest.mark.parametrize("options", OPTION_SETS)
def test_heuristic_decisions_are_always_legal(options):
    for seed in range(4):
        state = play_match(["heuristic", "heuristic"], seed, options)
        assert is_over(state)


def test_heuristic_against_random_finishes_with_legal_actions():
    for seed in range(4):
        assert play_match(["heuristic", "random"], 50 + seed).winner in (0, 1)


@pytest.mark.parametrize("options", [{}, {"variant": "eastern"}])
def test_heuristic_beats_random(options):
    # 20 matches to 101, seats swapped every other match.
    # Measured over 200 matches: 197/200 western, 191/200 eastern.
    wins = 0
    for seed in range(20):
        levels = ["heuristic", "random"] if seed % 2 == 0 else ["random", "heuristic"]
        wins += play_match(levels, 2000 + seed, options, check=False).winner == seed % 2
    assert wins >= 16


def _choice_view(hand, delegated=False):
    actions = [{"type": "trump", "suit": s} for s in "oceb"] + [{"type": "botifarra"}]
    if not delegated:
        actions.append({"type": "delegate"})
    return {
        "game": "botifarra",
        "hand": hand,
        "legal_actions": actions,
        "contract": None,
        "trick": [],
    }


def test_long_strong_suit_is_named_trumps():
    hand = ["9c", "1c", "12c", "11c", "8c", "5c", "9o", "3o", "2e", "4e", "6b", "7b"]
    assert decide(_choice_view(hand), random.Random(0)) == {"type": "trump", "suit": "c"}


def test_weak_hand_delegates_and_partner_cannot():
    hand = ["2o", "3o", "4c", "5c", "6c", "7e", "8e", "3e", "10b", "2b", "4b", "5b"]
    assert decide(_choice_view(hand), random.Random(0)) == {"type": "delegate"}
    choice = decide(_choice_view(hand, delegated=True), random.Random(0))
    assert choice["type"] == "trump"


def test_manilles_with_their_aces_make_botifarra():
    hand = ["9o", "1o", "12o", "9c", "1c", "9e", "1e", "3e", "9b", "2b", "4b", "5b"]
    assert botifarra_strength(hand) >= 11
    assert decide(_choice_view(hand), random.Random(0)) == {"type": "botifarra"}


def test_strength_measures_prefer_trump_length():
    hand = ["9c", "1c", "12c", "11c", "8c", "5c", "9o", "3o", "2e", "4e", "6b", "7b"]
    assert trump_strength(hand, "c") > trump_strength(hand, "o") > trump_strength(hand, "b")


def test_doubling_is_rare():
    """Over 600 random hands a defender doubles in well under one hand in six."""
    rng = random.Random(7)
    doubles = hands = 0
    for _ in range(600):
        s = new_game("botifarra", {}, dealer=0)
        s = apply(s, {"type": "deal", "deck": new_deck("botifarra", rng)})
        while s.phase == "auction":
            action = decide(observe(s, to_act(s)), rng)
            doubles += action["type"] == "double"
            s = apply(s, action)
        hands += 1
    assert 0 < doubles < hands / 6
