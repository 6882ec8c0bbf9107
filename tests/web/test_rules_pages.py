"""The rules help: every game in every language, the room's options marked."""

from __future__ import annotations

import pytest

from app import rules
from app.web import i18n

HEADINGS = {
    "en": "Scoring",
    "ca": "Puntuació",
    "es": "Puntuación",
    "bg": "Точкуване",
    "fr": "Marque",
    "pt": "Pontuação",
}


@pytest.mark.parametrize("game", list(rules.GAMES))
async def test_rules_page_in_every_language(client, game: str) -> None:
    for lang in i18n.LANGUAGES:
        page = await client.get(f"/rules/{game}?lang={lang}")
        assert page.status_code == 200, (game, lang)
        assert f'lang="{lang}"' in page.text
        assert HEADINGS[lang] in page.text, (game, lang)
        assert 'data-testid="rules-options"' in page.text


async def test_unknown_game(client) -> None:
    assert (await client.get("/rules/poker")).status_code == 404


async def test_room_options_are_marked(client, guest) -> None:
    me = await guest()
    room = (
        await client.post(
            "/api/rooms",
            json={"game": "bolot", "options": {"tie_rule": "half", "target": 1500}},
            headers=me,
        )
    ).json()
    page = await client.get(f"/rules/bolot?room={room['id']}&lang=en")
    assert page.status_code == 200
    assert page.text.count('data-testid="room-value"') == len(rules.GAMES["bolot"].options_schema)
    assert '<tr class="changed" data-option="tie_rule">' in page.text
    assert '<tr class="changed" data-option="target">' in page.text
    assert 'class="opt on"' in page.text  # the "half" rule in the text
    assert f'href="/rooms/{room["id"]}"' in page.text
    # the text of the match names the room's target, not the game's default (1000)
    assert "The first pair to reach the target (1500) wins." in page.text
    plain = await client.get("/rules/bolot?lang=en")
    assert "The first pair to reach the target (1000) wins." in plain.text
