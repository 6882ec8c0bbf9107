"""HTML pages of the championships: public and live, phone first; organiser forms.

| route | does |
|---|---|
| ``GET /tournaments`` | the championships; forms to create one and a club (signed in) |
| ``GET /tournaments/{id}`` | pairings of the open round and the standings, refreshed every 5 s |
| ``GET /tournaments/{id}/live`` | that live part alone (htmx polling) |
| ``GET /tournaments/{id}/standings`` | standings with every tie-break value, the order explained, clubs |
| ``GET /tournaments/{id}/teams/{team}`` | a team's history |
| ``GET /tournaments/{id}/tables/{n}`` | a table's score sheet; organisers enter deals or the result |
| ``GET /tournaments/{id}/manage`` | organisers: teams, withdrawals, rounds, results, audit trail |
| ``GET /tournaments/{id}/print/pairings`` , ``/print/sheets`` | printable pairings, one score sheet per page |
| ``POST /tournaments/{id}/requests`` | a player asks to enter a team (``signup``) |
| ``POST /tournaments/{id}/requests/{r}/approve|decline|withdraw`` | decide or withdraw it |
| ``POST /tournaments/{id}/registration`` | organisers open or close the players' registration |
| ``POST ...`` | the organiser forms, each checked for CSRF and origin |

Every POST goes through ``_post``: CSRF, a session, then the service; a refusal
shows its message (error page, or ``#flash`` for htmx) with its status. Every form
carries a one-time ``creation_key`` (``form_key()``, a new one each time a form is
shown): the service runs it once (``service.once``), so a double tap or a form sent
again changes nothing and goes where the first one went.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any, cast

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app import rules
from app.accounts.deps import OptionalUser
from app.accounts.models import User
from app.accounts.service import new_form_key
from app.core.db import SessionDep, as_utc, utcnow
from app.core.errors import ServiceError
from app.rooms.botplay import bot_names
from app.table import labels
from app.tournaments import config, results, rounds, service, signup, views
from app.tournaments.models import CLUB_KINDS, FORMATS
from app.tournaments.standings import TIEBREAKS
from app.web import cards, csrf, i18n
from app.web.errors import message_for
from app.web.templating import add_globals, templates

router = APIRouter(include_in_schema=False)
N_ = i18n.N_
# The tournament service's words, shown through word() (statuses, formats, stages,
# club kinds, outcomes, tie-breaks): marked here for the catalogues.
WORDS = (
    N_("registration"),
    N_("running"),
    N_("finished"),
    N_("draft"),
    N_("published"),
    N_("closed"),
    N_("league"),
    N_("group"),
    N_("knockout"),
    N_("pending"),
    N_("playing"),
    N_("done"),
    N_("void"),
    N_("paper"),
    N_("online"),
    N_("won"),
    N_("lost"),
    N_("draw"),
    N_("bye"),
    N_("removed"),
    N_("falla"),
    N_("penya"),
    N_("society"),
    N_("club"),
    N_("made"),
    N_("failed"),
    N_("litige"),
    N_("tie"),
    N_("inside"),
    N_("hanging"),
    N_("claim"),
    N_("scored"),
    N_("revoke"),
    N_("points only"),
    N_("swiss"),
    N_("match points"),
    N_("teams still level share the rank"),
    N_("Round robin (Berger tables)"),
    N_("Swiss"),
    N_("Knockout"),
    N_("Groups, then knockout"),
    N_("head-to-head (match points among the teams level)"),
    N_("point difference (scored minus conceded)"),
    N_("points scored"),
    N_("Buchholz (sum of the opponents' match points)"),
    N_("matches won"),
    N_("Choose a nickname first (on the lobby page)."),
    N_("Only the organisers of this tournament may manage it."),
    N_("Print pairings, sheets or standings."),
)
#: The match definition's words (``match_words``).
_MATCH_TARGET = N_("to %(n)s points")
_MATCH_DEALS = N_("%(n)s deals")
_MATCH_MINUTES = N_("%(n)s minutes, the deal in progress finished")
_MATCH_OR = N_(" or ")
_MATCH_FIRST = N_(", whichever comes first")
_MATCH_CAP = N_(", scores recorded up to %(n)s")


#: The audit trail's actions in the page language (``audit_line``).
_AUDIT_ACTIONS = {
    "create": N_("created the tournament %(subject)s"),
    "organiser": N_("made %(subject)s a co-organiser"),
    "team": N_("entered the team %(subject)s"),
    "late_entry": N_("entered the team %(subject)s late"),
    "withdraw": N_("withdrew the team %(subject)s"),
    "table_mode": N_("changed how %(subject)s is played"),
    "publish": N_("published %(subject)s"),
    "close": N_("closed %(subject)s"),
    "result": N_("entered the result of %(subject)s"),
    "correction": N_("corrected %(subject)s"),
    "reopen": N_("reopened %(subject)s"),
    "pairing": N_("changed the pairing of %(subject)s"),
    "unpublish": N_("took %(subject)s back to a draft"),
    "edit_team": N_("corrected the team %(subject)s"),
    "end_early": N_("ended the championship %(subject)s early"),
    "points_deal": N_("entered the points alone of %(subject)s"),
    "team_request": N_("asked to enter the team %(subject)s"),
    "request_withdrawn": N_("withdrew the request of the team %(subject)s"),
    "request_approved": N_("approved the request of the team %(subject)s"),
    "request_declined": N_("declined the request of the team %(subject)s"),
    "registration_opened": N_("let players register their teams in %(subject)s"),
    "registration_closed": N_("closed the players' registration of %(subject)s"),
}
#: The audit trail's subjects, as results.py and rounds.py write them.
_AUDIT_SUBJECTS = (
    (
        re.compile(r"^round (\d+) table (\d+) deal (\d+)$"),
        N_("round %(round)s, table %(table)s, deal %(deal)s"),
    ),
    (re.compile(r"^round (\d+) table (\d+)$"), N_("round %(round)s, table %(table)s")),
    (re.compile(r"^round (\d+)$"), N_("round %(round)s")),
)
_AUDIT_REMAINING = {
    "forfeit": N_("its remaining matches forfeited"),
    "remove": N_("all its matches removed from the standings"),
}


def audit_line(entry: dict[str, Any]) -> str:
    """An audit entry's action and subject as a sentence in the page language
    ("corrected round 2, table 3" -> "ha corregit la ronda 2, taula 3"); an unknown
    action is shown as it is stored."""
    subject = str(entry.get("subject") or "")
    for pattern, msgid in _AUDIT_SUBJECTS:
        m = pattern.match(subject)
        if m:
            keys = ("round", "table", "deal")
            subject = i18n.gettext(msgid) % dict(zip(keys, m.groups(), strict=False))
            break
    action = str(entry.get("action") or "")
    said = _AUDIT_ACTIONS.get(action)
    line = i18n.gettext(said) % {"subject": subject} if said else f"{action} {subject}"
    remaining = (entry.get("after") or {}).get("remaining") if action == "withdraw" else None
    if remaining in _AUDIT_REMAINING:
        line += " (" + i18n.gettext(_AUDIT_REMAINING[remaining]) + ")"
    return line


def word(text: Any) -> str:
    """One of the service's words in the page language ("running" -> "en joc")."""
    return i18n.gettext(str(text)) if text else ""


