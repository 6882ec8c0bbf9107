"""JSON routes of the championships (under /api, in OpenAPI); they call only the services.

Reading is public; changing a tournament needs a session (401) and being one of its
organisers (403). Every change takes an ``Idempotency-Key`` header (8-64 letters,
digits, ``-``, ``_``): sent again with the same key (a retry, twenty at once) the
request changes nothing and gets the first answer (``service.once``). Errors are ``{"detail": sentence}``: 404 no such thing, 409 not
at that stage (a round open, a table playing), 422 bad input (with the reason).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Query, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from app.accounts.deps import AccountUser, CurrentUser, OptionalUser
from app.core.db import SessionDep
from app.table import labels
from app.tournaments import results, rounds, service, signup, views, watcher
from app.web import i18n

router = APIRouter(prefix="/api", tags=["tournaments"], lifespan=watcher.lifespan)

E: dict[int | str, dict[str, Any]] = {
    401: {"description": "no session"},
    403: {"description": "not an organiser of this tournament"},
    404: {"description": "no such tournament, team, round or table"},
    409: {"description": "not at that stage (round open, table playing, entries closed)"},
    422: {"description": "bad input, with the reason"},
}


#: The ``Idempotency-Key`` header of every change (as ``POST /api/rooms`` takes it).
Key = Annotated[
    str | None,
    Header(
        max_length=64,
        description="a key of yours (8-64 letters, digits, '-', '_'): sent again, the "
        "same request changes nothing and gets the first answer",
    ),
]


class Body(BaseModel):
    """A request body: unknown fields are refused (422), like every body of the API."""

    model_config = ConfigDict(extra="forbid")


class ClubIn(Body):
    """``{"name": "Falla Plaça Major", "kind": "falla", "town": "Sagunt"}``."""

    name: str
    kind: str = "club"
    town: str = ""


class TournamentIn(Body):
    """A new tournament: game and its options, format and settings (see
    app/tournaments/config.py: return_leg, rounds, groups, advance, match, points,
    tiebreaks, play)."""

    name: str
    game: str
    format: str = "round_robin"
    options: dict[str, Any] = Field(default_factory=dict)
    settings: dict[str, Any] = Field(default_factory=dict)
    venue: str = ""


class TeamIn(Body):
    """``{"name": "Els Quatre Cantons", "players": ["Pepa", "Vicent"], "club_id": 1}``;
    ``user_ids`` for online tables, ``bot`` for a team of bots."""

    name: str = ""
    players: list[str] = Field(default_factory=list)
    club_id: int | None = None
    user_ids: list[int] = Field(default_factory=list)
    bot: str | None = None


class RegistrationIn(Body):
    """``{"open": true}``: players may ask to enter their teams (an organiser approves
    each); ``false`` stops new requests."""

    open: bool


class TeamRequestIn(Body):
    """A player's request to enter a team: ``{"name": "Els Cantons", "partner":
    "vicent", "club_id": 1}`` (``partner`` a username; none in a game of one player a
    team; ``name`` by default "You & Partner")."""

    name: str = ""
    partner: str | None = None
    club_id: int | None = None


class DeclineIn(Body):
    """Why a request is declined (optional; shown to the requester and the organisers)."""

    reason: str = ""


class TeamEdit(Body):
    """A correction of a team: any of ``name``, ``players`` (names), ``club_id`` (null:
    no club); a field left out is not changed."""

    name: str | None = None
    players: list[str] | None = Field(default=None, max_length=2)
    club_id: int | None = None


class PairingIn(Body):
    """A draft round's pairing by hand: ``{"tables": [[home, away], [team, null]]}`` in
    table order (team ids; ``null`` gives a bye). ``confirm``: save it even though it
    repeats a match or gives a second bye (without it such a pairing is answered 409
    with the ``warnings``)."""

    tables: list[tuple[int, int | None]] = Field(max_length=500)
    confirm: bool = False


class EndIn(Body):
    """Why the championship ends early (shown in the audit trail)."""

    reason: str = ""


class WithdrawIn(Body):
    """``remaining``: "forfeit" (the opponents win) or "remove" (the matches do not count)."""

    remaining: str = "forfeit"
    reason: str = ""


class OrganiserIn(Body):
    """The user to make a co-organiser."""

    user_id: int


class ModeIn(Body):
    """``{"mode": "online"}`` or ``{"mode": "paper"}``."""

    mode: str


class ResultIn(Body):
    """A table's final score (home first; ``third_score`` the third player's at a table of
    three, Belote for three). ``winner`` (a team id) only for a level knockout match or
    a forfeit; ``reason`` is required for a correction."""

    home_score: int = Field(ge=0, le=1_000_000)
    away_score: int = Field(ge=0, le=1_000_000)
    third_score: int | None = Field(default=None, ge=0, le=1_000_000)
    winner: int | None = None
    round: int | None = None
    reason: str = ""
    forfeit: bool = False


class DealIn(Body):
    """One deal from the score sheet: its ``summary``, as ``POST /api/games/{game}/score``
    takes it, or its ``points`` alone, one whole number per side (home, away; a table of
    three: home, away, third) as the café's sheet writes them, checked by the engine
    (``rules.plausible_deal_points``). Exactly one of the two."""

    summary: dict[str, Any] | None = None
    points: list[Any] | None = Field(default=None, max_length=3)
    round: int | None = None


class DealFix(Body):
    """A corrected deal (``summary``, or ``points`` alone; neither deletes the last deal)
    and why."""

    summary: dict[str, Any] | None = None
    points: list[Any] | None = Field(default=None, max_length=3)
    reason: str
    round: int | None = None


def deal_summary(body: DealIn | DealFix) -> dict[str, Any] | None:
    """The deal a body gives: its summary, or its points alone as
    ``{"points_only": [...]}`` (``results.POINTS_ONLY``). Raises Unprocessable when
    both are given."""
    if body.summary is not None and body.points is not None:
        raise service.Unprocessable(
            "give the deal's summary or its points, not both", "summary_or_points"
        )
    return {results.POINTS_ONLY: body.points} if body.points is not None else body.summary


class FinishIn(Body):
    """End a paper table at its totals; ``winner`` for a level knockout match."""

    winner: int | None = None
    round: int | None = None


# ---------------------------------------------------------------- clubs and tournaments


@router.get("/clubs")
async def list_clubs(db: SessionDep) -> list[dict[str, Any]]:
    """Every club: ``[{id, name, kind, town}]``."""
    return await service.list_clubs(db)


@router.post("/clubs", status_code=201, responses=E)
async def create_club(
    body: ClubIn, user: CurrentUser, db: SessionDep, idempotency_key: Key = None
) -> dict[str, Any]:
    """A new club (falla, penya, society, club). 409 same name in the same town."""
    return await service.once(
        db,
        user,
        idempotency_key,
        "club",
        lambda: service.create_club(db, user, body.name, body.kind, body.town),
    )


@router.get("/tournaments")
async def list_tournaments(db: SessionDep) -> list[dict[str, Any]]:
    """Every tournament, running ones first."""
    return await service.list_tournaments(db)


@router.post("/tournaments", status_code=201, responses=E)
async def create_tournament(
    body: TournamentIn, user: AccountUser, db: SessionDep, idempotency_key: Key = None
) -> dict[str, Any]:
    """A new tournament; the caller (a registered account) is its organiser. 401 without a
    session, 403 for a guest, 422 unknown game, option or setting."""
    return await service.once(
        db,
        user,
        idempotency_key,
        "tournament",
        lambda: service.create_tournament(
            db, user, body.name, body.game, body.format, body.options, body.settings, body.venue
        ),
    )


@router.get("/tournaments/{tournament_id}", responses=E)
async def get_tournament(tournament_id: int, db: SessionDep) -> dict[str, Any]:
    """The tournament: game, options, format, settings, organisers, rounds."""
    return await service.get_tournament(db, tournament_id)


@router.post("/tournaments/{tournament_id}/organisers", responses=E)
async def add_organiser(
    tournament_id: int,
    body: OrganiserIn,
    user: CurrentUser,
    db: SessionDep,
    idempotency_key: Key = None,
) -> dict[str, Any]:
    """Add a co-organiser."""
    return await service.once(
        db,
        user,
        idempotency_key,
        "organiser",
        lambda: service.add_organiser(db, tournament_id, user, body.user_id),
    )


@router.get("/tournaments/{tournament_id}/audit", responses=E)
async def audit_trail(
    tournament_id: int, db: SessionDep, user: OptionalUser
) -> list[dict[str, Any]]:
    """Every organiser change, newest first (who, when, what, why); a withdrawal's
    reason and a declined team request's only for the organisers."""
    organiser = await service.is_organiser(db, tournament_id, user)
    return await views.audit_trail(db, tournament_id, organiser)


