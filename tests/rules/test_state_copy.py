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
