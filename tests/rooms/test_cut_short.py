"""A request cut short (the client leaves before its body ends) is never acted on, and a
refusal echoing a lone surrogate is a clean 422 (the fresh tester's findings, issue 16)."""

from __future__ import annotations

from typing import Any

import httpx

from app import rules
from app.core.errors import Unprocessable
from app.rooms import fast_moves
from tests.tables import Table, asgi_post, move, view_of


async def test_a_move_whose_body_is_cut_short_is_not_played(
    app: Any, client: httpx.AsyncClient, table: Table
) -> None:
    body = b'{"seq": 1, "action": {"type": "pass"}}'
    token = table.headers[table.eldest]["Authorization"].encode()
    for length in (str(len(body) + 50).encode(), None):  # a Content-Length, then chunked
        headers = [(b"content-type", b"application/json"), (b"authorization", token)]
        headers.append(
            (b"content-length", length) if length else (b"transfer-encoding", b"chunked")
        )
        sent = await asgi_post(
            app,
            f"/api/rooms/{table.room_id}/moves",
            headers,
            [
                {"type": "http.request", "body": body, "more_body": True},
                {"type": "http.disconnect"},
            ],
        )
        assert not any(m.get("status") == 200 for m in sent), sent
        assert (await view_of(client, table, None))["seq"] == 1  # nothing played
    assert fast_moves.PATH.endswith("/moves")
    assert (await move(client, table, table.eldest, {"type": "pass"}, seq=1)).status_code == 200


def test_a_lone_surrogate_echoed_by_a_refusal_can_be_sent() -> None:
    """The engine's "you do not hold the X" with X a lone surrogate a client sent: the
    refusal's message and params are UTF-8-encodable (the answer was a 500)."""
    exc = Unprocessable.of(rules.IllegalAction("card_not_held", card="\ud800"))
    assert exc.message == "you do not hold the \\ud800"
    assert exc.params["card"] == "\\ud800"
    assert exc.message.encode("utf-8")  # no UnicodeEncodeError


async def test_a_lone_surrogate_in_a_card_is_a_clean_refusal(
    client: httpx.AsyncClient, table: Table
) -> None:
    """Through the API (in the auction: refused before the card is looked at)."""
    answer = await client.post(
        f"/api/rooms/{table.room_id}/moves",
        content=b'{"seq": 1, "action": {"type": "play", "card": "\\ud800"}}',
        headers={**table.headers[table.eldest], "Content-Type": "application/json"},
    )
    assert answer.status_code in (403, 422), answer.text
    assert answer.headers["content-type"] == "application/json"
    assert isinstance(answer.json()["detail"], str)
