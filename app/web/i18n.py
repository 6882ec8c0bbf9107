"""Languages of the pages: Catalan, Spanish, Bulgarian, French, Portuguese and English.

How it works (docs/i18n.md):

* The catalogues are gettext ``.po`` files in ``app/web/locale/<lang>/LC_MESSAGES/messages.po``
  (msgids are the English texts). They are compiled in memory with Babel the first
  time a language is used, so no binary ``.mo`` is committed and none can be stale.
* The language of a request is, in order: ``?lang=xx`` (which also sets the cookie),
  the cookie ``tapet_lang``, the best match of ``Accept-Language``, English.
  ``LanguageMiddleware`` (a plain ASGI middleware, so it serves the page socket too)
  puts it in a context variable for the whole request or socket.
* Python code calls ``_()`` (``gettext``) at the moment it builds a label, so the
  presenter, panels and sheets speak the viewer's language; ``N_()`` only marks a
  text for extraction (module-level tables), translated later with ``_()``.
* Jinja2: the ``i18n`` extension with callables that read the context variable
  (``install(env)``), the per-request equivalent of ``install_gettext_translations``
  that is safe with many requests at once on one environment.
* The JSON API stays English; ``message_for`` turns service and engine refusals into
  the viewer's language on the pages, from their codes (app/web/errors.py).
* A game's own words: a page about one game runs inside ``game_words(context)`` (the
  game's message context, ``app/table/labels.py``), and every text that the catalogue
  gives under that context (``msgctxt "bolot"``) is read from there, else as usual. So
  a Catalan Bolot page says *joc* for the match and *partida* for the deal
  (rules/bolot.md §1) where Botifarra says *partida* and *mà*, without any template
  naming the game. ``NP_``/``NNP_`` mark those contextual texts for extraction.
"""

from __future__ import annotations

import gettext as _gettext
import io
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

LANGUAGES: dict[str, str] = {
    "ca": "Català",
    "es": "Español",
    "bg": "Български",
    "fr": "Français",
    "pt": "Português",
    "en": "English",
}
DEFAULT = "en"
COOKIE = "tapet_lang"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "messages"

_current: ContextVar[str] = ContextVar("tapet_lang", default=DEFAULT)
#: The message context of the game the page is about (``game_words``), or None.
_words: ContextVar[str | None] = ContextVar("tapet_words", default=None)


# ---------------------------------------------------------------- catalogues


