"""The strong bot: legal in every game, its sampler never excludes the true deal, and its
choice depends on its view only (never on the hidden cards)."""

import random

import pytest

from app.bots import BOT_NAMES, choose, strong
from app.bots.memory import finished_tricks, forget
from app.bots.sampler import STOCK, consistent, knowledge, sample
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

ALL_GAMES = ["bolot", "belote", "belote-2p", "belote-3p", "bridge-belote", "botifarra", "contree"]


def deals(game, seed, n_deals=2):
    """States of ``n_deals`` heuristic deals, one per action (the bots' views are taken as played)."""
    forget()
    rng = random.Random(seed)
    state = new_game(game, {}, dealer=seed % GAMES[game].players)
    played = 0
    while not is_over(state):
        if needs_deal(state):
            if played == n_deals:
                return
            played += 1
            state = apply(state, {"type": "deal", "deck": new_deck(game, rng)})
            continue
        yield state
        seat = to_act(state)
        state = apply(state, choose("heuristic", observe(state, seat), rng))


def true_places(state, seat, know):
    g = GAMES[state.game]
    places = {s: list(state.hands[s]) for s in range(g.players) if s != seat}
    if STOCK in know.places:
        places[STOCK] = list(state.stock)
    return places


@pytest.mark.parametrize("game", ALL_GAMES)
def test_the_true_deal_is_always_inside_the_samplers_knowledge(game):
    checked = 0
    for seed in range(3):
        for state in deals(game, seed):
            if state.phase != "play":
                continue
            seat = to_act(state)
            view = observe(state, seat)
            know = knowledge(view, finished_tricks(view))
            assert consistent(know, true_places(state, seat, know)), (game, seed, state.seq)
            drawn = sample(know, random.Random(state.seq))
            assert sorted(c for p in know.places for c in drawn[p]) == sorted(
                c for p in know.places for c in true_places(state, seat, know)[p]
            )
            checked += 1
    assert checked > 20


def test_botifarra_memory_rebuilds_the_face_down_tricks():
    for state in deals("botifarra", 4, n_deals=1):
        if state.phase != "play":
            continue
        view = observe(state, to_act(state))
        assert view["played"] is None  # face down (rules/botifarra.md), the bot remembers
        tricks = finished_tricks(view)
        assert [t["cards"] for t in tricks] == [t["cards"] for t in state.tricks]


@pytest.mark.parametrize("game", ALL_GAMES)
def test_strong_choice_depends_on_the_view_only(game):
    """Reshuffle the hidden cards consistently with the view: same view, same decision."""
    compared = 0
    for state in deals(game, 7, n_deals=4):
        if state.phase != "play" or len(legal_actions(state)) < 2 or state.seq % 3:
            continue
        seat = to_act(state)
        view = observe(state, seat)
        know = knowledge(view, finished_tricks(view))
        other = state.clone()
        drawn = sample(know, random.Random(state.seq + 1))
        for s in range(GAMES[game].players):
            if s != seat:
                other.hands[s] = sorted(
                    drawn[s], key=lambda c: state.hands[s].index(c) if c in state.hands[s] else 99
                )
        if STOCK in know.places:
            other.stock = drawn[STOCK]
        if observe(other, seat) != view:
            continue  # the draw changed something the seat sees (e.g. hand order): not a fair test
        a = strong.choose(view, random.Random(1), samples=3)
        b = strong.choose(observe(other, seat), random.Random(1), samples=3)
        assert a == b
        compared += 1
        if compared == 4:
            break
    assert compared >= 2


@pytest.mark.parametrize("game", ALL_GAMES)
def test_strong_plays_legal_actions_through_a_deal(game, monkeypatch):
    monkeypatch.setenv("TAPET_BOT_BUDGET_MS", "3")
    assert "strong" in BOT_NAMES
    forget()
    rng = random.Random(3)
    state = new_game(game, {}, dealer=0)
    state = apply(state, {"type": "deal", "deck": new_deck(game, rng)})
    while not needs_deal(state) and not is_over(state):
        seat = to_act(state)
        action = choose("strong" if seat % 2 == 0 else "heuristic", observe(state, seat), rng)
        assert action in legal_actions(state)
        state = apply(state, action)


def test_budget_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("TAPET_BOT_BUDGET_MS", "42")
    assert strong.budget_from_env() == 42.0
    monkeypatch.setenv("TAPET_BOT_BUDGET_MS", "nonsense")
    assert strong.budget_from_env() == strong.DEFAULT_BUDGET_MS
    monkeypatch.delenv("TAPET_BOT_BUDGET_MS")
    assert strong.budget_from_env() == 300.0


@pytest.mark.parametrize("game", ALL_GAMES)
def test_a_position_built_from_a_view_and_the_true_cards_plays_like_the_real_one(game):
    from app.rules.sim import deal_points, position

    built = 0
    for state in deals(game, 9, n_deals=3):
        if state.phase != "play" or state.seq % 5:
            continue
        seat = to_act(state)
        view = observe(state, seat)
        twin = position(
            view, [list(h) for h in state.hands], list(state.tricks), list(state.declared)
        )
        rng = random.Random(state.seq)
        real = state
        while real.phase == "play":
            assert legal_actions(twin) == legal_actions(real)
            action = choose("heuristic", observe(real, to_act(real)), rng)
            real, twin = apply(real, action), apply(twin, action)
        assert deal_points(twin) == deal_points(real)
        built += 1
        if built == 3:
            break
    assert built >= 2


@pytest.mark.parametrize("game", ["belote", "botifarra", "bolot"])
def test_choose_explained_picks_choose_own_card_and_explains_only_searched_cards(game):
    """``choose_explained`` is ``choose`` (same rng, same card) plus what the search
    compared: only where it chose between 2+ cards, with counts that add up."""
    explained = 0
    for state in deals(game, 5, n_deals=1):
        seat = to_act(state)
        view = observe(state, seat)
        seed = state.seq
        plain = strong.choose(view, random.Random(seed), samples=3)
        action, e = strong.choose_explained(view, random.Random(seed), samples=3)
        assert action == plain, (game, state.seq)
        searched = (
            state.phase == "play" and len(strong.candidates(view["legal_actions"])) > 1
        ) and action["type"] == "play"
        if not searched:
            assert e is None, (game, state.seq, action)
            continue
        assert e is not None and e.card == action["card"] and e.other != e.card
        assert e.other in strong.candidates(view["legal_actions"])
        assert e.better + e.same + e.worse == e.deals >= 1
        explained += 1
    assert explained > 5
