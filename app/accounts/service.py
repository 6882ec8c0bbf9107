"""People: guests, accounts, sessions.

A session is ``{"uid": user id, "v": session version}`` signed with the server's
secret (itsdangerous, timed). The same signed value is the session cookie
(``SESSION_COOKIE``, HttpOnly, SameSite=Lax) and the API token
(``Authorization: Bearer <token>``); a socket may also pass it as ``?token=``.
Logging out bumps the user's ``session_version``: every token issued before dies,
on every device (the token is a bearer secret; this is how it is revoked).

Accounts have a ``username`` (3–32 of ``a-z 0-9 . _ -``, compared lower-case) and a
password (8–256 characters) kept only as an argon2 hash (pwdlib). A guest who
registers becomes an account under the same id (its seats and history stay).
Neither passwords nor tokens are ever logged.
"""

from __future__ import annotations

import re
import unicodedata

import anyio
from itsdangerous import BadSignature, URLSafeTimedSerializer
from pwdlib import PasswordHash
from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.requests import HTTPConnection

from app.accounts.limits import RateLimiter, retry_after
from app.accounts.models import User
from app.core.errors import Conflict, TooManyRequests, Unauthorized, Unprocessable
from app.core.settings import SESSION_COOKIE, Settings, get_settings
from app.web import csrf

SESSION_MAX_AGE = 400 * 24 * 3600  # seconds; browsers cap cookies at 400 days
NICKNAME_MAX = 24
USERNAME_RE = re.compile(r"^[a-z0-9][a-z0-9._-]{2,31}$")
PASSWORD_MIN, PASSWORD_MAX = 8, 256
BAD_LOGIN = "wrong username or password"

_hasher = PasswordHash.recommended()  # argon2id
_DUMMY_HASH = _hasher.hash("not a password of anyone")  # equal work for unknown usernames


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(get_settings().secret(), salt="tapet-session")


# ---------------------------------------------------------------- checks


def clean_nickname(nickname: object) -> str:
    """The nickname trimmed; raises Unprocessable unless it is 1–24 printable characters."""
    if not isinstance(nickname, str):
        raise Unprocessable("a nickname is a text of 1 to 24 characters")
    nick = nickname.strip()
    if not 1 <= len(nick) <= NICKNAME_MAX:
        raise Unprocessable("a nickname has 1 to 24 characters")
    if not _printable(nick):
        raise Unprocessable("a nickname may not contain control characters")
    if looks_like_a_bot(nick):
        raise Unprocessable("a nickname may not look like a bot's name")
    return nick


#: The words a table calls its bots in any language ("Bot 2", "Бот 2", "Robot 2", "Robô 2",
#: "Heuristic bot"), compared on a name's ``skeleton``: no person may take a name with one of
#: them and pass for a bot at a table.
BOT_WORDS = frozenset({"bot", "bots", "robot", "robots", "robo"})
#: Letters of other scripts (and digits) that look like, or are written for, the Latin
#: letters of those words; with NFKC (full-width and styled letters) and accents dropped,
#: "Bоt" (Cyrillic о), "B0t", "ｂｏｔ" and "Бот" all read "bot". A small map of our own, not
#: Unicode's whole confusables table (a package): only these few words are guarded, and
#: every lookalike of their letters is here to read.
LOOKALIKES = str.maketrans(
    {
        **dict.fromkeys("аα", "a"),
        **dict.fromkeys("бвβЬь", "b"),
        **dict.fromkeys("оοσ0", "o"),
        **dict.fromkeys("тτ7", "t"),
        **dict.fromkeys("рρ", "p"),
        **dict.fromkeys("г", "r"),
        **dict.fromkeys("еεё3", "e"),
        **dict.fromkeys("іιı1ӏ", "i"),
        **dict.fromkeys("ѕ5", "s"),
        **dict.fromkeys("сϲ", "c"),
        **dict.fromkeys("кκ", "k"),
        **dict.fromkeys("хχ", "x"),
        **dict.fromkeys("у", "y"),
        **dict.fromkeys("н", "h"),
        **dict.fromkeys("м", "m"),
    }
)
WORD = re.compile(r"[a-z]+")


