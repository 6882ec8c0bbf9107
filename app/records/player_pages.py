"""HTML pages of players and leaderboards (issue 17 §5, §6); they call only
app/records/players.py.

| route | does |
|---|---|
| ``GET /players/{id}`` | a player's page: ratings, per-game figures, matches with links |
| ``GET /leaderboard`` | the games, each a link to its leaderboard |
| ``GET /leaderboard/{game}`` | a game's leaderboard, provisional ratings marked, bots as anchors |

A hidden profile is the error page "This profile is private." (404) for everyone but
its owner, who sees it with a note.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from app import rules
from app.accounts.deps import OptionalUser
from app.chat import blocks
from app.core.db import SessionDep
from app.core.errors import NotFound
from app.records import players, ratings
from app.web import csrf
from app.web.templating import error_response, templates

router = APIRouter(include_in_schema=False)


def _page(request: Request, user: Any, name: str, ctx: dict[str, Any]) -> Response:
    ctx.update(
        user=user,
        csrf_token=csrf.csrf_token(request),
        games=[{"id": g.id, "name": g.name} for g in rules.GAMES.values()],
        provisional_matches=ratings.PROVISIONAL_MATCHES,
        provisional_sigma=ratings.PROVISIONAL_SIGMA,
    )
    return templates.TemplateResponse(request, name, ctx)


@router.get("/players/{user_id}", response_class=HTMLResponse)
async def player_page(
    request: Request,
    user_id: int,
    db: SessionDep,
    user: OptionalUser,
    before: int | None = Query(default=None, ge=1, le=2**31 - 1),
) -> Response:
    """A player's ratings, figures per game and matches (newest first, 50 a page)."""
    if not 1 <= user_id <= 2**31 - 1:
        return error_response(request, user, NotFound("no player", "no_player", n=user_id), 404)
    try:
        data = await players.player(db, user_id, user, before)
    except NotFound as exc:
        return error_response(request, user, exc, 404)
    blocked = None  # a signed-in visitor may block this person (app/chat, docs/chat.md)
    if user is not None and user.id != user_id:
        blocked = user_id in await blocks.blocked_by(db, user.id)
    return _page(request, user, "records/player.html", {"p": data, "blocked": blocked})


@router.get("/leaderboard", response_class=HTMLResponse)
async def leaderboards(request: Request, user: OptionalUser) -> Response:
    """The games, each a link to its leaderboard."""
    return _page(request, user, "records/leaderboard.html", {"board": None})


@router.get("/leaderboard/{game}", response_class=HTMLResponse)
async def leaderboard_page(
    request: Request, game: str, db: SessionDep, user: OptionalUser
) -> Response:
    """The leaderboard of ``game`` (404 for an unknown game)."""
    try:
        board = await players.leaderboard(db, game)
    except NotFound as exc:
        return error_response(request, user, exc, 404, "/leaderboard")
    return _page(request, user, "records/leaderboard.html", {"board": board})
