"""People: guests, accounts, sessions.

A session is a row of ``auth_sessions`` (one sign-in: random id, expiry, revocation);
its token is ``{"uid": user id, "v": session version, "sid": session id}`` signed with
the server's secret (itsdangerous, timed). The same signed value is the session cookie
(``SESSION_COOKIE``, HttpOnly, SameSite=Lax) and the API token
(``Authorization: Bearer <token>``); a socket may also pass it as ``?token=``.
A token counts while its signature holds, its session row is live (not revoked, not
past ``expires_at``, ``TAPET_SESSION_DAYS`` after sign-in) and the user's
``session_version`` is the one it carries. Logging out, a password change and deleting
the account bump that version and revoke every row: every token of the user dies, on
every device; ``revoke_session`` ends one. Each end is announced through the hub
(app/realtime) so every process closes the sockets whose token died (``watch_session``).

Accounts have a ``username`` (3–32 of ``a-z 0-9 . _ -``, compared lower-case) and a
password (8–256 characters) kept only as an argon2 hash (pwdlib). A guest who
registers becomes an account under the same id (its seats and history stay).
Neither passwords nor tokens are ever logged.
"""

from __future__ import annotations

import re
import secrets
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Collection
from datetime import timedelta
from typing import Any

import anyio
from itsdangerous import BadSignature, URLSafeTimedSerializer
from pwdlib import PasswordHash
from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.requests import HTTPConnection

from app import realtime
from app.accounts.limits import RateLimiter, configured, retry_after
from app.accounts.models import AuthSession, User
from app.core.db import as_utc, keep_loaded, lock_key, utcnow
from app.core.errors import (
    Conflict,
    Forbidden,
    NotFound,
    ServiceError,
    TooManyRequests,
    Unauthorized,
    Unprocessable,
)
from app.core.hooks import HOOKS
from app.core.settings import SESSION_COOKIE, get_settings
from app.web import csrf

AGENT_MAX = 120
DELETED = "deleted"  # the kind of a deleted account (its games keep its id and a name)
NICKNAME_MAX = 24
USERNAME_RE = re.compile(r"^[a-z0-9][a-z0-9._-]{2,31}$")
PASSWORD_MIN, PASSWORD_MAX = 8, 256
BAD_LOGIN = "wrong username or password"

_hasher = PasswordHash.recommended()  # argon2id
_DUMMY_HASH = _hasher.hash("not a password of anyone")  # equal work for unknown usernames


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(get_settings().secret(), salt="tapet-session")


# ---------------------------------------------------------------- checks


#: No-break spaces ("Ana\u00a0Maria"), read as the spaces they are.
NO_BREAK_SPACES = str.maketrans(dict.fromkeys("\u00a0\u2007\u202f", " "))
SPACES = re.compile(" {2,}")


def clean_nickname(nickname: object) -> str:
    """The nickname trimmed, its no-break spaces made spaces and each run of spaces one
    (two spaces read as one on a page: "Yan  Quist" would pass for "Yan Quist"); raises
    Unprocessable unless it is 1–24 printable characters, some of them visible (not only
    ``INVISIBLE`` fillers and marks), that do not read as a bot's name
    (``looks_like_a_bot``) nor as the table's "You" (``reads_as_you``)."""
    if not isinstance(nickname, str):
        raise Unprocessable("a nickname is a text of 1 to 24 characters", "nickname_length")
    nick = SPACES.sub(" ", nickname.translate(NO_BREAK_SPACES).strip())
    if not 1 <= len(nick) <= NICKNAME_MAX:
        raise Unprocessable("a nickname has 1 to 24 characters", "nickname_length")
    if not _printable(nick):
        raise Unprocessable("a nickname may not contain control characters", "nickname_control")
    if not skeleton(nick).strip():  # only fillers and marks: a blank name in every list
        raise Unprocessable("a nickname needs a visible letter or sign", "nickname_blank")
    if looks_like_a_bot(nick):
        raise Unprocessable("a nickname may not look like a bot's name", "nickname_bot_like")
    if reads_as_you(nick):
        raise Unprocessable('a nickname may not read as "You"', "nickname_you_like")
    return nick


