"""Ratings of whole matches (issue 17 §6, docs/ratings.md): the match-end listener, its
idempotence, leaving and resigning, bots as anchors, the rebuild, rated and casual rooms.

Matches are played out with the engine (random legal actions, a seeded deck) and stored
as a room, a game and its move log, as the server stores them; the expected ratings are
computed here with openskill's PlackettLuce from the inputs docs/ratings.md states
(openskill's defaults for people, the bot anchors' constant mu/sigma) and the winner the
engine's final state names."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from openskill.models import PlackettLuce
from sqlalchemy import func, select

from app import rules
from app.accounts.models import User
from app.records import ratings
from app.records.models import MatchPlayer, Rating
from app.rooms.models import Game, Move, Room, Seat
from tests.conftest import Guest, finished_view

#: docs/ratings.md: people start at openskill's defaults; the heuristic bot v1 is (25, 1)
DOC_HEURISTIC = (25.0, 1.0)
DOC_STRONG = (30.0, 1.0)
T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def play_out(game: str, seed: int) -> tuple[list[dict], rules.State]:
    """A match of ``game`` from dealer 0 played to its end by random legal actions (decks
    from a seeded generator). Returns the actions and the final state."""
    rng = random.Random(seed)
    state = rules.new_game(game, None, 0)
    options = rules.observe(state, None)["options"]
    actions: list[dict] = []
    while not rules.is_over(state):
        if state.phase == "deal":
            action: dict = {"type": "deal", "deck": rules.new_deck(game, rng, options)}
        else:
            action = rng.choice(rules.legal_actions(state))
        state = rules.apply(state, action)
        actions.append(action)
    return actions, state


async def users(app: Any, *names: str) -> list[int]:
    """New guests named ``names``; their ids."""
    async with app.state.sessionmaker() as db:
        made = [User(nickname=n, kind="guest") for n in names]
        db.add_all(made)
        await db.commit()
        return [u.id for u in made]


async def stored_match(
    app: Any,
    game: str,
    seats: list[int | str],
    seed: int,
    *,
    rated: bool = True,
    end_reason: str = "played",
    resigned_seat: int | None = None,
    left: list[int] | None = None,
    deals: int | None = None,
    minutes: int = 0,
) -> tuple[int, rules.State]:
    """A finished room and game of ``game`` with ``seats`` (a user id or a bot level),
    its move log the engine's play-out; returns (game id, final state)."""
    if deals is not None:
        actions, state = _cut(game, seed, deals)
    else:
        actions, state = play_out(game, seed)
    async with app.state.sessionmaker() as db:
        people = {u.id: u.nickname for u in (await db.scalars(select(User))).all()}
        room = Room(game=game, options={}, status="finished", rated=rated)
        room.seats = [
            Seat(
                seat=n,
                user_id=s if isinstance(s, int) else None,
                bot=s if isinstance(s, str) else None,
            )
            for n, s in enumerate(seats)
        ]
        db.add(room)
        await db.flush()
        row = Game(
            room_id=room.id,
            game=game,
            options=rules.observe(rules.new_game(game, None, 0), None)["options"],
            dealer=0,
            status="finished",
            seated=[
                {"user_id": s, "bot": None, "nickname": people[s]}
                if isinstance(s, int)
                else {"user_id": None, "bot": s, "nickname": f"{s} bot"}
                for s in seats
            ],
            end_reason=end_reason,
            ended_at=T0 + timedelta(minutes=minutes),
            resigned_seat=resigned_seat,
            left=left or [],
        )
        db.add(row)
        await db.flush()
        db.add_all(
            Move(game_id=row.id, seq=n, action=a, actor="server" if a["type"] == "deal" else "0")
            for n, a in enumerate(actions)
        )
        await db.commit()
        return row.id, state


