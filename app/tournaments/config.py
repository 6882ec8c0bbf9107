"""A tournament's rules as data: format details, match definition, match points, tie-breaks.

``clean(game, options, format, settings)`` checks what an organiser sent and
fills in the defaults; the result is stored in ``Tournament.options`` (the
ruleset's options, completed by the engine) and ``Tournament.settings``::

    {
      "return_leg": false,             # round robin and group stage: play every match twice
      "rounds": 5,                     # Swiss: number of rounds (default: enough to find a winner)
      "groups": 2, "advance": 2,       # groups then knockout: number of groups, qualifiers per group
      "match": {"kind": "target"},     # to the ruleset's target score
             | {"kind": "deals", "deals": 12}        # a fixed number of deals
             | {"kind": "time", "minutes": 45},      # a time limit; the deal in progress is finished
                                       # any kind may add the others' limits, the first
                                       # reached ends the match: {"kind": "target",
                                       # "deals": 12, "minutes": 45}
      "points": {"win": 2, "draw": 1, "loss": 0, "bye": 2},
      "tiebreaks": ["head_to_head", "point_difference", "points_scored"],
      "play": "paper" | "online",     # how new tables are played (each table can be changed)
      "ranking": "match_points" | "points",  # three players each for himself only
      "avoid_same_club": true,         # Swiss and groups: keep teams of one club apart
      "self_registration": false       # players may ask to enter their teams (an
                                       # organiser approves each); open while entries are
    }

A game of three players each for himself (Belote for three) is played as a Swiss in
threes (docs/tournaments.md "Three players each for himself"): every entrant is a
team of one, the organiser ranks by match points (places 2, 1, 0) or by points, and
a bye scores ``points["bye"]``, by default a second place's (``draw``).

Botifarra's ``cap_score`` (and ``max_hands``) are options of the ruleset itself
(rules/botifarra.md §9) and go in ``options``.
"""

from __future__ import annotations

import math
from typing import Any

from app import rules
from app.core.errors import Unprocessable
from app.tournaments.models import FORMATS
from app.tournaments.standings import DEFAULT_POINTS, RANKINGS, TIEBREAKS

MATCH_KINDS = ("target", "deals", "time")
PLAY_MODES = ("paper", "online")

DEFAULT_TIEBREAKS = {
    "round_robin": ["head_to_head", "point_difference", "points_scored"],
    "swiss": ["buchholz", "head_to_head", "point_difference", "points_scored"],
    "knockout": ["point_difference", "points_scored"],
    "groups_knockout": ["head_to_head", "point_difference", "points_scored"],
}

FORMAT_NAMES = {
    "round_robin": "Round robin (Berger tables)",
    "swiss": "Swiss",
    "knockout": "Knockout",
    "groups_knockout": "Groups, then knockout",
}


#: The keys ``settings`` may have, and those of ``settings.match`` for each kind: any other
#: is refused (a typo silently dropped would leave a rule the organiser believes set).
SETTINGS_KEYS = (
    "return_leg",
    "rounds",
    "groups",
    "advance",
    "match",
    "points",
    "tiebreaks",
    "play",
    "ranking",
    "avoid_same_club",
    "self_registration",
    "chat",
)
#: Any kind of match may also carry a number of deals and a time limit: the first limit
#: reached (the target, the deals, the minutes) ends it.
MATCH_KEYS = {
    "target": ("kind", "deals", "minutes"),
    "deals": ("kind", "deals", "minutes"),
    "time": ("kind", "minutes", "deals"),
}


def _int(value: Any, name: str, low: int, high: int) -> int:
    """``value`` as a whole number from ``low`` to ``high``: an int, an integral finite
    float (``5.0``) or a text of digits. Raises Unprocessable (the input not echoed)."""
    if isinstance(value, bool) or (
        isinstance(value, float) and not (math.isfinite(value) and value.is_integer())
    ):
        raise Unprocessable(f"{name} must be a whole number", "whole_number", label=name)
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise Unprocessable(f"{name} must be a whole number", "whole_number", label=name) from None
    if not low <= number <= high:
        raise Unprocessable(
            f"{name} must be between {low} and {high}",
            "number_range",
            label=name,
            low=low,
            high=high,
        )
    return number


def clean_options(game: str, options: dict[str, Any] | None) -> dict[str, Any]:
    """The ruleset's options completed with their defaults. Raises Unprocessable for an
    unknown game or option."""
    if game not in rules.GAMES:
        raise Unprocessable(
            f"unknown game {game!r}; games: {', '.join(rules.GAMES)}", "unknown_game", game=game
        )
    if options is not None and not isinstance(options, dict):
        raise Unprocessable("options are a JSON object", "options_object")
    try:
        state = rules.new_game(game, options or {}, 0)
    except rules.IllegalAction as exc:
        raise Unprocessable.of(exc) from None
    return dict(rules.observe(state, None)["options"])


