"""Refusals reach the pages by their code: translated, with their params localised."""

from __future__ import annotations

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
