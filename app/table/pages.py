"""HTML pages of the rooms: the lobby, a room (seats, then the table) and its live socket.

Routes (``router``, no prefix):

| route | does |
|---|---|
| ``GET /`` | the lobby: what Tapet is, "play now" per game, rooms, "create a room" |
| ``GET /rooms/list`` | the lobby's room list alone (polled every 5 s) |
| ``POST /play`` | "play now": a started room, the player in seat 0, bots in the others |
| ``POST /rooms`` | create a room (form: ``game``, ``opt_<name>``), its creator in seat 0, and go to it |
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
from typing import Any

import anyio
from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app import realtime, rules
from app.accounts import service as accounts
from app.accounts.api import set_session_cookie
from app.accounts.deps import OptionalUser
from app.accounts.models import User
from app.accounts.service import socket_token, user_from_token, watch_session
from app.core.db import SessionDep
from app.core.errors import (
    Conflict,
    Forbidden,
    NotFound,
    ServiceError,
    TooManyRequests,
    Unprocessable,
)
from app.core.hooks import HOOKS
from app.rooms import fanout, invites, service
from app.rooms.botplay import bot_names
from app.table import hints, invite_pages, labels, presenter
from app.table.rendering import games_for_form, parse_options, render_fragments, room_context
from app.web import cards, csrf, i18n
from app.web.errors import message_for
from app.web.templating import (
    FORBIDDEN_FORM,
    checked_form,
    error_response,
    first,
    four_colour,
    go,
    is_htmx,
    person_form,
    templates,
)

log = logging.getLogger(__name__)
router = APIRouter(include_in_schema=False)


# ---------------------------------------------------------------- lobby


@router.get("/", response_class=HTMLResponse)
async def lobby(
    request: Request, db: SessionDep, user: OptionalUser, game: str | None = None
) -> Response:
    """The lobby: what Tapet is, "play now" for each game, the rooms (``?game=`` filters
    them), the form to create one."""
    page = await _lobby_page(request, db, user, _lobby_game(game))
    # never shown again from the cache (Back): its forms' creation keys are for one use
    page.headers["Cache-Control"] = "no-store"
    return page


async def _lobby_page(
    request: Request,
    db: Any,
    user: User | None,
    game: str | None = None,
    errors: dict[str, str] | None = None,
    form: dict[str, Any] | None = None,
    status: int = 200,
    which: str = "play",
) -> Response:
    """The lobby page; after a refused form (``which``: "play" or "create"), ``errors``
    (field name -> message, "" for the form as a whole) are shown next to their fields and
    ``form`` (what was posted) is kept in them."""
    values = {k: first(form, k) for k in form} if form else {}
    mine = {"errors": errors or {}, "typed": values}
    none: dict[str, Any] = {"errors": {}, "typed": {}}
    return templates.TemplateResponse(
        request,
        "rooms/lobby.html",
        {
            "user": user,
            "rooms": await service.list_rooms(db, game),
            "my_private": await invites.my_private_rooms(db, user),
            "game_filter": game,
            "games": games_for_form(),
            "play_games": play_now_games(),
            "bot_levels": bot_names(),
            "play_bot": PLAY_NOW_BOT,
            "guest_name": labels.guest_name(),
            "csrf_token": csrf.csrf_token(request),
            # one key per form shown: a double tap or a resent form makes one room
            "creation_key": accounts.new_form_key(),
            "play_key": accounts.new_form_key(),
            "play": mine if which == "play" else none,
            "create": mine if which == "create" else none,
            "next": "/",
        },
        status_code=status,
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
    ``spectators_see_hands`` checkbox, off unless ticked, ``skip_empty_declaration``,
    ``rated`` (ticked by default in the form; unticked: a casual room), the
    ``clock_seconds`` move clock, 0 for none), seat its creator in seat 0 and go to it.
    A refusal comes back as the form, the message next to its field and what was typed
    kept (htmx: the form alone, swapped in place)."""
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
            seat=0,
            skip_empty_declaration="true" in (form.get("skip_empty_declaration") or []),
            rated="true" in (form.get("rated") or []),
            private=first(form, "private") == "true",
        )
    except ServiceError as exc:
        errors = {_field_of(exc, game): message_for(exc)}
        if is_htmx(request):
            html = templates.get_template("rooms/_create_room.html").render(
                _create_form_context(request, user, errors, form)
            )
            return HTMLResponse(
                html,
                status_code=exc.status,
                headers={"HX-Retarget": "#create-room", "HX-Reswap": "outerHTML"},
            )
        return await _lobby_page(request, db, user, None, errors, form, exc.status, "create")
    return go(request, f"/rooms/{room['id']}")


