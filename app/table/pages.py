"""HTML pages of the rooms: the lobby, a room (seats, then the table) and its live socket.

Routes (``router``, no prefix):

| route | does |
|---|---|
| ``GET /`` | the lobby: rooms, "create a room", the nickname form for a new visitor |
| ``GET /rooms/list`` | the lobby's room list alone (polled every 5 s) |
| ``POST /rooms`` | create a room (form: ``game``, ``opt_<name>``) and go to it |
| ``GET /rooms/{id}`` | the room: seats before the start, the table after |
| ``POST /rooms/{id}/seats/{seat}`` | sit there, or seat a bot (form ``bot``) |
| ``POST /rooms/{id}/seats/{seat}/leave`` | leave the seat, or remove a bot before the start |
| ``POST /rooms/{id}/bots`` | fill every empty seat with bots of level ``bot`` |
| ``POST /rooms/{id}/start`` | start the match |
| ``POST /rooms/{id}/moves`` | play one action (form: ``seq``, ``action`` as JSON) |
| ``POST /rooms/{id}/hint`` | what the strong bot would do from the requester's own seat (an HTML fragment) |
| ``POST /rooms/{id}/deals/{n}/replay-mine`` | the strong bot replays finished deal n from the requester's seat: both results side by side (a fragment for ``#replay-mine``) |
| ``WS /rooms/{id}/ws`` | pushes the viewer's table as hx-swap-oob fragments |

Everything shown is rendered from the viewer's own view (``service.get_view``
for the user the cookie names), so no page, fragment or push carries a card
the viewer may not see. Forms work with and without htmx: an htmx request gets
fragments (errors into ``#flash`` with their HTTP status), a plain one a
redirect or an error page. Every POST checks the CSRF token and the origin.
Rendering and form helpers live in app/table/rendering.py.
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
from typing import Any

import anyio
from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app import realtime, rules
from app.accounts.deps import OptionalUser
from app.accounts.models import User
from app.accounts.service import socket_token, user_from_token, watch_session
from app.core.db import SessionDep
from app.core.errors import Conflict, NotFound, ServiceError, Unprocessable
from app.core.hooks import HOOKS
from app.rooms import fanout, service
from app.table import hints
from app.table.rendering import games_for_form, parse_options, render_fragments, room_context
from app.web import csrf
from app.web.templating import (
    FORBIDDEN_FORM,
    checked_form,
    error_response,
    first,
    four_colour,
    go,
    is_htmx,
    templates,
)

log = logging.getLogger(__name__)
router = APIRouter(include_in_schema=False)


# ---------------------------------------------------------------- lobby


@router.get("/", response_class=HTMLResponse)
async def lobby(
    request: Request, db: SessionDep, user: OptionalUser, game: str | None = None
) -> Response:
    """The lobby: the rooms (``?game=`` filters them), the form to create one, the
    nickname form for a new visitor."""
    game = _lobby_game(game)
    return templates.TemplateResponse(
        request,
        "rooms/lobby.html",
        {
            "user": user,
            "rooms": await service.list_rooms(db, game),
            "game_filter": game,
            "games": games_for_form(),
            "csrf_token": csrf.csrf_token(request),
            # one key per form shown: a double tap or a resent form makes one room
            "creation_key": secrets.token_urlsafe(16),
            "next": "/",
        },
    )


@router.get("/rooms/list", response_class=HTMLResponse)
async def room_list(
    request: Request, db: SessionDep, user: OptionalUser, game: str | None = None
) -> Response:
    """The lobby's room list alone, for its polling (``?game=`` filters it)."""
    game = _lobby_game(game)
    return templates.TemplateResponse(
        request,
        "rooms/_room_list.html",
        {
            "user": user,
            "rooms": await service.list_rooms(db, game),
            "game_filter": game,
        },
    )


def _lobby_game(game: str | None) -> str | None:
    """The lobby's game filter: a game id, or None (all games; an unknown id is ignored)."""
    return game if game in rules.GAMES else None


@router.post("/rooms")
async def create_room(request: Request, db: SessionDep, user: OptionalUser) -> Response:
    """Create a room from the lobby form (the game's ``opt_<name>`` fields, the
    ``spectators_see_hands`` checkbox, off unless ticked, and the ``clock_seconds`` move
    clock, 0 for none) and go to it."""
    form = await checked_form(request)
    if form is None:
        return error_response(request, user, FORBIDDEN_FORM, 403)
    if user is None:
        return error_response(request, user, "Choose a nickname first.", 401)
    game = first(form, "game") or ""
    clock = (first(form, "clock_seconds") or "0").strip()
    try:
        if not clock.isdigit():
            raise Unprocessable(
                f"clock_seconds is 0 (no clock) or a number of seconds, not {clock!r}",
                "clock_seconds",
            )
        room = await service.create_room(
            db,
            user,
            game,
            parse_options(game, form),
            spectators_see_hands=first(form, "spectators_see_hands") == "true",
            clock_seconds=int(clock) or None,
            creation_key=first(form, "creation_key") or None,
        )
    except ServiceError as exc:
        return error_response(request, user, exc, exc.status)
    return go(request, f"/rooms/{room['id']}")