def _cut(game: str, seed: int, deals: int) -> tuple[list[dict], rules.State]:
    """``deals`` whole deals (the match not over), then the next deal dealt and its first
    action: a match resigned or abandoned mid-deal."""
    rng = random.Random(seed)
    state = rules.new_game(game, None, 0)
    options = rules.observe(state, None)["options"]
    actions: list[dict] = []
    dealt = 0
    while True:
        if state.phase == "deal":
            if dealt == deals + 1:
                break
            action: dict = {"type": "deal", "deck": rules.new_deck(game, rng, options)}
            dealt += 1
        elif dealt == deals + 1:
            action = rng.choice(rules.legal_actions(state))
            state = rules.apply(state, action)
            actions.append(action)
            break
        else:
            action = rng.choice(rules.legal_actions(state))
        state = rules.apply(state, action)
        actions.append(action)
        assert not rules.is_over(state), "pick a seed whose match lasts longer"
    return actions, state


async def record(app: Any, game_id: int) -> bool:
    async with app.state.sessionmaker() as db:
        return await ratings.record_match(db, game_id)


async def rows(app: Any, game_id: int) -> list[MatchPlayer]:
    async with app.state.sessionmaker() as db:
        return list(
            (
                await db.scalars(
                    select(MatchPlayer)
                    .where(MatchPlayer.game_id == game_id)
                    .order_by(MatchPlayer.seat)
                )
            ).all()
        )


async def rating_of(app: Any, user_id: int, game: str) -> Rating | None:
    async with app.state.sessionmaker() as db:
        return await db.scalar(select(Rating).where(Rating.user_id == user_id, Rating.game == game))


def expected(teams: list[list[tuple[float, float]]], ranks: list[int]) -> list[list[Any]]:
    """openskill's PlackettLuce with its defaults on ``teams`` of (mu, sigma)."""
    model = PlackettLuce()
    return model.rate(
        [[model.rating(mu=m, sigma=s) for m, s in team] for team in teams],
        ranks=[float(r) for r in ranks],
    )


START = (25.0, 25.0 / 3.0)


# ---------------------------------------------------------------- pure parts


def test_ranks_of_each_end() -> None:
    # played: the engine's winner first; three players: the others by score
    assert ratings.base_ranks("played", True, 1, [600, 1010], None, False) == [1, 0]
    assert ratings.base_ranks("played", True, None, [500, 500], None, False) == [0, 0]
    assert ratings.base_ranks("played", True, 2, [700, 900, 1001], None, False) == [2, 1, 0]
    assert ratings.base_ranks("played", True, 0, [1001, 400, 400], None, False) == [0, 1, 1]
    # resigned: the resigner's side last, whatever the score
    assert ratings.base_ranks("resigned", False, None, [900, 10], 0, True) == [1, 0]
    assert ratings.base_ranks("resigned", False, None, [900, 10, 50], 0, True) == [3, 1, 0]
    # stopped between deals: by score; mid-deal or abandoned: no result
    assert ratings.base_ranks("stopped", False, None, [300, 200], None, False) == [0, 1]
    assert ratings.base_ranks("stopped", False, None, [300, 200], None, True) is None
    assert ratings.base_ranks("abandoned", False, None, [300, 200], None, False) is None


def test_a_quitter_is_last_alone() -> None:
    assert ratings.quitter_ranks([0, 1], 0, 2) == [1, 0]
    assert ratings.quitter_ranks([1, 0], 0, 2) == [1, 0]
    assert ratings.quitter_ranks(None, 1, 2) == [0, 1]
    assert ratings.quitter_ranks([0, 1, 1], 0, 3) == [1, 0, 0]  # the others keep their tie
    assert ratings.result_of([1, 0], 0) == "loss"
    assert ratings.result_of([0, 0], 1) == "draw"
    assert ratings.result_of(None, 1) is None


def test_the_documented_anchors() -> None:
    assert ratings.anchor("heuristic")[2:] == DOC_HEURISTIC
    assert ratings.anchor("strong")[2:] == DOC_STRONG
    assert (ratings.MU, ratings.SIGMA) == START


# ---------------------------------------------------------------- the listener


