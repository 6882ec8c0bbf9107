"""Rounds: the pairing preview (a draft), publishing it (rooms for online tables), closing.

One round is open at a time: the next is previewed only once the previous one is
closed, so a team never sits at two live tables; publishing checks it again. A
round cannot close while a table is playing. The pairing rules are in pairing.py.
"""

from __future__ import annotations

from datetime import timedelta
from itertools import combinations
from typing import Any

from sqlalchemy import delete, update
from sqlalchemy.ext.asyncio import AsyncSession

from app import rules
from app.accounts.models import User
from app.core.db import utcnow
from app.core.errors import Conflict, Unprocessable
from app.rooms import service as rooms
from app.tournaments import config, pairing
from app.tournaments.models import Round, Team, Tournament, TournamentTable
from app.tournaments.results import (
    deals_of,
    group_standings,
    results_of,
    sync_round,
    tables_in,
    tables_of_three,
)
from app.tournaments.service import (
    audit,
    for_organiser,
    load,
    lock,
    players_per_team,
    rounds_of,
    teams_of,
)
from app.tournaments.standings import standings, standings_three


def table_out(
    table: TournamentTable, teams: dict[int, Team], minutes: int | None = None
) -> dict[str, Any]:
    """A table's public shape."""

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

    deadline = None
    if minutes and table.started_at is not None:
        deadline = (table.started_at + timedelta(minutes=minutes)).isoformat()
    out = {
        "number": table.number,
        "home": side(table.home_id),
        "away": side(table.away_id),
        "mode": table.mode,
        "room_id": table.room_id,
        "status": table.status,
        "home_score": table.home_score,
        "away_score": table.away_score,
        "winner": table.winner_id,
        "forfeit": table.forfeit,
        "started_at": table.started_at.isoformat() if table.started_at else None,
        "deadline": deadline,
    }
    if table.third_id is not None:  # a table of three players each for himself
        out |= {"third": side(table.third_id), "third_score": table.third_score}
    return out


async def round_out(
    db: AsyncSession, t: Tournament, rnd: Round, teams: dict[int, Team] | None = None
) -> dict[str, Any]:
    """``{number, stage, status, bracket, tables: [...]}``; ``bracket`` is the number of
    places of a knockout round (``pairing.bracket_places``), None for another stage."""
    if teams is None:
        teams = {team.id: team for team in await teams_of(db, t.id)}
    _deals, minutes = config.match_limits(t.settings)
    tables = await tables_in(db, rnd.id)
    return {
        "number": rnd.number,
        "stage": rnd.stage,
        "status": rnd.status,
        "bracket": pairing.bracket_places(rnd.stage, len(tables)),
        "tables": [table_out(x, teams, minutes) for x in tables],
    }


