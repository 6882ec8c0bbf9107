"""HTML routes of people: guests, accounts, logging in and out.

| route | does |
|---|---|
| ``POST /session`` | form ``nickname`` (and ``next``): a new guest, the session cookie set, back to ``next`` |
| ``GET /login``, ``POST /login`` | the log-in form (``username``, ``password``, ``next``) |
| ``GET /register``, ``POST /register`` | the registration form; a guest becomes an account, same id |
| ``GET /account`` | who you are; a guest is offered to register; the player page's visibility |
| ``POST /account/profile`` | form ``hidden`` ("true" or absent): hide or show the player page |
| ``GET /logout`` | a confirmation form (a GET never changes anything) |
| ``POST /logout`` | end every session of the user and forget the cookie, back to the lobby |

Every POST checks the CSRF token and the origin (app/web/csrf.py). Wrong
credentials come back as the form with a message (401), never saying whether the
username exists. Rate limits are applied by app/accounts/guard.py.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts import service
from app.accounts.api import set_session_cookie
from app.accounts.deps import OptionalUser
from app.accounts.models import User
from app.core.db import SessionDep
from app.core.errors import ServiceError
from app.web import csrf
from app.web.templating import templates

router = APIRouter(include_in_schema=False)

FORBIDDEN_FORM = "This form has expired or came from another site. Reload the page and try again."


def safe_next(value: object) -> str:
    """A local path to go back to: ``/rooms/3`` is kept, anything else (another site) becomes ``/``."""
    text = str(value or "/")
    if not text.startswith("/") or text.startswith("//") or "\\" in text:
        return "/"
    return text


def _error(request: Request, message: str | ServiceError, status: int, back: str = "/") -> Response:
    if request.headers.get("hx-request") == "true":
        html = templates.get_template("_flash.html").render(flash=message, flash_kind="error")
        return HTMLResponse(html, status_code=status)
    return templates.TemplateResponse(
        request,
        "error.html",
        {"user": None, "message": message, "back": back, "csrf_token": csrf.csrf_token(request)},
        status_code=status,
    )


async def _signed_in(request: Request, db: AsyncSession, user: User, back: str) -> Response:
    token = await service.start_session(db, user, request.headers.get("user-agent", ""))
    response: Response
    if request.headers.get("hx-request") == "true":
        response = HTMLResponse("", headers={"HX-Redirect": back})
    else:
        response = RedirectResponse(back, status_code=303)
    set_session_cookie(response, token)
    return response


def _form_page(
    request: Request, name: str, user: User | None, status: int = 200, **extra: Any
) -> Response:
    context = {
        "user": user,
        "csrf_token": csrf.csrf_token(request),
        "flash": None,
        "flash_kind": "error",
    }
    context.update(extra)
    return templates.TemplateResponse(request, f"accounts/{name}.html", context, status_code=status)


@router.post("/session")
async def start_session(request: Request, db: SessionDep) -> Response:
    """Become a guest under the posted nickname and go back to ``next``.

    The form's one-time ``creation_key`` (templates/accounts/_nickname.html), tied to the
    browser (``csrf.browser_key``), makes the same form sent twice (a double tap) the one
    guest, signed in by both answers (``service.guest_of_form``). A bad nickname (empty,
    over 24 characters, control characters) gives a 422 with the reason, shown as a
    message."""
    form = await request.form()
    back = safe_next(form.get("next"))
    if not csrf.check(request, str(form.get(csrf.FIELD) or "")):
        return _error(request, FORBIDDEN_FORM, 403, back)
    try:
        key = str(form.get("creation_key") or "") or None
        user = await service.guest_of_form(db, request, str(form.get("nickname") or ""), key)
    except ServiceError as exc:
        return _error(request, exc, exc.status, back)
    return await _signed_in(request, db, user, back)


@router.get("/login", response_class=HTMLResponse)
async def login_page(request: Request, user: OptionalUser) -> Response:
    """The log-in form."""
    return _form_page(
        request, "login", user, next=safe_next(request.query_params.get("next")), username=""
    )


@router.post("/login")
async def login(request: Request, db: SessionDep, user: OptionalUser) -> Response:
    """Log in and go back to ``next``; the form again with a message (401) when wrong."""
    form = await request.form()
    back = safe_next(form.get("next"))
    if not csrf.check(request, str(form.get(csrf.FIELD) or "")):
        return _error(request, FORBIDDEN_FORM, 403, "/login")
    username = str(form.get("username") or "")[:64]
    try:
        account = await service.authenticate(db, username, str(form.get("password") or ""))
    except ServiceError as exc:
        return _form_page(
            request,
            "login",
            user,
            exc.status,
            next=back,
            username=username,
            flash=exc,
        )
    return await _signed_in(request, db, account, back)


@router.get("/register", response_class=HTMLResponse)
async def register_page(request: Request, user: OptionalUser) -> Response:
    """The registration form (a guest keeps its id and nickname)."""
    return _form_page(
        request,
        "register",
        user,
        next=safe_next(request.query_params.get("next")),
        username="",
        nickname=user.nickname if user else "",
    )


@router.post("/register")
async def register(request: Request, db: SessionDep, user: OptionalUser) -> Response:
    """Register (a signed-in guest becomes the account) and go back to ``next``."""
    form = await request.form()
    back = safe_next(form.get("next"))
    if not csrf.check(request, str(form.get(csrf.FIELD) or "")):
        return _error(request, FORBIDDEN_FORM, 403, "/register")
    username = str(form.get("username") or "")[:64]
    nickname = str(form.get("nickname") or "")[:64]
    password = str(form.get("password") or "")
    if password != str(form.get("password2", password) or ""):
        return _form_page(
            request,
            "register",
            user,
            422,
            next=back,
            username=username,
            nickname=nickname,
            flash="The two passwords differ.",
        )
    try:
        account = await service.register(db, username, password, nickname or None, user)
    except ServiceError as exc:
        twin = await _registered_twin(db, exc, username, password)
        if twin is not None:
            return await _signed_in(request, db, twin, back)
        return _form_page(
            request,
            "register",
            user,
            exc.status,
            next=back,
            username=username,
            nickname=nickname,
            flash=exc,
        )
    return await _signed_in(request, db, account, back)


async def _registered_twin(
    db: AsyncSession, exc: ServiceError, username: str, password: str
) -> User | None:
    """The account a double-tapped Register form made with its first copy: the username
    is taken (or the guest has become it) and the password is that account's, so the
    second copy signs in as the first made it (a fresh tester was told "taken" and left
    signed out). Anyone else is told the username is taken, as before."""
    if exc.code not in ("username_taken", "guest_registered"):
        return None
    await db.rollback()
    try:
        return await service.authenticate(db, username, password)
    except ServiceError:
        return None


@router.get("/account", response_class=HTMLResponse)
async def account_page(request: Request, user: OptionalUser) -> Response:
    """Who you are: nickname, account or guest; a guest is offered to register."""
    return _form_page(request, "account", user)


@router.post("/account/profile")
async def profile_visibility(request: Request, db: SessionDep, user: OptionalUser) -> Response:
    """The account page's form: ``hidden`` ticked hides the player page, unticked shows it;
    back to ``/account``."""
    form = await request.form()
    if not csrf.check(request, str(form.get(csrf.FIELD) or "")):
        return _error(request, FORBIDDEN_FORM, 403, "/account")
    if user is None:
        return _error(request, "Choose a nickname first.", 401, "/account")
    await service.set_profile_hidden(db, user, form.get("hidden") == "true")
    return RedirectResponse("/account", status_code=303)


@router.get("/logout", response_class=HTMLResponse)
async def logout_page(request: Request, user: OptionalUser) -> Response:
    """A confirmation form: logging out is a POST (with the CSRF token)."""
    return _form_page(request, "account", user, confirm_logout=True)


@router.post("/logout")
async def logout(request: Request, db: SessionDep, user: OptionalUser) -> Response:
    """End every session of the user (all its cookies and tokens) and go to the lobby."""
    form = await request.form()
    if not csrf.check(request, str(form.get(csrf.FIELD) or "")):
        return _error(request, FORBIDDEN_FORM, 403)
    if user is not None:
        await service.logout(db, user)
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(service.SESSION_COOKIE, path="/")
    return response
