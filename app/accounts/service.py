"""Guest identities and sessions.

A session is the user id signed with the server's secret (itsdangerous). The same
signed value is the session cookie (``SESSION_COOKIE``, HttpOnly, SameSite=Lax) and
the API token (``Authorization: Bearer <token>``); a socket may also pass it as
``?token=``.
"""

from __future__ import annotations

from itsdangerous import BadSignature, URLSafeTimedSerializer
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.requests import HTTPConnection

from app.errors import Unprocessable
from app.settings import get_settings

from .models import User

SESSION_COOKIE = "tapet_session"
SESSION_MAX_AGE = 400 * 24 * 3600  # seconds; browsers cap cookies at 400 days
NICKNAME_MAX = 24


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(get_settings().secret(), salt="tapet-session")


def clean_nickname(nickname: object) -> str:
    """The nickname trimmed; raises Unprocessable unless it is 1–24 printable characters."""
    if not isinstance(nickname, str):
        raise Unprocessable("a nickname is a text of 1 to 24 characters")
    nick = nickname.strip()
    if not 1 <= len(nick) <= NICKNAME_MAX:
        raise Unprocessable("a nickname has 1 to 24 characters")
    if not nick.isprintable():
        raise Unprocessable("a nickname may not contain control characters")
    return nick


async def create_guest(session: AsyncSession, nickname: str) -> User:
    """A new guest user (committed). Raises Unprocessable for a bad nickname."""
    user = User(nickname=clean_nickname(nickname), kind="guest")
    session.add(user)
    await session.commit()
    return user


def session_cookie_value(user: User) -> str:
    """The signed session value for ``user``: the cookie's value and the bearer token."""
    return _serializer().dumps({"uid": user.id})


def user_id_from_token(token: str | None) -> int | None:
    """The user id a signed session value names, or None if it is missing, forged or expired."""
    if not token:
        return None
    try:
        data = _serializer().loads(token, max_age=SESSION_MAX_AGE)
    except BadSignature:
        return None
    uid = data.get("uid") if isinstance(data, dict) else None
    return uid if isinstance(uid, int) else None


def token_from_request(request: HTTPConnection) -> str | None:
    """The session value a request carries: ``Authorization: Bearer``, else the cookie,
    else (sockets only) the ``token`` query parameter."""
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    cookie = request.cookies.get(SESSION_COOKIE)
    if cookie:
        return cookie
    if request.scope.get("type") == "websocket":
        return request.query_params.get("token")
    return None


async def user_from_request(request: HTTPConnection, session: AsyncSession) -> User | None:
    """The user a request (or socket) is signed in as, or None."""
    uid = user_id_from_token(token_from_request(request))
    if uid is None:
        return None
    return await session.get(User, uid)
