"""Bridge-Belote through the API: a whole match of four bots, and the score calculator."""

from __future__ import annotations

import httpx

from tests.conftest import Guest
from tests.rooms.test_belote_match import play_match


async def test_four_bots_play_a_whole_bridge_belote_match(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    view = await play_match(
        client,
        guest,
        "bridge-belote",
        {"target": 151},
        ("heuristic", "random", "heuristic", "random"),
    )
    # rules/bridge-belote.md §9: a team at or over 151 with the higher score wins,
    # never right after a capot deal (no_exit_on_capot, on by default).
    assert view["phase"] == "over" and view["winner"] in (0, 1)
    winner = view["winner"]
    assert view["scores"][winner] >= 151 and view["scores"][winner] > view["scores"][1 - winner]
    assert [sum(d["points"][t] for d in view["sheet"]) for t in (0, 1)] == view["scores"]
    played = [d for d in view["sheet"] if not d["void"]]
    assert played[-1]["detail"]["capot"] is None
    assert view["bidding"] is None and isinstance(view["hanging_points"], int)


def summary(**kw):
    s = {
        "contract": {"kind": "suit", "trump": "S", "declarer_team": 0, "multiplier": 1},
        "card_points": [71, 81],
        "tricks": [4, 4],
        "last_trick_team": 0,
        "declarations": [[], []],
        "belote": [0, 0],
        "carried_in": 0,
        "revoke_team": None,
    }
    s.update(kw)
    return s


async def test_score_a_paper_deal_with_hanging_points(client: httpx.AsyncClient) -> None:
    # rules/bridge-belote.md §11 E4: 81-81, the defenders write 8 and 8 hangs; E5 then takes it.
    response = await client.post(
        "/api/games/bridge-belote/score", json={"options": {}, "summary": summary()}
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["points"] == [0, 8] and body["carried_out"] == 8 and body["outcome"] == "hanging"
    e5 = summary(
        contract={"kind": "suit", "trump": "H", "declarer_team": 1, "multiplier": 1},
        card_points=[40, 112],
        tricks=[2, 6],
        last_trick_team=1,
        carried_in=body["carried_out"],
    )
    response = await client.post("/api/games/bridge-belote/score", json={"summary": e5})
    assert response.status_code == 200 and response.json()["points"] == [4, 20]


async def test_impossible_bridge_belote_summary_is_422_with_the_reason(
    client: httpx.AsyncClient,
) -> None:
    bad = summary(
        contract={"kind": "no_trumps", "trump": None, "declarer_team": 0, "multiplier": 1},
        card_points=[77, 43],
        belote=[1, 0],
    )
    response = await client.post("/api/games/bridge-belote/score", json={"summary": bad})
    assert response.status_code == 422
    assert "No Trumps" in response.json()["detail"]