def _create_form_context(
    request: Request, user: User, errors: dict[str, str], form: dict[str, Any]
) -> dict[str, Any]:
    """The context of rooms/_create_room.html after a refusal: ``errors`` by field, the
    posted ``form`` kept, a fresh creation key."""
    return {
        "user": user,
        "games": games_for_form(),
        "csrf_token": csrf.csrf_token(request),
        "creation_key": accounts.new_form_key(),
        "errors": errors,
        "values": {k: first(form, k) for k in form},
    }


def _field_of(exc: ServiceError, game: str) -> str:
    """The form field a refusal is about ("" when it is about the whole form)."""
    params = getattr(exc, "params", None) or {}
    code = getattr(exc, "code", None)
    if code in ("option_bool", "option_int", "option_choice") and params.get("option"):
        return f"opt_{params['option']}"
    if code == "not_whole_number":
        for o in rules.GAMES[game].options_schema if game in rules.GAMES else []:
            if params.get("label") == o.get("label", o["name"]):
                return f"opt_{o['name']}"
    return {"clock_seconds": "clock_seconds", "unknown_game": "game"}.get(str(code), "")


# ---------------------------------------------------------------- play now

#: The bots a "play now" table gets unless the player picks others: quick and fair play.
PLAY_NOW_BOT = "heuristic"


def play_now_games() -> list[dict[str, Any]]:
    """The games for "play now": ``[{id, name, players, targets: [int], target}]``, the
    targets offered being the game's choices or suggested ones and its default
    (``options_schema``), ``target`` the default."""
    games = []
    for g in rules.GAMES.values():
        opt = next((o for o in g.options_schema if o["name"] == "target"), None)
        default = opt.get("default") if opt else None
        offered = list(opt.get("choices") or opt.get("suggested") or []) if opt else []
        targets = sorted({t for t in [*offered, default] if isinstance(t, int)})
        games.append(
            {
                "id": g.id,
                "name": cards.option_text(g.name),
                "players": g.players,
                "targets": targets,
                "target": default,
            }
        )
    return games


@router.post("/play")
async def play_now(request: Request, db: SessionDep, user: OptionalUser) -> Response:
    """ "Play now" (form: ``game``, ``bot_<game>``, ``target_<game>``, ``creation_key``,
    and for a visitor without a session ``nickname``): a new room of ``game`` with the
    player in seat 0 and bots in the others, started at once; then go to its table.
    ``game`` empty: "only take this nickname" (a guest, back to the lobby).

    A visitor without a session becomes a guest under ``nickname`` (the form offers a
    generated one they may change). The same ``creation_key`` sent again for the same
    game gives the same room, never a second one (a double tap; for a new visitor whose
    first answer has not yet set the cookie, the same guest too:
    ``accounts.guest_of_form``). Refusals come back as the lobby with the message next
    to its field (422, 403 for a form from elsewhere); never a 500."""
    form = await checked_form(request)
    if form is None:
        return error_response(request, user, FORBIDDEN_FORM, 403)
    game = first(form, "game") or ""
    if not game:  # "only take this nickname": a guest, back to the lobby
        return await _nickname_only(request, db, user, form)
    if game not in rules.GAMES:
        refusal = Unprocessable(f"there is no game {game!r}", "unknown_game", game=game)
        return await _lobby_page(request, db, user, None, {"": message_for(refusal)}, form, 422)
    level = first(form, f"bot_{game}") or PLAY_NOW_BOT
    if level not in bot_names():
        refusal = Unprocessable(f"unknown bot {level!r}", "unknown_bot", bot=level)
        return await _play_refused(request, db, user, f"bot_{game}", refusal, form)
    target = (first(form, f"target_{game}") or "").strip()
    try:  # everything the form can get wrong is checked before anyone is made
        options = parse_options(game, {"opt_target": [target]} if target else {})
        rules.new_game(game, options, 0)
    except ServiceError as exc:
        return await _play_refused(request, db, user, f"target_{game}", exc, form)
    except rules.IllegalAction as exc:
        return await _play_refused(request, db, user, f"target_{game}", Unprocessable.of(exc), form)
    # one key per button: a double tap makes one room; after Back, another game is another room
    key = f"{first(form, 'creation_key')}-{game}" if first(form, "creation_key") else None
    token = None
    if user is None:
        # the form's key made at most one guest: a twin tap (before the first answer set
        # the cookie) is that guest, and then the same room
        try:
            user = await accounts.guest_of_form(db, request, first(form, "nickname") or "", key)
        except ServiceError as exc:
            return await _play_refused(request, db, None, "nickname", exc, form)
        token = await accounts.start_session(db, user, request.headers.get("user-agent", ""))
    try:
        room = await service.create_room(
            db, user, game, options, creation_key=key, seat=0, bots=level
        )
        if room["status"] == "open":
            with contextlib.suppress(Conflict):  # a twin request started it a moment ago
                await service.start(db, room["id"], user)
    except ServiceError as exc:
        response = error_response(request, user, exc, exc.status)
    else:
        response = go(request, f"/rooms/{room['id']}")
    if token is not None:
        set_session_cookie(response, token)
    return response


