"""The chat's JSON routes (under /api; docs/chat.md). Messages also arrive on the room's
socket (``{"type": "chat", ...}``: app/chat/delivery.py)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel, ConfigDict, Field

from app.accounts.deps import CurrentUser, OptionalUser
from app.chat import service
from app.core.db import INT32, SessionDep
from app.core.errors import Forbidden
from app.rooms import invites

router = APIRouter(prefix="/api", tags=["chat"])
Id = Annotated[int, Path(ge=0, le=INT32)]


class MessageIn(BaseModel):
    """A message: ``text`` (at most 300 characters) or a quick ``reaction`` key, and the
    client's ``client_id`` (1-64 letters, digits, '-', '_'): sent again, the same message
    is returned and nothing new is stored."""

    model_config = ConfigDict(extra="forbid")
    text: str | None = Field(default=None, max_length=2000)
    reaction: str | None = Field(default=None, max_length=64)
    client_id: str | None = Field(default=None, max_length=64)


class ReportIn(BaseModel):
    """Why the message is reported (optional, at most 300 characters)."""

    model_config = ConfigDict(extra="forbid")
    reason: str = Field(default="", max_length=2000)


@router.get("/rooms/{room_id}/chat")
async def read_chat(
    request: Request, room_id: Id, user: OptionalUser, db: SessionDep
) -> dict[str, Any]:
    """The room's chat as the caller receives it: ``{room_id, chat, channel, messages}``
    (a seated player does not get the spectators' chat before the match ends). 403 a
    private room without its code (``room_private``, as its other routes), 404."""
    await invites.require_access(db, room_id, user, invites.codes_of(request))
    return await service.read(db, room_id, user)


@router.post("/rooms/{room_id}/chat", status_code=201)
async def post_message(
    request: Request, room_id: Id, body: MessageIn, user: CurrentUser, db: SessionDep
) -> dict[str, Any]:
    """Post in the room's chat (the table chat when you hold a seat, else the spectators').
    403 chat off or a private room without its code, 404, 409 a client id used in another
    room, 422 empty/too long/unknown reaction, 429 too fast."""
    await invites.require_access(db, room_id, user, invites.codes_of(request))
    return await service.post(db, room_id, user, body.text, body.reaction, body.client_id)


@router.post("/chat/messages/{message_id}/report")
async def report_message(
    request: Request, message_id: Id, body: ReportIn, user: CurrentUser, db: SessionDep
) -> dict[str, Any]:
    """Report a message to the site's admins (once per person: ``{"new": false}`` after).
    403 a message of a private room the caller may not see, 404."""
    room_id = await service.room_of_message(db, message_id)
    await invites.require_access(db, room_id, user, invites.codes_of(request))
    return {"new": await service.report(db, user, message_id, body.reason)}


@router.post("/chat/messages/{message_id}/hide")
async def hide_message(message_id: Id, user: CurrentUser, db: SessionDep) -> dict[str, Any]:
    """Hide a message for everyone (an admin, or the championship's organiser). 403, 404."""
    return {"room_id": await service.hide(db, user, message_id), "hidden": True}


@router.get("/chat/reports")
async def list_reports(user: CurrentUser, db: SessionDep) -> list[dict[str, Any]]:
    """Every report, newest first (the site's admins only: 403 otherwise)."""
    if not service.is_admin(user):
        raise Forbidden("only the site's admins read the reports", "chat_admins_only")
    return await service.reports(db)


@router.put("/people/{user_id}/mute")
async def mute(user_id: Id, user: CurrentUser, db: SessionDep) -> dict[str, Any]:
    """Mute a person: their messages are hidden for you (idempotent). 404, 422 yourself."""
    return {"muted": await service.set_mute(db, user, user_id, True)}


@router.delete("/people/{user_id}/mute")
async def unmute(user_id: Id, user: CurrentUser, db: SessionDep) -> dict[str, Any]:
    """Unmute a person (idempotent)."""
    return {"muted": await service.set_mute(db, user, user_id, False)}


@router.put("/people/{user_id}/block")
async def block(user_id: Id, user: CurrentUser, db: SessionDep) -> dict[str, Any]:
    """Block a person: no chat from them, never seated together by quick play, no
    invitations (idempotent). 404, 422 yourself."""
    return {"blocked": await service.set_block(db, user, user_id, True)}


@router.delete("/people/{user_id}/block")
async def unblock(user_id: Id, user: CurrentUser, db: SessionDep) -> dict[str, Any]:
    """Unblock a person (idempotent)."""
    return {"blocked": await service.set_block(db, user, user_id, False)}
