"""How championships hook into rooms, registered once at start-up by ``app.main``.

Rooms know nothing of championships (imports point one way); they ask the hooks of
app/core/hooks.py, and this module gives the championship's answers:

* a deal guard: an online table of a number of deals or a time limit stops before its
  next deal once the limit is reached (``results.may_deal``);
* a room label: the lobby and a table's title bar show the championship, round and
  table a room plays for (``views.rooms_in_tournaments``);
* room moderators: a championship's organisers may hide its tables' chat messages.
"""

from __future__ import annotations

from app.core.hooks import Hooks
from app.tournaments import results, views


def install(hooks: Hooks) -> None:
    """Register the championships' deal guard and room labels in ``hooks`` (idempotent)."""
    hooks.add_deal_guard(results.may_deal)
    hooks.add_room_labeller(views.rooms_in_tournaments)
    hooks.add_room_moderators(views.room_organisers)  # they may hide chat messages (app/chat)