def match_words(t: dict[str, Any]) -> str:
    """The match definition in the page language, from the tournament's settings: "to
    1000 points", "12 deals", "45 minutes, the deal in progress finished", several of
    them joined by "or" with "whichever comes first", and a score cap after
    (``config.describe_match`` says the same in English)."""
    settings, options = t.get("settings") or {}, t.get("options") or {}
    match = settings.get("match") or {"kind": "target"}
    parts = []
    if match.get("kind", "target") == "target":
        parts.append(i18n.gettext(_MATCH_TARGET) % {"n": options.get("target")})
    if match.get("deals"):
        parts.append(i18n.gettext(_MATCH_DEALS) % {"n": match["deals"]})
    if match.get("minutes"):
        parts.append(i18n.gettext(_MATCH_MINUTES) % {"n": match["minutes"]})
    text = i18n.gettext(_MATCH_OR).join(parts)
    if len(parts) > 1:
        text += i18n.gettext(_MATCH_FIRST)
    if options.get("cap_score"):
        text += i18n.gettext(_MATCH_CAP) % {"n": options["cap_score"]}
    return text or str(t.get("match") or "")


def form_key() -> str:
    """A new one-time key for a form (its hidden ``creation_key``): the request it sends
    is run once however often it is sent (``service.once``); the site's one kind of form
    key (``accounts.new_form_key``)."""
    return new_form_key()


def _key(form: dict[str, str]) -> str | None:
    """The form's one-time key, or None (a form without one simply runs)."""
    return form.get("creation_key") or None


#: A knockout round's name by its places (``rounds.bracket_places``); more places:
#: "Round of %(n)s" (the round of 16 has its own name in most languages: "vuitens").
_KNOCKOUT_ROUNDS = {
    2: N_("Final"),
    4: N_("Semi-finals"),
    8: N_("Quarter-finals"),
    16: N_("Round of 16"),
}
_ROUND_OF = N_("Round of %(n)s")
_ROUND_N = N_("Round %(n)s")
_ROUND_NAMED = N_("%(name)s (round %(n)s)")


def round_name(r: dict[str, Any]) -> str:
    """A round's name in the page language: a knockout round by what it is ("Final",
    "Semi-finals", "Quarter-finals", "Round of 16": its ``bracket`` places, the teams
    left), another round by its number ("Round 3")."""
    places = r.get("bracket")
    if not places:
        return i18n.gettext(_ROUND_N) % {"n": r["number"]}
    if places in _KNOCKOUT_ROUNDS:
        return i18n.gettext(_KNOCKOUT_ROUNDS[places])
    return i18n.gettext(_ROUND_OF) % {"n": places}


def round_title(r: dict[str, Any]) -> str:
    """A round's heading: "Semi-finals (round 5)" for a knockout round (its number stays
    findable: the tables' links and the printed sheets use it), "Round 3" otherwise."""
    if not r.get("bracket"):
        return round_name(r)
    return i18n.gettext(_ROUND_NAMED) % {"name": round_name(r), "n": r["number"]}


#: What an organiser's action did, shown once after its redirect (``_post``'s ``done``).
#: The cookie carries only one of these codes: the page shows the code's text, never
#: what the cookie says.
DONE = {
    "created": N_("The championship is created."),
    "club": N_("The club is added."),
    "team": N_("The team is entered."),
    "team_edited": N_("The team is saved."),
    "withdrawn": N_("The team is withdrawn."),
    "paired": N_("The round is paired: check the preview, then publish it."),
    "pairing": N_("The pairing is saved."),
    "published": N_("The round is published."),
    "closed": N_("The round is closed."),
    "unpublished": N_("The round is a draft again."),
    "ended": N_("The championship is ended."),
    "mode": N_("The table's mode is changed."),
    "result": N_("The result is saved."),
    "deal": N_("The deal is added."),
    "fixed": N_("The deal is corrected."),
    "finished": N_("The match is finished at its totals."),
    "reopened": N_("The match is reopened."),
    "registration": N_("The players' registration is changed."),
    "request": N_("Your request is sent: the organisers will answer it."),
    "request_approve": N_("The request is approved: the team is entered."),
    "request_decline": N_("The request is declined."),
    "request_withdraw": N_("The request is withdrawn."),
}
DONE_COOKIE = "tapet_done"

_WARN_MET = N_("%(home)s and %(away)s already met in round %(round)s.")
_WARN_BYE = N_("%(team)s already had a bye in round %(round)s.")


def pairing_warning(w: dict[str, Any]) -> str:
    """One of ``rounds.pairing_warnings`` as a sentence in the page language."""
    if w["kind"] == "met":
        return i18n.gettext(_WARN_MET) % {"home": w["home"], "away": w["away"], "round": w["round"]}
    return i18n.gettext(_WARN_BYE) % {"team": w["team"], "round": w["round"]}


add_globals(
    word=word,
    match_words=match_words,
    form_key=form_key,
    audit_line=audit_line,
    round_name=round_name,
    round_title=round_title,
)  # the filter 'word' is the site's (app/web/templating.py)

FORBIDDEN_FORM = N_(
    "This form has expired or came from another site. Reload the page and try again."
)


def _page(request: Request, name: str, user: User | None, **ctx: Any) -> Response:
    """Render ``name``. A championship's page speaks its game's words (joc/partida in
    Bolot). A whole page (not a fragment, not a print page) shows the message of the
    organiser's last action once (``DONE``, from ``_post``'s cookie) in the ``#flash``
    area (role="status") and clears the cookie."""
    if ctx.get("t"):
        i18n.set_game_words(labels.words_of(ctx["t"]["game"]))
    done = request.cookies.get(DONE_COOKIE)
    whole = not name.rsplit("/", 1)[-1].startswith(("_", "print_"))
    if whole and done in DONE and "flash" not in ctx:
        ctx |= {"flash": i18n.gettext(DONE[done]), "flash_kind": "info"}
    response = templates.TemplateResponse(
        request, name, {"user": user, "csrf_token": csrf.csrf_token(request), **ctx}
    )
    if whole and done is not None:
        response.delete_cookie(DONE_COOKIE, path="/")
    return response


def _error(
    request: Request, user: User | None, message: str | Exception, status: int, back: str
) -> Response:
    """The refusal ``message`` (a ServiceError, or a text) as a page or ``#flash``."""
    message = message_for(message)
    if request.headers.get("hx-request") == "true":
        html = templates.get_template("_flash.html").render(flash=message, flash_kind="error")
        return HTMLResponse(html, status_code=status)
    return templates.TemplateResponse(
        request,
        "error.html",
        {"user": user, "message": message, "back": back, "csrf_token": csrf.csrf_token(request)},
        status_code=status,
    )


async def _post(
    request: Request,
    user: User | None,
    back: str,
    action: Callable[[dict[str, str]], Awaitable[str | None]],
    again: Callable[[dict[str, str], str | Exception, int], Awaitable[Response]] | None = None,
    done: str | None = None,
) -> Response:
    """Check the form (CSRF, session), run ``action(form)``, go to the URL it returns (or
    ``back``); ``done`` (a key of ``DONE``) is said once on the page it goes to (a
    short-lived cookie holding the key). A refusal shows its message: ``again(form,
    message, status)`` when given (the form re-shown with what was typed), else the
    error page or ``#flash``."""
    raw = await request.form()
    form = {k: str(v) for k, v in raw.items()}
    if not csrf.check(request, form.get(csrf.FIELD)):
        return _error(request, user, FORBIDDEN_FORM, 403, back)
    if user is None:
        return _error(request, user, "Choose a nickname first (on the lobby page).", 401, back)
    # A refused action may have rolled the session back, which expires ``user``: the
    # error page's header then reads this copy instead of the database.
    header_user = cast(User, SimpleNamespace(id=user.id, nickname=user.nickname, kind=user.kind))
    try:
        to = await action(form) or back
    except ServiceError as exc:
        message: str | Exception = exc  # translated from its code (app/web/errors.py)
        if again is not None and request.headers.get("hx-request") != "true":
            return await again(form, message, exc.status)
        return _error(request, header_user, message, exc.status, back)
    response: Response
    if request.headers.get("hx-request") == "true":
        response = HTMLResponse("", headers={"HX-Redirect": to})
    else:
        response = RedirectResponse(to, status_code=303)
    if done in DONE:
        response.set_cookie(DONE_COOKIE, done, max_age=60, path="/", httponly=True, samesite="lax")
    return response


