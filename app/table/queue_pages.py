"""HTML pages of quick play with people (the queue of app/rooms/queue.py).

| route | does |
|---|---|
| ``GET /queue`` | the join form (``?game=``), or the waiting page while the person waits |
| ``POST /queue`` | join (form: ``game``, ``preset``, ``wait_seconds``, ``partner``, and ``nickname``, ``creation_key`` for a visitor) |
| ``POST /queue/tick`` | the waiting page's poll: make the tables that can be made, the status fragment or ``HX-Redirect`` to the table |
| ``POST /queue/leave`` | leave the queue, back to the lobby |
| ``GET /queue/p?code=`` | the partner's code as typed on the queue page: its invitation |
| ``GET /queue/p/{code}`` | a partner entry's invitation |
| ``POST /queue/p/{code}`` | join it as the partner (a visitor: ``nickname``, ``creation_key``) |

Every POST checks the CSRF token and the origin. A visitor's form carries a one-time
``creation_key``: sent twice at once (a double tap), it makes one guest, one entry, and
both answers sign that guest in and go to the waiting page. Refusals come back as the form with
the message next to its field (or at its top), never a 500.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from app import rules
from app.accounts import service as accounts
from app.accounts.api import set_session_cookie
from app.accounts.deps import OptionalUser
from app.accounts.models import User
from app.core.db import SessionDep
from app.core.errors import Conflict, ServiceError, TooManyRequests
from app.rooms import invites, queue
from app.table import labels
from app.web import cards, csrf
from app.web.errors import message_for
from app.web.i18n import _
from app.web.templating import (
    FORBIDDEN_FORM,
    checked_form,
    error_response,
    first,
    go,
    templates,
    with_retry,
)

router = APIRouter(include_in_schema=False)


def queue_games() -> list[dict[str, Any]]:
    """The games of the join form: ``[{id, name, players, presets: [(preset, its words)],
    preset (the default), pairs (a partner entry is allowed)}]``."""
    return [
        {
            "id": g.id,
            "name": cards.option_text(g.name),
            "players": g.players,
            "presets": [(p, labels.choice_label("preset", p, g.id)) for p in queue.presets(g.id)],
            "preset": queue.default_preset(g.id),
            "pairs": queue.pairs_allowed(g.id),
        }
        for g in rules.GAMES.values()
    ]


def _labelled(state: dict[str, Any] | None) -> dict[str, Any] | None:
    """``state`` with ``preset_label``: its preset's words ("" for none)."""
    if state is not None:
        preset = state["preset"]
        state["preset_label"] = (
            labels.choice_label("preset", preset, state["game"]) if preset else ""
        )
    return state


def _page(
    request: Request,
    user: User | None,
    state: dict[str, Any] | None,
    game: str | None = None,
    errors: dict[str, str] | None = None,
    typed: dict[str, Any] | None = None,
    status: int = 200,
) -> Response:
    page = templates.TemplateResponse(
        request,
        "rooms/queue.html",
        {
            "user": user,
            "q": _labelled(state),
            "games": queue_games(),
            "game": game if game in rules.GAMES else None,
            "waits": queue.WAIT_CHOICES,
            "default_wait": queue.DEFAULT_WAIT,
            "poll": queue.POLL_SECONDS,
            "errors": errors or {},
            "typed": typed or {},
            "guest_name": labels.guest_name(),
            "csrf_token": csrf.csrf_token(request),
            # one key per form shown: a new visitor's double tap is one guest
            "creation_key": accounts.new_form_key(),
            "next": "/queue",
        },
        status_code=status,
    )
    page.headers["Cache-Control"] = "no-store"
    return page


@router.get("/queue", response_class=HTMLResponse)
async def queue_page(
    request: Request, db: SessionDep, user: OptionalUser, game: str | None = None
) -> Response:
    """The waiting page of a person in the queue (their table once matched), else the
    join form."""
    state = await queue.status(db, user) if user else None
    if state and state["room_id"]:
        return go(request, f"/rooms/{state['room_id']}")
    return _page(request, user, state, game)