# ---------------------------------------------------------------- a room


@router.get("/rooms/{room_id}", response_class=HTMLResponse)
async def room_page(request: Request, room_id: int, db: SessionDep, user: OptionalUser) -> Response:
    """A room: the seats before the start, the table after (spectators see no hidden hand)."""
    try:
        view = await service.get_view(db, room_id, user)
    except NotFound as exc:
        return error_response(request, user, exc, 404)
    ctx = room_context(view, user, csrf.csrf_token(request), four=four_colour(request))
    ctx["next"] = f"/rooms/{room_id}"
    # A championship's table links back to it (one query; the page is not pushed).
    ctx["championship"] = (await HOOKS.room_labels(db, [room_id])).get(room_id)
    return templates.TemplateResponse(request, "rooms/room.html", ctx)


async def _after_change(request: Request, db: Any, room_id: int, user: User) -> Response:
    """Answer a successful seat/start post: fresh fragments for htmx, the room page otherwise."""
    if not is_htmx(request):
        return RedirectResponse(f"/rooms/{room_id}", status_code=303)
    view = await service.get_view(db, room_id, user)
    return HTMLResponse(_fragments(request, view, user))


def _fragments(request: Request, view: dict[str, Any], user: User | None) -> str:
    return render_fragments(view, user, csrf.csrf_token(request), four_colour(request))


async def _room_post(
    request: Request, user: User | None
) -> tuple[dict[str, Any] | None, Response | None]:
    form = await checked_form(request)
    if form is None:
        return None, error_response(request, user, FORBIDDEN_FORM, 403)
    if user is None:
        return None, error_response(request, user, "Choose a nickname first.", 401)
    return form, None


@router.post("/rooms/{room_id}/seats/{seat}")
async def take_seat(
    request: Request, room_id: int, seat: int, db: SessionDep, user: OptionalUser
) -> Response:
    """Sit in ``seat``, or seat a bot there when the form names one."""
    form, refused = await _room_post(request, user)
    if refused:
        return refused
    assert form is not None and user is not None
    try:
        await service.take_seat(db, room_id, seat, user, bot=first(form, "bot") or None)
    except ServiceError as exc:
        return error_response(request, user, exc, exc.status, f"/rooms/{room_id}")
    return await _after_change(request, db, room_id, user)


@router.post("/rooms/{room_id}/seats/{seat}/leave")
async def leave_seat(
    request: Request, room_id: int, seat: int, db: SessionDep, user: OptionalUser
) -> Response:
    """Leave ``seat`` (or remove its bot before the start)."""
    _form, refused = await _room_post(request, user)
    if refused:
        return refused
    assert user is not None
    try:
        await service.leave_seat(db, room_id, seat, user)
    except ServiceError as exc:
        return error_response(request, user, exc, exc.status, f"/rooms/{room_id}")
    return await _after_change(request, db, room_id, user)


@router.post("/rooms/{room_id}/bots")
async def fill_with_bots(
    request: Request, room_id: int, db: SessionDep, user: OptionalUser
) -> Response:
    """Seat a bot of the chosen level in every empty seat."""
    form, refused = await _room_post(request, user)
    if refused:
        return refused
    assert form is not None and user is not None
    level = first(form, "bot") or "heuristic"
    try:
        room = await service.room_info(db, room_id)
        for s in room["seats"]:
            if s["kind"] == "empty":
                await service.take_seat(db, room_id, s["seat"], user, bot=level)
    except ServiceError as exc:
        return error_response(request, user, exc, exc.status, f"/rooms/{room_id}")
    return await _after_change(request, db, room_id, user)


@router.post("/rooms/{room_id}/start")
async def start(request: Request, room_id: int, db: SessionDep, user: OptionalUser) -> Response:
    """Start the match."""
    _form, refused = await _room_post(request, user)
    if refused:
        return refused
    assert user is not None
    try:
        await service.start(db, room_id, user)
    except ServiceError as exc:
        return error_response(request, user, exc, exc.status, f"/rooms/{room_id}")
    return await _after_change(request, db, room_id, user)


