"""What everybody sees: standings with their tie-break values, the club ranking, a
team's history, the audit trail, and the CSV exports. Read-only, except that open
online tables are synced first, so a finished match counts at once."""

from __future__ import annotations

import csv
import io
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app import rules
from app.accounts.models import User
from app.core.errors import NotFound
from app.core.hooks import RoomLabel
from app.tournaments.models import AuditEntry, Organiser, Round, Tournament, TournamentTable
from app.tournaments.results import (
    counts,
    group_standings,
    removed_teams,
    results_of,
    scores_of,
    seats_of,
    sync_round,
    tables_in,
    tables_of_three,
)
from app.tournaments.service import club_names, load, rounds_of, team_out, teams_of
from app.tournaments.standings import (
    TIEBREAKS,
    club_ranking,
    explain,
    explain_three,
    standings,
    standings_three,
)
from app.web import i18n


async def rooms_in_tournaments(db: AsyncSession, room_ids: list[int]) -> dict[int, RoomLabel]:
    """room id -> ``{tournament_id, tournament, round, table}`` for the rooms among
    ``room_ids`` that are a championship's online table (the lobby shows it). One query."""
    if not room_ids:
        return {}
    rows = await db.execute(
        select(
            TournamentTable.room_id,
            Tournament.id,
            Tournament.name,
            Round.number,
            TournamentTable.number,
        )
        .join(Round, Round.id == TournamentTable.round_id)
        .join(Tournament, Tournament.id == Round.tournament_id)
        .where(TournamentTable.room_id.in_(room_ids))
    )
    return {
        room: {"tournament_id": tid, "tournament": name, "round": rnd, "table": number}
        for room, tid, name, rnd, number in rows.all()
        if room is not None  # the IN list holds no NULL: for the type
    }


async def room_organisers(db: AsyncSession, room_id: int) -> set[int]:
    """The organisers (owner and co-organisers) of the championship whose online table is
    ``room_id`` (none for another room): they may hide its chat messages (app/chat)."""
    rows = await db.scalars(
        select(Organiser.user_id)
        .join(Round, Round.tournament_id == Organiser.tournament_id)
        .join(TournamentTable, TournamentTable.round_id == Round.id)
        .where(TournamentTable.room_id == room_id)
    )
    return set(rows.all())


async def _sync(db: AsyncSession, t: Tournament) -> None:
    for rnd in await rounds_of(db, t.id):
        if rnd.status == "published":
            await sync_round(db, t, rnd)


async def standings_of(db: AsyncSession, tournament_id: int) -> dict[str, Any]:
    """``{tournament, order: [sentences], tiebreaks: [{name, label}], rows: [row + team],
    clubs: [club ranking], groups: [...] (groups format)}``. Raises NotFound."""
    t = await load(db, tournament_id)
    await _sync(db, t)
    teams = await teams_of(db, t.id)
    clubs = await club_names(db, {x.club_id for x in teams if x.club_id})
    by_id = {x.id: team_out(x, clubs) for x in teams}
    three = rules.GAMES[t.game].sides == 3
    if three:  # each for himself: ranked by match points or by points, the organiser's choice
        ranked_by = t.settings.get("ranking", "match_points")
        rows = standings_three(
            [x.id for x in teams], await tables_of_three(db, t.id), ranked_by, t.settings["points"]
        )
    else:
        rows = standings(
            [x.id for x in teams],
            await results_of(db, t.id),
            t.settings["tiebreaks"],
            t.settings["points"],
        )
    out_rows = [r.as_dict() | {"team": by_id[r.team]} for r in rows]
    ranking = club_ranking(rows, {x.id: x.club_id for x in teams})
    for c in ranking:
        c["club"] = clubs[c["club"]]
    groups = []
    if t.format == "groups_knockout":
        for g in await group_standings(db, t):
            groups.append(
                {"group": g["group"], "rows": [r | {"team": by_id[r["team"]]} for r in g["rows"]]}
            )
    if three:
        return {
            "tournament": {"id": t.id, "name": t.name, "status": t.status},
            "ranking": ranked_by,
            "order": explain_three(ranked_by),
            # the columns shown beside the match points: points scored, first places
            "tiebreaks": [{"name": n, "label": TIEBREAKS[n]} for n in ("points_scored", "wins")],
            "points": t.settings["points"],
            "rows": out_rows,
            "clubs": ranking,
            "groups": [],
        }
    return {
        "tournament": {"id": t.id, "name": t.name, "status": t.status},
        "order": explain(t.settings["tiebreaks"]),
        "tiebreaks": [{"name": n, "label": TIEBREAKS[n]} for n in t.settings["tiebreaks"]],
        "points": t.settings["points"],
        "rows": out_rows,
        "clubs": ranking,
        "groups": groups,
    }


