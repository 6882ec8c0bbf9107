"""HTML pages of records: deal checks, replays and the match permalink (docs/fairness.md).

| route | does |
|---|---|
| ``GET /deals/{id}/verify`` | a deal's commitment; once it ended, the check, the deck and the hands |
| ``GET /rooms/{id}/replay`` | the finished deals of the room's game, each with its replay link |
| ``GET /rooms/{id}/replay?deal=N&step=K`` | step K of deal N, every hand face up (←/→ step) |
| ``GET /rooms/{id}/replay/costs?deal=N&step=K`` | what each card of deal N cost by the exact solver (the replay loads it; step K marked) |
| ``GET /records/{game_id}`` | the match's permalink: the sheet, each deal's replay and check |

Only finished deals are drawn with their hands (app/records/service.py decides);
the deal in play shows its commitment alone. The steps are plain links (``?step=``),
so the replay works without JavaScript; ``static/js/replay.js`` adds the arrow keys
and swaps the replay in place.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from app import rules
from app.accounts.deps import OptionalUser
from app.chat import service as chat
from app.core.db import SessionDep
from app.core.errors import Forbidden, NotFound, ServiceError, TooManyRequests
from app.records import card_costs, replay_mine, replay_panel, verify
from app.records import service as records
from app.rooms import invites, service
from app.table import labels, presenter
from app.web import cards, csrf, i18n
from app.web.errors import message_for
from app.web.i18n import gettext as _
from app.web.templating import FORBIDDEN_FORM, checked_form, error_response, is_htmx, templates

router = APIRouter(include_in_schema=False)


def _card(code: str) -> dict[str, str]:
    return {
        "card": code,
        "img": cards.card_image(code),
        "name": cards.card_name(code),
        "long": cards.card_long_name(code),
    }


def _cards(codes: list[str] | None) -> list[dict[str, str]] | None:
    return None if codes is None else [_card(c) for c in codes]


async def _room(db: Any, room_id: int) -> dict[str, Any] | None:
    try:
        return await service.room_info(db, room_id)
    except NotFound:
        return None


def as_played(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The room's seats (``service.room_info``) as the record shows them: a seat kept for a
    person who left (``records.who_left``) is shown as that person's, not the stand-in bot's (they
    played its deals until they left; the deals the stand-in played after are not told
    apart, the rooms keeping no history of their seats), and nobody is shown away or
    stood in for (that is the room's present, not the deal's)."""
    return [
        dict(s, kind="person", name=person, stand_in=False, away=False)
        if (person := records.who_left(s))
        else dict(s, stand_in=False, away=False)
        for s in seats
    ]


def _names(room: dict[str, Any] | None, players: int) -> list[str]:
    seats = as_played((room or {}).get("seats") or [])
    by_seat = presenter.seat_names({"seats": seats, "players": players})
    return [by_seat[s] for s in range(players)]


def describe(game: str, actor: int | str, action: dict[str, Any], names: list[str]) -> str:
    """One line for a step of the replay, in the viewer's language: "Anna played the Sota de copes"."""
    who = names[actor] if isinstance(actor, int) and actor < len(names) else _("The server")
    kind = action.get("type")
    if kind == "deal":
        return _("The cards are dealt")
    if kind == "play":
        said = [f for f in ("bolot", "belote") if action.get(f)]
        extra = _(", saying %(word)s") % {"word": labels.belote_word(game)} if said else ""
        return (
            _("%(name)s played the %(card)s")
            % {"name": who, "card": cards.card_long_name(action["card"])}
            + extra
        )
    if kind == "declare":
        combos = action.get("combinations") or []
        if not combos:
            return _("%(name)s declares nothing") % {"name": who}
        listed = ", ".join(labels.declaration_label(game, c) for c in combos)
        return _("%(name)s declares %(list)s") % {"name": who, "list": listed}
    return f"{who}: {labels.action_label(game, action)}"