# ---------------------------------------------------------------- teams


@router.get("/tournaments/{tournament_id}/teams", responses=E)
async def list_teams(tournament_id: int, db: SessionDep) -> list[dict[str, Any]]:
    """The teams in seeding order."""
    return await service.list_teams(db, tournament_id)


@router.post("/tournaments/{tournament_id}/teams", status_code=201, responses=E)
async def register_team(
    tournament_id: int,
    body: TeamIn,
    user: CurrentUser,
    db: SessionDep,
    idempotency_key: Key = None,
) -> dict[str, Any]:
    """Enter a team; once running, only a Swiss takes late entries (409 otherwise). 409
    too for a player already in a team or a name taken (whatever the case)."""
    return await service.once(
        db,
        user,
        idempotency_key,
        "team",
        lambda: service.register_team(
            db, tournament_id, user, body.name, body.players, body.club_id, body.user_ids, body.bot
        ),
    )


# ---------------------------------------------------------------- players' requests


@router.put("/tournaments/{tournament_id}/registration", responses=E)
async def set_registration(
    tournament_id: int,
    body: RegistrationIn,
    user: CurrentUser,
    db: SessionDep,
    idempotency_key: Key = None,
) -> dict[str, Any]:
    """Open or close the players' registration of teams (organisers; the
    ``self_registration`` setting). 409 once finished."""
    return await service.once(
        db,
        user,
        idempotency_key,
        "registration",
        lambda: signup.set_registration(db, tournament_id, user, body.open),
    )


