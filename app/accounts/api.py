"""JSON routes of people: ``POST /api/session`` (a guest identity)."""

from __future__ import annotations

from fastapi import APIRouter, Response
from pydantic import BaseModel

from app.db import SessionDep
from app.settings import get_settings

from . import service

router = APIRouter(prefix="/api", tags=["accounts"])


class SessionIn(BaseModel):
    """``{"nickname": "Pepa"}``: 1–24 printable characters, trimmed."""

    nickname: str


class UserOut(BaseModel):
    """A user as others see it."""

    id: int
    nickname: str


class SessionOut(BaseModel):
    """The bearer token (also set as the session cookie) and the user."""

    token: str
    user: UserOut


@router.post("/session", response_model=SessionOut, responses={422: {"description": "bad nickname"}})
async def create_session(body: SessionIn, response: Response, db: SessionDep) -> SessionOut:
    """Become a guest: sets the signed session cookie and returns a token for
    ``Authorization: Bearer``. 422 unless the nickname is 1–24 printable characters."""
    user = await service.create_guest(db, body.nickname)
    token = service.session_cookie_value(user)
    set_session_cookie(response, token)
    return SessionOut(token=token, user=UserOut(**user.public()))


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
