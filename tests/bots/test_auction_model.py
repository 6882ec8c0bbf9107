"""The auction weights of the strong bot's drawn deals (app/bots/auction_model.py): the
deck places reproduce a deal, a weight is in (0, 1], and where the whole hand is known
at the auction (Botifarra) the true deal always agrees with the heuristic's calls."""

import random

import pytest

from app.bots import choose, heuristic_for
from app.bots.auction_model import MISMATCH, model
from app.bots.memory import finished_tricks, forget
from app.bots.sampler import knowledge
from app.bots.strong import _draw, _initial_hands
from app.rules import GAMES, apply, legal_actions, new_deck, new_game, observe, to_act

GAMES_WITH_AUCTION = ["bolot", "belote", "bridge-belote", "botifarra", "contree"]


def first_plays(game, seeds):
    """(state, view) at the first card of trick 2 of heuristic deals, one per seed."""
    for seed in seeds:
        forget()
        rng = random.Random(seed)
        state = new_game(game, {}, dealer=seed % GAMES[game].players)
        state = apply(state, {"type": "deal", "deck": new_deck(game, rng)})
        while state.phase not in ("deal", "over"):
            seat = to_act(state)
            view = observe(state, seat)
            if state.phase == "play" and view["trick_number"] == 2 and not view["trick"]:
                yield state, view
                break
            state = apply(state, choose("heuristic", view, rng))


@pytest.mark.parametrize("game", GAMES_WITH_AUCTION)
def test_the_deck_places_deal_the_true_hands_again(game):
    built = 0
    for state, view in first_plays(game, range(12)):
        m = model(view, heuristic_for(game))
        if m is None:
            continue
        built += 1
        deck = m.deck_for(state.initial_hands, random.Random(1))
        again = apply(new_game(game, {}, view["dealer"]), {"type": "deal", "deck": deck})
        for entry in view["auction"]:
            action = next(
                a for a in legal_actions(again) if all(entry.get(k) == v for k, v in a.items())
            )
            again = apply(again, action)
        assert [sorted(h) for h in again.initial_hands] == [sorted(h) for h in state.initial_hands]
    assert built >= 3


@pytest.mark.parametrize("game", GAMES_WITH_AUCTION)
def test_weights_of_drawn_deals_are_between_zero_and_one(game):
    rng = random.Random(2)
    seen = set()
    for _state, view in first_plays(game, range(12)):
        m = model(view, heuristic_for(game))
        if m is None:
            continue
        tricks = finished_tricks(view)
        know = knowledge(view, tricks)
        for _ in range(10):
            w = m.weight(_initial_hands(view, _draw(view, know, tricks, rng)), rng)
            assert 0 < w <= 1
            seen.add(w)
    assert seen and min(seen) >= MISMATCH**8


def test_botifarra_true_deal_agrees_with_the_choice_and_drawn_deals_often_do_not():
    rng = random.Random(3)
    drawn = []
    for state, view in first_plays("botifarra", range(8)):
        m = model(view, heuristic_for("botifarra"))
        assert m is not None
        assert m.weight([list(h) for h in state.initial_hands], rng) == 1.0
        tricks = finished_tricks(view)
        know = knowledge(view, tricks)
        drawn += [
            m.weight(_initial_hands(view, _draw(view, know, tricks, rng)), rng) for _ in range(5)
        ]
    assert sum(w < 1 for w in drawn) >= len(drawn) // 4  # the choice tells something of the hands
