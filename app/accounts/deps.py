"""FastAPI dependencies for the signed-in user.

``CurrentUser`` answers 401 when the request carries no valid session;
``OptionalUser`` is None then (spectators); ``AccountUser`` (``require_account``)
also answers 403 to a guest: for what needs a registered account (organising).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from app.accounts.models import User
from app.accounts.service import mover_from_request, user_from_request
from app.core.db import SessionDep
from app.core.errors import Forbidden, Unauthorized


async def optional_user(request: HTTPConnection, db: SessionDep) -> User | None:
    """The signed-in user, or None."""
    return await user_from_request(request, db)


async def visitor(request: HTTPConnection) -> User | None:
    """The signed-in user of a request answered outside any route (a guard's refusal, a
    missing page), for its error page's header, or None: read with a session of its own
    from the app's sessionmaker (None without one), through ``mover_from_request``'s
    short-lived cache, so a flood of refused requests does not read the database each
    time. A copy detached from its session: read it, never change it."""
    maker = getattr(getattr(request.scope.get("app"), "state", None), "sessionmaker", None)
    if maker is None:
        return None
    async with maker() as db:
        return await mover_from_request(request, db)


async def current_user(request: HTTPConnection, db: SessionDep) -> User:
    """The signed-in user; raises Unauthorized (401) without a valid session."""
    user = await user_from_request(request, db)
    if user is None:
        raise Unauthorized(
            "sign in first: POST /api/session with a nickname, or POST /api/login", "sign_in_first"
        )
    return user


async def require_account(request: HTTPConnection, db: SessionDep) -> User:
    """The signed-in user if it is a registered account; Unauthorized (401) without a
    session, Forbidden (403) for a guest."""
    user = await current_user(request, db)
    if not user.is_account:
        raise Forbidden(
            "this needs a registered account: POST /api/accounts (a guest keeps its id)",
            "account_needed",
        )
    return user


async def moving_user(request: HTTPConnection, db: SessionDep) -> User:
    """The signed-in user of a move (``mover_from_request``: kept a few seconds per token,
    a detached copy to read, never to change); raises Unauthorized like ``current_user``."""
    user = await mover_from_request(request, db)
    if user is None:
        raise Unauthorized(
            "sign in first: POST /api/session with a nickname, or POST /api/login", "sign_in_first"
        )
    return user


OptionalUser = Annotated[User | None, Depends(optional_user)]
MovingUser = Annotated[User, Depends(moving_user)]
CurrentUser = Annotated[User, Depends(current_user)]
AccountUser = Annotated[User, Depends(require_account)]