@router.post("/rooms/{room_id}/moves")
async def move(request: Request, room_id: int, db: SessionDep, user: OptionalUser) -> Response:
    """Play one action at the seq the page showed.

    A repeated or stale post (a double click, a move made meanwhile) changes
    nothing and shows nothing: the table is already up to date or about to be.
    """
    form, refused = await _room_post(request, user)
    if refused:
        return refused
    assert form is not None and user is not None
    try:
        seq = int(first(form, "seq") or "")
        action = json.loads(first(form, "action") or "")
        # A bid of points names its suit on the button and its value in a separate
        # field of the form (the contrée panel, templates/rooms/_panel_contree.html).
        value = first(form, "bid_value")
        if value and isinstance(action, dict) and action.get("type") == "bid":
            action.setdefault("value", int(value) if value.isdigit() else value)
    except ValueError:
        return error_response(request, user, "That move could not be read. Reload the page.", 422)
    try:
        view = await service.post_move(db, room_id, user, seq, action)
    except Conflict as exc:
        current = await service.get_view(db, room_id, user)
        if current.get("seq") != seq:  # stale: already played, or the table moved on
            return _quiet(request, room_id, current, user)
        return error_response(request, user, exc, exc.status, f"/rooms/{room_id}")
    except ServiceError as exc:
        return error_response(request, user, exc, exc.status, f"/rooms/{room_id}")
    if not is_htmx(request):
        return RedirectResponse(f"/rooms/{room_id}", status_code=303)
    return HTMLResponse(_fragments(request, view, user))


@router.post("/rooms/{room_id}/hint", response_class=HTMLResponse)
async def hint(request: Request, room_id: int, db: SessionDep, user: OptionalUser) -> Response:
    """The strong bot's suggestion for the requester's own seat, with a few words why
    (app/table/hints.py): a fragment for ``#hint``. Only a seated player gets one, from
    their own view; a spectator is refused (403)."""
    _form, refused = await _room_post(request, user)
    if refused:
        return refused
    try:
        view = await service.get_view(db, room_id, user)
        suggestion = await hints.hint(db, room_id, user, view=view)
    except ServiceError as exc:
        return error_response(request, user, exc, exc.status, f"/rooms/{room_id}")
    html = templates.get_template("rooms/_hint.html").render(
        hint=suggestion, room=view, view=view, csrf_token=csrf.csrf_token(request)
    )
    return HTMLResponse(html)


def _quiet(request: Request, room_id: int, view: dict[str, Any], user: User) -> Response:
    """The answer to a stale move: the current table, no message."""
    if not is_htmx(request):
        return RedirectResponse(f"/rooms/{room_id}", status_code=303)
    return HTMLResponse(_fragments(request, view, user))


# ---------------------------------------------------------------- the page socket


@router.websocket("/rooms/{room_id}/ws")
async def room_socket(websocket: WebSocket, room_id: int) -> None:
    """Push the viewer's table (hx-swap-oob fragments) at connect and after every change.

    The viewer is the user of the session cookie (or a spectator); each push is
    rendered from ``service.get_view`` for that user alone, with a fresh
    database session so it never reads an old snapshot. Incoming messages are
    ignored: moves go through ``POST /rooms/{id}/moves``.
    """
    if not csrf.same_origin(websocket):
        await websocket.close(code=1008)
        return
    maker = websocket.app.state.sessionmaker
    async with maker() as db:
        token = socket_token(websocket)
        user = await user_from_token(token, db)
        try:
            await service.room_info(db, room_id)
        except NotFound:
            await websocket.close(code=1008)
            return
    form_token = csrf.csrf_token(websocket)  # the forms the pushed fragments carry
    four = four_colour(websocket)
    await websocket.accept()
    hub = realtime.current()

    async def push() -> None:
        # built once per audience and event for every socket of this process (app/rooms/fanout.py);
        # a shared view is handed out only to the user its own seats name
        view = (await fanout.views_of(hub).get(maker, room_id, user)).view
        await websocket.send_text(render_fragments(view, user, form_token, four))

    async def sender(events: realtime.RoomEvents) -> None:
        await push()
        async for _seq in events:
            await push()

    async def receiver(scope: anyio.CancelScope) -> None:
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
        except (WebSocketDisconnect, RuntimeError):
            pass
        scope.cancel()

    with hub.presence.watching(room_id, user.id if user else None):
        async with hub.listen(room_id) as events:
            try:
                async with anyio.create_task_group() as tg:
                    tg.start_soon(receiver, tg.cancel_scope)
                    tg.start_soon(_guard, sender(events), tg.cancel_scope)
                    if user is not None:  # its session ends (any process): it closes
                        tg.start_soon(
                            _session_end, websocket, maker, user.id, token, tg.cancel_scope
                        )
            except (WebSocketDisconnect, RuntimeError):
                pass


async def _session_end(
    websocket: WebSocket, maker: Any, user_id: int, token: str | None, scope: anyio.CancelScope
) -> None:
    """Close the socket (1008) once the session it was opened with ends."""
    await watch_session(maker, user_id, token)
    with contextlib.suppress(RuntimeError, OSError):
        await websocket.close(code=1008, reason="session ended")
    scope.cancel()


async def _guard(coro: Any, scope: anyio.CancelScope) -> None:
    """Run the sender; a closed socket or a vanished room ends the connection quietly."""
    try:
        await coro
    except (WebSocketDisconnect, RuntimeError, NotFound):
        pass
    except Exception:  # noqa: BLE001 - never let a render error kill the server task
        log.exception("room socket push failed")
    scope.cancel()
