"""A room's table in Catalan speaks its game's words (issue 19 §6; app/web/i18n.py
``game_words``): Bolot's deal is a *partida* (rules/bolot.md §1), Botifarra's a *mà*
(rules/botifarra.md §1), and neither leaks into the other's pages."""

from __future__ import annotations

import asyncio

import pytest

from app.table import labels
from app.web import i18n


async def _started(client, guest, game: str) -> int:
    """A room of ``game``: a person at seat 0 and random bots, started; its id."""
    me = await guest("Pepa")
    room = (await client.post("/api/rooms", json={"game": game, "options": {}}, headers=me)).json()
    await client.put(f"/api/rooms/{room['id']}/seats/0", json={}, headers=me)
    for seat in (1, 2, 3):
        await client.put(
            f"/api/rooms/{room['id']}/seats/{seat}", json={"bot": "random"}, headers=me
        )
    await client.post(f"/api/rooms/{room['id']}/start", json={}, headers=me)
    for _ in range(400):
        view = (await client.get(f"/api/rooms/{room['id']}/view", headers=me)).json()
        if view["to_act"] == 0 and view["legal_actions"]:
            break
        await asyncio.sleep(0.02)
    client.cookies.set("tapet_session", me["Authorization"].split()[1])
    return int(room["id"])


@pytest.mark.parametrize(
    ("game", "said", "not_said"),
    [
        ("bolot", "Encara no s'ha puntuat cap partida.", "Encara no s'ha puntuat cap mà."),
        ("botifarra", "Encara no s'ha puntuat cap mà.", "Encara no s'ha puntuat cap partida."),
    ],
)
async def test_the_catalan_table_names_the_deal_as_its_game_does(
    client, guest, game: str, said: str, not_said: str
) -> None:
    room = await _started(client, guest, game)
    page = (await client.get(f"/rooms/{room}?lang=ca")).text
    assert said in page and not_said not in page


def test_the_words_hold_inside_their_block_only() -> None:
    """The game's words are read inside ``game_words`` only; outside, the plain ones."""
    with i18n.using("ca"):
        with i18n.game_words(labels.words_of("bolot")):
            assert i18n._("%(name)s wins the match") % {"name": "Nord"} == "Nord guanya el joc"
            assert i18n.ngettext("%(num)d deal", "%(num)d deals", 12) % {"num": 12} == (
                "12 partides"
            )
        assert i18n._("%(name)s wins the match") % {"name": "Nord"} == "Nord guanya la partida"
        with i18n.game_words(labels.words_of("botifarra")):
            assert i18n._("Deal %(n)s") % {"n": 3} == "Mà 3"
    with i18n.using("es"), i18n.game_words("bolot"):
        assert i18n._("Deal %(n)s") % {"n": 3} == "Mano 3"  # Spanish: mano in every game