@router.get("/tournaments/{tournament_id}/requests", responses=E)
async def list_requests(
    tournament_id: int, user: CurrentUser, db: SessionDep
) -> list[dict[str, Any]]:
    """Team requests, oldest first: every one for an organiser, else the caller's own
    (as requester or partner). A decline's reason only for organisers and the requester."""
    return await signup.list_requests(db, tournament_id, user)


@router.post("/tournaments/{tournament_id}/requests", status_code=201, responses=E)
async def request_team(
    tournament_id: int,
    body: TeamRequestIn,
    user: CurrentUser,
    db: SessionDep,
    idempotency_key: Key = None,
) -> dict[str, Any]:
    """Ask to enter a team (a registered account; 403 for a guest). Pending until an
    organiser approves it. 409 registration closed, a player already in a team or in an
    open request, a name taken; 404 no such partner account or club; 422 partner missing
    (or given in a game of one player a team)."""
    return await service.once(
        db,
        user,
        idempotency_key,
        "team_request",
        lambda: signup.request_team(db, tournament_id, user, body.name, body.partner, body.club_id),
    )


@router.post("/tournaments/{tournament_id}/requests/{request_id}/{step}", responses=E)
async def decide_request(
    tournament_id: int,
    request_id: int,
    step: Literal["approve", "decline", "withdraw"],
    user: CurrentUser,
    db: SessionDep,
    body: DeclineIn | None = None,
    idempotency_key: Key = None,
) -> dict[str, Any]:
    """``approve`` (organisers: the team is entered as by ``POST .../teams``; approved
    twice, one team), ``decline`` (organisers, with an optional ``reason``) or
    ``withdraw`` (the requester or the partner named) a pending request. 409 when it
    was already decided otherwise, or the team cannot be entered (a player in a team,
    the name taken, entries closed)."""
    reason = body.reason if body else ""

    async def run() -> dict[str, Any]:
        if step == "approve":
            return await signup.approve(db, tournament_id, request_id, user)
        if step == "decline":
            return await signup.decline(db, tournament_id, request_id, user, reason)
        return await signup.withdraw_request(db, tournament_id, request_id, user)

    return await service.once(db, user, idempotency_key, f"request_{step}", run)