#: The words a table calls its bots in any language ("Bot 2", "Бот 2", "Robot 2", "Robô 2",
#: "Heuristic bot"), compared on a name's ``skeleton``: no person may take a name with one of
#: them and pass for a bot at a table.
BOT_WORDS = frozenset({"bot", "bots", "robot", "robots", "robo"})
#: Letters of other scripts (and digits, and round signs) that look like, or are written
#: for, the Latin letters of those words; with NFKC (full-width and styled letters), accents
#: and invisible characters dropped, "Bоt" (Cyrillic о), "B0t", "ｂｏｔ", "Бот", "Bⲟt"
#: (Coptic), "ᏴᎾᎢ" (Cherokee) and "B○t" all read "bot". A map of our own, not Unicode's whole
#: confusables table: only these few words are guarded. Latin letters the map misses
#: (small capitals "ʙᴏᴛ", "ƃ", "ƭ", "ɵ", "ø") are read by their Unicode name (``_latin``),
#: and the zero of every script reads "o".
LOOKALIKES = str.maketrans(
    {
        **dict.fromkeys("аαᎪⲁ", "a"),
        **dict.fromkeys("бвβЬьᏴᏼⲃ", "b"),
        **dict.fromkeys("оοσ0օⲟᎾᏫഠဝ○∘°◯⚪⭘●◦ᴑ", "o"),
        **dict.fromkeys("тτ7Ꭲⲧƭ", "t"),
        **dict.fromkeys("рρᏢⲣ", "p"),
        **dict.fromkeys("гᏒ", "r"),
        **dict.fromkeys("еεё3Ꭼⲉ", "e"),
        **dict.fromkeys("іιı1ӏᎥ", "i"),
        **dict.fromkeys("ѕ5Ꮪ", "s"),
        **dict.fromkeys("сϲᏟⲥ", "c"),
        **dict.fromkeys("кκᏦⲕ", "k"),
        **dict.fromkeys("хχⲭ", "x"),
        **dict.fromkeys("уᎩ", "y"),
        **dict.fromkeys("нᎻⲏ", "h"),
        **dict.fromkeys("мᎷⲙ", "m"),
        **dict.fromkeys("υսμ", "u"),
        **dict.fromkeys("үγ", "y"),
        **dict.fromkeys("ѵν", "v"),
    }
)
#: Capitals whose small letter reads otherwise, mapped before case folding: the Greek
#: capital upsilon reads "Y" where its small letter reads "u" (a fresh tester sat as "Υou").
CAPITAL_LOOKALIKES = str.maketrans({"Υ": "Y", "Ү": "Y", "Ѵ": "V", "Ν": "N", "Μ": "M"})
#: Invisible characters a name could hide between a word's letters besides the marks and
#: format characters (categories Mn, Me, Cf) dropped anyway: the Hangul fillers and the
#: blank Braille pattern.
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800")
_LATIN_NAME = re.compile(
    r"^LATIN (?:SMALL |CAPITAL )?LETTER (?:SMALL CAPITAL |BARRED )?([A-Z])(?: WITH .*)?$"
)
WORD = re.compile(r"[a-z]+")


def _latin(ch: str) -> str:
    """``ch`` as the Latin letter it is a form of ("ʙ" small capital B, "ƃ" b with topbar,
    "ø" o with stroke: their Unicode names say so), or the zero of any script as "o";
    else ``ch``."""
    if ch.isascii():
        return ch
    if unicodedata.category(ch) == "Nd" and unicodedata.digit(ch, None) == 0:
        return "o"
    found = _LATIN_NAME.match(unicodedata.name(ch, ""))
    return found.group(1).lower() if found else ch


