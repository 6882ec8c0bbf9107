"""HTML pages of invitations and private rooms (app/rooms/invites.py, docs/invitations.md).

| route | does |
|---|---|
| ``GET /join?code=`` | the lobby's "Join a table by code" field: that table, or the field again with its message |
| ``GET /join/{code}`` | the invitation's link: remembers the code (cookie), then the seats offered or the table |
| ``POST /join/{code}`` | take an offered seat (form ``seat``, and ``nickname`` for a visitor) |
| ``POST /rooms/{id}/offers/{seat}`` | the owner offers a seat (``offered=1``) or withdraws the offer (``offered=0``) |
| ``POST /rooms/{id}/spectators`` | the owner opens a private room to spectators (``open=1``) or closes it |

The share panel itself is part of the room page (templates/rooms/_share.html). Every POST
checks the CSRF token and the origin; refusals come back as the page with the message
next to its field (or at its top), never a 500.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from app.accounts import service as accounts
from app.accounts.api import set_session_cookie
from app.accounts.deps import OptionalUser
from app.accounts.models import User
from app.core.db import SessionDep
from app.core.errors import NotFound, ServiceError, TooManyRequests
from app.rooms import invites, service
from app.table import presenter
from app.web import csrf
from app.web.errors import message_for
from app.web.i18n import _
from app.web.templating import (
    FORBIDDEN_FORM,
    checked_form,
    error_response,
    first,
    go,
    person_form,
    templates,
    with_retry,
)

router = APIRouter(include_in_schema=False)
#: The code cookie lives as long as a session would (30 days).
COOKIE_SECONDS = 30 * 24 * 3600


def remember(request: Request, response: Response, code: str) -> Response:
    """``response`` with the ``tapet_codes`` cookie holding ``code`` too: this browser came
    through the link (a private room's page, socket and records then answer to it)."""
    response.set_cookie(
        invites.COOKIE,
        invites.cookie_value(request, code),
        max_age=COOKIE_SECONDS,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )
    return response


def join_page(
    request: Request,
    user: User | None,
    *,
    room: dict[str, Any] | None = None,
    code: str | None = None,
    errors: dict[str, str] | None = None,
    typed: dict[str, Any] | None = None,
    private: bool = False,
    status: int = 200,
) -> Response:
    """rooms/join.html: the code field (``room`` None, or ``private``: the refusal of a
    private room with the field), or the seats ``room`` offers to the holder of ``code``."""
    offers = []
    owner = None
    if room is not None and not private:
        owner = next(
            (s["name"] for s in room["seats"] if s["user_id"] == room["created_by"] and s["name"]),
            None,
        )
        names = presenter.seat_names(room)
        offers = [
            {"seat": s["seat"], "name": names.get(s["seat"]), "bot": s["kind"] == "bot"}
            for s in room["seats"]
            if s.get("offered")
        ]
    return templates.TemplateResponse(
        request,
        "rooms/join.html",
        {
            "user": user,
            "room": room,
            "code": code,
            "spoken": invites.spoken(code) if code else "",
            "offers": offers,
            "owner": owner,
            "private": private,
            "errors": errors or {},
            "typed": typed or {},
            "csrf_token": csrf.csrf_token(request),
        },
        status_code=status,
    )


@router.get("/join", response_class=HTMLResponse)
async def typed_code(
    request: Request, db: SessionDep, user: OptionalUser, code: str = "", room: int | None = None
) -> Response:
    """The code as typed (any case, dashes and spaces as read out): its invitation; the
    field again with the message when nothing or an unknown code was typed."""
    if not code.strip():
        refusal = _("Type the code of the table (6 letters and digits).")
        return join_page(request, user, errors={"code": refusal}, typed={"code": code}, status=422)
    try:
        await invites.room_of_code(db, code, invites.client_of(request))
    except (NotFound, TooManyRequests) as exc:
        return _code_refused(request, user, code, exc)
    return go(request, f"/join/{invites.normalize_code(code)}")


def _code_refused(
    request: Request, user: User | None, code: str, exc: NotFound | TooManyRequests
) -> Response:
    """The code's field again with why ``code`` opened nothing: unknown (404), or too many
    wrong codes from this address (429, with ``Retry-After``)."""
    page = join_page(
        request, user, errors={"code": message_for(exc)}, typed={"code": code}, status=exc.status
    )
    return with_retry(page, exc)


@router.get("/join/{code}", response_class=HTMLResponse)
async def invitation(request: Request, code: str, db: SessionDep, user: OptionalUser) -> Response:
    """The invitation's link: the code is remembered in this browser; the seats the owner
    offers (a button each) if any are left and the visitor holds none, else the table."""
    try:
        room_id = await invites.room_of_code(db, code, invites.client_of(request))
    except (NotFound, TooManyRequests) as exc:
        return _code_refused(request, user, code, exc)
    good = invites.normalize_code(code)
    assert good is not None  # room_of_code found it
    room = await service.room_info(db, room_id)
    seated = user is not None and any(s["user_id"] == user.id for s in room["seats"])
    if seated or room["status"] == "finished" or not any(s["offered"] for s in room["seats"]):
        return remember(request, go(request, f"/rooms/{room_id}"), good)
    return remember(request, join_page(request, user, room=room, code=good), good)


@router.post("/join/{code}")
async def take_offered_seat(
    request: Request, code: str, db: SessionDep, user: OptionalUser
) -> Response:
    """Take the offered seat of the form (a visitor becomes a guest under ``nickname``
    first) and go to the table. Taking it again goes to the table as well."""
    form = await checked_form(request)
    if form is None:
        return error_response(request, user, FORBIDDEN_FORM, 403)
    try:
        room_id = await invites.room_of_code(db, code, invites.client_of(request))
    except (NotFound, TooManyRequests) as exc:
        return with_retry(
            join_page(request, user, errors={"code": message_for(exc)}, status=exc.status), exc
        )
    good = invites.normalize_code(code)
    assert good is not None
    raw = first(form, "seat") or ""
    token = None
    try:
        if not raw.isdigit() or len(raw) > 2:
            raise NotFound("no such seat", "room_no_seat", room=room_id, seat=raw)
        if user is None:
            user = await accounts.create_guest(db, first(form, "nickname") or "")
            token = await accounts.start_session(db, user, request.headers.get("user-agent", ""))
        await invites.claim_seat(db, room_id, int(raw), user, good, invites.client_of(request))
    except ServiceError as exc:
        if user is not None:  # a refusal may have rolled the session back: the page reads it
            await db.refresh(user)
        field = "nickname" if str(exc.code).startswith("nickname") else ""
        room = await service.room_info(db, room_id)
        response = join_page(
            request,
            user,
            room=room,
            code=good,
            errors={field: message_for(exc)},
            typed={k: first(form, k) for k in form},
            status=exc.status,
        )
    else:
        response = go(request, f"/rooms/{room_id}")
    if token is not None:
        set_session_cookie(response, token)
    return remember(request, response, good)


@router.post("/rooms/{room_id}/offers/{seat}")
async def offer_seat(
    request: Request, room_id: int, seat: int, db: SessionDep, user: OptionalUser
) -> Response:
    """The owner offers ``seat`` (``offered=1``) or withdraws the offer (``offered=0``);
    back to the table, its share panel open."""
    form, refused = await person_form(request, user)
    if refused:
        return refused
    assert form is not None and user is not None
    try:
        await invites.offer_seat(db, room_id, seat, user, first(form, "offered") != "0")
    except ServiceError as exc:
        return error_response(request, user, exc, exc.status, f"/rooms/{room_id}")
    return go(request, f"/rooms/{room_id}?share=1")


@router.post("/rooms/{room_id}/spectators")
async def spectators(
    request: Request, room_id: int, db: SessionDep, user: OptionalUser
) -> Response:
    """The owner opens the private room to spectators (``open=1``) or closes it (``open=0``)."""
    form, refused = await person_form(request, user)
    if refused:
        return refused
    assert form is not None and user is not None
    try:
        await invites.open_to_spectators(db, room_id, user, first(form, "open") == "1")
    except ServiceError as exc:
        return error_response(request, user, exc, exc.status, f"/rooms/{room_id}")
    return go(request, f"/rooms/{room_id}?share=1")