def skeleton(name: str) -> str:
    """``name`` as it reads: NFKC, case-folded, accents dropped, lookalike letters and digits
    of other scripts mapped to Latin (``LOOKALIKES``). ``skeleton("ｂОт 2") == "bot 2"``."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold())
    plain = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return plain.translate(LOOKALIKES)


def looks_like_a_bot(name: str) -> bool:
    """True when a word of ``name``'s skeleton is a bot's (``BOT_WORDS``): "Bot 2",
    "heuristic bot", "Bоt 2" (Cyrillic о), "B0t 2", "ｂｏｔ 2", "(Robô)"."""
    return any(word in BOT_WORDS for word in WORD.findall(skeleton(name)))


ZWJ = "\u200d"


def _printable(nick: str) -> bool:
    """Printable, except that a zero-width joiner may join two emoji ("👨‍👩‍👧"): alone it
    is invisible and would let "Ana" + joiner pass for "Ana"."""
    for i, ch in enumerate(nick):
        if ch == ZWJ:
            before = nick[i - 1] if i else ""
            if before == "\ufe0f" and i > 1:  # a variation selector ends the emoji before
                before = nick[i - 2]
            after = nick[i + 1] if i + 1 < len(nick) else ""
            if not (
                before
                and after
                and unicodedata.category(before) == "So"
                and unicodedata.category(after) == "So"
            ):
                return False
        elif not ch.isprintable():
            return False
    return True


def clean_username(username: object) -> str:
    """The username trimmed and lower-cased; raises Unprocessable unless it has 3 to 32
    letters a-z, digits, ``.``, ``_`` or ``-`` and starts with a letter or digit."""
    name = username.strip().lower() if isinstance(username, str) else ""
    if not USERNAME_RE.match(name):
        raise Unprocessable(
            "a username has 3 to 32 characters: letters a-z, digits, '.', '_' or '-', "
            "starting with a letter or a digit"
        )
    return name


def check_password(password: object) -> str:
    """``password`` unchanged; raises Unprocessable unless it has 8 to 256 characters."""
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise Unprocessable(f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters")
    return password


async def hash_password(password: str) -> str:
    """The argon2 hash of ``password`` (computed in a worker thread)."""
    return await anyio.to_thread.run_sync(_hasher.hash, password)


async def verify_password(password: str, hashed: str | None) -> bool:
    """True when ``password`` matches ``hashed`` (the same work when ``hashed`` is None)."""
    ok = await anyio.to_thread.run_sync(_hasher.verify, password, hashed or _DUMMY_HASH)
    return bool(ok and hashed)


# ---------------------------------------------------------------- people


async def create_guest(session: AsyncSession, nickname: str) -> User:
    """A new guest user (committed). Raises Unprocessable for a bad nickname."""
    user = User(nickname=clean_nickname(nickname), kind="guest")
    session.add(user)
    await session.commit()
    return user


async def register(
    db: AsyncSession,
    username: object,
    password: object,
    nickname: object = None,
    current: User | None = None,
) -> User:
    """A new account, committed. When ``current`` is a guest it becomes that account (same
    id, its seats and history kept). ``nickname`` defaults to the guest's, else the username.

    Raises Unprocessable (bad username, password or nickname), Conflict (the username is
    taken, or ``current`` is already an account)."""
    name = clean_username(username)
    secret = check_password(password)
    if current is not None and current.is_account:
        raise Conflict(f"you are already signed in as {current.username}; log out first")
    if nickname in (None, ""):
        nick = current.nickname if current is not None else name[:NICKNAME_MAX]
    else:
        nick = clean_nickname(nickname)
    if await db.scalar(select(func.count()).select_from(User).where(User.username == name)):
        raise Conflict(f"the username {name} is taken")
    hashed = await hash_password(secret)
    try:
        if current is not None:
            done = await db.execute(
                update(User)
                .where(User.id == current.id, User.kind == "guest")
                .values(kind="account", username=name, password_hash=hashed, nickname=nick)
            )
            if done.rowcount != 1:
                raise Conflict("this guest has already registered")
            await db.commit()
            user = await db.get(User, current.id, populate_existing=True)
            assert user is not None
            return user
        user = User(nickname=nick, kind="account", username=name, password_hash=hashed)
        db.add(user)
        await db.commit()
        return user
    except IntegrityError:
        await db.rollback()
        raise Conflict(f"the username {name} is taken") from None
    except Conflict:
        await db.rollback()
        raise


_failures: tuple[Settings, RateLimiter | None] | None = None


def _failed_logins() -> RateLimiter | None:
    """The per-username bucket of failed log-ins (``TAPET_RATE_LOGIN_FAILURES``) of the
    settings in force, or None when rate limits are off. Per process, like the guard's."""
    global _failures
    settings = get_settings()
    if _failures is None or _failures[0] is not settings:
        rate = settings.rate("login_failures")
        _failures = (settings, RateLimiter(*rate) if rate else None)
    return _failures[1]


