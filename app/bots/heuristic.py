"""The heuristic level: simple sensible play, one module per game family, and the random
level every bot falls back on. ``heuristic_for(game)`` is the heuristic's
``choose(view, rng)`` for a game (random play for a game without one)."""

from __future__ import annotations

import random
from collections.abc import Callable

from app.bots import belote_family, botifarra, bridge_belote, contree
from app.rules import GAMES
from app.rules.types import Action, View

Choose = Callable[[View, random.Random], Action]


def choose_random(view: View, rng: random.Random) -> Action:
    """A legal action at random. Raises ValueError when the seat has nothing to do."""
    actions = view.get("legal_actions") or []
    if not actions:
        raise ValueError("this seat has no action to take")
    return rng.choice(actions)


#: bot family (a ruleset's ``bot_family``: the module's name) -> the heuristic level's
#: ``choose(view, rng)``.
HEURISTICS: dict[str, Choose] = {
    "belote_family": belote_family.choose,
    "bridge_belote": bridge_belote.choose,
    "botifarra": botifarra.choose,
    "contree": contree.choose,
}


def heuristic_for(game: str) -> Choose:
    """The heuristic level's ``choose(view, rng)`` for ``game`` (random play for an unknown game)."""
    ruleset = GAMES.get(game)
    return HEURISTICS.get(ruleset.bot_family, choose_random) if ruleset else choose_random
