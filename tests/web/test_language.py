"""Choosing the language: ?lang=, the cookie, Accept-Language; pages and refusals."""

from __future__ import annotations

import pytest

from app.core.errors import Conflict, Forbidden
from app.rules import IllegalAction
from app.table import labels
from app.web import cards, i18n
from app.web.errors import message_for


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("ca-ES,ca;q=0.9,es;q=0.8", "ca"),
        ("pt-BR,pt;q=0.9,en;q=0.5", "pt"),
        ("de-DE,de;q=0.9,fr;q=0.4", "fr"),
        ("va", "ca"),
        ("en;q=0.2,bg;q=0.8", "bg"),
        ("de", None),
        ("", None),
        ("garbage;;q=x", None),
    ],
)
def test_accept_language(header: str, expected: str | None) -> None:
    assert i18n.from_accept_language(header) == expected


def test_order_of_choice() -> None:
    assert i18n.negotiate("fr", "ca", "es") == "fr"
    assert i18n.negotiate(None, "ca", "es") == "ca"
    assert i18n.negotiate("xx", None, "es-ES") == "es"
    assert i18n.negotiate(None, None, None) == "en"


def test_card_names_per_language() -> None:
    with i18n.using("ca"):
        assert cards.card_name("1o") == "1 d'oros"
        assert labels.action_label("bolot", {"type": "pass"}) == "No vaig"
    with i18n.using("fr"):
        assert cards.card_name("JH") == "Valet de cœur"
    with i18n.using("bg"):
        assert cards.card_name("QS") == "Дама пика"
    with i18n.using("en"):
        assert cards.card_name("10c") == "10 of copes"


def test_refusals_are_translated() -> None:
    with i18n.using("es"):
        turn = Forbidden("it is not your turn", "not_your_turn")
        assert message_for(turn) == "No es tu turno."
        # The API counts seats from 0, the pages from 1: the API's seat 2 is the page's third.
        assert message_for(Conflict("seat 2 is taken", "seat_taken", seat=2)) == (
            "El asiento 3 está ocupado."
        )
        assert message_for(Forbidden("seat 0 is not yours", "seat_not_yours", seat=0)) == (
            "El asiento 1 no es tuyo."
        )
        follow = IllegalAction("must_follow_suit", suit="c", held="7c")
        assert str(follow) == "you must follow suit in copes: you hold the 7 of copes"
        assert message_for(follow) == "Debes asistir a copas: tienes el 7 de copas"
        assert message_for(Conflict("something new")) == "something new"
        assert message_for("something new") == "something new"
        assert message_for("Wrong username or password.") == "Usuario o contraseña incorrectos."
    with i18n.using("ca"):
        over = IllegalAction("must_over_trump", held="10o")
        assert str(over) == "you must over-trump: you hold the 10 of oros"
        assert message_for(over) == "Has de sobrefallar: tens el 10 d'oros"


async def test_lobby_follows_accept_language(client) -> None:
    page = await client.get("/", headers={"Accept-Language": "ca-ES,ca;q=0.9"})
    assert '<html lang="ca">' in page.text
    assert "Benvinguts a Tapet" in page.text
    page = await client.get("/", headers={"Accept-Language": "bg"})
    assert "Добре дошли в Tapet" in page.text


async def test_lang_parameter_is_remembered(client) -> None:
    page = await client.get("/?lang=pt", headers={"Accept-Language": "fr"})
    assert "Bem-vindos ao Tapet" in page.text
    assert client.cookies.get(i18n.COOKIE) == "pt"
    page = await client.get("/", headers={"Accept-Language": "fr"})
    assert "Bem-vindos ao Tapet" in page.text  # the cookie wins over the header


async def test_every_page_has_the_selector(client) -> None:
    page = await client.get("/tournaments?lang=es")
    assert 'data-testid="lang-select"' in page.text
    assert '<option value="es" lang="es" selected>' in page.text


