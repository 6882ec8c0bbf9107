"""Championship use cases, one transaction each: clubs, tournaments, organisers, teams,
late entries and withdrawals. Rounds are in ``rounds.py``, results in ``results.py``,
what the public sees in ``views.py``; this module holds the shared loading, access
and audit helpers they use.

Shapes returned are plain JSON-able dicts. Errors: NotFound (404), Forbidden (403,
not an organiser of this tournament), Conflict (409, the tournament is not at that
stage) and Unprocessable (422, bad input), each with a sentence an organiser can read.
Only organisers (the creator and the co-organisers) change a tournament; any
signed-in user may create one.
"""

from __future__ import annotations

import asyncio
import unicodedata
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app import rules
from app.accounts.models import User
from app.accounts.service import clean_username
from app.core.errors import Conflict, Forbidden, NotFound, Unprocessable
from app.rooms.botplay import bot_names
from app.rooms.service import CREATION_KEY
from app.tournaments import config
from app.tournaments.models import (
    CLUB_KINDS,
    AuditEntry,
    Club,
    Organiser,
    RequestKey,
    Round,
    Team,
    TeamPlayer,
    Tournament,
    team_name_key,
)

NAME_MAX = 80


def clean_text(value: Any, what: str, high: int = NAME_MAX, required: bool = True) -> str:
    """``value`` trimmed, its runs of spaces made one, its invisible format characters
    dropped (Unicode Cf: a right-to-left override turned the rest of a page's sentence
    around, zero-width spaces made a name invisible, as a fresh organiser found; a NUL or
    a broken character is refused before, for every text: tests/core/test_text_input.py);
    raises Unprocessable when empty (if required), too long or not text."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise Unprocessable(f"{what} must be text", "text_type", label=what)
    value = "".join(ch for ch in value if unicodedata.category(ch) != "Cf")
    text = " ".join(value.split())
    if required and not text:
        raise Unprocessable(f"{what} is required", "text_required", label=what)
    if len(text) > high:
        raise Unprocessable(
            f"{what} has at most {high} characters", "text_too_long", label=what, max=high
        )
    return text


# ---------------------------------------------------------------- loading and access


async def load(db: AsyncSession, tournament_id: int) -> Tournament:
    """The tournament, fresh from the database. Raises NotFound."""
    t = await db.get(Tournament, tournament_id, populate_existing=True)
    if t is None:
        raise NotFound(f"there is no tournament {tournament_id}", "no_tournament", n=tournament_id)
    return t


async def is_organiser(db: AsyncSession, tournament_id: int, user: User | None) -> bool:
    """True when ``user`` is the creator or a co-organiser of the tournament."""
    if user is None:
        return False
    row = await db.get(Organiser, (tournament_id, user.id))
    return row is not None


async def lock(db: AsyncSession, tournament_id: int) -> None:
    """Take the tournament's write lock for the rest of the transaction: an UPDATE of its
    row (a row lock on PostgreSQL, the database's write lock on SQLite). Every change of
    a tournament takes it first (``for_organiser``), so two changes racing run one after
    the other and each checks what the other did (a player entered twice, a round paired
    or published twice)."""
    await db.execute(
        update(Tournament)
        .where(Tournament.id == tournament_id)
        .values(status=Tournament.status)
        .execution_options(synchronize_session=False)
    )


async def for_organiser(db: AsyncSession, tournament_id: int, user: User) -> Tournament:
    """The tournament if ``user`` organises it, its write lock taken (``lock``): only
    the changes of a tournament call it. Raises NotFound or Forbidden."""
    await lock(db, tournament_id)
    t = await load(db, tournament_id)
    if not await is_organiser(db, tournament_id, user):
        raise Forbidden("only the organisers of this tournament may change it", "organisers_only")
    return t


def audit(
    db: AsyncSession,
    t: Tournament,
    user: User | None,
    action: str,
    subject: str,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    reason: str = "",
) -> None:
    """Add an audit entry (committed with the change it records)."""
    db.add(
        AuditEntry(
            tournament_id=t.id,
            user_id=user.id if user else None,
            action=action,
            subject=subject[:80],
            before=before,
            after=after,
            reason=reason,
        )
    )


async def teams_of(db: AsyncSession, tournament_id: int) -> list[Team]:
    """The tournament's teams in seeding order."""
    rows = await db.scalars(
        select(Team)
        .where(Team.tournament_id == tournament_id)
        .order_by(Team.seed, Team.id)
        .execution_options(populate_existing=True)
    )
    return list(rows.all())


async def rounds_of(db: AsyncSession, tournament_id: int) -> list[Round]:
    """The tournament's rounds in order (drafts included)."""
    rows = await db.scalars(
        select(Round)
        .where(Round.tournament_id == tournament_id)
        .order_by(Round.number)
        .execution_options(populate_existing=True)
    )
    return list(rows.all())


# ---------------------------------------------------------------- requests made once

#: How long a repeated request waits for the first one's answer (a publish makes rooms).
WAIT_SECONDS = 15.0
CONCURRENT = "someone changed this tournament at the same moment: reload the page and try again"


async def once(
    db: AsyncSession,
    user: User,
    key: str | None,
    action: str,
    run: Callable[[], Awaitable[dict[str, Any]]],
) -> dict[str, Any]:
    """Run the change ``run()`` once for its request ``key`` (a form's one-time
    ``creation_key``, the API's ``Idempotency-Key``; 8-64 letters, digits, ``-``, ``_``:
    ``app.rooms.service.CREATION_KEY``, as a room's creation key). The key is stored
    (``tournament_requests``, its primary key) in the change's own transaction, then
    the answer with it: the same request sent again (a double tap, a retry, twenty at
    once) changes nothing and gets the first one's answer; a refused request stores
    nothing, so sending it again is refused again. Without a key the change simply
    runs. Either way a change that loses a race on a unique key of the database is a
    Conflict (``concurrent_change``), never a 500.

    Raises what ``run`` raises; Unprocessable (``creation_key``: a malformed key);
    Conflict (``creation_key_taken``: another person's key; ``request_key_reused``:
    the key of another kind of request; ``request_in_progress``: the first request has
    not answered within ``WAIT_SECONDS``)."""
    if key is None:
        return await _guarded(db, run)
    if not CREATION_KEY.fullmatch(key):
        raise Unprocessable(
            "the request key has 8 to 64 letters, digits, '-' or '_'", "creation_key"
        )
    user_id = user.id  # read before a rollback expires the user
    found, done = await _answer_of(db, user_id, key, action)
    if done is not None:
        return done
    if found:  # the first request's change is committed, its answer not yet
        return await _wait_for(db, user, user_id, key, action, run)
    row = RequestKey(key=key, user_id=user_id, action=action)
    db.add(row)
    try:
        await db.flush()  # the same key racing waits here until the first one ends
    except IntegrityError:
        await db.rollback()
        return await _wait_for(db, user, user_id, key, action, run)
    try:
        out = await _guarded(db, run)  # the change commits the key with it
    except Exception:
        await _forget(db, user, key)
        raise
    row.outcome = out
    await db.commit()
    return out


async def _forget(db: AsyncSession, user: User, key: str) -> None:
    """The request with ``key`` was refused: nothing of it stays, its key neither (a
    publish commits its claim, and the key with it, before it may be refused), so the
    copies waiting for its answer run and are refused in turn."""
    await db.rollback()
    await db.execute(delete(RequestKey).where(RequestKey.key == key, RequestKey.outcome.is_(None)))
    await db.commit()
    await _refresh(db, user)


async def _guarded(
    db: AsyncSession, run: Callable[[], Awaitable[dict[str, Any]]]
) -> dict[str, Any]:
    try:
        return await run()
    except IntegrityError:
        await db.rollback()
        raise Conflict(CONCURRENT, "concurrent_change") from None


async def _refresh(db: AsyncSession, user: User) -> None:
    """A rollback expired ``user``: load it again (its name is read after the change)."""
    if user not in db:
        db.add(user)
    await db.refresh(user)
    await db.commit()  # the read's transaction ends: its connection goes back to the pool


async def _answer_of(
    db: AsyncSession, user_id: int, key: str, action: str
) -> tuple[bool, dict[str, Any] | None]:
    """``(stored, answer)`` of the request with ``key``: ``(False, None)`` for a new key,
    ``(True, None)`` while the first request has not answered yet."""
    row = await db.scalar(
        select(RequestKey).where(RequestKey.key == key).execution_options(populate_existing=True)
    )
    if row is None:
        return False, None
    if row.user_id != user_id:
        raise Conflict("that request key was used by another person", "creation_key_taken")
    if row.action != action:
        raise Conflict(
            "that request key was used for another request: reload the page",
            "request_key_reused",
        )
    return True, row.outcome


async def _wait_for(
    db: AsyncSession,
    user: User,
    user_id: int,
    key: str,
    action: str,
    run: Callable[[], Awaitable[dict[str, Any]]],
) -> dict[str, Any]:
    """The first request with ``key`` committed its change: wait for its answer. Each
    look ends its transaction, so a waiting copy holds no connection of the pool (twenty
    copies of a publish waited with fifteen connections while the first needed one)."""
    waited = 0.0
    try:
        while True:
            found, done = await _answer_of(db, user_id, key, action)
            await db.commit()  # nothing written: the connection goes back to the pool
            if done is not None:
                return done
            if not found:  # the first one was refused after all: this one runs (and is refused)
                await _refresh(db, user)
                return await once(db, user, key, action, run)
            if waited >= WAIT_SECONDS:
                raise Conflict(
                    "this request is still being handled: reload the page in a moment",
                    "request_in_progress",
                )
            await asyncio.sleep(0.05)
            waited += 0.05
    finally:
        await _refresh(db, user)


# ---------------------------------------------------------------- clubs


def club_out(club: Club) -> dict[str, Any]:
    """``{id, name, kind, town}``."""
    return {"id": club.id, "name": club.name, "kind": club.kind, "town": club.town}


async def create_club(
    db: AsyncSession, user: User, name: str, kind: str = "club", town: str = ""
) -> dict[str, Any]:
    """A new club. Raises Unprocessable (bad name or kind) or Conflict (same name and town)."""
    if kind not in CLUB_KINDS:
        raise Unprocessable(f"a club is a {', '.join(CLUB_KINDS)}", "club_kind")
    club = Club(
        name=clean_text(name, "the club's name"),
        kind=kind,
        town=clean_text(town, "the town", required=False),
        created_by=user.id,
    )
    db.add(club)
    try:
        await db.commit()
    except IntegrityError:
        await db.rollback()
        raise Conflict(
            f"there is already a club {club.name!r} in {club.town or 'no town'}",
            "club_exists" if club.town else "club_exists_no_town",
            club=club.name,
            town=club.town,
        ) from None
    return club_out(club)


async def list_clubs(db: AsyncSession) -> list[dict[str, Any]]:
    """Every club, by town then name."""
    rows = await db.scalars(select(Club).order_by(Club.town, Club.name))
    return [club_out(c) for c in rows.all()]


async def club_names(db: AsyncSession, ids: set[int]) -> dict[int, dict[str, Any]]:
    """The clubs of ``ids`` as ``{id: club_out}``."""
    if not ids:
        return {}
    rows = await db.scalars(select(Club).where(Club.id.in_(ids)))
    return {c.id: club_out(c) for c in rows.all()}


# ---------------------------------------------------------------- tournaments


async def tournament_out(db: AsyncSession, t: Tournament) -> dict[str, Any]:
    """The tournament's public shape, with its organisers and counts."""
    orgs = (
        await db.execute(
            select(Organiser.user_id, Organiser.role, User.nickname)
            .join(User, User.id == Organiser.user_id)
            .where(Organiser.tournament_id == t.id)
            .order_by(Organiser.added_at)
        )
    ).all()
    teams = await db.scalar(
        select(func.count()).select_from(Team).where(Team.tournament_id == t.id)
    )
    rounds = await rounds_of(db, t.id)
    ruleset = rules.GAMES.get(t.game)
    return {
        "id": t.id,
        "name": t.name,
        "game": t.game,
        "game_name": ruleset.name if ruleset else t.game,
        "options": t.options,
        "format": t.format,
        "format_name": config.FORMAT_NAMES[t.format],
        "settings": t.settings,
        "status": t.status,
        "venue": t.venue,
        "match": config.describe_match(t.game, t.options, t.settings),
        "organisers": [{"user_id": u, "nickname": n, "role": r} for u, r, n in orgs],
        "teams": teams or 0,
        "rounds": [{"number": r.number, "stage": r.stage, "status": r.status} for r in rounds],
        "created_at": t.created_at.isoformat(),
    }


ACCOUNT_NEEDED = (
    "creating a tournament needs a registered account: register first "
    "(POST /api/accounts or the Register page; a guest keeps its id)"
)


async def create_tournament(
    db: AsyncSession,
    user: User,
    name: str,
    game: str,
    fmt: str,
    options: dict[str, Any] | None = None,
    settings: dict[str, Any] | None = None,
    venue: str = "",
) -> dict[str, Any]:
    """A new tournament in registration, ``user`` its owner. Raises Forbidden for a guest
    (accounts organise championships: DESIGN.md "People"), Unprocessable for bad input."""
    if not user.is_account:
        raise Forbidden(ACCOUNT_NEEDED, "account_needed_tournament")
    opts, sets = config.clean(game, options, fmt, settings)
    t = Tournament(
        name=clean_text(name, "the tournament's name", 120),
        game=game,
        options=opts,
        format=fmt,
        settings=sets,
        status="registration",
        venue=clean_text(venue, "the venue", 120, required=False),
        created_by=user.id,
    )
    db.add(t)
    await db.flush()
    db.add(Organiser(tournament_id=t.id, user_id=user.id, role="owner"))
    audit(db, t, user, "create", t.name, after={"game": game, "format": fmt, "settings": sets})
    await db.commit()
    return await tournament_out(db, t)


async def get_tournament(db: AsyncSession, tournament_id: int) -> dict[str, Any]:
    """The tournament's public shape. Raises NotFound."""
    return await tournament_out(db, await load(db, tournament_id))


async def list_tournaments(db: AsyncSession) -> list[dict[str, Any]]:
    """Every tournament, running first, then in registration, then finished; newest first."""
    rows = (await db.scalars(select(Tournament).order_by(Tournament.id.desc()))).all()
    order = {"running": 0, "registration": 1, "finished": 2}
    out = [await tournament_out(db, t) for t in rows]
    return sorted(out, key=lambda t: order.get(t["status"], 3))


async def add_organiser(
    db: AsyncSession, tournament_id: int, user: User, other_id: int
) -> dict[str, Any]:
    """Make user ``other_id`` a co-organiser: a registered account, as the owner is
    (DESIGN.md "People": accounts organise championships). Raises NotFound, Forbidden (not
    an organiser), Unprocessable (a guest or a deleted account)."""
    t = await for_organiser(db, tournament_id, user)
    other = await db.get(User, other_id)
    if other is None:
        raise NotFound(f"there is no user {other_id}", "no_user", user=other_id)
    if not other.is_account:
        raise Unprocessable(
            "only a registered account can be a co-organiser", "organiser_not_account"
        )
    if await db.get(Organiser, (t.id, other.id)) is None:
        db.add(Organiser(tournament_id=t.id, user_id=other.id, role="co"))
        audit(db, t, user, "organiser", other.nickname, after={"user_id": other.id})
        await db.commit()
    return await tournament_out(db, t)


# ---------------------------------------------------------------- teams


def players_per_team(game: str) -> int:
    """2 in the four-player games (fixed pairs), 1 in Belote for two."""
    return 2 if rules.GAMES[game].players == 4 else 1


def team_out(team: Team, clubs: dict[int, dict[str, Any]] | None = None) -> dict[str, Any]:
    """A team's public shape."""
    club = (clubs or {}).get(team.club_id) if team.club_id else None
    return {
        "id": team.id,
        "name": team.name,
        "club_id": team.club_id,
        "club": club["name"] if club else None,
        "players": [p for p in (team.player1, team.player2) if p],
        "user_ids": [u for u in (team.user1_id, team.user2_id) if u],
        "bot": team.bot,
        "seed": team.seed,
        "group": team.group_no,
        "status": team.status,
        "late": team.late,
        "withdrawn_after": team.withdrawn_after,
    }


async def list_teams(db: AsyncSession, tournament_id: int) -> list[dict[str, Any]]:
    """The teams in seeding order. Raises NotFound."""
    await load(db, tournament_id)
    teams = await teams_of(db, tournament_id)
    clubs = await club_names(db, {t.club_id for t in teams if t.club_id})
    return [team_out(t, clubs) for t in teams]


async def register_team(
    db: AsyncSession,
    tournament_id: int,
    user: User,
    name: str,
    players: list[str] | None = None,
    club_id: int | None = None,
    user_ids: list[int] | None = None,
    bot: str | None = None,
    usernames: list[str] | None = None,
) -> dict[str, Any]:
    """Enter a team (organisers only). Before the start any format; once running only
    a Swiss takes late entries (they join the next round with no points).

    ``players`` are names ("" where an account gives the name); ``user_ids`` the
    players' accounts (needed at online tables, in seat order), or ``usernames``
    for them (the page's form); ``bot`` a bot level for a team of bots. Raises
    NotFound (no such account), Forbidden, Conflict (started, not Swiss; a player
    already in another team; a team of that name, whatever the case) or Unprocessable.
    An open preview (a draft round) is thrown away: it was paired without this team."""
    t = await for_organiser(db, tournament_id, user)
    team = await enter_team(db, t, user, name, players, club_id, user_ids, bot, usernames)
    await db.commit()
    clubs = await club_names(db, {team.club_id} if team.club_id else set())
    return team_out(team, clubs)


async def enter_team(
    db: AsyncSession,
    t: Tournament,
    user: User,
    name: str,
    players: list[str] | None = None,
    club_id: int | None = None,
    user_ids: list[int] | None = None,
    bot: str | None = None,
    usernames: list[str] | None = None,
) -> Team:
    """``register_team``'s checks and entry in tournament ``t`` (its write lock taken,
    ``user`` one of its organisers), not committed: the one path by which a team is
    entered, by an organiser's form or the API or by approving a player's request
    (``signup.approve``). Raises as ``register_team``."""
    late = t.status != "registration"
    if t.status == "finished" or (late and t.format != "swiss"):
        raise Conflict(
            "entries are closed: only a Swiss takes late entries once it has started",
            "entries_closed",
        )
    size = players_per_team(t.game)
    names = [clean_text(p, "a player's name", 40, required=False) for p in (players or [])]
    given = [n.casefold() for n in names if n]
    if len(set(given)) != len(given):
        raise Unprocessable(
            "a team's two players are two people: the same name is given twice",
            "team_same_player",
        )
    if len(names) > size:
        raise Unprocessable(
            f"a team of {rules.GAMES[t.game].name} has {size} player(s)",
            "team_size",
            game=rules.GAMES[t.game].name,
            size=size,
        )
    uids = list(user_ids or [])
    if usernames:
        if uids:
            raise Unprocessable(
                "give the players' accounts by id or by username, not both", "accounts_id_or_name"
            )
        for raw in usernames:
            account_name = clean_username(raw)
            uid = await db.scalar(select(User.id).where(User.username == account_name))
            if uid is None:
                raise NotFound(
                    f"there is no account {account_name!r}", "no_account", name=account_name
                )
            uids.append(uid)
    if len(uids) > size or len(set(uids)) != len(uids):
        raise Unprocessable(
            f"give up to {size} different player accounts", "team_accounts_max", size=size
        )
    accounts = []
    for uid in uids:
        account = await db.get(User, uid)
        if account is None:
            raise NotFound(f"there is no user {uid}", "no_user", user=uid)
        accounts.append(account)
    if bot is not None:
        if bot not in bot_names():
            raise Unprocessable(
                f"unknown bot {bot!r}; bots: {', '.join(bot_names())}", "unknown_bot", bot=bot
            )
    while len(names) < len(accounts):
        names.append("")
    names = [n or (accounts[i].nickname if i < len(accounts) else "") for i, n in enumerate(names)]
    while names and not names[-1]:
        names.pop()
    if club_id is not None and await db.get(Club, club_id) is None:
        raise NotFound(f"there is no club {club_id}", "no_club", club=club_id)
    existing = await teams_of(db, t.id)  # under the tournament's lock: no race between the checks
    taken = {u for team in existing for u in (team.user1_id, team.user2_id) if u}
    if taken & set(uids):
        raise Conflict(
            "a player already plays in another team of this tournament", "player_in_two_teams"
        )
    team_name = clean_text(name or " & ".join(names), "the team's name")
    if any(team.name_key == team_name_key(team_name) for team in existing):
        raise Conflict(f"there is already a team {team_name!r}", "team_name_taken", team=team_name)
    seed = max((team.seed for team in existing), default=0) + 1
    team = Team(
        tournament_id=t.id,
        club_id=club_id,
        name=team_name,
        name_key=team_name_key(team_name),
        player1=names[0] if names else "",
        player2=names[1] if len(names) > 1 else "",
        user1_id=uids[0] if uids else None,
        user2_id=uids[1] if len(uids) > 1 else None,
        bot=bot,
        seed=seed,
        status="active",
        late=late,
    )
    db.add(team)
    await db.flush()
    for uid in uids:  # one team per player: the primary key refuses a second
        db.add(TeamPlayer(tournament_id=t.id, user_id=uid, team_id=team.id))
    # an open preview was paired without this team: it is thrown away (pair again)
    await db.execute(delete(Round).where(Round.tournament_id == t.id, Round.status == "draft"))
    audit(
        db,
        t,
        user,
        "late_entry" if late else "team",
        team_name,
        after={"team": team.id, "players": [n for n in names if n], "club": club_id},
    )
    return team


#: ``edit_team``'s ``club_id`` when the club is not to change (None takes the club away).
KEEP = object()


async def edit_team(
    db: AsyncSession,
    tournament_id: int,
    team_id: int,
    user: User,
    name: str | None = None,
    players: list[str] | None = None,
    club_id: int | None | object = KEEP,
) -> dict[str, Any]:
    """Correct a team (organisers only): its ``name`` (unique in the tournament,
    whatever the case), its players' names (``players``, as many as the game seats; an
    account's player keeps the account: only the written name changes) and its club
    (``club_id``; None for no club; ``KEEP`` to leave it). Results and pairings are
    untouched; the club ranking follows the new club. Recorded in the audit trail, the
    values before and after. Raises NotFound (team, club), Forbidden, Conflict
    (``team_name_taken``) or Unprocessable (``team_size``, a bad name)."""
    t = await for_organiser(db, tournament_id, user)
    team = await db.get(Team, team_id)
    if team is None or team.tournament_id != t.id:
        raise NotFound(f"there is no team {team_id} in this tournament", "no_team", team=team_id)
    before = {
        "name": team.name,
        "players": [p for p in (team.player1, team.player2) if p],
        "club": team.club_id,
    }
    if players is not None:
        size = players_per_team(t.game)
        names = [clean_text(p, "a player's name", 40, required=False) for p in players]
        given = [n.casefold() for n in names if n]
        if len(set(given)) != len(given):
            raise Unprocessable(
                "a team's two players are two people: the same name is given twice",
                "team_same_player",
            )
        if len(names) > size:
            raise Unprocessable(
                f"a team of {rules.GAMES[t.game].name} has {size} player(s)",
                "team_size",
                game=rules.GAMES[t.game].name,
                size=size,
            )
        names += [""] * (2 - len(names))
        team.player1, team.player2 = names[0], names[1]
    if name is not None:
        new_name = clean_text(name, "the team's name")
        key = team_name_key(new_name)
        others = [x for x in await teams_of(db, t.id) if x.id != team.id]
        if any(x.name_key == key for x in others):
            raise Conflict(
                f"there is already a team {new_name!r}", "team_name_taken", team=new_name
            )
        team.name, team.name_key = new_name, key
    if club_id is not KEEP:
        if club_id is not None:
            if not isinstance(club_id, int) or await db.get(Club, club_id) is None:
                raise NotFound(f"there is no club {club_id}", "no_club", club=club_id)
        team.club_id = club_id  # type: ignore[assignment]  # None or an existing club's id
    after = {
        "name": team.name,
        "players": [p for p in (team.player1, team.player2) if p],
        "club": team.club_id,
    }
    if after != before:
        audit(db, t, user, "edit_team", team.name, before=before, after=after)
    await db.commit()
    clubs = await club_names(db, {team.club_id} if team.club_id else set())
    return team_out(team, clubs)


async def finish_early(
    db: AsyncSession, tournament_id: int, user: User, reason: str = ""
) -> dict[str, Any]:
    """End the championship now (rain, the hall closing, fewer rounds than planned): the
    standings stand as the closed rounds left them. A round still open must be closed
    (every table with a result) or taken back to a draft first; a draft is thrown away.
    The reason is public (``settings.ended_early``: ``{reason, after_round}``, the last
    closed round; the championship's page shows it), unlike a withdrawal's.
    Raises Conflict (``round_still_open``; ``tournament_finished``, already over)."""
    t = await for_organiser(db, tournament_id, user)
    if t.status == "finished":
        raise Conflict("the tournament is finished", "tournament_finished")
    rounds = await rounds_of(db, t.id)
    open_round = next((r for r in rounds if r.status == "published"), None)
    if open_round is not None:
        raise Conflict(
            f"round {open_round.number} is still open: close it or take it back to a draft first",
            "round_still_open",
            round=open_round.number,
        )
    await db.execute(delete(Round).where(Round.tournament_id == t.id, Round.status == "draft"))
    t.status = "finished"
    reason = clean_text(reason, "the reason", 200, required=False)
    closed = max((r.number for r in rounds if r.status == "closed"), default=0)
    # public, unlike a withdrawal's reason: the championship's page says why it ended
    t.settings = {**t.settings, "ended_early": {"reason": reason, "after_round": closed}}
    audit(db, t, user, "end_early", t.name, after={"rounds": len(rounds)}, reason=reason)
    await db.commit()
    return await tournament_out(db, t)
