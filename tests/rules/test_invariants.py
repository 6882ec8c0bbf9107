"""The shared invariants (tests/rules/invariants.py) catch what they are for: a card
lost or doubled, and a view that names another seat's card."""

import random

import pytest

from app import rules
from app.rules import apply, legal_actions, new_deck, new_game
from tests.rules import invariants
from tests.rules.invariants import assert_cards_conserved, assert_no_leak, shown_cards_of


def _in_play(game: str) -> rules.State:
    rng = random.Random(7)
    state = apply(new_game(game, {}, dealer=0), {"type": "deal", "deck": new_deck(game, rng)})
    for _ in range(6):
        state = apply(state, rng.choice(legal_actions(state)))
    assert state.phase in invariants.IN_DEAL
    return state


@pytest.mark.parametrize("game", sorted(rules.GAMES))
def test_a_lost_or_doubled_card_is_caught(game: str) -> None:
    state = _in_play(game)
    assert_cards_conserved(state)
    seat = next(s for s, h in enumerate(state.hands) if h)
    lost = state.shallow()
    lost.hands = [list(h) for h in state.hands]
    lost.hands[seat].pop()
    with pytest.raises(AssertionError):
        assert_cards_conserved(lost)
    doubled = state.shallow()
    doubled.hands = [list(h) for h in state.hands]
    doubled.hands[seat].append(doubled.hands[seat][0])
    with pytest.raises(AssertionError):
        assert_cards_conserved(doubled)


@pytest.mark.parametrize("game", sorted(rules.GAMES))
def test_a_view_naming_another_seat_s_card_is_caught(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = _in_play(game)
    public = shown_cards_of if game in ("bolot", "belote", "belote-2p", "belote-3p") else None
    assert_no_leak(state, public)
    real = invariants.observe

    def leaky(s: rules.State, seat: int | None) -> dict:
        view = real(s, seat)
        other = 1 if seat in (None, 0) else 0
        return view | {"peek": list(s.hands[other])}

    monkeypatch.setattr(invariants, "observe", leaky)
    with pytest.raises(AssertionError):
        assert_no_leak(state, public)
