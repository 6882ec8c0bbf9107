"""Records of played matches: the history of a game deal by deal, its JSON export and
the frames of a deal's replay (docs/fairness.md).

Everything here is rebuilt from the stored move log and the deal commitments
(app/rooms/models.py) by replaying the actions through ``app.rules``; nothing is
dealt or scored a second time outside the engine. What is public:

* a deal is **finished** when the engine says so: after one of its actions the
  phase became ``deal`` (the next deal is due) or ``over`` (the match ended). This is
  the move log's rule (app/rooms/movelog.py): the deck is revealed exactly then;
* a finished deal is public whole: its deck, salt, every action, every hand;
* of the deal in play only its commitment ``{deal_no, sha256}`` appears here. Its
  actions are in the move log (``GET /api/rooms/{id}/moves``), redacted there;
* a deal **cut short** (the match ended during it: a resignation, a withdrawal, an
  abandoned table) is never played out, but nothing is left to play either: its deck
  and salt are public from the match's end, so that it can be checked like any other
  (``app/records/verify.py``; its actions stay as the move log shows them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app import rules
from app.core.db import as_utc
from app.core.errors import NotFound, ServiceError
from app.rooms.models import Deal, Game, Move

RECORD_FORMAT = "tapet-record/1"
FINISHED_PHASES = ("deal", "over")


@dataclass
class DealHistory:
    """One deal of a game as the engine replays it.

    ``moves`` are the stored moves of the deal (the ``deal`` action first); ``dealt``
    is each seat's hand right after the deal action, as ``observe(state, seat)`` shows
    it (None where the engine hides a hand even from its holder, e.g. the Botifarra
    dealer's partner before the choice); ``result`` is the engine's sheet entry with
    the hands played (``last_deal``) once the deal is finished; ``cut_short``: the match
    ended during the deal, which was never finished (its deck is public all the same)."""

    deal_no: int
    seq: int
    dealer: int
    commitment: Deal | None
    moves: list[Move] = field(default_factory=list)
    dealt: list[list[str] | None] = field(default_factory=list)
    turned: str | None = None
    result: dict[str, Any] | None = None
    finished: bool = False
    cut_short: bool = False

    @property
    def revealed(self) -> bool:
        """Whether the deal's deck and salt are public: it is finished, or cut short."""
        return self.finished or self.cut_short

    @property
    def end(self) -> int:
        """The seq after the deal's last stored move."""
        return self.moves[-1].seq + 1 if self.moves else self.seq

    @property
    def deck(self) -> list[str] | None:
        """The deck, only once the deal is finished or cut short (:attr:`revealed`)."""
        if not self.revealed:
            return None
        if self.commitment is not None:
            return self.commitment.deck.split(",")
        return list(self.moves[0].action.get("deck") or [])

    @property
    def hands(self) -> list[list[str]] | None:
        """The cards each seat played the deal with (after any stock), once finished;
        None for a void deal (no card was played: see ``dealt``)."""
        if not self.finished or not self.result:
            return None
        hands = self.result.get("hands")
        return [list(h) for h in hands] if hands else None


@dataclass
class GameHistory:
    """A game replayed: its row, its deals in order and the current state."""

    game: Game
    deals: list[DealHistory]
    state: rules.State

    @property
    def finished_deals(self) -> list[DealHistory]:
        """The deals whose deck and actions are public."""
        return [d for d in self.deals if d.finished]

    def deal(self, deal_no: int) -> DealHistory:
        """Deal number ``deal_no`` (1-based). Raises NotFound."""
        for d in self.deals:
            if d.deal_no == deal_no:
                return d
        raise NotFound(f"game {self.game.id} has no deal {deal_no}", "no_such_deal", n=deal_no)

    def played_deal(self, deal_no: int, in_play: ServiceError) -> DealHistory:
        """Deal number ``deal_no``, for what needs it played out (its replay, the bot's
        replay of it, what each card cost). Raises NotFound (no such deal; or the match
        ended during it, ``DealHistory.cut_short``: it never will be played out, though
        its deck is on its check), else ``in_play`` while it is still being played."""
        deal = self.deal(deal_no)
        if deal.cut_short:
            raise NotFound(
                f"deal {deal_no} was not played out: the match ended during it",
                "deal_cut_short",
                n=deal_no,
            )
        if not deal.finished:
            raise in_play
        return deal


async def get_game(db: AsyncSession, game_id: int) -> Game:
    """The game row. Raises NotFound."""
    game = await db.get(Game, game_id)
    if game is None:
        raise NotFound(f"there is no game {game_id}", "no_game", n=game_id)
    return game


async def room_game(db: AsyncSession, room_id: int) -> Game:
    """The latest game of a room. Raises NotFound (no such room, or not started)."""
    game = await db.scalar(
        select(Game).where(Game.room_id == room_id).order_by(Game.id.desc()).limit(1)
    )
    if game is None:
        raise NotFound(f"room {room_id} has no game yet", "room_no_game", n=room_id)
    return game


async def history(db: AsyncSession, game: Game) -> GameHistory:
    """Replay ``game``'s stored moves through the engine, deal by deal."""
    moves = (await db.scalars(select(Move).where(Move.game_id == game.id).order_by(Move.seq))).all()
    commitments = {
        d.seq: d for d in (await db.scalars(select(Deal).where(Deal.game_id == game.id))).all()
    }
    state = rules.new_game(game.game, game.options, game.dealer)
    players = rules.observe(state, None)["players"]
    deals: list[DealHistory] = []
    current: DealHistory | None = None
    for move in moves:
        if move.seq != state.seq:
            raise RuntimeError(f"game {game.id}: move {move.seq} found where {state.seq} was due")
        before = state
        state = rules.apply(state, move.action)
        if move.action.get("type") == "deal":
            current = DealHistory(
                deal_no=len(deals) + 1,
                seq=move.seq,
                dealer=rules.observe(before, None)["dealer"],
                commitment=commitments.get(move.seq),
            )
            deals.append(current)
            current.dealt = [rules.observe(state, s)["hand"] for s in range(players)]
            current.turned = rules.observe(state, None).get("turned")
        if current is None:
            raise RuntimeError(f"game {game.id}: move {move.seq} comes before any deal")
        current.moves.append(move)
        if not current.finished and rules.observe(state, None)["phase"] in FINISHED_PHASES:
            current.finished = True
            current.result = rules.observe(state, None)["last_deal"]
    if game.status == "finished" and current is not None and not current.finished:
        current.cut_short = True  # the match ended during it: nothing is left to play
    return GameHistory(game, deals, state)


def _move_entry(move: Move) -> dict[str, Any]:
    actor: int | str = int(move.actor) if move.actor.isdigit() else move.actor
    return {
        "seq": move.seq,
        "actor": actor,
        "action": move.action,
        "at": as_utc(move.at).isoformat(),
    }


def _result(deal: DealHistory) -> dict[str, Any] | None:
    if not deal.result:
        return None
    keys = ("void", "contract", "points", "outcome", "detail", "carried_out", "scores_after")
    return {k: deal.result.get(k) for k in keys}


def who_left(seat: dict[str, Any]) -> str | None:
    """The nickname of the person a seat of the room's info (``rooms.service.room_info``)
    is kept for, who left (a stand-in bot plays it now), else None. The records show such
    a seat as that person's: they played its deals until they left."""
    return seat.get("person") if seat.get("away") else None


def _record_seat(seat: dict[str, Any]) -> dict[str, Any]:
    """A seat of the room's info as the record gives it: a seat kept for a person who left
    (:func:`who_left`) is that person's, with the stand-in bot's level (``left``)."""
    person = who_left(seat)
    kind, name = ("person", person) if person else (seat["kind"], seat["name"])
    return {
        "seat": seat["seat"],
        "kind": kind,
        "name": name,
        "bot": seat["bot"],
        "left": person is not None,
    }


def record(h: GameHistory, room: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON record of a game: finished deals only (see the module docstring).

    ``{format, game_id, room_id, game, game_name, options, dealer (the first dealer),
    players, seats: [{seat, kind, name, bot, left}] (``left``: the seat's person left and
    ``bot`` stood in for them; the seat is shown as theirs, kind "person"), status,
    deals: [{deal_no, id (``<game_id>-<deal_no>``), seq, dealer, sha256, salt, deck, hands,
    actions: [{seq, actor, action, at}], result}], actions (every action of the finished
    deals in order: ``rules.replay(game, options, dealer, actions)`` rebuilds them),
    scores (after the last finished deal), end_reason, resigned_seat (app/rooms/ending.py;
    a resignation's winner is the other pair), winner, over, stopped (finished without the
    rules' end: between deals the higher score wins, None on equal scores; during a deal,
    a withdrawal, None), in_progress: {deal_no, id, sha256} | None (the unfinished deal:
    being played, or where a stopped match ended; its deck is not here, and is on its
    check, ``app/records/verify.py``, once the match has ended)}``.
    """
    game = h.game
    ruleset = rules.GAMES.get(game.game)
    done = h.finished_deals
    actions = [m.action for d in done for m in d.moves]
    public = rules.observe(rules.replay(game.game, game.options, game.dealer, actions), None)
    running = next((d for d in h.deals if not d.finished), None)
    # Finished without the rules' end (service.end_match): between deals by a championship's
    # deal count or time limit (the higher score wins), or during a deal by a withdrawal
    # (no winner here: the championship's forfeit decides). presenter.match_stopped agrees.
    stopped = game.status == "finished" and public["phase"] != "over"
    return {
        "format": RECORD_FORMAT,
        "game_id": game.id,
        "room_id": game.room_id,
        "game": game.game,
        "game_name": ruleset.name if ruleset else game.game,
        "options": game.options,
        "dealer": game.dealer,
        "players": public["players"],
        "seats": [_record_seat(s) for s in (room or {}).get("seats", [])],
        "status": game.status,
        "deals": [
            {
                "deal_no": d.deal_no,
                "id": f"{game.id}-{d.deal_no}",
                "seq": d.seq,
                "dealer": d.dealer,
                "sha256": d.commitment.sha256 if d.commitment else None,
                "salt": d.commitment.salt if d.commitment else None,
                "deck": d.deck,
                "hands": d.hands,
                "actions": [_move_entry(m) for m in d.moves],
                "result": _result(d),
            }
            for d in done
        ],
        "actions": actions,
        "scores": public["scores"],
        "winner": _resigned_winner(game)
        if game.end_reason == "resigned"
        else public["winner"]
        if not stopped
        else None
        if running
        else rules.leading_team(public["scores"]),
        "over": public["phase"] == "over" or stopped,
        "stopped": stopped,
        # how the match ended (app/rooms/ending.py): played | resigned | abandoned | stopped
        "end_reason": game.end_reason,
        "resigned_seat": game.resigned_seat,
        "in_progress": {
            "deal_no": running.deal_no,
            "id": f"{game.id}-{running.deal_no}",
            "sha256": running.commitment.sha256 if running.commitment else None,
        }
        if running
        else None,
    }


def _resigned_winner(game: Any) -> int | None:
    """The winning side of a match ``game`` ended by a resignation: the other pair when
    two sides play; None where every player is a side (the others did not all win)."""
    ruleset = rules.GAMES.get(game.game)
    if ruleset is None or ruleset.sides != 2 or game.resigned_seat is None:
        return None
    return 1 - ruleset.team_of(game.resigned_seat)


# ---------------------------------------------------------------- replay frames


def frames(h: GameHistory, deal_no: int) -> list[dict[str, Any]]:
    """The steps of a finished deal, for the replay page: one per action of the deal.

    Each frame is ``{step, seq, actor, action, view, hands}``: ``view`` is the
    spectator's ``observe`` after that action and ``hands`` every seat's cards then,
    from ``observe(state, seat)``; where the engine hides a hand from its own holder,
    the hand is the one the seat played the deal with, minus the cards it has played.
    Raises NotFound for an unknown or unfinished deal (or one cut short by the match's end:
    :meth:`GameHistory.played_deal`)."""
    deal = h.played_deal(
        deal_no,
        NotFound(
            f"deal {deal_no} is still being played: its replay opens when it ends",
            "deal_in_play",
            n=deal_no,
        ),
    )
    game = h.game
    prior = [m.action for d in h.deals if d.deal_no < deal_no for m in d.moves]
    state = rules.replay(game.game, game.options, game.dealer, prior)
    players = rules.observe(state, None)["players"]
    final = deal.hands or [[] for _ in range(players)]
    played: list[set[str]] = [set() for _ in range(players)]
    out = []
    for step, move in enumerate(deal.moves):
        state = rules.apply(state, move.action)
        if move.action.get("type") == "play" and move.actor.isdigit():
            played[int(move.actor)].add(move.action["card"])
        hands = []
        for seat in range(players):
            hand = rules.observe(state, seat)["hand"]
            if hand is None:
                hand = [c for c in final[seat] if c not in played[seat]]
            hands.append(hand)
        actor: int | str = int(move.actor) if move.actor.isdigit() else move.actor
        out.append(
            {
                "step": step,
                "seq": move.seq,
                "actor": actor,
                "action": move.action,
                "view": rules.observe(state, None),
                "hands": hands,
            }
        )
    return out