async def _refused(request: Request, db: Any, room_id: int, user: Any) -> Response | None:
    """A private room's records answer only to who may see the room (docs/invitations.md):
    the refusal page, or None when this viewer may."""
    try:
        await invites.require_access(db, room_id, user, invites.codes_of(request))
    except (Forbidden, TooManyRequests) as exc:  # or too many wrong codes
        return error_response(request, user, exc, exc.status)
    except NotFound:
        return None  # the records say what is missing
    return None


async def _open_room(
    request: Request, db: Any, room_id: int, user: Any
) -> dict[str, Any] | Response:
    """The room's info for its records' pages, or the page refusing this viewer (a
    private room without its code, 403) or saying there is no such room (404)."""
    if refused := await _refused(request, db, room_id, user):
        return refused
    room = await _room(db, room_id)
    if room is None:
        return error_response(request, user, f"there is no room {room_id}", 404)
    return room


def _code_query(request: Request) -> str:
    """``&code=...`` when the page was opened with a private room's ``?code=``: its step
    links and the costs it loads carry it on (no cookie is set by these pages)."""
    code = invites.normalize_code(request.query_params.get("code") or "")
    return f"&code={quote(code)}" if code else ""


def _page(request: Request, user: Any, name: str, ctx: dict[str, Any]) -> Response:
    ctx.update(user=user, csrf_token=csrf.csrf_token(request))
    return templates.TemplateResponse(request, name, ctx)


@router.get("/deals/{deal_id}/verify", response_class=HTMLResponse)
async def verify_page(
    request: Request, deal_id: str, db: SessionDep, user: OptionalUser
) -> Response:
    """A deal's commitment and, once the deal ended, its check with the deck and hands."""
    try:
        check = await verify.verify(db, deal_id)
    except NotFound as exc:
        return error_response(request, user, exc, 404)
    if refused := await _refused(request, db, check["room_id"], user):
        return refused
    room = await _room(db, check["room_id"])
    i18n.set_game_words(labels.words_of((room or {}).get("game")))  # Bolot: joc, partida
    players = (
        len((room or {}).get("seats") or [])
        or len(check.get("hands") or check.get("dealt") or [])
        or 4
    )
    ctx = {
        "check": check,
        "names": _names(room, players),
        "deck": _cards(check.get("deck")),
        "dealt": [_cards(h) for h in check.get("dealt") or []],
        "hands": [_cards(h) for h in check.get("hands") or []],
        "turned": _card(check["turned"]) if check.get("turned") else None,
        "room": room,
    }
    return _page(request, user, "records/verify.html", ctx)


@router.get("/rooms/{room_id}/replay", response_class=HTMLResponse)
async def replay_page(
    request: Request,
    room_id: int,
    db: SessionDep,
    user: OptionalUser,
    deal: int | None = Query(default=None, ge=1),
    step: int = Query(default=0, ge=0),
) -> Response:
    """Step through a finished deal with every hand face up; without ``deal``, the list."""
    room = await _open_room(request, db, room_id, user)
    if isinstance(room, Response):
        return room
    try:
        game = await records.room_game(db, room_id)
    except NotFound as exc:
        return error_response(request, user, exc, 404, f"/rooms/{room_id}")
    i18n.set_game_words(labels.words_of(game.game))  # Bolot: joc, partida
    h = await records.history(db, game)
    if deal is None:
        return _page(request, user, "records/record.html", _record_context(h, room))
    try:
        frames = records.frames(h, deal)
    except NotFound as exc:
        return error_response(request, user, exc, 404, f"/rooms/{room_id}/replay")
    step = min(step, len(frames) - 1)
    frame = frames[step]
    view = dict(frame["view"])
    view.update(room)
    view.update(my_seat=None, seat=None, replay=True)  # a step of the deal, not the room now
    # nor the room's present: who watches now, who is away now
    view["spectators"] = 0
    # The replay of deal N is about deal N: the result of the deal before it (which the
    # view carries until N is scored) is not shown; at the last step N's own result is.
    last = view.get("last_deal") or {}
    if last and last.get("deal") != deal:
        view["last_deal"] = None
    view["seats"] = as_played(view.get("seats") or [])
    names = _names(room, view["players"])
    t = presenter.table(view)
    hands = [
        {
            "seat": s,
            "name": names[s],
            "team": s % presenter.sides(view),
            "to_act": view.get("to_act") == s,
            "dealer": view.get("dealer") == s,
            "cards": _cards(hand),
        }
        for s, hand in enumerate(frame["hands"])
    ]
    ctx = {
        "room": view,
        "view": view,
        "t": t,
        "oob": False,
        "game_id": game.id,
        "deal_no": deal,
        "deal_ids": [d.deal_no for d in h.finished_deals],
        "step": step,
        "steps": len(frames),
        "said": describe(game.game, frame["actor"], frame["action"], names),
        "hands": hands,
        "verify_id": verify.deal_id(game.id, deal),
        "last": step == len(frames) - 1,
        "code_q": _code_query(request),
    }
    return _page(request, user, "records/replay.html", ctx)


