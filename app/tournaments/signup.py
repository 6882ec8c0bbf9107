"""Players register their teams (issue 19 §4; docs/tournaments.md "Players register
their teams"): a signed-in account asks to enter a team (its name, club and partner);
the request is pending until an organiser approves it, which enters the team through
``service.enter_team`` (the organisers' own path: one team per player, names unique
whatever the case, the open preview thrown away, the audit trail), or declines it
with a reason only the organisers and the requester see. The requester, or the
partner named, may withdraw a pending request.

Every change takes the tournament's write lock first (``service.lock``), so copies
racing run one after the other and each sees what the previous did; the database
keeps one open request per requester and per partner (``team_requests``' partial
unique indexes). Shapes returned are plain JSON-able dicts (``request_out``).
Errors: NotFound (404), Forbidden (403), Conflict (409), Unprocessable (422).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import rules
from app.accounts.models import User
from app.accounts.service import clean_username
from app.core.db import as_utc, utcnow
from app.core.errors import Conflict, Forbidden, NotFound, Unprocessable
from app.tournaments import service
from app.tournaments.models import (
    Club,
    Team,
    TeamPlayer,
    TeamRequest,
    Tournament,
    team_name_key,
)


def entries_open(t: Tournament) -> bool:
    """True while the tournament takes entries: before its start (any format), and in
    a Swiss running (late entries join the next round); never once finished. The same
    rule as ``service.enter_team``'s."""
    return t.status == "registration" or (t.status == "running" and t.format == "swiss")


def registration_open(t: Tournament) -> bool:
    """True when players may ask to enter a team: the organiser's ``self_registration``
    setting on and entries open (``entries_open``): a round robin closes its registration
    when it starts, a Swiss keeps it open until it is finished."""
    return bool((t.settings or {}).get("self_registration")) and entries_open(t)


async def request_out(db: AsyncSession, r: TeamRequest, reason_for: bool = True) -> dict[str, Any]:
    """``{id, tournament_id, name, club_id, club, user_id, requester, partner_id,
    partner, status, reason, team_id, created_at, decided_at}``; ``reason`` (a
    decline's, private) is "" unless ``reason_for`` (an organiser or the requester)."""
    names = {}
    ids = [u for u in (r.user_id, r.partner_id) if u]
    if ids:
        rows = await db.execute(select(User.id, User.nickname).where(User.id.in_(ids)))
        names = {uid: nick for uid, nick in rows.all()}
    club = await db.get(Club, r.club_id) if r.club_id else None
    return {
        "id": r.id,
        "tournament_id": r.tournament_id,
        "name": r.name,
        "club_id": r.club_id,
        "club": club.name if club else None,
        "user_id": r.user_id,
        "requester": names.get(r.user_id, ""),
        "partner_id": r.partner_id,
        "partner": names.get(r.partner_id, "") if r.partner_id else None,
        "status": r.status,
        "reason": r.reason if reason_for else "",
        "team_id": r.team_id,
        "created_at": as_utc(r.created_at).isoformat(),
        "decided_at": as_utc(r.decided_at).isoformat() if r.decided_at else None,
    }


async def _load_request(db: AsyncSession, t: Tournament, request_id: int) -> TeamRequest:
    r = await db.get(TeamRequest, request_id, populate_existing=True)
    if r is None or r.tournament_id != t.id:
        raise NotFound(
            f"there is no team request {request_id} in this tournament",
            "no_team_request",
            n=request_id,
        )
    return r


async def set_registration(
    db: AsyncSession, tournament_id: int, user: User, open_: bool
) -> dict[str, Any]:
    """Let players ask to enter teams (``open_`` True) or stop it (organisers only):
    the ``self_registration`` setting. Pending requests stay (an organiser still
    decides them). Recorded in the audit trail when it changes. Raises NotFound,
    Forbidden, Conflict (``tournament_finished``)."""
    t = await service.for_organiser(db, tournament_id, user)
    if t.status == "finished":
        raise Conflict("the tournament is finished", "tournament_finished")
    settings = dict(t.settings or {})
    if bool(settings.get("self_registration")) != open_:
        if open_:
            settings["self_registration"] = True
        else:
            settings.pop("self_registration", None)
        t.settings = settings
        action = "registration_opened" if open_ else "registration_closed"
        service.audit(db, t, user, action, t.name, after={"self_registration": open_})
    await db.commit()
    return await service.tournament_out(db, t)