def clean(
    game: str, options: dict[str, Any] | None, fmt: str, settings: dict[str, Any] | None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(options, settings)`` checked and completed. Raises Unprocessable with the reason
    (a game of three players each for himself, Belote for three, has no championship
    format yet: a table pairs two sides, home and away; docs/tournaments.md)."""
    opts = clean_options(game, options)
    three = rules.GAMES[game].sides == 3
    if rules.GAMES[game].sides != 2 and not (three and fmt == "swiss"):
        raise Unprocessable(
            "championships pair two sides at a table; this game has three players, "
            "each for himself: its championship is a Swiss in threes (format swiss)",
            "championship_two_sides",
            game=rules.GAMES[game].name,
        )
    if fmt not in FORMATS:
        raise Unprocessable(
            f"unknown format {fmt!r}; formats: {', '.join(FORMATS)}", "unknown_format", format=fmt
        )
    if not isinstance(settings or {}, dict):
        raise Unprocessable("settings are a JSON object", "settings_object")
    given = dict(settings or {})
    if any(key not in SETTINGS_KEYS for key in given):
        keys = ", ".join(SETTINGS_KEYS)
        raise Unprocessable(f"unknown setting; settings: {keys}", "unknown_setting", keys=keys)
    return_leg = given.get("return_leg", False)
    if not isinstance(return_leg, bool):
        raise Unprocessable("return_leg must be true or false", "return_leg_bool")
    # every number given is checked, even one the format does not use (not silently dropped)
    numbers = {
        key: _int(given[key], key, 1, high)
        for key, high in (("rounds", 30), ("groups", 16), ("advance", 8))
        if given.get(key) is not None
    }
    avoid = given.get("avoid_same_club", True)
    if not isinstance(avoid, bool):
        raise Unprocessable("avoid_same_club must be true or false", "avoid_same_club_bool")
    self_registration = given.get("self_registration", False)
    if not isinstance(self_registration, bool):
        raise Unprocessable("self_registration must be true or false", "self_registration_bool")
    chat = given.get("chat", True)
    if not isinstance(chat, bool):
        raise Unprocessable("chat must be true or false", "chat_bool")
    out: dict[str, Any] = {}
    if not chat:  # stored only when off: its online tables have no chat (app/chat)
        out["chat"] = False
    if self_registration:  # stored only when on: the settings of older tournaments stay alike
        out["self_registration"] = True
    if fmt in ("swiss", "groups_knockout") and not three:
        # a round robin meets everyone and a knockout follows its seeding: nothing to avoid
        out["avoid_same_club"] = avoid
    if fmt in ("round_robin", "groups_knockout"):
        out["return_leg"] = return_leg
    if fmt == "swiss" and "rounds" in numbers:
        out["rounds"] = numbers["rounds"]
    if fmt == "groups_knockout":
        out["groups"] = numbers.get("groups", 2)
        out["advance"] = numbers.get("advance", 2)
    match = given.get("match") or {"kind": "target"}
    if isinstance(match, str):
        match = {"kind": match}
    if not isinstance(match, dict) or match.get("kind") not in MATCH_KINDS:
        raise Unprocessable(f"match kind must be one of {', '.join(MATCH_KINDS)}", "match_kind")
    if any(key not in MATCH_KEYS[match["kind"]] for key in match):
        keys = ", ".join(MATCH_KEYS[match["kind"]])
        raise Unprocessable(
            f"unknown match setting; a match of this kind has: {keys}",
            "unknown_match_setting",
            keys=keys,
        )
    clean_match: dict[str, Any] = {"kind": match["kind"]}
    if match["kind"] == "deals" or match.get("deals") is not None:
        clean_match["deals"] = _int(match.get("deals"), "the number of deals", 1, 200)
    if match["kind"] == "time" or match.get("minutes") is not None:
        clean_match["minutes"] = _int(match.get("minutes"), "the time limit in minutes", 1, 600)
    out["match"] = clean_match
    points: dict[str, float] = dict(DEFAULT_POINTS)
    if not isinstance(given.get("points") or {}, dict):
        raise Unprocessable("points are a JSON object", "points_object")
    for key, value in (given.get("points") or {}).items():
        if key not in DEFAULT_POINTS:
            raise Unprocessable(
                f"unknown match points {key!r}; use win, draw, loss, bye",
                "unknown_match_points",
                key=key,
            )
        points[key] = _half(value, f"points for a {key}", 100)
    if "bye" not in (given.get("points") or {}):
        # a bye scores a win; at tables of three, a second place (the middle one)
        points["bye"] = points["draw"] if three else points["win"]
    out["points"] = points
    tiebreaks = given.get("tiebreaks")
    if tiebreaks is None:
        tiebreaks = DEFAULT_TIEBREAKS[fmt]
    if isinstance(tiebreaks, str):
        tiebreaks = [t.strip() for t in tiebreaks.split(",") if t.strip()]
    if not isinstance(tiebreaks, list) or any(t not in TIEBREAKS for t in tiebreaks):
        raise Unprocessable(f"tie-breaks are a list of: {', '.join(TIEBREAKS)}", "tiebreaks_list")
    if len(set(tiebreaks)) != len(tiebreaks):
        raise Unprocessable("a tie-break is listed twice", "tiebreak_twice")
    out["tiebreaks"] = list(tiebreaks)
    play = given.get("play", "paper")
    if play not in PLAY_MODES:
        raise Unprocessable("play must be paper or online", "play_mode")
    out["play"] = play
    ranking = given.get("ranking")
    if ranking is not None and not three:
        raise Unprocessable(
            "ranking is a setting of three players each for himself", "ranking_three_only"
        )
    if three:
        ranking = ranking or "match_points"
        if ranking not in RANKINGS:
            raise Unprocessable("ranking is match_points or points", "ranking_kind")
        out["ranking"] = ranking
    return opts, out


def swiss_rounds(settings: dict[str, Any], teams: int) -> int:
    """The number of Swiss rounds: the setting, else enough to find a winner (log2 + 1)."""
    if settings.get("rounds"):
        return int(settings["rounds"])
    return max(1, math.ceil(math.log2(max(teams, 2))) + 1)


def _half(value: Any, name: str, high: int) -> int | float:
    """``value`` as match points from 0 to ``high`` in steps of a half (a drawn match is
    often worth ½): an int, or a float or text such as ``0.5`` / ``"1,5"`` whose double is
    whole. Returned as an int when whole. Raises Unprocessable (``match_points_half``)."""
    number: float
    if isinstance(value, bool):
        raise Unprocessable(f"{name} are a number in halves", "match_points_half", label=name)
    try:
        number = float(value.replace(",", ".")) if isinstance(value, str) else float(value)
    except (TypeError, ValueError):
        raise Unprocessable(
            f"{name} are a number in halves", "match_points_half", label=name
        ) from None
    if not math.isfinite(number) or not (2 * number).is_integer() or not 0 <= number <= high:
        raise Unprocessable(f"{name} are a number in halves", "match_points_half", label=name)
    return int(number) if number.is_integer() else number


def match_limits(settings: dict[str, Any]) -> tuple[int | None, int | None]:
    """The match definition's limits besides the target: ``(deals, minutes)``, each None
    when not set. The first limit reached ends a match (docs/tournaments.md)."""
    match = settings.get("match") or {}
    return match.get("deals"), match.get("minutes")


def room_options(game: str, options: dict[str, Any], settings: dict[str, Any]) -> dict[str, Any]:
    """The options of an online table's room: the tournament's, with Botifarra's
    ``max_hands`` set when matches are a fixed number of deals."""
    out = dict(options)
    deals, _minutes = match_limits(settings)
    limit = rules.GAMES[game].deal_limit_option
    if deals and limit:
        out[limit] = deals
    return out


def describe_match(game: str, options: dict[str, Any], settings: dict[str, Any]) -> str:
    """The match definition in words: "to 1000 points", "12 deals", "45 minutes", or
    several of them "..., whichever comes first"."""
    match = settings.get("match", {"kind": "target"})
    deals, minutes = match_limits(settings)
    parts = [] if match["kind"] != "target" else [f"to {options.get('target')} points"]
    if deals:
        parts.append(f"{deals} deals")
    if minutes:
        parts.append(f"{minutes} minutes, the deal in progress finished")
    text = " or ".join(parts)
    if len(parts) > 1:
        text += ", whichever comes first"
    if options.get("cap_score"):
        text += f", scores recorded up to {options['cap_score']}"
    return text


#: The fewest minutes one paper deal takes (shuffle, deal, bid, eight tricks or more, count):
#: a time limit of N minutes has N deals at most.
MINUTES_PER_DEAL = 1


def most_in_match(game: str, options: dict[str, Any], settings: dict[str, Any]) -> int | None:
    """The highest score one side can have at the end of a match of ``game`` under this
    definition, from the engine's richest deal D (``rules.max_deal_points``: capot,
    the largest declarations, belote, the highest multiplier; every side's points of
    one deal together):

    * to the target T: T + 2 × D. The match ends after the deal that brings a side to
      T, so before it every score was below T (+ D for that deal), unless the scores
      were level over T or points were held (a *litige*, hanging points) and paid with
      the next deal: one such deal more is allowed for (+ D). A longer run of level
      deals over the target is entered deal by deal;
    * N deals: N × D; a time limit of M minutes: M × D (a paper deal takes a minute at
      least, ``MINUTES_PER_DEAL``).

    With several limits the first reached ends the match, so the smallest bound holds.
    None for a match with no limit at all. ``options`` are completed (clean_options)."""
    deal = rules.max_deal_points(game, options)
    match = settings.get("match") or {"kind": "target"}
    deals, minutes = match_limits(settings)
    bounds = []
    if match.get("kind", "target") == "target" and options.get("target"):
        bounds.append(int(options["target"]) + 2 * deal)
    if deals:
        bounds.append(int(deals) * deal)
    hands = rules.GAMES[game].deal_limit_option  # Botifarra's max_hands ends it too
    if hands and options.get(hands):
        bounds.append(int(options[hands]) * deal)
    if minutes:
        bounds.append(int(minutes) // MINUTES_PER_DEAL * deal)
    return min(bounds) if bounds else None


def check_final(
    game: str,
    options: dict[str, Any],
    settings: dict[str, Any],
    home: int,
    away: int,
    forfeit: bool = False,
    third: int | None = None,
) -> None:
    """Refuse a final score (``home``, ``away``: the recorded match points of a table)
    that cannot end a match under this tournament's definition.

    * Botifarra's ``cap_score``: no recorded score is above it (rules/botifarra.md §9).
    * Botifarra, every match kind: only one pair scores per hand and the game ends after
      the hand that reaches the target, so both pairs are never at the target (§9).
    * A match to the target (``{"kind": "target"}``): a team has reached the target
      (the cap, if lower), and the scores differ, since equal scores over the target
      play another deal (rules/bolot.md, belote.md, bridge-belote.md §9). Two
      exceptions end a match anywhere: Botifarra's ``max_hands`` (equal scores are
      a draw) and Belote for two's "I'm done" claim (``allow_claim``: a wrong claim
      loses at any score, rules/belote.md §6).
    * A fixed number of deals or a time limit (the deal in progress finished): any
      score, equal ones included (a draw).
    * A match that must pass the target (contrée's ``win_rule "exceed"``,
      rules/contree.md §9): a team exactly on the target has not ended it.

    At a table of three (``third``, Belote for three) the same holds of the three
    scores: a match to the target ends when a player reaches it with the single highest
    score (rules/belote-3p.md §9).

    Before all that, no score is above what a match of this game and length can reach
    (``most_in_match``): 999999–0 in a match to 1000 is a typing slip.

    ``options`` are the tournament's as stored; they are completed with the ruleset's
    defaults first (a missing ``target`` is the game's default one). A forfeit is checked
    for the cap only. Raises Unprocessable with the reason.
    """
    options = clean_options(game, options)
    target = int(options.get("target") or 0)
    cap = options.get("cap_score")
    scores = [home, away] + ([third] if third is not None else [])
    most = most_in_match(game, options, settings)
    if most is not None and max(scores) > most:
        raise Unprocessable(
            f"no match of this game and length reaches {most} points: a score is at most {most}",
            "score_beyond_match",
            most=most,
        )
    if cap is not None and max(scores) > cap:
        raise Unprocessable(
            f"a score is at most {cap} in this tournament (scores are recorded up to {cap})",
            "score_cap",
            cap=cap,
        )
    if forfeit:
        return
    g = rules.GAMES[game]
    if g.one_side_scores and target and min(home, away) >= target:
        raise Unprocessable(
            f"only one pair can reach {target}: in {g.name} one pair scores per hand "
            "and the game ends at the target",
            "botifarra_one_pair",
            n=target,
        )
    match = settings.get("match", {"kind": "target"})
    ends_anywhere = g.ends_before_target(options)
    stopped_early = any(limit is not None for limit in match_limits(settings))
    if match["kind"] != "target" or ends_anywhere or not target or stopped_early:
        return  # a number of deals or a time limit may end it short of the target, level too
    if cap is not None and cap < target:  # capped scores: at the cap is as far as they go
        reach, there = cap, max(scores) >= cap
    else:  # the smallest score that ends the match (target + 1 when it must be passed)
        reach = target if g.at_target(options, target) else target + 1
        there = g.at_target(options, max(scores))
    if not there:
        raise Unprocessable(
            f"a match to {target} points ends when a team reaches {reach}: neither score does",
            "match_not_reached",
            target=target,
            reach=reach,
        )
    if scores.count(max(scores)) > 1 and (
        cap is None or cap >= target
    ):  # a cap below the target may level them
        raise Unprocessable(
            f"a match to {target} points cannot end level: "
            "with equal scores over the target another deal is played",
            "match_level",
            target=target,
        )