def skeleton(name: str) -> str:
    """``name`` as it reads: NFKC, case-folded, accents and invisible characters (marks,
    format characters, variation selectors, Hangul fillers) dropped, lookalike letters,
    digits and signs of other scripts mapped to Latin (``LOOKALIKES``, ``_latin``).
    ``skeleton("ｂОт 2") == skeleton("ʙᴏᴛ 2") == "bot 2"``."""
    upper = unicodedata.normalize("NFKC", name).translate(CAPITAL_LOOKALIKES)
    folded = unicodedata.normalize("NFKD", upper.casefold())
    plain = "".join(
        ch
        for ch in folded
        if unicodedata.category(ch) not in ("Mn", "Me", "Cf") and ch not in INVISIBLE
    )
    return "".join(_latin(ch) for ch in plain.translate(LOOKALIKES))


def looks_like_a_bot(name: str) -> bool:
    """True when a word of ``name``'s skeleton is a bot's (``BOT_WORDS``): "Bot 2",
    "heuristic bot", "Bоt 2" (Cyrillic о), "B0t 2", "ｂｏｔ 2", "(Robô)"."""
    return any(word in BOT_WORDS for word in WORD.findall(skeleton(name)))


#: The word a table shows at the viewer's own seat, "You", in the site's languages (the
#: catalogues' "You": Tu, Tú, Vous, Você, Вие), as ``skeleton`` reads them.
YOU_WORDS = frozenset(skeleton(w) for w in ("you", "tu", "tú", "vous", "você", "вие"))
_FIRST_WORD = re.compile(r"\w+")
_JOINED = re.compile(r"[-.'’]\w")  # "Tú-Anh", "Tu.Ngo": one name, not "Tu" and a sign


def reads_as_you(name: str) -> bool:
    """True when ``name`` would pass for the word a table shows at the viewer's own seat
    ("You (dealer)" at another seat, "Waiting for You to bid"): its first word is "you",
    or it is one of ``YOU_WORDS`` alone or before a sign ("Tu", "Vous (D)"). A name that
    goes on with another word in a language other than English is a name ("Tú Anh",
    "Tú-Anh"). Lookalike letters read as what they look like (``skeleton``: "Υou" with a
    Greek capital upsilon is "you")."""
    read = skeleton(name).strip()
    first = _FIRST_WORD.match(read)
    if first is None or first.group() not in YOU_WORDS:
        return False
    if first.group() == "you":
        return True
    rest = read[first.end() :].lstrip()
    return not rest or not (rest[0].isalpha() or _JOINED.match(rest))


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
            "starting with a letter or a digit",
            "username_form",
        )
    return name


def check_password(password: object) -> str:
    """``password`` unchanged; raises Unprocessable unless it has 8 to 256 characters."""
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise Unprocessable(
            f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters",
            "password_length",
            a=PASSWORD_MIN,
            b=PASSWORD_MAX,
        )
    return password


async def hash_password(password: str) -> str:
    """The argon2 hash of ``password`` (computed in a worker thread)."""
    return await anyio.to_thread.run_sync(_hasher.hash, password)


async def verify_password(password: str, hashed: str | None) -> bool:
    """True when ``password`` matches ``hashed`` (the same work when ``hashed`` is None)."""
    ok = await anyio.to_thread.run_sync(_hasher.verify, password, hashed or _DUMMY_HASH)
    return bool(ok and hashed)


# ---------------------------------------------------------------- unique among the active


async def active_nicknames(db: AsyncSession, but: int | None = None) -> dict[str, str]:
    """The nicknames of the people active now, by ``skeleton``: ``{skeleton: nickname}``,
    leaving out the user ``but``. Active now (docs/server.md "Nicknames"): seated at a
    table not finished or waiting in the queue (the queries features register,
    app/core/hooks.py ``active_people``), or with a live session signed in within
    ``TAPET_NICKNAME_ACTIVE_MINUTES`` minutes (a guest made within them too). Guests and
    accounts alike."""
    if not get_settings().unique_nicknames:
        return {}
    minutes = get_settings().nickname_active_minutes
    who: list[Any] = [User.id.in_(query()) for query in HOOKS.active_people]
    if minutes:
        since = utcnow() - timedelta(minutes=minutes)
        who.append(
            User.id.in_(
                select(AuthSession.user_id).where(
                    AuthSession.created_at >= since, AuthSession.revoked_at.is_(None)
                )
            )
        )
        # a guest made within the window is active (its session may not be written yet)
        who.append(and_(User.kind == "guest", User.created_at >= since))
    if not who:
        return {}
    query = select(User.nickname).where(or_(*who), User.kind != DELETED)
    if but is not None:
        query = query.where(User.id != but)
    return {skeleton(nick): nick for nick in await db.scalars(query)}


