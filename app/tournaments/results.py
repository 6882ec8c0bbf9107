"""Results: paper tables (a final score, or each deal from the score sheet through
``app.rules.score_deal``), online tables (read from the room when the match ends),
corrections with their audit entry, forfeits of withdrawn teams.

A paper table's totals are the sum of its deals' points, home team = team 0 of the
summary. Points a deal carries to the next (Belote's *litige*, Bridge-Belote's
hanging points) are passed on as the next deal's ``carried_in``. The table is
done when the match definition says so: the target reached (scores differing), the
number of deals played; on a time limit the referee finishes it.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app import rules
from app.accounts.models import User
from app.core.db import as_utc, utcnow
from app.core.errors import Conflict, NotFound, Unprocessable
from app.rooms import service as rooms
from app.rooms.models import Game
from app.tournaments import config
from app.tournaments.models import PaperDeal, Round, Team, Tournament, TournamentTable
from app.tournaments.pairing import bracket_places
from app.tournaments.service import audit, for_organiser, load, rounds_of, team_out, teams_of
from app.tournaments.standings import Result, TableOfThree, standings

#: The highest score a table may record (guards the database's integer columns).
MAX_SCORE = 1_000_000


async def tables_in(db: AsyncSession, round_id: int) -> list[TournamentTable]:
    rows = await db.scalars(
        select(TournamentTable)
        .where(TournamentTable.round_id == round_id)
        .order_by(TournamentTable.number)
        .execution_options(populate_existing=True)
    )
    return list(rows.all())


def removed_teams(t: Tournament) -> set[int]:
    """The teams withdrawn with their matches ``remove``d: every match of theirs, played
    before the withdrawal or not, counts for nobody (never a mix of kept wins and voided
    matches, which would leave their opponents with a match more than the others)."""
    return {int(k) for k, v in t.settings.get("withdrawals", {}).items() if v == "remove"}


def counts(x: TournamentTable, removed: set[int]) -> bool:
    """True when a table's result goes into the standings: done, and no team of it
    withdrawn in ``remove`` mode (``removed_teams``)."""
    return x.status == "done" and x.home_id not in removed and x.away_id not in removed


async def results_of(db: AsyncSession, tournament_id: int) -> list[Result]:
    """Every counted result of published and closed rounds (byes and forfeits included,
    removed matches and every match of a team withdrawn in ``remove`` mode left out); a
    knockout round's results are marked ``knockout`` (its byes are no match)."""
    out: list[Result] = []
    removed = removed_teams(await load(db, tournament_id))
    for rnd in await rounds_of(db, tournament_id):
        if rnd.status == "draft":
            continue
        for x in await tables_in(db, rnd.id):
            if not counts(x, removed):
                continue
            out.append(
                Result(
                    x.home_id,
                    x.away_id,
                    x.home_score or 0,
                    x.away_score or 0,
                    x.winner_id,
                    x.forfeit,
                    knockout=rnd.stage == "knockout",
                )
            )
    return out


async def _resigned_seats(db: AsyncSession, tournament_id: int) -> dict[int, int]:
    """room id -> the seat that resigned its match, for the championship's online tables
    ended by a resignation (one statement; a championship's room plays one match)."""
    rows = await db.execute(
        select(Game.room_id, Game.resigned_seat)
        .join(TournamentTable, TournamentTable.room_id == Game.room_id)
        .join(Round, Round.id == TournamentTable.round_id)
        .where(
            Round.tournament_id == tournament_id,
            Game.end_reason == "resigned",
            Game.resigned_seat.is_not(None),
        )
    )
    return {int(room): int(seat) for room, seat in rows if seat is not None}


def _standing_resignation(x: TournamentTable, resigned: dict[int, int]) -> int | None:
    """The seat that resigned table of three ``x``'s match (``resigned``: room id -> seat),
    while the table's result is still the one the resignation gave (its winner the
    higher of the other two, ``sync_table``); None when nobody resigned, or when an
    organiser's correction has since named another winner: the entered result then
    stands alone, so that the table and the standings never disagree."""
    seat = resigned.get(x.room_id) if x.room_id is not None else None
    if seat is None:
        return None
    return seat if _winner_after_resignation(x, seat) == x.winner_id else None


