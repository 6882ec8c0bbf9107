"""The rules help: one page per game and language, with a room's options marked.

| route | does |
|---|---|
| ``GET /rules`` | the games, with links to their rules |
| ``GET /rules/{game}`` | the rules of ``game`` in the page language (``?lang=`` switches it) |
| ``GET /rules/{game}?room=ID`` | the same, with that room's option values marked |

The text of each game is written per language in ``templates/rules/<doc>/<lang>.html``
(from /work/shared/rules/*.md: deck, ranks and points, deal, auction or choice,
declarations, obligations of play, scoring, match, a small worked example); Belote for
two has its own text (``doc`` "belote-2p": 18 of the 32 cards played, no contract). The
options table is built from the engine's ``options_schema``: every option, its
default, and, with ``?room=``, the room's value highlighted (``<mark>``). The text
itself marks option-dependent rules with ``opt(name, value)``, which is "on" when the
room (or, without a room, the default) uses that value.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from app import rules
from app.accounts.deps import OptionalUser
from app.core.db import INT32, SessionDep
from app.core.errors import NotFound
from app.rooms import service
from app.table import labels
from app.web import cards, csrf, i18n
from app.web.i18n import _
from app.web.templating import error_response, templates

router = APIRouter(include_in_schema=False)


def value_words(option: dict[str, Any], value: Any, game: str | None = None) -> str:
    """An option value as words: yes/no, a choice's label, a number, or "—"."""
    if value is True:
        return _("yes")
    if value is False:
        return _("no")
    if value is None:
        return "—"
    if option.get("type") == "choice":
        return labels.choice_label(option["name"], value, game)
    return str(value)


def options_rows(game: str, chosen: dict[str, Any] | None) -> list[dict[str, Any]]:
    """One row per option: label, default, the room's value (when a room is given),
    and whether the room differs from the default."""
    ruleset = rules.GAMES[game]
    rows = []
    for o in ruleset.options_schema:
        default = o.get("default")
        row: dict[str, Any] = {
            "name": o["name"],
            "label": cards.option_text(o.get("label", o["name"])),
            "default": value_words(o, default, game),
            "values": [value_words(o, c, game) for c in o.get("choices") or []],
        }
        if chosen is not None:
            value = chosen.get(o["name"], default)
            row["room"] = value_words(o, value, game)
            row["changed"] = value != default
        rows.append(row)
    return rows


def option_checker(game: str, chosen: dict[str, Any] | None) -> Any:
    """``opt(name, value)`` for the templates: True when the room (or the default)
    sets option ``name`` to ``value``."""
    defaults = {o["name"]: o.get("default") for o in rules.GAMES[game].options_schema}
    values = {**defaults, **(chosen or {})}

    def opt(name: str, value: Any = True) -> bool:
        return values.get(name) == value

    return opt


def option_value(game: str, chosen: dict[str, Any] | None) -> Any:
    """``opt_value(name)`` for the templates: the room's (or the default) value of option
    ``name`` in words ("FFB contrée ...", "160", "yes")."""
    schema = {o["name"]: o for o in rules.GAMES[game].options_schema}
    values = {name: o.get("default") for name, o in schema.items()} | (chosen or {})

    def opt_value(name: str) -> str:
        if name == "preset":  # the preset, or "…, modified: …" when options differ (§10)
            words = labels.preset_words(game, values)
            if words:
                return words[1]
        return value_words(schema.get(name, {}), values.get(name), game)

    return opt_value


@router.get("/rules", response_class=HTMLResponse)
async def rules_index(request: Request, user: OptionalUser) -> Response:
    """The games and their rules pages."""
    games = [
        {"id": g.id, "name": cards.option_text(g.name), "players": g.players}
        for g in rules.GAMES.values()
    ]
    return templates.TemplateResponse(
        request,
        "rules/index.html",
        {"user": user, "games": games, "csrf_token": csrf.csrf_token(request)},
    )


@router.get("/rules/{game}", response_class=HTMLResponse)
async def rules_page(
    request: Request, game: str, db: SessionDep, user: OptionalUser, room: str | None = None
) -> Response:
    """The rules of ``game`` in the page language, with the options of ``?room=`` marked
    (a ``room`` that is not a room of ``game``, or no room at all, is ignored: the rules
    are the same, with the default options)."""
    doc = labels.of(game).rules_doc
    if doc is None or game not in rules.GAMES:
        return error_response(request, user, _("There is no game %(game)s.") % {"game": game}, 404)
    chosen: dict[str, Any] | None = None
    room_info: dict[str, Any] | None = None
    room_id = int(room) if room and room.isascii() and room.isdigit() and len(room) <= 10 else 0
    if 1 <= room_id <= INT32:
        try:
            room_info = await service.room_info(db, room_id)
        except NotFound:
            room_info = None
        if room_info is not None and room_info.get("game") == game:
            chosen = dict(room_info.get("options") or {})
        else:
            room_info = None
    lang = i18n.current()
    return templates.TemplateResponse(
        request,
        "rules/page.html",
        {
            "user": user,
            "csrf_token": csrf.csrf_token(request),
            "game": game,
            "game_name": cards.option_text(rules.GAMES[game].name),
            "doc": f"rules/{doc}/{lang}.html",
            "two_players": rules.GAMES[game].players == 2,
            "options": options_rows(game, chosen),
            "opt": option_checker(game, chosen),
            "opt_value": option_value(game, chosen),
            # the raw values (the room's, else the defaults) for figures quoted in the text
            "ov": rules.GAMES[game].validate_options(chosen or {}),
            "target": (chosen or {}).get("target")
            or rules.GAMES[game].validate_options({}).get("target"),
            "room": room_info,
            "other_games": [g for g in rules.GAMES.values() if g.id != game],
        },
    )