async def _guest(
    request: Request, db: Any, user: User | None, form: dict[str, Any]
) -> tuple[User, str | None]:
    """``(user, token)``: the signed-in user and None, or for a visitor the guest the form
    (its ``nickname`` and one-time ``creation_key``) makes and a new session's token. The
    same form sent again before its first answer set the cookie (a double tap) is that
    same guest (``accounts.guest_of_form``), whose joining again is the one queue entry.
    Raises the nickname's refusal (ServiceError)."""
    if user is not None:
        return user, None
    key = first(form, "creation_key")
    guest = await accounts.guest_of_form(db, request, first(form, "nickname") or "", key)
    return guest, await accounts.start_session(db, guest, request.headers.get("user-agent", ""))


def _field(exc: ServiceError) -> str:
    return {
        "unknown_game": "game",
        "queue_preset": "preset",
        "queue_wait": "wait_seconds",
        "queue_no_partners": "partner",
    }.get(str(exc.code), "nickname" if str(exc.code).startswith("nickname") else "")


@router.post("/queue")
async def join(request: Request, db: SessionDep, user: OptionalUser) -> Response:
    """Join the queue from the form and go to the waiting page (303 to ``/queue``, which
    sends on to the table once matched), with the session cookie for a new visitor; the
    same form sent again is the same guest and entry (``_guest``). A refusal: the form
    again with the message next to its field, the refusal's status (403 for a form
    from elsewhere)."""
    form = await checked_form(request)
    if form is None:
        return error_response(request, user, FORBIDDEN_FORM, 403)
    game = first(form, "game") or ""
    token = None
    try:
        queue.check_pool(game, first(form, f"preset_{game}") or first(form, "preset") or "")
        user, token = await _guest(request, db, user, form)
        await queue.join(
            db,
            user,
            game,
            first(form, f"preset_{game}") or first(form, "preset") or "",
            first(form, "wait_seconds") or queue.DEFAULT_WAIT,
            partner=first(form, "partner") == "true",
        )
    except ServiceError as exc:
        if user is not None:  # a refusal may have rolled the session back: the page reads it
            await db.refresh(user)
        typed = {k: first(form, k) for k in form}
        response = _page(request, user, None, game, {_field(exc): message_for(exc)}, typed)
        response.status_code = exc.status
    else:
        response = go(request, "/queue")
    if token is not None:
        set_session_cookie(response, token)
    return response


@router.post("/queue/tick", response_class=HTMLResponse)
async def tick(request: Request, db: SessionDep, user: OptionalUser) -> Response:
    """The waiting page's poll (idempotent): the status fragment, ``HX-Redirect`` to the
    table once matched, the lobby when the entry is gone."""
    form = await checked_form(request)
    if form is None:
        return error_response(request, user, FORBIDDEN_FORM, 403)
    state = await queue.tick(db, user) if user else None
    if state is None:
        return go(request, "/queue")
    if state["room_id"]:
        return go(request, f"/rooms/{state['room_id']}")
    return templates.TemplateResponse(
        request,
        "rooms/_queue_status.html",
        {
            "q": state,
            "user": user,
            "poll": queue.POLL_SECONDS,
            "csrf_token": csrf.csrf_token(request),
        },
    )


@router.post("/queue/leave")
async def leave(request: Request, db: SessionDep, user: OptionalUser) -> Response:
    """Leave the queue (idempotent) and go back to the lobby."""
    form = await checked_form(request)
    if form is None:
        return error_response(request, user, FORBIDDEN_FORM, 403)
    if user is not None:
        await queue.leave(db, user)
    return go(request, "/")


def typed_code(code: str) -> str:
    """A partner code as a person types it (``" k7m-2pq "``): its ASCII letters and
    digits, upper case (the queue's alphabet), at most 16 kept; anything else dropped."""
    return "".join(c for c in code.upper() if c.isascii() and c.isalnum())[:16]


@router.get("/queue/p", response_class=HTMLResponse)
async def typed_invitation(request: Request, user: OptionalUser, code: str = "") -> Response:
    """The queue page's "partner's code" form (GET ``?code=``): the invitation of that code,
    or the queue page again with the field's message when nothing was typed."""
    if not typed_code(code):
        return _page(
            request, user, None, None, {"code": _("Type the code your partner sent you.")}, {}
        )
    return go(request, f"/queue/p/{typed_code(code)}")


@router.get("/queue/p/{code}", response_class=HTMLResponse)
async def invitation(request: Request, code: str, db: SessionDep, user: OptionalUser) -> Response:
    """A partner entry's invitation: a button (and a nickname for a visitor); the waiting
    page (or the table) for the person who already joined it; the reason and no form when
    it cannot be joined (``queue.check_partner``: 404 no entry waits
    with that code, 409 someone else joined it or it is the viewer's own). A code that
    names no entry counts against the address's wrong codes, as an invitation code does
    (``invites.code_try``): 429 with no form (and ``Retry-After``) once they are
    used up."""
    client = invites.client_of(request)
    missing: str | None = None
    refusal: TooManyRequests | None = None
    status = 200
    try:
        with invites.code_try(client):
            joined = await queue.check_partner(db, user, typed_code(code))
        if joined:  # their own place in it: the waiting page, or their table once matched
            return go(request, "/queue")
    except ServiceError as exc:
        refusal = exc if isinstance(exc, TooManyRequests) else None
        missing, status = message_for(exc), exc.status
    page = templates.TemplateResponse(
        request,
        "rooms/queue_partner.html",
        {
            "user": user,
            "code": typed_code(code),
            "csrf_token": csrf.csrf_token(request),
            "creation_key": accounts.new_form_key(),
            "errors": {},
            "guest_name": labels.guest_name(),
            "missing": missing,
        },
        status_code=status,
    )
    page.headers["Cache-Control"] = "no-store"  # a visitor's form and one-time key in it
    return with_retry(page, refusal)


async def _visitor_may_join(request: Request, db: Any, form: dict[str, Any], code: str) -> None:
    """Raise the refusal a visitor's join of partner entry ``code`` would get
    (``queue.check_partner``), before a guest is made for it; asked for the guest the
    visitor's twin tap already made, if any. A place taken less than a minute ago (a
    double tap's twin can be that late: ``accounts.REPLAY_SECONDS``) by someone the form
    cannot tell yet is let through: the guest the form then makes tells a twin (the same
    place, ``join_partner``) from a loser."""
    nick, key = first(form, "nickname") or "", first(form, "creation_key")
    twin = await accounts.guest_made_by_form(db, request, nick, key)
    try:
        await queue.check_partner(db, twin, code)
    except Conflict as exc:
        if (
            twin is not None
            or exc.code != "queue_partner_full"
            or not await queue.partner_joined_within(db, code, accounts.REPLAY_SECONDS)
        ):
            raise


@router.post("/queue/p/{code}")
async def join_partner(request: Request, code: str, db: SessionDep, user: OptionalUser) -> Response:
    """Join the partner entry ``code`` and go to the waiting page. A code that names no
    entry counts against the address's wrong codes (:func:`invitation`); once they are
    used up no code is tried (429). A visitor becomes a guest only once the entry is known
    to be one they may join (``queue.check_partner``; a visitor who loses the place to
    someone else within a minute, as a double tap's twin might have taken it, stays the
    guest the form made, signed in: deleting it could delete a double tap's own guest). The form comes back
    only for a refused nickname; any other refusal (no such entry, too many wrong codes,
    someone else joined, your own entry...) is its reason alone, with no form to send the
    same code again."""
    form = await checked_form(request)
    if form is None:
        return error_response(request, user, FORBIDDEN_FORM, 403)
    token = None
    try:
        with invites.code_try(invites.client_of(request)):
            if user is None:  # before any guest is made (join_partner checks the others)
                await _visitor_may_join(request, db, form, typed_code(code))
            user, token = await _guest(request, db, user, form)
            await queue.join_partner(db, user, typed_code(code))
    except ServiceError as exc:
        if user is not None:  # a refusal may have rolled the session back: the page reads it
            await db.refresh(user)
        nickname = str(exc.code).startswith("nickname")
        response: Response = templates.TemplateResponse(
            request,
            "rooms/queue_partner.html",
            {
                "user": user,
                "code": typed_code(code),
                "csrf_token": csrf.csrf_token(request),
                "creation_key": accounts.new_form_key(),
                "errors": {"nickname": message_for(exc)} if nickname else {},
                "typed": {k: first(form, k) for k in form},
                "missing": None if nickname else message_for(exc),
            },
            status_code=exc.status,
        )
        response.headers["Cache-Control"] = "no-store"  # the form again, with a new key
        with_retry(response, exc)
    else:
        response = go(request, "/queue")
    if token is not None:
        set_session_cookie(response, token)
    return response
