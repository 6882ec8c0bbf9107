"""JSON routes of records and deal checks (docs/fairness.md); they call only
app/records/service.py and app/records/verify.py.

| route | does |
|---|---|
| ``GET /api/deals/{id}/verify`` | a deal's commitment; once it ended, deck, salt, the recomputed hash and the hands |
| ``GET /api/games/{game_id}/record`` | a game's record: its finished deals, every action, each deal's score |
| ``GET /api/rooms/{room_id}/record`` | the record of the room's game (the same JSON; it names ``game_id``) |
| ``GET /api/rooms/{room_id}/deals/{n}/costs`` | what each card of a finished deal cost, by the exact solver |
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.deps import CurrentUser, OptionalUser
from app.core.db import SessionDep
from app.core.errors import NotFound
from app.records import card_costs, replay_mine, verify
from app.records import service as records
from app.rooms import invites, service
from app.rooms.api import E403, E409, DealNo, RoomId
from app.rooms.api import E404 as E404_ROOM
from app.rooms.models import Game

router = APIRouter(prefix="/api", tags=["records"])

E404: dict[int | str, dict[str, Any]] = {404: {"description": "no such game or deal"}}


@router.get("/deals/{deal_id}/verify", responses=E404)
async def verify_deal(
    deal_id: str, request: Request, user: OptionalUser, db: SessionDep
) -> dict[str, Any]:
    """Check a deal's commitment. ``deal_id`` is ``<game_id>-<deal_no>`` ("12-3").

    While the deal is played only ``sha256`` (published at the deal) is shown. Once it
    ended: ``salt``, ``deck`` (top card first), ``recomputed`` = SHA-256(salt +
    ",".join(deck)), ``matches``, ``dealt`` (each seat's cards right after the deal, as
    the engine hands them out) and ``hands`` (the cards each seat played with). 403 a
    private room's deal without its code (docs/invitations.md)."""
    check = await verify.verify(db, deal_id)
    await invites.require_access(db, check["room_id"], user, invites.codes_of(request))
    return check


@router.get("/games/{game_id}/record", responses=E404)
async def game_record(
    game_id: int, request: Request, user: OptionalUser, db: SessionDep
) -> dict[str, Any]:
    """The record of a game: game, options, first ``dealer``, and for each finished deal
    its commitment, deck, salt, hands, every action and its score; ``actions`` lists
    them all in order (``app.rules.replay(game, options, dealer, actions)`` gives the
    same scores). The deal in play shows only its commitment (``in_progress``). 403 a
    private room's match without its code (docs/invitations.md)."""
    game = await records.get_game(db, game_id)
    await invites.require_access(db, game.room_id, user, invites.codes_of(request))
    return await _record(db, game)


@router.get("/rooms/{room_id}/record", responses=E404)
async def room_record(
    room_id: int, request: Request, user: OptionalUser, db: SessionDep
) -> dict[str, Any]:
    """The record of the room's game (as ``GET /api/games/{game_id}/record``). 404 before
    the start; 403 a private room without its code."""
    await invites.require_access(db, room_id, user, invites.codes_of(request))
    return await _record(db, await records.room_game(db, room_id))


async def _record(db: AsyncSession, game: Game) -> dict[str, Any]:
    try:
        room = await service.room_info(db, game.room_id)
    except NotFound:
        room = None
    return records.record(await records.history(db, game), room)


@router.post(
    "/rooms/{room_id}/deals/{deal_no}/replay-mine", responses={**E403, **E404_ROOM, **E409}
)
async def replay_my_deal(
    room_id: RoomId,
    deal_no: DealNo,
    user: CurrentUser,
    db: SessionDep,
    seat: Annotated[
        int | None, Query(ge=0, le=15, description="your own seat (the default)")
    ] = None,
) -> dict[str, Any]:
    """The strong bot plays finished deal ``deal_no`` again from your seat (the same deck
    and dealer; other seats by their bot level, seats of people by the heuristic bot,
    listed in ``people``); both results side by side (``actual``, ``replay``: contract,
    tricks and points per team, the engine's ``last_deal``) and ``differences``
    (``[{kind: card|call|declare, n, mine, bot}]``). Computed once per deal and seat
    (``cached``); at most about 150 ms a decision (the hint's thinking time). 403 not
    seated, or another seat; 404 no such deal, or one the match ended during (never played
    out); 409 the deal is still being played."""
    return await replay_mine.replay_mine(db, room_id, deal_no, user, seat)


@router.get("/rooms/{room_id}/deals/{deal_no}/costs", responses={**E403, **E404_ROOM, **E409})
async def deal_costs(
    room_id: RoomId, deal_no: DealNo, request: Request, user: OptionalUser, db: SessionDep
) -> dict[str, Any]:
    """What each card of finished deal ``deal_no`` cost by the exact double-dummy solver
    (app/records/card_costs.py): ``cards`` ``[{step, trick, seat, card, cost, best}]`` in
    the order played, ``cost`` the points the player's side gave away against the best
    card there (0: perfect play; null: not reached in ``budget_s`` CPU seconds, the
    deal's first cards), ``best`` the cards of perfect play. Worked out once per deal
    (``cached``), a few seconds. 403 a private room without its code; 404 no such deal, or
    one the match ended during (never played out); 409 the deal is still being played;
    429 (``Retry-After``) while two other deals are worked out, or past one requester's
    six new deals a minute."""
    await invites.require_access(db, room_id, user, invites.codes_of(request))
    who = card_costs.requester(user, request)
    return await card_costs.deal_costs(db, room_id, deal_no, who)
