"""A learned value of a take, for the strong bot's calls in the turned-card games (issue 22).

The heuristic takes when one number, :func:`app.bots.belote_family.suit_strength`, passes a
threshold. This model instead predicts what a take is worth: the deal's result for the
bidder's side (its points less the other side's) after the take, less the result after a
pass, from :func:`features` of the hand. It is linear, and fitted by least squares
(:func:`fit`, a small ridge) to the results of many random deals played both ways
(:func:`labels`), the heuristic playing every card. The strong bot takes the call whose
predicted worth is highest when it is above zero (:func:`choose_call`), and passes
otherwise.

The weights in ``WEIGHTS`` were printed by::

    uv run tapet fit-calls --game bolot --deals 20000 --seed 1 --seed 2
    uv run tapet fit-calls --game belote --deals 20000 --seed 1 --seed 2

(docs/benchmarks.md, "Issue 22, 7 December 2026 (evening)": 40,000 deals, 297,103 calls,
3 minutes on two cores.) Belote's strong bot searches its calls and keeps this model's
call unless another is clearly better (:data:`app.bots.strong.SEARCH_DEFAULTS`).

Words: a *take* is the call that names trumps and the contract (rules/bolot.md §4,
*vaig*); round 1 takes the turned card's suit, round 2 names another.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from app.bots import belote_family
from app.bots.strong_auction import deal_result
from app.rules import GAMES, State, apply, needs_deal, new_deck, new_game, observe, to_act
from app.rules.cards import rank_of, suit_of
from app.rules.core import TrickGame
from app.rules.types import Action, View

#: Length of :func:`features`' vector.
SIZE = 29

#: game id -> the model's weights, one per feature (:func:`features`), in the game's
#: points (the bidder's side's deal points less the other side's). Printed by
#: ``tapet fit-calls`` (the module's docstring).
WEIGHTS: dict[str, tuple[float, ...]] = {
    # 297,103 calls of 40,000 deals, seeds [1, 2]
    "bolot": (
        60.666, 26.755, 5.212, 4.105, 5.959, 5.237,
        -8.792, -10.808, -6.433, -16.459, -20.309, -20.389,
        -22.391, -20.197, -20.790, -22.043, -3.108, 18.085,
        29.762, 4.488, 0.000, 1.771, 0.268, 3.710,
        -1.079, -6.670, -1.083, -3.063, -3.967,
    ),
    # 296,009 calls of 40,000 deals, seeds [1, 2]
    "belote": (
        59.576, 26.301, 5.265, 5.196, 8.025, 7.518,
        -8.609, -10.270, -6.770, -15.471, -19.894, -19.380,
        -22.191, -19.812, -20.801, -21.889, -1.931, 17.484,
        27.959, 5.255, 0.000, 2.771, 0.532, 3.472,
        -1.394, -5.208, -2.728, -1.420, -4.893,
    ),
}  # fmt: skip


def features(game: TrickGame, cards: Sequence[str], trump: str, rnd: int, pos: int) -> list[float]:
    """The hand's features for a take of ``trump``: a list of ``SIZE`` floats.

    ``cards``: the bidder's hand with the turned card, which a taker adds (rules/bolot.md
    §3); ``rnd``: the auction's round, 1 or 2; ``pos``: the bidder's seat counted from the
    dealer (0 the dealer, 1 the eldest hand, who speaks first).

    * 0-7: the trumps held, by rank, the highest first (1 if held);
    * 8-15: the plain cards held, by rank, the highest first (how many);
    * 16: plain suits whose second card is held with its top card (the ten behind its ace
      in Belote, the 3 behind the 1 in Bolot);
    * 17, 18: at least three trumps, at least four (1 if so);
    * 19: plain suits the hand has none of;
    * 20: always 0 (kept so the weights' positions stay);
    * 21-28: one 1 for the round and the position: ``21 + 4 * (rnd - 1) + pos``.

    Raises IndexError for a ``pos`` of 4 or more, or a ``rnd`` other than 1 or 2.
    """
    table = game.table
    n = len(table.ranks)
    if rnd not in (1, 2) or not 0 <= pos < 4:
        raise IndexError(f"no feature for round {rnd}, position {pos}")
    f = [0.0] * SIZE
    trumps = [c for c in cards if suit_of(c) == trump]
    plain = [c for c in cards if suit_of(c) != trump]
    for c in trumps:
        f[n - table.trump_power[rank_of(c)]] = 1.0
    for c in plain:
        f[8 + n - table.plain_power[rank_of(c)]] += 1.0
    top = next(r for r in table.ranks if table.plain_power[r] == n)
    second = next(r for r in table.ranks if table.plain_power[r] == n - 1)
    held = set(cards)
    f[16] = float(sum(1 for c in plain if rank_of(c) == second and top + suit_of(c) in held))
    f[17] = float(len(trumps) >= 3)
    f[18] = float(len(trumps) >= 4)
    f[19] = float(len(table.suits) - 1 - len({suit_of(c) for c in plain}))
    f[21 + 4 * (rnd - 1) + pos] = 1.0
    return f


def _round(actions: list[Action]) -> int:
    """1 while the turned card's suit may be taken (a take without a suit), else 2."""
    return 1 if any(a["type"] == "take" and "suit" not in a for a in actions) else 2


def _hand_and_position(view: View) -> tuple[list[str], int]:
    assert view["hand"] is not None and view["seat"] is not None  # the bidder's own view
    turned = view["turned"]
    assert turned is not None  # a turned-card game's auction
    return view["hand"] + [turned], (view["seat"] - view["dealer"]) % view["players"]


def take_value(view: View, action: Action, weights: Sequence[float]) -> float:
    """The predicted worth of the take ``action`` in ``view`` (the bidder's own auction
    view): ``weights`` times :func:`features`, in the game's points."""
    game = GAMES[view["game"]]
    cards, pos = _hand_and_position(view)
    trump = action.get("suit") or suit_of(cards[-1])  # the turned card's suit in round 1
    f = features(game, cards, trump, _round(view["legal_actions"]), pos)
    return sum(w * x for w, x in zip(weights, f, strict=True))


def choose_call(view: View, rng: random.Random | None = None) -> Action:
    """The take with the highest :func:`take_value` when it is above 0, else the pass; one
    of ``view["legal_actions"]``. ``rng`` is not used (the heuristics' signature). Raises
    KeyError for a game without ``WEIGHTS``."""
    weights = WEIGHTS[view["game"]]
    actions = view["legal_actions"]
    best, best_value = None, 0.0
    for a in actions:
        if a["type"] == "take":
            value = take_value(view, a, weights)
            if value > best_value:
                best, best_value = a, value
    return best or next(a for a in actions if a["type"] == "pass")


def _labels_call(view: View, rng: random.Random) -> Action:
    """The heuristic's action in the labels' deals: side 0 calling with
    ``belote_family.BOLD_TAKE_THRESHOLD``, the others with the heuristic's own (as at the
    arena's two tables when the model was fitted); their play is the same."""
    assert view["seat"] is not None
    bold = GAMES[view["game"]].team_of(view["seat"]) == 0
    return (belote_family.choose_bold if bold else belote_family.choose)(view, rng)


def _result(game: TrickGame, state: State, team: int) -> float:
    """``state``'s deal played to its end by :func:`_labels_call` in every seat: ``team``'s
    :func:`app.bots.strong_auction.margin`."""
    return deal_result(game, state, team, _labels_call, random.Random(1))


#: One auction turn of :func:`auction_rows`: ``(state, view, rng)`` -> the turn's training
#: rows and the action that goes on with the auction.
Turn = Callable[[State, View, random.Random], tuple[list[dict[str, Any]], Action]]


def auction_rows(game_id: str, deals: int, seed: int, turn: Turn) -> Iterator[dict[str, Any]]:
    """The rows ``turn`` gives at every auction turn of ``deals`` random deals
    (``random.Random(seed)`` shuffles each deck and is handed to ``turn``; dealer
    ``i % players``), the auction going on with the action ``turn`` returns. Raises KeyError
    for an unknown game."""
    game = GAMES[game_id]
    rng = random.Random(seed)
    for i in range(deals):
        deck = new_deck(game_id, rng)
        state = apply(
            new_game(game_id, {}, dealer=i % game.players), {"type": "deal", "deck": deck}
        )
        while not needs_deal(state):
            seat = to_act(state)
            assert seat is not None
            view = observe(state, seat)
            if view["phase"] != "auction":
                break
            rows, action = turn(state, view, rng)
            yield from rows
            state = apply(state, action)


def labels(game_id: str, deals: int, seed: int) -> Iterator[dict[str, Any]]:
    """Training rows from ``deals`` random deals (:func:`auction_rows`).

    At every call of the auction as the heuristic plays it (side 0 with the bolder
    thresholds, :func:`_labels_call`), one row a take on offer: ``{"cards", "trump", "rnd",
    "pos", "worth"}``, where ``worth`` is the deal's result for the bidder's side (its
    points less the other side's, with three players less the mean of the other two's)
    after that take less the result after a pass, each played to the end by
    :func:`_result`. The turned-card games whose auction is a take or a pass (Bolot,
    Belote, Belote for three). Raises KeyError for an unknown game."""
    game = GAMES[game_id]

    def turn(state: State, view: View, rng: random.Random) -> tuple[list[dict[str, Any]], Action]:
        assert view["seat"] is not None
        team = game.team_of(view["seat"])
        passed = _result(game, apply(state, {"type": "pass"}), team)
        cards, pos = _hand_and_position(view)
        rnd = _round(view["legal_actions"])
        rows = []
        for a in view["legal_actions"]:
            if a["type"] == "take":
                worth = _result(game, apply(state, a), team) - passed
                trump = a.get("suit") or suit_of(cards[-1])
                rows.append(
                    {"cards": cards, "trump": trump, "rnd": rnd, "pos": pos, "worth": worth}
                )
        return rows, _labels_call(view, rng)

    return auction_rows(game_id, deals, seed, turn)


def fit(game_id: str, rows: Sequence[dict[str, Any]], ridge: float = 1.0) -> list[float]:
    """The weights that predict the rows' ``worth`` from their :func:`features` by least
    squares with a ridge penalty ``ridge`` (``SIZE`` floats). Raises ValueError for no
    rows."""
    import numpy as np  # a dependency of numba's; only the fit needs it

    if not rows:
        raise ValueError("no rows to fit")
    game = GAMES[game_id]
    x = np.array([features(game, r["cards"], r["trump"], r["rnd"], r["pos"]) for r in rows])
    y = np.array([float(r["worth"]) for r in rows])
    w = np.linalg.solve(x.T @ x + ridge * np.eye(SIZE), x.T @ y)
    return [float(v) for v in w]


__all__ = [
    "SIZE",
    "WEIGHTS",
    "auction_rows",
    "choose_call",
    "features",
    "fit",
    "labels",
    "take_value",
]
