"""The example deal summary each game offers on the score-sheet form is one its own
``score_deal`` accepts (a fresh helper found Botifarra's refused: its card points added
up to 72, where §8 wants 60 before the trick points)."""

from __future__ import annotations

import pytest

from app import rules


@pytest.mark.parametrize("game", sorted(rules.GAMES))
def test_the_form_s_example_summary_is_a_deal_the_game_scores(game: str) -> None:
    example = rules.GAMES[game].example_summary()
    result = rules.score_deal(game, {}, example)
    assert len(result["points"]) == len(rules.new_game(game).scores)


def test_botifarra_s_example_is_worked_out_by_hand() -> None:
    """rules/botifarra.md §7: oros (single value), 33 + 7 tricks = 40 against 27 + 5 = 32;
    the choosing pair made 40 - 36 = 4 over the 36."""
    result = rules.score_deal("botifarra", {}, rules.GAMES["botifarra"].example_summary())
    assert result["points"] == [4, 0]


def test_belote_for_two_s_example_is_worked_out_by_hand() -> None:
    """rules/belote.md §7 (2p): seat 0 took, 58 + 10 for the last trick = 68 > 45: made,
    each keeps his points."""
    result = rules.score_deal("belote-2p", {}, rules.GAMES["belote-2p"].example_summary())
    assert result["points"] == [68, 45]