@router.get("/tournaments/{tournament_id}/teams/{team_id}", responses=E)
async def team_history(tournament_id: int, team_id: int, db: SessionDep) -> dict[str, Any]:
    """A team and its matches, round by round."""
    return await views.team_history(db, tournament_id, team_id)


@router.post("/tournaments/{tournament_id}/teams/{team_id}/withdraw", responses=E)
async def withdraw(
    tournament_id: int,
    team_id: int,
    body: WithdrawIn,
    user: CurrentUser,
    db: SessionDep,
    idempotency_key: Key = None,
) -> dict[str, Any]:
    """Withdraw a team; its remaining matches are forfeited or removed."""
    return await service.once(
        db,
        user,
        idempotency_key,
        "withdraw",
        lambda: results.withdraw_team(
            db, tournament_id, team_id, user, body.remaining, body.reason
        ),
    )


@router.patch("/tournaments/{tournament_id}/teams/{team_id}", responses=E)
async def edit_team(
    tournament_id: int,
    team_id: int,
    body: TeamEdit,
    user: CurrentUser,
    db: SessionDep,
    idempotency_key: Key = None,
) -> dict[str, Any]:
    """Correct a team's name, players' names or club (the fields sent)."""
    club = body.club_id if "club_id" in body.model_fields_set else service.KEEP
    return await service.once(
        db,
        user,
        idempotency_key,
        "edit_team",
        lambda: service.edit_team(db, tournament_id, team_id, user, body.name, body.players, club),
    )


@router.post("/tournaments/{tournament_id}/end", responses=E)
async def end_early(
    tournament_id: int,
    body: EndIn,
    user: CurrentUser,
    db: SessionDep,
    idempotency_key: Key = None,
) -> dict[str, Any]:
    """End the championship now; 409 while a round is open."""
    return await service.once(
        db,
        user,
        idempotency_key,
        "end_early",
        lambda: service.finish_early(db, tournament_id, user, body.reason),
    )


# ---------------------------------------------------------------- rounds and tables


@router.get("/tournaments/{tournament_id}/rounds", responses=E)
async def list_rounds(
    tournament_id: int, user: OptionalUser, db: SessionDep
) -> list[dict[str, Any]]:
    """The rounds and their tables (the draft too, for organisers)."""
    organiser = await service.is_organiser(db, tournament_id, user)
    return await rounds.list_rounds(db, tournament_id, organiser)


@router.post("/tournaments/{tournament_id}/rounds", status_code=201, responses=E)
async def preview_round(
    tournament_id: int, user: CurrentUser, db: SessionDep, idempotency_key: Key = None
) -> dict[str, Any]:
    """Pair the next round as a draft (a preview only organisers see). 409 while a round is open."""
    return await service.once(
        db, user, idempotency_key, "preview", lambda: rounds.preview(db, tournament_id, user)
    )


@router.put("/tournaments/{tournament_id}/rounds/{number}/tables/{table_no}/mode", responses=E)
async def set_mode(
    tournament_id: int,
    number: int,
    table_no: int,
    body: ModeIn,
    user: CurrentUser,
    db: SessionDep,
    idempotency_key: Key = None,
) -> dict[str, Any]:
    """Play a draft table online or on paper."""
    return await service.once(
        db,
        user,
        idempotency_key,
        "table_mode",
        lambda: rounds.set_table_mode(db, tournament_id, number, table_no, body.mode, user),
    )


@router.post("/tournaments/{tournament_id}/rounds/{number}/publish", responses=E)
async def publish(
    tournament_id: int,
    number: int,
    user: CurrentUser,
    db: SessionDep,
    idempotency_key: Key = None,
) -> dict[str, Any]:
    """Publish a draft: online tables get their room, teams seated, match started. 409
    when it is not a draft (published already, or thrown away when the teams changed)."""
    return await service.once(
        db,
        user,
        idempotency_key,
        "publish",
        lambda: rounds.publish(db, tournament_id, number, user),
    )


