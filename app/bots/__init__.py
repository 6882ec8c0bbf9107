"""Bots: players that choose an action from their seat's view only.

``choose(name, view, rng)`` takes ``observe(state, seat)`` for the bot's seat
(never the state: a bot sees what its seat sees) and returns one of
``view["legal_actions"]``. Levels: ``random`` (a legal action at random),
``heuristic`` (simple sensible play, one module per game family) and
``strong`` (determinized search over the play, :mod:`app.bots.strong`; it
thinks for ``TAPET_BOT_BUDGET_MS`` milliseconds, 300 by default).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable

BOT_NAMES = ("random", "heuristic", "strong")

#: game id -> module under app.bots holding ``choose(view, rng)`` for the heuristic level.
HEURISTIC_MODULES = {
    "bolot": "belote_family",
    "belote": "belote_family",
    "belote-2p": "belote_family",
    "bridge-belote": "bridge_belote",
    "botifarra": "botifarra",
}


def choose_random(view: dict, rng: random.Random) -> dict:
    """A legal action at random. Raises ValueError when the seat has nothing to do."""
    actions = view.get("legal_actions") or []
    if not actions:
        raise ValueError("this seat has no action to take")
    return rng.choice(actions)


def heuristic_for(game: str) -> Callable[[dict, random.Random], dict]:
    """The heuristic level's ``choose(view, rng)`` for ``game`` (random play for an unknown game)."""
    module = HEURISTIC_MODULES.get(game)
    if module is None:
        return choose_random
    try:
        return importlib.import_module(f"{__name__}.{module}").choose
    except ModuleNotFoundError as exc:
        if exc.name == f"{__name__}.{module}":
            return choose_random
        raise


def choose(name: str, view: dict, rng: random.Random | None = None) -> dict:
    """The action bot ``name`` takes in ``view`` (its own seat's observe()).

    Raises:
        ValueError: an unknown bot name, or no legal action in the view.
    """
    rng = rng or random.Random()
    if name == "random":
        return choose_random(view, rng)
    if name == "heuristic":
        return heuristic_for(view["game"])(view, rng)
    if name == "strong":
        from .strong import choose as choose_strong

        return choose_strong(view, rng)
    raise ValueError(f"unknown bot {name!r}; bots: {', '.join(BOT_NAMES)}")