async def test_a_pair_match_moves_the_ratings_as_openskill_says(app: Any) -> None:
    ann, bea, cid = await users(app, "Ann", "Bea", "Cid")
    game_id, state = await stored_match(app, "belote", [ann, "heuristic", bea, cid], seed=1)
    winner = rules.observe(state, None)["winner"]
    assert winner in (0, 1)
    assert await record(app, game_id)
    ranks = [0, 1] if winner == 0 else [1, 0]
    new = expected([[START, START], [DOC_HEURISTIC, START]], ranks)
    seats = await rows(app, game_id)
    assert [r.side for r in seats] == [0, 1, 0, 1]
    assert [r.result for r in seats] == [
        "win" if winner == side else "loss" for side in (0, 1, 0, 1)
    ]
    assert seats[0].mu_after == pytest.approx(new[0][0].mu)
    assert seats[0].sigma_after == pytest.approx(new[0][0].sigma)
    assert seats[2].mu_after == pytest.approx(new[0][1].mu)
    assert seats[3].mu_after == pytest.approx(new[1][1].mu)
    assert seats[3].sigma_after == pytest.approx(new[1][1].sigma)
    # the bot is an anchor: rated with its constant values, never moved, no rating row
    assert (seats[1].bot, seats[1].bot_version, seats[1].rated) == ("heuristic", 1, False)
    assert (seats[1].mu_before, seats[1].sigma_before) == DOC_HEURISTIC
    assert (seats[1].mu_after, seats[1].sigma_after) == DOC_HEURISTIC
    assert seats[0].points == rules.observe(state, None)["scores"][0]
    cid_rating = await rating_of(app, cid, "belote")
    assert cid_rating is not None and cid_rating.matches == 1
    assert cid_rating.wins == (1 if winner == 1 else 0)
    assert cid_rating.mu == pytest.approx(new[1][1].mu)
    # a second match starts from the first's ratings
    game2, state2 = await stored_match(app, "belote", [cid, ann, "strong", bea], seed=2, minutes=1)
    assert await record(app, game2)
    w2 = rules.observe(state2, None)["winner"]
    after1 = {0: (seats[0].mu_after, seats[0].sigma_after)}
    ann1 = after1[0]
    bea1 = (seats[2].mu_after, seats[2].sigma_after)
    cid1 = (seats[3].mu_after, seats[3].sigma_after)
    new2 = expected([[cid1, DOC_STRONG], [ann1, bea1]], [0, 1] if w2 == 0 else [1, 0])
    seats2 = await rows(app, game2)
    assert seats2[0].mu_before == pytest.approx(cid1[0])
    assert seats2[0].mu_after == pytest.approx(new2[0][0].mu)
    assert seats2[1].mu_after == pytest.approx(new2[1][0].mu)
    assert seats2[3].sigma_after == pytest.approx(new2[1][1].sigma)
    assert (seats2[2].mu_after, seats2[2].sigma_after) == DOC_STRONG
    async with app.state.sessionmaker() as db:
        assert await db.scalar(select(func.count()).select_from(Rating)) == 3  # people only


async def test_three_players_each_for_himself_are_ranked_by_score(app: Any) -> None:
    ann, bea = await users(app, "Ann", "Bea")
    game_id, state = await stored_match(app, "belote-3p", [ann, "heuristic", bea], seed=3)
    public = rules.observe(state, None)
    winner, scores = public["winner"], public["scores"]
    assert await record(app, game_id)
    others = sorted({s for k, s in enumerate(scores) if k != winner}, reverse=True)
    ranks = [0 if k == winner else 1 + others.index(scores[k]) for k in range(3)]
    new = expected([[START], [DOC_HEURISTIC], [START]], ranks)
    seats = await rows(app, game_id)
    assert [r.side for r in seats] == [0, 1, 2]
    assert seats[0].mu_after == pytest.approx(new[0][0].mu)
    assert seats[2].mu_after == pytest.approx(new[2][0].mu)
    assert seats[0].result == ("win" if winner == 0 else "loss")
    assert (seats[1].mu_after, seats[1].sigma_after) == DOC_HEURISTIC