async def team_history(db: AsyncSession, tournament_id: int, team_id: int) -> dict[str, Any]:
    """A team's matches round by round: ``{team, matches: [{round, table, opponent,
    side, score_for, score_against, outcome, forfeit, status}]}``. Raises NotFound."""
    t = await load(db, tournament_id)
    teams = {x.id: x for x in await teams_of(db, t.id)}
    if team_id not in teams:
        raise NotFound(f"there is no team {team_id} in this tournament", "no_team", team=team_id)
    clubs = await club_names(db, {x.club_id for x in teams.values() if x.club_id})
    matches = []
    for rnd in await rounds_of(db, t.id):
        if rnd.status == "draft":
            continue
        for x in await tables_in(db, rnd.id):
            if x.third_id is not None and team_id in seats_of(x):
                matches.append(_at_three(rnd.number, x, team_id, teams))
                continue
            if team_id not in (x.home_id, x.away_id):
                continue
            home = x.home_id == team_id
            other = x.away_id if home else x.home_id
            mine, theirs = (x.home_score, x.away_score) if home else (x.away_score, x.home_score)
            if x.status != "done":
                outcome = "removed" if x.status == "void" else "playing"
            elif other is None:
                outcome = "bye"
            else:
                outcome = (
                    "draw" if x.winner_id is None else ("won" if x.winner_id == team_id else "lost")
                )
            matches.append(
                {
                    "round": rnd.number,
                    "table": x.number,
                    "mode": x.mode,
                    "opponent": {"id": other, "name": teams[other].name} if other else None,
                    "side": "home" if home else "away",
                    "score_for": mine,
                    "score_against": theirs,
                    "outcome": outcome,
                    "forfeit": x.forfeit,
                    "status": x.status,
                }
            )
    return {"team": team_out(teams[team_id], clubs), "matches": matches}


async def crosstable(db: AsyncSession, tournament_id: int) -> dict[str, Any]:
    """Every team against every other, in the standings' order, as a spreadsheet or
    Challonge shows it: ``{tournament, teams: [{rank, team}], cells: [[[{round, for,
    against, outcome ("won"|"lost"|"draw"|"playing"|"removed"), forfeit}]]]}`` where
    ``cells[i][j]`` lists the matches of the i-th team against the j-th, seen from the i-th
    (several in a double round robin or a knockout rematch; empty on the diagonal and for
    teams that have not met). Byes are not in it (the standings count them). Three players
    each for himself have no crosstable: ``teams`` and ``cells`` are empty and ``three`` is
    True. Raises NotFound."""
    data = await standings_of(db, tournament_id)
    t = await load(db, tournament_id)
    three = rules.GAMES[t.game].sides == 3
    order = [r["team"]["id"] for r in data["rows"]]
    index = {team: i for i, team in enumerate(order)}
    cells: list[list[list[dict[str, Any]]]] = [[[] for _ in order] for _ in order]
    removed = removed_teams(t)
    for rnd in [] if three else await rounds_of(db, t.id):
        if rnd.status == "draft":
            continue
        for x in await tables_in(db, rnd.id):
            if x.away_id is None or x.home_id not in index or x.away_id not in index:
                continue
            for me, other, mine, theirs in (
                (x.home_id, x.away_id, x.home_score, x.away_score),
                (x.away_id, x.home_id, x.away_score, x.home_score),
            ):
                if x.status == "void" or (x.status == "done" and not counts(x, removed)):
                    outcome = "removed"
                elif x.status != "done":
                    outcome = "playing"
                elif x.winner_id is None:
                    outcome = "draw"
                else:
                    outcome = "won" if x.winner_id == me else "lost"
                cells[index[me]][index[other]].append(
                    {
                        "round": rnd.number,
                        "for": mine,
                        "against": theirs,
                        "outcome": outcome,
                        "forfeit": x.forfeit,
                    }
                )
    return {
        "tournament": data["tournament"],
        "three": three,
        "teams": [] if three else [{"rank": r["rank"], "team": r["team"]} for r in data["rows"]],
        "cells": [] if three else cells,
    }


