"""The engine scores a deal it has played (``score_own_deal``, which may skip the checks
of a game's §8) exactly as ``score_deal`` scores the same summary with every check: on
random deals of every game and of Belote for three's options, the points, the outcome,
the carry and the detail agree."""

from __future__ import annotations

import random

import pytest

from app.rules import GAMES, apply, is_over, legal_actions, needs_deal, new_deck, new_game
from app.rules.api import score_deal

OPTIONS = [(game, {}) for game in GAMES] + [
    ("belote-3p", {"deal": "32"}),
    ("belote-3p", {"capoted_keep_declarations": True}),
    ("belote-3p", {"contract": False}),
    ("belote-3p", {"declarations": False}),
]


@pytest.mark.parametrize(("game", "options"), OPTIONS, ids=lambda v: str(v))
def test_a_played_deal_scores_as_its_summary_does(game: str, options: dict) -> None:
    rng = random.Random(5)
    checked = 0
    for _ in range(40):
        state = new_game(game, options, dealer=rng.randrange(GAMES[game].players))
        state = apply(state, {"type": "deal", "deck": new_deck(game, rng, options or None)})
        while not needs_deal(state) and not is_over(state):
            state = apply(state, rng.choice(legal_actions(state)))
        for line in state.sheet:
            if line.get("void") or "summary" not in line:
                continue  # a void deal, or one ended by a claim (Belote for two): no summary
            again = score_deal(game, state.options, line["summary"])
            assert again["points"] == line["points"]
            assert again["outcome"] == line["outcome"]
            assert again["detail"] == line["detail"]
            assert again.get("carried_out", 0) == line["carried_out"]
            checked += 1
    assert checked > 0