async def test_a_casual_room_keeps_the_history_and_moves_no_rating(app: Any) -> None:
    ann, bea = await users(app, "Ann", "Bea")
    game_id, state = await stored_match(app, "belote-2p", [ann, bea], seed=4, rated=False)
    assert await record(app, game_id)
    seats = await rows(app, game_id)
    assert len(seats) == 2 and not any(r.rated for r in seats)
    assert all(r.mu_after is None for r in seats)
    winner = rules.observe(state, None)["winner"]
    assert seats[winner].result == "win"
    assert await rating_of(app, ann, "belote-2p") is None


async def test_the_listener_twice_or_at_once_writes_one_row_per_seat(app: Any) -> None:
    ann, bea, cid, dan = await users(app, "Ann", "Bea", "Cid", "Dan")
    game_id, state = await stored_match(app, "belote", [ann, bea, cid, dan], seed=5)
    # eight listeners at once, each on its own session, as after a takeover race
    async with app.state.sessionmaker() as db:
        await asyncio.gather(*(ratings.on_match_ended(db, game_id) for _ in range(8)))
    assert not await record(app, game_id)  # and once more afterwards: nothing
    seats = await rows(app, game_id)
    assert [r.seat for r in seats] == [0, 1, 2, 3]
    winner = rules.observe(state, None)["winner"]
    new = expected([[START, START], [START, START]], [0, 1] if winner == 0 else [1, 0])
    for user in (ann, bea, cid, dan):
        r = await rating_of(app, user, "belote")
        assert r is not None and r.matches == 1
    r = await rating_of(app, ann, "belote")
    assert r is not None and r.mu == pytest.approx(new[0][0].mu)  # applied once


async def test_concurrent_matches_sharing_a_player_both_count(app: Any) -> None:
    ann, bea, cid = await users(app, "Ann", "Bea", "Cid")
    g1, _ = await stored_match(app, "belote-2p", [ann, bea], seed=6)
    g2, _ = await stored_match(app, "belote-2p", [ann, cid], seed=7, minutes=1)
    async with app.state.sessionmaker() as db:
        await asyncio.gather(ratings.on_match_ended(db, g1), ratings.on_match_ended(db, g2))
    r = await rating_of(app, ann, "belote-2p")
    assert r is not None and r.matches == 2  # no lost update


async def test_a_resignation_is_a_loss_for_the_pair(app: Any) -> None:
    ann, bea, cid, dan = await users(app, "Ann", "Bea", "Cid", "Dan")
    game_id, state = await stored_match(
        app,
        "belote",
        [ann, bea, cid, dan],
        seed=8,
        end_reason="resigned",
        resigned_seat=0,
        deals=1,
    )
    assert not rules.is_over(state)
    assert await record(app, game_id)
    seats = await rows(app, game_id)
    assert [r.result for r in seats] == ["loss", "win", "loss", "win"]
    assert seats[0].counted_loss and not seats[2].counted_loss
    new = expected([[START, START], [START, START]], [1, 0])
    assert seats[0].mu_after == pytest.approx(new[0][0].mu)
    assert seats[2].mu_after == pytest.approx(new[0][1].mu)
    assert seats[1].mu_after == pytest.approx(new[1][0].mu)


async def test_leaving_is_a_loss_whatever_the_score(app: Any) -> None:
    ann, bea, cid, dan = await users(app, "Ann", "Bea", "Cid", "Dan")
    # find a seed where side 0 wins, so that leaving changes Ann's result
    seed = next(
        s for s in range(20, 60) if rules.observe(play_out("belote", s)[1], None)["winner"] == 0
    )
    game_id, _ = await stored_match(app, "belote", [ann, bea, cid, dan], seed=seed, left=[ann])
    assert await record(app, game_id)
    seats = await rows(app, game_id)
    assert [r.result for r in seats] == ["loss", "loss", "win", "loss"]
    assert seats[0].counted_loss and not seats[2].counted_loss
    as_it_ended = expected([[START, START], [START, START]], [0, 1])
    as_a_loss = expected([[START, START], [START, START]], [1, 0])
    assert seats[0].mu_after == pytest.approx(as_a_loss[0][0].mu)
    assert seats[0].mu_after < ratings.MU
    assert seats[2].mu_after == pytest.approx(as_it_ended[0][1].mu)
    assert seats[1].mu_after == pytest.approx(as_it_ended[1][0].mu)
    r = await rating_of(app, ann, "belote")
    assert r is not None and r.wins == 0 and r.matches == 1