async def request_team(
    db: AsyncSession,
    tournament_id: int,
    user: User,
    name: str = "",
    partner: str | None = None,
    club_id: int | None = None,
) -> dict[str, Any]:
    """Ask to enter a team: ``user`` (a registered account) and ``partner`` (another
    account's username; none in a game of one player a team, Belote for two or for
    three), named ``name`` (by default "Requester & Partner"), for club ``club_id``
    (an existing club, or None). Pending until an organiser decides.

    Raises Forbidden (``account_needed_request``: a guest); Conflict
    (``registration_closed``; ``already_in_team`` / ``partner_in_team``: a player
    already plays in a team of this tournament; ``request_pending`` /
    ``partner_request_pending``: one open request per player; ``team_name_taken``,
    ``team_name_requested``: the name, whatever the case, is a team's or an open
    request's); NotFound (``no_account``, ``no_club``); Unprocessable
    (``partner_needed``, ``no_partner``, ``partner_self``, a bad name)."""
    if not user.is_account:
        raise Forbidden(
            "registering a team needs a registered account: register or log in first",
            "account_needed_request",
        )
    await service.lock(db, tournament_id)
    t = await service.load(db, tournament_id)
    if not registration_open(t):
        raise Conflict(
            "players cannot register teams in this tournament now: ask the organisers",
            "registration_closed",
        )
    size = service.players_per_team(t.game)
    mate: User | None = None
    if partner and partner.strip():
        if size == 1:
            raise Unprocessable(
                f"a team of {rules.GAMES[t.game].name} has one player: leave the partner out",
                "no_partner",
                game=rules.GAMES[t.game].name,
            )
        username = clean_username(partner)
        mate = await db.scalar(select(User).where(User.username == username))
        if mate is None:
            raise NotFound(f"there is no account {username!r}", "no_account", name=username)
        if mate.id == user.id:
            raise Unprocessable("your partner is another player", "partner_self")
    elif size == 2:
        raise Unprocessable(
            "give your partner's username: a team has two players", "partner_needed"
        )
    if club_id is not None and await db.get(Club, club_id) is None:
        raise NotFound(f"there is no club {club_id}", "no_club", club=club_id)
    players = [user.id] + ([mate.id] if mate else [])
    in_teams = set(
        (
            await db.scalars(
                select(TeamPlayer.user_id).where(
                    TeamPlayer.tournament_id == t.id, TeamPlayer.user_id.in_(players)
                )
            )
        ).all()
    )
    if user.id in in_teams:
        raise Conflict("you already play in a team of this tournament", "already_in_team")
    if mate and mate.id in in_teams:
        raise Conflict(
            f"{mate.nickname} already plays in a team of this tournament",
            "partner_in_team",
            partner=mate.nickname,
        )
    pending = list(
        (
            await db.scalars(
                select(TeamRequest).where(
                    TeamRequest.tournament_id == t.id, TeamRequest.status == "pending"
                )
            )
        ).all()
    )
    for r in pending:
        if user.id in (r.user_id, r.partner_id):
            raise Conflict(
                "you already have a request waiting for the organisers: withdraw it first",
                "request_pending",
            )
        if mate and mate.id in (r.user_id, r.partner_id):
            raise Conflict(
                f"{mate.nickname} is already in a request waiting for the organisers",
                "partner_request_pending",
                partner=mate.nickname,
            )
    team_name = service.clean_text(
        name or " & ".join(u.nickname for u in (user, mate) if u), "the team's name"
    )
    key = team_name_key(team_name)
    taken = await db.scalar(select(Team.id).where(Team.tournament_id == t.id, Team.name_key == key))
    if taken is not None:
        raise Conflict(f"there is already a team {team_name!r}", "team_name_taken", team=team_name)
    if any(team_name_key(r.name) == key for r in pending):
        raise Conflict(
            f"another request waiting for the organisers is named {team_name!r}",
            "team_name_requested",
            team=team_name,
        )
    r = TeamRequest(
        tournament_id=t.id,
        user_id=user.id,
        partner_id=mate.id if mate else None,
        name=team_name,
        club_id=club_id,
        status="pending",
        reason="",
    )
    db.add(r)
    await db.flush()
    service.audit(
        db,
        t,
        user,
        "team_request",
        team_name,
        after={"request": r.id, "partner": mate.id if mate else None, "club": club_id},
    )
    await db.commit()
    return await request_out(db, r)


