"""JSON routes of people.

| route | does | errors |
|---|---|---|
| ``POST /api/session`` ``{nickname}`` | a guest: cookie set, ``{token, user}`` | 422 bad nickname, 429 |
| ``POST /api/accounts`` ``{username, password, nickname?}`` | register (a signed-in guest is upgraded, same id): cookie set, ``{token, user}`` | 409 taken or already an account, 422, 429 |
| ``POST /api/login`` ``{username, password}`` | log in: cookie set, ``{token, user}`` | 401 wrong username or password, 429 |
| ``POST /api/logout`` | end every session of the caller (all its tokens), cookie cleared | 401 |
| ``GET /api/me`` | the caller: ``{id, nickname, kind, username}`` | 401 |

Unknown fields are refused (422). Rate limits are applied by app/accounts/guard.py.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response
from pydantic import BaseModel, ConfigDict, Field

from app.accounts import service
from app.accounts.deps import CurrentUser, OptionalUser
from app.accounts.models import User
from app.core.db import SessionDep
from app.core.settings import get_settings

router = APIRouter(prefix="/api", tags=["accounts"])
E429: dict[int | str, dict[str, Any]] = {
    429: {"description": "too many attempts: wait Retry-After seconds"}
}


class SessionIn(BaseModel):
    """``{"nickname": "Pepa"}``: 1–24 printable characters, trimmed."""

    model_config = ConfigDict(extra="forbid")
    nickname: str = Field(max_length=200)


class RegisterIn(BaseModel):
    """``{"username": "pepa", "password": "...", "nickname": "Pepa"}`` (nickname optional)."""

    model_config = ConfigDict(extra="forbid")
    username: str = Field(max_length=200)
    password: str = Field(max_length=1000)
    nickname: str | None = Field(default=None, max_length=200)


class LoginIn(BaseModel):
    """``{"username": "pepa", "password": "..."}``."""

    model_config = ConfigDict(extra="forbid")
    username: str = Field(max_length=200)
    password: str = Field(max_length=1000)


class UserOut(BaseModel):
    """A user as others see it; ``kind`` is "guest" or "account"."""

    id: int
    nickname: str
    kind: str = "guest"
    username: str | None = None


class SessionOut(BaseModel):
    """The bearer token (also set as the session cookie) and the user."""

    token: str
    user: UserOut


def _user_out(user: User) -> UserOut:
    return UserOut(id=user.id, nickname=user.nickname, kind=user.kind, username=user.username)


def _signed_in(response: Response, user: User) -> SessionOut:
    token = service.session_cookie_value(user)
    set_session_cookie(response, token)
    return SessionOut(token=token, user=_user_out(user))


@router.post(
    "/session", response_model=SessionOut, responses={422: {"description": "bad nickname"}, **E429}
)
async def create_session(body: SessionIn, response: Response, db: SessionDep) -> SessionOut:
    """Become a guest: sets the signed session cookie and returns a token for
    ``Authorization: Bearer``. 422 unless the nickname is 1–24 printable characters."""
    user = await service.create_guest(db, body.nickname)
    return _signed_in(response, user)


@router.post(
    "/accounts",
    status_code=201,
    response_model=SessionOut,
    responses={
        409: {"description": "username taken, or already an account"},
        422: {"description": "bad username, password or nickname"},
        **E429,
    },
)
async def register(
    body: RegisterIn, response: Response, db: SessionDep, user: OptionalUser
) -> SessionOut:
    """Register an account (username 3–32 of a-z 0-9 . _ -, password 8–256 characters).
    A signed-in guest becomes the account under the same id. Signs in (cookie, token)."""
    account = await service.register(db, body.username, body.password, body.nickname, user)
    return _signed_in(response, account)


@router.post(
    "/login",
    response_model=SessionOut,
    responses={401: {"description": "wrong username or password"}, **E429},
)
async def login(body: LoginIn, response: Response, db: SessionDep) -> SessionOut:
    """Log in to an account: sets the session cookie and returns a bearer token."""
    user = await service.authenticate(db, body.username, body.password)
    return _signed_in(response, user)


@router.post("/logout", status_code=204, responses={401: {"description": "not signed in"}})
async def logout(user: CurrentUser, db: SessionDep) -> Response:
    """End every session of the caller: its cookie and every token stop working."""
    await service.logout(db, user)
    response = Response(status_code=204)
    response.delete_cookie(service.SESSION_COOKIE, path="/")
    return response


@router.get("/me", response_model=UserOut, responses={401: {"description": "not signed in"}})
async def me(user: CurrentUser) -> UserOut:
    """The signed-in user."""
    return _user_out(user)


def set_session_cookie(response: Response, token: str) -> None:
    """Put the session cookie on ``response`` (HttpOnly, SameSite=Lax; Secure when configured)."""
    response.set_cookie(
        service.SESSION_COOKIE,
        token,
        max_age=service.SESSION_MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=get_settings().cookie_secure,
        path="/",
    )
