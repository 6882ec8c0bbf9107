"""Leave, resign and rematch through the pages (no JavaScript: forms and confirm pages)."""

from __future__ import annotations

import asyncio
import re

import httpx

from tests.table.test_pages import _sign_in, _started_room, _token


async def test_resign_is_confirmed_on_a_page_then_the_finished_panel_offers_a_rematch(
    client: httpx.AsyncClient,
) -> None:
    room_id = await _started_room(client)
    table = await client.get(f"/rooms/{room_id}")
    assert f'href="/rooms/{room_id}/resign"' in table.text
    assert f'href="/rooms/{room_id}/leave"' in table.text
    confirm = await client.get(f"/rooms/{room_id}/resign")
    assert confirm.status_code == 200
    assert "Resign the match?" in confirm.text and 'data-testid="confirm-yes"' in confirm.text
    assert f'action="/rooms/{room_id}/resign"' in confirm.text
    assert f'href="/rooms/{room_id}"' in confirm.text  # "No": back to the table
    token = await _token(client, f"/rooms/{room_id}/resign")
    done = await client.post(f"/rooms/{room_id}/resign", data={"csrf": token})
    assert done.status_code == 303 and done.headers["location"] == f"/rooms/{room_id}"
    again = await client.post(f"/rooms/{room_id}/resign", data={"csrf": token})
    assert again.status_code == 303  # a double tap changes nothing
    page = await client.get(f"/rooms/{room_id}")
    assert "You resigned: your side lost the match." in page.text
    assert 'data-testid="rematch-accept"' in page.text and "Back to the lobby" in page.text
    # The leave/resign links are gone, and their pages refuse now.
    assert f'href="/rooms/{room_id}/resign"' not in page.text
    late = await client.get(f"/rooms/{room_id}/resign")  # the table, not an error page
    assert late.status_code == 303 and late.headers["location"] == f"/rooms/{room_id}"
    # Three bots accept at once: the rematch starts with her acceptance.
    token = await _token(client, f"/rooms/{room_id}")
    rematch = await client.post(f"/rooms/{room_id}/rematch", data={"csrf": token, "accept": "1"})
    assert rematch.status_code == 303
    new_url = rematch.headers["location"]
    assert new_url.startswith("/rooms/") and new_url != f"/rooms/{room_id}"
    new_view = (await client.get(f"/api{new_url}/view")).json()
    assert new_view["status"] == "playing" and new_view["my_seat"] == 0
    old = await client.get(f"/rooms/{room_id}")
    assert f'data-rematch-url="{new_url}"' in old.text and "The rematch has started." in old.text


async def test_the_confirm_pages_refuse_a_spectator_and_leaving_goes_to_the_lobby(
    client: httpx.AsyncClient, app: object
) -> None:
    room_id = await _started_room(client)
    transport = httpx.ASGITransport(app=app)  # type: ignore[arg-type]  # the ASGI app
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as other:
        await _sign_in(other, "Quim")
        refused = await other.get(f"/rooms/{room_id}/leave")
        assert refused.status_code == 403 and "You do not hold a seat" in refused.text
    confirm = await client.get(f"/rooms/{room_id}/leave")
    assert confirm.status_code == 200 and "Leave the match?" in confirm.text
    token = await _token(client, f"/rooms/{room_id}/leave")
    left = await client.post(f"/rooms/{room_id}/leave", data={"csrf": token})
    assert left.status_code == 303 and left.headers["location"] == "/"
    seat0 = (await client.get(f"/api/rooms/{room_id}")).json()["seats"][0]
    assert seat0["kind"] == "bot" and seat0["away"]
    # having left, the table no longer offers to leave or resign (a fresh tester's find)
    after = (await client.get(f"/rooms/{room_id}")).text
    assert 'data-testid="resign-link"' not in after and 'data-testid="sit-again"' in after


async def test_the_rematch_form_sent_five_times_at_once_answers_each_and_makes_one_room(
    client: httpx.AsyncClient,
) -> None:
    """Two tabs or a retry: the same acceptance at once. One rematch room, and every answer
    leads to it (a fresh tester got [500, 500, 200]: the losers of the race read the
    signed-in user after their rollback had expired it)."""
    room_id = await _started_room(client)
    token = await _token(client, f"/rooms/{room_id}/resign")
    assert (await client.post(f"/rooms/{room_id}/resign", data={"csrf": token})).status_code == 303
    token = await _token(client, f"/rooms/{room_id}")
    answers = await asyncio.gather(
        *(
            client.post(
                f"/rooms/{room_id}/rematch",
                data={"csrf": token, "accept": "1"},
                headers={"HX-Request": "true"},
            )
            for _ in range(5)
        )
    )
    assert [a.status_code for a in answers] == [200] * 5, [a.text[-300:] for a in answers]
    links = {re.search(r'data-rematch-url="(/rooms/\d+)"', a.text) for a in answers}
    assert None not in links
    places = {m.group(1) for m in links if m}
    assert len(places) == 1 and places != {f"/rooms/{room_id}"}, places


async def test_yes_resign_sent_five_times_at_once_leads_each_to_the_finished_table(
    client: httpx.AsyncClient,
) -> None:
    """A double click on "Yes, resign" (a fresh tester's find: the address bar stayed on
    /resign): every answer goes to the finished table, and the match ends once."""
    room_id = await _started_room(client)
    token = await _token(client, f"/rooms/{room_id}/resign")
    answers = await asyncio.gather(
        *(client.post(f"/rooms/{room_id}/resign", data={"csrf": token}) for _ in range(5))
    )
    assert [(a.status_code, a.headers.get("location")) for a in answers] == [
        (303, f"/rooms/{room_id}")
    ] * 5, [a.text[-300:] for a in answers]
    page = await client.get(f"/rooms/{room_id}")
    assert page.text.count("You resigned: your side lost the match.") == 1
