"""Rendering helpers of the room pages (app/table/pages.py): the context of a room
drawn from the viewer's own view, the fragments pushed over the page socket, and the
room form's options. The environment and the answers to form posts are the site's
(app/web/templating.py)."""

from __future__ import annotations

from typing import Any

from app import rules
from app.accounts.models import User
from app.accounts.service import new_form_key
from app.core.errors import Unprocessable
from app.rooms.botplay import bot_names
from app.table import labels, presenter
from app.web import cards, i18n
from app.web.templating import add_globals, templates

STATUS_WORDS = {
    "open": i18n.N_("waiting for players"),
    "playing": i18n.N_("playing"),
    "finished": i18n.N_("finished"),
}


def match_length(match: dict[str, Any] | None, target: Any) -> str:
    """How long a room's match is, in words: "2 deals", "45 minutes" (a championship's
    ``room.match``), else "to 1000" (the game's target); a match with several limits
    names each, the first reached ending it ("to 1000 · 12 deals · 45 minutes")."""
    match = match or {}
    parts = [] if match.get("kind") in ("deals", "time") else [i18n._("to %(n)s") % {"n": target}]
    if match.get("deals"):
        deals = int(match["deals"])
        parts.append(i18n.ngettext("%(num)d deal", "%(num)d deals", deals) % {"num": deals})
    if match.get("minutes"):
        parts.append(i18n._("%(n)s minutes") % {"n": match["minutes"]})
    return " · ".join(parts)


add_globals(
    match_length=match_length,
    display_name=presenter.display_name,
    status_words=STATUS_WORDS,
    choice_label=labels.choice_label,
    belote_word=labels.belote_word,
)


# ---------------------------------------------------------------- helpers


def option_labels(game: str) -> dict[str, str]:
    """Option name -> its label, from the game's options_schema."""
    ruleset = rules.GAMES.get(game)
    return {
        o["name"]: cards.option_text(o.get("label", o["name"]))
        for o in (ruleset.options_schema if ruleset else [])
    }


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
        # who may seat and remove bots and start (the room's creator or a seated person:
        # app/rooms/service.py); a stranger is offered only a seat
        "in_room": user is not None
        and (view.get("created_by") == user.id or view.get("my_seat") is not None),
        "bots": bot_names(),
        "csrf_token": token,
        "option_labels": option_labels(view.get("game", "")),
        "oob": oob,
        "french_deck": not cards.spanish_deck(view.get("game")),
        "four_colour": four,
        # The nickname form of a room page comes back to the room (pushes included).
        "next": f"/rooms/{view['id']}" if view.get("id") is not None else "/",
        # ...with a one-time key of its own (each render is one viewer's: never shared)
        "guest_key": new_form_key() if user is None else None,
    }


def render_fragments(
    view: dict[str, Any], user: User | None, token: str, four: bool = False
) -> str:
    """The room's live parts as hx-swap-oob fragments (socket pushes, htmx answers), in
    the words of the room's game (joc/partida in Bolot: ``labels.words_of``)."""
    with i18n.game_words(labels.words_of(view.get("game"))):
        return templates.get_template("rooms/_room.html").render(
            room_context(view, user, token, oob=True, four=four)
        )


def parse_options(game: str, form: dict[str, Any]) -> dict[str, Any]:
    """Room options from ``opt_<name>`` fields, typed by the game's options_schema.

    Raises Unprocessable for an unknown game or a number that is not one."""
    ruleset = rules.GAMES.get(game)
    if ruleset is None:
        raise Unprocessable(f"there is no game {game!r}", "unknown_game", game=game)
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
                    f"{opt.get('label', opt['name'])}: {raw!r} is not a whole number",
                    "not_whole_number",
                    label=opt.get("label", opt["name"]),
                    raw=repr(raw),
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
                    "choice_labels": [
                        (c, labels.choice_label(o["name"], c, g.id)) for c in o.get("choices") or []
                    ],
                }
                for o in g.options_schema
            ],
        }
        for g in rules.GAMES.values()
    ]
