"""The table itself in each language: status, buttons, card labels, seats, sheet."""

from __future__ import annotations

import asyncio
import re

import pytest

from app.table import presenter
from app.web import i18n

# Words of the English table that must not survive in another language.
ENGLISH = (
    "Your turn",
    "Waiting for",
    "Score sheet",
    "Your hand",
    ", playable",
    "No deal scored yet",
)
EXPECTED = {
    "ca": ("Full de punts", "La teua mà"),
    "es": ("Hoja de puntos", "Tu mano"),
    "bg": ("Лист с точки", "Вашите карти"),
    "fr": ("Feuille de marque", "Votre main"),
    "pt": ("Folha de pontos", "A sua mão"),
}


async def _started_bolot(client, guest) -> tuple[dict, int]:
    me = await guest("Pepa")
    room = (
        await client.post("/api/rooms", json={"game": "bolot", "options": {}}, headers=me)
    ).json()
    await client.put(f"/api/rooms/{room['id']}/seats/0", json={}, headers=me)
    for seat in (1, 2, 3):
        await client.put(
            f"/api/rooms/{room['id']}/seats/{seat}", json={"bot": "random"}, headers=me
        )
    await client.post(f"/api/rooms/{room['id']}/start", json={}, headers=me)
    for _ in range(400):
        view = (await client.get(f"/api/rooms/{room['id']}/view", headers=me)).json()
        if view["to_act"] == 0 and view["legal_actions"]:
            return me, room["id"]
        await asyncio.sleep(0.02)
    raise AssertionError("seat 0 was never asked")


@pytest.mark.parametrize("lang", sorted(EXPECTED))
async def test_the_table_speaks_the_viewer_language(client, guest, lang: str) -> None:
    me, room = await _started_bolot(client, guest)
    token = me["Authorization"].split()[1]
    client.cookies.set("tapet_session", token)
    page = await client.get(f"/rooms/{room}?lang={lang}")
    assert page.status_code == 200
    html = page.text
    for word in EXPECTED[lang]:
        assert word in html, (lang, word)
    main = html[html.index('id="room-main"') :]
    leftovers = [w for w in ENGLISH if w in main]
    assert not leftovers, (lang, leftovers)
    labels = re.findall(r'class="card[^"]*"[^>]*aria-label="([^"]+)"', main, re.S)
    assert labels, "no card labels"


def test_trick_and_clock_for_the_page() -> None:
    view = {
        "game": "bolot",
        "players": 4,
        "my_seat": 0,
        "seat": 0,
        "phase": "play",
        "to_act": 0,
        "seats": [{"seat": s, "kind": "bot" if s else "person", "name": "Pepa"} for s in range(4)],
        "hand": ["7o"],
        "legal_actions": [{"type": "play", "card": "7o"}],
        "trick": [{"seat": 3, "card": "1c"}],
        "hand_counts": [1, 0, 0, 1],
        "clock": {"seat": 0, "deadline": "2026-01-01T00:00:30+00:00", "seconds": 30},
        "scores": [0, 0],
        "target": 1000,
    }
    with i18n.using("es"):
        t = presenter.table(view)
    assert t["trick"][0]["seat_name"] == "Bot 4"
    assert t["clock"] == {
        "seat": 0,
        "deadline": "2026-01-01T00:00:30+00:00",
        "seconds": 30,
        "mine": True,
    }
    assert t["status"] == "Te toca jugar"
    assert t["hand"][0]["name"] == "7 de oros"
