"""Lookup tables a ruleset builds once per trump marker, for speed.

Bots simulate thousands of deals per decision; comparing two cards must be a
dictionary lookup, not a chain of calls. A mixin of
:class:`app.rules.core.TrickGame`: the tables are derived from the
ruleset's own ``card_power``, card table and belote ranks, so a game that
overrides those gets its own tables.
"""

from __future__ import annotations

from typing import Any

from app.rules.cards import suit_of


class Lookups:
    """Per-trump tables of a ruleset (mixed into ``TrickGame``)."""

    table: Any
    belote_ranks: tuple[str, ...]

    def card_power(
        self, card: str, led: str, trump: str | None
    ) -> int:  # pragma: no cover - TrickGame's
        raise NotImplementedError

    def __init__(self) -> None:
        #: Lookup tables built once per trump marker (see :meth:`power_table`).
        self._memo: dict[tuple[Any, ...], Any] = {}

    # ------------------------------------------------------------------ precomputed tables
    def power_table(self, trump: str | None) -> dict[str, int]:
        """card -> its power in a trick led in its own suit, under the trump marker ``trump``.

        In a trick led in ``led`` a card has this power when its suit is
        ``trump`` or ``led`` and 0 otherwise: exactly :meth:`card_power`, as a
        lookup (built once per marker; a game that overrides ``card_power``
        gets its own table).
        """
        key = ("power", trump)
        table = self._memo.get(key)
        if table is None:
            table = self._memo[key] = {
                c: self.card_power(c, suit_of(c), trump) for c in self.table.deck
            }
        return table

    def points_table(self, trump: str | None) -> dict[str, int]:
        """card -> card points under the trump marker ``trump`` (built once per marker)."""
        key = ("points", trump)
        table = self._memo.get(key)
        if table is None:
            table = self._memo[key] = {c: self.table.points(c, trump) for c in self.table.deck}
        return table

    def belote_pairs(self, trump: str | None) -> dict[str, str]:
        """card -> the other card of its belote under the trump marker ``trump`` (one trump
        pair by default; a game with several belotes overrides this)."""
        if not self.belote_ranks or trump is None or len(trump) != 1:
            return {}
        a, b = (r + trump for r in self.belote_ranks)
        return {a: b, b: a}

    def _pairs(self, trump: str | None) -> dict[str, str]:
        key = ("pairs", trump)
        table = self._memo.get(key)
        if table is None:
            table = self._memo[key] = self.belote_pairs(trump)
        return table
