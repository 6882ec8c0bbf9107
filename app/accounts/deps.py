"""FastAPI dependencies for the signed-in user.

``CurrentUser`` answers 401 when the request carries no valid session;
``OptionalUser`` is None then (spectators).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from app.db import SessionDep
from app.errors import Unauthorized

from .models import User
from .service import user_from_request


async def optional_user(request: HTTPConnection, db: SessionDep) -> User | None:
    """The signed-in user, or None."""
    return await user_from_request(request, db)


async def current_user(request: HTTPConnection, db: SessionDep) -> User:
    """The signed-in user; raises Unauthorized (401) without a valid session."""
    user = await user_from_request(request, db)
    if user is None:
        raise Unauthorized("sign in first: POST /api/session with a nickname")
    return user


OptionalUser = Annotated[User | None, Depends(optional_user)]
CurrentUser = Annotated[User, Depends(current_user)]
