"""JSON routes of the card room (DESIGN.md "The API contract"); they call only the service.

Request bodies refuse unknown fields (422); ids in paths are 32-bit (422 beyond).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Body, Header, Path, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from app import rules
from app.accounts.deps import CurrentUser, MovingUser, OptionalUser
from app.core.db import INT32, SessionDep
from app.core.errors import Forbidden, NotFound, Unprocessable
from app.rooms import invites, service

router = APIRouter(prefix="/api", tags=["rooms"])

E403: dict[int | str, dict[str, Any]] = {403: {"description": "not your seat or turn"}}
E404: dict[int | str, dict[str, Any]] = {404: {"description": "no such room"}}
E404_GAME: dict[int | str, dict[str, Any]] = {404: {"description": "unknown game"}}
E409: dict[int | str, dict[str, Any]] = {
    409: {"description": "conflict: taken, started, stale seq"}
}
E422: dict[int | str, dict[str, Any]] = {
    422: {"description": "unknown game/option, illegal move (with the reason)"}
}
RoomId = Annotated[int, Path(ge=0, le=INT32, description="the room's id")]
SeatNo = Annotated[int, Path(ge=0, le=15, description="the seat's number, from 0")]
DealNo = Annotated[int, Path(ge=1, le=INT32, description="the deal's number in the match, from 1")]


class GameOut(BaseModel):
    """A game of the house and its options (``options_schema`` as docs/engine-face.md)."""

    id: str
    name: str
    players: int
    options_schema: list[dict[str, Any]]


class ScoreIn(BaseModel):
    """One deal's summary (rules/<game>.md §8) and the ruleset's options."""

    model_config = ConfigDict(extra="forbid")
    options: dict[str, Any] = Field(default_factory=dict)
    summary: dict[str, Any]


class RoomIn(BaseModel):
    """``{"game": "bolot", "options": {"target": 1000}, "clock_seconds": 30, "max_timeouts": 2}``:
    ``clock_seconds`` is the move clock (0 or absent: none), ``max_timeouts`` the timeouts
    in a row before a stand-in bot plays for the seat until its person returns;
    ``spectators_see_hands`` (default false): spectators see every hand one deal late;
    ``skip_empty_declaration`` (default true): the table's pages do not ask a seat to
    declare when "no declarations" is all it may declare (its first card stands for it);
    ``rated`` (default true): the ended match moves the players' ratings, false makes a
    casual room (docs/ratings.md)."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)
    clock_seconds: int | None = Field(default=None, ge=0, le=3600)
    max_timeouts: int | None = Field(default=None, ge=1, le=20)
    spectators_see_hands: bool | None = Field(default=None, strict=True)
    skip_empty_declaration: bool = Field(default=True, strict=True)
    rated: bool = Field(default=True, strict=True)
    #: a private room: not listed, reached only by its link or code (docs/invitations.md)
    private: bool = Field(default=False, strict=True)


class SeatOut(BaseModel):
    """A chair: ``kind`` is "empty", "person" or "bot". ``stand_in``: a bot plays for the
    person ``user_id`` until they return; ``away``: that person left (the seat is kept
    for them, shown as ``kind: "bot"``)."""

    seat: int
    kind: str
    name: str | None
    bot: str | None
    user_id: int | None
    stand_in: bool
    away: bool = False
    timeouts: int = 0
    #: the owner offers this seat to whoever comes with the invitation
    offered: bool = False


class RoomOut(BaseModel):
    """A room as the lobby and the table show it."""

    id: int
    game: str
    game_name: str
    options: dict[str, Any]
    clock_seconds: int | None = None
    max_timeouts: int = 2
    spectators_see_hands: bool = False
    skip_empty_declaration: bool = True
    #: a rated room's ended matches move its players' ratings; a casual one's do not
    rated: bool = False
    #: not listed; reached only by its link or code (docs/invitations.md)
    private: bool = False
    #: a private room its owner opened to spectators
    spectators_open: bool = False
    status: str
    players: int
    seats: list[SeatOut]
    spectators: int
    created_by: int | None
    created_at: datetime
    scores: list[int] | None = None
    target: int | None = None
    phase: str | None = None
    #: a championship's match of a number of deals or a time (None: to the target)
    match: dict[str, Any] | None = None
    #: the championship a playing room is a table of: {tournament_id, tournament, round, table}
    tournament: dict[str, Any] | None = None