def _winner_after_resignation(x: TournamentTable, seat: int) -> int | None:
    """Table of three ``x``'s winner once seat ``seat`` resigned: the single highest
    recorded score of the other two (None when they are level)."""
    return single_highest(x, [-1 if k == seat else s for k, s in enumerate(scores_of(x))])


async def tables_of_three(db: AsyncSession, tournament_id: int) -> list[TableOfThree]:
    """Every counted table of a championship of three players each for himself
    (published and closed rounds): ``TableOfThree(players, scores)``, a bye as
    ``TableOfThree((player,))``; removed tables are left out."""
    out: list[TableOfThree] = []
    resigned = await _resigned_seats(db, tournament_id)
    for rnd in await rounds_of(db, tournament_id):
        if rnd.status == "draft":
            continue
        for x in await tables_in(db, rnd.id):
            if x.status != "done":
                continue
            if x.away_id is None:
                out.append(TableOfThree((x.home_id,)))
            elif x.third_id is not None:
                out.append(
                    TableOfThree(
                        (x.home_id, x.away_id, x.third_id),
                        (x.home_score or 0, x.away_score or 0, x.third_score or 0),
                        _standing_resignation(x, resigned),
                    )
                )
    return out


def seats_of(x: TournamentTable) -> list[int]:
    """The entrants of a table in seat order: home, away and, at a table of three, third."""
    return [t for t in (x.home_id, x.away_id, x.third_id) if t is not None]


def scores_of(x: TournamentTable) -> list[int]:
    """A table's recorded scores in seat order (two or three)."""
    scores = [x.home_score or 0, x.away_score or 0]
    return scores + [x.third_score or 0] if x.third_id is not None else scores


def single_highest(x: TournamentTable, scores: list[int]) -> int | None:
    """The entrant with the single highest of ``scores`` (seat order), None when shared."""
    leader = rules.leading_team(scores)
    return None if leader is None else seats_of(x)[leader]


async def group_standings(db: AsyncSession, t: Tournament) -> list[dict[str, Any]]:
    """Each group's standings (groups then knockout), from group-stage results only:
    ``[{group, rows: [row dicts]}]``."""
    teams = await teams_of(db, t.id)
    group_ids = set()
    for rnd in await rounds_of(db, t.id):
        if rnd.stage == "group":
            group_ids.add(rnd.id)
    results = []
    for rnd in await rounds_of(db, t.id):
        if rnd.id in group_ids and rnd.status != "draft":
            results += [
                Result(
                    x.home_id,
                    x.away_id,
                    x.home_score or 0,
                    x.away_score or 0,
                    x.winner_id,
                    x.forfeit,
                )
                for x in await tables_in(db, rnd.id)
                if counts(x, removed_teams(t))
            ]
    out = []
    for g in sorted({x.group_no for x in teams if x.group_no}):
        ids = [x.id for x in teams if x.group_no == g]
        rows = standings(ids, results, t.settings["tiebreaks"], t.settings["points"])
        out.append({"group": g, "rows": [r.as_dict() for r in rows]})
    return out


# ---------------------------------------------------------------- finding a table


async def find_table(
    db: AsyncSession, t: Tournament, table_no: int, round_no: int | None = None
) -> tuple[Round, TournamentTable]:
    """Table ``table_no`` of round ``round_no`` (default: the open round, else the last
    published one). Raises NotFound."""
    rounds = [r for r in await rounds_of(db, t.id) if r.status != "draft"]
    if round_no is None:
        rnd = next((r for r in rounds if r.status == "published"), rounds[-1] if rounds else None)
    else:
        rnd = next((r for r in rounds if r.number == round_no), None)
    if rnd is None:
        raise NotFound(
            "no round has been published"
            if round_no is None
            else f"there is no published round {round_no}",
            "no_round_published" if round_no is None else "no_published_round",
            round=round_no,
        )
    table = next((x for x in await tables_in(db, rnd.id) if x.number == table_no), None)
    if table is None:
        raise NotFound(
            f"round {rnd.number} has no table {table_no}",
            "round_no_table",
            round=rnd.number,
            table=table_no,
        )
    return rnd, table