async def _nickname_only(
    request: Request, db: Any, user: User | None, form: dict[str, Any]
) -> Response:
    """The visitor becomes a guest under the form's ``nickname`` and sees the lobby again
    (with "create a room"); a refused nickname comes back next to its field. The form's
    ``creation_key`` sent again (a double tap) is the same guest
    (``accounts.guest_of_form``), not "someone playing now is called" their own name."""
    if user is not None:
        return go(request, "/")
    key = f"{first(form, 'creation_key')}-nickname" if first(form, "creation_key") else None
    try:
        guest = await accounts.guest_of_form(db, request, first(form, "nickname") or "", key)
    except ServiceError as exc:
        return await _play_refused(request, db, None, "nickname", exc, form)
    response = go(request, "/")
    set_session_cookie(
        response, await accounts.start_session(db, guest, request.headers.get("user-agent", ""))
    )
    return response


async def _play_refused(
    request: Request, db: Any, user: User | None, field: str, exc: ServiceError, form: Any
) -> Response:
    page = await _lobby_page(request, db, user, None, {field: message_for(exc)}, form, exc.status)
    page.headers["Cache-Control"] = "no-store"  # the lobby again: its forms' keys are for one use
    return page


# ---------------------------------------------------------------- a room


@router.get("/rooms/{room_id}", response_class=HTMLResponse)
async def room_page(request: Request, room_id: int, db: SessionDep, user: OptionalUser) -> Response:
    """A room: the seats before the start, the table after (spectators see no hidden hand).
    A private room without its code: the refusal, with the code's field (403)."""
    try:
        await invites.require_access(db, room_id, user, invites.codes_of(request))
        view = await service.get_view(db, room_id, user)
    except NotFound as exc:
        return error_response(request, user, exc, 404)
    except TooManyRequests as exc:  # too many wrong codes from this address
        return error_response(request, user, exc, exc.status)
    except Forbidden as exc:
        # the page says why and offers the code field (templates/rooms/join.html)
        return invite_pages.join_page(request, user, private=True, status=exc.status)
    if view.get("status") == "playing":
        await service.mark_seen(db, room_id)  # a page without a socket is someone there too
    i18n.set_game_words(labels.words_of(view.get("game")))  # Bolot: joc, partida
    ctx = room_context(view, user, csrf.csrf_token(request), four=four_colour(request))
    ctx["next"] = f"/rooms/{room_id}"
    # A championship's table links back to it (one query; the page is not pushed).
    ctx["championship"] = (await HOOKS.room_labels(db, [room_id])).get(room_id)
    # the share panel: the code and the seats' offers for the owner and the players
    ctx["invite"] = await invites.invitation(db, room_id, user)
    ctx["share_open"] = request.query_params.get("share") == "1"
    ctx["share_names"] = presenter.seat_names(view)
    page = templates.TemplateResponse(request, "rooms/room.html", ctx)
    page.headers["Cache-Control"] = "no-store"  # a visitor's form and one-time key in it
    # came with ?code=: remembered like the link's, so the page's socket is let in too
    code = invites.normalize_code(request.query_params.get("code"))
    if code and view.get("private") and code in invites.codes_of(request):
        with contextlib.suppress(NotFound):
            if await invites.room_of_code(db, code) == room_id:
                invite_pages.remember(request, page, code)
    return page


