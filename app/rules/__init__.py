"""Tapet's game engine: pure, fast, and usable on its own.

The face (docs/engine-face.md, DESIGN.md "The engine")::

    from app.rules import new_game, apply, legal_actions, observe, legal_cards, score_deal
    state = new_game("bolot", options={"target": 1000}, dealer=3)
    state = apply(state, {"type": "deal", "deck": [...]})   # top card first
    state = apply(state, legal_actions(state)[0])

This package imports nothing from the project's web, database or I/O layers.
"""

from app.rules.api import (
    GAMES,
    apply,
    is_over,
    leading_team,
    legal_actions,
    legal_cards,
    max_deal_points,
    needs_deal,
    new_deck,
    new_game,
    observe,
    plausible_deal_points,
    replay,
    score_deal,
    to_act,
)
from app.rules.errors import IllegalAction
from app.rules.state import State
from app.rules.types import Action, ActionIn, DealScore, Summary, SummaryIn, View

__all__ = [
    "GAMES",
    "Action",
    "ActionIn",
    "DealScore",
    "IllegalAction",
    "State",
    "Summary",
    "SummaryIn",
    "View",
    "apply",
    "is_over",
    "leading_team",
    "legal_actions",
    "legal_cards",
    "max_deal_points",
    "needs_deal",
    "new_deck",
    "new_game",
    "observe",
    "plausible_deal_points",
    "replay",
    "score_deal",
    "to_act",
]
