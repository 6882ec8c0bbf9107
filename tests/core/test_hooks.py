"""The extension points of app/core/hooks.py: registration once, and the answers."""

from __future__ import annotations

from typing import Any

from app.core.hooks import HOOKS, Hooks, RoomLabel
from app.core.settings import Settings
from app.main import create_app
from app.tournaments import results, views


async def _never(_db: Any, _room: int, _deals: int) -> bool:
    return False


async def _always(_db: Any, _room: int, _deals: int) -> bool:
    return True


async def _label_odd(_db: Any, rooms: list[int]) -> dict[int, RoomLabel]:
    return {
        r: RoomLabel(tournament_id=7, tournament="Falles", round=1, table=r) for r in rooms if r % 2
    }


async def test_a_room_deals_unless_one_guard_says_no() -> None:
    hooks = Hooks()
    assert await hooks.may_deal(None, 1, 0)  # type: ignore[arg-type]  # no guard: a friendly room
    hooks.add_deal_guard(_always)
    assert await hooks.may_deal(None, 1, 3)  # type: ignore[arg-type]
    hooks.add_deal_guard(_never)
    assert not await hooks.may_deal(None, 1, 3)  # type: ignore[arg-type]


async def test_registering_twice_keeps_one() -> None:
    hooks = Hooks()
    for _ in range(3):
        hooks.add_deal_guard(_never)
        hooks.add_room_labeller(_label_odd)
    assert hooks.deal_guards == [_never]
    assert hooks.room_labellers == [_label_odd]


async def test_labels_come_from_the_labellers_for_the_rooms_they_know() -> None:
    hooks = Hooks()
    assert await hooks.room_labels(None, [1, 2]) == {}  # type: ignore[arg-type]
    hooks.add_room_labeller(_label_odd)
    labels = await hooks.room_labels(None, [1, 2, 3])  # type: ignore[arg-type]
    assert sorted(labels) == [1, 3]
    assert labels[3]["table"] == 3 and labels[1]["tournament"] == "Falles"
    assert await hooks.room_labels(None, []) == {}  # type: ignore[arg-type]


def test_the_app_registers_the_championships_hooks(settings: Settings) -> None:
    create_app(settings)
    create_app(settings)
    assert HOOKS.deal_guards.count(results.may_deal) == 1
    assert HOOKS.room_labellers.count(views.rooms_in_tournaments) == 1


async def test_a_failing_match_end_listener_is_logged_and_the_next_still_hears(
    caplog: Any,
) -> None:
    hooks = Hooks()
    heard: list[int] = []

    class _Db:
        async def rollback(self) -> None:
            heard.append(-1)

    async def broken(_db: Any, _game: int) -> None:
        raise RuntimeError("boom")

    async def listening(_db: Any, game: int) -> None:
        heard.append(game)

    hooks.add_match_end_listener(broken)
    hooks.add_match_end_listener(listening)
    hooks.add_match_end_listener(listening)
    assert hooks.match_end_listeners == [broken, listening]
    await hooks.match_ended(_Db(), 7)  # type: ignore[arg-type]  # no raise
    assert heard == [-1, 7]  # the broken one's transaction rolled back, the next one heard 7
    assert "match-end listener" in caplog.text and "boom" in caplog.text
