"""Typed extension points: how a feature reacts to another's events without importing it.

Imports point one way (CONTRIBUTING.md): tournaments build on rooms, so rooms may not
import tournaments. Where rooms must ask a question only a championship can answer (may
this table deal again? which championship does this table play for?), rooms call the
hooks registered here, and the championship feature registers its answers at start-up
(``app.tournaments.wiring.install``, called by ``app.main.create_app``), as lila's
modules subscribe to a bus. Nothing is registered by importing a module.

Registration is idempotent (the same function twice is kept once), so creating the app
many times (tests) keeps one of each.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypedDict

from sqlalchemy import Select
from sqlalchemy.ext.asyncio import AsyncSession

log = logging.getLogger(__name__)

#: ``await guard(db, room_id, deals_done) -> bool``: asked before the server deals a room's
#: next hand (``deals_done`` counts void deals too); False stops the match there, between
#: deals. A championship's number of deals and time limit are deal guards.
DealGuard = Callable[[AsyncSession, int, int], Awaitable[bool]]


class RoomLabel(TypedDict):
    """What a room plays for, shown beside it in the lobby and in its title bar."""

    tournament_id: int
    tournament: str
    round: int
    table: int


#: ``await labeller(db, room_ids) -> {room_id: RoomLabel}`` for the rooms among
#: ``room_ids`` that it knows (one query for all of them).
RoomLabeller = Callable[[AsyncSession, list[int]], Awaitable[dict[int, RoomLabel]]]


#: ``await listener(db, game_id)``: called after the commit that ended the match of
#: ``game_id`` (any end_reason). Must be idempotent: it may be called twice for one game (a
#: race, a takeover). An exception in a listener is logged, never raised to the mover.
MatchEndListener = Callable[[AsyncSession, int], Awaitable[None]]
#: ``await listener(db, user_id)``: called after the commit that deleted the account (or
#: guest) ``user_id`` (app/accounts/service.py ``delete_account``): the rooms give its
#: seats up and take it out of the queue. Must be idempotent. An exception in a listener
#: is logged, never raised to the person deleting the account.
AccountDeletedListener = Callable[[AsyncSession, int], Awaitable[None]]
#: ``query() -> SELECT of one column of user ids``: the people a feature counts as active
#: now (rooms: seated at an unfinished table, waiting in the queue). Accounts keeps a
#: nickname unique among the active people (app/accounts/service.py ``nickname_refusal``)
#: without importing the features that seat people.
ActivePeople = Callable[[], Select[Any]]

#: ``await moderators(db, room_id) -> user ids`` who may hide chat messages at that room
#: (besides the site's admins): a championship's organisers for its tables (app/chat).
RoomModerators = Callable[[AsyncSession, int], Awaitable[set[int]]]
#: ``await feed(sessionmaker, room_id, user, view, kind, state) -> [socket texts]``: called
#: by both room sockets after each view they send (``kind`` "json" for the API socket,
#: "html" for the page's); ``state`` is a dict kept per socket for the feed (what it sent
#: already). The chat delivers its messages this way (app/chat/delivery.py).
SocketFeed = Callable[[Any, int, Any, dict[str, Any], str, dict[str, Any]], Awaitable[list[str]]]


@dataclass
class Hooks:
    """The registered extension points of this process."""

    deal_guards: list[DealGuard] = field(default_factory=list)
    room_labellers: list[RoomLabeller] = field(default_factory=list)
    match_end_listeners: list[MatchEndListener] = field(default_factory=list)
    account_deleted_listeners: list[AccountDeletedListener] = field(default_factory=list)
    active_people: list[ActivePeople] = field(default_factory=list)
    room_moderators: list[RoomModerators] = field(default_factory=list)
    socket_feeds: list[SocketFeed] = field(default_factory=list)

    def add_room_moderators(self, moderators: RoomModerators) -> None:
        """Register ``moderators`` (once)."""
        if moderators not in self.room_moderators:
            self.room_moderators.append(moderators)

    def add_socket_feed(self, feed: SocketFeed) -> None:
        """Register ``feed`` (once)."""
        if feed not in self.socket_feeds:
            self.socket_feeds.append(feed)

    async def moderators_of(self, db: AsyncSession, room_id: int) -> set[int]:
        """The user ids the registered hooks name as moderators of ``room_id``."""
        found: set[int] = set()
        for moderators in self.room_moderators:
            found |= await moderators(db, room_id)
        return found

    async def feed_socket(
        self,
        maker: Any,
        room_id: int,
        user: Any,
        view: dict[str, Any],
        kind: str,
        state: dict[str, Any],
    ) -> list[str]:
        """The texts every registered socket feed adds after a view (errors are logged and
        skipped: a feature never breaks the table's socket)."""
        texts: list[str] = []
        for feed in self.socket_feeds:
            try:
                texts += await feed(maker, room_id, user, view, kind, state)
            except Exception:
                log.exception("socket feed %s failed for room %s", describe(feed), room_id)
        return texts

    def add_active_people(self, query: ActivePeople) -> None:
        """Register ``query`` (once)."""
        if query not in self.active_people:
            self.active_people.append(query)

    def add_deal_guard(self, guard: DealGuard) -> None:
        """Register ``guard`` (once)."""
        if guard not in self.deal_guards:
            self.deal_guards.append(guard)

    def add_room_labeller(self, labeller: RoomLabeller) -> None:
        """Register ``labeller`` (once)."""
        if labeller not in self.room_labellers:
            self.room_labellers.append(labeller)

    def add_match_end_listener(self, listener: MatchEndListener) -> None:
        """Register ``listener`` (once)."""
        if listener not in self.match_end_listeners:
            self.match_end_listeners.append(listener)

    async def match_ended(self, db: AsyncSession, game_id: int) -> None:
        """Tell every match-end listener that ``game_id`` ended (called after the commit).

        A listener's exception is logged and swallowed (the session is rolled back so the
        next listener starts clean): the move that ended the match has been stored."""
        await _tell(db, self.match_end_listeners, game_id, "match-end listener", "game")

    def add_account_deleted_listener(self, listener: AccountDeletedListener) -> None:
        """Register ``listener`` (once)."""
        if listener not in self.account_deleted_listeners:
            self.account_deleted_listeners.append(listener)

    async def account_deleted(self, db: AsyncSession, user_id: int) -> None:
        """Tell every account-deleted listener that ``user_id`` is gone (called after the
        commit; errors are logged and swallowed, as for :meth:`match_ended`)."""
        await _tell(db, self.account_deleted_listeners, user_id, "account-deleted listener", "user")

    async def may_deal(self, db: AsyncSession, room_id: int, deals_done: int) -> bool:
        """True unless a registered deal guard stops the room's match before its next deal."""
        for guard in self.deal_guards:
            if not await guard(db, room_id, deals_done):
                return False
        return True

    async def room_labels(self, db: AsyncSession, room_ids: list[int]) -> dict[int, RoomLabel]:
        """room id -> its label, for the rooms some labeller knows (none: ``{}``)."""
        labels: dict[int, RoomLabel] = {}
        if not room_ids:
            return labels
        for labeller in self.room_labellers:
            labels.update(await labeller(db, room_ids))
        return labels


#: The process's hooks (one app per process; tests that build several apps share them,
#: which registration's idempotence makes harmless).
HOOKS = Hooks()


async def _tell(
    db: AsyncSession,
    listeners: list[Callable[[AsyncSession, int], Awaitable[None]]],
    key: int,
    what: str,
    noun: str,
) -> None:
    """Call each of ``listeners`` with ``(db, key)``; log and swallow an exception (the
    session rolled back, so the next listener starts clean)."""
    for listener in listeners:
        try:
            await listener(db, key)
        except Exception:
            log.exception("%s %s failed for %s %s", what, describe(listener), noun, key)
            try:
                await db.rollback()
            except Exception:  # pragma: no cover - a broken connection
                log.exception("rollback after a failed %s", what)


def describe(value: Any) -> str:
    """A hook's readable name for logs: ``module.function``."""
    return f"{getattr(value, '__module__', '?')}.{getattr(value, '__qualname__', repr(value))}"