def suggest_nickname(nick: str, taken: Collection[str]) -> str:
    """A nickname like ``nick`` whose ``skeleton`` is not in ``taken``: ``nick`` followed by
    the first free number from 2 ("Marta 2"), cut to fit 24 characters."""
    for n in range(2, 10_000):
        tail = f" {n}"
        candidate = nick[: NICKNAME_MAX - len(tail)].rstrip() + tail
        if skeleton(candidate) not in taken:
            return candidate
    return nick  # unreachable: fewer than 10,000 people share a name


async def nickname_refusal(db: AsyncSession, nick: str, but: int | None = None) -> Conflict | None:
    """The refusal of ``nick`` when a person active now already goes by a nickname that
    reads the same (``skeleton``: case, accents, look-alike letters of other scripts:
    "MARTA" is "Marta", "Оlga" with a Cyrillic О is "Olga"), else None. ``but``: the
    person asking (their own name is not in the way). The Conflict (409,
    ``nickname_taken``) suggests a free alternative (``suggest_nickname``)."""
    taken = await active_nicknames(db, but)
    if skeleton(nick) not in taken:
        return None
    other = taken[skeleton(nick)]
    suggestion = suggest_nickname(nick, taken)
    return Conflict(
        f"someone playing now is called {other}; choose another nickname, for example {suggestion}",
        "nickname_taken",
        name=other,
        suggestion=suggestion,
    )


async def check_nickname_free(db: AsyncSession, nick: str, but: int | None = None) -> None:
    """Raise ``nickname_refusal``'s Conflict when ``nick`` is taken by someone active now."""
    refusal = await nickname_refusal(db, nick, but)
    if refusal is not None:
        raise refusal


# ---------------------------------------------------------------- people


async def create_guest(
    session: AsyncSession, nickname: str, creation_key: str | None = None
) -> User:
    """A new guest user (committed), made by the form whose one-time key is
    ``creation_key`` (stored, unique: see ``guest_of_form``). Raises Unprocessable for a
    bad nickname, Conflict (``nickname_taken``) for one a person active now goes by
    (``nickname_refusal``); IntegrityError for a ``creation_key`` some guest has."""
    nick = clean_nickname(nickname)
    await check_nickname_free(session, nick)  # the common refusal, before any write
    await _lock_name(session, nick)
    user = User(nickname=nick, kind="guest", creation_key=creation_key)
    session.add(user)
    await session.flush()
    # Checked again with this guest written: of two people taking one name at once, the
    # second waits on the lock (PostgreSQL) or on the first one's write (SQLite's single
    # writer), then finds the first here and is refused.
    refusal = await nickname_refusal(session, nick, but=user.id)
    if refusal is not None:
        await session.rollback()
        raise refusal
    await session.commit()
    return user


#: A form's one-time key (its hidden ``creation_key``): 8-64 letters, digits, "-", "_".
FORM_KEY = re.compile(r"[A-Za-z0-9_-]{8,64}")


def new_form_key() -> str:
    """A fresh one-time key for a form that may make a guest or a room (``FORM_KEY``'s
    shape): one per form shown, so that the same form sent twice is one guest, one room."""
    return secrets.token_urlsafe(16)


#: How long the form that made a guest signs that guest in again when it is sent again.
REPLAY_SECONDS = 60