def _at_three(number: int, x: TournamentTable, me: int, teams: dict[int, Any]) -> dict[str, Any]:
    """A player's table of three in his history: the two others (``opponents``), his
    seat, his score and the highest of theirs; won (the single highest), draw (the
    highest shared) or lost."""
    seats, scores = seats_of(x), scores_of(x)
    mine = seats.index(me)
    others = [i for i in range(3) if i != mine]
    if x.status != "done":
        outcome = "removed" if x.status == "void" else "playing"
    elif x.winner_id == me:
        outcome = "won"
    elif x.winner_id is None and scores[mine] == max(scores):
        outcome = "draw"
    else:
        outcome = "lost"
    played = x.home_score is not None
    return {
        "round": number,
        "table": x.number,
        "mode": x.mode,
        "opponent": None,
        "opponents": [{"id": seats[i], "name": teams[seats[i]].name} for i in others],
        "side": ("home", "away", "third")[mine],
        "score_for": scores[mine] if played else None,
        "score_against": max(scores[i] for i in others) if played else None,
        "outcome": outcome,
        "forfeit": x.forfeit,
        "status": x.status,
    }


#: Audit actions whose reason is private: shown to the organisers only (a withdrawal's
#: reason may be an illness or a quarrel).
PRIVATE_REASONS = frozenset({"withdraw", "request_declined"})


async def audit_trail(
    db: AsyncSession, tournament_id: int, organiser: bool = True
) -> list[dict[str, Any]]:
    """The organisers' changes, newest first: ``[{at, user, action, subject, before, after,
    reason, private}]``. For anyone but an organiser (``organiser`` False) the private
    fields (``PRIVATE_REASONS``) are left empty and ``private`` is True. Raises NotFound."""
    await load(db, tournament_id)
    rows = (
        await db.execute(
            select(AuditEntry, User.nickname)
            .outerjoin(User, User.id == AuditEntry.user_id)
            .where(AuditEntry.tournament_id == tournament_id)
            .order_by(AuditEntry.id.desc())
        )
    ).all()
    return [
        {
            "at": a.at.isoformat(),
            "user": nick,
            "action": a.action,
            "subject": a.subject,
            "before": a.before,
            "after": a.after,
            "reason": a.reason if organiser or a.action not in PRIVATE_REASONS else "",
            "private": not organiser and a.action in PRIVATE_REASONS and bool(a.reason),
        }
        for a, nick in rows
    ]


