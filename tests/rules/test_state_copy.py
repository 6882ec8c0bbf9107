"""State.shallow is written field by field (for speed): it must copy every field."""

from __future__ import annotations

import dataclasses
import random

from app.rules import apply, legal_actions, new_deck, new_game
from app.rules.state import State


def test_shallow_copies_every_field_and_shares_the_lists() -> None:
    rng = random.Random(4)
    state = apply(new_game("belote-3p", {}), {"type": "deal", "deck": new_deck("belote-3p", rng)})
    while state.phase != "play":
        state = apply(state, rng.choice(legal_actions(state)))
    state.cache = ("anything",)
    copy = state.shallow()
    for f in dataclasses.fields(State):
        if f.name == "cache":
            assert copy.cache is None  # the memo belongs to one position
        else:
            assert getattr(copy, f.name) is getattr(state, f.name), f.name
    assert copy == state


def test_the_shared_play_actions_stay_as_built() -> None:
    """``legal_actions`` hands out one shared dict a card (app/rules/tables.py
    ``play_action``): after whole random matches of every game, played through those
    very dicts, each still says only ``play`` and its card (and the belote flag on the
    announcing form): nothing in the engine changed one in place."""
    from app.rules import GAMES, is_over, needs_deal

    rng = random.Random(11)
    seen: list[dict] = []
    for game in GAMES:
        state = new_game(game, {})
        for _ in range(3):
            state = apply(state, {"type": "deal", "deck": new_deck(game, rng)})
            while not needs_deal(state) and not is_over(state):
                legal = legal_actions(state)
                seen += [a for a in legal if a["type"] == "play"]
                state = apply(state, rng.choice(legal))
            if is_over(state):
                break
        key = GAMES[game].belote_key
        for a in seen:
            extra = set(a) - {"type", "card"}
            assert extra <= {key, "belote", "bolot"} and all(a[k] is True for k in extra), a
            assert isinstance(a["card"], str) and len(a["card"]) in (2, 3), a
    assert len({id(a) for a in seen}) < len(seen)  # the dicts are shared indeed