async def test_an_abandoned_match_rates_only_who_left(app: Any) -> None:
    ann, bea = await users(app, "Ann", "Bea")
    game_id, _ = await stored_match(
        app, "belote-2p", [ann, bea], seed=9, end_reason="abandoned", left=[bea], deals=0
    )
    assert await record(app, game_id)
    seats = await rows(app, game_id)
    assert [r.result for r in seats] == [None, "loss"]
    assert [r.rated for r in seats] == [False, True]
    assert await rating_of(app, ann, "belote-2p") is None


async def test_rebuild_gives_the_live_numbers(app: Any) -> None:
    ann, bea, cid, dan = await users(app, "Ann", "Bea", "Cid", "Dan")
    made = [
        await stored_match(app, "belote", [ann, "heuristic", bea, cid], seed=1),
        await stored_match(app, "belote", [cid, ann, "strong", dan], seed=2, minutes=1),
        await stored_match(
            app,
            "belote",
            [dan, bea, ann, cid],
            seed=8,
            minutes=2,
            end_reason="resigned",
            resigned_seat=1,
            deals=1,
        ),
        await stored_match(app, "belote-3p", [ann, bea, "random"], seed=3, minutes=3),
        await stored_match(app, "belote", [ann, bea, cid, dan], seed=10, minutes=4, left=[dan]),
        await stored_match(app, "belote-2p", [ann, dan], seed=4, minutes=5, rated=False),
    ]
    for game_id, _ in made:
        assert await record(app, game_id)

    async def snapshot() -> tuple[list[tuple], list[tuple]]:
        async with app.state.sessionmaker() as db:
            r = (
                await db.execute(
                    select(
                        Rating.user_id,
                        Rating.game,
                        Rating.mu,
                        Rating.sigma,
                        Rating.matches,
                        Rating.wins,
                    ).order_by(Rating.user_id, Rating.game)
                )
            ).all()
            m = (
                await db.execute(
                    select(
                        MatchPlayer.game_id,
                        MatchPlayer.seat,
                        MatchPlayer.user_id,
                        MatchPlayer.bot,
                        MatchPlayer.result,
                        MatchPlayer.rated,
                        MatchPlayer.mu_before,
                        MatchPlayer.sigma_before,
                        MatchPlayer.mu_after,
                        MatchPlayer.sigma_after,
                        MatchPlayer.points,
                        MatchPlayer.deals,
                    ).order_by(MatchPlayer.game_id, MatchPlayer.seat)
                )
            ).all()
        return [tuple(x) for x in r], [tuple(x) for x in m]

    live = await snapshot()
    assert len(live[1]) == 4 + 4 + 4 + 3 + 4 + 2
    async with app.state.sessionmaker() as db:
        assert await ratings.rebuild(db) == len(made)
    assert await snapshot() == live  # exactly: the same floats


