"""HTML routes of people: the guest nickname form and logging out.

| route | does |
|---|---|
| ``POST /session`` | form ``nickname`` (and ``next``): a new guest, the session cookie set, back to ``next`` |
| ``POST /logout`` | forget the session cookie, back to the lobby |

The nickname form itself is ``templates/accounts/_nickname.html``, shown by the
lobby and by a room to a visitor without a session.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from app.db import SessionDep
from app.errors import ServiceError

from . import csrf, service
from .api import set_session_cookie

router = APIRouter(include_in_schema=False)
templates = Jinja2Templates(directory=str(Path(__file__).resolve().parents[2] / "templates"))

FORBIDDEN_FORM = "This form has expired or came from another site. Reload the page and try again."


def safe_next(value: object) -> str:
    """A local path to go back to: ``/rooms/3`` is kept, anything else (another site) becomes ``/``."""
    text = str(value or "/")
    if not text.startswith("/") or text.startswith("//") or "\\" in text:
        return "/"
    return text


def _error(request: Request, message: str, status: int, back: str = "/") -> Response:
    if request.headers.get("hx-request") == "true":
        html = templates.get_template("_flash.html").render(flash=message, flash_kind="error")
        return HTMLResponse(html, status_code=status)
    return templates.TemplateResponse(
        request,
        "error.html",
        {"user": None, "message": message, "back": back, "csrf_token": csrf.csrf_token(request)},
        status_code=status,
    )


@router.post("/session")
async def start_session(request: Request, db: SessionDep) -> Response:
    """Become a guest under the posted nickname and go back to ``next``.

    A bad nickname (empty, over 24 characters, control characters) gives a 422
    with the reason, shown as a message."""
    form = await request.form()
    back = safe_next(form.get("next"))
    if not csrf.check(request, str(form.get(csrf.FIELD) or "")):
        return _error(request, FORBIDDEN_FORM, 403, back)
    try:
        user = await service.create_guest(db, str(form.get("nickname") or ""))
    except ServiceError as exc:
        return _error(request, exc.message.capitalize() + ".", exc.status, back)
    response: Response
    if request.headers.get("hx-request") == "true":
        response = HTMLResponse("", headers={"HX-Redirect": back})
    else:
        response = RedirectResponse(back, status_code=303)
    set_session_cookie(response, service.session_cookie_value(user))
    return response


@router.post("/logout")
async def logout(request: Request) -> Response:
    """Forget the session cookie (the guest stays in the database, with their history)."""
    form = await request.form()
    if not csrf.check(request, str(form.get(csrf.FIELD) or "")):
        return _error(request, FORBIDDEN_FORM, 403)
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(service.SESSION_COOKIE, path="/")
    return response
