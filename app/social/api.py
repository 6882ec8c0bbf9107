"""JSON routes of friends and presence (issue 18 §3, §5); they call only app/social/service.py.

| method and path | does | errors |
|---|---|---|
| ``GET /api/following`` | ``{"people": [{id, nickname, kind, online, table}]}`` as service.following | 401 |
| ``PUT /api/players/{id}/follow`` | follow (idempotent): ``{"following": true, "new": bool}`` | 401, 403 yourself / hidden profile, 404 |
| ``DELETE /api/players/{id}/follow`` | unfollow (idempotent): ``{"following": false, "removed": bool}`` | 401, 404 no such player |
| ``PUT /api/account/presence`` ``{"hidden": bool}`` | hide or show one's online status | 401, 422 |
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Path
from pydantic import BaseModel, ConfigDict

from app.accounts.deps import CurrentUser
from app.core.db import SessionDep
from app.social import service

router = APIRouter(prefix="/api", tags=["social"])

PlayerId = Path(ge=1, le=2**31 - 1)


class PresenceIn(BaseModel):
    """``{"hidden": bool}``."""

    model_config = ConfigDict(extra="forbid")
    hidden: bool


@router.get("/following")
async def list_following(db: SessionDep, user: CurrentUser) -> dict[str, Any]:
    """The people the caller follows, online first (hidden statuses shown offline)."""
    return {"people": await service.following(db, user)}


@router.put("/players/{player_id}/follow")
async def follow(db: SessionDep, user: CurrentUser, player_id: int = PlayerId) -> dict[str, Any]:
    """Follow ``player_id`` (a second call changes nothing)."""
    return {"following": True, "new": await service.follow(db, user, player_id)}


@router.delete("/players/{player_id}/follow")
async def unfollow(db: SessionDep, user: CurrentUser, player_id: int = PlayerId) -> dict[str, Any]:
    """Stop following ``player_id`` (a second call changes nothing)."""
    return {"following": False, "removed": await service.unfollow(db, user, player_id)}


@router.put("/account/presence")
async def presence(body: PresenceIn, db: SessionDep, user: CurrentUser) -> dict[str, Any]:
    """Hide (``true``) or show one's online status."""
    return {"hidden": await service.set_presence_hidden(db, user, body.hidden)}