class SeatIn(BaseModel):
    """``{}`` to sit down yourself (or to come back to your seat from a stand-in),
    ``{"bot": "heuristic"}`` to seat a bot."""

    model_config = ConfigDict(extra="forbid")
    bot: str | None = Field(default=None, max_length=32)


class MoveIn(BaseModel):
    """``{"seq": 17, "action": {"type": "play", "card": "1o"}}``: ``seq`` is the view's,
    a JSON integer (``"17"``, ``true`` or ``17.0`` are refused with 422)."""

    model_config = ConfigDict(extra="forbid")
    seq: int = Field(ge=0, le=INT32, strict=True)
    action: dict[str, Any]


@router.get("/games", response_model=list[GameOut], tags=["games"])
async def list_games() -> list[GameOut]:
    """The games of the house and their options (target score, variants)."""
    return [
        GameOut(id=g.id, name=g.name, players=g.players, options_schema=g.options_schema)
        for g in rules.GAMES.values()
    ]


@router.post("/games/{game}/score", tags=["games"], responses={**E404_GAME, **E422})
async def score(game: Annotated[str, Path(max_length=64)], body: ScoreIn) -> dict[str, Any]:
    """The score of one deal from its summary (a paper score sheet), as the rules file's
    §7 says. 422 with the reason for an impossible summary."""
    if game not in rules.GAMES:
        raise NotFound(f"unknown game {game!r}", "unknown_game", game=game)
    try:
        return dict(rules.score_deal(game, body.options, body.summary))
    except rules.IllegalAction as exc:
        raise Unprocessable.of(exc) from None


@router.post("/rooms", status_code=201, response_model=RoomOut, responses=E422)
async def create_room(
    body: RoomIn,
    user: CurrentUser,
    db: SessionDep,
    idempotency_key: Annotated[
        str | None,
        Header(
            max_length=64,
            description="a key of yours (8-64 letters, digits, '-', '_'): sent again, the "
            "same request gets the same room instead of a second one",
        ),
    ] = None,
) -> dict[str, Any]:
    """A room with empty seats. 422 unknown game or option, or a malformed key; 409 a key
    another person used."""
    return await service.create_room(
        db,
        user,
        body.game,
        body.options,
        body.clock_seconds,
        body.max_timeouts,
        body.spectators_see_hands,
        creation_key=idempotency_key,
        skip_empty_declaration=body.skip_empty_declaration,
        rated=body.rated,
        private=body.private,
    )


@router.get("/rooms", response_model=list[RoomOut], responses=E422)
async def lobby(
    db: SessionDep,
    game: Annotated[
        str | None, Query(max_length=64, description="only rooms of this game, e.g. bolot")
    ] = None,
) -> list[dict[str, Any]]:
    """The lobby: open and live rooms, newest first (at most 200); ``?game=bolot`` lists
    that game's only. Finished rooms are not listed (``GET /api/rooms/{id}`` and the
    records still reach them). 422 unknown game."""
    return await service.list_rooms(db, game)


@router.get("/rooms/{room_id}", response_model=RoomOut, responses=E404)
async def room(
    room_id: RoomId, request: Request, user: OptionalUser, db: SessionDep
) -> dict[str, Any]:
    """Room, seats (who sits, bot or person), status, spectator count. 403
    ``room_private``: a private room, without its code (``?code=`` or ``X-Tapet-Code``)."""
    await invites.require_access(db, room_id, user, invites.codes_of(request))
    return await service.room_info(db, room_id)


@router.put(
    "/rooms/{room_id}/seats/{seat}",
    response_model=RoomOut,
    responses={**E403, **E404, **E409, **E422},
)
async def take_seat(
    room_id: RoomId,
    seat: SeatNo,
    user: CurrentUser,
    db: SessionDep,
    request: Request,
    body: Annotated[SeatIn | None, Body()] = None,
) -> dict[str, Any]:
    """Sit down (``{}``) or seat a bot (``{"bot": NAME}``). 409 taken; 403 a private
    room without its code."""
    await invites.require_access(db, room_id, user, invites.codes_of(request))
    return await service.take_seat(db, room_id, seat, user, body.bot if body else None)


