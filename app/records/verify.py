"""Checking a deal's commitment (DESIGN.md "The engine", last point; docs/fairness.md).

When a deal starts the server stores and publishes ``sha256 = SHA-256(salt + ",".join(deck))``
(hex; ``salt`` is 32 hex digits, the deck's card codes top card first, UTF-8). When
the deal ends, deck and salt are revealed and anyone can recompute the hash: this
module does it independently of the code that made it (app/rooms/play.py).

A deal is named ``"<game_id>-<deal_no>"`` ("12-3": the third deal of game 12), the
id used by ``GET /api/deals/{id}/verify`` and ``/deals/{id}/verify``.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.core.errors import NotFound
from app.records import service as records

DEAL_ID = re.compile(r"^(\d{1,12})-(\d{1,6})$")


def deal_id(game_id: int, deal_no: int) -> str:
    """The public id of a deal: ``"<game_id>-<deal_no>"``."""
    return f"{game_id}-{deal_no}"


def parse_deal_id(text: str) -> tuple[int, int]:
    """``"12-3"`` -> ``(12, 3)``. Raises NotFound for anything else."""
    match = DEAL_ID.match(text or "")
    too_long = None if match else re.fullmatch(r"(\d+)-(\d+)", text or "")
    if too_long:  # the right form, numbers beyond any game's
        raise NotFound(
            f"game {too_long.group(1)} has no deal {too_long.group(2)}",
            "no_such_deal",
            n=int(too_long.group(2)),
        )
    if not match:
        raise NotFound(
            f"{text!r} is not a deal id; a deal id is <game>-<deal number>, e.g. 12-3",
            "not_a_deal_id",
            id=repr(text),
        )
    return int(match.group(1)), int(match.group(2))


def commitment_of(salt: str, deck: list[str]) -> str:
    """SHA-256 (hex) of the salt followed by the deck's codes joined by ","."""
    return hashlib.sha256((salt + ",".join(deck)).encode("utf-8")).hexdigest()


def check(h: records.GameHistory, deal_no: int) -> dict[str, Any]:
    """What anyone may know of a deal's commitment, and its check once revealed.

    Always: ``{id, game_id, room_id, game, deal_no, dealer, sha256, finished,
    formula}``. Once the deal is finished, or cut short by the match's end
    (``records.DealHistory.cut_short``: a resignation, a withdrawal, an abandoned table),
    also ``cut_short``, ``salt``, ``deck``, ``recomputed``, ``matches`` (the recomputed
    hash equals the published one), ``dealt`` (each seat's cards right after the deal
    action, as the engine hands them out; null where the engine keeps a hand face down
    even from its holder), ``hands`` (the cards each seat played the deal with, after any
    stock; null for a void deal, and for a deal cut short) and ``turned``. While the
    deal can still be played nothing else appears: no deck, no salt, no hand.
    Raises NotFound."""
    deal = h.deal(deal_no)
    sha = deal.commitment.sha256 if deal.commitment else None
    out: dict[str, Any] = {
        "id": deal_id(h.game.id, deal_no),
        "game_id": h.game.id,
        "room_id": h.game.room_id,
        "game": h.game.game,
        "deal_no": deal_no,
        "dealer": deal.dealer,
        "sha256": sha,
        "finished": deal.finished,
        "formula": 'sha256(salt + ",".join(deck)), UTF-8, hex',
    }
    if not deal.revealed:
        return out
    deck = deal.deck or []
    salt = deal.commitment.salt if deal.commitment else ""
    recomputed = commitment_of(salt, deck)
    out.update(
        cut_short=deal.cut_short,
        salt=salt,
        deck=deck,
        recomputed=recomputed,
        matches=sha is not None and recomputed == sha,
        dealt=deal.dealt,
        hands=deal.hands,
        turned=deal.turned,
    )
    return out


async def verify(db: AsyncSession, text: str) -> dict[str, Any]:
    """The check of the deal named ``text`` (see ``check``). Raises NotFound."""
    game_id, deal_no = parse_deal_id(text)
    game = await records.get_game(db, game_id)
    return check(await records.history(db, game), deal_no)