async def withdraw_request(
    db: AsyncSession, tournament_id: int, request_id: int, user: User
) -> dict[str, Any]:
    """Withdraw a pending request: its requester, or the partner it names (who so says
    no). Withdrawn already: nothing changes (a double tap). Raises NotFound, Forbidden
    (``not_your_request``), Conflict (``request_decided``: approved or declined)."""
    await service.lock(db, tournament_id)
    t = await service.load(db, tournament_id)
    r = await _load_request(db, t, request_id)
    if user.id not in (r.user_id, r.partner_id):
        raise Forbidden("only its requester or partner may withdraw a request", "not_your_request")
    if r.status in ("approved", "declined"):
        raise Conflict("the organisers have already decided this request", "request_decided")
    if r.status == "pending":
        r.status = "withdrawn"
        r.decided_at = utcnow()
        r.decided_by = user.id
        service.audit(db, t, user, "request_withdrawn", r.name, after={"request": r.id})
        await db.commit()
    return await request_out(db, r, reason_for=user.id == r.user_id)


async def approve(
    db: AsyncSession, tournament_id: int, request_id: int, user: User
) -> dict[str, Any]:
    """Approve a pending request (organisers only): the team is entered by
    ``service.enter_team``, as an organiser's entry (every rule of it applies, the open
    preview is thrown away, the audit trail has its ``team`` or ``late_entry``), in the
    same transaction as the request's ``approved``. Approved already: nothing changes
    (one team however often it is approved). Raises NotFound, Forbidden, Conflict
    (``request_not_pending``: declined or withdrawn; what ``enter_team`` raises:
    ``entries_closed``, ``player_in_two_teams``, ``team_name_taken``), the request
    then staying pending for the organiser to decline."""
    t = await service.for_organiser(db, tournament_id, user)
    r = await _load_request(db, t, request_id)
    if r.status == "approved":
        return await request_out(db, r)
    if r.status != "pending":
        raise Conflict(
            f"this request was {r.status}: it cannot be approved",
            "request_not_pending",
            status=r.status,
        )
    ids = [u for u in (r.user_id, r.partner_id) if u]
    team = await service.enter_team(db, t, user, r.name, None, r.club_id, ids)
    r.status, r.team_id = "approved", team.id
    r.decided_at, r.decided_by = utcnow(), user.id
    service.audit(db, t, user, "request_approved", r.name, after={"request": r.id, "team": team.id})
    await db.commit()
    return await request_out(db, r)


async def decline(
    db: AsyncSession, tournament_id: int, request_id: int, user: User, reason: str = ""
) -> dict[str, Any]:
    """Decline a pending request (organisers only), with an optional ``reason`` (at
    most 200 characters) shown to the requester and the organisers only (private in the
    audit trail: ``views.PRIVATE_REASONS``). Declined already: nothing changes. Raises
    NotFound, Forbidden, Conflict (``request_not_pending``: approved or withdrawn)."""
    t = await service.for_organiser(db, tournament_id, user)
    r = await _load_request(db, t, request_id)
    if r.status == "declined":
        return await request_out(db, r)
    if r.status != "pending":
        raise Conflict(
            f"this request was {r.status}: it cannot be declined",
            "request_not_pending",
            status=r.status,
        )
    r.reason = service.clean_text(reason, "the reason", 200, required=False)
    r.status, r.decided_at, r.decided_by = "declined", utcnow(), user.id
    service.audit(db, t, user, "request_declined", r.name, after={"request": r.id}, reason=r.reason)
    await db.commit()
    return await request_out(db, r)


async def list_requests(
    db: AsyncSession, tournament_id: int, user: User | None, pending_only: bool = False
) -> list[dict[str, Any]]:
    """The requests an organiser sees (all of the tournament), or those of ``user``
    (as requester or partner) for anyone else; oldest first. A decline's reason only
    for an organiser or the requester. Raises NotFound."""
    await service.load(db, tournament_id)
    organiser = await service.is_organiser(db, tournament_id, user)
    query = select(TeamRequest).where(TeamRequest.tournament_id == tournament_id)
    if pending_only:
        query = query.where(TeamRequest.status == "pending")
    if not organiser:
        if user is None:
            return []
        query = query.where(or_(TeamRequest.user_id == user.id, TeamRequest.partner_id == user.id))
    rows = (
        await db.scalars(query.order_by(TeamRequest.id).execution_options(populate_existing=True))
    ).all()
    return [
        await request_out(
            db, r, reason_for=organiser or (user is not None and user.id == r.user_id)
        )
        for r in rows
    ]


async def in_team(db: AsyncSession, tournament_id: int, user: User | None) -> bool:
    """True when ``user``'s account plays in a team of the tournament."""
    if user is None:
        return False
    return await db.get(TeamPlayer, (tournament_id, user.id)) is not None
