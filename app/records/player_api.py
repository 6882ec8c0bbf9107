"""JSON routes of player pages and leaderboards (issue 17 §5, §6); they call only
app/records/players.py.

| route | does |
|---|---|
| ``GET /api/players/{id}`` | a player's matches, per-game figures and ratings (404 private or unknown) |
| ``GET /api/leaderboard/{game}`` | the game's rated people by rating, bots shown as fixed anchors |
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from app.accounts.deps import OptionalUser
from app.core.db import SessionDep
from app.records import players

router = APIRouter(prefix="/api", tags=["players"])

E404: dict[int | str, dict[str, Any]] = {
    404: {"description": "no such player, or a private profile seen by another"}
}


@router.get("/players/{user_id}", responses=E404)
async def player(
    user_id: Annotated[int, Path(ge=1, le=2**31 - 1)],
    db: SessionDep,
    viewer: OptionalUser,
    before: Annotated[
        int | None, Query(ge=1, le=2**31 - 1, description="only matches of a lower game id")
    ] = None,
) -> dict[str, Any]:
    """A player's page: ``ratings`` per game (``rating`` = mu − 3·sigma, ``provisional``),
    ``figures`` per game (matches, wins, draws, losses, points per deal), the newest
    ``matches`` (partners, opponents, result, date, links to the record and the replay;
    ``more``: older ones with ``?before=<last game_id>``). A hidden profile is 404 "this
    profile is private" for everyone but its owner."""
    return await players.player(db, user_id, viewer, before)


@router.get("/leaderboard/{game}", responses={404: {"description": "no such game"}})
async def leaderboard(game: Annotated[str, Path(max_length=64)], db: SessionDep) -> dict[str, Any]:
    """The leaderboard of ``game``: people with a rated match, by rating, provisional ones
    marked; the bots among them as fixed anchors (``bot``, ``version``, no rank); hidden
    profiles left out."""
    return await players.leaderboard(db, game)