@router.delete(
    "/rooms/{room_id}/seats/{seat}", response_model=RoomOut, responses={**E403, **E404, **E409}
)
async def leave_seat(
    room_id: RoomId, seat: SeatNo, user: CurrentUser, db: SessionDep
) -> dict[str, Any]:
    """Leave your seat (a bot takes over in a running game). 403 not yours."""
    return await service.leave_seat(db, room_id, seat, user)


@router.post("/rooms/{room_id}/start", response_model=RoomOut, responses={**E403, **E404, **E409})
async def start(room_id: RoomId, user: CurrentUser, db: SessionDep) -> dict[str, Any]:
    """Deal the first hand once every seat is filled. 409 otherwise."""
    return await service.start(db, room_id, user)


@router.get("/rooms/{room_id}/view", responses=E404)
async def view(
    room_id: RoomId, request: Request, user: OptionalUser, db: SessionDep
) -> dict[str, Any]:
    """The caller's view (spectator's without a seat): ``status``, ``seq``, ``seat``,
    ``to_act``, ``hand``, ``legal_actions``, the public record, ``scores``, room info,
    ``my_seat``, the current deal's ``commitment``, the move ``clock`` ``{seat,
    deadline, seconds}`` (None when no clock runs) and ``open_hands`` (spectators of a
    room with ``spectators_see_hands``: the last finished deal's hands, one deal late;
    else None). A refresh shows exactly the same. 403 a private room without its code."""
    await invites.require_access(db, room_id, user, invites.codes_of(request))
    return await service.get_view(db, room_id, user)


@router.post(
    "/rooms/{room_id}/moves",
    response_model=dict[str, Any],
    responses={**E403, **E404, **E409, **E422},
)
async def post_move(room_id: RoomId, body: MoveIn, user: MovingUser, db: SessionDep) -> Response:
    """Play one of your ``legal_actions`` at the view's ``seq``; returns your new view.
    403 not your seat or turn, 409 stale seq (nothing changes), 422 illegal (with the reason)."""
    entry = await service.play_move(db, room_id, user, body.seq, body.action)
    return Response(entry.body, media_type="application/json")  # encoded once: the sockets' view


@router.get("/rooms/{room_id}/moves", responses=E404)
async def moves(
    room_id: RoomId,
    request: Request,
    user: OptionalUser,
    db: SessionDep,
    since: int = Query(default=0, ge=0, le=INT32),
) -> list[dict[str, Any]]:
    """The move log from ``since``: ``[{seq, actor, action, at}]``; cards still hidden are
    redacted (a deal's deck until the deal is over, declared cards until trick 1 is done,
    Botifarra's face-down tricks before the last one while the deal is played).
    403 a private room without its code."""
    await invites.require_access(db, room_id, user, invites.codes_of(request))
    return await service.move_log(db, room_id, user, since)


class RematchIn(BaseModel):
    """``{"accept": true}`` (the default) or ``{"accept": false}`` to decline."""

    model_config = ConfigDict(extra="forbid")
    accept: bool = True


@router.post("/rooms/{room_id}/resign", responses={**E403, **E404, **E409})
async def resign(room_id: RoomId, user: CurrentUser, db: SessionDep) -> dict[str, Any]:
    """Resign the running match: it ends at once and your side has lost;
    ``{"room_id", "resigned_seat"}``. 403 no seat here, 409 not playing. A repeat
    answers the same."""
    return await service.resign(db, room_id, user)


@router.post("/rooms/{room_id}/leave", response_model=RoomOut, responses={**E403, **E404, **E409})
async def leave_match(room_id: RoomId, user: CurrentUser, db: SessionDep) -> dict[str, Any]:
    """Leave the running match: a stand-in bot takes your seat, the match goes on (you
    may come back; it still counts as a leave). 403 no seat here, 409 not playing."""
    return await service.leave_match(db, room_id, user)