#: First characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection").
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """``value`` safe for a spreadsheet: a text that starts like a formula gets a leading
    apostrophe (``"=SUM(A1)"`` -> ``"'=SUM(A1)"``); numbers and other texts are unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


#: A sheet: its header and its lines (numbers stay numbers, texts stay texts).
Sheet = tuple[list[str], list[list[Any]]]

#: The separators a CSV export offers: ``comma`` (RFC 4180) or ``semicolon`` (what a
#: spreadsheet set to Spanish, Catalan or French reads, with a decimal comma).
CSV_SEPARATORS = ("comma", "semicolon")


def to_csv(sheet: Sheet, sep: str = "comma") -> str:
    """``sheet`` as CSV text that opens right in a spreadsheet: it starts with a UTF-8
    byte order mark (so Excel reads "València" as UTF-8), formula-like texts are defused
    (``csv_cell``), and with ``sep="semicolon"`` the cells are separated by ``;`` and a
    fraction is written with a decimal comma (``2.5`` -> ``"2,5"``), as a Spanish locale
    expects. Raises ValueError for another ``sep``."""
    if sep not in CSV_SEPARATORS:
        raise ValueError(f"unknown separator {sep!r}")
    semicolon = sep == "semicolon"
    header, lines = sheet
    buffer = io.StringIO()
    buffer.write("\ufeff")
    writer = csv.writer(buffer, delimiter=";" if semicolon else ",")
    writer.writerow(header)
    for line in lines:
        cells = [csv_cell(v) for v in line]
        if semicolon:
            cells = [str(v).replace(".", ",") if isinstance(v, float) else v for v in cells]
        writer.writerow(cells)
    return buffer.getvalue()


def to_xlsx(sheet: Sheet, title: str) -> bytes:
    """``sheet`` as an Excel workbook (one worksheet named ``title``, cut to Excel's 31
    characters), written with XlsxWriter: numbers are stored as numbers, texts as texts
    (never as formulas), the header bold and frozen."""
    header, lines = sheet
    out = io.BytesIO()
    import xlsxwriter  # here, not at the server's start (a fifth of a second)

    book = xlsxwriter.Workbook(out, {"in_memory": True, "strings_to_formulas": False})
    ws = book.add_worksheet(title[:31])
    bold = book.add_format({"bold": True})
    ws.write_row(0, 0, header, bold)
    for i, line in enumerate(lines, start=1):
        for j, value in enumerate(line):
            if isinstance(value, bool) or not isinstance(value, int | float):
                ws.write_string(i, j, "" if value is None else str(value))
            else:
                ws.write_number(i, j, value)
    ws.freeze_panes(1, 0)
    book.close()
    return out.getvalue()


#: The exports' column keys and their words for people (``header_words``).
HEADER_WORDS = {
    "rank": i18n.N_("Rank"),
    "group": i18n.N_("Group"),
    "team": i18n.N_("Team"),
    "club": i18n.N_("Club"),
    "players": i18n.N_("Players"),
    "played": i18n.N_("Played"),
    "won": i18n.N_("Won"),
    "drawn": i18n.N_("Drawn"),
    "lost": i18n.N_("Lost"),
    "byes": i18n.N_("Byes"),
    "match_points": i18n.N_("Match points"),
    "points_for": i18n.N_("Points for"),
    "points_against": i18n.N_("Points against"),
    "point_difference": i18n.N_("Point difference"),
    "buchholz": i18n.N_("Buchholz"),
    "head_to_head": i18n.N_("Head-to-head"),
    "status": i18n.N_("Status"),
    "round": i18n.N_("Round"),
    "stage": i18n.N_("Stage"),
    "table": i18n.N_("Table"),
    "home": i18n.N_("Home"),
    "away": i18n.N_("Away"),
    "mode": i18n.N_("Mode"),
    "home_score": i18n.N_("Home score"),
    "away_score": i18n.N_("Away score"),
    "winner": i18n.N_("Winner"),
    "forfeit": i18n.N_("Forfeit"),
    "third": i18n.N_("Third"),
    "third_score": i18n.N_("Third score"),
}


def header_words(sheet: Sheet) -> Sheet:
    """``sheet`` with its header row in the language of the request (the page's, from
    ``?lang=``, the cookie or Accept-Language: app/web/i18n.py): "Punts de partida" for
    ``match_points`` in Catalan. English, the API's language, keeps the column keys
    programs read (``rank``, ``match_points``...). The cells are unchanged."""
    header, lines = sheet
    if i18n.current() == i18n.DEFAULT:
        return sheet
    return [i18n.gettext(HEADER_WORDS[k]) if k in HEADER_WORDS else k for k in header], lines


def group_letter(group: int | None) -> str:
    """A group's letter on the pages and in the exports: 1 -> "A", None -> ""."""
    return "ABCDEFGHIJKLMNOP"[group - 1] if group else ""