async def guest_of_form(
    session: AsyncSession, conn: HTTPConnection, nickname: str, key: str | None
) -> User:
    """The guest that a new visitor's form with the one-time ``key`` makes under
    ``nickname`` (committed, the key stored with it: ``User.creation_key``, unique). The
    key stored is tied to the browser that sent it (``csrf.browser_key`` of ``conn``, the
    form's request): a key read off another visitor's page signs nobody in.

    The same form sent again (the same ``key`` and nickname, within ``REPLAY_SECONDS``)
    is that same guest, whether it arrives at once (a double tap: both leave before the
    first answer sets the session cookie) or after the first answer, whose cookie the
    browser may have dropped: never a second guest, never "someone playing now is
    called ..." about the visitor's own name. The caller starts a session for the guest
    each time (every answer carries a cookie of the one guest). ``key`` None or not a
    key (``FORM_KEY``): a plain ``create_guest``.

    Raises what ``create_guest`` raises; Conflict (``creation_key``: "this form is
    damaged", the key made a guest under another nickname)."""
    key = csrf.browser_key(conn, key)
    if key is None or not FORM_KEY.fullmatch(key):
        return await create_guest(session, nickname)
    made = await _guest_of_key(session, key, nickname)
    if made is not None:
        return made
    try:
        return await create_guest(session, nickname, creation_key=key)
    except (Conflict, IntegrityError) as exc:
        # the twin request took the name (nickname_taken) or the key a moment ago:
        # its guest, committed (the name's lock, or SQLite's one writer, waited for it)
        await session.rollback()
        made = await _guest_of_key(session, key, nickname)
        if made is not None:
            return made
        if isinstance(exc, Conflict):
            raise
        raise Conflict("that form made another guest: reload the page", "creation_key") from None


async def guest_made_by_form(
    session: AsyncSession, conn: HTTPConnection, nickname: str, key: str | None
) -> User | None:
    """The guest :func:`guest_of_form` already made for this browser's form ``key`` under
    ``nickname`` (less than ``REPLAY_SECONDS`` ago), or None; writes nothing. A check that
    must refuse before any guest is made asks it who a visitor's double tap already is."""
    key = csrf.browser_key(conn, key)
    if key is None or not FORM_KEY.fullmatch(key):
        return None
    return await _guest_of_key(session, key, nickname)


async def _guest_of_key(session: AsyncSession, key: str, nickname: str) -> User | None:
    """The guest the form with ``key`` made under ``nickname`` less than
    ``REPLAY_SECONDS`` ago, or None."""
    try:
        nick = clean_nickname(nickname)
    except ServiceError:
        return None
    since = utcnow() - timedelta(seconds=REPLAY_SECONDS)
    return await session.scalar(
        select(User).where(
            User.creation_key == key,
            User.kind == "guest",
            User.nickname == nick,
            User.created_at >= since,
        )
    )


async def _lock_name(session: AsyncSession, nick: str) -> None:
    """On PostgreSQL, hold a transaction lock on the name as it reads (``skeleton``), so
    two transactions taking one name run one after the other. SQLite has one writer at a
    time already: nothing to do there."""
    await lock_key(session, "nick:" + skeleton(nick))