def snapshot(x: TournamentTable) -> dict[str, Any]:
    """What a correction changes, for the audit trail."""
    out = {
        "home_score": x.home_score,
        "away_score": x.away_score,
        "winner": x.winner_id,
        "forfeit": x.forfeit,
        "status": x.status,
    }
    if x.third_id is not None:
        out["third_score"] = x.third_score
    return out


def _sheet_out(rnd: Round, x: TournamentTable, sheet: list[dict[str, Any]]) -> dict[str, Any]:
    """A paper table after a deal is added or corrected: ``{number, round, status, deals,
    home_score, away_score, winner}``."""
    return {
        "number": x.number,
        "round": rnd.number,
        "status": x.status,
        "deals": sheet,
        "home_score": x.home_score,
        "away_score": x.away_score,
        "winner": x.winner_id,
    } | ({"third_score": x.third_score} if x.third_id is not None else {})


def _winner(
    t: Tournament, rnd: Round, x: TournamentTable, home: int, away: int, winner_id: int | None
) -> int | None:
    if x.third_id is not None:  # three each for himself: the single highest, never named
        return single_highest(x, [home, away, x.third_score or 0])
    if winner_id is not None and winner_id not in (x.home_id, x.away_id):
        raise Unprocessable("the winner must be one of the table's two teams", "winner_team")
    by_score = None if home == away else (x.home_id if home > away else x.away_id)
    if by_score is not None and winner_id is not None and winner_id != by_score:
        raise Unprocessable("the winner is the team with the higher score", "winner_higher_score")
    if by_score is None and rnd.stage == "knockout" and winner_id is None:
        raise Conflict(
            "a knockout match cannot end level: say which team won (winner)", "knockout_level"
        )
    return by_score if by_score is not None else winner_id


# ---------------------------------------------------------------- entering results


async def record_result(
    db: AsyncSession,
    tournament_id: int,
    table_no: int,
    user: User,
    home_score: int,
    away_score: int,
    winner_id: int | None = None,
    round_no: int | None = None,
    reason: str = "",
    forfeit: bool = False,
    third_score: int | None = None,
) -> dict[str, Any]:
    """Enter (or correct) a table's final score (``third_score``: the third player's, at
    a table of three, where the winner is the single highest score or no one). A table that already has a result, or
    one of a closed round, is a correction: it needs a ``reason`` and leaves an audit
    entry (who, when, before, after, why). Raises NotFound, Forbidden, Conflict (a
    bye, a removed match, an online match still playing, a level knockout match without
    ``winner_id``) or Unprocessable (negative scores, no reason for a correction, a score
    the match definition cannot end on: ``config.check_final``; ``final_over_deals``: a
    paper table with deals entered takes a final score typed over them only with a
    reason, kept in the audit trail with the number of deals it overrides)."""
    if home_score < 0 or away_score < 0 or (third_score or 0) < 0:
        raise Unprocessable("scores are zero or more", "score_negative")
    if (third_score or 0) > MAX_SCORE:
        raise Unprocessable(f"a match score is at most {MAX_SCORE:,}", "score_max", max=MAX_SCORE)
    if home_score > MAX_SCORE or away_score > MAX_SCORE:
        raise Unprocessable(f"a match score is at most {MAX_SCORE:,}", "score_max", max=MAX_SCORE)
    t = await for_organiser(db, tournament_id, user)
    rnd, x = await find_table(db, t, table_no, round_no)
    if x.away_id is None or x.status == "void":
        raise Conflict(
            f"table {table_no} is a bye or a removed match: it takes no result",
            "table_takes_no_result",
            table=table_no,
        )
    correction = x.status == "done" or rnd.status == "closed"
    if x.status == "playing" and x.mode == "online" and not reason:
        raise Conflict(
            f"table {table_no} is still playing online: give a reason to override it",
            "table_playing_online",
            table=table_no,
        )
    if correction and not reason.strip():
        raise Unprocessable("a correction needs a reason", "correction_reason")
    deals = await deals_of(db, x.id) if x.mode == "paper" else []
    if deals and not reason.strip():  # a part-filled sheet: say why it is overridden
        totals = "–".join(str(v) for v in scores_of(x))
        raise Unprocessable(
            f"deals already entered at this table: {len(deals)} ({totals}); enter the "
            "remaining deals, or give a reason to type the final score over them (kept in "
            "the audit trail)",
            "final_over_deals",
            n=len(deals),
            totals=totals,
        )
    if (x.third_id is None) != (third_score is None):
        raise Unprocessable(
            "a table of three players takes three scores, a table of two sides two",
            "score_count",
        )
    if forfeit and x.third_id is not None:
        raise Unprocessable("a table of three has no forfeit: enter the scores", "three_no_forfeit")
    config.check_final(
        t.game, t.options, t.settings, home_score, away_score, forfeit, third=third_score
    )
    before = snapshot(x) | ({"deals": len(deals)} if deals else {})
    if x.third_id is not None:
        x.third_score = third_score
    winner = x.away_id if forfeit and winner_id is None and home_score < away_score else winner_id
    x.winner_id = _winner(t, rnd, x, home_score, away_score, winner)
    if forfeit and x.winner_id is None:
        raise Unprocessable("a forfeit names the winner", "forfeit_winner")
    x.home_score, x.away_score, x.forfeit = home_score, away_score, forfeit
    x.status, x.finished_at = "done", utcnow()
    action = "correction" if correction or reason else "result"
    audit(
        db,
        t,
        user,
        action,
        f"round {rnd.number} table {table_no}",
        before,
        snapshot(x),
        reason.strip(),
    )
    await db.commit()
    return snapshot(x) | {"number": x.number, "round": rnd.number}