@router.get("/rooms/{room_id}/replay/costs", response_class=HTMLResponse)
async def costs_page(
    request: Request,
    room_id: int,
    db: SessionDep,
    user: OptionalUser,
    deal: int = Query(ge=1, le=2**31 - 1),
    step: int | None = Query(default=None, ge=0),
) -> Response:
    """What each card of finished deal ``deal`` cost by the exact solver
    (app/records/card_costs.py), by trick, step ``step`` marked: a fragment for the
    replay page's ``#costs``, a page of its own without htmx. A refusal in the fragment
    keeps the section's heading; a 429 (the solver busy) asks again after its
    ``Retry-After`` by itself."""
    room = await _open_room(request, db, room_id, user)
    if isinstance(room, Response):
        return room
    who = card_costs.requester(user, request)
    try:
        result = await card_costs.deal_costs(db, room_id, deal, who)
    except ServiceError as exc:
        wait = getattr(exc, "retry_after", None)
        headers = {"Retry-After": str(wait)} if wait is not None else {}
        if is_htmx(request):  # the section keeps its heading; a busy solver is asked again
            ctx = {"message": message_for(exc), "retry": wait, "url": request.url}
            part = templates.get_template("records/_costs_error.html").render(ctx)
            return HTMLResponse(part, status_code=exc.status, headers=headers)
        refused = error_response(request, user, exc, exc.status, f"/rooms/{room_id}/replay")
        refused.headers.update(headers)
        return refused
    i18n.set_game_words(labels.words_of(result["game"]))  # Bolot: joc, partida
    names = _names(room, rules.GAMES[result["game"]].players)
    ctx = {
        "costs": costs_for_page(result, names, step),
        "room": room,
        "code_q": _code_query(request),
    }
    if is_htmx(request):
        return HTMLResponse(templates.get_template("records/_costs.html").render(ctx))
    return _page(request, user, "records/costs.html", ctx)


def costs_for_page(result: dict[str, Any], names: list[str], step: int | None) -> dict[str, Any]:
    """What ``records/_costs.html`` draws from a :func:`card_costs.deal_costs` answer:
    ``{deal_no, tricks: [{n, cells: [{step, name, card, cost, best, current}]}],
    seats: [{name, lost, wrong, solved}], unsolved, budget}``: ``best`` the names of the
    cards of perfect play where the card played cost points, ``lost`` a seat's points
    given away over its solved cards, ``wrong`` how many of them cost points,
    ``budget`` the solver's CPU seconds as text."""
    tricks: list[dict[str, Any]] = []
    seats = [{"name": n, "lost": 0, "wrong": 0, "solved": 0} for n in names]
    for c in result["cards"]:
        if not tricks or tricks[-1]["n"] != c["trick"]:
            tricks.append({"n": c["trick"], "cells": []})
        cost = c["cost"]
        if cost is not None:
            seat = seats[c["seat"]]
            seat["solved"] += 1
            seat["lost"] += cost
            seat["wrong"] += cost > 0
        tricks[-1]["cells"].append(
            {
                "step": c["step"],
                "name": names[c["seat"]],
                "card": _card(c["card"]),
                "cost": cost,
                "best": [cards.card_name(b) for b in c["best"]] if cost else [],
                "current": c["step"] == step,
            }
        )
    return {
        "deal_no": result["deal_no"],
        "tricks": tricks,
        "seats": seats,
        "unsolved": len(result["cards"]) - result["solved"],
        "budget": f"{result['budget_s']:g}",
    }