async def register(
    db: AsyncSession,
    username: object,
    password: object,
    nickname: object = None,
    current: User | None = None,
) -> User:
    """A new account, committed. When ``current`` is a guest it becomes that account (same
    id, its seats and history kept) and every session of the guest ends: its old tokens
    die, the caller starts a new one (no session fixation). ``nickname`` defaults to the
    guest's, else the username; neither may read as a bot's name (``looks_like_a_bot``).

    Raises Unprocessable (bad username, password or nickname), Conflict (the username is
    taken, ``current`` is already an account, or ``nickname_taken``: a person active now
    goes by a nickname that reads the same, ``nickname_refusal``; a guest keeping their
    own nickname is never refused)."""
    name = clean_username(username)
    if looks_like_a_bot(name):  # it is shown as the nickname when none is given
        raise Unprocessable("a username may not look like a bot's name", "username_bot_like")
    if reads_as_you(name):
        raise Unprocessable('a username may not read as "You"', "username_you_like")
    secret = check_password(password)
    if current is not None and current.is_account:
        raise Conflict(
            f"you are already signed in as {current.username}; log out first",
            "signed_in_already",
            name=current.username,
        )
    if nickname in (None, ""):
        nick = current.nickname if current is not None else name[:NICKNAME_MAX]
    else:
        nick = clean_nickname(nickname)
    if await db.scalar(select(func.count()).select_from(User).where(User.username == name)):
        raise Conflict(f"the username {name} is taken", "username_taken", name=name)
    if current is None or skeleton(nick) != skeleton(current.nickname):
        await check_nickname_free(db, nick, current.id if current is not None else None)
    hashed = await hash_password(secret)
    try:
        if current is not None:
            done = await db.execute(
                update(User)
                .where(User.id == current.id, User.kind == "guest")
                .values(
                    kind="account",
                    username=name,
                    password_hash=hashed,
                    nickname=nick,
                    session_version=User.session_version + 1,
                )
            )
            if done.rowcount != 1:  # type: ignore[attr-defined]  # a DML statement's Result is a CursorResult
                raise Conflict("this guest has already registered", "guest_registered")
            # the guest's tokens die (no session fixation): the caller signs the account in anew
            await end_sessions(db, current.id, bump=False)
            user = await db.get(User, current.id, populate_existing=True)
            assert user is not None
            return user
        user = User(nickname=nick, kind="account", username=name, password_hash=hashed)
        db.add(user)
        await db.commit()
        return user
    except IntegrityError:
        await db.rollback()
        raise Conflict(f"the username {name} is taken", "username_taken", name=name) from None
    except Conflict:
        await db.rollback()
        raise


def _failed_logins() -> RateLimiter | None:
    """The per-username bucket of failed log-ins (``TAPET_RATE_LOGIN_FAILURES``), or None
    when rate limits are off."""
    return configured("login_failures")


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
            "rate_login_user",
            n=retry_after(wait),
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
        raise Unauthorized(BAD_LOGIN, "bad_login")
    return user


async def logout(db: AsyncSession, user: User) -> None:
    """End every session of ``user`` (every token issued so far stops working, every socket
    opened with one closes, in every process)."""
    await end_sessions(db, user.id)


async def end_sessions(db: AsyncSession, user_id: int, bump: bool = True) -> None:
    """Bump the user's ``session_version`` (unless ``bump`` is False: the caller did) and
    revoke every live session row, commit, then announce it (the hub: every process
    closes the user's sockets whose token died)."""
    if bump:
        await db.execute(
            update(User).where(User.id == user_id).values(session_version=User.session_version + 1)
        )
    await db.execute(
        update(AuthSession)
        .where(AuthSession.user_id == user_id, AuthSession.revoked_at.is_(None))
        .values(revoked_at=utcnow())
    )
    await db.commit()
    await realtime.current().publish_user(user_id)


async def change_password(
    db: AsyncSession, user: User, current: object, new: object, agent: str = ""
) -> tuple[str, User]:
    """Set a new password for the account ``user`` after checking ``current``; every session
    of the user ends (tokens, sockets) and a new one starts for the caller: ``(token, user)``.
    The change is conditional on the caller's session version, so of two changes racing
    one wins and the other is a 401 (its session ended).

    Raises Forbidden (a guest has no password), Unauthorized (wrong current password, or
    the session ended meanwhile), TooManyRequests (too many failures, as a log-in),
    Unprocessable (a bad new password)."""
    if not user.is_account or user.username is None:
        raise Forbidden("a guest has no password: register an account first", "guest_no_password")
    secret = check_password(new)
    await authenticate(db, user.username, current)
    hashed = await hash_password(secret)
    done = await db.execute(
        update(User)
        .where(User.id == user.id, User.session_version == user.session_version)
        .values(password_hash=hashed, session_version=User.session_version + 1)
    )
    if done.rowcount != 1:  # type: ignore[attr-defined]  # a DML statement's Result is a CursorResult
        await db.rollback()
        raise Unauthorized("your session ended meanwhile: log in again", "session_ended")
    await end_sessions(db, user.id, bump=False)
    fresh = await db.get(User, user.id, populate_existing=True)
    assert fresh is not None
    return await start_session(db, fresh, agent), fresh


