"""The chat's HTML routes (htmx forms of templates/chat/_body.html): post, mute, block,
report, hide. Each answers with the chat's body for the caller (``#chat-body``), a
refusal shown next to the field; without htmx, a redirect back to the room."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.accounts.deps import OptionalUser
from app.accounts.models import User
from app.chat import delivery, service
from app.core.db import SessionDep
from app.core.errors import ServiceError
from app.rooms import invites
from app.web import csrf
from app.web.errors import message_for
from app.web.templating import (
    FORBIDDEN_FORM,
    error_response,
    first,
    is_htmx,
    person_form,
)

router = APIRouter(include_in_schema=False)


async def _body(
    request: Request, db: Any, room_id: int, user: User | None, error: str = "", draft: str = ""
) -> Response:
    if not is_htmx(request):
        return RedirectResponse(f"/rooms/{room_id}", status_code=303)
    try:  # a private room's chat only for who may see the room (any form names a room)
        await invites.require_access(db, room_id, user, invites.codes_of(request))
    except ServiceError as exc:
        return error_response(request, user, exc, exc.status)
    chat = await service.read(db, room_id, user)
    html = delivery.render_body(
        room_id,
        user,
        chat["chat"],
        chat["channel"],
        chat["messages"],
        csrf.csrf_token(request),
        await service.may_hide(db, user, room_id),
        error=error,
        draft=draft,
    )
    return HTMLResponse(html)


@router.post("/rooms/{room_id}/chat", response_class=HTMLResponse)
async def post(request: Request, room_id: int, db: SessionDep, user: OptionalUser) -> Response:
    """Post the form's message or reaction; a refusal keeps the draft and says why."""
    form, refused = await person_form(request, user)
    if refused is not None or form is None or user is None:
        return refused or error_response(request, user, FORBIDDEN_FORM, 403)
    text = first(form, "text") or ""
    try:
        await invites.require_access(db, room_id, user, invites.codes_of(request))
        await service.post(
            db, room_id, user, text, first(form, "reaction") or None, first(form, "client_id")
        )
    except ServiceError as exc:
        if exc.status == 404:
            return error_response(request, user, exc, 404)
        return await _body(request, db, room_id, user, message_for(exc.message), text[:400])
    return await _body(request, db, room_id, user)


def _room_of(form: dict[str, Any]) -> int | None:
    raw = first(form, "room") or ""
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else None


async def _person_switch(
    request: Request, db: Any, user: User | None, person: int, what: str
) -> Response:
    form, refused = await person_form(request, user)
    if refused is not None or form is None or user is None:
        return refused or error_response(request, user, FORBIDDEN_FORM, 403)
    on = first(form, "on") != "0"
    room_id = _room_of(form)
    try:
        if room_id is not None:  # the answer is that room's chat: refused first, not after
            await invites.require_access(db, room_id, user, invites.codes_of(request))
        if what == "mute":
            await service.set_mute(db, user, person, on)
        else:
            await service.set_block(db, user, person, on)
    except ServiceError as exc:
        return error_response(request, user, exc, exc.status)
    if room_id is None:
        return RedirectResponse(f"/players/{person}", status_code=303)
    return await _body(request, db, room_id, user)


@router.post("/people/{person}/mute", response_class=HTMLResponse)
async def mute(request: Request, person: int, db: SessionDep, user: OptionalUser) -> Response:
    """Mute (``on=1``) or unmute (``on=0``) a person, for the caller only."""
    return await _person_switch(request, db, user, person, "mute")


@router.post("/people/{person}/block", response_class=HTMLResponse)
async def block(request: Request, person: int, db: SessionDep, user: OptionalUser) -> Response:
    """Block (``on=1``) or unblock (``on=0``) a person."""
    return await _person_switch(request, db, user, person, "block")


@router.post("/chat/messages/{message_id}/report", response_class=HTMLResponse)
async def report(request: Request, message_id: int, db: SessionDep, user: OptionalUser) -> Response:
    """Report a message to the site's admins (once per person)."""
    form, refused = await person_form(request, user)
    if refused is not None or form is None or user is None:
        return refused or error_response(request, user, FORBIDDEN_FORM, 403)
    try:
        room_id = await service.room_of_message(db, message_id)
        await invites.require_access(db, room_id, user, invites.codes_of(request))
        await service.report(db, user, message_id, first(form, "reason") or "")
    except ServiceError as exc:
        return error_response(request, user, exc, exc.status)
    return await _body(request, db, room_id, user, error=message_for(service.REPORTED))


@router.post("/chat/messages/{message_id}/hide", response_class=HTMLResponse)
async def hide(request: Request, message_id: int, db: SessionDep, user: OptionalUser) -> Response:
    """Hide a message for everyone (an admin, or the championship's organiser)."""
    form, refused = await person_form(request, user)
    if refused is not None or form is None or user is None:
        return refused or error_response(request, user, FORBIDDEN_FORM, 403)
    try:
        room_id = await service.hide(db, user, message_id)
    except ServiceError as exc:
        return error_response(request, user, exc, exc.status)
    return await _body(request, db, room_id, user)
