"""The site's one Jinja environment and the answers every HTML feature shares.

``templates`` serves ``templates/`` with the i18n extension installed (app/web/i18n.py)
and the globals every page may use (card and option names, bot labels, the translated
refusals). A feature that needs globals of its own adds them with ``add_globals``, which
refuses to change a name another feature gave a different value: one environment, no
silent override.

The answers to form posts: a fragment for htmx (errors into ``#flash`` with their HTTP
status), a redirect or an error page for a plain form (``error_response``, ``go``,
``checked_form``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from starlette.requests import HTTPConnection

from app.core.errors import TooManyRequests
from app.web import cards, csrf, i18n
from app.web.errors import message_for
from app.web.static import static_url

templates = Jinja2Templates(directory=str(Path(__file__).resolve().parents[2] / "templates"))
i18n.install(templates.env)


def add_globals(**values: Any) -> None:
    """Make ``values`` global in every template. Raises ValueError when a name is already
    global with another value (two features must not give one name two meanings)."""
    env = templates.env.globals
    for name, value in values.items():
        if name in env and env[name] is not value and env[name] != value:
            raise ValueError(f"template global {name!r} is already {env[name]!r}")
        env[name] = value


#: bot level -> (label of one bot, label of several); unknown levels fall back to "<level> bot".
BOT_LABELS = {
    "random": (i18n.N_("Random bot"), i18n.N_("Random bots")),
    "heuristic": (i18n.N_("Heuristic bot"), i18n.N_("Heuristic bots")),
    "strong": (i18n.N_("Strong bot"), i18n.N_("Strong bots")),
}


def bot_label(level: str | None, many: bool = False) -> str:
    """The translated name of a bot level ("Strong bot", or "Strong bots" with ``many``)."""
    pair = BOT_LABELS.get(level or "")
    if pair is None:
        if many:
            return i18n._("%(level)s bots") % {"level": level}
        return i18n._("%(level)s bot") % {"level": level}
    return i18n._(pair[1] if many else pair[0])


def is_htmx(request: Request) -> bool:
    """True when htmx sent the request (it then wants fragments, not pages)."""
    return request.headers.get("hx-request") == "true"


DECK_COOKIE = "tapet_deck"


def four_colour(conn: HTTPConnection) -> bool:
    """The viewer's choice of the four-colour French deck (cookie ``tapet_deck=fr4``,
    set by static/js/tapet.js; art only, nothing to trust)."""
    return conn.cookies.get(DECK_COOKIE) == "fr4"


def flash_html(message: str, kind: str = "error") -> str:
    """A message for the ``#flash`` area."""
    return templates.get_template("_flash.html").render(flash=message, flash_kind=kind)


def error_response(
    request: Request, user: Any, message: str | Exception, status: int, back: str = "/"
) -> Response:
    """An error the way the caller can show it: a flash fragment for htmx, a page otherwise.

    ``message`` is a refusal (``ServiceError``, ``IllegalAction``: translated from its
    code, app/web/errors.py) or a text (a msgid of the pages, or already translated). A
    rate limit's refusal (``TooManyRequests``) says when to come back (``Retry-After``)."""
    text = message_for(message)
    if is_htmx(request):
        return with_retry(HTMLResponse(flash_html(text), status_code=status), message)
    return with_retry(
        templates.TemplateResponse(
            request,
            "error.html",
            {"user": user, "message": text, "back": back, "csrf_token": csrf.csrf_token(request)},
            status_code=status,
        ),
        message,
    )


def with_retry(response: Response, refusal: object) -> Response:
    """``response`` with ``Retry-After`` when ``refusal`` is a rate limit's
    (``TooManyRequests``: its whole seconds), as the API's 429s have; else unchanged."""
    if isinstance(refusal, TooManyRequests):
        response.headers["Retry-After"] = str(refusal.retry_after)
    return response


def go(request: Request, url: str) -> Response:
    """After a successful post, go to ``url``: ``HX-Redirect`` for htmx, a 303 for a form."""
    if is_htmx(request):
        return HTMLResponse("", headers={"HX-Redirect": url})
    return RedirectResponse(url, status_code=303)


async def checked_form(request: Request) -> dict[str, Any] | None:
    """The posted form as a dict of lists, or None when the CSRF check fails."""
    form = await request.form()
    if not csrf.check(request, str(form.get(csrf.FIELD) or "")):
        return None
    return {k: form.getlist(k) for k in form.keys()}


def first(form: dict[str, Any], name: str) -> str | None:
    """The first value of a form field, or None."""
    values = form.get(name) or []
    return str(values[0]) if values else None


FORBIDDEN_FORM = i18n.N_(
    "This form has expired or came from another site. Reload the page and try again."
)


async def person_form(request: Request, user: Any) -> tuple[dict[str, Any] | None, Response | None]:
    """A table's form posted by a person: ``(form, None)``, or ``(None, the refusal page)``
    when the CSRF check fails (403) or nobody is signed in (401). ``user`` is the
    request's user or None."""
    form = await checked_form(request)
    if form is None:
        return None, error_response(request, user, FORBIDDEN_FORM, 403)
    if user is None:
        return None, error_response(request, user, "Choose a nickname first.", 401)
    return form, None


add_globals(
    bot_label=bot_label,
    static_url=static_url,  # a style sheet's or a script's versioned URL (app/web/static.py)
    suit_name=cards.suit_name,
    option_text=cards.option_text,
    message_for=message_for,
)
templates.env.filters["word"] = cards.option_text
# a number in the page's language: 2.5 -> "2,5" in Catalan (match points, Buchholz, averages)
templates.env.filters["number"] = i18n.number