async def _after_change(request: Request, db: Any, room_id: int, user: User) -> Response:
    """Answer a successful seat/start post: fresh fragments for htmx, the room page otherwise."""
    if not is_htmx(request):
        return RedirectResponse(f"/rooms/{room_id}", status_code=303)
    view = await service.get_view(db, room_id, user)
    return HTMLResponse(_fragments(request, view, user))


def _fragments(request: Request, view: dict[str, Any], user: User | None) -> str:
    return render_fragments(view, user, csrf.csrf_token(request), four_colour(request))


@router.post("/rooms/{room_id}/seats/{seat}")
async def take_seat(
    request: Request, room_id: int, seat: int, db: SessionDep, user: OptionalUser
) -> Response:
    """Sit in ``seat``, or seat a bot there when the form names one (a private room:
    only with its code)."""
    form, refused = await person_form(request, user)
    if refused:
        return refused
    assert form is not None and user is not None
    try:
        await invites.require_access(db, room_id, user, invites.codes_of(request))
        await service.take_seat(db, room_id, seat, user, bot=first(form, "bot") or None)
    except ServiceError as exc:
        return error_response(request, user, exc, exc.status, f"/rooms/{room_id}")
    return await _after_change(request, db, room_id, user)


@router.post("/rooms/{room_id}/seats/{seat}/leave")
async def leave_seat(
    request: Request, room_id: int, seat: int, db: SessionDep, user: OptionalUser
) -> Response:
    """Leave ``seat`` (or remove its bot before the start)."""
    _form, refused = await person_form(request, user)
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
    form, refused = await person_form(request, user)
    if refused:
        return refused
    assert form is not None and user is not None
    level = first(form, "bot") or "heuristic"
    try:
        room = await service.room_info(db, room_id)
        for s in room["seats"]:
            if s["kind"] == "empty" and not s.get("offered"):  # an offered seat waits
                await service.take_seat(db, room_id, s["seat"], user, bot=level)
    except ServiceError as exc:
        return error_response(request, user, exc, exc.status, f"/rooms/{room_id}")
    return await _after_change(request, db, room_id, user)


@router.post("/rooms/{room_id}/start")
async def start(request: Request, room_id: int, db: SessionDep, user: OptionalUser) -> Response:
    """Start the match."""
    _form, refused = await person_form(request, user)
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
    form, refused = await person_form(request, user)
    if refused:
        return refused
    assert form is not None and user is not None
    try:
        seq = int(first(form, "seq") or "")
        action = json.loads(first(form, "action") or "")
        # A bid of points names its suit on the button and its value in a separate
        # field of the form (the contrée panel, templates/rooms/_panel_contree.html).
        # A value from the list of higher values (bid_value_more) wins over the chips.
        value = first(form, "bid_value_more") or first(form, "bid_value")
        if value and isinstance(action, dict) and action.get("type") == "bid":
            action.setdefault("value", int(value) if value.isdigit() else value)
    except (ValueError, RecursionError):  # RecursionError: JSON nested thousands deep
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
    _form, refused = await person_form(request, user)
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


# ---------------------------------------------------------------- leaving, after the match


@router.get("/rooms/{room_id}/leave", response_class=HTMLResponse)
async def confirm_leave(
    request: Request, room_id: int, db: SessionDep, user: OptionalUser
) -> Response:
    """Confirm leaving the running match (``_confirm``)."""
    return await _confirm(request, room_id, "leave", db, user)


@router.get("/rooms/{room_id}/resign", response_class=HTMLResponse)
async def confirm_resign(
    request: Request, room_id: int, db: SessionDep, user: OptionalUser
) -> Response:
    """Confirm resigning the running match (``_confirm``)."""
    return await _confirm(request, room_id, "resign", db, user)