async def test_htmx_refusal_in_the_viewer_language(client) -> None:
    answer = await client.post("/rooms", headers={"HX-Request": "true", "Accept-Language": "fr"})
    assert answer.status_code == 403
    assert "Ce formulaire a expiré" in answer.text


async def test_championship_pages_are_translated(client) -> None:
    page = await client.get("/tournaments?lang=fr")
    assert "<h1>Championnats</h1>" in page.text
    assert "Pas encore de championnat." in page.text


def test_a_rooms_option_refusal_names_the_option_as_the_form_does() -> None:
    """The engine says "option target ..."; the form's label is "Match to" (in each language)."""
    whole = IllegalAction("option_int", option="target", lo=1, hi=100000)
    assert str(whole) == "option target must be a whole number from 1 to 100000"
    assert message_for(whole) == "Match to: a whole number from 1 to 100000."
    with i18n.using("es"):
        target = i18n.gettext("Match to")
        assert target != "Match to"
        choice = IllegalAction("option_choice", option="target", choices="51, 101, 151")
        assert str(choice) == "option target must be one of 51, 101, 151"
        assert message_for(choice) == f"{target}: uno de 51, 101, 151."
        raw = Conflict(
            "Match to: '1e3' is not a whole number",
            "not_whole_number",
            label="Match to",
            raw="'1e3'",
        )
        assert message_for(raw) == f"{target}: '1e3' no es un número entero."


def test_french_articles_agree_with_the_ace_and_the_queen() -> None:
    """ "le %(card)s" filled with "As de cœur" reads "l'As de cœur"; a Queen is feminine."""
    from app.web.i18n import french_articles

    assert french_articles("Jouer le As de cœur") == "Jouer l'As de cœur"
    assert french_articles("Tierce au As de cœur") == "Tierce à l'As de cœur"
    assert french_articles("vous avez le Dame de trèfle") == "vous avez la Dame de trèfle"
    assert french_articles("Le As du robot") == "L'As du robot"
    assert (
        french_articles("Jouer le Roi de pique, le 10 de cœur")
        == "Jouer le Roi de pique, le 10 de cœur"
    )
    with i18n.using("fr"):
        assert (i18n.gettext("Play the %(card)s") % {"card": "As de cœur"}).startswith("Jouer l'As")


def test_catalan_spanish_and_portuguese_articles_agree_with_the_card() -> None:
    """Their catalogues write the masculine article before every card name; the Queen
    (Dama, Reina) is feminine and Catalan elides before the As."""
    from app.web.i18n import card_articles

    assert card_articles("ca", "Tirar el Dama de cors") == "Tirar la Dama de cors"
    assert (
        card_articles("ca", "el As de piques, del As, al Dama")
        == "l'As de piques, de l'As, a la Dama"
    )
    assert card_articles("ca", "El As guanya") == "L'As guanya"
    assert (
        card_articles("ca", "Tirar el Rei de cors, el 10 de cors")
        == "Tirar el Rei de cors, el 10 de cors"
    )
    assert card_articles("es", "Jugar el Reina de corazones") == "Jugar la Reina de corazones"
    assert card_articles("es", "Jugar el As, el Rey") == "Jugar el As, el Rey"
    assert card_articles("pt", "Jogar o Dama de copas, ao Dama") == "Jogar a Dama de copas, à Dama"
    assert card_articles("pt", "Jogar o Ás de copas") == "Jogar o Ás de copas"
    assert card_articles("bg", "el Dama") == "el Dama"


def test_a_catalan_label_says_la_dama() -> None:
    """Through the catalogue: the action label of a Queen in Catalan."""
    with i18n.using("ca"):
        label = labels.action_label("belote", {"type": "play", "card": "QH"})
    assert label == "Tirar la Dama de cors", label
    with i18n.using("es"):
        label = labels.action_label("belote", {"type": "play", "card": "QH"})
    assert label == "Jugar la Reina de corazones", label