def po_path(lang: str) -> Path:
    """The catalogue file of ``lang``."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(lang: str) -> _gettext.NullTranslations:
    """The compiled catalogue of ``lang`` (English and unknown languages: the msgids)."""
    path = po_path(lang)
    if lang == DEFAULT or not path.exists():
        return _gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        catalog = read_po(f, locale=lang)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return _gettext.GNUTranslations(buf)


@cache
def game_texts(lang: str) -> dict[tuple[str, str], str | tuple[str, ...]]:
    """The translations of ``lang`` given under a game's message context:
    ``{("bolot", "Deal %(n)s"): "Partida %(n)s", ("bolot", "%(num)d deal"): ("%(num)d
    partida", "%(num)d partides"), ...}`` (only the non-empty ones)."""
    path = po_path(lang)
    if lang == DEFAULT or not path.exists():
        return {}
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        catalog = read_po(f, locale=lang)
    found: dict[tuple[str, str], str | tuple[str, ...]] = {}
    for m in catalog:
        if not m.context or not m.id or not m.string:
            continue
        key = str(m.id[0] if isinstance(m.id, (tuple, list)) else m.id)
        if isinstance(m.string, (tuple, list)):
            if all(m.string):
                found[(m.context, key)] = tuple(m.string)
        else:
            found[(m.context, key)] = str(m.string)
    return found


@contextmanager
def game_words(context: str | None) -> Iterator[None]:
    """Run a block (a page, a push) in the words of one game: the texts the catalogue
    gives under ``context`` ("bolot") replace the plain ones; None: the plain ones."""
    token = _words.set(context)
    try:
        yield
    finally:
        _words.reset(token)


def set_game_words(context: str | None) -> None:
    """Speak the words of one game (``game_words``) for the rest of the request being
    served: ``LanguageMiddleware`` gives every request and socket its own."""
    _words.set(context)


def _game_text(lang: str, message: str) -> str | tuple[str, ...] | None:
    """The current game's own translation of ``message`` in ``lang``, or None."""
    context = _words.get()
    return game_texts(lang).get((context, message)) if context else None


def current() -> str:
    """The language of the request being served."""
    return _current.get()


#: French articles before the two card names that take another form: "le As" -> "l'As",
#: "au As" -> "à l'As", "le Dame" -> "la Dame" (a card's name fills a "le %(card)s").
_FR_ARTICLES = (
    (re.compile(r"\b([Ll])e As\b"), r"\1'As"),
    (re.compile(r"\b([Aa])u As\b"), lambda m: ("À" if m.group(1) == "A" else "à") + " l'As"),
    (re.compile(r"\b([Dd])u As\b"), r"\1e l'As"),
    (re.compile(r"\b([Dd])e As\b"), r"\1'As"),
    (re.compile(r"\b([Ll])e Dame\b"), r"\1a Dame"),
    (re.compile(r"\b([Aa])u Dame\b"), lambda m: ("À" if m.group(1) == "A" else "à") + " la Dame"),
    (re.compile(r"\b([Dd])u Dame\b"), r"\1e la Dame"),
)


def french_articles(text: str) -> str:
    """``text`` with the French article before "As" and "Dame" agreed ("Jouer le As de
    cœur" -> "Jouer l'As de cœur", "Tierce au Dame" -> "Tierce à la Dame")."""
    return card_articles("fr", text)


def _cap(word: str) -> Callable[[re.Match[str]], str]:
    """A replacement that writes ``word`` with the capital of the article it replaces."""
    return lambda m: (word[0].upper() if m.group(1).isupper() else word[0]) + word[1:]


#: The same agreement in Catalan, Spanish and Portuguese, whose catalogues write the
#: masculine article before every card name ("el %(card)s"): Catalan "el As" -> "l'As",
#: "el Dama" -> "la Dama"; Spanish "el Reina" -> "la Reina"; Portuguese "o Dama" -> "a Dama".
_ARTICLES: dict[str, tuple[tuple[re.Pattern[str], Any], ...]] = {
    "fr": _FR_ARTICLES,
    "ca": (
        (re.compile(r"\b([Ee])l As\b"), _cap("l'As")),
        (re.compile(r"\b([Aa])l As\b"), _cap("a l'As")),
        (re.compile(r"\b([Dd])el As\b"), _cap("de l'As")),
        (re.compile(r"\b([Ee])l Dama\b"), _cap("la Dama")),
        (re.compile(r"\b([Aa])l Dama\b"), _cap("a la Dama")),
        (re.compile(r"\b([Dd])el Dama\b"), _cap("de la Dama")),
    ),
    "es": (
        (re.compile(r"\b([Ee])l Reina\b"), _cap("la Reina")),
        (re.compile(r"\b([Aa])l Reina\b"), _cap("a la Reina")),
        (re.compile(r"\b([Dd])el Reina\b"), _cap("de la Reina")),
    ),
    "pt": (
        (re.compile(r"\b([Oo]) Dama\b"), _cap("a Dama")),
        (re.compile(r"\b([Aa])o Dama\b"), _cap("à Dama")),
        (re.compile(r"\b([Dd])o Dama\b"), _cap("da Dama")),
        (re.compile(r"\b([Nn])o Dama\b"), _cap("na Dama")),
    ),
}


def card_articles(lang: str, text: str) -> str:
    """``text`` with the article before a card name agreed in ``lang`` (``_ARTICLES``;
    French: :func:`french_articles`); other languages' text unchanged."""
    for pattern, repl in _ARTICLES.get(lang, ()):
        text = pattern.sub(repl, text)
    return text


class _AgreedText(str):
    """A message whose ``%`` filling agrees the articles of the card names put in."""

    lang: str

    def __new__(cls, text: str, lang: str) -> _AgreedText:
        self = super().__new__(cls, text)
        self.lang = lang
        return self

    def __mod__(self, values: Any) -> str:
        return card_articles(self.lang, str.__mod__(self, values))


def _agreed(text: str, lang: str) -> str:
    return _AgreedText(text, lang) if lang in _ARTICLES else text


def gettext(message: str) -> str:
    """``message`` in the current language."""
    lang = _current.get()
    own = _game_text(lang, message)
    text = own if isinstance(own, str) else translations(lang).gettext(message)
    return _agreed(text, lang)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n`` in the current language."""
    lang = _current.get()
    own = _game_text(lang, singular)
    catalogue = translations(lang)
    if isinstance(own, tuple) and isinstance(catalogue, _gettext.GNUTranslations):
        form = int(catalogue.plural(n))  # type: ignore[attr-defined] # set from the header
        text = own[min(form, len(own) - 1)]
    else:
        text = catalogue.ngettext(singular, plural, n)
    return _agreed(text, lang)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, told apart by ``context``."""
    return translations(_current.get()).pgettext(context, message)


_ = gettext


def N_(message: str) -> str:  # noqa: N802 - the gettext convention
    """Mark ``message`` for extraction only; translate it later with ``_()``."""
    return message


def NP_(context: str, message: str) -> str:  # noqa: N802 - the gettext convention
    """Mark ``message`` under a game's message ``context`` for extraction only (the
    texts a game words differently, app/table/game_words.py)."""
    return message


def NNP_(context: str, singular: str, plural: str) -> str:  # noqa: N802
    """``NP_`` for a text with a plural."""
    return singular


@contextmanager
def using(lang: str) -> Iterator[None]:
    """Run a block in ``lang`` (tests, socket pushes)."""
    token = _current.set(lang if lang in LANGUAGES else DEFAULT)
    try:
        yield
    finally:
        _current.reset(token)


def number(value: Any, digits: int = 1) -> str:
    """``value`` written the way the page's language writes numbers, with at most
    ``digits`` decimals and none when it is whole: ``2.5`` -> "2,5" in Catalan, Spanish,
    French, Portuguese and Bulgarian, "2.5" in English; ``4.0`` -> "4"; ``-1.25`` ->
    "-1,2" (Babel rounds half to even). No grouping of
    thousands (a score of 1000 stays "1000"). None or "" -> "" (the Jinja filter
    ``number``)."""
    if value is None or value == "":
        return ""
    from babel.numbers import format_decimal

    pattern = "0." + "#" * digits if digits > 0 else "0"
    return format_decimal(value, format=pattern, locale=_current.get())


# ---------------------------------------------------------------- negotiation

_RANGE = re.compile(r"^\s*([A-Za-z]{1,8})(?:-[A-Za-z0-9]{1,8})*\s*(?:;\s*q\s*=\s*([0-9.]+))?\s*$")


def from_accept_language(header: str | None) -> str | None:
    """The best of our languages in an ``Accept-Language`` header, or None.

    ``"pt-BR,pt;q=0.9,en;q=0.5"`` -> ``"pt"``; ``"va"`` (Valencian) counts as Catalan."""
    best: tuple[float, int, str] | None = None
    for i, part in enumerate((header or "").split(",")[:20]):
        m = _RANGE.match(part)
        if not m:
            continue
        primary = m.group(1).lower()
        primary = {"va": "ca"}.get(primary, primary)
        try:
            q = float(m.group(2)) if m.group(2) else 1.0
        except ValueError:
            continue
        if primary in LANGUAGES and q > 0 and (best is None or (q, -i) > (best[0], best[1])):
            best = (q, -i, primary)
    return best[2] if best else None


def negotiate(query: str | None, cookie: str | None, accept: str | None) -> str:
    """The language: ``?lang=``, then the cookie, then Accept-Language, then English."""
    for choice in (query, cookie):
        if choice and choice in LANGUAGES:
            return choice
    return from_accept_language(accept) or DEFAULT


def _scope_choice(scope: dict[str, Any]) -> tuple[str, str | None]:
    """(language, the valid ``?lang=`` of the URL or None) of an ASGI scope."""
    headers = {
        k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers") or []
    }
    query = parse_qs((scope.get("query_string") or b"").decode("latin-1")).get("lang", [None])[0]
    cookie = None
    if "cookie" in headers:
        jar: SimpleCookie = SimpleCookie()
        try:
            jar.load(headers["cookie"])
        except Exception:  # noqa: BLE001 - a malformed cookie header: ignore it
            jar = SimpleCookie()
        if COOKIE in jar:
            cookie = jar[COOKIE].value
    lang = negotiate(query, cookie, headers.get("accept-language"))
    return lang, (query if query in LANGUAGES else None)


class LanguageMiddleware:
    """Sets the language of each request and page socket; ``?lang=xx`` is remembered
    in the cookie ``tapet_lang`` for a year."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        lang, chosen = _scope_choice(scope)
        scope.setdefault("state", {})["lang"] = lang

        async def send_with_cookie(message: dict[str, Any]) -> None:
            if chosen and message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                value = f"{COOKIE}={chosen}; Path=/; Max-Age=31536000; SameSite=Lax"
                headers.append((b"set-cookie", value.encode("latin-1")))
                headers.append((b"content-language", lang.encode("latin-1")))
                message = {**message, "headers": headers}
            await send(message)

        token, words = _current.set(lang), _words.set(None)
        try:
            await self.app(scope, receive, send_with_cookie if scope["type"] == "http" else send)
        finally:
            _words.reset(words)
            _current.reset(token)


# ---------------------------------------------------------------- Jinja2


def install(env: Any) -> Any:
    """Give a Jinja2 environment the i18n extension (``_()``, ``{% trans %}``) in the
    current language, and the globals the language selector needs. Idempotent."""
    if "jinja2.ext.InternationalizationExtension" not in env.extensions:
        env.add_extension("jinja2.ext.i18n")
    env.install_gettext_callables(gettext, ngettext, newstyle=True, pgettext=pgettext)
    env.globals.update(current_lang=current, LANGUAGES=LANGUAGES)
    return env