async def _confirm(
    request: Request, room_id: int, action: str, db: Any, user: User | None
) -> Response:
    """The confirmation page of ``action`` "leave" or "resign" (no JavaScript needed, the
    keyboard lands on its button). Refused (with the reason) to a viewer without a seat;
    when the match is not being played, the table instead (a 303)."""
    try:
        view = await service.get_view(db, room_id, user)
    except NotFound as exc:
        return error_response(request, user, exc, 404)
    if user is None or view.get("my_seat") is None:
        return error_response(
            request, user, Forbidden("no seat", "no_seat_here"), 403, f"/rooms/{room_id}"
        )
    if view.get("status") != "playing":
        # nothing to confirm (a link followed late, the page reloaded after "Yes"): the
        # table itself says how the match stands
        return RedirectResponse(f"/rooms/{room_id}", status_code=303)
    ctx = {
        "room": view,
        "action": action,
        "user": user,
        "csrf_token": csrf.csrf_token(request),
    }
    return templates.TemplateResponse(request, "rooms/confirm.html", ctx)


@router.post("/rooms/{room_id}/leave")
async def leave_match(
    request: Request, room_id: int, db: SessionDep, user: OptionalUser
) -> Response:
    """Leave the running match (confirmed): a bot takes the seat, back to the lobby."""
    _form, refused = await person_form(request, user)
    if refused:
        return refused
    assert user is not None
    try:
        await service.leave_match(db, room_id, user)
    except ServiceError as exc:
        return error_response(request, user, exc, exc.status, f"/rooms/{room_id}")
    return go(request, "/")


@router.post("/rooms/{room_id}/resign")
async def resign(request: Request, room_id: int, db: SessionDep, user: OptionalUser) -> Response:
    """Resign the running match (confirmed): it ends; back to its finished table."""
    _form, refused = await person_form(request, user)
    if refused:
        return refused
    assert user is not None
    try:
        await service.resign(db, room_id, user)
    except ServiceError as exc:
        return error_response(request, user, exc, exc.status, f"/rooms/{room_id}")
    return go(request, f"/rooms/{room_id}")


@router.post("/rooms/{room_id}/rematch")
async def rematch(request: Request, room_id: int, db: SessionDep, user: OptionalUser) -> Response:
    """Accept (``accept=1``) or decline (``accept=0``) the rematch; the table of the
    rematch once it has started, else the finished table (its panel shows who accepted)."""
    form, refused = await person_form(request, user)
    if refused:
        return refused
    assert form is not None and user is not None
    accept = first(form, "accept") != "0"
    try:
        state = await service.vote_rematch(db, room_id, user, accept)
    except ServiceError as exc:
        return error_response(request, user, exc, exc.status, f"/rooms/{room_id}")
    if state.get("room") and not is_htmx(request):
        return RedirectResponse(f"/rooms/{state['room']}", status_code=303)
    # htmx: the fragments; once the rematch has started they carry its link, which takes
    # the page there (static/js/tapet.js), as the socket's push does for everyone else
    return await _after_change(request, db, room_id, user)


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
        codes = invites.codes_of(websocket)
        try:  # a private room answers only to who may see it (docs/invitations.md)
            code = await invites.require_access(db, room_id, user, codes)
        except (NotFound, Forbidden, TooManyRequests):
            await websocket.close(code=1008)
            return
    form_token = csrf.csrf_token(websocket)  # the forms the pushed fragments carry
    four = four_colour(websocket)
    await websocket.accept()
    hub = realtime.current()
    fed: dict[str, Any] = {"token": form_token}  # the socket feeds' state (app/core/hooks.py)

    sees = invites.seer(user, codes, code)  # asked again at every push: a room may close

    async def push() -> None:
        # built once per audience and event for every socket of this process (app/rooms/fanout.py);
        # a shared view is handed out only to the user its own seats name
        view = (await fanout.views_of(hub).get(maker, room_id, user, sees)).view
        await websocket.send_text(render_fragments(view, user, form_token, four))
        for text in await HOOKS.feed_socket(maker, room_id, user, view, "html", fed):
            await websocket.send_text(text)  # the chat (app/chat/delivery.py)

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
                    tg.start_soon(_guard, sender(events), tg.cancel_scope, websocket)
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


async def _guard(coro: Any, scope: anyio.CancelScope, websocket: WebSocket) -> None:
    """Run the sender; a closed socket or a vanished room ends the connection quietly, a
    room the viewer may no longer see closes it (1008)."""
    try:
        await coro
    except (WebSocketDisconnect, RuntimeError, NotFound):
        pass
    except Forbidden:  # a private room closed to spectators since the socket was let in
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            await websocket.close(code=1008, reason="private table")
    except Exception:  # noqa: BLE001 - never let a render error kill the server task
        log.exception("room socket push failed")
    scope.cancel()
