"""JSON routes of people.

| route | does | errors |
|---|---|---|
| ``POST /api/session`` ``{nickname}`` | a guest: cookie set, ``{token, user}`` | 422 bad nickname, 429 |
| ``POST /api/accounts`` ``{username, password, nickname?}`` | register (a signed-in guest is upgraded, same id): cookie set, ``{token, user}`` | 409 taken or already an account, 422, 429 |
| ``POST /api/login`` ``{username, password}`` | log in: cookie set, ``{token, user}`` | 401 wrong username or password, 429 |
| ``POST /api/logout`` | log out everywhere: end every session of the caller (all its tokens, its sockets in every process), cookie cleared | 401 |
| ``GET /api/me`` | the caller: ``{id, nickname, kind, username}`` | 401 |
| ``DELETE /api/me`` ``{password?}`` | delete the caller (name and login erased, sessions ended; an account gives its password) | 401, 429 |
| ``POST /api/password`` ``{current_password, new_password}`` | change the password: every session ends, a new one for the caller: ``{token, user}`` | 401, 403 guest, 422, 429 |
| ``GET /api/sessions`` | the caller's live sessions: ``[{id, created_at, expires_at, agent, current}]`` | 401 |
| ``DELETE /api/sessions/{id}`` | end that session (its token, its sockets everywhere) | 401, 404 not yours |

Unknown fields are refused (422). Rate limits are applied by app/accounts/guard.py.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.ext.asyncio import AsyncSession

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


async def _signed_in(
    request: Request, response: Response, db: AsyncSession, user: User
) -> SessionOut:
    token = await service.start_session(db, user, request.headers.get("user-agent", ""))
    set_session_cookie(response, token)
    return SessionOut(token=token, user=_user_out(user))


@router.post(
    "/session", response_model=SessionOut, responses={422: {"description": "bad nickname"}, **E429}
)
async def create_session(
    body: SessionIn, request: Request, response: Response, db: SessionDep
) -> SessionOut:
    """Become a guest: sets the signed session cookie and returns a token for
    ``Authorization: Bearer``. 422 unless the nickname is 1–24 printable characters."""
    user = await service.create_guest(db, body.nickname)
    return await _signed_in(request, response, db, user)


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
    body: RegisterIn, request: Request, response: Response, db: SessionDep, user: OptionalUser
) -> SessionOut:
    """Register an account (username 3–32 of a-z 0-9 . _ -, password 8–256 characters).
    A signed-in guest becomes the account under the same id. Signs in (cookie, token)."""
    account = await service.register(db, body.username, body.password, body.nickname, user)
    return await _signed_in(request, response, db, account)


@router.post(
    "/login",
    response_model=SessionOut,
    responses={401: {"description": "wrong username or password"}, **E429},
)
async def login(body: LoginIn, request: Request, response: Response, db: SessionDep) -> SessionOut:
    """Log in to an account: sets the session cookie and returns a bearer token."""
    user = await service.authenticate(db, body.username, body.password)
    return await _signed_in(request, response, db, user)


@router.post("/logout", status_code=204, responses={401: {"description": "not signed in"}})
async def logout(user: CurrentUser, db: SessionDep) -> Response:
    """Log out everywhere: every session of the caller ends (its cookie, every token, and
    the sockets opened with them, in every server process)."""
    await service.logout(db, user)
    response = Response(status_code=204)
    response.delete_cookie(service.SESSION_COOKIE, path="/")
    return response


@router.get("/me", response_model=UserOut, responses={401: {"description": "not signed in"}})
async def me(user: CurrentUser) -> UserOut:
    """The signed-in user."""
    return _user_out(user)


class ProfileIn(BaseModel):
    """``{"hidden": true}`` hides the caller's player page; ``false`` makes it public."""

    model_config = ConfigDict(extra="forbid")
    hidden: bool


@router.put(
    "/me/profile",
    responses={401: {"description": "not signed in"}, 422: {"description": "not a boolean"}},
)
async def set_profile(body: ProfileIn, user: CurrentUser, db: SessionDep) -> dict[str, bool]:
    """Hide or show the caller's player page (``/players/{id}``; public by default). A
    hidden page answers 404 "this profile is private" to others and leaves the caller out
    of the leaderboards; the caller still sees it. Returns ``{"hidden": bool}``."""
    return {"hidden": await service.set_profile_hidden(db, user, body.hidden)}


class PasswordIn(BaseModel):
    """``{"current_password": "...", "new_password": "..."}``."""

    model_config = ConfigDict(extra="forbid")
    current_password: str = Field(max_length=1000)
    new_password: str = Field(max_length=1000)


class DeleteIn(BaseModel):
    """``{"password": "..."}``: an account confirms its deletion with its password."""

    model_config = ConfigDict(extra="forbid")
    password: str = Field(default="", max_length=1000)


class SessionInfo(BaseModel):
    """One live session: ``current`` is the one this request came with."""

    id: str
    created_at: datetime
    expires_at: datetime
    agent: str
    current: bool


@router.post(
    "/password",
    response_model=SessionOut,
    responses={
        401: {"description": "not signed in, or a wrong current password"},
        403: {"description": "a guest has no password"},
        422: {"description": "bad new password"},
        **E429,
    },
)
async def change_password(
    body: PasswordIn, request: Request, response: Response, user: CurrentUser, db: SessionDep
) -> SessionOut:
    """Change the caller's password. Every session of the caller ends (other devices, open
    sockets); the answer carries a new session (cookie and token) for this client."""
    token, fresh = await service.change_password(
        db, user, body.current_password, body.new_password, request.headers.get("user-agent", "")
    )
    set_session_cookie(response, token)
    return SessionOut(token=token, user=_user_out(fresh))


@router.delete(
    "/me",
    status_code=204,
    responses={401: {"description": "not signed in, or a wrong password"}, **E429},
)
async def delete_me(user: CurrentUser, db: SessionDep, body: DeleteIn | None = None) -> Response:
    """Delete the caller: name, username and password are erased (past games keep the id
    under the name "deleted"), every session ends. An account gives its password."""
    await service.delete_account(db, user, body.password if body else "")
    response = Response(status_code=204)
    response.delete_cookie(service.SESSION_COOKIE, path="/")
    return response


@router.get(
    "/sessions",
    response_model=list[SessionInfo],
    responses={401: {"description": "not signed in"}},
)
async def list_sessions(request: Request, user: CurrentUser, db: SessionDep) -> list[SessionInfo]:
    """The caller's live sessions (one a sign-in), newest first."""
    current = service.session_id_from_token(service.token_from_request(request))
    return [
        SessionInfo(
            id=row.id,
            created_at=row.created_at,
            expires_at=row.expires_at,
            agent=row.agent,
            current=row.id == current,
        )
        for row in await service.list_sessions(db, user)
    ]


@router.delete(
    "/sessions/{session_id}",
    status_code=204,
    responses={401: {"description": "not signed in"}, 404: {"description": "not your session"}},
)
async def revoke_session(session_id: str, user: CurrentUser, db: SessionDep) -> Response:
    """End one session of the caller: its token and the sockets opened with it, everywhere.
    Ending an ended one again is a 204 too."""
    await service.revoke_session(db, user, session_id)
    return Response(status_code=204)


def set_session_cookie(response: Response, token: str) -> None:
    """Put the session cookie on ``response`` (HttpOnly, SameSite=Lax; Secure when configured)."""
    response.set_cookie(
        service.SESSION_COOKIE,
        token,
        max_age=service.session_max_age(),
        httponly=True,
        samesite="lax",
        secure=get_settings().cookie_secure,
        path="/",
    )