async def delete_account(db: AsyncSession, user: User, password: object) -> None:
    """Delete ``user``: an account gives its password again (a guest need not). Its name,
    username and password hash are erased (its past games keep the id, under the name
    "deleted"), every session ends, and then the account-deleted listeners run
    (app/core/hooks.py: the rooms give up its seats, a bot plays on at a running table).
    Idempotent through the sessions: a deleted user has none, so a second call is a 401.

    Raises Unauthorized (wrong password), TooManyRequests (too many failures)."""
    if user.is_account and user.username is not None:
        await authenticate(db, user.username, password)
    await db.execute(
        update(User)
        .where(User.id == user.id)
        .values(kind=DELETED, username=None, password_hash=None, nickname=DELETED)
    )
    await end_sessions(db, user.id)
    await HOOKS.account_deleted(db, user.id)


# ---------------------------------------------------------------- sessions


def session_max_age() -> int:
    """Seconds a session lasts (``TAPET_SESSION_DAYS``): the token's and the cookie's age."""
    return get_settings().session_days * 24 * 3600


async def start_session(db: AsyncSession, user: User, agent: str = "") -> str:
    """A new session of ``user`` (a row, committed): its signed token, which is both the
    cookie's value and the bearer token. ``agent`` is the User-Agent shown in the list."""
    row = AuthSession(
        id=secrets.token_hex(16),
        user_id=user.id,
        created_at=utcnow(),
        expires_at=utcnow() + timedelta(seconds=session_max_age()),
        agent="".join(ch for ch in agent if ch.isprintable())[:AGENT_MAX],
    )
    db.add(row)
    await db.commit()
    return _serializer().dumps({"uid": user.id, "v": user.session_version or 0, "sid": row.id})


def _claims(token: str | None) -> tuple[int, int, str | None] | None:
    if not token or len(token) > 512:
        return None
    try:
        data = _serializer().loads(token, max_age=session_max_age())
    except BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    uid, version, sid = data.get("uid"), data.get("v", 0), data.get("sid")
    if not isinstance(uid, int) or not isinstance(version, int):
        return None
    if sid is not None and not isinstance(sid, str):
        return None
    return uid, version, sid


def user_id_from_token(token: str | None) -> int | None:
    """The user id a signed session value names, or None if it is missing, forged or
    expired (not checked against log-outs: that needs the database, see ``user_from_request``)."""
    claims = _claims(token)
    return claims[0] if claims else None


def session_id_from_token(token: str | None) -> str | None:
    """The session id a signed session value carries (None: none, or a token from before
    sessions were stored)."""
    claims = _claims(token)
    return claims[2] if claims else None


async def list_sessions(db: AsyncSession, user: User) -> list[AuthSession]:
    """The live sessions of ``user`` (not revoked, not expired), newest first."""
    rows = await db.scalars(
        select(AuthSession)
        .where(AuthSession.user_id == user.id, AuthSession.revoked_at.is_(None))
        .order_by(AuthSession.created_at.desc())
    )
    now = utcnow()
    return [row for row in rows if as_utc(row.expires_at) > now]


async def revoke_session(db: AsyncSession, user: User, session_id: str) -> None:
    """End the session ``session_id`` of ``user`` (its token and sockets, in every process).
    Revoking an ended one again does nothing. Raises NotFound unless it is the user's."""
    row = await db.get(AuthSession, session_id) if len(session_id) <= 32 else None
    if row is None or row.user_id != user.id:
        raise NotFound("you have no such session", "no_such_session")
    if row.revoked_at is None:
        await db.execute(
            update(AuthSession)
            .where(AuthSession.id == session_id, AuthSession.revoked_at.is_(None))
            .values(revoked_at=utcnow())
        )
        await db.commit()
        await realtime.current().publish_user(user.id)


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