@router.post("/rooms/{room_id}/rematch", responses={**E403, **E404, **E409, **E422})
async def rematch(
    room_id: RoomId,
    user: CurrentUser,
    db: SessionDep,
    body: Annotated[RematchIn | None, Body()] = None,
) -> dict[str, Any]:
    """Accept (``{}``, ``{"accept": true}``) or decline the rematch of a finished table:
    ``{"room": the rematch room's id once everyone accepted (else null), "seats":
    {seat: "accepted" | "declined" | "waiting" | "bot"}}``. 403 no seat here (or you
    left the match), 409 not finished, 422 a championship's table."""
    return await service.vote_rematch(db, room_id, user, body.accept if body else True)


# ---------------------------------------------------------------- invitations (docs/invitations.md)


class OfferIn(BaseModel):
    """``{"offered": true}`` offers the seat, ``{"offered": false}`` withdraws the offer."""

    model_config = ConfigDict(extra="forbid")
    offered: bool = Field(default=True, strict=True)


class ClaimIn(BaseModel):
    """``{"code": "ABC-DEF"}``: the invitation's code (any case, dashes and spaces allowed)."""

    model_config = ConfigDict(extra="forbid")
    code: str = Field(max_length=64)


class SpectatorsIn(BaseModel):
    """``{"open": true}`` lets anyone watch the private room by its address."""

    model_config = ConfigDict(extra="forbid")
    open: bool = Field(strict=True)


@router.get("/rooms/{room_id}/invitation", responses={**E403, **E404})
async def invitation(room_id: RoomId, user: CurrentUser, db: SessionDep) -> dict[str, Any]:
    """The room's invitation for its owner and seated people: ``{code, spoken, link,
    owner, private, spectators_open, offers, offerable, status}``. 403 anyone else."""
    shown = await invites.invitation(db, room_id, user)
    if shown is None:
        raise Forbidden("only the table's owner and players share it", "invite_owner_only")
    return shown


@router.get("/invitations/{code}", response_model=RoomOut, responses=E404)
async def room_of_code(
    code: Annotated[str, Path(max_length=64)], request: Request, db: SessionDep
) -> dict[str, Any]:
    """The room whose invitation code this is (any case, dashes allowed). 404 none; 429
    after too many wrong codes from the address."""
    room_id = await invites.room_of_code(db, code, invites.client_of(request))
    return await service.room_info(db, room_id)


@router.put(
    "/rooms/{room_id}/offers/{seat}",
    response_model=RoomOut,
    responses={**E403, **E404, **E409},
)
async def offer_seat(
    room_id: RoomId, seat: SeatNo, body: OfferIn, user: CurrentUser, db: SessionDep
) -> dict[str, Any]:
    """The owner offers an empty seat or a bot's seat to the invited (or withdraws it).
    403 not the owner, 409 a person's seat or the match over."""
    return await invites.offer_seat(db, room_id, seat, user, body.offered)


@router.post(
    "/rooms/{room_id}/offers/{seat}/take",
    response_model=RoomOut,
    responses={**E403, **E404, **E409},
)
async def claim_seat(
    room_id: RoomId,
    seat: SeatNo,
    body: ClaimIn,
    request: Request,
    user: CurrentUser,
    db: SessionDep,
) -> dict[str, Any]:
    """Take the offered seat with the invitation's code (again: the same answer). 403
    a wrong code; 409 ``invite_seat_gone`` (someone took it first), not offered; 429 after
    too many wrong codes from the address."""
    client = invites.client_of(request)
    return await invites.claim_seat(db, room_id, seat, user, body.code, client)


@router.put(
    "/rooms/{room_id}/spectators", response_model=RoomOut, responses={**E403, **E404, **E422}
)
async def spectators(
    room_id: RoomId, body: SpectatorsIn, user: CurrentUser, db: SessionDep
) -> dict[str, Any]:
    """The owner opens a private room to spectators (or closes it). 403 not the owner,
    422 a public room."""
    return await invites.open_to_spectators(db, room_id, user, body.open)