async def standings_sheet(db: AsyncSession, tournament_id: int) -> Sheet:
    """The standings as a sheet (``to_csv``, ``to_xlsx``): rank, team, club, counts, match
    points and every tie-break value; a ``group`` column (its letter) after the rank once
    the teams are drawn into groups. Raises NotFound."""
    data = await standings_of(db, tournament_id)
    header = [
        "rank",
        "team",
        "club",
        "players",
        "played",
        "won",
        "drawn",
        "lost",
        "byes",
        "match_points",
        "points_for",
        "points_against",
        "point_difference",
        "buchholz",
        "head_to_head",
        "status",
    ]
    lines = [
        [
            r["rank"],
            r["team"]["name"],
            r["team"]["club"] or "",
            " & ".join(r["team"]["players"]),
            r["played"],
            r["won"],
            r["drawn"],
            r["lost"],
            r["byes"],
            r["match_points"],
            r["points_for"],
            r["points_against"],
            r["point_difference"],
            r["buchholz"],
            "" if r["head_to_head"] is None else r["head_to_head"],
            r["team"]["status"],
        ]
        for r in data["rows"]
    ]
    if any(r["team"]["group"] for r in data["rows"]):  # groups: the team's group after its rank
        header.insert(1, "group")
        for line, r in zip(lines, data["rows"], strict=True):
            line.insert(1, group_letter(r["team"]["group"]))
    return header, lines


async def results_sheet(db: AsyncSession, tournament_id: int) -> Sheet:
    """Every published table as a sheet: round, stage, table, teams, mode, status, scores,
    winner (and the third player and score in a three-player game; a ``group`` column
    after the stage once the teams are drawn into groups). Raises NotFound."""
    t = await load(db, tournament_id)
    entered = await teams_of(db, t.id)
    teams = {x.id: x.name for x in entered}
    group_of = {x.id: x.group_no for x in entered}
    grouped = any(group_of.values())
    three = rules.GAMES[t.game].sides == 3
    lines = []
    for rnd in await rounds_of(db, t.id):
        if rnd.status == "draft":
            continue
        for x in await tables_in(db, rnd.id):
            lines.append(
                [
                    rnd.number,
                    rnd.stage,
                    x.number,
                    teams[x.home_id],
                    teams.get(x.away_id, "") if x.away_id else "(bye)",
                    x.mode,
                    x.status,
                    "" if x.home_score is None else x.home_score,
                    "" if x.away_score is None else x.away_score,
                    teams.get(x.winner_id, "") if x.winner_id else "",
                    "yes" if x.forfeit else "",
                ]
            )
            if grouped:  # a group match's group after the stage; none in the knockout
                lines[-1].insert(
                    2, group_letter(group_of[x.home_id]) if rnd.stage == "group" else ""
                )
            if three:  # three each for himself: the third player and score last
                lines[-1] += [
                    teams.get(x.third_id, "") if x.third_id else "",
                    "" if x.third_score is None else x.third_score,
                ]
    head = [
        "round",
        "stage",
        "table",
        "home",
        "away",
        "mode",
        "status",
        "home_score",
        "away_score",
        "winner",
        "forfeit",
    ]
    if grouped:
        head.insert(2, "group")
    return head + (["third", "third_score"] if three else []), lines
