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


class _PlayActions(dict[str, dict[str, Any]]):
    """card -> its ``play`` action (with ``flag: True`` when ``flag`` is given), built on
    first use."""

    def __init__(self, flag: str | None = None) -> None:
        super().__init__()
        self.flag = flag

    def __missing__(self, card: str) -> dict[str, Any]:
        action: dict[str, Any] = {"type": "play", "card": card}
        if self.flag is not None:
            action[self.flag] = True
        self[card] = action
        return action


class Lookups:
    """Per-trump tables of a ruleset (mixed into ``TrickGame``)."""

    table: Any
    belote_ranks: tuple[str, ...]
    belote_key: str

    def card_power(
        self, card: str, led: str, trump: str | None
    ) -> int:  # pragma: no cover - TrickGame's
        raise NotImplementedError

    def __init__(self) -> None:
        #: Lookup tables built once per trump marker (see :meth:`power_table`).
        self._memo: dict[tuple[Any, ...], Any] = {}
        #: trump marker -> :meth:`power_table` (the hot paths read it directly).
        self._power: dict[str | None, dict[str, int]] = {}
        #: card -> its ``play`` action, and card -> its ``play`` action announcing the
        #: belote: built once a card and shared, so ``legal_actions`` builds no dict a card
        #: (no caller may change one in place).
        self._plays: dict[str, dict[str, Any]] = _PlayActions()
        self._belote_plays: dict[str, dict[str, Any]] = _PlayActions(self.belote_key)
        #: (the last contract asked about, its belote pairs): see :meth:`_contract_pairs`.
        self._last_pairs: tuple[dict[str, Any] | None, dict[str, str]] = (None, {})

    # ------------------------------------------------------------------ precomputed tables
    def power_table(self, trump: str | None) -> dict[str, int]:
        """card -> its power in a trick led in its own suit, under the trump marker ``trump``.

        In a trick led in ``led`` a card has this power when its suit is
        ``trump`` or ``led`` and 0 otherwise: exactly :meth:`card_power`, as a
        lookup (built once per marker; a game that overrides ``card_power``
        gets its own table).
        """
        table = self._power.get(trump)
        if table is None:
            table = self._power[trump] = {
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

    def _contract_pairs(self, contract: dict[str, Any] | None) -> dict[str, str]:
        """:meth:`belote_pairs` under ``contract``'s trump marker; the last contract's are
        remembered (a deal asks at each card, with the one contract object of its deal)."""
        last = self._last_pairs  # one tuple, read at once: safe if threads share the ruleset
        if last[0] is contract and contract is not None:
            pairs: dict[str, str] = last[1]
            return pairs
        pairs = self._pairs(self.trump(contract))
        self._last_pairs = (contract, pairs)
        return pairs

    def trump(self, contract: dict[str, Any] | None) -> str | None:  # pragma: no cover
        raise NotImplementedError

    def _pairs(self, trump: str | None) -> dict[str, str]:
        key = ("pairs", trump)
        table = self._memo.get(key)
        if table is None:
            table = self._memo[key] = self.belote_pairs(trump)
        return table