@router.post("/tournaments/{tournament_id}/rounds/{number}/unpublish", responses=E)
async def unpublish(
    tournament_id: int,
    number: int,
    user: CurrentUser,
    db: SessionDep,
    idempotency_key: Key = None,
) -> dict[str, Any]:
    """Take a published round back to a draft; 409 once a table has a result."""
    return await service.once(
        db,
        user,
        idempotency_key,
        "unpublish",
        lambda: rounds.unpublish(db, tournament_id, number, user),
    )


@router.put(
    "/tournaments/{tournament_id}/rounds/{number}/pairing", responses=E, response_model=None
)
async def set_pairing(
    tournament_id: int,
    number: int,
    body: PairingIn,
    user: CurrentUser,
    db: SessionDep,
    idempotency_key: Key = None,
) -> dict[str, Any] | JSONResponse:
    """Replace a draft Swiss or knockout round's pairing (byes by hand included). A
    pairing that repeats a match or gives a team a second bye is answered 409 ``{"detail",
    "code": "pairing_confirm", "warnings": [{"kind": "met", "home", "away", "round"} |
    {"kind": "bye", "team", "round"}]}`` and saved only when sent with ``"confirm":
    true``."""
    try:
        return await service.once(
            db,
            user,
            idempotency_key,
            "pairing",
            lambda: rounds.set_pairing(db, tournament_id, number, body.tables, user, body.confirm),
        )
    except rounds.PairingNeedsConfirmation as exc:
        return JSONResponse(
            {"detail": exc.message, "code": exc.code, "warnings": exc.warnings},
            status_code=exc.status,
        )


@router.post("/tournaments/{tournament_id}/rounds/{number}/close", responses=E)
async def close(
    tournament_id: int,
    number: int,
    user: CurrentUser,
    db: SessionDep,
    idempotency_key: Key = None,
) -> dict[str, Any]:
    """Close the round. 409 while a table is playing."""
    return await service.once(
        db, user, idempotency_key, "close", lambda: rounds.close(db, tournament_id, number, user)
    )


@router.post("/tournaments/{tournament_id}/tables/{table_no}/result", responses=E)
async def record_result(
    tournament_id: int,
    table_no: int,
    body: ResultIn,
    user: CurrentUser,
    db: SessionDep,
    idempotency_key: Key = None,
) -> dict[str, Any]:
    """Enter a table's final score (the open round unless ``round`` is given); a
    correction needs a ``reason`` and is kept in the audit trail. 422 with the reason for a
    score the match definition cannot end on (a match to the target that nobody reached
    or that ends level, both Botifarra pairs at the target, above ``cap_score``)."""
    return await service.once(
        db,
        user,
        idempotency_key,
        "result",
        lambda: results.record_result(
            db,
            tournament_id,
            table_no,
            user,
            body.home_score,
            body.away_score,
            body.winner,
            body.round,
            body.reason,
            body.forfeit,
            body.third_score,
        ),
    )


@router.post("/tournaments/{tournament_id}/tables/{table_no}/deals", status_code=201, responses=E)
async def add_deal(
    tournament_id: int,
    table_no: int,
    body: DealIn,
    user: CurrentUser,
    db: SessionDep,
    idempotency_key: Key = None,
) -> dict[str, Any]:
    """Enter the next deal of a paper table (``summary``, or ``points`` alone); returns
    the sheet and the totals. 422 with the engine's reason for an impossible summary or
    points no deal of the game can give. Sent again with its
    ``Idempotency-Key``, the deal is entered once."""
    return await service.once(
        db,
        user,
        idempotency_key,
        "deal",
        lambda: results.add_deal(
            db, tournament_id, table_no, user, deal_summary(body) or {}, body.round
        ),
    )


@router.put("/tournaments/{tournament_id}/tables/{table_no}/deals/{deal_no}", responses=E)
async def correct_deal(
    tournament_id: int,
    table_no: int,
    deal_no: int,
    body: DealFix,
    user: CurrentUser,
    db: SessionDep,
    idempotency_key: Key = None,
) -> dict[str, Any]:
    """Correct (or, with ``summary`` null, delete the last) deal of a paper table, with a reason."""
    return await service.once(
        db,
        user,
        idempotency_key,
        "fix_deal",
        lambda: results.correct_deal(
            db, tournament_id, table_no, deal_no, user, deal_summary(body), body.reason, body.round
        ),
    )


