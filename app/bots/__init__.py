"""Bots: players that choose an action from their seat's view only.

``choose(name, view, rng)`` takes ``observe(state, seat)`` for the bot's seat
(never the state: a bot sees what its seat sees) and returns one of
``view["legal_actions"]``. Levels: ``random`` (a legal action at random),
``heuristic`` (simple sensible play, one module per game family) and
``strong`` (determinized search over the play, :mod:`app.bots.strong`; it
thinks for ``TAPET_BOT_BUDGET_MS`` milliseconds, 300 by default).
"""

from __future__ import annotations

import random

from app.bots import strong
from app.bots.heuristic import choose_random, heuristic_for
from app.rules.types import Action, View

BOT_NAMES = ("random", "heuristic", "strong")
#: Levels for measuring only (``tapet arena``, ``tapet bench bots``), never a seat's:
#: the strong bot with its exact endgame (``strong-dd``: perfect play judges the drawn
#: deals near the deal's end, :func:`app.bots.strong.exact_from`) and without it
#: (``strong-po``: heuristic play-outs to the end), whatever its default (``strong.EXACT_GAMES``),
#: both with the heuristic's calls (never the learned ones: ``strong.LEARNED_CALLS``,
#: ``strong.SEARCH_DEFAULTS``); and ``strong-bid``: the exact endgame and the calls
#: searched from the heuristic's (:mod:`app.bots.strong_auction`) in every game, whatever
#: ``strong.AUCTION_GAMES`` says. ``strong-po`` is the strong bot as it was when issue 22
#: was filed.
ARENA_NAMES = (*BOT_NAMES, "strong-dd", "strong-po", "strong-bid")

__all__ = ["ARENA_NAMES", "BOT_NAMES", "choose", "choose_random", "heuristic_for"]


def choose(name: str, view: View, rng: random.Random | None = None) -> Action:
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
        return strong.choose(view, rng)
    if name in ("strong-dd", "strong-po"):
        return strong.choose(view, rng, exact=name == "strong-dd", auction=False, learned=False)
    if name == "strong-bid":
        return strong.choose(view, rng, exact=True, auction=True, learned=False)
    raise ValueError(f"unknown bot {name!r}; bots: {', '.join(ARENA_NAMES)}")
