"""The bots as the room sees them: their names and their choice, with a safe fallback.

Bots decide from ``observe(state, seat)`` of their own seat only (app/bots). If a
bot fails or answers something illegal, it plays a random
legal action, so a table never stalls.
"""

from __future__ import annotations

import logging
import random

from app import bots, rules
from app.bots import strong

log = logging.getLogger(__name__)


def bot_names() -> tuple[str, ...]:
    """The bot levels a seat may be given (``app.bots.BOT_NAMES``)."""
    return tuple(bots.BOT_NAMES)


def choose(name: str, view: rules.View, rng: random.Random) -> rules.Action:
    """The action bot ``name`` takes in its seat's ``view``; always one of
    ``view["legal_actions"]`` (a random one if the bot fails or answers something else).
    Raises ValueError when the view has no legal action."""
    legal = view.get("legal_actions") or []
    if not legal:
        raise ValueError("the bot's seat has nothing to do")
    try:
        action = bots.choose(name, view, rng)
        if action in legal:
            return action
        log.warning("bot %s answered %r, not a legal action; playing at random", name, action)
    except Exception:  # noqa: BLE001 - a faulty bot must not stall the table
        log.exception("bot %s failed; playing at random", name)
    return rng.choice(legal)


def choose_thinking(
    level: str, view: rules.View, rng: random.Random, budget_ms: float | None = None
) -> rules.Action:
    """Bot ``level``'s action in its own seat's ``view`` for the hint and the replay of a
    deal (app/table/hints.py, app/records/replay_mine.py); always one of ``view["legal_actions"]``.

    ``strong`` thinks ``budget_ms`` (None: ``TAPET_BOT_BUDGET_MS``) and is asked for the
    declaration first when the engine offers one (the server's view also lists the cards
    playable after declaring nothing). A failing bot falls back to the heuristic, then
    to the first legal action. Raises ValueError when the view has no legal action."""
    return choose_explained(level, view, rng, budget_ms)[0]


def choose_explained(
    level: str, view: rules.View, rng: random.Random, budget_ms: float | None = None
) -> tuple[rules.Action, strong.Explanation | None]:
    """``(action, explanation)``: :func:`choose_thinking`'s action and, for ``strong``
    choosing a card by its search, what that one search compared
    (:class:`app.bots.strong.Explanation`; None for another level, another decision, or
    a fallback). Raises ValueError when the view has no legal action."""
    legal = view.get("legal_actions") or []
    if not legal:
        raise ValueError("this seat has nothing to do")
    explanation: strong.Explanation | None = None
    try:
        if level == "strong":
            declares = [a for a in legal if a.get("type") == "declare"]
            view = {**view, "legal_actions": declares} if declares else view
            action, explanation = strong.choose_explained(view, rng, budget_ms=budget_ms)
        else:
            action = bots.choose(level, view, rng)
    except Exception:  # noqa: BLE001 - a hint or a replay never fails for a bot's fault
        log.exception("bot %s failed; the heuristic plays", level)
        try:
            action = bots.choose("heuristic", view, rng)
        except Exception:  # noqa: BLE001
            action = legal[0]
    if action not in legal:
        return legal[0], None
    return action, explanation