@router.post("/tournaments/{tournament_id}/tables/{table_no}/finish", responses=E)
async def finish(
    tournament_id: int,
    table_no: int,
    body: FinishIn,
    user: CurrentUser,
    db: SessionDep,
    idempotency_key: Key = None,
) -> dict[str, Any]:
    """End a paper table at its current totals (time limit)."""
    return await service.once(
        db,
        user,
        idempotency_key,
        "finish",
        lambda: results.finish_paper(db, tournament_id, table_no, user, body.winner, body.round),
    )


class ReopenIn(Body):
    """Undo a finish: why the match is in play again."""

    reason: str
    round: int | None = None


@router.post("/tournaments/{tournament_id}/tables/{table_no}/reopen", responses=E)
async def reopen(
    tournament_id: int,
    table_no: int,
    body: ReopenIn,
    user: CurrentUser,
    db: SessionDep,
    idempotency_key: Key = None,
) -> dict[str, Any]:
    """Reopen a finished paper table (undo a finish), with a reason kept in the audit trail."""
    return await service.once(
        db,
        user,
        idempotency_key,
        "reopen",
        lambda: results.reopen_table(db, tournament_id, table_no, user, body.reason, body.round),
    )


@router.get("/tournaments/{tournament_id}/tables/{table_no}", responses=E)
async def table_sheet(
    tournament_id: int, table_no: int, db: SessionDep, round: int | None = Query(default=None)
) -> dict[str, Any]:  # noqa: A002
    """A table and its score sheet (paper deals with the points of each)."""
    return await results.table_detail(db, tournament_id, table_no, round)


# ---------------------------------------------------------------- standings and exports


@router.get("/tournaments/{tournament_id}/standings", responses=E)
async def standings(tournament_id: int, db: SessionDep) -> dict[str, Any]:
    """Standings with every tie-break value and the order explained, and the club ranking."""
    return await views.standings_of(db, tournament_id)


@router.get("/tournaments/{tournament_id}/crosstable", responses=E)
async def crosstable(tournament_id: int, db: SessionDep) -> dict[str, Any]:
    """Every team against every other, in the standings' order (``views.crosstable``)."""
    return await views.crosstable(db, tournament_id)


#: ``?sep=semicolon`` for a spreadsheet in a Spanish, Catalan or French locale.
CsvSeparator = Annotated[Literal["comma", "semicolon"], Query()]

_SHEETS = {"standings": views.standings_sheet, "results": views.results_sheet}
_XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@router.get(
    "/tournaments/{tournament_id}/{what}.csv",
    responses=E,
    response_class=Response,
    name="tournament_csv",
)
async def sheet_csv(
    tournament_id: int,
    what: Literal["standings", "results"],
    db: SessionDep,
    sep: CsvSeparator = "comma",
) -> Response:
    """The standings or every published table's result as CSV (UTF-8 with a byte order
    mark; ``sep=semicolon`` separates with ``;`` and writes a decimal comma)."""
    text = views.to_csv(await _sheet(db, tournament_id, what), sep)
    return _download(text.encode(), "text/csv; charset=utf-8", f"{what}-{tournament_id}.csv")


@router.get(
    "/tournaments/{tournament_id}/{what}.xlsx",
    responses=E,
    response_class=Response,
    name="tournament_xlsx",
)
async def sheet_xlsx(
    tournament_id: int, what: Literal["standings", "results"], db: SessionDep
) -> Response:
    """The standings or every published table's result as an Excel workbook."""
    data = views.to_xlsx(await _sheet(db, tournament_id, what), what)
    return _download(data, _XLSX, f"{what}-{tournament_id}.xlsx")


async def _sheet(db: Any, tournament_id: int, what: str) -> views.Sheet:
    """The sheet ``what`` with its header row in the request's language, in the words of
    the tournament's game (Bolot's match points in Catalan: ``labels.words_of``)."""
    sheet = await _SHEETS[what](db, tournament_id)
    game = (await service.get_tournament(db, tournament_id))["game"]
    with i18n.game_words(labels.words_of(game)):
        return views.header_words(sheet)


def _download(data: bytes, media_type: str, filename: str) -> Response:
    return Response(
        data,
        media_type=media_type,
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )
