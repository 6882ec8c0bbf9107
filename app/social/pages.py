"""HTML routes of friends and presence (issue 18 §3, §5); they call only app/social/service.py.

| route | does |
|---|---|
| ``GET /players/{id}/follow`` | the Follow / Unfollow button of a player page (fragment, loaded by htmx) |
| ``POST /players/{id}/follow`` | form ``follow`` ("true": follow, else unfollow); back to the player page (htmx: the button) |
| ``GET /following`` | who you follow: online now or not, at which table (watch / join), invite to my table |
| ``POST /account/presence`` | form ``hidden`` ("true" or absent): hide or show your online status; back to ``/account`` |

Every POST checks the CSRF token and the origin (app/web/csrf.py). Refusals (yourself, a
hidden profile, no such person) come back as the error page, or a flash message for htmx.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.accounts.deps import OptionalUser
from app.core.db import INT32, SessionDep
from app.core.errors import ServiceError
from app.social import service
from app.web import csrf
from app.web.templating import error_response, is_htmx, templates

router = APIRouter(include_in_schema=False)

FORBIDDEN_FORM = "This form has expired or came from another site. Reload the page and try again."


def _button(request: Request, user: Any, player_id: int, following: bool) -> Response:
    return templates.TemplateResponse(
        request,
        "social/_follow.html",
        {
            "user": user,
            "player_id": player_id,
            "following": following,
            "csrf_token": csrf.csrf_token(request),
        },
    )


@router.get("/players/{player_id}/follow", response_class=HTMLResponse)
async def follow_button(
    request: Request, player_id: int, db: SessionDep, user: OptionalUser
) -> Response:
    """The Follow / Unfollow button for ``player_id`` (empty for a visitor without a
    nickname, and on one's own page; empty with a 404 for nobody)."""
    if user is None or user.id == player_id or not 1 <= player_id <= INT32:
        return HTMLResponse("")
    if not await service.player_exists(db, player_id):
        return HTMLResponse("", status_code=404)
    return _button(request, user, player_id, await service.is_following(db, user.id, player_id))


@router.post("/players/{player_id}/follow")
async def follow_form(
    request: Request, player_id: int, db: SessionDep, user: OptionalUser
) -> Response:
    """Follow (form ``follow=true``) or unfollow ``player_id``; idempotent both ways."""
    form = await request.form()
    back = f"/players/{player_id}"
    if not csrf.check(request, str(form.get(csrf.FIELD) or "")):
        return error_response(request, user, FORBIDDEN_FORM, 403, back)
    if user is None:
        return error_response(request, user, "Choose a nickname first.", 401, back)
    if not 1 <= player_id <= INT32:
        return error_response(request, user, "There is no such page.", 404)
    wanted = form.get("follow") == "true"
    try:
        if wanted:
            await service.follow(db, user, player_id)
        else:
            await service.unfollow(db, user, player_id)
    except ServiceError as exc:
        return error_response(request, user, exc, exc.status, back)
    if is_htmx(request):
        return _button(request, user, player_id, wanted)
    return RedirectResponse(back, status_code=303)


@router.get("/following", response_class=HTMLResponse)
async def following_page(request: Request, db: SessionDep, user: OptionalUser) -> Response:
    """Who the signed-in person follows, online first, with their table."""
    people = await service.following(db, user) if user else []
    table = await service.my_table(db, user) if user else None
    base = str(request.base_url).rstrip("/")
    return templates.TemplateResponse(
        request,
        "social/following.html",
        {
            "user": user,
            "csrf_token": csrf.csrf_token(request),
            "people": people,
            "my_table": table,
            "my_table_url": f"{base}/rooms/{table['id']}" if table else None,
        },
    )


@router.post("/account/presence")
async def presence_setting(request: Request, db: SessionDep, user: OptionalUser) -> Response:
    """The account page's form: ``hidden`` ticked hides the online status; back to ``/account``."""
    form = await request.form()
    if not csrf.check(request, str(form.get(csrf.FIELD) or "")):
        return error_response(request, user, FORBIDDEN_FORM, 403, "/account")
    if user is None:
        return error_response(request, user, "Choose a nickname first.", 401, "/account")
    await service.set_presence_hidden(db, user, form.get("hidden") == "true")
    return RedirectResponse("/account", status_code=303)
