"""Player pages and leaderboards (issue 17 §5, §6): read from ``match_players`` and ``ratings``.

A player page is public unless its person hid it (``users.profile_hidden``): then it is
NotFound "this profile is private" for everyone but its owner, and the person is left
out of the leaderboards. Shapes are JSON-able dicts; the API returns them as they are and
the pages draw them (app/records/player_pages.py).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import rules
from app.accounts.models import User
from app.accounts.service import DELETED
from app.core.db import as_utc
from app.core.errors import NotFound
from app.records import ratings
from app.records.models import MatchPlayer, Rating
from app.rooms.models import Game, Room

#: The most recent matches a player page lists (older ones: ``?before=<game_id>``).
PAGE_MATCHES = 50
#: The people a leaderboard lists.
LEADERBOARD_SIZE = 100


def game_name(game: str) -> str:
    """The game's English name (the pages translate it), or its id when unknown."""
    ruleset = rules.GAMES.get(game)
    return ruleset.name if ruleset else game


def _rating_entry(game: str, r: Rating) -> dict[str, Any]:
    return {
        "game": game,
        "game_name": game_name(game),
        "mu": round(r.mu, 3),
        "sigma": round(r.sigma, 3),
        "rating": round(ratings.ordinal(r.mu, r.sigma), 1),
        "matches": r.matches,
        "wins": r.wins,
        "provisional": ratings.is_provisional(r.matches, r.sigma),
    }


def _person(row: MatchPlayer, deleted: set[int]) -> dict[str, Any]:
    """A seat of a listed match; a deleted person's name is erased (docs/security.md), and
    has no page to link to."""
    if row.user_id is None:
        return {"user_id": None, "bot": row.bot, "nickname": row.nickname or row.bot or ""}
    if row.user_id in deleted:
        return {"user_id": None, "bot": None, "nickname": DELETED}
    return {"user_id": row.user_id, "bot": None, "nickname": row.nickname}


async def player(
    db: AsyncSession, user_id: int, viewer: User | None, before: int | None = None
) -> dict[str, Any]:
    """The player page of ``user_id`` as ``viewer`` may see it.

    ``{id, nickname, kind, hidden, own, ratings: [{game, game_name, mu, sigma, rating,
    matches, wins, provisional}], figures: [{game, game_name, matches, wins, draws,
    losses, points, deals, points_per_deal}], matches: [{game_id, room_id, game,
    game_name, ended_at, end_reason, seat, side, result, counted_loss, resigned_side,
    points, scores, rated, rating_before, rating_after, partners: [{user_id, bot,
    nickname}], opponents: [...], record, replay}], more}`` (``resigned_side``: the side
    whose player resigned, else None; a deleted person is named "deleted", with no
    ``user_id``) (the newest ``PAGE_MATCHES`` matches ended before
    game ``before``; ``more``: older ones exist). Figures count every ended match with a
    result, rated or casual; points per deal is the side's final score over the deals.
    The matches of private tables are listed to the player alone (the figures count
    them for everyone). Raises NotFound: no such person ("no_player"), or a hidden page
    seen by another ("profile_private")."""
    user = await db.get(User, user_id)
    if user is None or user.kind == "deleted":
        raise NotFound(f"there is no player {user_id}", "no_player", n=user_id)
    own = viewer is not None and viewer.id == user.id
    if user.profile_hidden and not own:
        raise NotFound("this profile is private", "profile_private")
    rows = (
        await db.scalars(select(Rating).where(Rating.user_id == user.id).order_by(Rating.game))
    ).all()
    figures = []
    agg = await db.execute(
        select(
            MatchPlayer.game,
            func.count(),
            func.sum(func.coalesce(MatchPlayer.points, 0)),
            func.sum(func.coalesce(MatchPlayer.deals, 0)),
        )
        .where(MatchPlayer.user_id == user.id, MatchPlayer.result.is_not(None))
        .group_by(MatchPlayer.game)
        .order_by(MatchPlayer.game)
    )
    counts: dict[tuple[str, str], int] = {
        (g, str(res)): n
        for g, res, n in (
            await db.execute(
                select(MatchPlayer.game, MatchPlayer.result, func.count())
                .where(MatchPlayer.user_id == user.id, MatchPlayer.result.is_not(None))
                .group_by(MatchPlayer.game, MatchPlayer.result)
            )
        ).all()
    }
    for g, n, points, deals in agg.all():
        points, deals = int(points or 0), int(deals or 0)
        figures.append(
            {
                "game": g,
                "game_name": game_name(g),
                "matches": int(n),
                "wins": counts.get((g, "win"), 0),
                "draws": counts.get((g, "draw"), 0),
                "losses": counts.get((g, "loss"), 0),
                "points": points,
                "deals": deals,
                "points_per_deal": round(points / deals, 1) if deals else None,
            }
        )
    query = select(MatchPlayer).where(MatchPlayer.user_id == user.id)
    if not own:  # a private table's matches are listed to their player only (docs/invitations.md)
        private = select(Game.id).join(Room, Room.id == Game.room_id).where(Room.private.is_(True))
        query = query.where(MatchPlayer.game_id.not_in(private))
    if before is not None:
        query = query.where(MatchPlayer.game_id < before)
    mine = (
        await db.scalars(query.order_by(MatchPlayer.game_id.desc()).limit(PAGE_MATCHES + 1))
    ).all()
    more = len(mine) > PAGE_MATCHES
    mine = mine[:PAGE_MATCHES]
    game_ids = [m.game_id for m in mine]
    seats: dict[int, list[MatchPlayer]] = defaultdict(list)
    rooms: dict[int, int] = {}
    resigned: dict[int, int | None] = {}  # game id -> the side that resigned
    deleted: set[int] = set()  # the seated people who have deleted their account since
    if game_ids:
        for row, kind in (
            await db.execute(
                select(MatchPlayer, User.kind)
                .outerjoin(User, User.id == MatchPlayer.user_id)
                .where(MatchPlayer.game_id.in_(game_ids))
                .order_by(MatchPlayer.seat)
            )
        ).all():
            seats[row.game_id].append(row)
            if kind == DELETED and row.user_id is not None:
                deleted.add(row.user_id)
        for gid, rid, resigned_seat in (
            await db.execute(
                select(Game.id, Game.room_id, Game.resigned_seat).where(Game.id.in_(game_ids))
            )
        ).all():
            rooms[gid] = rid
            resigned[gid] = next((r.side for r in seats[gid] if r.seat == resigned_seat), None)
    matches = []
    for m in mine:
        others = [r for r in seats[m.game_id] if r.seat != m.seat]
        sides = max((r.side for r in seats[m.game_id]), default=0) + 1
        scores = [0] * sides
        for r in seats[m.game_id]:
            scores[r.side] = r.points
        room_id = rooms.get(m.game_id)
        matches.append(
            {
                "game_id": m.game_id,
                "room_id": room_id,
                "game": m.game,
                "game_name": game_name(m.game),
                "ended_at": as_utc(m.ended_at).isoformat(),
                "end_reason": m.end_reason,
                "seat": m.seat,
                "side": m.side,
                "result": m.result,
                "counted_loss": m.counted_loss,
                "resigned_side": resigned.get(m.game_id),
                "points": m.points,
                "scores": scores,
                "rated": m.rated,
                "rating_before": None if m.ordinal_before is None else round(m.ordinal_before, 1),
                "rating_after": None if m.ordinal_after is None else round(m.ordinal_after, 1),
                "partners": [_person(r, deleted) for r in others if r.side == m.side],
                "opponents": [_person(r, deleted) for r in others if r.side != m.side],
                "record": f"/records/{m.game_id}",
                "replay": f"/rooms/{room_id}/replay" if room_id is not None else None,
            }
        )
    return {
        "id": user.id,
        "nickname": user.nickname,
        "kind": user.kind,
        "hidden": bool(user.profile_hidden),
        "own": own,
        "ratings": [_rating_entry(r.game, r) for r in rows],
        "figures": figures,
        "matches": matches,
        "more": more,
    }


