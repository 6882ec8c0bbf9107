"""Ratings of whole matches with openskill's Plackett-Luce model (issue 17 §6, docs/ratings.md).

What is rated: an ended match (``games.end_reason`` set, ``games.seated`` known) of a rated
room (``rooms.rated``). Its outcome comes from the engine: the stored moves are replayed
(app/records/service.py ``history``) and the final state says who won at the target and
the scores. Sides are the teams of the game: seats 0+2 against 1+3 in a four-seat game,
each seat for himself in Belote for two and for three (``len(scores)`` sides; the side of a
seat is the engine's ``team_of``). openskill rates teams natively: every side is a team of
its seats.

* **ranks** (0 best, ties share a rank), per ``end_reason``: "played": the engine's
  winner first, then the others by score (a draw, winner None: by score); "resigned": the
  resigner's side last, the others by score; "stopped" (a championship's limit): by score,
  no result mid-deal; "abandoned": no result.
* **leaving or resigning** a rated match is a loss for that person whatever the score:
  that person is rated on the ranks with his side put alone last (his partner, who did not
  leave, is rated on the match as it ended). A dropped connection is not a leave
  (``games.left`` lists only those who left).
* **bots** are fixed, versioned anchors: each level has a constant (mu, sigma) per
  version (``ANCHORS``); they take part in the update as they are and never move.
* persons start at the model's defaults (mu 25, sigma 25/3); the shown rating is the
  ordinal mu − 3·sigma. A rating is **provisional** below ``PROVISIONAL_MATCHES`` rated
  matches or above ``PROVISIONAL_SIGMA``.

Everything is a function of the stored matches taken in (ended_at, game id) order, so
``rebuild`` gives exactly the numbers the live listener gave, and a formula change is a
replay (``tapet ratings rebuild``), not a migration of numbers.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import delete, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from app import rules
from app.core.db import as_utc, utcnow
from app.records import service as records
from app.records.models import MatchPlayer, Rating
from app.rooms.models import Game, Room

log = logging.getLogger(__name__)

#: The model and its parameters, written out so that a change is visible (they are
#: openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300, kappa 0.0001).
MU = 25.0
SIGMA = 25.0 / 3.0
MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=25.0 / 6.0, tau=25.0 / 300.0, kappa=0.0001)

#: The bot anchors: (level, version) -> (mu, sigma), never moved by a match. A bot whose
#: play changes gets a new version (``BOT_VERSIONS``) with its own numbers; a match keeps
#: the version it was played against (``match_players.bot_version``), so a rebuild uses it.
ANCHORS: dict[tuple[str, int], tuple[float, float]] = {
    ("random", 1): (12.0, 1.0),
    ("heuristic", 1): (25.0, 1.0),
    ("strong", 1): (30.0, 1.0),
}
#: The current version of each bot level.
BOT_VERSIONS: dict[str, int] = {"random": 1, "heuristic": 1, "strong": 1}
#: A bot level that is not in the table (none today) is rated as this one.
FALLBACK_BOT = "heuristic"

#: Provisional: fewer rated matches than this in the game, or sigma above this.
PROVISIONAL_MATCHES = 10
PROVISIONAL_SIGMA = 6.0


def ordinal(mu: float, sigma: float) -> float:
    """The shown rating: mu − 3·sigma (openskill's ordinal with its defaults)."""
    return mu - 3.0 * sigma


def is_provisional(matches: int, sigma: float) -> bool:
    """True while a rating is not yet settled (see ``PROVISIONAL_MATCHES``/``_SIGMA``)."""
    return matches < PROVISIONAL_MATCHES or sigma > PROVISIONAL_SIGMA


def anchor(bot: str | None, version: int | None = None) -> tuple[str, int, float, float]:
    """``(level, version, mu, sigma)`` of a bot's anchor; ``version`` None: the current one."""
    level = bot if bot in BOT_VERSIONS else FALLBACK_BOT
    v = version if version is not None and (level, version) in ANCHORS else BOT_VERSIONS[level]
    mu, sigma = ANCHORS[(level, v)]
    return level, v, mu, sigma


def bot_anchors() -> list[dict[str, Any]]:
    """The current anchors for display: ``[{bot, version, mu, sigma, ordinal}]``."""
    out = []
    for level, version in BOT_VERSIONS.items():
        mu, sigma = ANCHORS[(level, version)]
        out.append(
            {
                "bot": level,
                "version": version,
                "mu": mu,
                "sigma": sigma,
                "ordinal": ordinal(mu, sigma),
            }
        )
    return out


# ---------------------------------------------------------------- outcome (pure)


def dense(values: Sequence[float], reverse: bool = True) -> list[int]:
    """Dense ranks of ``values`` (0 best; the highest first when ``reverse``): [5, 9, 5] -> [1, 0, 1]."""
    distinct = sorted(set(values), reverse=reverse)
    return [distinct.index(v) for v in values]


def base_ranks(
    end_reason: str | None,
    over: bool,
    winner: int | None,
    scores: Sequence[int],
    resigned_side: int | None,
    mid_deal: bool,
) -> list[int] | None:
    """The ranks of the sides (0 best, ties share) as the match ended, or None: no result.

    ``over``: the engine's final phase is "over" (the rules' end: ``winner`` a side or
    None for a draw). See the module docstring for each ``end_reason``."""
    sides = len(scores)
    if end_reason in ("played", None) and over:
        if winner is None:
            return dense(scores)
        rest = dense([s for k, s in enumerate(scores) if k != winner])
        others = iter(rest)
        return [0 if k == winner else 1 + next(others) for k in range(sides)]
    if end_reason == "resigned" and resigned_side is not None and 0 <= resigned_side < sides:
        if sides == 2:
            return [1 if k == resigned_side else 0 for k in range(sides)]
        rest = dense([s for k, s in enumerate(scores) if k != resigned_side])
        others = iter(rest)
        return [sides if k == resigned_side else next(others) for k in range(sides)]
    if end_reason == "stopped" and not mid_deal:
        return dense(scores)
    return None


def quitter_ranks(ranks: list[int] | None, side: int, sides: int) -> list[int]:
    """The ranks a person who left or resigned is rated on: his side alone last, the
    others as they finished (all first when the match has no result)."""
    base = list(ranks) if ranks is not None else [0] * sides
    worst = max((r for k, r in enumerate(base) if k != side), default=0)
    base[side] = worst + 1
    return dense(base, reverse=False)


def result_of(ranks: Sequence[int] | None, side: int) -> str | None:
    """ "win" (alone first), "draw" (first with others), "loss", or None (no result)."""
    if ranks is None:
        return None
    best = min(ranks)
    if ranks[side] != best:
        return "loss"
    return "draw" if list(ranks).count(best) > 1 else "win"


@dataclass
class SeatFacts:
    """One seat of an ended match as the listener sees it (from ``games.seated``)."""

    seat: int
    user_id: int | None
    bot: str | None
    nickname: str
    side: int
    quit: bool = False


@dataclass
class MatchFacts:
    """What the ratings need of an ended match: ``seats``, the final ``scores`` by side,
    the finished ``deals``, the sides' ``ranks`` (None: no result) and ``rated``."""

    game_id: int
    game: str
    seats: list[SeatFacts]
    scores: list[int]
    deals: int
    ranks: list[int] | None
    rated: bool
    end_reason: str | None
    ended_at: datetime


async def match_facts(db: AsyncSession, game: Game, rated: bool) -> MatchFacts | None:
    """The facts of ``game`` replayed through the engine, or None when there is nothing
    to record (not finished, or nobody known to have sat: a match from before 0012)."""
    seated = game.seated or []
    if game.status != "finished" or not seated:
        return None
    if not any(isinstance(s, dict) and s.get("user_id") for s in seated):
        return None  # bots only: nobody's history
    h = await records.history(db, game)
    public = rules.observe(h.state, None)
    scores = [int(x) for x in public["scores"]]
    side_of = rules.GAMES[game.game].team_of  # the engine says who plays with whom
    over = public["phase"] == "over"
    mid_deal = any(not d.finished for d in h.deals)
    resigned_side = side_of(game.resigned_seat) if game.resigned_seat is not None else None
    ranks = base_ranks(game.end_reason, over, public["winner"], scores, resigned_side, mid_deal)
    left = {int(u) for u in (game.left or []) if isinstance(u, int)}
    seats = []
    for n, s in enumerate(seated):
        user_id = s.get("user_id") if isinstance(s, dict) else None
        quit_ = user_id is not None and (user_id in left or n == game.resigned_seat)
        seats.append(
            SeatFacts(
                seat=n,
                user_id=user_id,
                bot=s.get("bot") if user_id is None else None,
                nickname=str(s.get("nickname") or "")[:32],
                side=side_of(n),
                quit=quit_,
            )
        )
    return MatchFacts(
        game_id=game.id,
        game=game.game,
        seats=seats,
        scores=scores,
        deals=len(h.finished_deals),
        ranks=ranks,
        rated=rated,
        end_reason=game.end_reason,
        ended_at=as_utc(game.ended_at or game.created_at),
    )


def personal_ranks(facts: MatchFacts, seat: SeatFacts) -> list[int] | None:
    """The ranks ``seat``'s person is rated (and credited) on: a quitter of a rated match
    loses whatever the score; anyone else gets the match as it ended."""
    if facts.rated and seat.quit:
        return quitter_ranks(facts.ranks, seat.side, len(facts.scores))
    return facts.ranks


def rate(
    facts: MatchFacts,
    before: dict[int, tuple[float, float]],
    bot_versions: dict[int, int] | None = None,
) -> dict[int, tuple[float, float]]:
    """New (mu, sigma) of each person's seat of a rated match: ``before`` maps a user id
    to his (mu, sigma) before it (absent: the model's start). Bots take part with their
    anchors (``bot_versions``: seat -> version, else the current one) and are not in the
    answer. Persons without a result are left out. Pure: the test suite recomputes it."""
    sides = len(facts.scores)
    teams: list[list[Any]] = [[] for _ in range(sides)]
    where: dict[int, tuple[int, int]] = {}
    for s in facts.seats:
        if s.user_id is not None:
            mu, sigma = before.get(s.user_id, (MU, SIGMA))
        else:
            _, _, mu, sigma = anchor(s.bot, (bot_versions or {}).get(s.seat))
        where[s.seat] = (s.side, len(teams[s.side]))
        teams[s.side].append(MODEL.rating(mu=mu, sigma=sigma))
    out: dict[int, tuple[float, float]] = {}
    cache: dict[tuple[int, ...], Any] = {}
    for s in facts.seats:
        if s.user_id is None:
            continue
        ranks = personal_ranks(facts, s)
        if ranks is None:
            continue
        key = tuple(ranks)
        if key not in cache:
            cache[key] = MODEL.rate(teams, ranks=[float(r) for r in ranks])
        side, index = where[s.seat]
        new = cache[key][side][index]
        out[s.seat] = (float(new.mu), float(new.sigma))
    return out


# ---------------------------------------------------------------- storing


def _insert(db: AsyncSession) -> Any:
    dialect = db.get_bind().dialect.name
    return (postgresql if dialect == "postgresql" else sqlite).insert


async def store(
    db: AsyncSession, facts: MatchFacts, bot_versions: dict[int, int] | None = None
) -> bool:
    """Write ``facts``' seats and, for a rated match, move the persons' ratings, in the
    caller's transaction (not committed). Returns False, writing nothing, when the match's
    rows exist already (insert-or-ignore on ``(game_id, seat)``: another listener won)."""
    insert = _insert(db)
    versions = bot_versions or {}
    rows = []
    for s in facts.seats:
        bot, version = (None, None)
        if s.user_id is None:
            bot, version, _, _ = anchor(s.bot, versions.get(s.seat))
        ranks = personal_ranks(facts, s)
        rows.append(
            {
                "game_id": facts.game_id,
                "seat": s.seat,
                "game": facts.game,
                "user_id": s.user_id,
                "bot": bot,
                "bot_version": version,
                "nickname": s.nickname,
                "side": s.side,
                "result": result_of(ranks, s.side),
                "counted_loss": facts.rated and s.quit,
                "points": facts.scores[s.side],
                "deals": facts.deals,
                "rated": False,
                "end_reason": facts.end_reason,
                "ended_at": facts.ended_at,
            }
        )
    stmt = (
        insert(MatchPlayer)
        .values(rows)
        .on_conflict_do_nothing(index_elements=["game_id", "seat"])
        .returning(MatchPlayer.seat)
    )
    written = (await db.execute(stmt)).scalars().all()
    if len(written) < len(rows):
        if written:  # cannot happen: the other writer inserted all its rows at once
            raise RuntimeError(f"game {facts.game_id}: match rows written in part")
        return False
    if facts.rated:
        await _move_ratings(db, facts, versions)
    return True


async def _move_ratings(db: AsyncSession, facts: MatchFacts, versions: dict[int, int]) -> None:
    people = sorted(
        {s.user_id for s in facts.seats if s.user_id is not None and personal_ranks(facts, s)}
    )
    if not people:
        return
    insert = _insert(db)
    now = utcnow()
    # the rows exist (locked in user-id order: two matches sharing a person wait in turn)
    await db.execute(
        insert(Rating)
        .values(
            [
                {"user_id": u, "game": facts.game, "mu": MU, "sigma": SIGMA, "updated": now}
                for u in people
            ]
        )
        .on_conflict_do_nothing(index_elements=["user_id", "game"])
    )
    current = (
        await db.scalars(
            select(Rating)
            .where(Rating.game == facts.game, Rating.user_id.in_(people))
            .order_by(Rating.user_id)
            .with_for_update()
            .execution_options(populate_existing=True)
        )
    ).all()
    by_user = {r.user_id: r for r in current}
    before = {u: (r.mu, r.sigma) for u, r in by_user.items()}
    after = rate(facts, before, versions)
    for s in facts.seats:
        if s.user_id is None:
            _, _, mu, sigma = anchor(s.bot, versions.get(s.seat))
            values = {
                "mu_before": mu,
                "sigma_before": sigma,
                "ordinal_before": ordinal(mu, sigma),
                "mu_after": mu,
                "sigma_after": sigma,
                "ordinal_after": ordinal(mu, sigma),
            }
        elif s.seat in after:
            mu0, sigma0 = before[s.user_id]
            mu1, sigma1 = after[s.seat]
            values = {
                "rated": True,
                "mu_before": mu0,
                "sigma_before": sigma0,
                "ordinal_before": ordinal(mu0, sigma0),
                "mu_after": mu1,
                "sigma_after": sigma1,
                "ordinal_after": ordinal(mu1, sigma1),
            }
            rating = by_user[s.user_id]
            rating.mu, rating.sigma = mu1, sigma1
            rating.matches += 1
            rating.wins += int(result_of(personal_ranks(facts, s), s.side) == "win")
            rating.updated = now
        else:
            continue
        await db.execute(
            update(MatchPlayer)
            .where(MatchPlayer.game_id == facts.game_id, MatchPlayer.seat == s.seat)
            .values(**values)
        )
    await db.flush()


async def record_match(db: AsyncSession, game_id: int) -> bool:
    """Record ended match ``game_id`` once: its seats, and its ratings if the room is rated.
    Returns True when this call wrote it, False when there was nothing to write (not
    ended, no person, already written). Commits on its own session ``db``."""
    game = await db.get(Game, game_id, populate_existing=True)
    if game is None:
        return False
    done = await db.scalar(select(MatchPlayer.id).where(MatchPlayer.game_id == game_id).limit(1))
    if done is not None:
        await db.rollback()
        return False
    rated = bool(await db.scalar(select(Room.rated).where(Room.id == game.room_id)))
    facts = await match_facts(db, game, rated)
    # end the reading transaction: on SQLite the write below must start its own (a read
    # snapshot that turns into a write fails when another writer committed meanwhile)
    await db.rollback()
    if facts is None:
        return False
    wrote = await store(db, facts)
    if wrote:
        await db.commit()
    else:
        await db.rollback()
    return wrote


async def on_match_ended(db: AsyncSession, game_id: int) -> None:
    """The match-end listener (app/core/hooks.py, registered by app/main.py): records the
    match on a session of its own, so the mover's session and objects are left as they
    are. Idempotent: a second call for the same game writes nothing."""
    async with AsyncSession(db.bind, expire_on_commit=False) as own:
        await record_match(own, game_id)


async def rebuild(db: AsyncSession) -> int:
    """Recompute every match row and rating from the stored matches, in (ended_at, game
    id) order, in one transaction; each seat keeps the bot version it was rated against.
    Returns the number of matches recorded. Committed at the end."""
    versions: dict[int, dict[int, int]] = {}
    for game_id, seat, version in (
        await db.execute(
            select(MatchPlayer.game_id, MatchPlayer.seat, MatchPlayer.bot_version).where(
                MatchPlayer.bot_version.is_not(None)
            )
        )
    ).all():
        if version is not None:
            versions.setdefault(game_id, {})[seat] = version
    await db.execute(delete(Rating))
    await db.execute(delete(MatchPlayer))
    games = (
        await db.execute(
            select(Game, Room.rated)
            .join(Room, Room.id == Game.room_id)
            .where(Game.status == "finished", Game.seated.is_not(None))
        )
    ).all()
    facts_list = []
    for game, rated in games:
        facts = await match_facts(db, game, bool(rated))
        if facts is not None:
            facts_list.append(facts)
    facts_list.sort(key=lambda f: (f.ended_at, f.game_id))
    for facts in facts_list:
        await store(db, facts, versions.get(facts.game_id))
    await db.commit()
    return len(facts_list)