async def authenticate(db: AsyncSession, username: object, password: object) -> User:
    """The account ``username`` names, if ``password`` is its password. Raises Unauthorized
    with the same message whether the username or the password is wrong, and TooManyRequests
    (429, nothing checked) once a username has had too many failed log-ins from any address
    (``TAPET_RATE_LOGIN_FAILURES``; the guard limits each address apart)."""
    name = username.strip().lower() if isinstance(username, str) else ""
    failures = _failed_logins()
    if failures is not None and (wait := failures.wait(name)) > 0:
        raise TooManyRequests(
            f"too many failed log-ins for this username: try again in {retry_after(wait)} s",
            retry_after(wait),
        )
    # a name no account can have is never looked up (a NUL byte is a database error on PostgreSQL)
    user = (
        await db.scalar(select(User).where(User.username == name))
        if USERNAME_RE.match(name)
        else None
    )
    given = password if isinstance(password, str) and len(password) <= PASSWORD_MAX else ""
    if not await verify_password(given, user.password_hash if user else None) or user is None:
        if failures is not None:
            failures.hit(name)
        raise Unauthorized(BAD_LOGIN)
    return user


async def logout(db: AsyncSession, user: User) -> None:
    """End every session of ``user`` (every token issued so far stops working)."""
    await db.execute(
        update(User).where(User.id == user.id).values(session_version=User.session_version + 1)
    )
    await db.commit()


# ---------------------------------------------------------------- sessions


def session_cookie_value(user: User) -> str:
    """The signed session value for ``user``: the cookie's value and the bearer token."""
    return _serializer().dumps({"uid": user.id, "v": user.session_version or 0})


def _claims(token: str | None) -> tuple[int, int] | None:
    if not token or len(token) > 512:
        return None
    try:
        data = _serializer().loads(token, max_age=SESSION_MAX_AGE)
    except BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    uid, version = data.get("uid"), data.get("v", 0)
    if not isinstance(uid, int) or not isinstance(version, int):
        return None
    return uid, version


def user_id_from_token(token: str | None) -> int | None:
    """The user id a signed session value names, or None if it is missing, forged or
    expired (not checked against log-outs: that needs the database, see ``user_from_request``)."""
    claims = _claims(token)
    return claims[0] if claims else None


def _bearer(request: HTTPConnection) -> str | None:
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


def token_from_request(request: HTTPConnection) -> str | None:
    """The session value an HTTP request carries: ``Authorization: Bearer``, else the
    cookie. (Sockets: ``socket_token``.)"""
    return _bearer(request) or request.cookies.get(SESSION_COOKIE) or None


def socket_token(websocket: HTTPConnection) -> str | None:
    """The session value a socket may act with; the one rule of both sockets.

    A token the client sent itself (``Authorization: Bearer`` or ``?token=``, even an
    empty or junk one) is the socket's identity, from any origin: a browser never adds it
    by itself. Without one, the session cookie counts only when ``Origin`` is absent or
    this host (``csrf.same_origin``): another site's page (or an opaque ``null`` origin)
    rides on the cookie and gets a spectator's view. Returns None for a spectator."""
    if "authorization" in websocket.headers or "token" in websocket.query_params:
        return _bearer(websocket) or websocket.query_params.get("token") or None
    if not csrf.same_origin(websocket):
        return None
    return websocket.cookies.get(SESSION_COOKIE) or None


async def user_from_request(request: HTTPConnection, session: AsyncSession) -> User | None:
    """The user an HTTP request is signed in as, or None (no token, a forged or expired
    one, or one issued before the user logged out). Sockets: ``socket_user``."""
    return await user_from_token(token_from_request(request), session)


async def socket_user(websocket: HTTPConnection, session: AsyncSession) -> User | None:
    """The user a socket is signed in as (``socket_token``'s rule), or None: a spectator."""
    return await user_from_token(socket_token(websocket), session)


async def user_from_token(token: str | None, session: AsyncSession) -> User | None:
    """The user a session value names, or None (missing, forged, expired, logged out)."""
    claims = _claims(token)
    if claims is None:
        return None
    user = await session.get(User, claims[0])
    if user is None or (user.session_version or 0) != claims[1]:
        return None
    return user
