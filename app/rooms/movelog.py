"""The public move log: every stored action, with the cards still hidden redacted.

The rule (the same for players and spectators, so nobody learns more from the log
than from the table):

* a ``deal`` shows ``{type, deal_no, sha256}`` while its deal is being played; once
  the deal is over (the next deal started, or the match ended, or the hand is
  finished and the next deal is due) it shows its ``deck`` and ``salt`` too, so
  anyone can check ``sha256(salt + ",".join(deck))`` (DESIGN.md "The engine");
* a ``declare`` of the deal in play shows only each combination's kind and length
  until trick 1 is complete (rules/bolot.md §5: "The kinds are public at once. The
  cards ... are shown to all when trick 1 is complete");
* in a game whose finished tricks lie face down (Botifarra: rules/botifarra.md, only the
  current trick and the last one may be looked at; the ruleset's ``tricks_public``), a
  ``play`` of the deal in play shows only ``{type: "play"}`` once its trick is neither the
  current one nor the last finished one; the whole deal shows once it is over;
* every other action (take, pass, play with its bolot flag) is public when made.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app import rules
from app.core.db import as_utc
from app.rooms.models import Deal, Game, Move

PUBLIC_COMBINATION_KEYS = ("kind", "length")


def _actor(actor: str) -> int | str:
    return int(actor) if actor.isdigit() else actor


def _kinds_only(action: dict[str, Any]) -> dict[str, Any]:
    combos = action.get("combinations") or []
    hidden = [
        {k: c[k] for k in PUBLIC_COMBINATION_KEYS if k in c} for c in combos if isinstance(c, dict)
    ]
    return {**action, "combinations": hidden}


async def public_log(
    db: AsyncSession, game: Game, state: rules.State, since: int = 0
) -> list[dict[str, Any]]:
    """The log of ``game`` from move ``since`` on: ``[{seq, actor, action, at}]`` where
    ``actor`` is a seat number or "server", redacted as the module says. ``state`` is the
    game's current state (it tells whether the last deal and its trick 1 are over)."""
    public = rules.observe(state, None)
    deal_running = public["phase"] not in ("deal", "over")
    declared = public.get("declarations") or []
    if declared:  # the engine says whether the declared cards are shown yet
        details_shown = all(d.get("shown") for d in declared)
    else:
        details_shown = public["phase"] == "play" and public.get("trick_number", 1) > 1
    deals = {
        d.seq: d for d in (await db.scalars(select(Deal).where(Deal.game_id == game.id))).all()
    }
    current_deal_seq = max(deals) if deals else -1
    ruleset = rules.GAMES[game.game]
    # face-down tricks: the plays of the deal in play before this trick index are hidden
    hidden_before = (
        public.get("trick_number", 1) - 2 if deal_running and not ruleset.tricks_public else 0
    )
    plays_seen = 0
    # the deal's plays are counted from its start, whatever ``since`` is
    start = min(since, current_deal_seq) if hidden_before > 0 else since
    moves = (
        await db.scalars(
            select(Move).where(Move.game_id == game.id, Move.seq >= start).order_by(Move.seq)
        )
    ).all()
    log = []
    for move in moves:
        action = dict(move.action)
        in_current = move.seq >= current_deal_seq and deal_running
        if action.get("type") == "deal":
            action = _deal_entry(action, deals.get(move.seq), revealed=not in_current)
        elif action.get("type") == "declare" and in_current and not details_shown:
            action = _kinds_only(action)
        elif action.get("type") == "play" and in_current and hidden_before > 0:
            if plays_seen // ruleset.players < hidden_before:
                action = {"type": "play"}
            plays_seen += 1
        if move.seq < since:
            continue
        log.append(
            {
                "seq": move.seq,
                "actor": _actor(move.actor),
                "action": action,
                "at": as_utc(move.at).isoformat(),
            }
        )
    return log


def _deal_entry(action: dict[str, Any], deal: Deal | None, revealed: bool) -> dict[str, Any]:
    entry: dict[str, Any] = {"type": "deal"}
    if deal is not None:
        entry.update(deal_no=deal.deal_no, sha256=deal.sha256)
        if revealed:
            entry.update(deck=deal.deck.split(","), salt=deal.salt)
    elif revealed:  # a deal stored without commitment (should not happen): the deck alone
        entry["deck"] = action.get("deck")
    return entry
