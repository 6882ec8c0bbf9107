"""Every text the pages show is in every catalogue (docs/i18n.md).

The texts are extracted the way ``scripts/i18n.py extract`` does (babel.cfg: the
templates and the labelled Python modules), so a new ``_("...")`` in a template
fails here until the five non-English catalogues translate it. The translations
must also format with the values the code passes (no unknown placeholder).

A text marked under a game's message context (``NP_("bolot", ...)``,
app/table/game_words.py) is an override: a catalogue gives it only where that game words
it differently (Catalan Bolot: *joc* for the match, *partida* for the deal), else the
plain translation is shown, so it counts as translated when either is.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from app.web import i18n

ROOT = Path(__file__).resolve().parents[2]
LANGS = [code for code in i18n.LANGUAGES if code != i18n.DEFAULT]
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")
# Values some call sites pass beyond the msgid's own placeholders (cards.py).
EXTRA_VALUES = {"of_suit": "x", "suit": "x", "num": 1}


def _extracted() -> set[object]:
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    keywords = {
        "_": None,
        "gettext": None,
        "ngettext": (1, 2),
        "pgettext": ((1, "c"), 2),
        "N_": None,
        "NP_": ((1, "c"), 2),
        "NNP_": ((1, "c"), 2, 3),
    }
    found: set[object] = set()
    for _file, _line, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=keywords
    ):
        found.add((context, message))
    return found


@pytest.fixture(scope="module")
def extracted() -> set[object]:
    return _extracted()


@pytest.fixture(scope="module", params=LANGS)
def catalogue(request: pytest.FixtureRequest) -> tuple[str, dict[object, object]]:
    with i18n.po_path(request.param).open("rb") as f:
        cat = read_po(f, locale=request.param)
    return request.param, {(m.context, m.id): m.string for m in cat if m.id}


def test_the_extraction_finds_the_pages(extracted: set[object]) -> None:
    assert (None, "Your turn to play") in extracted  # presenter.py
    assert (None, "Sit here") in extracted  # templates/rooms/_seats.html
    assert ("bolot", "Deal %(n)s") in extracted  # app/table/game_words.py
    assert len(extracted) > 300


def test_every_text_is_translated(extracted: set[object], catalogue: tuple[str, dict]) -> None:
    lang, strings = catalogue
    missing = []
    for context, msgid in extracted:
        # a game's own wording falls back to the plain translation (app/web/i18n.py)
        value = strings.get((context, msgid)) or strings.get((None, msgid))
        if not value or (isinstance(value, tuple) and not all(value)):
            missing.append(msgid)
    assert not missing, (
        f"{lang}: {len(missing)} untranslated, e.g. {sorted(map(str, missing))[:10]}"
    )


def test_translations_format_with_the_msgid_values(catalogue: tuple[str, dict]) -> None:
    lang, strings = catalogue
    for (_context, msgid), value in strings.items():
        ids = msgid if isinstance(msgid, tuple) else (msgid,)
        names = {n for m in ids for n in PLACEHOLDER.findall(m)}
        if not names:
            continue
        values = {**EXTRA_VALUES, **{n: 1 for n in names}}
        for text in value if isinstance(value, tuple) else (value,):
            text % values  # raises KeyError/ValueError on a broken placeholder


def test_catalogues_compile() -> None:
    for lang in LANGS:
        i18n.translations.cache_clear()
        with i18n.using(lang):
            assert i18n.gettext("Your turn to play") != "Your turn to play"


def test_catalan_bolot_says_joc_and_partida(extracted: set[object]) -> None:
    """Every text marked for Bolot has its Catalan wording (rules/bolot.md §1: *joc* the
    match, *partida* the deal), which differs from the plain one and never says *mà* or
    *mans* for the deal (in Bolot the *mà* is the eldest hand)."""
    with i18n.po_path("ca").open("rb") as f:
        cat = read_po(f, locale="ca")
    strings = {(m.context, m.id): m.string for m in cat if m.id}
    marked = [msgid for context, msgid in extracted if context == "bolot"]
    assert len(marked) > 50
    for msgid in marked:
        own, plain = strings.get(("bolot", msgid)), strings.get((None, msgid))
        assert own and all(own if isinstance(own, tuple) else (own,)), msgid
        assert own != plain, msgid
        for text in own if isinstance(own, tuple) else (own,):
            assert not re.search(r"\b(mà|mans)\b", text), text
    assert strings[("bolot", "Deal %(n)s")] == "Partida %(n)s"
    assert strings[("bolot", "%(name)s wins the match")] == "%(name)s guanya el joc"