def _int(form: dict[str, str], name: str) -> int | None:
    value = form.get(name, "").strip()
    try:
        return int(value) if value else None
    except ValueError:
        label = name.replace("_", " ")
        raise service.Unprocessable(
            f"{label} must be a whole number", "whole_number", label=label
        ) from None


def _example_summary(game: str) -> str:
    """A deal summary to start from in the score sheet form (rules/<game>.md §8), as JSON:
    the ruleset's ``example_summary``."""
    return json.dumps(rules.GAMES[game].example_summary())


DECL_ROWS = 3  #: declaration rows of the score-sheet form


def deal_form(game: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the per-game deal form offers under the tournament's ``options`` (as stored):
    suits, ranks, which fields apply (rules/<game>.md §8). ``bidder_tricks``: the
    *générale*'s field, shown when option ``generale`` allows that bid (rules/contree.md §8)."""

    g = rules.GAMES[game]
    fields = g.summary_contract_fields(config.clean_options(game, options))
    suits = [(s, cards.suit_name(s)) for s in g.table.suits]
    return {
        "game": game,
        "suits": suits,
        "ranks": list(g.table.sequence_order or g.table.ranks),
        "four_ranks": list(getattr(g, "four_ranks", ()) or ()),
        "botifarra": g.summary_kind == "botifarra",
        "bridge": g.summary_kind == "bridge",
        "belote_family": g.summary_kind == "belote",
        "declarations": g.has_declarations,
        "rows": list(range(DECL_ROWS)),
        # a contract of points with a coinche level (rules/contree.md §8)
        "bid_points": "bid" in g.summary_contract_keys,
        "coinche": "coinche" in g.summary_contract_keys,
        "bidder_tricks": "bidder_tricks" in fields,
    }


def _field_int(
    form: dict[str, str], name: str, label: str, default: int | None = None
) -> int | None:
    value = (form.get(name) or "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        # the input is not echoed (docs/security.md: 422s never echo it)
        raise service.Unprocessable(
            f"{label} must be a whole number", "whole_number", label=label
        ) from None


def _needed(form: dict[str, str], name: str, label: str) -> int:
    value = _field_int(form, name, label)
    if value is None:
        raise service.Unprocessable(f"{label} is missing", "field_missing", label=label)
    return value


#: The points-only form's fields, one per side in seat order (home, away, third).
POINT_FIELDS = ("p0", "p1", "p2")
_POINTS_LABEL = N_("the points of the deal")


def points_from_fields(form: dict[str, str]) -> dict[str, Any]:
    """A deal entered as its points alone (``results.POINTS_ONLY``) from the points-only
    form: ``p0``, ``p1`` and, at a table of three, ``p2``, as the café's sheet writes
    them. Raises Unprocessable (a field missing or not a whole number); the engine
    then checks the points (``rules.plausible_deal_points``)."""
    keys = [k for k in POINT_FIELDS if k in form]
    return {results.POINTS_ONLY: [_needed(form, k, _POINTS_LABEL) for k in keys]}


def fields_of_points(summary: dict[str, Any]) -> dict[str, str]:
    """The points-only form's fields filled from a deal entered as its points alone."""
    points = summary[results.POINTS_ONLY]
    return {"entry": "points"} | {k: str(v) for k, v in zip(POINT_FIELDS, points, strict=False)}


def summary_from_fields(game: str, form: dict[str, str]) -> dict[str, Any]:  # noqa: C901 - one branch per summary shape
    """The deal summary (rules/<game>.md §8) built from the score-sheet form's fields.

    Fields: ``f_trump`` (a suit; "" for Botifarra's botifarra; "NT"/"AT" in
    Bridge-Belote), ``f_taker`` (team 0/1), ``f_tricks0/1``, ``f_cp0/1``,
    ``f_last``, ``f_belote`` (the team, or "" ; Bridge-Belote ``f_belote0/1``
    counts), ``f_doublings`` (Botifarra), ``f_multiplier`` (Bridge-Belote),
    ``f_eldest``, ``f_carried``, ``f_bid``, ``f_coinche`` and ``f_bidder_tricks`` (contrée; a *générale*), and declaration rows ``f_d<i>_team/kind/length/top/suit/rank``.
    The engine checks the rest (score_deal) and explains what is wrong."""
    trump = (form.get("f_trump") or "").strip() or None
    if rules.GAMES[game].summary_kind == "belote_players":
        return _players_summary(form, trump)
    taker = _needed(form, "f_taker", "the team that took the contract")
    tricks = [_needed(form, f"f_tricks{t}", f"tricks of team {t + 1}") for t in (0, 1)]
    cp = [_needed(form, f"f_cp{t}", f"card points of team {t + 1}") for t in (0, 1)]
    summary: dict[str, Any] = {"tricks": tricks, "card_points": cp}
    kind = rules.GAMES[game].summary_kind  # the summary's shape (app/rules/core.py)
    if kind == "botifarra":
        summary["contract"] = {
            "trump": trump,
            "botifarra": trump is None,
            "chooser_team": taker,
            "doublings": _field_int(form, "f_doublings", "doublings", 0),
        }
        return summary
    summary["last_trick_team"] = _needed(form, "f_last", "the team that took the last trick")
    declarations: list[list[dict[str, Any]]] = [[], []]
    for i in range(DECL_ROWS):
        team = (form.get(f"f_d{i}_team") or "").strip()
        if team not in ("0", "1"):
            continue
        kind = form.get(f"f_d{i}_kind") or "sequence"
        if kind == "four":
            declarations[int(team)].append({"kind": "four", "rank": form.get(f"f_d{i}_rank") or ""})
        else:
            declarations[int(team)].append(
                {
                    "kind": "sequence",
                    "length": _needed(form, f"f_d{i}_length", f"length of declaration {i + 1}"),
                    "top": form.get(f"f_d{i}_top") or "",
                    "suit": form.get(f"f_d{i}_suit") or "",
                }
            )
    summary["declarations"] = declarations
    carried = _field_int(form, "f_carried", "points carried in", 0)
    if carried:
        summary["carried_in"] = carried
    if kind == "bridge":
        bid = {"NT": "no_trumps", "AT": "all_trumps"}.get(trump or "", "suit")
        summary["contract"] = {
            "kind": bid,
            "trump": trump if bid == "suit" else None,
            "declarer_team": taker,
            "multiplier": _field_int(form, "f_multiplier", "multiplier", 1),
        }
        summary["belote"] = [
            _field_int(form, f"f_belote{t}", f"belots of team {t + 1}", 0) for t in (0, 1)
        ]
        return summary
    contract: dict[str, Any] = {"trump": trump, "taker_team": taker}
    keys = rules.GAMES[game].summary_contract_keys
    if "bid" in keys:  # a bid of points, or "capot" (rules/contree.md §8)
        bid = (form.get("f_bid") or "").strip().lower()
        if not bid:
            raise service.Unprocessable("the bid is missing", "field_missing", label="the bid")
        contract["bid"] = int(bid) if bid.isdigit() else bid.replace("é", "e")
        if contract["bid"] == "generale":  # the tricks the bidder took himself (§8)
            contract["bidder_tricks"] = _needed(form, "f_bidder_tricks", "the bidder's tricks")
    if "coinche" in keys:
        contract["coinche"] = _field_int(form, "f_coinche", "coinche", 0)
    eldest = (form.get("f_eldest") or "").strip()
    if eldest in ("0", "1"):
        contract["eldest_team"] = int(eldest)
    summary["contract"] = contract
    belote = (form.get("f_belote") or "").strip()
    summary["belote"] = [1 if belote == str(t) else 0 for t in (0, 1)]
    return summary


def _players_summary(form: dict[str, str], trump: str | None) -> dict[str, Any]:
    """A deal summary of three players each for himself (rules/belote-3p.md §8) from the
    three-column form: ``f_taker``, ``f_last``, ``f_belote`` (a seat 0-2 or ""),
    ``f_tricks0..2``, ``f_cp0..2``, ``f_eldest`` (a seat; the engine asks for it only
    for an exact tie of runs; the taker when not given) and declaration rows as for
    teams (the row's seat)."""
    seats = range(3)
    taker = _needed(form, "f_taker", "the player who took the contract")
    summary: dict[str, Any] = {
        "contract": {
            "trump": trump,
            "taker": taker,
            "eldest": _field_int(form, "f_eldest", "the eldest hand", taker),
        },
        "tricks": [_needed(form, f"f_tricks{p}", f"tricks of player {p + 1}") for p in seats],
        "card_points": [_needed(form, f"f_cp{p}", f"card points of player {p + 1}") for p in seats],
        "last_trick_player": _needed(form, "f_last", "the player who took the last trick"),
    }
    declarations: list[list[dict[str, Any]]] = [[], [], []]
    for i in range(DECL_ROWS):
        seat = (form.get(f"f_d{i}_team") or "").strip()
        if seat not in ("0", "1", "2"):
            continue
        if (form.get(f"f_d{i}_kind") or "sequence") == "four":
            declarations[int(seat)].append({"kind": "four", "rank": form.get(f"f_d{i}_rank") or ""})
        else:
            declarations[int(seat)].append(
                {
                    "kind": "sequence",
                    "length": _needed(form, f"f_d{i}_length", f"length of declaration {i + 1}"),
                    "top": form.get(f"f_d{i}_top") or "",
                    "suit": form.get(f"f_d{i}_suit") or "",
                }
            )
    summary["declarations"] = declarations
    belote = (form.get("f_belote") or "").strip()
    summary["belote"] = [1 if belote == str(p) else 0 for p in seats]
    return summary


def fields_from_summary(game: str, summary: dict[str, Any]) -> dict[str, str]:
    """The score-sheet form's fields for a deal ``summary`` (rules/<game>.md §8): the
    inverse of ``summary_from_fields``, so a correction starts from the deal as entered
    (``{"f_trump": "o", "f_taker": "0", "f_tricks0": "5", ...}``)."""
    out: dict[str, str] = {}
    contract = summary.get("contract") or {}
    kind = rules.GAMES[game].summary_kind
    for t in (0, 1):
        out[f"f_tricks{t}"] = str((summary.get("tricks") or [0, 0])[t])
        out[f"f_cp{t}"] = str((summary.get("card_points") or [0, 0])[t])
    if kind == "botifarra":
        out["f_trump"] = "" if contract.get("botifarra") else str(contract.get("trump") or "")
        out["f_taker"] = str(contract.get("chooser_team", 0))
        out["f_doublings"] = str(contract.get("doublings", 0))
        return out
    out["f_last"] = str(summary.get("last_trick_team", 0))
    if summary.get("carried_in"):
        out["f_carried"] = str(summary["carried_in"])
    declared = summary.get("declarations") or [[], []]
    rows = [(side, d) for side in (0, 1) for d in declared[side]]
    for i, (team, d) in enumerate(rows):
        if i >= DECL_ROWS:
            break
        p = f"f_d{i}_"
        out[p + "team"], out[p + "kind"] = str(team), str(d.get("kind", "sequence"))
        if d.get("kind") == "four":
            out[p + "rank"] = str(d.get("rank", ""))
        else:
            out[p + "length"] = str(d.get("length", ""))
            out[p + "top"], out[p + "suit"] = str(d.get("top", "")), str(d.get("suit", ""))
    if kind == "bridge":
        bid = contract.get("kind", "suit")
        out["f_trump"] = {"no_trumps": "NT", "all_trumps": "AT"}.get(
            bid, str(contract.get("trump") or "")
        )
        out["f_taker"] = str(contract.get("declarer_team", 0))
        out["f_multiplier"] = str(contract.get("multiplier", 1))
        for t in (0, 1):
            out[f"f_belote{t}"] = str((summary.get("belote") or [0, 0])[t])
        return out
    out["f_trump"] = str(contract.get("trump") or "")
    out["f_taker"] = str(contract.get("taker_team", 0))
    if "bid" in contract:
        out["f_bid"] = str(contract["bid"])
    if "coinche" in contract:
        out["f_coinche"] = str(contract["coinche"])
    if contract.get("eldest_team") in (0, 1):
        out["f_eldest"] = str(contract["eldest_team"])
    belote = summary.get("belote") or [0, 0]
    out["f_belote"] = next((str(t) for t in (0, 1) if belote[t]), "")
    return out


# ---------------------------------------------------------------- public pages


@router.get("/tournaments", response_class=HTMLResponse)
async def index(request: Request, db: SessionDep, user: OptionalUser) -> Response:
    """The championships, and (signed in) the forms to create one and a club."""
    return await _index_page(request, db, user)


async def _index_page(
    request: Request,
    db: Any,
    user: User | None,
    status: int = 200,
    entered: dict[str, str] | None = None,
    message: str | None = None,
    field: str | None = None,
) -> Response:
    """The championships page; a refused creation form comes back with what was typed
    (``entered``) and the reason (``message``), beside ``field`` when it is one field's."""
    # every game: three players each for himself play a Swiss in threes (config.clean)
    games = [{"id": g.id, "name": g.name} for g in rules.GAMES.values()]
    response = _page(
        request,
        "tournaments/index.html",
        user,
        tournaments=await service.list_tournaments(db),
        clubs=await service.list_clubs(db),
        games=games,
        formats=[(f, config.FORMAT_NAMES[f]) for f in FORMATS],
        kinds=CLUB_KINDS,
        tiebreaks=list(TIEBREAKS.items()),
        tiebreak_slots=range(1, TIEBREAK_SLOTS + 1),
        default_tiebreaks=[
            (config.FORMAT_NAMES[f], [TIEBREAKS[t] for t in config.DEFAULT_TIEBREAKS[f]])
            for f in FORMATS
        ],
        fv=entered or {},
        refused=message,
        refused_field=field,
    )
    response.status_code = status
    return response


async def _live_ctx(db: Any, tid: int, user: User | None) -> dict[str, Any]:
    organiser = await service.is_organiser(db, tid, user)
    all_rounds = await rounds.list_rounds(db, tid, organiser=False)
    current = next(
        (r for r in all_rounds if r["status"] == "published"),
        all_rounds[-1] if all_rounds else None,
    )
    return {
        "t": await service.get_tournament(db, tid),
        "current": current,
        "rounds": all_rounds,
        "standings": await views.standings_of(db, tid),
        "organiser": organiser,
        "podium": rounds.podium(all_rounds),
    }


@router.get("/tournaments/{tid}", response_class=HTMLResponse)
async def show(request: Request, tid: int, db: SessionDep, user: OptionalUser) -> Response:
    """The tournament: the open round's pairings and the standings, live."""
    try:
        ctx = await _live_ctx(db, tid, user)
    except ServiceError as exc:
        return _error(request, user, exc, exc.status, "/tournaments")
    return _page(request, "tournaments/show.html", user, **ctx, **await _signup_ctx(db, tid, user))


async def _signup_ctx(
    db: Any, tid: int, user: User | None, refused: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The championship page's team request panel: ``signup`` = ``{open, size, mine:
    [the viewer's requests, as requester or partner], pending (one of them pending),
    in_team, clubs, refused: {message, entered} of a refused request form}``."""
    t = await service.load(db, tid)
    mine = await signup.list_requests(db, tid, user) if user is not None else []
    if await service.is_organiser(db, tid, user):  # an organiser sees them all on the manage page
        mine = [r for r in mine if user is not None and user.id in (r["user_id"], r["partner_id"])]
    return {
        "signup": {
            "open": signup.registration_open(t),
            "size": service.players_per_team(t.game),
            "mine": mine,
            "pending": any(r["status"] == "pending" for r in mine),
            "in_team": await signup.in_team(db, tid, user),
            "clubs": await service.list_clubs(db),
            "refused": refused,
        }
    }


@router.get("/tournaments/{tid}/live", response_class=HTMLResponse)
async def live(request: Request, tid: int, db: SessionDep, user: OptionalUser) -> Response:
    """The live part of the tournament page (polled every 5 s)."""
    return _page(request, "tournaments/_live.html", user, **await _live_ctx(db, tid, user))


async def _public_view(
    request: Request,
    db: Any,
    user: User | None,
    tid: int,
    template: str,
    name: str,
    load: Callable[[Any, int], Awaitable[dict[str, Any]]],
    **extra: Any,
) -> Response:
    """A tournament's public page ``template`` with ``name`` = ``await load(db, tid)``
    beside the tournament, whether the viewer organises it and ``extra`` (standings,
    crosstable)."""
    try:
        t = await service.get_tournament(db, tid)
    except ServiceError as exc:
        return _error(request, user, exc, exc.status, "/tournaments")
    return _page(
        request,
        template,
        user,
        t=t,
        organiser=await service.is_organiser(db, tid, user),
        **{name: await load(db, tid)},
        **extra,
    )


@router.get("/tournaments/{tid}/standings", response_class=HTMLResponse)
async def standings_page(
    request: Request, tid: int, db: SessionDep, user: OptionalUser
) -> Response:
    """Standings with the tie-break values and the order explained, and the club ranking;
    the knockout's champion once its final is decided."""
    try:
        podium = rounds.podium(await rounds.list_rounds(db, tid))
    except ServiceError:
        podium = None  # no such tournament: _public_view says so
    return await _public_view(
        request,
        db,
        user,
        tid,
        "tournaments/standings.html",
        "standings",
        views.standings_of,
        podium=podium,
    )


@router.get("/tournaments/{tid}/crosstable", response_class=HTMLResponse)
async def crosstable_page(
    request: Request, tid: int, db: SessionDep, user: OptionalUser
) -> Response:
    """Every team against every other, in the standings' order (printable)."""
    return await _public_view(
        request, db, user, tid, "tournaments/crosstable.html", "cross", views.crosstable
    )


@router.get("/tournaments/{tid}/teams/{team_id}", response_class=HTMLResponse)
async def team_page(
    request: Request, tid: int, team_id: int, db: SessionDep, user: OptionalUser
) -> Response:
    """A team's matches, round by round."""
    try:
        history = await views.team_history(db, tid, team_id)
    except ServiceError as exc:
        return _error(request, user, exc, exc.status, f"/tournaments/{tid}")
    return _page(
        request,
        "tournaments/team.html",
        user,
        t=await service.get_tournament(db, tid),
        h=history,
        organiser=await service.is_organiser(db, tid, user),
    )


@router.get("/tournaments/{tid}/tables/{n}", response_class=HTMLResponse)
async def table_page(
    request: Request,
    tid: int,
    n: int,
    db: SessionDep,
    user: OptionalUser,
    round: int | None = None,  # noqa: A002
    fix: int | None = None,
) -> Response:
    """A table's score sheet; organisers enter deals, the result or a correction here
    (``?fix=D``: the correction form of deal D, its fields filled from the deal)."""
    try:
        table = await results.table_detail(db, tid, n, round)
    except ServiceError as exc:
        return _error(request, user, exc, exc.status, f"/tournaments/{tid}")
    return await _table_page(request, db, user, tid, table, fix=fix)


async def _table_page(
    request: Request,
    db: Any,
    user: User | None,
    tid: int,
    table: dict[str, Any],
    refused: dict[str, Any] | None = None,
    status: int = 200,
    fix: int | None = None,
) -> Response:
    """The table page; ``refused`` = ``{"form": "result" | "deals" | "fix", "message",
    "entered": the form's fields}`` re-shows a refused form with its entries and the reason;
    ``fix`` the deal whose correction form is shown, filled from the deal."""
    t = await service.get_tournament(db, tid)
    if refused and refused["form"] == "fix":
        fix = _int(refused["entered"], "deal_no")
    fixing = next(
        (
            d
            for d in table["deals"]
            # at a table of three, only a deal of points alone has its correction form
            if d["deal"] == fix and (not table.get("third") or results.is_points_only(d["summary"]))
        ),
        None,
    )
    fix_values: dict[str, str] = {}
    if refused and refused["form"] == "fix":
        fix_values = refused["entered"]
    elif fixing is not None and results.is_points_only(fixing["summary"]):
        fix_values = fields_of_points(fixing["summary"])
    elif fixing is not None:
        fix_values = fields_from_summary(t["game"], fixing["summary"])
    response = _page(
        request,
        "tournaments/table.html",
        user,
        t=t,
        x=table,
        organiser=await service.is_organiser(db, tid, user),
        example=_example_summary(t["game"]),
        deal_form=deal_form(t["game"], t["options"]),
        refused=refused,
        # the columns of the score sheet: two sides, or three players each for himself
        sides=[s for s in (table.get("home"), table.get("away"), table.get("third")) if s],
        fixing=fixing,
        fix_values=fix_values,
    )
    response.status_code = status
    return response


@router.get("/tournaments/{tid}/manage", response_class=HTMLResponse)
async def manage(request: Request, tid: int, db: SessionDep, user: OptionalUser) -> Response:
    """The organisers' page: teams, the next round (preview, publish, close), audit trail."""
    try:
        await service.get_tournament(db, tid)  # 404 for no such tournament
    except ServiceError as exc:
        return _error(request, user, exc, exc.status, "/tournaments")
    if not await service.is_organiser(db, tid, user):
        return _error(
            request,
            user,
            "Only the organisers of this tournament may manage it.",
            403,
            f"/tournaments/{tid}",
        )
    return await _manage_page(request, db, user, tid)


async def _manage_page(
    request: Request,
    db: Any,
    user: User | None,
    tid: int,
    asked: dict[str, Any] | None = None,
    status: int = 200,
    team_form: dict[str, Any] | None = None,
) -> Response:
    """The organisers' page; ``asked`` = ``{"warnings": [sentences], "rows": [(home,
    away)]}`` shows a hand-edited pairing's confirmation (the second step: what it
    repeats, and the same pairing to send again with ``confirm``); ``team_form`` =
    ``{"typed": {field: value}, "refused": message}`` shows the team form again as it
    was sent, with its refusal."""
    t = await service.get_tournament(db, tid)
    all_rounds = await rounds.list_rounds(db, tid, organiser=True)
    draft = next((r for r in all_rounds if r["status"] == "draft"), None)
    edit_rows: list[tuple[int | None, int | None]] = []
    if asked is not None:
        edit_rows = list(asked["rows"])
    elif draft is not None:
        edit_rows = [
            (x["home"]["id"], x["away"]["id"] if x["away"] else None) for x in draft["tables"]
        ]
    # a knockout's pairing seats the teams still in: those of its draft (rounds.pairing_entrants)
    entrants = None
    if draft is not None and draft["stage"] == "knockout":
        entrants = [s["id"] for x in draft["tables"] for s in (x["home"], x["away"]) if s]
    response = _page(
        request,
        "tournaments/manage.html",
        user,
        t=t,
        entrants=entrants,
        teams=await service.list_teams(db, tid),
        clubs=await service.list_clubs(db),
        rounds=all_rounds,
        audit=(await views.audit_trail(db, tid))[:30],
        bots=bot_names(),
        asked=asked,
        edit_rows=edit_rows + [(None, None), (None, None)],
        requests=_requests_in_place(await signup.list_requests(db, tid, user)),
        registration_open=signup.registration_open(await service.load(db, tid)),
        team_typed=(team_form or {}).get("typed", {}),
        team_refused=(team_form or {}).get("refused"),
    )
    response.status_code = status
    return response


#: How long a decided team request keeps its row on the manage page (without buttons).
DECIDED_STAYS = timedelta(minutes=2)


def _requests_in_place(requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The pending requests, and those decided in the last ``DECIDED_STAYS`` in their
    place (their state instead of the buttons): a row that vanished moved the next
    request's Approve under a double-tapping finger, and a fresh tester's second tap
    approved it too."""
    since = as_utc(utcnow()) - DECIDED_STAYS
    return [
        r
        for r in requests
        if r["status"] == "pending"
        or (r["decided_at"] and datetime.fromisoformat(r["decided_at"]) >= since)
    ]


@router.get("/tournaments/{tid}/print/{what}", response_class=HTMLResponse)
async def printable(
    request: Request,
    tid: int,
    what: str,
    db: SessionDep,
    user: OptionalUser,
    round: int | None = None,
) -> Response:  # noqa: A002
    """Printable pairings (``pairings``), score sheets, one page per table (``sheets``), or
    the standings with the club ranking (``standings``)."""
    if what not in ("pairings", "sheets", "standings"):
        return _error(
            request, user, "Print pairings, sheets or standings.", 404, f"/tournaments/{tid}"
        )
    try:
        t = await service.get_tournament(db, tid)
    except ServiceError as exc:
        return _error(request, user, exc, exc.status, "/tournaments")
    organiser = await service.is_organiser(db, tid, user)
    all_rounds = await rounds.list_rounds(db, tid, organiser=organiser)
    chosen = (
        next((r for r in all_rounds if r["number"] == round), None)
        if round
        else (all_rounds[-1] if all_rounds else None)
    )
    standings = await views.standings_of(db, tid) if what == "standings" else None
    return _page(
        request,
        f"tournaments/print_{what}.html",
        user,
        t=t,
        rnd=chosen,
        rows=range(1, 19),
        standings=standings,
    )


# ---------------------------------------------------------------- organiser forms


@router.post("/tournaments")
async def create(request: Request, db: SessionDep, user: OptionalUser) -> Response:
    """Create a tournament from the form and go to its management page."""

    async def act(f: dict[str, str]) -> str:
        assert user is not None
        options: dict[str, Any] = {}
        if f.get("target"):
            options["target"] = _int(f, "target")
        if f.get("cap_score"):
            g = rules.GAMES.get(f.get("game", ""))
            if g is not None and all(o["name"] != "cap_score" for o in g.options_schema):
                # the form's one field for a game's option: name the field, not the option
                raise service.Unprocessable(
                    "the cap score is an option of Botifarra only", "cap_score_botifarra"
                )
            options["cap_score"] = _int(f, "cap_score")
        match: dict[str, Any] = {"kind": f.get("match", "target")}
        # a number of deals or minutes given beside any kind is a limit too: the first ends it
        if match["kind"] == "deals" or f.get("deals"):
            match["deals"] = _int(f, "deals")
        if match["kind"] == "time" or f.get("minutes"):
            match["minutes"] = _int(f, "minutes")
        settings: dict[str, Any] = {
            "match": match,
            "play": f.get("play", "paper"),
            "return_leg": f.get("return_leg") == "on",
            "avoid_same_club": f.get("avoid_same_club") == "on",
            "self_registration": f.get("self_registration") == "on",
            "chat": f.get("chat_off") != "on",
        }
        for key in ("rounds", "groups", "advance"):
            if f.get(key):
                settings[key] = _int(f, key)
        chosen = tiebreaks_from_form(f)
        if chosen is not None:
            settings["tiebreaks"] = chosen
        points = {k: f[f"points_{k}"] for k in ("win", "draw", "loss") if f.get(f"points_{k}")}
        if points:  # halves allowed ("0.5", "0,5"): config checks them
            settings["points"] = points
        game = f.get("game", "")
        if game in rules.GAMES and rules.GAMES[game].sides == 3:  # the form's ranking choice
            settings["ranking"] = f.get("ranking") or "match_points"
        t = await service.once(
            db,
            user,
            _key(f),
            "tournament",
            lambda: service.create_tournament(
                db,
                user,
                f.get("name", ""),
                f.get("game", ""),
                f.get("format", ""),
                options,
                settings,
                f.get("venue", ""),
            ),
        )
        return f"/tournaments/{t['id']}/manage"

    async def again(f: dict[str, str], message: str | Exception, status: int) -> Response:
        # the form again with what was typed; a tie-break refusal is said beside its field
        await db.rollback()
        if user is not None:
            await db.refresh(user)
        code = getattr(message, "code", None)
        return await _index_page(
            request,
            db,
            user,
            status,
            entered={k: v for k, v in f.items() if k not in (csrf.FIELD, "creation_key")},
            message=message_for(message),
            field="tiebreaks" if code in ("tiebreak_twice", "tiebreaks_list") else None,
        )

    return await _post(request, user, "/tournaments", act, again, done="created")


#: How many tie-breaks the creation form offers (every one of ``standings.TIEBREAKS``).
TIEBREAK_SLOTS = len(TIEBREAKS)


def tiebreaks_from_form(form: dict[str, str]) -> list[str] | None:
    """The tie-breaks chosen in the form's ordered selects ``tiebreak_1`` ...
    ``tiebreak_5`` (empty ones skipped), or None when none is chosen (the format's own
    order, ``config.DEFAULT_TIEBREAKS``); the old free text ``tiebreaks`` ("buchholz,
    wins") still counts. Raises Unprocessable ``tiebreak_twice`` for a repeated choice
    and ``tiebreaks_list`` for a name not in ``standings.TIEBREAKS`` (issue 19 §4)."""
    chosen = [(form.get(f"tiebreak_{i}") or "").strip() for i in range(1, TIEBREAK_SLOTS + 1)]
    chosen = [c for c in chosen if c]
    if not chosen:
        text = (form.get("tiebreaks") or "").strip()
        chosen = [c.strip() for c in text.split(",") if c.strip()]
    if not chosen:
        return None
    if any(c not in TIEBREAKS for c in chosen):
        raise service.Unprocessable(
            f"tie-breaks are a list of: {', '.join(TIEBREAKS)}", "tiebreaks_list"
        )
    if len(set(chosen)) != len(chosen):
        raise service.Unprocessable("a tie-break is listed twice", "tiebreak_twice")
    return chosen


@router.post("/clubs")
async def create_club(request: Request, db: SessionDep, user: OptionalUser) -> Response:
    """Create a club."""

    async def act(f: dict[str, str]) -> str | None:
        assert user is not None
        await service.once(
            db,
            user,
            _key(f),
            "club",
            lambda: service.create_club(
                db, user, f.get("name", ""), f.get("kind", "club"), f.get("town", "")
            ),
        )
        return f.get("next") if (f.get("next") or "").startswith("/tournaments") else None

    return await _post(request, user, "/tournaments", act, done="club")


@router.post("/tournaments/{tid}/teams")
async def add_team(request: Request, tid: int, db: SessionDep, user: OptionalUser) -> Response:
    """Enter a team."""

    async def act(f: dict[str, str]) -> None:
        assert user is not None
        # a player is a name, an account (its username), or both; accounts in seat order
        names = [f.get("player1", "").strip(), f.get("player2", "").strip()]
        accounts = [f.get("account1", "").strip(), f.get("account2", "").strip()]
        if accounts[1] and not accounts[0]:
            raise service.Unprocessable(
                "give the first player's account too, or put this account first",
                "first_account_first",
            )
        players = names if any(accounts) else [n for n in names if n]
        while players and not players[-1]:
            players.pop()
        club_id = _int(f, "club_id")
        await service.once(
            db,
            user,
            _key(f),
            "team",
            lambda: service.register_team(
                db,
                tid,
                user,
                f.get("name", ""),
                players,
                club_id,
                None,
                f.get("bot") or None,
                [a for a in accounts if a] or None,
            ),
        )

    async def again(f: dict[str, str], message: str | Exception, status: int) -> Response:
        # the manage page with the team form as it was sent and the reason above it
        await db.rollback()
        if user is not None:
            await db.refresh(user)
        typed = {k: f.get(k, "") for k in TEAM_FIELDS}
        team_form = {"typed": typed, "refused": message_for(message)}
        return await _manage_page(request, db, user, tid, status=status, team_form=team_form)

    return await _post(request, user, f"/tournaments/{tid}/manage", act, again, done="team")


#: The manage page's team form fields, shown again as typed after a refusal.
TEAM_FIELDS = ("name", "player1", "account1", "player2", "account2", "club_id", "bot")


@router.post("/tournaments/{tid}/teams/{team_id}/withdraw")
async def withdraw(
    request: Request, tid: int, team_id: int, db: SessionDep, user: OptionalUser
) -> Response:
    """Withdraw a team (remaining matches forfeited or removed)."""

    async def act(f: dict[str, str]) -> None:
        assert user is not None
        await service.once(
            db,
            user,
            _key(f),
            "withdraw",
            lambda: results.withdraw_team(
                db, tid, team_id, user, f.get("remaining", "forfeit"), f.get("reason", "")
            ),
        )

    return await _post(request, user, f"/tournaments/{tid}/manage", act, done="withdrawn")


@router.post("/tournaments/{tid}/rounds")
async def preview(request: Request, tid: int, db: SessionDep, user: OptionalUser) -> Response:
    """Pair the next round as a draft."""

    async def act(f: dict[str, str]) -> None:
        assert user is not None
        await service.once(db, user, _key(f), "preview", lambda: rounds.preview(db, tid, user))

    return await _post(request, user, f"/tournaments/{tid}/manage", act, done="paired")


def pairing_rows(form: dict[str, str]) -> list[tuple[int, int | None]]:
    """The pairing form's rows (``home_1``, ``away_1``, ``home_2``...) as ``[(home,
    away)]``: a row without a home team is skipped, an empty away is a bye. Raises
    Unprocessable for a value that is not a team id."""
    tables: list[tuple[int, int | None]] = []
    for i in range(1, 257):
        home, away = form.get(f"home_{i}", ""), form.get(f"away_{i}", "")
        if f"home_{i}" not in form:
            break
        if not home:
            if away:
                raise service.Unprocessable(
                    "each active team plays exactly once, against another team or with a bye",
                    "pairing_teams",
                )
            continue
        if (
            not home.isascii()
            or not home.isdigit()
            or (away and not (away.isascii() and away.isdigit()))
        ):
            raise service.Unprocessable(
                "each active team plays exactly once, against another team or with a bye",
                "pairing_teams",
            )
        tables.append((int(home), int(away) if away else None))
    return tables


@router.post("/tournaments/{tid}/rounds/{number}/pairing")
async def pairing_form(
    request: Request, tid: int, number: int, db: SessionDep, user: OptionalUser
) -> Response:
    """Edit a draft round's pairing by hand (a bye given by hand is a table without an
    opponent)."""

    async def act(f: dict[str, str]) -> None:
        assert user is not None
        tables = pairing_rows(f)
        confirm = f.get("confirm") == "1"
        await service.once(
            db,
            user,
            _key(f),
            "pairing",
            lambda: rounds.set_pairing(db, tid, number, tables, user, confirm),
        )

    async def again(f: dict[str, str], message: str | Exception, status: int) -> Response:
        if not isinstance(message, rounds.PairingNeedsConfirmation):
            return _error(request, user, message, status, f"/tournaments/{tid}/manage")
        await db.rollback()
        if user is not None:
            await db.refresh(user)  # the rollback expired it; the page shows who is signed in
        # the second step: the warnings, and the same pairing sent again with confirm
        asked = {
            "warnings": [pairing_warning(w) for w in message.warnings],
            "rows": pairing_rows(f),
        }
        return await _manage_page(request, db, user, tid, asked, status)

    return await _post(request, user, f"/tournaments/{tid}/manage", act, again, done="pairing")


@router.post("/tournaments/{tid}/rounds/{number}/{step}")
async def round_step(
    request: Request, tid: int, number: int, step: str, db: SessionDep, user: OptionalUser
) -> Response:
    """Publish or close a round, or take it back to a draft (``unpublish``)."""

    async def act(f: dict[str, str]) -> None:
        assert user is not None
        if step == "publish":
            run = rounds.publish
        elif step == "close":
            run = rounds.close
        elif step == "unpublish":
            run = rounds.unpublish
        else:
            raise service.NotFound(f"no such step {step!r}", "no_such_step", step=step)
        await service.once(db, user, _key(f), step, lambda: run(db, tid, number, user))

    done = {"publish": "published", "close": "closed", "unpublish": "unpublished"}.get(step)
    return await _post(request, user, f"/tournaments/{tid}/manage", act, done=done)


@router.post("/tournaments/{tid}/teams/{team_id}/edit")
async def team_edit_form(
    request: Request, tid: int, team_id: int, db: SessionDep, user: OptionalUser
) -> Response:
    """Correct a team's name, players' names and club."""

    async def act(f: dict[str, str]) -> None:
        assert user is not None
        club = f.get("club_id", "")
        if club and not (club.isascii() and club.isdigit()):
            raise service.NotFound(f"there is no club {club}", "no_club", club=club)
        players = [f.get("player1", ""), f.get("player2", "")]
        await service.once(
            db,
            user,
            _key(f),
            "edit_team",
            lambda: service.edit_team(
                db,
                tid,
                team_id,
                user,
                f.get("name", ""),
                [p for p in players if p] if "player1" in f else None,
                int(club) if club else None,
            ),
        )

    return await _post(request, user, f"/tournaments/{tid}/manage", act, done="team_edited")


@router.post("/tournaments/{tid}/end")
async def end_form(request: Request, tid: int, db: SessionDep, user: OptionalUser) -> Response:
    """End the championship now, with a reason."""

    async def act(f: dict[str, str]) -> None:
        assert user is not None
        await service.once(
            db,
            user,
            _key(f),
            "end_early",
            lambda: service.finish_early(db, tid, user, f.get("reason", "")),
        )

    return await _post(request, user, f"/tournaments/{tid}/manage", act, done="ended")


@router.post("/tournaments/{tid}/rounds/{number}/tables/{n}/mode")
async def table_mode(
    request: Request, tid: int, number: int, n: int, db: SessionDep, user: OptionalUser
) -> Response:
    """Play a draft table online or on paper."""

    async def act(f: dict[str, str]) -> None:
        assert user is not None
        await service.once(
            db,
            user,
            _key(f),
            "table_mode",
            lambda: rounds.set_table_mode(db, tid, number, n, f.get("mode", "paper"), user),
        )

    return await _post(request, user, f"/tournaments/{tid}/manage", act, done="mode")


@router.post("/tournaments/{tid}/tables/{n}/{what}")
async def table_form(
    request: Request, tid: int, n: int, what: str, db: SessionDep, user: OptionalUser
) -> Response:
    """A table's forms: ``result`` (final score or correction), ``deals`` (the next deal
    as JSON), ``finish`` (end a paper table at its totals), ``fix`` (correct a deal),
    ``reopen`` (undo a finish, with a reason)."""

    async def act(f: dict[str, str]) -> str:
        assert user is not None
        rnd = _int(f, "round")
        if what == "result":
            home, away, winner = (
                _int(f, "home_score") or 0,
                _int(f, "away_score") or 0,
                _int(f, "winner"),
            )
            third = _int(f, "third_score") if "third_score" in f else None
            await service.once(
                db,
                user,
                _key(f),
                "result",
                lambda: results.record_result(
                    db,
                    tid,
                    n,
                    user,
                    home,
                    away,
                    winner,
                    rnd,
                    f.get("reason", ""),
                    f.get("forfeit") == "on",
                    third,
                ),
            )
        elif what in ("deals", "fix"):
            summary: Any  # a deal summary (a JSON object), or None to delete the last deal
            if f.get("entry") == "points":
                # the points-only form (a new deal, or the correction of such a deal)
                summary = (
                    None if what == "fix" and f.get("delete") == "on" else points_from_fields(f)
                )
            elif what == "fix" and f.get("entry") == "fields":
                # the correction form: the deal's fields, or deleting the last deal
                t = await service.get_tournament(db, tid)
                summary = None if f.get("delete") == "on" else summary_from_fields(t["game"], f)
            elif (
                what == "deals"
                and f.get("entry") == "fields"
                and not (f.get("summary") or "").strip()
            ):
                t = await service.get_tournament(db, tid)
                summary = summary_from_fields(t["game"], f)
            else:
                try:
                    summary = json.loads(f.get("summary") or "null")
                except ValueError:
                    raise service.Unprocessable(
                        "the deal summary is not valid JSON", "summary_not_json"
                    ) from None
            if what == "deals":
                await service.once(
                    db,
                    user,
                    _key(f),
                    "deal",
                    lambda: results.add_deal(db, tid, n, user, summary, rnd),
                )
            else:
                deal_no = _int(f, "deal_no") or 0
                await service.once(
                    db,
                    user,
                    _key(f),
                    "fix_deal",
                    lambda: results.correct_deal(
                        db, tid, n, deal_no, user, summary, f.get("reason", ""), rnd
                    ),
                )
        elif what == "finish":
            winner = _int(f, "winner")
            await service.once(
                db,
                user,
                _key(f),
                "finish",
                lambda: results.finish_paper(db, tid, n, user, winner, rnd),
            )
        elif what == "reopen":
            await service.once(
                db,
                user,
                _key(f),
                "reopen",
                lambda: results.reopen_table(db, tid, n, user, f.get("reason", ""), rnd),
            )
        else:
            raise service.NotFound(f"no such form {what!r}", "no_such_form", form=what)
        return f"/tournaments/{tid}/tables/{n}" + (f"?round={rnd}" if rnd else "")

    async def again(f: dict[str, str], message: str | Exception, status: int) -> Response:
        await db.rollback()  # nothing of the refused form stays
        if user is not None:
            await db.refresh(user)  # the rollback expired it; the page shows who is signed in
        try:
            round_no = _int(f, "round")
            table = await results.table_detail(db, tid, n, round_no)
            # the refusal in the game's words (a Bolot deal is a "partida")
            i18n.set_game_words(labels.words_of((await service.get_tournament(db, tid))["game"]))
        except ServiceError:
            return _error(request, user, message, status, f"/tournaments/{tid}/tables/{n}")
        entered = {k: v for k, v in f.items() if k != csrf.FIELD}
        refused = {
            # the two forms of a new deal: all its fields, or its points alone
            "form": "points" if what == "deals" and f.get("entry") == "points" else what,
            "message": message_for(message),
            "entered": entered,
        }
        return await _table_page(request, db, user, tid, table, refused, status)

    return await _post(
        request,
        user,
        f"/tournaments/{tid}/tables/{n}",
        act,
        again if what in ("result", "deals", "fix", "reopen") else None,
        done={
            "result": "result",
            "deals": "deal",
            "fix": "fixed",
            "finish": "finished",
            "reopen": "reopened",
        }.get(what),
    )


# ---------------------------------------------------------------- players' team requests


@router.post("/tournaments/{tid}/registration")
async def registration_form(
    request: Request, tid: int, db: SessionDep, user: OptionalUser
) -> Response:
    """Open (``open=on``) or close the players' registration of teams."""

    async def act(f: dict[str, str]) -> None:
        assert user is not None
        await service.once(
            db,
            user,
            _key(f),
            "registration",
            lambda: signup.set_registration(db, tid, user, f.get("open") == "on"),
        )

    return await _post(request, user, f"/tournaments/{tid}/manage", act, done="registration")


@router.post("/tournaments/{tid}/requests")
async def request_form(request: Request, tid: int, db: SessionDep, user: OptionalUser) -> Response:
    """A player asks to enter a team (name, partner's username, club); a refusal re-shows
    the championship page with the form as typed and the reason."""

    async def act(f: dict[str, str]) -> str:
        assert user is not None
        club_id = _int(f, "club_id")
        await service.once(
            db,
            user,
            _key(f),
            "team_request",
            lambda: signup.request_team(
                db, tid, user, f.get("name", ""), f.get("partner") or None, club_id
            ),
        )
        return f"/tournaments/{tid}#signup"

    async def again(f: dict[str, str], message: str | Exception, status: int) -> Response:
        await db.rollback()
        if user is not None:
            await db.refresh(user)
        try:
            ctx = await _live_ctx(db, tid, user)
        except ServiceError:
            return _error(request, user, message, status, f"/tournaments/{tid}")
        entered = {k: v for k, v in f.items() if k in ("name", "partner", "club_id")}
        refused = {"message": message_for(message), "entered": entered}
        response = _page(
            request,
            "tournaments/show.html",
            user,
            **ctx,
            **await _signup_ctx(db, tid, user, refused),
        )
        response.status_code = status
        return response

    return await _post(request, user, f"/tournaments/{tid}", act, again, done="request")


@router.post("/tournaments/{tid}/requests/{rid}/{step}")
async def request_step(
    request: Request, tid: int, rid: int, step: str, db: SessionDep, user: OptionalUser
) -> Response:
    """``withdraw`` (the requester or the partner, back to the championship page),
    ``approve`` or ``decline`` (organisers, with a reason; back to the manage page)."""
    back = f"/tournaments/{tid}" + ("#signup" if step == "withdraw" else "/manage")

    async def act(f: dict[str, str]) -> None:
        assert user is not None
        if step == "approve":
            run = lambda: signup.approve(db, tid, rid, user)  # noqa: E731
        elif step == "decline":
            run = lambda: signup.decline(db, tid, rid, user, f.get("reason", ""))  # noqa: E731
        elif step == "withdraw":
            run = lambda: signup.withdraw_request(db, tid, rid, user)  # noqa: E731
        else:
            raise service.NotFound(f"no such step {step!r}", "no_such_step", step=step)
        await service.once(db, user, _key(f), f"request_{step}", run)

    done = f"request_{step}" if f"request_{step}" in DONE else None
    return await _post(request, user, back, act, done=done)
