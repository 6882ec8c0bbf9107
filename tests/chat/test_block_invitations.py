"""A block keeps the two apart at an invited table too (issue 18 §5: "no invitations"):
an offered seat is refused to someone blocked by (or blocking) a person seated there,
without saying who blocked."""

from __future__ import annotations

import httpx

from app.accounts.service import user_id_from_token
from tests.conftest import Guest


def _uid(headers: dict[str, str]) -> int:
    uid = user_id_from_token(headers["Authorization"].split(" ", 1)[1])
    assert uid is not None
    return uid


async def _block_then_take(
    client: httpx.AsyncClient, room: int, seat: int, code: str, host: dict, pest: dict
) -> httpx.Response:
    """``host`` blocks ``pest``, then ``pest`` tries to take offered ``seat`` with ``code``."""
    blocked = await client.put(f"/api/people/{_uid(pest)}/block", headers=host)
    assert blocked.status_code in (200, 204)
    return await client.post(
        f"/api/rooms/{room}/offers/{seat}/take", json={"code": code}, headers=pest
    )


async def test_a_blocked_person_cannot_take_an_offered_seat(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    host, pest, friend = await guest("Host"), await guest("Pest"), await guest("Friend")
    room = (await client.post("/api/rooms", json={"game": "belote"}, headers=host)).json()["id"]
    assert (
        await client.put(f"/api/rooms/{room}/seats/0", json={}, headers=host)
    ).status_code == 200
    code = (await client.get(f"/api/rooms/{room}/invitation", headers=host)).json()["code"]
    for seat in (1, 2):
        offered = await client.put(f"/api/rooms/{room}/offers/{seat}", json={}, headers=host)
        assert offered.status_code == 200, offered.text
    refused = await _block_then_take(client, room, 1, code, host, pest)
    assert refused.status_code == 403
    assert refused.json()["detail"] == "you cannot sit at this table"
    taken = await client.post(
        f"/api/rooms/{room}/offers/2/take", json={"code": code}, headers=friend
    )
    assert taken.status_code == 200


async def test_an_owner_not_seated_still_keeps_a_blocked_person_out(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    """A fresh tester: the owner who blocked someone made a table without sitting down and
    offered a seat; the blocked guest took it (200). Refused now."""
    host, pest = await guest("Host"), await guest("Pest")
    room = (
        await client.post("/api/rooms", json={"game": "belote", "rated": False}, headers=host)
    ).json()["id"]
    code = (await client.get(f"/api/rooms/{room}/invitation", headers=host)).json()["code"]
    assert (
        await client.put(f"/api/rooms/{room}/offers/2", json={}, headers=host)
    ).status_code == 200
    refused = await _block_then_take(client, room, 2, code, host, pest)
    assert refused.status_code == 403