async def test_the_cli_rebuilds(app: Any, settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.tools import cli

    ann, bea = await users(app, "Ann", "Bea")
    game_id, _ = await stored_match(app, "belote-2p", [ann, bea], seed=4)
    assert await record(app, game_id)
    before = await rating_of(app, ann, "belote-2p")
    monkeypatch.setenv("DATABASE_URL", settings.db_url())
    # the command runs its own event loop: run it in a thread
    assert await asyncio.to_thread(cli.main, ["ratings", "rebuild"]) == 0
    after = await rating_of(app, ann, "belote-2p")
    assert before is not None and after is not None
    assert (after.mu, after.sigma, after.matches) == (before.mu, before.sigma, before.matches)


# ---------------------------------------------------------------- through the server


async def test_a_rated_room_ended_by_the_server_is_recorded(
    app: Any, client: httpx.AsyncClient, guest: Guest
) -> None:
    """The listener is registered (app/main.py): a rated room's match, ended by the
    server, has its rows and moves its person's rating."""
    pepa = await guest("Pepa")
    room = (
        await client.post(
            "/api/rooms", json={"game": "bolot", "options": {"target": 1}}, headers=pepa
        )
    ).json()
    assert room["rated"] is True  # the API's default
    assert (
        await client.put(f"/api/rooms/{room['id']}/seats/0", json={}, headers=pepa)
    ).status_code == 200
    for seat in (1, 2, 3):
        response = await client.put(
            f"/api/rooms/{room['id']}/seats/{seat}", json={"bot": "heuristic"}, headers=pepa
        )
        assert response.status_code == 200
    assert (await client.post(f"/api/rooms/{room['id']}/start", headers=pepa)).status_code == 200
    # Pepa leaves at once: a stand-in bot plays her seat to the end (target 1: one deal)
    assert (
        await client.delete(f"/api/rooms/{room['id']}/seats/0", headers=pepa)
    ).status_code == 200
    await finished_view(client, room["id"])
    async with app.state.sessionmaker() as db:
        game = await db.scalar(select(Game).where(Game.room_id == room["id"]))
        assert game is not None
        me = (await client.get("/api/me", headers=pepa)).json()["id"]
        for _ in range(100):  # the listener runs right after the commit that ended it
            seats = (
                await db.scalars(select(MatchPlayer).where(MatchPlayer.game_id == game.id))
            ).all()
            if seats:
                break
            await asyncio.sleep(0.05)
        assert len(seats) == 4
        mine = next(s for s in seats if s.seat == 0)
        assert mine.user_id == me and mine.rated
        rating = await db.scalar(select(Rating).where(Rating.user_id == me))
        assert rating is not None and rating.game == "bolot" and rating.matches == 1
        if me in (game.left or []):
            assert mine.result == "loss"


async def test_a_resignation_through_the_api_is_rated_as_a_loss(
    app: Any, client: httpx.AsyncClient, guest: Guest
) -> None:
    """POST /api/rooms/{id}/resign (app/rooms/aftermatch.py) ends the match; the listener
    rates the resigner's pair as the losers, the bots as they are."""
    pepa = await guest("Pepa")
    me = (await client.get("/api/me", headers=pepa)).json()["id"]
    room = (
        await client.post(
            "/api/rooms", json={"game": "belote", "options": {"target": 100000}}, headers=pepa
        )
    ).json()
    assert (
        await client.put(f"/api/rooms/{room['id']}/seats/0", json={}, headers=pepa)
    ).status_code == 200
    for seat in (1, 2, 3):
        response = await client.put(
            f"/api/rooms/{room['id']}/seats/{seat}", json={"bot": "heuristic"}, headers=pepa
        )
        assert response.status_code == 200
    assert (await client.post(f"/api/rooms/{room['id']}/start", headers=pepa)).status_code == 200
    done = await client.post(f"/api/rooms/{room['id']}/resign", headers=pepa)
    assert done.status_code == 200, done.text
    async with app.state.sessionmaker() as db:
        game = await db.scalar(select(Game).where(Game.room_id == room["id"]))
        assert game is not None and game.end_reason == "resigned"
        for _ in range(100):
            seats = list(
                (
                    await db.scalars(
                        select(MatchPlayer)
                        .where(MatchPlayer.game_id == game.id)
                        .order_by(MatchPlayer.seat)
                    )
                ).all()
            )
            if seats:
                break
            await asyncio.sleep(0.05)
    assert [s.result for s in seats] == ["loss", "win", "loss", "win"]
    new = expected([[START, DOC_HEURISTIC], [DOC_HEURISTIC, DOC_HEURISTIC]], [1, 0])
    assert seats[0].user_id == me and seats[0].counted_loss
    assert seats[0].mu_after == pytest.approx(new[0][0].mu)
    assert seats[0].sigma_after == pytest.approx(new[0][0].sigma)
    assert all((s.mu_after, s.sigma_after) == DOC_HEURISTIC for s in seats[1:])
