"""The app factory: ``create_app(settings=None)``.

It mounts ``static/`` at ``/static``, includes the routers listed in ``ROUTERS`` (JSON
and pages; the one Jinja environment is app/web/templating.py) and registers the
features' extension points (app/core/hooks.py: the championships' deal guard and room
labels, app/tournaments/wiring.py). The lifespan opens the database engine, the broker
subscription (app/realtime) and the bot runner.
Service errors become ``{"detail": message}`` with their status; a request that does
not validate becomes 422 ``{"detail": "nickname: field required", "errors": [...]}``.
Every request first passes the guards of app/accounts/guard.py (body size, cross-site
API writes, rate limits); every response gets the security headers of app/web/headers.py.
Tokens in socket URLs (``?token=``) are masked in the access log.
"""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
from fastapi import APIRouter, FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi_offline import FastAPIOffline
from sqlalchemy.exc import DataError, DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect

from app import realtime
from app.accounts import api as accounts_api
from app.accounts import pages as accounts_pages
from app.accounts.deps import visitor
from app.accounts.guard import GuardMiddleware
from app.bots import solver
from app.chat import api as chat_api
from app.chat import pages as chat_pages
from app.chat import wiring as chat_wiring
from app.core import collector, onewrite, walcheckpoint
from app.core.db import make_engine, make_sessionmaker
from app.core.errors import ServiceError
from app.core.hooks import HOOKS
from app.core.settings import Settings, get_settings, use_settings
from app.records import api as records_api
from app.records import card_costs, player_api, player_pages, ratings
from app.records import pages as records_pages
from app.rooms import api as rooms_api
from app.rooms import deleted, fast_moves, queue
from app.rooms import sockets as rooms_sockets
from app.rooms.runner import Runner
from app.social import api as social_api
from app.social import pages as social_pages
from app.social import presence as social_presence
from app.table import invite_pages, queue_pages, rules_pages
from app.table import pages as table_pages
from app.tournaments import api as tournaments_api
from app.tournaments import pages as tournaments_pages
from app.tournaments import wiring as tournaments_wiring
from app.web import i18n
from app.web.csrf import PreSessionMiddleware
from app.web.headers import SecurityHeadersMiddleware
from app.web.i18n import _
from app.web.static import static_app
from app.web.templating import error_response

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parent.parent
#: Every router of the site, in the order they are matched (listed here: a module that is
#: missing fails at import, loudly).
ROUTERS: tuple[APIRouter, ...] = (
    accounts_api.router,
    rooms_api.router,
    rooms_sockets.router,
    records_api.router,
    player_api.router,
    tournaments_api.router,
    tournaments_pages.router,
    accounts_pages.router,
    table_pages.router,
    queue_pages.router,
    invite_pages.router,
    records_pages.router,
    player_pages.router,
    rules_pages.router,
    social_api.router,
    social_pages.router,
    chat_api.router,
    chat_pages.router,
)
_TOKEN_IN_URL = re.compile(r"(token=)[^&\s\"]+")


class RedactTokens(logging.Filter):
    """Masks ``token=...`` in log records (uvicorn's access log shows socket URLs)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                _TOKEN_IN_URL.sub(r"\1***", a) if isinstance(a, str) else a for a in record.args
            )
        if isinstance(record.msg, str) and "token=" in record.msg:
            record.msg = _TOKEN_IN_URL.sub(r"\1***", record.msg)
        return True


def _wants_page(request: Request, method: str | None = "GET") -> bool:
    """A browser asking for a page (``method``, any when None; HTML accepted), not the API,
    a socket or a file."""
    path = request.url.path
    return (
        (method is None or request.method == method)
        and not path.startswith(("/api/", "/static/", "/ws", "/docs", "/openapi"))
        and "text/html" in request.headers.get("accept", "")
    )


async def _missing_page(request: Request) -> Response:
    """The error page (templates/error.html) for an address that is no page, status 404,
    the visitor shown signed in."""
    return error_response(request, await visitor(request), _("There is no such page."), 404)


def _install_log_redaction() -> None:
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())


def validation_message(errors: list[dict]) -> str:
    """One sentence for a person from pydantic's errors: ``"seq: field required; action:
    input should be a valid dictionary"``."""
    parts = []
    for error in errors[:5]:
        loc = [str(p) for p in error.get("loc", ()) if p not in ("body", "query", "path", "header")]
        kind, msg = error.get("type", ""), str(error.get("msg", "invalid"))
        if kind == "extra_forbidden":
            parts.append(f"unknown field {loc[-1]!r}" if loc else "unknown field")
            continue
        if kind == "json_invalid":
            parts.append("the body is not valid JSON")
            continue
        if kind == "missing" and not loc:
            parts.append("a JSON body is required")
            continue
        where = ".".join(loc)
        msg = msg[0].lower() + msg[1:] if msg else msg
        parts.append(f"{where}: {msg}" if where else msg)
    return "; ".join(parts) or "the request is not valid"