async def leaderboard(db: AsyncSession, game: str) -> dict[str, Any]:
    """The leaderboard of ``game``: ``{game, game_name, entries: [{rank, user_id, bot,
    version, nickname, rating, mu, sigma, matches, wins, provisional}]}`` by rating (the
    ordinal mu − 3·sigma), the top ``LEADERBOARD_SIZE`` people with at least one rated
    match and the bot anchors among them (``bot`` set, ``rank`` None: anchors are shown,
    not ranked). Hidden profiles are left out. Raises NotFound for an unknown game."""
    if game not in rules.GAMES:
        raise NotFound(f"there is no game {game!r}", "unknown_game", game=game)
    shown = (
        await db.execute(
            select(Rating, User.nickname)
            .join(User, User.id == Rating.user_id)
            .where(
                Rating.game == game,
                Rating.matches > 0,
                User.profile_hidden.is_(False),
                User.kind != "deleted",
            )
            .order_by((Rating.mu - 3 * Rating.sigma).desc(), Rating.user_id)
            .limit(LEADERBOARD_SIZE)
        )
    ).all()
    entries: list[dict[str, Any]] = [
        dict(_rating_entry(game, r), user_id=r.user_id, bot=None, version=None, nickname=nick)
        for r, nick in shown
    ]
    for a in ratings.bot_anchors():
        entries.append(
            {
                "game": game,
                "game_name": game_name(game),
                "user_id": None,
                "bot": a["bot"],
                "version": a["version"],
                "nickname": a["bot"],
                "mu": a["mu"],
                "sigma": a["sigma"],
                "rating": round(a["ordinal"], 1),
                "matches": None,
                "wins": None,
                "provisional": False,
            }
        )
    entries.sort(key=lambda e: (-e["rating"], e["bot"] is None, e["user_id"] or 0))
    rank = 0
    for e in entries:
        if e["bot"] is None:
            rank += 1
            e["rank"] = rank
        else:
            e["rank"] = None
    return {"game": game, "game_name": game_name(game), "entries": entries}
