"""Refusals reach the pages by their code: translated, with their params localised."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import httpx
import pytest
from babel.messages.pofile import read_po

from app import rules
from app.core.errors import Unprocessable
from app.rules.errors import MESSAGES
from app.web import cards, i18n
from app.web.errors import MSGIDS, message_for
from app.web.templating import flash_html
from tests.tables import DECK

LANGS = [code for code in i18n.LANGUAGES if code != i18n.DEFAULT]


def _follow_suit_refusal() -> rules.IllegalAction:
    """rules/bolot.md §6 with the deal of tests/tables.py: copes led, seat e+1 holds the
    7 of copes and tries the 8 of espases."""
    state = rules.new_game("bolot", {}, 0)
    state = rules.apply(state, {"type": "deal", "deck": DECK})
    eldest = rules.to_act(state)
    for action in ({"type": "take"}, {"type": "declare", "combinations": []}):
        state = rules.apply(state, action)
    state = rules.apply(state, {"type": "play", "card": "1c"})
    assert rules.to_act(state) == (eldest + 1) % 4
    state = rules.apply(state, {"type": "declare", "combinations": []})
    with pytest.raises(rules.IllegalAction) as refused:
        rules.apply(state, {"type": "play", "card": "8e"})
    return refused.value


def test_the_engine_refusal_carries_its_code_and_params() -> None:
    exc = _follow_suit_refusal()
    assert exc.code == "must_follow_suit"
    assert exc.params == {"suit": "c", "held": "7c"}
    assert str(exc) == "you must follow suit in copes: you hold the 7 of copes"  # the API's text


def test_a_catalan_page_shows_the_follow_suit_refusal_with_catalan_card_names() -> None:
    exc = Unprocessable.of(_follow_suit_refusal())
    assert exc.message == "you must follow suit in copes: you hold the 7 of copes"
    with i18n.using("ca"):
        html = flash_html(message_for(exc))
        seven = cards.card_name("7c")
        assert seven != "7 of copes"
        assert f": tens el {seven}" in html
        assert (
            i18n.gettext("You must follow suit in %(suit)s") % {"suit": cards.suit_name("c")}
            in html
        )
        assert "you hold" not in html


def test_a_paper_deal_refusal_names_its_deal() -> None:
    engine = rules.IllegalAction("card_points_total", total=162, sum=150)
    exc = Unprocessable.of(engine, "deal 3: ", deal=3)
    assert exc.message == "deal 3: card points must add up to 162, not 150"
    with i18n.using("es"):
        shown = message_for(exc)
        deal = i18n.gettext("Deal %(n)s") % {"n": 3}
    assert shown.startswith(deal + ": ")
    assert "162" in shown and "150" in shown and "card points" not in shown.lower()


def test_a_refusal_without_code_is_shown_in_english() -> None:
    with i18n.using("fr"):
        assert message_for(Unprocessable("a brand new refusal")) == "a brand new refusal"


def test_every_engine_code_has_a_msgid() -> None:
    assert set(MESSAGES) <= set(MSGIDS)


@pytest.mark.parametrize("lang", LANGS)
def test_every_engine_code_is_translated(lang: str) -> None:
    with i18n.po_path(lang).open("rb") as f:
        strings = {m.id: m.string for m in read_po(f, locale=lang) if m.id}
    for code in MESSAGES:
        entry = MSGIDS[code]
        msgid = entry[0] if isinstance(entry, tuple) else entry
        assert strings.get(msgid), f"{lang}: {code} ({msgid!r}) is not translated"


ERRORS = {
    "ServiceError",
    "Unauthorized",
    "Forbidden",
    "NotFound",
    "Conflict",
    "Unprocessable",
    "TooManyRequests",
}
APP = Path(__file__).resolve().parents[2] / "app"


def _service_raises() -> list[tuple[str, int, ast.Call]]:
    """Every ``raise <ServiceError class>(...)`` outside the engine (``.of(exc)`` keeps the
    engine's code, so it is left out): ``(file, line, call)``."""
    found = []
    for path in sorted(APP.rglob("*.py")):
        if "rules" in path.relative_to(APP).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
                continue
            func = node.exc.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in ERRORS:
                found.append((str(path.relative_to(APP.parent)), node.lineno, node.exc))
    return found


def _code_of(call: ast.Call) -> ast.expr | None:
    """The expression given as ``code`` (the 2nd argument, the 3rd of TooManyRequests)."""
    for keyword in call.keywords:
        if keyword.arg == "code":
            return keyword.value
    func = call.func
    position = 2 if getattr(func, "id", getattr(func, "attr", "")) == "TooManyRequests" else 1
    return call.args[position] if len(call.args) > position else None


def test_every_service_refusal_has_a_code_with_a_msgid() -> None:
    raises = _service_raises()
    assert len(raises) > 80  # the scan sees the services
    codes: set[str] = set()
    for where, line, call in raises:
        code = _code_of(call)
        assert code is not None, f"{where}:{line} raises without a code"
        strings = [
            c.value
            for c in ast.walk(code)
            if isinstance(c, ast.Constant) and isinstance(c.value, str)
        ]
        assert strings, f"{where}:{line}: the code is not a literal"
        codes.update(strings)
    assert all(re.fullmatch(r"[a-z][a-z0-9_]*", c) for c in codes), codes
    assert codes - set(MSGIDS) == set()


@pytest.mark.parametrize("lang", LANGS)
def test_every_msgid_of_a_code_is_translated(lang: str) -> None:
    with i18n.po_path(lang).open("rb") as f:
        strings = {m.id: m.string for m in read_po(f, locale=lang) if m.id}
    for code, entry in MSGIDS.items():
        msgid = entry[0] if isinstance(entry, tuple) else entry
        assert strings.get(msgid), f"{lang}: {code} ({msgid!r}) is not translated"


async def test_a_tournament_refusal_reaches_a_catalan_page_translated(
    client: httpx.AsyncClient,
) -> None:
    registered = await client.post(
        "/api/accounts", json={"username": "orgca", "password": "correct horse battery"}
    )
    assert registered.status_code in (200, 201), registered.text
    client.cookies.set(i18n.COOKIE, "ca")
    token = re.search(r'name="csrf" value="([0-9a-f]+)"', (await client.get("/tournaments")).text)
    assert token
    made = await client.post(
        "/tournaments",
        data={"csrf": token.group(1), "name": "Lliga", "game": "bolot", "format": "swiss"},
    )
    assert made.status_code == 303, made.text
    tid = int(made.headers["location"].split("/")[2])
    # pairing a round before two teams are entered: rounds.py "two_teams_first"
    refused = await client.post(f"/tournaments/{tid}/rounds", data={"csrf": token.group(1)})
    assert refused.status_code == 409
    with i18n.using("ca"):
        catalan = i18n.gettext("Enter at least two teams first.")
    assert catalan != "Enter at least two teams first."
    assert catalan in refused.text and "enter at least two teams" not in refused.text.lower()
    # the API keeps its English sentence
    api = await client.post(f"/api/tournaments/{tid}/rounds", json={})
    assert api.status_code == 409
    assert api.json() == {"detail": "enter at least two teams first"}