def create_app(settings: Settings | None = None) -> FastAPI:
    """The Tapet web app for ``settings`` (read from the environment when None)."""
    settings = settings or get_settings()
    use_settings(settings)
    settings.secret()  # fail at start-up, not at the first sign-in, if the key is unusable
    _install_log_redaction()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(settings.db_url())
        app.state.engine = engine
        app.state.sessionmaker = make_sessionmaker(engine)
        checkpoints = walcheckpoint.start(engine)  # SQLite: off the moves' path
        hub = realtime.Hub(realtime.make_broker(settings.redis_url, settings.redis_channel))
        await hub.start()
        realtime.install(hub)
        app.state.hub = hub
        runner = Runner(
            app.state.sessionmaker,
            hub,
            settings.bot_delay,
            settings.deal_pause,
            settings.sweep_interval,
            abandon_minutes=settings.abandon_minutes,
        )
        await runner.start()
        app.state.runner = runner
        solver.warm_in_background()  # the compiled search ready before the first bot needs it
        await people.start(app.state.sessionmaker, hub)  # who is online (app/social)
        if settings.tune_gc:  # no full collector pause every few seconds under load
            collector.tune()
        try:
            yield
        finally:
            await people.stop()
            await runner.stop()
            await hub.stop()
            if realtime.current() is hub:
                realtime.install(None)
            onewrite.close(engine)
            # the solver's worker process, if one was started
            await anyio.to_thread.run_sync(card_costs.shutdown)
            await anyio.to_thread.run_sync(solver.join_warming)  # not mid-compile at exit
            if checkpoints is not None:
                checkpoints.stop()
            await engine.dispose()

    # /docs and /redoc from the fastapi-offline package's own copies of Swagger UI and
    # ReDoc (under /docs-assets), not a CDN: a club's server may have no internet
    app = FastAPIOffline(
        title="Tapet",
        summary="An online card room: Bolot, Belote, Bridge-Belote, Botifarra",
        version="0.1.0",
        lifespan=lifespan,
        static_url="/docs-assets",
    )
    app.state.settings = settings
    # compressed, cached, versioned (app/web/static.py)
    app.mount("/static", static_app(ROOT / "static"), name="static")

    @app.exception_handler(ServiceError)
    async def service_error(_request: Request, exc: ServiceError) -> JSONResponse:
        wait = getattr(exc, "retry_after", None)
        headers = {"Retry-After": str(wait)} if wait is not None else None
        return JSONResponse({"detail": exc.message}, status_code=exc.status, headers=headers)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        # A mistyped page address gets the error page in the viewer's language, not JSON.
        if exc.status_code == 404 and _wants_page(request):
            return await _missing_page(request)
        return await http_exception_handler(request, exc)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> Response:
        errors = [
            {"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")), "type": e.get("type", "")}
            for e in exc.errors()
        ]
        in_path = any(e["loc"][:1] == ["path"] for e in errors)
        if _wants_page(request) or (in_path and _wants_page(request, None)):
            # /rooms/abc typed in a browser, or a form posted to /rooms/2/seats/abc: no such page
            return await _missing_page(request)
        return JSONResponse(
            {"detail": validation_message(errors), "errors": errors}, status_code=422
        )

    @app.exception_handler(ClientDisconnect)
    async def client_gone(_request: Request, _exc: ClientDisconnect) -> Response:
        # A phone that dropped its connection mid-request: nobody reads the answer, and it
        # is no server error (it left a traceback in the log).
        return Response(status_code=400)

    @app.exception_handler(PoolTimeout)
    async def pool_exhausted(_request: Request, _exc: Exception) -> JSONResponse:
        # Every pooled connection stayed busy past the pool's timeout (a burst beyond
        # what the database serves): the request did nothing, and may be tried again.
        return JSONResponse(
            {"detail": "the server is busy; try again"},
            status_code=503,
            headers={"Retry-After": "1"},
        )

    @app.exception_handler(OverflowError)
    @app.exception_handler(DBAPIError)
    async def out_of_range(_request: Request, exc: Exception) -> JSONResponse:
        if isinstance(exc, DBAPIError) and exc.connection_invalidated:
            # The database closed this connection (a restart, a failover): the pool has
            # dropped it and its generation; the next try gets a new one (app/core/db.py).
            return JSONResponse(
                {"detail": "the database connection was lost; try again"},
                status_code=503,
                headers={"Retry-After": "1"},
            )
        # A number too large for a database column (a safety net: inputs are bounded).
        text = str(exc)
        if (
            isinstance(exc, DBAPIError)
            and not isinstance(exc, DataError)
            and "out of int" not in text
        ):
            raise exc
        return JSONResponse({"detail": "a number in the request is out of range"}, status_code=422)

    people = social_presence.People()  # users.seen_at, throttled (app/social/presence.py)
    app.state.people = people
    app.add_middleware(social_presence.SeenMiddleware, people=people)
    app.add_middleware(GuardMiddleware, settings=settings)
    app.add_middleware(PreSessionMiddleware)  # a random pre-session cookie for CSRF tokens
    app.add_middleware(i18n.LanguageMiddleware)  # the page language (app/web/i18n.py)
    app.add_middleware(SecurityHeadersMiddleware)  # outermost: every response (app/web/headers.py)

    tournaments_wiring.install(HOOKS)  # extension points (app/core/hooks.py)
    HOOKS.add_match_end_listener(ratings.on_match_ended)  # histories and ratings (issue 17)
    HOOKS.add_active_people(queue.active_people)  # nicknames unique among them (app/accounts)
    HOOKS.add_account_deleted_listener(deleted.on_account_deleted)  # its seats, its queue entry
    chat_wiring.install(HOOKS)  # the chat on the room sockets, blocks in quick play (app/chat)
    for router in ROUTERS:
        app.include_router(router)
    # a move's POST without FastAPI's machinery, matched first (app/rooms/fast_moves.py)
    fast_moves.install(app.router.routes)
    return app