def podium(rounds: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The knockout's outcome once its final is decided, from ``list_rounds``' rounds:
    ``{champion, runner_up, semi_finalists: [team, ...]}`` (teams as ``table_out`` gives
    them; ``runner_up`` None for a final won by a bye given by hand; ``semi_finalists``
    the two losers of the semi-finals, who share third place: the format plays no match
    for third). None before the final has a winner, and for a format without a knockout.
    The final is the knockout round of one table (``knockout_next_round`` pairs the
    winners two by two, so a round of one table has no next)."""
    knockout = [r for r in rounds if r["stage"] == "knockout" and r["status"] != "draft"]
    if not knockout or len(knockout[-1]["tables"]) != 1:
        return None
    final = knockout[-1]["tables"][0]
    if final["status"] != "done" or final["winner"] is None:
        return None
    home, away = final["home"], final["away"]
    champion, runner_up = (home, away) if final["winner"] == home["id"] else (away, home)
    semi_finalists = []
    if len(knockout) > 1 and len(knockout[-2]["tables"]) == 2:
        for x in knockout[-2]["tables"]:
            if x["away"] is not None and x["status"] == "done" and x["winner"] is not None:
                semi_finalists.append(x["away"] if x["winner"] == x["home"]["id"] else x["home"])
    return {"champion": champion, "runner_up": runner_up, "semi_finalists": semi_finalists}


async def list_rounds(
    db: AsyncSession, tournament_id: int, organiser: bool = False
) -> list[dict[str, Any]]:
    """The rounds with their tables; drafts only for organisers. Online tables are
    brought up to date first (a finished match records its result)."""
    t = await load(db, tournament_id)
    teams = {team.id: team for team in await teams_of(db, t.id)}
    out = []
    for rnd in await rounds_of(db, t.id):
        if rnd.status == "draft" and not organiser:
            continue
        if rnd.status == "published":
            await sync_round(db, t, rnd)
        out.append(await round_out(db, t, rnd, teams))
    return out


# ---------------------------------------------------------------- the next pairing


def _winner_of(table: TournamentTable) -> int:
    if table.away_id is None:
        return table.home_id
    if table.winner_id is None:
        raise Conflict(
            f"table {table.number} has no winner yet: a knockout match needs one",
            "knockout_no_winner",
            table=table.number,
        )
    return table.winner_id


def is_three(t: Tournament) -> bool:
    """True for a championship of three players each for himself (Belote for three)."""
    return rules.GAMES[t.game].sides == 3


async def _next_pairs(
    db: AsyncSession, t: Tournament, teams: list[Team], rounds: list[Round]
) -> tuple[str, list[pairing.Pair] | list[pairing.Triple]]:
    """The stage and pairs (triples, at tables of three) of the next round. Raises
    Conflict when the tournament is complete."""
    done = [r for r in rounds if r.status == "closed"]
    active = [team.id for team in teams if team.status == "active"]
    try:
        if is_three(t):  # a Swiss in threes (config.clean allows no other format)
            if len(done) >= config.swiss_rounds(t.settings, len(active)):
                raise Conflict("every Swiss round has been played", "swiss_played")
            rows = standings_three(
                [x.id for x in teams],
                await tables_of_three(db, t.id),
                t.settings.get("ranking", "match_points"),
                t.settings["points"],
            )
            ranked = [r.team for r in rows if r.team in set(active)]
            met: set[frozenset[int]] = set()
            had_bye: set[int] = set()
            for x in await tables_of_three(db, t.id):
                if len(x.players) == 1:
                    had_bye.add(x.players[0])
                met |= {frozenset(p) for p in combinations(x.players, 2)}
            return "swiss", pairing.swiss_triples(ranked, met, had_bye)
        if t.format == "round_robin":
            schedule = pairing.berger_rounds(
                [x.id for x in teams if not x.late], t.settings.get("return_leg", False)
            )
            if len(done) >= len(schedule):
                raise Conflict(
                    "every round of the round robin has been played", "round_robin_played"
                )
            return "league", schedule[len(done)]
        if t.format == "swiss":
            if len(done) >= config.swiss_rounds(t.settings, len(active)):
                raise Conflict("every Swiss round has been played", "swiss_played")
            results = await results_of(db, t.id)
            rows = standings(
                [x.id for x in teams], results, t.settings["tiebreaks"], t.settings["points"]
            )
            ranked = [r.team for r in rows if r.team in set(active)]
            mp = {r.team: r.match_points for r in rows}
            met = {frozenset((r.home, r.away)) for r in results if r.away is not None}
            had_bye = {r.home for r in results if r.away is None}
            return "swiss", pairing.swiss_round(ranked, mp, met, had_bye, _clubs(t, teams))
        if t.format == "groups_knockout":
            groups = _groups(teams)
            schedules = [
                pairing.berger_rounds(g, t.settings.get("return_leg", False)) for g in groups
            ]
            length = max(len(s) for s in schedules)
            if len(done) < length:
                return "group", [p for s in schedules if len(done) < len(s) for p in s[len(done)]]
            ko_done = [r for r in done if r.stage == "knockout"]
            if not ko_done:
                places = [[row["team"] for row in g["rows"]] for g in await group_standings(db, t)]
                seeded = pairing.qualifier_seeding(places, t.settings.get("advance", 2))
                return "knockout", pairing.knockout_first_round(seeded)
            return "knockout", await _knockout_next(db, ko_done[-1])
        # knockout
        if not done:
            return "knockout", pairing.knockout_first_round(active)
        return "knockout", await _knockout_next(db, done[-1])
    except pairing.PairingError as exc:
        raise Conflict(str(exc), "no_pairing") from None


async def _knockout_next(db: AsyncSession, last: Round) -> list[pairing.Pair]:
    tables = await tables_in(db, last.id)
    winners = [_winner_of(x) for x in tables]
    if len(winners) == 1:
        raise Conflict("the final has been played: the tournament is complete", "final_played")
    return pairing.knockout_next_round(winners)


def _clubs(t: Tournament, teams: list[Team]) -> pairing.Clubs | None:
    """Each team's club when the championship keeps clubmates apart (``avoid_same_club``,
    on unless the organiser turned it off), else None."""
    if not t.settings.get("avoid_same_club", True):
        return None
    return {x.id: x.club_id for x in teams}


def _groups(teams: list[Team]) -> list[list[int]]:
    count = max((x.group_no or 0) for x in teams)
    return [[x.id for x in teams if x.group_no == g] for g in range(1, count + 1)]


async def preview(db: AsyncSession, tournament_id: int, user: User) -> dict[str, Any]:
    """Generate the next round as a draft (replacing an unpublished draft): table
    numbers, byes, and each table's mode from the tournament's ``play`` setting (online
    only where both teams have their accounts or are bots; paper otherwise).
    Only organisers see it until it is published. Raises Conflict while a round is
    open, before two teams are entered, or when every round has been played."""
    t = await for_organiser(db, tournament_id, user)
    rounds = await rounds_of(db, t.id)
    if any(r.status == "published" for r in rounds):
        raise Conflict("close the current round before pairing the next one", "close_round_first")
    if t.status == "finished":
        raise Conflict("the tournament is finished", "tournament_finished")
    teams = await teams_of(db, t.id)
    if sum(1 for x in teams if x.status == "active") < 2:
        raise Conflict("enter at least two teams first", "two_teams_first")
    if is_three(t) and sum(1 for x in teams if x.status == "active") < 3:
        raise Conflict("enter at least three players first", "three_players_first")
    if t.format == "groups_knockout" and not any(x.group_no for x in teams):
        groups = pairing.snake_groups(
            [x.id for x in teams if x.status == "active"], t.settings["groups"], _clubs(t, teams)
        )
        for number, members in enumerate(groups, 1):
            for x in teams:
                if x.id in members:
                    x.group_no = number
    for draft in [r for r in rounds if r.status == "draft"]:
        await db.execute(delete(TournamentTable).where(TournamentTable.round_id == draft.id))
        await db.delete(draft)
    await db.flush()
    stage, pairs = await _next_pairs(db, t, teams, [r for r in rounds if r.status != "draft"])
    number = max((r.number for r in rounds if r.status != "draft"), default=0) + 1
    rnd = Round(tournament_id=t.id, number=number, stage=stage, status="draft")
    db.add(rnd)
    await db.flush()
    _add_tables(db, t, rnd, teams, pairs)
    # read under the lock: once it is released, a pairing waiting for it replaces this draft
    out = await round_out(db, t, rnd)
    await db.commit()
    return out


def _add_tables(
    db: AsyncSession,
    t: Tournament,
    rnd: Round,
    teams: list[Team],
    pairs: list[pairing.Pair] | list[pairing.Triple],
) -> None:
    """Add ``pairs`` (table order) to draft ``rnd``: each table online when the
    tournament plays online and every team of it can sit (accounts or bots), else on
    paper; a bye is done at once (a win, no score); a match of a withdrawn team is a
    forfeit or removed (void), as the withdrawal said."""
    status = {x.id: x.status for x in teams}
    withdrawals = t.settings.get("withdrawals", {})
    size = players_per_team(t.game)
    # online only where both teams can sit (accounts or bots): a team of names plays on paper
    seatable = {
        x.id for x in teams if x.bot or len([u for u in (x.user1_id, x.user2_id) if u]) >= size
    }
    for n, seats in enumerate(pairs, 1):
        home, away = seats[0], seats[1]
        assert home is not None  # the first seat of a table or a bye is always someone
        third = seats[2] if len(seats) == 3 else None
        mode = t.settings.get("play", "paper")
        if mode == "online" and not set(seats) - {None} <= seatable:
            mode = "paper"
        table = TournamentTable(
            round_id=rnd.id,
            number=n,
            home_id=home,
            away_id=away,
            third_id=third,
            mode=mode,
            status="pending",
            forfeit=False,
        )
        if away is None:
            table.mode, table.status, table.winner_id = "bye", "done", home
            table.home_score = table.away_score = 0
        else:
            out = [x for x in (home, away) if status.get(x) == "withdrawn"]
            if out:  # a round robin keeps a withdrawn team's matches: forfeited or removed
                table.mode = "paper"
                if len(out) == 2 or withdrawals.get(str(out[0])) == "remove":
                    table.status = "void"
                else:
                    table.status, table.forfeit = "done", True
                    table.winner_id = away if out[0] == home else home
                    table.home_score = table.away_score = 0
        db.add(table)


async def pairing_entrants(db: AsyncSession, rnd: Round, teams: list[Team]) -> set[int]:
    """The teams a hand-edited pairing of draft ``rnd`` must seat: in a Swiss every active
    team; in a knockout the active teams of the draft as it was paired (the teams still
    in: the previous round's losers are out, though still active in the championship)."""
    active = {x.id for x in teams if x.status == "active"}
    if rnd.stage != "knockout":
        return active
    drawn = {tid for x in await tables_in(db, rnd.id) for tid in (x.home_id, x.away_id) if tid}
    return active & drawn


class PairingNeedsConfirmation(Conflict):
    """A pairing edited by hand repeats a match or a bye: ``.warnings`` lists them
    (``pairing_warnings``); sent again with ``confirm`` it is saved (409
    ``pairing_confirm``)."""

    def __init__(self, warnings: list[dict[str, Any]]) -> None:
        said = "; ".join(
            f"{w['home']} and {w['away']} already met in round {w['round']}"
            if w["kind"] == "met"
            else f"{w['team']} already had a bye in round {w['round']}"
            for w in warnings
        )
        super().__init__(
            f"this pairing repeats what was played ({said}): send it again with confirm to save it",
            "pairing_confirm",
        )
        self.warnings = warnings


async def pairing_warnings(
    db: AsyncSession,
    t: Tournament,
    rnd: Round,
    tables: list[tuple[int, int | None]],
    name: dict[int, str],
) -> list[dict[str, Any]]:
    """What the organiser's ``tables`` for draft ``rnd`` repeat of the rounds before:
    ``[{kind: "met", home, away, round}]`` for two teams that already met, ``{kind:
    "bye", team, round}`` for a bye to a team that already had one (team names; the
    round of the earlier match or bye, the first one). A Swiss looks at every round
    before; a knockout round at the knockout's rounds only (in groups then knockout,
    teams of one group have met in the group stage, as expected). Removed matches
    (void) do not count: they were not played; forfeits do (the Swiss pairing counts
    them too)."""
    met: dict[frozenset[int], int] = {}
    byes: dict[int, int] = {}
    for other in await rounds_of(db, t.id):
        if other.status == "draft" or other.id == rnd.id:
            continue
        if rnd.stage == "knockout" and other.stage != "knockout":
            continue
        for x in await tables_in(db, other.id):
            if x.status == "void":
                continue
            if x.away_id is None:
                byes.setdefault(x.home_id, other.number)
            else:
                met.setdefault(frozenset((x.home_id, x.away_id)), other.number)
    out: list[dict[str, Any]] = []
    for home, away in tables:
        if away is None:
            if home in byes:
                out.append({"kind": "bye", "team": name[home], "round": byes[home]})
        elif frozenset((home, away)) in met:
            out.append(
                {
                    "kind": "met",
                    "home": name[home],
                    "away": name[away],
                    "round": met[frozenset((home, away))],
                }
            )
    return out


async def set_pairing(
    db: AsyncSession,
    tournament_id: int,
    number: int,
    tables: list[tuple[int, int | None]],
    user: User,
    confirm: bool = False,
) -> dict[str, Any]:
    """Replace draft round ``number``'s pairing by the organiser's ``tables``: ``[(home,
    away)]`` in table order, ``away`` None for a bye given by hand. Every active team
    plays exactly once; a withdrawn team, an unknown one or a team against itself is
    refused. A repeated match, or a bye to a team that already had one, is the
    organiser's call: without ``confirm`` it raises ``PairingNeedsConfirmation`` listing
    them (``pairing_warnings``) and saves nothing; with it, it is saved. More than one
    bye is allowed. Each table's mode is set again as a preview sets it.

    Only a Swiss or a knockout round can be edited: a round robin (and the group
    stage) follows its schedule, and a table of three its own pairing. Raises Conflict
    (``round_not_draft``, ``pairing_fixed``, ``pairing_confirm``) or Unprocessable (``pairing_teams``,
    ``pairing_empty``; ``pairing_bracket`` for a knockout round whose tables, byes
    included, are not a power of two: its winners could not be paired to the final)."""
    t = await for_organiser(db, tournament_id, user)
    rnd = next((r for r in await rounds_of(db, t.id) if r.number == number), None)
    if rnd is None or rnd.status != "draft":
        raise Conflict(f"round {number} is not a draft to edit", "round_not_draft", round=number)
    if is_three(t) or rnd.stage not in ("swiss", "knockout"):
        raise Conflict(
            "a round robin follows its schedule: only a Swiss or a knockout round is edited",
            "pairing_fixed",
        )
    teams = await teams_of(db, t.id)
    active = await pairing_entrants(db, rnd, teams)
    name = {x.id: x.name for x in teams}
    named = [x for pair in tables for x in pair if x is not None]
    if not tables:
        raise Unprocessable("a round has at least one table", "pairing_empty")
    for home, away in tables:
        if home == away:
            raise Unprocessable(
                f"{name.get(home, home)} cannot play against itself",
                "pairing_self",
                team=name.get(home, str(home)),
            )
    for team in named:
        if team not in active and rnd.stage == "knockout" and team in name:
            raise Unprocessable(
                f"{name[team]} is not in this knockout round",
                "pairing_not_in_round",
                team=name[team],
            )
        if team not in active:
            raise Unprocessable(
                f"{name.get(team, team)} is not an active team of this championship",
                "pairing_not_active",
                team=name.get(team, str(team)),
            )
        if named.count(team) > 1:
            raise Unprocessable(
                f"{name[team]} is at two tables: each team plays once",
                "pairing_twice",
                team=name[team],
            )
    missing = sorted(active - set(named), key=lambda x: name[x])
    if missing:
        raise Unprocessable(
            f"{name[missing[0]]} has no table: each active team plays once (a bye is a "
            "table without an opponent)",
            "pairing_missing",
            team=name[missing[0]],
        )
    n = len(tables)
    if rnd.stage == "knockout" and n & (n - 1):
        # one team goes on from each table (a bye's team too), and the next round pairs
        # them two by two down to the final: 1, 2, 4, 8... tables (a fresh organiser's
        # 3 tables and 2 byes left 5 winners, and the championship could not go on)
        raise Unprocessable(
            f"a knockout round has 1, 2, 4, 8... tables, byes included, so that its "
            f"winners meet two by two in the next round: this pairing has {n}",
            "pairing_bracket",
            n=n,
        )
    warnings = await pairing_warnings(db, t, rnd, tables, name)
    if warnings and not confirm:
        raise PairingNeedsConfirmation(warnings)
    before = [[x.home_id, x.away_id] for x in await tables_in(db, rnd.id)]
    await db.execute(delete(TournamentTable).where(TournamentTable.round_id == rnd.id))
    await db.flush()
    _add_tables(db, t, rnd, teams, list(tables))
    audit(
        db,
        t,
        user,
        "pairing",
        f"round {number}",
        before={"tables": before},
        after={"tables": [list(pair) for pair in tables]},
    )
    await db.commit()
    return await round_out(db, t, rnd)


async def unpublish(
    db: AsyncSession, tournament_id: int, number: int, user: User
) -> dict[str, Any]:
    """Take published round ``number`` back to a draft while none of its matches has a
    result: no paper deal entered, no result recorded, no deal finished online (byes
    and a withdrawn team's forfeits do not count). The online tables' rooms are ended
    and let go (their matches had not finished a deal); the draft can be edited, paired
    again or published anew. The championship is back in registration when this was
    its first round. Raises Conflict (``round_not_open``; ``round_has_results`` naming
    the tables)."""
    t = await for_organiser(db, tournament_id, user)
    rounds = await rounds_of(db, t.id)
    rnd = next((r for r in rounds if r.number == number), None)
    if rnd is None or rnd.status != "published":
        raise Conflict(f"round {number} is not open", "round_not_open", round=number)
    withdrawn = {x.id for x in await teams_of(db, t.id) if x.status == "withdrawn"}
    tables = await tables_in(db, rnd.id)
    begun = []
    for x in tables:
        if x.away_id is None or x.status == "void":
            continue  # a bye, a removed match: nothing played
        if x.forfeit and {x.home_id, x.away_id} & withdrawn:
            continue  # a withdrawal's forfeit is made again with the draft
        if x.status == "done" or await deals_of(db, x.id):
            begun.append(x.number)
        elif x.room_id is not None:
            view = await rooms.get_view(db, x.room_id, None)
            if view.get("sheet"):
                begun.append(x.number)
    if begun:
        which = ", ".join(map(str, begun))
        raise Conflict(
            f"round {number} has results at table(s) {which}: it cannot go back to a draft",
            "round_has_results",
            round=number,
            tables=which,
        )
    made = [x.room_id for x in tables if x.room_id is not None]
    for x in tables:
        if x.away_id is not None and x.status != "void" and not x.forfeit:
            x.status, x.room_id, x.started_at = "pending", None, None
    rnd.status, rnd.published_at = "draft", None
    if not any(r.status == "closed" for r in rounds):
        t.status = "registration"
    audit(db, t, user, "unpublish", f"round {number}", after={"rooms": len(made)})
    await db.commit()
    for room_id in made:  # the round is a draft again (committed) before its rooms go
        await rooms.discard_room(db, room_id)
    return await round_out(db, t, rnd)


async def set_table_mode(
    db: AsyncSession, tournament_id: int, number: int, table_no: int, mode: str, user: User
) -> dict[str, Any]:
    """Switch a draft table between ``online`` and ``paper``. Raises Conflict unless the
    round is a draft, Unprocessable for another mode."""
    t = await for_organiser(db, tournament_id, user)
    if mode not in ("online", "paper"):
        raise Unprocessable("a table is played online or on paper", "table_mode")
    rnd = next((r for r in await rounds_of(db, t.id) if r.number == number), None)
    if rnd is None or rnd.status != "draft":
        raise Conflict(
            "only a draft round's tables can change how they are played", "draft_tables_only"
        )
    table = next((x for x in await tables_in(db, rnd.id) if x.number == table_no), None)
    if table is None or table.mode not in ("online", "paper") or table.status != "pending":
        raise Conflict(
            f"table {table_no} is not a match to be played", "table_not_a_match", table=table_no
        )
    if table.mode != mode:
        before = {"mode": table.mode}
        table.mode = mode
        audit(db, t, user, "table_mode", f"round {number} table {table_no}", before, {"mode": mode})
    await db.commit()
    return await round_out(db, t, rnd)


# ---------------------------------------------------------------- publish and close


async def _seats_for(
    db: AsyncSession, t: Tournament, team: Team
) -> list[tuple[User | None, str | None]]:
    """Who sits for ``team`` at an online table: ``(user, None)`` or ``(None, bot)`` per seat."""
    size = players_per_team(t.game)
    if team.bot:
        return [(None, team.bot)] * size
    ids = [u for u in (team.user1_id, team.user2_id) if u][:size]
    if len(ids) < size:
        raise Unprocessable(
            f"{team.name} has no player accounts for an online table: play it on paper",
            "team_no_accounts",
            team=team.name,
        )
    users = [await db.get(User, uid) for uid in ids]
    return [(u, None) for u in users]


async def publish(db: AsyncSession, tournament_id: int, number: int, user: User) -> dict[str, Any]:
    """Publish draft round ``number``: the pairings become public, the clocks start, and
    each online table gets a room (rooms service) with the teams seated — home in
    seats 0 and 2, away in 1 and 3 — and its match started.

    Once, whatever the races: under the tournament's lock the round is claimed (draft
    to published, committed) before any room is made, so a second publish finds it
    published; the rooms are made and seated before any match starts, and a refusal
    meanwhile deletes the rooms made and gives the round back to the draft (no orphan
    room). Raises Conflict (``round_no_draft``: no such draft, e.g. thrown away when a
    team was entered; ``round_not_draft``; a team or a player at two live tables) or
    Unprocessable (a team without accounts at an online table)."""
    t = await for_organiser(db, tournament_id, user)
    rounds = await rounds_of(db, t.id)
    rnd = next((r for r in rounds if r.number == number), None)
    if rnd is None:
        raise Conflict(
            f"there is no draft round {number}: a preview is thrown away when the teams "
            "change; pair the round again",
            "round_no_draft",
            round=number,
        )
    if rnd.status != "draft":
        raise Conflict(f"round {number} is not a draft to publish", "round_not_draft", round=number)
    live: set[int] = set()
    for other in rounds:
        if other.status == "published":
            for x in await tables_in(db, other.id):
                if x.status in ("pending", "playing"):
                    live |= {x.home_id, x.away_id or 0, x.third_id or 0}
    tables = await tables_in(db, rnd.id)
    mine = [
        tid
        for x in tables
        if x.status in ("pending", "playing")
        for tid in (x.home_id, x.away_id, x.third_id)
        if tid
    ]
    if live & set(mine) or len(mine) != len(set(mine)):
        raise Conflict(
            "a team would sit at two live tables: close the open round first", "team_two_tables"
        )
    teams = {x.id: x for x in await teams_of(db, t.id)}
    online = [x for x in tables if x.mode == "online" and x.status == "pending"]
    seating = {}
    for x in online:
        assert x.away_id is not None
        if x.third_id is not None:  # three each for himself: seat k for entrant k
            seating[x.id] = [
                (await _seats_for(db, t, teams[tid]))[0]
                for tid in (x.home_id, x.away_id, x.third_id)
            ]
            continue
        home, away = (
            await _seats_for(db, t, teams[x.home_id]),
            await _seats_for(db, t, teams[x.away_id]),
        )
        seating[x.id] = (
            [home[0], away[0]] if len(home) == 1 else [home[0], away[0], home[1], away[1]]
        )
    people = [p.id for x in online for p, _bot in seating[x.id] if p is not None]
    if len(people) != len(set(people)):
        raise Conflict(
            "a player would sit at two tables of this round: each player is in one team",
            "player_two_tables",
        )
    options = config.room_options(t.game, t.options, t.settings)
    # the table says it, and that it is a championship's (no rematch: rooms/aftermatch.py)
    match = dict(t.settings.get("match") or {"kind": "target"})
    chat = t.settings.get("chat", True) is not False  # off: no chat at its tables (docs/chat.md)
    # claim the round (committed: the rooms service commits as it goes)
    t_id, rnd_id, was = t.id, rnd.id, t.status
    claimed = await db.execute(
        update(Round)
        .where(Round.id == rnd_id, Round.status == "draft")
        .values(status="published", published_at=utcnow())
    )
    if claimed.rowcount != 1:  # type: ignore[attr-defined]  # a DML statement's Result is a CursorResult
        await db.rollback()
        raise Conflict(f"round {number} is not a draft to publish", "round_not_draft", round=number)
    t.status = "running"
    await db.commit()
    rooms_made: dict[int, int] = {}
    try:
        for x in online:
            room = await rooms.create_room(
                db, user, t.game, options, match=match, rated=False, chat=chat
            )
            rooms_made[x.id] = room["id"]
            for seat, (player, bot) in enumerate(seating[x.id]):
                await rooms.take_seat(db, room["id"], seat, player or user, bot=bot)
        for room_id in rooms_made.values():  # every room seated: the matches start
            await rooms.start(db, room_id, user)
    except Exception:
        await _unpublish(db, t_id, rnd_id, was, list(rooms_made.values()))
        raise
    await lock(db, t_id)
    now = utcnow()
    for x in await tables_in(db, rnd_id):
        if x.id in rooms_made:
            if x.status != "pending":  # withdrawn meanwhile: its match is not played
                await rooms.end_match(db, rooms_made[x.id])
                await lock(db, t_id)
                continue
            x.room_id, x.status = rooms_made[x.id], "playing"
        if x.status in ("pending", "playing"):
            x.started_at = now
    rnd = await db.get(Round, rnd_id, populate_existing=True)
    assert rnd is not None
    audit(db, t, user, "publish", f"round {number}", after={"tables": len(tables)})
    await db.commit()
    return await round_out(db, t, rnd)


async def _unpublish(db: AsyncSession, t_id: int, rnd_id: int, was: str, made: list[int]) -> None:
    """A publish refused after its claim: its rooms are deleted (or ended, if started)
    and the round is a draft again, the tournament at its former status."""
    await db.rollback()
    for room_id in made:
        await rooms.discard_room(db, room_id)
    await db.execute(
        update(Round)
        .where(Round.id == rnd_id, Round.status == "published")
        .values(status="draft", published_at=None)
    )
    await db.execute(
        update(Tournament)
        .where(Tournament.id == t_id)
        .values(status=was)
        .execution_options(synchronize_session=False)
    )
    await db.commit()


async def close(db: AsyncSession, tournament_id: int, number: int, user: User) -> dict[str, Any]:
    """Close published round ``number`` once every table has a result (or was removed);
    the last round closes the tournament. Raises Conflict naming the tables still in play."""
    t = await for_organiser(db, tournament_id, user)
    rnd = next((r for r in await rounds_of(db, t.id) if r.number == number), None)
    if rnd is None or rnd.status != "published":
        raise Conflict(f"round {number} is not open", "round_not_open", round=number)
    await sync_round(db, t, rnd)  # may commit (a match recorded): the lock is taken again
    t = await for_organiser(db, tournament_id, user)
    rnd = await db.get(Round, rnd.id, populate_existing=True)
    if rnd is None or rnd.status != "published":
        raise Conflict(f"round {number} is not open", "round_not_open", round=number)
    open_tables = [
        x.number for x in await tables_in(db, rnd.id) if x.status in ("pending", "playing")
    ]
    if open_tables:
        which = ", ".join(map(str, open_tables))
        raise Conflict(
            f"the round cannot close while a table is playing: table(s) {which}",
            "round_tables_playing",
            tables=which,
        )
    rnd = await db.get(Round, rnd.id, populate_existing=True)
    assert rnd is not None
    rnd.status, rnd.closed_at = "closed", utcnow()
    await db.flush()
    teams = await teams_of(db, t.id)
    try:
        await _next_pairs(
            db, t, teams, [r for r in await rounds_of(db, t.id) if r.status == "closed"]
        )
    except Conflict as exc:
        if "complete" in exc.message or "been played" in exc.message:
            t.status = "finished"
    audit(db, t, user, "close", f"round {number}")
    await db.commit()
    return await round_out(db, t, rnd)
