"""A seat's memory of the tricks it saw, for games whose finished tricks lie face down.

Botifarra shows only the last trick (``last_trick``; rules/botifarra.md and
docs/engine-face.md): a player remembers the rest, and so does the ``strong``
bot. At each of its turns the seat sees the trick completed since its
previous turn, so a bot that played the whole deal remembers every trick. A
bot that took over mid-deal (a player left) lacks the earlier ones: they stay
``None`` and the sampler treats their cards as unknown.

The memory is keyed by the deal as the seat sees it (game, seat, deals
played, dealer, scores, contract), holds at most :data:`LIMIT` deals, and is
per process.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from app.rules.types import View

LIMIT = 512
_DEALS: OrderedDict[tuple[Any, ...], tuple[list[dict[str, Any] | None], frozenset[str]]] = (
    OrderedDict()
)


def _key(view: View) -> tuple[Any, ...]:
    c = view.get("contract") or {}
    return (
        view["game"],
        view["seat"],
        len(view.get("sheet") or []),
        view["dealer"],
        tuple(view["scores"]),
        c.get("trump"),
        c.get("taker"),
        c.get("multiplier"),
    )


def _engine_form(trick: dict[str, Any]) -> dict[str, Any]:
    cards = [(t["seat"], t["card"]) for t in trick["cards"]]
    return {"leader": cards[0][0], "cards": cards, "winner": trick["winner"]}


def finished_tricks(view: View) -> list[dict[str, Any] | None]:
    """The deal's finished tricks (engine form ``{"leader", "cards": [(seat, card)],
    "winner"}``), as many as ``view["trick_number"] - 1``; ``None`` for one not seen.

    Uses the view's ``played`` where the game shows it; otherwise the memory, which
    this call updates with the view's ``last_trick``.
    """
    n = view["trick_number"] - 1
    if (played := view.get("played")) is not None:
        return [_engine_form(t) for t in played]
    key = _key(view)
    hand = frozenset(view.get("hand") or [])
    tricks, held = _DEALS.get(key, ([], frozenset()))
    if len(tricks) > n or not hand <= held:  # another deal that looked the same: start afresh
        tricks = []
    tricks = (tricks + [None] * n)[:n]
    if n and (last := view.get("last_trick")):
        tricks[n - 1] = _engine_form(last)
    _DEALS[key] = (tricks, hand)
    _DEALS.move_to_end(key)
    while len(_DEALS) > LIMIT:
        _DEALS.popitem(last=False)
    return list(tricks)


def forget() -> None:
    """Drop every remembered deal (tests)."""
    _DEALS.clear()