#: token -> (its user, detached; the hub's user epoch then; a monotonic deadline)
_movers: OrderedDict[str, tuple[User, int, float]] = OrderedDict()
MOVER_SECONDS = 60.0  # as a socket's token without a notice (RECHECK)
MOVERS_KEPT = 20_000


def forget_movers() -> None:
    """Forget every kept mover (tests that empty the database)."""
    _movers.clear()


async def mover_from_request(request: HTTPConnection, session: AsyncSession) -> User | None:
    """``user_from_request`` for the hot path of a move (docs/server.md "Live rooms"): the
    answer for a token is kept ``MOVER_SECONDS``, and dropped at once when this process
    publishes or hears that some sessions of that user ended (``Hub.user_epoch``: a
    log-out here counts before its answer is sent, one in another worker as soon as its
    notice arrives; a notice lost between workers counts within ``MOVER_SECONDS``, as for
    a socket, ``RECHECK``). The user is a copy detached from its session: read it, never
    change it."""
    token = token_from_request(request)
    if token is None:
        return None
    hub = realtime.current()
    kept = _movers.get(token)
    now = time.monotonic()
    if kept is not None:
        user, epoch, deadline = kept
        if now < deadline and hub.user_epoch(user.id) == epoch:
            return user
        del _movers[token]
    found = await user_from_token(token, session)
    if found is not None:
        _movers[token] = (found, hub.user_epoch(found.id), now + MOVER_SECONDS)
        while len(_movers) > MOVERS_KEPT:
            _movers.popitem(last=False)
    return found


async def socket_user(websocket: HTTPConnection, session: AsyncSession) -> User | None:
    """The user a socket is signed in as (``socket_token``'s rule), or None: a spectator."""
    return await user_from_token(socket_token(websocket), session)


async def user_from_token(token: str | None, session: AsyncSession) -> User | None:
    """The user a session value names, or None (missing, forged, expired, revoked, logged
    out). Reads the database every time (a revocation in another process counts at once)."""
    claims = _claims(token)
    if claims is None:
        return None
    uid, version, sid = claims
    if sid is None:  # a token from before sessions were stored
        user = await session.get(User, uid, populate_existing=True)
    else:  # the user and the session in one statement
        found = (
            await session.execute(
                select(User, AuthSession)
                .join(AuthSession, AuthSession.user_id == User.id)
                .where(User.id == uid, AuthSession.id == sid)
                .execution_options(populate_existing=True)
            )
        ).first()
        if found is None:
            return None
        user, row = found
        if row.revoked_at is not None or as_utc(row.expires_at) <= utcnow():
            return None
    if user is None or (user.session_version or 0) != version or user.kind == DELETED:
        return None
    keep_loaded(session, user)  # usable after a refused write's rollback
    return user


async def watch_session(
    sessionmaker: Callable[[], AsyncSession], user_id: int, token: str | None
) -> None:
    """Return once ``token`` (a socket's, of ``user_id``) no longer counts: checked on every
    end of that user's sessions announced through the hub (any process), and every
    ``RECHECK`` seconds in case a notice was lost. The socket then closes."""
    hub = realtime.current()
    async with hub.watch_user(user_id) as ended:
        while True:
            with anyio.move_on_after(RECHECK):
                await ended.wait()
            ended.clear()
            async with sessionmaker() as db:
                if await user_from_token(token, db) is None:
                    return


RECHECK = 60.0  # seconds between two checks of a socket's token without a notice


async def set_profile_hidden(db: AsyncSession, user: User, hidden: bool) -> bool:
    """Hide (``hidden``) or show the player page of ``user`` (issue 17 §5: public by
    default). Committed; setting the same value again changes nothing. Returns the value."""
    await db.execute(update(User).where(User.id == user.id).values(profile_hidden=bool(hidden)))
    await db.commit()
    user.profile_hidden = bool(hidden)
    return bool(hidden)
