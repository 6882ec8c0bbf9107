"""``apply`` is pure in every game: the state it is given is never changed.

The engine shares unchanged lists between positions for speed (State.shallow);
this checks, over random playouts of every game, that no action mutates the
position it was applied to: every seat's view, the spectator's view and the
raw record are the same before and after.
"""

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules import GAMES, apply, is_over, legal_actions, needs_deal, new_deck, new_game, observe

FIELDS = (
    "phase",
    "seq",
    "dealer",
    "to_act",
    "hands",
    "trick",
    "tricks",
    "won",
    "tricks_won",
    "scores",
    "sheet",
    "auction",
    "contract",
    "declared",
    "belote",
    "stock",
    "turned",
    "extra",
    "carried",
    "winner",
)


def snapshot(state):
    views = [observe(state, seat) for seat in [None, *range(GAMES[state.game].players)]]
    return copy.deepcopy(views), copy.deepcopy({f: getattr(state, f) for f in FIELDS})


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(sorted(GAMES)), st.integers(0, 2**32))
def test_apply_never_changes_the_state_it_is_given(game, seed):
    rng = random.Random(seed)
    state = new_game(game, {}, dealer=0)
    for _ in range(2):  # two deals, so the deal-to-deal step is covered too
        state = apply(state, {"type": "deal", "deck": new_deck(game, rng)})
        while not needs_deal(state) and not is_over(state):
            before = snapshot(state)
            nxt = apply(state, rng.choice(legal_actions(state)))
            assert snapshot(state) == before, f"{game}: apply changed its input at seq {state.seq}"
            state = nxt
        if is_over(state):
            break
