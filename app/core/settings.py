"""Runtime settings, read from the environment (pydantic-settings).

| variable | default | meaning |
|---|---|---|
| ``DATABASE_URL`` | SQLite file ``tapet.db`` in the working directory | SQLAlchemy async URL; ``postgresql://`` and ``sqlite://`` are given their async drivers |
| ``REDIS_URL`` | unset: in-process broker | Redis pub/sub broker, so several processes serve one room |
| ``TAPET_BOT_DELAY`` | 0.7 | seconds between a move and a bot's answer |
| ``TAPET_DEAL_PAUSE`` | 4.0 | seconds the finished deal's result stays before the next deal |
| ``TAPET_SECRET_KEY`` | unset: generated once, kept in ``tapet-secret.key`` | signs session cookies and tokens |
| ``TAPET_SWEEP_INTERVAL`` | 5.0 | seconds between the bot runner's recovery sweeps |
| ``TAPET_LEASE_TTL`` | 10.0 | seconds a dead worker's rooms wait before another worker drives them (app/realtime/lease.py) |
| ``TAPET_REDIS_CHANNEL`` | ``tapet:events`` | pub/sub channel of room events |
| ``TAPET_COOKIE_SECURE`` | false | mark the session cookie ``Secure`` (set it behind HTTPS) |
| ``TAPET_SESSION_DAYS`` | 30 | a session (cookie and token) expires this many days after sign-in |
| ``TAPET_RATE_LIMITS`` | true | apply the rate limits below (429 with ``Retry-After``) |
| ``TAPET_RATE_LOGIN`` | ``10/60`` | log-in attempts per client address: N per S seconds |
| ``TAPET_RATE_LOGIN_FAILURES`` | ``10/600`` | failed log-ins per username, whatever the address (then 429 until a token is back) |
| ``TAPET_RATE_SESSION`` | ``30/60`` | new guests and registrations per client address |
| ``TAPET_RATE_MOVES`` | ``60/10`` | moves per user (per address without a session) |
| ``TAPET_RATE_ROOMS`` | ``10/60`` | new rooms per user (per address without a session) |
| ``TAPET_RATE_REPLAYS`` | ``10/60`` | "replay my deal" requests per user (the strong bot replays a deal) |
| ``TAPET_RATE_HINTS`` | ``30/60`` | hints per user (the strong bot thinks ~150 ms for each) |
| ``TAPET_RATE_CODE_FAILURES`` | ``30/60`` | invitation and quick-play partner codes that open nothing, per client address (then 429 for any code: app/rooms/invites.py) |
| ``TAPET_MAX_BODY`` | 65536 | largest request body in bytes (413 beyond) |
| ``TAPET_DEFAULT_MAX_TIMEOUTS`` | 2 | a room's move-clock timeouts in a row before a stand-in bot plays |

A rate is ``"N/S"`` (a bucket of N tokens refilled over S seconds) or ``"off"``.
The secret key must have at least 16 characters; the generated one has 256 bits.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

SECRET_FILE = "tapet-secret.key"
SECRET_MIN_LENGTH = 16
SQLITE_FILE = "tapet.db"
#: The signed session cookie (app/accounts/service.py writes it, app/web/csrf.py ties form
#: tokens to it).
SESSION_COOKIE = "tapet_session"


def _env(name: str) -> AliasChoices:
    return AliasChoices(name, name.lower())


class Settings(BaseSettings):
    """The server's settings. Construct with keyword arguments in tests:
    ``Settings(database_url=..., bot_delay=0)``."""

    model_config = SettingsConfigDict(populate_by_name=True, extra="ignore")

    database_url: str | None = Field(default=None, validation_alias=_env("DATABASE_URL"))
    redis_url: str | None = Field(default=None, validation_alias=_env("REDIS_URL"))
    bot_delay: float = Field(default=0.7, ge=0, validation_alias=_env("TAPET_BOT_DELAY"))
    deal_pause: float = Field(default=4.0, ge=0, validation_alias=_env("TAPET_DEAL_PAUSE"))
    secret_key: str | None = Field(default=None, validation_alias=_env("TAPET_SECRET_KEY"))
    sweep_interval: float = Field(default=5.0, gt=0, validation_alias=_env("TAPET_SWEEP_INTERVAL"))
    lease_ttl: float = Field(default=10.0, ge=0.3, validation_alias=_env("TAPET_LEASE_TTL"))
    redis_channel: str = Field(default="tapet:events", validation_alias=_env("TAPET_REDIS_CHANNEL"))
    cookie_secure: bool = Field(default=False, validation_alias=_env("TAPET_COOKIE_SECURE"))
    session_days: int = Field(default=30, ge=1, le=400, validation_alias=_env("TAPET_SESSION_DAYS"))
    #: A nickname is unique among the people active now: seated at an unfinished table, in
    #: the queue, or signed in within this many minutes (app/accounts/service.py).
    nickname_active_minutes: int = Field(
        default=30, ge=0, le=1440, validation_alias=_env("TAPET_NICKNAME_ACTIVE_MINUTES")
    )
    #: Off: nicknames need not be unique (the browser tests' live server, whose tests reuse
    #: names across one shared database; the rule itself is tested in tests/accounts).
    unique_nicknames: bool = Field(default=True, validation_alias=_env("TAPET_UNIQUE_NICKNAMES"))
    rate_limits: bool = Field(default=True, validation_alias=_env("TAPET_RATE_LIMITS"))
    #: Freeze start-up's objects and widen the collector's thresholds once the app has
    #: started (app/core/collector.py). Off in the tests' settings (one process, many apps).
    tune_gc: bool = Field(default=True, validation_alias=_env("TAPET_TUNE_GC"))
    rate_login: str = Field(default="10/60", validation_alias=_env("TAPET_RATE_LOGIN"))
    rate_login_failures: str = Field(
        default="10/600", validation_alias=_env("TAPET_RATE_LOGIN_FAILURES")
    )
    rate_session: str = Field(default="30/60", validation_alias=_env("TAPET_RATE_SESSION"))
    rate_moves: str = Field(default="60/10", validation_alias=_env("TAPET_RATE_MOVES"))
    rate_rooms: str = Field(default="10/60", validation_alias=_env("TAPET_RATE_ROOMS"))
    rate_replays: str = Field(default="10/60", validation_alias=_env("TAPET_RATE_REPLAYS"))
    rate_hints: str = Field(default="30/60", validation_alias=_env("TAPET_RATE_HINTS"))
    rate_code_failures: str = Field(
        default="30/60", validation_alias=_env("TAPET_RATE_CODE_FAILURES")
    )
    max_body: int = Field(default=65536, ge=1024, validation_alias=_env("TAPET_MAX_BODY"))
    #: A playing table with nobody connected for this many minutes is ended as abandoned
    #: (app/rooms/presence.py, docs/presence.md).
    abandon_minutes: float = Field(
        default=10.0, gt=0, validation_alias=_env("TAPET_ABANDON_MINUTES")
    )
    default_max_timeouts: int = Field(
        default=2, ge=1, validation_alias=_env("TAPET_DEFAULT_MAX_TIMEOUTS")
    )
    #: The site's admins: account usernames, comma-separated (they may hide any chat
    #: message and read the reports: app/chat, docs/chat.md).
    admins: str = Field(default="", validation_alias=_env("TAPET_ADMINS"))

    def db_url(self) -> str:
        """The async SQLAlchemy URL to use (the SQLite default when ``DATABASE_URL`` is unset)."""
        return async_url(self.database_url or f"sqlite+aiosqlite:///{Path.cwd() / SQLITE_FILE}")

    def secret(self) -> str:
        """The signing key: ``TAPET_SECRET_KEY``, else the one kept in ``tapet-secret.key``
        (created on first use with 256 random bits, readable by its owner only).
        Raises ValueError for a key shorter than 16 characters."""
        if not self.secret_key:
            self.secret_key = _secret_from_file(Path.cwd() / SECRET_FILE)
        if len(self.secret_key) < SECRET_MIN_LENGTH:
            raise ValueError(f"TAPET_SECRET_KEY must have at least {SECRET_MIN_LENGTH} characters")
        return self.secret_key

    def rate(self, name: str) -> tuple[int, float] | None:
        """The rate limit ``name`` ("login", "login_failures", "session", "moves", "rooms", "replays", "hints", "code_failures") as ``(tokens, seconds)``,
        or None when rate limits are off. Raises ValueError for a malformed rate."""
        if not self.rate_limits:
            return None
        return parse_rate(getattr(self, f"rate_{name}"))


def parse_rate(text: str) -> tuple[int, float] | None:
    """``"10/60"`` -> ``(10, 60.0)``; ``"off"`` (or ``""``, ``"0"``) -> None.
    Raises ValueError for anything else."""
    text = text.strip().lower()
    if text in ("", "0", "off", "none"):
        return None
    count, _, seconds = text.partition("/")
    tokens, period = int(count), float(seconds or "1")
    if tokens < 1 or period <= 0:
        raise ValueError(f"bad rate {text!r}: use N/S, e.g. 10/60")
    return tokens, period


def async_url(url: str) -> str:
    """Give a database URL its async driver: ``postgresql://`` -> ``postgresql+asyncpg://``,
    ``sqlite://`` -> ``sqlite+aiosqlite://``; other URLs are returned unchanged."""
    for plain, driver in (
        ("postgres://", "postgresql+asyncpg://"),
        ("postgresql://", "postgresql+asyncpg://"),
        ("sqlite://", "sqlite+aiosqlite://"),
    ):
        if url.startswith(plain):
            return driver + url[len(plain) :]
    return url


def _secret_from_file(path: Path) -> str:
    try:
        key = path.read_text().strip()
        if key:
            return key
    except FileNotFoundError:
        pass
    key = secrets.token_urlsafe(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process wrote it first: use theirs
        return path.read_text().strip()
    try:
        os.write(fd, key.encode())
    finally:
        os.close(fd)
    return key


_active: Settings | None = None


def get_settings() -> Settings:
    """The settings in force: those given to ``create_app``, else read from the environment."""
    global _active
    if _active is None:
        _active = Settings()
    return _active


def use_settings(settings: Settings) -> None:
    """Make ``settings`` the ones in force (``create_app`` calls this)."""
    global _active
    _active = settings


def safe_url(url: str) -> str:
    """``url`` without its password, for logs and messages."""
    from sqlalchemy.engine import make_url  # sqlalchemy only when asked: settings load first

    return make_url(url).render_as_string(hide_password=True)
