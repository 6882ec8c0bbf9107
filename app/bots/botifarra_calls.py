"""A learned worth of Botifarra's calls, for the strong bot (issue 22).

Three calls are learned (rules/botifarra.md §4): the dealer's choice (a trump suit,
botifarra, or delegating to his partner), the partner's choice after a delegation (a suit
or botifarra), and a defender's double (*contrar*). Each action of each kind has its own
linear model of the hand (:func:`features`) that predicts the deal's result for the
caller's side (its points less the other side's) after that action; the doubles' model
predicts the result after a double less the result after a pass. They are fitted by
least squares (:func:`fit`, a small ridge) to random deals in which every action on offer
is played to the end by the heuristic (:func:`labels`). The strong bot takes the action
predicted best, and doubles when the double is predicted to gain (:func:`choose_call`);
the redouble (*recontrar*) and *Sant Vicenç* stay the heuristic's.

The weights in ``WEIGHTS`` were printed by::

    uv run tapet fit-calls --game botifarra --deals 16828 --seed 3

(docs/benchmarks.md, "Issue 22, 7 December 2026 (evening)": 196,173 calls.)
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from app.bots import botifarra as heuristic
from app.bots.call_model import auction_rows
from app.bots.strong_auction import deal_result
from app.rules import State, apply
from app.rules.botifarra import GAME
from app.rules.cards import rank_of, suit_of
from app.rules.types import Action, View

#: The counting cards, the highest first (rules/botifarra.md §2: the manilla, the As, the
#: Rei, the Cavall, the Sota).
HONOURS = ("9", "1", "12", "11", "10")

#: model name -> weights (:func:`features`), in the game's points. A name is the call's
#: kind and the action's type: ``choose1:`` the dealer's choice, ``choose2:`` his
#: partner's after a delegation, then ``trump``, ``botifarra`` or ``delegate``;
#: ``double:suit`` and ``double:bot``, a defender's double of a suit or of botifarra.
WEIGHTS: dict[str, tuple[float, ...]] = {
    "choose1:botifarra": (
        -17.68397916111243, 10.325275961746154, 6.593797277302343,
        0.6833857093953253, 6.947929274567911, 3.5876345226007507,
        -0.7536201082370916, -0.016959341715734714, 0.3370421894814779,
        -0.005187070172617938,
    ),
    "choose1:delegate": (
        -3.115131702983998, 5.02729543481549, 1.043851334250333,
        -0.863835902051552, 2.1862633938991696, 0.8170969235100344,
        -0.3215313027176036, 0.13015952058491434, 1.0499114491207258,
        0.38527613347028056,
    ),
    "choose1:trump": (
        -18.90678824090696, 9.145987263929914, 6.570264605405211,
        4.9997955147213995, 3.6796392378201332, 2.8217968912642597,
        1.894913331646347, 0.650543220036443, 0.37522263945643686,
        5.516697005592525, 1.1860698199126873, 2.287948819253822,
        0.5876836965374529, 5.053725960955713, 1.308798272039333,
    ),
    "choose2:botifarra": (
        -17.802923602576413, 11.38207695948082, 5.90558703882567,
        0.176448272845019, 5.0381027375859695, 3.4046582914620673,
        -0.7588294602499223, -0.5275941440450945, 0.8068424807902176,
        -0.011393541144929024,
    ),
    "choose2:trump": (
        -20.7065415300733, 10.228942335634411, 7.056475055853179,
        5.470354913436973, 4.117667881855252, 3.284122192514601,
        2.0771597559188844, 0.039831905794418844, 0.6051017865910007,
        5.415229658598652, 0.7943183966999504, 1.5394014571681205,
        0.35264362650644326, 4.753348799296415, 1.8551909064735663,
    ),
    "double:bot": (
        -72.92135604911375, 23.36173275449948, 11.958684352187571,
        5.8242069290041325, 12.459721560694529, 8.978518408152965,
        -2.2773055906815918, -1.2502802445757526, -0.8628123987882014,
        -0.33186383954912413, -2.0058825003435685,
    ),
    "double:suit": (
        -15.854917664712547, 7.856846168958304, 5.016240069119508,
        3.820461440536505, 2.7200932725971456, 2.027573663424508,
        1.237196485802976, 1.2834759434243606, 1.2624387352721456,
        4.000469773913737, 1.087521530817789, 1.6026992441069057,
        0.4887716064145615, 2.2443919232970413, 1.132694715904146,
        0.2940667027818636,
    ),
}  # fmt: skip


def _by_suit(hand: Sequence[str]) -> list[list[str]]:
    return [[rank_of(c) for c in hand if suit_of(c) == s] for s in GAME.table.suits]


def hand_features(hand: Sequence[str]) -> list[float]:
    """Ten floats that do not depend on a trump suit: 1 (the model's constant); the suits
    with their manilla (the 9); with the 9 and the As; with the 9, the As and the Rei; with
    the As but not the 9; with the Rei; the longest suit's length, the second longest's;
    the suits held by none, by one card."""
    suits = _by_suit(hand)
    lengths = sorted((len(r) for r in suits), reverse=True)
    return [
        1.0,
        float(sum("9" in r for r in suits)),
        float(sum("9" in r and "1" in r for r in suits)),
        float(sum("9" in r and "1" in r and "12" in r for r in suits)),
        float(sum("1" in r and "9" not in r for r in suits)),
        float(sum("12" in r for r in suits)),
        float(lengths[0]),
        float(lengths[1]),
        float(sum(n == 0 for n in lengths)),
        float(sum(n == 1 for n in lengths)),
    ]


def suit_features(hand: Sequence[str], trump: str) -> list[float]:
    """Fifteen floats for ``trump`` as trumps: 1; the trump 9, 1, 12, 11 and 10 held (1 if
    so); the other trumps, how many; at least five trumps, at least six; then over the
    plain suits: with their 9; with the 9 and the 1; with the 1 but not the 9; with the 12;
    none held; one held."""
    suits = dict(zip(GAME.table.suits, _by_suit(hand), strict=True))
    trumps = suits[trump]
    plain = [r for s, r in suits.items() if s != trump]
    return [
        1.0,
        *(float(h in trumps) for h in HONOURS),
        float(sum(r not in HONOURS for r in trumps)),
        float(len(trumps) >= 5),
        float(len(trumps) >= 6),
        float(sum("9" in r for r in plain)),
        float(sum("9" in r and "1" in r for r in plain)),
        float(sum("1" in r and "9" not in r for r in plain)),
        float(sum("12" in r for r in plain)),
        float(sum(len(r) == 0 for r in plain)),
        float(sum(len(r) == 1 for r in plain)),
    ]


def features(kind: str, hand: Sequence[str], action: Action, contract: Any = None) -> list[float]:
    """The features of ``action`` for the model of ``kind`` (``choose1``, ``choose2`` or
    ``double``): :func:`suit_features` for a trump suit named; for a double,
    :func:`suit_features` of the contract's suit (or :func:`hand_features` against
    botifarra) and 1 if the doubler sits right after the trump maker; otherwise
    :func:`hand_features`. ``contract``: for a double, ``{"trump", "maker_next"}``."""
    if action["type"] == "trump":
        return suit_features(hand, action["suit"])
    if kind == "double":
        base = suit_features(hand, contract["trump"]) if contract["trump"] else hand_features(hand)
        return [*base, float(contract["maker_next"])]
    return hand_features(hand)


def model_name(kind: str, action: Action, botifarra: bool = False) -> str:
    """The ``WEIGHTS`` key of ``action`` in a call of ``kind``."""
    if kind == "double":
        return "double:bot" if botifarra else "double:suit"
    return f"{kind}:{action['type']}"


def _dot(weights: Sequence[float], f: Sequence[float]) -> float:
    return sum(w * x for w, x in zip(weights, f, strict=True))


def choose_call(view: View, rng: random.Random) -> Action:
    """The strong bot's call in Botifarra's auction (the seat's own view); one of
    ``view["legal_actions"]``. The choice of trumps: the action whose model predicts the
    most. A defender's double: when its model predicts a gain over the pass. Anything else
    (the redouble, Sant Vicenç): the heuristic's. Raises ValueError for no action."""
    actions = view["legal_actions"]
    hand = view["hand"]
    if not actions:
        raise ValueError("this seat has no action to take")
    assert hand is not None and view["seat"] is not None  # the bot's own view
    if view.get("choice_step") == "choose":
        kind = "choose2" if view["delegated"] else "choose1"
        return max(
            actions,
            key=lambda a: _dot(WEIGHTS[model_name(kind, a)], features(kind, hand, a)),
        )
    if {"type": "double"} in actions:
        c = view["contract"]
        assert c is not None  # a double is asked once trumps are chosen
        contract = {
            "trump": None if c["botifarra"] else c["trump"],
            "maker_next": (view["seat"] - c["chooser"]) % 4 == 1,
        }
        name = model_name("double", {"type": "double"}, c["botifarra"])
        gain = _dot(WEIGHTS[name], features("double", hand, {"type": "double"}, contract))
        return {"type": "double"} if gain > 0 else {"type": "pass"}
    return heuristic.choose(view, rng)


def _result(state: State, team: int) -> float:
    """``state``'s deal played to its end by the heuristic in every seat: ``team``'s points
    less the other pair's."""
    return deal_result(GAME, state, team, heuristic.choose, random.Random(1))


def labels(deals: int, seed: int) -> Iterator[dict[str, Any]]:
    """Training rows from ``deals`` random deals (:func:`app.bots.call_model.auction_rows`),
    the heuristic calling, except that the dealer delegates at random half the time (so
    that the partner's choice is seen often enough).

    At the dealer's choice and the partner's, one row an action on offer: ``{"kind":
    "choose1" | "choose2", "hand", "act", "worth"}``, ``worth`` the deal's result for the
    caller's pair after it (its points less the other pair's), played to the end by the
    heuristic. At a defender's double: ``{"kind": "double", "hand", "trump", "bot",
    "maker_next", "worth"}``, ``worth`` the result after the double less the result after a
    pass."""

    def turn(state: State, view: View, rng: random.Random) -> tuple[list[dict[str, Any]], Action]:
        seat = view["seat"]
        assert seat is not None
        team = GAME.team_of(seat)
        actions = view["legal_actions"]
        if view["choice_step"] == "choose":
            kind = "choose2" if view["delegated"] else "choose1"
            rows = [
                {
                    "kind": kind,
                    "hand": view["hand"],
                    "act": a,
                    "worth": _result(apply(state, a), team),
                }
                for a in actions
            ]
            if kind == "choose1" and rng.random() < 0.5:
                return rows, {"type": "delegate"}
            return rows, heuristic.choose(view, rng)
        if {"type": "double"} not in actions:
            return [], heuristic.choose(view, rng)
        doubled = _result(apply(state, {"type": "double"}), team)
        passed = _result(apply(state, {"type": "pass"}), team)
        c = view["contract"]
        assert c is not None  # a double is asked once trumps are chosen
        row = {
            "kind": "double",
            "hand": view["hand"],
            "trump": c["trump"],
            "bot": c["botifarra"],
            "maker_next": (seat - c["chooser"]) % 4 == 1,
            "worth": doubled - passed,
        }
        return [row], heuristic.choose(view, rng)

    return auction_rows(GAME.id, deals, seed, turn)


def fit(rows: Sequence[dict[str, Any]], ridge: float = 1.0) -> dict[str, list[float]]:
    """Each model's weights (``WEIGHTS``' names) fitted by least squares with a ridge
    penalty ``ridge`` to the rows of :func:`labels` that are its own. Raises ValueError for
    no rows."""
    import numpy as np  # a dependency of numba's; only the fit needs it

    if not rows:
        raise ValueError("no rows to fit")
    data: dict[str, tuple[list[list[float]], list[float]]] = {}
    for r in rows:
        if r["kind"] == "double":
            contract = {"trump": None if r["bot"] else r["trump"], "maker_next": r["maker_next"]}
            name = model_name("double", {"type": "double"}, r["bot"])
            x = features("double", r["hand"], {"type": "double"}, contract)
        else:
            name = model_name(r["kind"], r["act"])
            x = features(r["kind"], r["hand"], r["act"])
        xs, ys = data.setdefault(name, ([], []))
        xs.append(x)
        ys.append(float(r["worth"]))
    out = {}
    for name, (xs, ys) in sorted(data.items()):
        a, b = np.array(xs), np.array(ys)
        w = np.linalg.solve(a.T @ a + ridge * np.eye(a.shape[1]), a.T @ b)
        out[name] = [float(v) for v in w]
    return out


__all__ = [
    "HONOURS",
    "WEIGHTS",
    "choose_call",
    "features",
    "fit",
    "hand_features",
    "labels",
    "model_name",
    "suit_features",
]