async def deals_of(db: AsyncSession, table_id: int) -> list[PaperDeal]:
    """A paper table's deals in order."""
    rows = await db.scalars(
        select(PaperDeal)
        .where(PaperDeal.table_id == table_id)
        .order_by(PaperDeal.deal_no)
        .execution_options(populate_existing=True)
    )
    return list(rows.all())


#: The key of a deal entered as its points alone: ``{"points_only": [home, away]}`` (a
#: table of three: ``[home, away, third]``), the points the café's sheet writes.
POINTS_ONLY = "points_only"


def is_points_only(summary: Any) -> bool:
    """True when a paper deal was entered as its points alone (``POINTS_ONLY``)."""
    return isinstance(summary, dict) and POINTS_ONLY in summary


def points_only(t: Tournament, n: int, summary: dict[str, Any], carried: int) -> list[int]:
    """The points of deal ``n`` entered alone, checked by the engine
    (``rules.plausible_deal_points``: no legal deal of the game can give them otherwise);
    ``carried``: points held from the deal before, which the sheet may have added.
    Raises Unprocessable with the engine's reason and the deal's number."""
    if set(summary) != {POINTS_ONLY}:
        raise Unprocessable(
            f"deal {n}: a deal of points only has nothing but its points",
            "points_only_shape",
            deal=n,
        )
    points = summary[POINTS_ONLY]
    reason = rules.plausible_deal_points(t.game, t.options, points, carried)
    if reason is not None:
        raise Unprocessable.of(rules.IllegalAction(reason), f"deal {n}: ", deal=n)
    return [int(p) for p in points]