def _record_context(h: records.GameHistory, room: dict[str, Any] | None) -> dict[str, Any]:
    data = records.record(h, room)
    names = _names(room, data["players"])
    rows = []
    for d in data["deals"]:
        result = d["result"] or {}
        rows.append(
            {
                "deal_no": d["deal_no"],
                "dealer": names[d["dealer"]],
                "void": result.get("void"),
                "outcome": result.get("outcome"),
                "points": result.get("points"),
                "scores_after": result.get("scores_after"),
                "sha256": d["sha256"],
                "verify_id": verify.deal_id(h.game.id, d["deal_no"]),
                "actions": len(d["actions"]),
            }
        )
    running = data["in_progress"]
    if running:
        running = dict(running, verify_id=verify.deal_id(h.game.id, running["deal_no"]))
    return {
        "record": data,
        "rows": rows,
        "names": names,
        "running": running,
        "room": room,
        "preset": labels.preset_words(data["game"], data["options"]),
    }


@router.get("/records/{game_id}", response_class=HTMLResponse)
async def record_page(
    request: Request, game_id: int, db: SessionDep, user: OptionalUser
) -> Response:
    """The permalink of a match: its finished deals, scores, replays and checks."""
    try:
        game = await records.get_game(db, game_id)
    except NotFound as exc:
        return error_response(request, user, exc, 404)
    if refused := await _refused(request, db, game.room_id, user):
        return refused
    room = await _room(db, game.room_id)
    i18n.set_game_words(labels.words_of(game.game))  # Bolot: joc, partida
    h = await records.history(db, game)
    ctx = _record_context(h, room)
    # the match's chat, both channels, once it is over (app/chat, docs/chat.md)
    over = game.status != "playing" or game.ended_at is not None
    ctx["chat"] = await chat.game_messages(db, game_id, user) if over else None
    ctx["reactions"] = chat.REACTIONS
    return _page(request, user, "records/record.html", ctx)


@router.post("/rooms/{room_id}/deals/{deal_no}/replay-mine", response_class=HTMLResponse)
async def replay_mine_page(
    request: Request, room_id: int, deal_no: int, db: SessionDep, user: OptionalUser
) -> Response:
    """The strong bot's replay of finished deal ``deal_no`` from the requester's own seat,
    beside the deal as played (app/records/replay_mine.py): a fragment for ``#replay-mine``
    (a page without htmx). 403 for a spectator, 409 while the deal is played."""
    if await checked_form(request) is None:
        return error_response(request, user, FORBIDDEN_FORM, 403)
    if user is None:
        return error_response(request, user, "Choose a nickname first.", 401)
    try:
        result = await replay_mine.replay_mine(db, room_id, deal_no, user)
        room = await service.room_info(db, room_id)
    except ServiceError as exc:
        return error_response(request, user, exc, exc.status, f"/rooms/{room_id}")
    i18n.set_game_words(labels.words_of(room.get("game")))  # Bolot: joc, partida
    ctx = {
        "replay": replay_panel.for_page(result, room),
        "room": room,
        "user": user,
        "csrf_token": csrf.csrf_token(request),
    }
    if is_htmx(request):
        return HTMLResponse(templates.get_template("rooms/_replay_mine.html").render(ctx))
    return templates.TemplateResponse(request, "rooms/replay_mine.html", ctx)
