"""The engine's public functions; every game is reached through ``GAMES``."""

from __future__ import annotations

import importlib
import random
import secrets
from collections.abc import Sequence
from typing import Any

from app.rules import deal_points
from app.rules.core import TrickGame
from app.rules.errors import IllegalAction, Reason
from app.rules.state import State
from app.rules.types import Action, ActionIn, DealScore, SummaryIn, View

#: The game modules; each exposes ``RULESETS``, a list of TrickGame instances.
GAME_MODULES = ("bolot", "belote", "belote_3p", "bridge_belote", "botifarra", "contree")


def _load_games() -> dict[str, TrickGame]:
    games: dict[str, TrickGame] = {}
    for name in GAME_MODULES:
        try:
            module = importlib.import_module(f"{__package__}.{name}")
        except ModuleNotFoundError as exc:  # a game not written yet
            if exc.name == f"{__package__}.{name}":
                continue
            raise
        for ruleset in module.RULESETS:
            games[ruleset.id] = ruleset
    return games


#: game id -> ruleset.
GAMES: dict[str, TrickGame] = _load_games()


def game(game_id: str) -> TrickGame:
    """The ruleset of ``game_id``. Raises IllegalAction for an unknown game."""
    try:
        return GAMES[game_id]
    except (KeyError, TypeError):
        raise IllegalAction("unknown_game", game=game_id, games=", ".join(GAMES)) from None


def new_game(game_id: str, options: dict[str, Any] | None = None, dealer: int = 0) -> State:
    """A new match before its first deal. Raises IllegalAction for an unknown game or option."""
    return game(game_id).new_state(options, dealer)


def apply(state: State, action: ActionIn) -> State:
    """The state after ``action`` (``state`` is untouched). Raises IllegalAction with the reason."""
    return GAMES[state.game].apply(state, action)


def legal_actions(state: State) -> list[Action]:
    """Every action the player to act may take: exactly what ``apply`` accepts ([] when dealing or over)."""
    return GAMES[state.game].legal_actions(state)


def to_act(state: State) -> int | None:
    """The seat to act, or None while the server must deal or when the match is over."""
    return state.to_act


def needs_deal(state: State) -> bool:
    """True when the next action must be a ``deal``."""
    return state.phase == "deal"


def is_over(state: State) -> bool:
    """True when the match has a winner."""
    return state.phase == "over"


def new_deck(
    game_id: str, rng: random.Random | None = None, options: dict[str, Any] | None = None
) -> list[str]:
    """A shuffled deck (uniform Fisher-Yates); ``secrets.SystemRandom`` unless ``rng`` is given.

    ``options``: the match's options, where one changes the deck (rules/belote-3p.md §2:
    24 or 32 cards); the default options' deck when None. Raises IllegalAction for an
    unknown game or option."""
    g = game(game_id)
    deck = list(g.deck_for(g.validate_options(options) if options else None))
    (rng or secrets.SystemRandom()).shuffle(deck)
    return deck


def observe(state: State, seat: int | None) -> View:
    """What ``seat`` may see of ``state`` (None: a spectator). JSON-able; see docs/engine-face.md."""
    g = GAMES[state.game]
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < g.players):
        raise IllegalAction("no_such_seat", seat=seat)
    return g.observe(state, seat)


def legal_cards(
    game_id: str,
    options: dict[str, Any] | None,
    contract: dict[str, Any],
    hand: list[str],
    trick: list[str],
) -> list[str]:
    """Which cards of ``hand`` may be played next on ``trick`` (codes in playing order; the
    player is next, so in a 4-player game ``trick[-2]`` is the partner's), under ``contract``
    given as in the deal summary. Raises IllegalAction for an unknown game, option or trump."""
    return game(game_id).legal_cards(options or {}, contract, hand, trick)


def score_deal(game_id: str, options: dict[str, Any] | None, summary: SummaryIn) -> DealScore:
    """Score one deal from its summary, as the game's rules file states (§7-8).

    Raises IllegalAction for an impossible summary, with the reason."""
    return game(game_id).score_deal(options or {}, summary)


def plausible_deal_points(
    game_id: str, options: dict[str, Any] | None, points: Any, carried_in: int = 0
) -> Reason | None:
    """Why ``points`` (a list, one whole number per side: two teams, or each player in
    Belote for three) cannot be the score of one deal of ``game_id`` under ``options``,
    as a :class:`Reason` (code ``deal_points_*``, English sentence); None when some legal
    deal can give them. ``carried_in``: points held from earlier deals (a *litige*,
    hanging points) which this deal's winner may have added to his own.

    Refused: not one number per side; a negative number; more in all than the game's
    richest deal (capot, the largest declarations, belote, the highest multiplier:
    app/rules/deal_points.py works each game's bound out from §2, §5, §7 of its rules
    file); in Botifarra two pairs scoring, or points that are not (1..36) × a
    multiplier (rules/botifarra.md §4, §7); in contrée with rounding, points that are not
    tens (rules/contree.md §7). The bound is an upper one: it never refuses a real deal.
    Raises IllegalAction for an unknown game or option."""
    g = game(game_id)
    opts = g.validate_options(options or {})
    return deal_points.check_points(
        deal_points.deal_bound(game_id, opts), g.sides, points, carried_in
    )


def max_deal_points(game_id: str, options: dict[str, Any] | None) -> int:
    """The most points one deal of ``game_id`` writes on the sheet, every side together
    (carried points aside): the bound of :func:`plausible_deal_points`. Raises
    IllegalAction for an unknown game or option."""
    g = game(game_id)
    return deal_points.deal_bound(game_id, g.validate_options(options or {})).total


def leading_team(scores: list[int]) -> int | None:
    """The side with the single highest match score (a team 0 or 1; a seat where each
    plays for himself); None when the highest is shared. Used where a match is stopped by
    a championship's deal count or time limit rather than ended by its rules
    (docs/tournaments.md "Match definition")."""
    top = max(scores)
    return scores.index(top) if scores.count(top) == 1 else None


def replay(
    game_id: str, options: dict[str, Any] | None, dealer: int, actions: Sequence[ActionIn]
) -> State:
    """The state after applying ``actions`` to a new match."""
    state = new_game(game_id, options, dealer)
    g = GAMES[game_id]
    for a in actions:
        state = g.apply(state, a)
    return state
