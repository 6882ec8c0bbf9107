"""Rendering and form helpers of the room pages (app/rooms/pages.py).

The templates (``templates/``), the context of a room drawn from the viewer's
own view, the fragments pushed over the page socket, and the answers to form
posts: fragments for htmx (errors into ``#flash`` with their HTTP status), a
redirect or an error page for a plain form.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from starlette.requests import HTTPConnection

from app import i18n, rules
from app.accounts import csrf
from app.accounts.models import User
from app.errors import Unprocessable
from app.i18n_errors import translate_error

from . import cards, presenter
from .botplay import bot_names

templates = Jinja2Templates(directory=str(Path(__file__).resolve().parents[2] / "templates"))
i18n.install(templates.env)
STATUS_WORDS = {
    "open": i18n.N_("waiting for players"),
    "playing": i18n.N_("playing"),
    "finished": i18n.N_("finished"),
}
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


def match_length(match: dict[str, Any] | None, target: Any) -> str:
    """How long a room's match is, in words: "2 deals", "45 minutes" (a championship's
    ``room.match``), else "to 1000" (the game's target)."""
    if match and match.get("kind") == "deals":
        return i18n.ngettext("%(num)d deal", "%(num)d deals", int(match["deals"])) % {"num": int(match["deals"])}
    if match and match.get("kind") == "time":
        return i18n._("%(n)s minutes") % {"n": match["minutes"]}
    return i18n._("to %(n)s") % {"n": target}


templates.env.globals.update(
    match_length=match_length,
    bot_label=bot_label,
    suit_name=cards.suit_name,
    choice_label=cards.choice_label,
    belote_word=cards.belote_word,
    option_text=cards.option_text,
    display_name=presenter.display_name,
    status_words=STATUS_WORDS,
    translate_error=translate_error,
)


# ---------------------------------------------------------------- helpers


def is_htmx(request: Request) -> bool:
    """True when htmx sent the request (it then wants fragments, not pages)."""
    return request.headers.get("hx-request") == "true"


def option_labels(game: str) -> dict[str, str]:
    """Option name -> its label, from the game's options_schema."""
    ruleset = rules.GAMES.get(game)
    return {
        o["name"]: cards.option_text(o.get("label", o["name"]))
        for o in (ruleset.options_schema if ruleset else [])
    }


DECK_COOKIE = "tapet_deck"


def four_colour(conn: HTTPConnection) -> bool:
    """The viewer's choice of the four-colour French deck (cookie ``tapet_deck=fr4``,
    set by static/js/tapet.js; art only, nothing to trust)."""
    return conn.cookies.get(DECK_COOKIE) == "fr4"


def room_context(
    view: dict[str, Any],
    user: User | None,
    token: str,
    oob: bool = False,
    four: bool = False,
) -> dict[str, Any]:
    """Template context of a room from the viewer's own view (which carries the room info)."""
    started = view.get("status") != "open"
    return {
        "room": view,
        "view": view if started else None,
        "t": presenter.table(view, four) if started else None,
        "user": user,
        "my_seat": view.get("my_seat"),
        "bots": bot_names(),
        "csrf_token": token,
        "option_labels": option_labels(view.get("game", "")),
        "oob": oob,
        "french_deck": view.get("game") not in cards.CATALAN_GAMES,
        "four_colour": four,
        # The nickname form of a room page comes back to the room (pushes included).
        "next": f"/rooms/{view['id']}" if view.get("id") is not None else "/",
    }


def render_fragments(
    view: dict[str, Any], user: User | None, token: str, four: bool = False
) -> str:
    """The room's live parts as hx-swap-oob fragments (socket pushes, htmx answers)."""
    return templates.get_template("rooms/_room.html").render(
        room_context(view, user, token, oob=True, four=four)
    )


def flash_html(message: str, kind: str = "error") -> str:
    """A message for the ``#flash`` area."""
    return templates.get_template("_flash.html").render(flash=message, flash_kind=kind)


def error_response(
    request: Request, user: User | None, message: str, status: int, back: str = "/"
) -> Response:
    """An error the way the caller can show it: a flash fragment for htmx, a page otherwise."""
    message = translate_error(message)
    if is_htmx(request):
        return HTMLResponse(flash_html(message), status_code=status)
    return templates.TemplateResponse(
        request,
        "error.html",
        {"user": user, "message": message, "back": back, "csrf_token": csrf.csrf_token(request)},
        status_code=status,
    )


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


def parse_options(game: str, form: dict[str, Any]) -> dict[str, Any]:
    """Room options from ``opt_<name>`` fields, typed by the game's options_schema.

    Raises Unprocessable for an unknown game or a number that is not one."""
    ruleset = rules.GAMES.get(game)
    if ruleset is None:
        raise Unprocessable(f"there is no game {game!r}")
    options: dict[str, Any] = {}
    for opt in ruleset.options_schema:
        values = form.get(f"opt_{opt['name']}")
        if not values:
            continue
        if opt["type"] == "bool":
            options[opt["name"]] = "true" in values
        elif opt["type"] == "int":
            raw = str(values[0]).strip()
            if raw == "":
                continue
            try:
                options[opt["name"]] = int(raw)
            except ValueError:
                raise Unprocessable(
                    f"{opt.get('label', opt['name'])}: {raw!r} is not a whole number"
                ) from None
        else:
            raw = str(values[0])
            # A choice keeps the type of its choices (Botifarra's target is 51/101/151).
            typed = {str(c): c for c in opt.get("choices") or []}
            options[opt["name"]] = typed.get(raw, raw)
    return options


def games_for_form() -> list[dict[str, Any]]:
    """The games and their options, for the "create a room" form."""
    return [
        {
            "id": g.id,
            "name": cards.option_text(g.name),
            "players": g.players,
            "options": [
                {
                    **o,
                    "label": cards.option_text(o.get("label", o["name"])),
                    "choice_labels": [(c, cards.choice_label(o["name"], c, g.id)) for c in o.get("choices") or []],
                }
                for o in g.options_schema
            ],
        }
        for g in rules.GAMES.values()
    ]


FORBIDDEN_FORM = i18n.N_(
    "This form has expired or came from another site. Reload the page and try again."
)