def score_sheet(t: Tournament, summaries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Score each deal of a sheet through ``score_deal``, carrying points from one deal
    to the next; returns ``[{deal, points: [h, a], outcome, totals_after: [h, a]}]``.
    A deal entered as its points alone (``POINTS_ONLY``) counts as written, outcome
    ``"points only"``: it takes up any points held (the sheet wrote them where they
    went) and holds none. Raises Unprocessable with the engine's reason and the deal's
    number."""
    carried = 0
    totals: list[int] = []
    out = []
    for n, summary in enumerate(summaries, 1):
        if is_points_only(summary):
            result: dict[str, Any] = {
                "points": points_only(t, n, summary, carried),
                "outcome": "points only",
            }
        else:
            s = dict(summary)
            if carried and "carried_in" not in summary:
                s["carried_in"] = carried
            try:
                result = dict(rules.score_deal(t.game, t.options, s))
            except rules.IllegalAction as exc:
                raise Unprocessable.of(exc, f"deal {n}: ", deal=n) from None
        carried = result.get("carried_out", 0) or 0
        points = [int(p) for p in result["points"]]
        totals = [a + b for a, b in zip(totals or [0] * len(points), points, strict=True)]
        out.append(
            {"deal": n, "points": points, "outcome": result.get("outcome"), "totals_after": totals}
        )
    return out


def _capped(t: Tournament, score: int) -> int:
    cap = t.options.get("cap_score")
    return min(score, cap) if cap else score


def _over(t: Tournament, totals: list[int], deals: int) -> bool:
    match = t.settings.get("match", {"kind": "target"})
    limit, _minutes = config.match_limits(t.settings)
    if limit is not None and deals >= limit:
        return True
    if match["kind"] == "target":  # the single highest score at the target (two or three)
        top = max(totals)
        return top >= t.options.get("target", 0) and totals.count(top) == 1
    return False


async def _rescore(
    db: AsyncSession, t: Tournament, rnd: Round, x: TournamentTable
) -> list[dict[str, Any]]:
    """Recompute a paper table from its deals; finish it when the match is over."""
    deals = await deals_of(db, x.id)
    sheet = score_sheet(t, [d.summary for d in deals])
    width = 3 if x.third_id is not None else 2
    for d, line in zip(deals, sheet, strict=True):
        d.home_points, d.away_points = line["points"][:2]
        d.third_points = line["points"][2] if width == 3 else None
    totals = sheet[-1]["totals_after"] if sheet else [0] * width
    x.home_score, x.away_score = _capped(t, totals[0]), _capped(t, totals[1])
    if width == 3:
        x.third_score = _capped(t, totals[2])
    if _over(t, totals, len(deals)) and x.away_id is not None:
        x.winner_id = _winner(t, rnd, x, totals[0], totals[1], None)
        x.status, x.finished_at = "done", utcnow()
    elif x.status == "done" and not x.forfeit:
        x.status, x.winner_id = "playing", None  # a correction reopened the match
    elif x.status == "pending":
        x.status = "playing"
    return sheet


async def add_deal(
    db: AsyncSession,
    tournament_id: int,
    table_no: int,
    user: User,
    summary: dict[str, Any],
    round_no: int | None = None,
) -> dict[str, Any]:
    """Enter the next deal of a paper table from the score sheet (home = team 0 of the
    summary, as rules/<game>.md §8 shapes it), or its points alone,
    ``{"points_only": [home, away]}`` (``[home, away, third]`` at a table of three),
    checked by ``rules.plausible_deal_points`` and kept in the audit trail
    (``points_deal``). Returns the table's sheet. Raises Conflict (an online table, a
    finished match, a closed round) or Unprocessable (the engine's reason for an
    impossible summary or points)."""
    t = await for_organiser(db, tournament_id, user)
    rnd, x = await find_table(db, t, table_no, round_no)
    if x.mode != "paper" or x.away_id is None:
        raise Conflict(f"table {table_no} is not a paper match", "table_not_paper", table=table_no)
    if x.status in ("done", "void") or rnd.status != "published":
        raise Conflict(
            f"table {table_no} is over: correct a deal instead", "table_over", table=table_no
        )
    if not isinstance(summary, dict):
        raise Unprocessable("a deal summary is a JSON object", "summary_object")
    deals = await deals_of(db, x.id)
    score_sheet(t, [d.summary for d in deals] + [summary])  # refuses an impossible deal first
    deal_no = len(deals) + 1
    db.add(
        PaperDeal(
            table_id=x.id,
            deal_no=deal_no,
            summary=summary,
            home_points=0,
            away_points=0,
            entered_by=user.id,
        )
    )
    await db.flush()
    sheet = await _rescore(db, t, rnd, x)
    if is_points_only(summary):  # no cards to check it against: the trail says who wrote it
        audit(
            db,
            t,
            user,
            "points_deal",
            f"round {rnd.number} table {table_no} deal {deal_no}",
            None,
            {"points": sheet[-1]["points"], **snapshot(x)},
        )
    await db.commit()
    return _sheet_out(rnd, x, sheet)


async def correct_deal(
    db: AsyncSession,
    tournament_id: int,
    table_no: int,
    deal_no: int,
    user: User,
    summary: dict[str, Any] | None,
    reason: str,
    round_no: int | None = None,
) -> dict[str, Any]:
    """Replace deal ``deal_no`` of a paper table (``summary``) or delete it (None); the
    totals and the result are recomputed. Needs a reason; leaves an audit entry."""
    t = await for_organiser(db, tournament_id, user)
    rnd, x = await find_table(db, t, table_no, round_no)
    if not reason.strip():
        raise Unprocessable("a correction needs a reason", "correction_reason")
    deals = await deals_of(db, x.id)
    target = next((d for d in deals if d.deal_no == deal_no), None)
    if target is None:
        raise NotFound(
            f"table {table_no} has no deal {deal_no}",
            "table_no_deal",
            table=table_no,
            deal_no=deal_no,
        )
    before = {"deal": deal_no, "summary": target.summary, **snapshot(x)}
    if summary is None:
        if deal_no != len(deals):
            raise Conflict(
                "only the last deal can be deleted; correct the others", "delete_last_deal_only"
            )
        await db.delete(target)
    else:
        score_sheet(t, [summary if d.deal_no == deal_no else d.summary for d in deals])
        target.summary = summary
    await db.flush()
    sheet = await _rescore(db, t, rnd, x)
    audit(
        db,
        t,
        user,
        "correction",
        f"round {rnd.number} table {table_no} deal {deal_no}",
        before,
        {"summary": summary, **snapshot(x)},
        reason.strip(),
    )
    await db.commit()
    return _sheet_out(rnd, x, sheet)


async def finish_paper(
    db: AsyncSession,
    tournament_id: int,
    table_no: int,
    user: User,
    winner_id: int | None = None,
    round_no: int | None = None,
) -> dict[str, Any]:
    """End a paper table at its current totals: only a match limited by time or by a
    number of deals (docs/tournaments.md "Match definition"; the deal in progress was
    finished and entered), never a match to a target score, which ends when a team
    reaches it. A level knockout match needs ``winner_id``. Undone by ``reopen_table``.
    Raises Conflict (``finish_needs_limit``: a match to a target; ``table_not_in_play``)."""
    t = await for_organiser(db, tournament_id, user)
    if not finishes_at_totals(t.settings):
        raise Conflict(
            "only a match limited by time or by a number of deals finishes at its totals: "
            "a match to a target score ends when a team reaches it",
            "finish_needs_limit",
        )
    rnd, x = await find_table(db, t, table_no, round_no)
    if x.mode != "paper" or x.status not in ("pending", "playing"):
        raise Conflict(
            f"table {table_no} is not a paper match in play", "table_not_in_play", table=table_no
        )
    home, away = x.home_score or 0, x.away_score or 0
    x.winner_id = _winner(t, rnd, x, home, away, winner_id)
    x.home_score, x.away_score, x.status, x.finished_at = home, away, "done", utcnow()
    audit(db, t, user, "result", f"round {rnd.number} table {table_no}", None, snapshot(x))
    await db.commit()
    return snapshot(x) | {"number": x.number, "round": rnd.number}


def finishes_at_totals(settings: dict[str, Any]) -> bool:
    """True when the referee may end a paper table at its totals: a match limited by time
    or by a number of deals, alone or beside a target (a match only to a target ends
    when a team reaches it)."""
    return any(limit is not None for limit in config.match_limits(settings))


async def reopen_table(
    db: AsyncSession,
    tournament_id: int,
    table_no: int,
    user: User,
    reason: str,
    round_no: int | None = None,
) -> dict[str, Any]:
    """Undo a paper table's finish: the match is in play again at its totals, with no
    winner, and takes deals (a finish too early, a result entered on the wrong table).
    Needs a ``reason``; leaves a ``reopen`` audit entry (before, after, why). Returns the
    table's snapshot. Raises NotFound, Forbidden, Unprocessable (``correction_reason``)
    or Conflict (``table_not_reopenable``: not a finished paper match of an open round,
    or a forfeit)."""
    t = await for_organiser(db, tournament_id, user)
    rnd, x = await find_table(db, t, table_no, round_no)
    if (
        x.mode != "paper"
        or x.away_id is None
        or x.status != "done"
        or x.forfeit
        or rnd.status != "published"
    ):
        raise Conflict(
            f"table {table_no} cannot be reopened: only a finished paper match of the open "
            "round can",
            "table_not_reopenable",
            table=table_no,
        )
    if not reason.strip():
        raise Unprocessable("a correction needs a reason", "correction_reason")
    before = snapshot(x)
    x.status, x.winner_id, x.finished_at = "playing", None, None
    audit(
        db,
        t,
        user,
        "reopen",
        f"round {rnd.number} table {table_no}",
        before,
        snapshot(x),
        reason.strip(),
    )
    await db.commit()
    return snapshot(x) | {"number": x.number, "round": rnd.number}


# ---------------------------------------------------------------- online tables and withdrawals


def limit_reached(t: Tournament, x: TournamentTable, played: int) -> bool:
    """True when an online table's match must stop after ``played`` deals (void ones
    included): the match definition's number of deals, or its time limit once a deal
    has been played, whichever comes first (docs/tournaments.md "Match definition")."""
    deals, minutes = config.match_limits(t.settings)
    if deals is not None and played >= deals:
        return True
    if minutes is not None and x.started_at is not None:
        return played > 0 and utcnow() >= as_utc(x.started_at) + timedelta(minutes=minutes)
    return False


async def may_deal(db: AsyncSession, room_id: int, played: int) -> bool:
    """The room's deal guard (registered in app/core/hooks.py by app/tournaments/wiring.py): False when the room is an
    online table whose match has reached its limit or is already recorded, so the
    server stops it instead of dealing again (however fast the bots play)."""
    row = (
        await db.execute(
            select(TournamentTable, Tournament)
            .join(Round, Round.id == TournamentTable.round_id)
            .join(Tournament, Tournament.id == Round.tournament_id)
            .where(TournamentTable.room_id == room_id)
        )
    ).first()
    if row is None:
        return True  # a friendly room
    # a table already recorded (a read may sync it between the runner's checks) deals no more
    return row[0].status == "playing" and not limit_reached(row[1], row[0], played)


async def sync_table(db: AsyncSession, t: Tournament, x: TournamentTable) -> bool:
    """Bring an online table up to date from its room: record the result when the match
    is over, or stop it between deals once the deal count or time limit is reached.
    The scores are the match's as played; the winner is the room's, else the side
    ahead, except after a resignation: the resigning side lost, whatever the score
    (docs/server.md "After the match"). Returns True when the table changed."""
    if x.mode != "online" or x.status != "playing" or x.room_id is None:
        return False
    view = await rooms.get_view(db, x.room_id, None)
    over = view.get("phase") == "over" or view.get("status") == "finished"
    between = view.get("phase") in ("deal", "over")
    if not over and between:
        over = limit_reached(t, x, len(view.get("sheet") or []))
        if over:
            await rooms.end_match(db, x.room_id)
    if not over:
        return False
    scores = view.get("recorded_scores") or view.get("scores") or [0, 0]
    x = await db.get(TournamentTable, x.id, populate_existing=True) or x
    if x.status != "playing":
        return False
    x.home_score, x.away_score = _capped(t, int(scores[0])), _capped(t, int(scores[1]))
    winner = view.get("winner")
    ended = view.get("ended") or {}
    resigned = ended.get("resigned_seat") if ended.get("reason") == "resigned" else None
    if x.third_id is not None:  # three each for himself: seat k is entrant k
        x.third_score = _capped(t, int(scores[2]))
        if resigned is not None:  # the resigner lost: the higher of the other two won
            x.winner_id = _winner_after_resignation(x, resigned)
        elif winner in (0, 1, 2) and view.get("phase") == "over":
            x.winner_id = seats_of(x)[winner]
        else:
            x.winner_id = single_highest(x, [int(v) for v in scores[:3]])
    elif resigned is not None:  # the resigning side lost, whatever the score
        x.winner_id = x.away_id if rules.GAMES[t.game].team_of(resigned) == 0 else x.home_id
    elif winner in (0, 1) and view.get("phase") == "over":
        x.winner_id = x.home_id if winner == 0 else x.away_id
    else:
        leader = rules.leading_team(scores)
        x.winner_id = None if leader is None else (x.home_id, x.away_id)[leader]
    x.status, x.finished_at = "done", utcnow()
    await db.commit()
    return True


async def sync_round(db: AsyncSession, t: Tournament, rnd: Round) -> int:
    """Sync every online table of a published round; returns how many changed."""
    changed = 0
    for x in await tables_in(db, rnd.id):
        changed += await sync_table(db, t, x)
    return changed


async def settle_withdrawal(
    db: AsyncSession, t: Tournament, team: Team, remaining: str, user: User
) -> None:
    """A withdrawn team's matches not yet played are forfeited or removed (uncommitted);
    unpublished drafts are dropped so the next preview leaves the team out."""
    for rnd in await rounds_of(db, t.id):
        if rnd.status == "draft":
            for x in await tables_in(db, rnd.id):
                await db.delete(x)
            await db.delete(rnd)
            continue
        if rnd.status != "published":
            continue
        for x in await tables_in(db, rnd.id):
            if team.id not in (x.home_id, x.away_id, x.third_id) or x.status not in (
                "pending",
                "playing",
            ):
                continue
            if x.room_id is not None:
                await rooms.end_match(db, x.room_id)
            # a table of three has no forfeit (whom would it give first place?): removed
            if remaining == "remove" or x.away_id is None or x.third_id is not None:
                x.status = "void"
            else:
                x.status, x.forfeit = "done", True
                x.winner_id = x.away_id if x.home_id == team.id else x.home_id
                x.home_score = x.away_score = 0
                x.finished_at = utcnow()


async def table_detail(
    db: AsyncSession, tournament_id: int, table_no: int, round_no: int | None = None
) -> dict[str, Any]:
    """A table with its teams and its score sheet: ``{round, bracket (a knockout round's
    places, ``pairing.bracket_places``), number, home, away, mode,
    status, room_id, home_score, away_score, winner, forfeit, deals: [{deal, summary,
    points, outcome, totals_after}]}``. Raises NotFound."""
    t = await load(db, tournament_id)
    rnd, x = await find_table(db, t, table_no, round_no)
    await sync_table(db, t, x)
    teams = {team.id: team for team in await teams_of(db, t.id)}
    deals = await deals_of(db, x.id)
    sheet = score_sheet(t, [d.summary for d in deals]) if deals else []
    for line, d in zip(sheet, deals, strict=True):
        line["summary"] = d.summary

    def side(team_id: int | None) -> dict[str, Any] | None:
        team = teams.get(team_id) if team_id else None
        return (
            {
                "id": team.id,
                "name": team.name,
                "players": [p for p in (team.player1, team.player2) if p],
            }
            if team
            else None
        )

    return {
        "round": rnd.number,
        "round_status": rnd.status,
        "bracket": bracket_places(rnd.stage, len(await tables_in(db, rnd.id))),
        "number": x.number,
        "home": side(x.home_id),
        "away": side(x.away_id),
        "mode": x.mode,
        "status": x.status,
        "room_id": x.room_id,
        "home_score": x.home_score,
        "away_score": x.away_score,
        "winner": x.winner_id,
        "forfeit": x.forfeit,
        "deals": sheet,
    } | (
        {"third": side(x.third_id), "third_score": x.third_score} if x.third_id is not None else {}
    )


async def withdraw_team(
    db: AsyncSession,
    tournament_id: int,
    team_id: int,
    user: User,
    remaining: str = "forfeit",
    reason: str = "",
) -> dict[str, Any]:
    """Withdraw a team. Its matches not yet played are ``forfeit`` (won by the
    opponent, match points only) or ``remove``d (they do not count for anyone); its
    results so far stay. Swiss and knockout pair it no more. Raises NotFound,
    Forbidden, Conflict (already withdrawn) or Unprocessable (``remaining``)."""
    t = await for_organiser(db, tournament_id, user)
    if remaining not in ("forfeit", "remove"):
        raise Unprocessable(
            "remaining matches are either 'forfeit' or 'remove'", "withdraw_remaining"
        )
    team = await db.get(Team, team_id)
    if team is None or team.tournament_id != t.id:
        raise NotFound(f"there is no team {team_id} in this tournament", "no_team", team=team_id)
    if team.status == "withdrawn":
        raise Conflict(f"{team.name} has already withdrawn", "team_withdrawn", team=team.name)
    closed = [r.number for r in await rounds_of(db, t.id) if r.status == "closed"]
    team.status = "withdrawn"
    team.withdrawn_after = max(closed, default=0)
    t.settings = {
        **t.settings,
        "withdrawals": {**t.settings.get("withdrawals", {}), str(team.id): remaining},
    }
    await settle_withdrawal(db, t, team, remaining, user)
    audit(db, t, user, "withdraw", team.name, after={"remaining": remaining}, reason=reason)
    await db.commit()
    return team_out(team)
