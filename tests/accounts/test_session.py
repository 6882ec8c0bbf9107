"""Guest sessions: POST /api/session, the cookie, the bearer token, 401 without them."""

from __future__ import annotations

import httpx
import pytest


async def test_guest_session_returns_token_and_trimmed_nickname(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/session", json={"nickname": "  Pepa  "})
    assert response.status_code == 200
    body = response.json()
    assert body["user"]["nickname"] == "Pepa"
    assert isinstance(body["user"]["id"], int)
    assert body["token"]


async def test_session_cookie_is_httponly_and_samesite_lax(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/session", json={"nickname": "Pepa"})
    cookie = response.headers["set-cookie"]
    assert cookie.startswith("tapet_session=")
    assert "httponly" in cookie.lower()
    assert "samesite=lax" in cookie.lower()


@pytest.mark.parametrize(
    "nickname",
    [
        "",
        "   ",
        "x" * 25,
        "Pe\x00pa",
        "Pe\npa",
        "tab\there",
        "Ana\u200d",
        "A\u200dna",
        "Ana\u202e",
        "Bot 2",
        "bot2",
        "BOT",
        "Бот 3",
        "Robot 4",
        "Robô 1",
        "(Bot 2)",
        "heuristic bot",
        "B\u043et 2",
        "B0t 2",
        "\uff42\uff4f\uff54 2",
        "\U0001d401\U0001d428\U0001d42d",
        "\u115f",
        "\u3164\u3164",
        "\u2800",
        "\u115f \u0301",
    ],
    ids=[
        "empty",
        "blank",
        "too-long",
        "nul",
        "newline",
        "tab",
        "lone-joiner",
        "joiner-in-a-name",
        "right-to-left-override",
        "bot",
        "bot-lower",
        "bot-alone",
        "bot-bg",
        "robot-fr",
        "robot-pt",
        "bot-in-brackets",
        "our-bots-name",
        "cyrillic-o",
        "zero-for-o",
        "full-width",
        "bold-maths-letters",
        "hangul-filler",
        "hangul-fillers",
        "braille-blank",
        "filler-space-accent",
    ],
)
async def test_bad_nickname_is_unprocessable(client: httpx.AsyncClient, nickname: str) -> None:
    response = await client.post("/api/session", json={"nickname": nickname})
    assert response.status_code == 422
    assert isinstance(response.json()["detail"], str)


#: Look-alikes of "Bot" a security test found passing: letters of other scripts, Latin
#: small capitals and barred or hooked letters, round signs, zeros of other scripts, and
#: invisible characters splitting the word.
LOOKALIKE_BOTS = {
    "small-capitals": "\u0299\u1d0f\u1d1b 2",
    "armenian-oh": "B\u0585t 2",
    "coptic-o": "B\u2c9ft 2",
    "cherokee": "\u13f4\u13be\u13a2 2",
    "small-capital-o-cyrillic-te": "B\u1d0f\u0442 2",
    "kannada-zero": "B\u0ce6t 2",
    "malayalam-ttha": "B\u0d20t 2",
    "myanmar-wa": "B\u101dt 2",
    "arabic-indic-zero": "B\u06f0t 2",
    "barred-o": "B\u0275t 2",
    "o-with-stroke": "B\u00f8t 2",
    "b-with-topbar": "\u0183ot 2",
    "t-with-hook": "Bo\u01ad 2",
    "white-circle": "B\u25cbt 2",
    "ring-operator": "B\u2218t 2",
    "degree-sign": "B\u00b0t 2",
    "grapheme-joiner": "B\u034fot 2",
    "variation-selector-16": "B\ufe0fot 2",
    "variation-selector-1": "B\ufe00ot 2",
    "hangul-filler": "B\u3164ot 2",
    "halfwidth-hangul-filler": "B\uffa0ot 2",
}


@pytest.mark.parametrize("nickname", LOOKALIKE_BOTS.values(), ids=LOOKALIKE_BOTS.keys())
async def test_lookalikes_of_a_bots_name_are_refused(
    client: httpx.AsyncClient, nickname: str
) -> None:
    response = await client.post("/api/session", json={"nickname": nickname})
    assert response.status_code == 422, response.text
    assert "bot" in response.json()["detail"]


async def test_a_no_break_space_in_a_nickname_is_a_space(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/session", json={"nickname": "Ana\u00a0Maria"})
    assert response.status_code == 200, response.text
    assert response.json()["user"]["nickname"] == "Ana Maria"


async def test_two_spaces_in_a_nickname_are_one_so_nobody_passes_for_another(
    client: httpx.AsyncClient,
) -> None:
    """A page shows "Yan  Quist" as "Yan Quist": the name is kept with one space, and is
    then the active Yan Quist's (a fresh tester took it with two)."""
    first = await client.post("/api/session", json={"nickname": "Yan Quist"})
    assert first.status_code == 200, first.text
    client.cookies.clear()
    for twin in ("Yan  Quist", "Yan \u00a0 Quist", "yan   quist"):
        again = await client.post("/api/session", json={"nickname": twin})
        assert again.status_code == 409, (twin, again.text)
    client.cookies.clear()
    spaced = await client.post("/api/session", json={"nickname": "  Pep   Roig  "})
    assert spaced.json()["user"]["nickname"] == "Pep Roig"


@pytest.mark.parametrize(
    "nickname",
    [
        "Abbott",
        "Talbot",
        "Botifarra fan",
        "Anna 2000",
        "Робърт",
        "J\u00f8rgen",
        "Zo\u00eb",
        "N\u00faria",
        "Ангел",
    ],
)
async def test_names_with_bot_inside_a_word_are_people(
    client: httpx.AsyncClient, nickname: str
) -> None:
    response = await client.post("/api/session", json={"nickname": nickname})
    assert response.status_code == 200, response.text


@pytest.mark.parametrize(
    "nickname",
    [
        "You",
        "you (dealer)",
        "You wins the match",
        "YOU",
        "Y\u043eu",  # Cyrillic o
        "Tu",
        "Tú (D)",
        "Vous",
        "Вие",
        # a second fresh tester's lookalikes: Greek capital and small upsilon, Cyrillic
        # straight u and izhitsa, Armenian se, Greek tau
        "\u03a5ou",
        "\u04aeou",
        "Yo\u03c5",
        "Yo\u057d",
        "\u03a5\u039fU",
        "\u0474ous",
        "\u03a4\u03c5",
    ],
)
async def test_a_nickname_that_reads_as_the_table_s_you_is_refused(
    client: httpx.AsyncClient, nickname: str
) -> None:
    """A fresh tester sat as "You (dealer)": the others read "Waiting for You (dealer) to
    bid" and a second dealer. The table shows "You" (Tu, Tú, Vous, Você, Вие) at the
    viewer's own seat only."""
    response = await client.post("/api/session", json={"nickname": nickname})
    assert response.status_code == 422, response.text
    assert "You" in response.json()["detail"]


@pytest.mark.parametrize(
    "nickname", ["Youssef", "Tú Anh", "Tú-Anh", "Tuna", "Vousta", "Yourcenar", "\u039cuna"]
)
async def test_names_that_begin_like_you_are_people(
    client: httpx.AsyncClient, nickname: str
) -> None:
    response = await client.post("/api/session", json={"nickname": nickname})
    assert response.status_code == 200, response.text


async def test_nickname_of_24_characters_and_accents_is_accepted(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/session", json={"nickname": "Vicent Ñ" + "a" * 16})
    assert response.status_code == 200
    assert len(response.json()["user"]["nickname"]) == 24


@pytest.mark.parametrize(
    "nickname", ["👨\u200d👩\u200d👧", "🏳\ufe0f\u200d🌈", "Bottle", "Robotnik", "Abbot 2", "Bo"]
)
async def test_emoji_joined_by_a_joiner_and_names_near_bot_are_accepted(
    client: httpx.AsyncClient, nickname: str
) -> None:
    response = await client.post("/api/session", json={"nickname": nickname})
    assert response.status_code == 200, response.text
    assert response.json()["user"]["nickname"] == nickname


async def test_missing_nickname_is_unprocessable(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/session", json={})
    assert response.status_code == 422


async def test_bearer_token_identifies_the_guest(client: httpx.AsyncClient) -> None:
    token = (await client.post("/api/session", json={"nickname": "Pepa"})).json()["token"]
    client.cookies.clear()
    response = await client.post(
        "/api/rooms", json={"game": "bolot"}, headers={"Authorization": f"Bearer {token}"}
    )
    assert response.status_code == 201
    assert response.json()["created_by"] is not None


async def test_session_cookie_identifies_the_guest(client: httpx.AsyncClient) -> None:
    me = (await client.post("/api/session", json={"nickname": "Pepa"})).json()["user"]
    response = await client.post("/api/rooms", json={"game": "bolot"})  # the cookie jar sends it
    assert response.status_code == 201
    assert response.json()["created_by"] == me["id"]


async def test_no_session_is_unauthorized(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/rooms", json={"game": "bolot"})
    assert response.status_code == 401
    assert isinstance(response.json()["detail"], str)


async def test_forged_token_is_unauthorized(client: httpx.AsyncClient) -> None:
    token = (await client.post("/api/session", json={"nickname": "Pepa"})).json()["token"]
    client.cookies.clear()
    forged = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    response = await client.post(
        "/api/rooms", json={"game": "bolot"}, headers={"Authorization": f"Bearer {forged}"}
    )
    assert response.status_code == 401
