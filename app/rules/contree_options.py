"""Belote contrée: the named options and the three presets that fix them (rules/contree.md §10).

Every disputed point of the rules is an option; a preset (``ffb``, ``coinche``,
``colver``) sets them all, and options given with it override it. Each schema
entry's ``default`` is the ``ffb`` value and ``presets`` gives the value under
each preset (the lobby's form follows the preset chosen).
"""

from __future__ import annotations

from typing import Any

#: rules/contree.md §10: the preset -> every option it fixes.
PRESETS: dict[str, dict[str, Any]] = {
    "ffb": {
        "target": 2000,
        "win_rule": "reach",
        "max_bid": 160,
        "eighty_needs_82": False,
        "capot_value": 250,
        "capot_scoring": "flat",
        "capot_points": 252,
        "coinche_capot": True,
        "generale": False,
        "generale_value": 500,
        "coinche_freezes": True,
        "surcoinche_multiplier": 4,
        "multiplier_on": "base_and_contract",
        "failure_base": 160,
        "belote_rule": "winner",
        "belote_counts_for_contract": True,
        "must_beat_defense": False,
        "tie_rule": "fail",
        "declarations": False,
        "declarations_count_for_contract": True,
        "declaration_tie": "eldest",
        "eight_card_run_120": False,
        "rounding": "half_up",
        "must_undertrump": False,
    },
}
PRESETS["coinche"] = dict(
    PRESETS["ffb"],
    win_rule="exceed",
    max_bid=650,
    capot_points=250,
    failure_base=162,
    belote_rule="holder",
    must_beat_defense=True,
    declarations=True,
    declaration_tie="cancel",
    rounding="none",
    must_undertrump=True,
)
PRESETS["colver"] = dict(
    PRESETS["ffb"],
    capot_scoring="contract",
    surcoinche_multiplier=3,
    multiplier_on="contract",
    failure_base=162,
    rounding="none",
)

#: The numeric bids' ceiling may be set from 160 to 650, by tens (§10 ``max_bid``).
MAX_BIDS = list(range(160, 651, 10))

_LABELS: dict[str, tuple[str, dict[str, Any]]] = {
    "target": ("Match to", {"type": "int", "min": 1, "max": 100000, "suggested": [2000, 1000]}),
    "win_rule": (
        "The match is won by reaching the target, or only by passing it",
        {"type": "choice", "choices": ["reach", "exceed"]},
    ),
    "max_bid": ("Highest numeric bid", {"type": "choice", "choices": MAX_BIDS}),
    "eighty_needs_82": ("A bid of 80 needs 82 points", {"type": "bool"}),
    "capot_value": ("Value of a capot bid", {"type": "choice", "choices": [250, 270]}),
    "capot_scoring": (
        "A capot bid scores flat (500, 1000, 2000) or as a contract",
        {"type": "choice", "choices": ["flat", "contract"]},
    ),
    "capot_points": (
        "Trick points of a team that takes every trick",
        {"type": "choice", "choices": [252, 250]},
    ),
    "coinche_capot": ("A capot may be coinched", {"type": "bool"}),
    "generale": ("Allow the générale (the bidder alone takes every trick)", {"type": "bool"}),
    "generale_value": ("Value of a générale", {"type": "int", "min": 10, "max": 10000}),
    "coinche_freezes": ("After a coinche nobody may bid again", {"type": "bool"}),
    "surcoinche_multiplier": ("A surcoinche multiplies by", {"type": "choice", "choices": [4, 3]}),
    "multiplier_on": (
        "Coinche and surcoinche multiply",
        {"type": "choice", "choices": ["base_and_contract", "contract"]},
    ),
    "failure_base": (
        "Points of the defenders' base on a failed contract",
        {"type": "choice", "choices": [160, 162]},
    ),
    "belote_rule": (
        "Belote of failed takers",
        {"type": "choice", "choices": ["winner", "holder"]},
    ),
    "belote_counts_for_contract": ("The belote counts toward the contract", {"type": "bool"}),
    "must_beat_defense": ("The takers must also score more than the defenders", {"type": "bool"}),
    "tie_rule": (
        "A tie between takers and defenders",
        {"type": "choice", "choices": ["fail", "litige"]},
    ),
    "declarations": ("Declarations (tierce, quarte, quinte, carré)", {"type": "bool"}),
    "declarations_count_for_contract": (
        "Declarations count toward the contract",
        {"type": "bool"},
    ),
    "declaration_tie": (
        "Two equal best runs",
        {"type": "choice", "choices": ["eldest", "cancel"]},
    ),
    "eight_card_run_120": ("A run of 8 is worth 120", {"type": "bool"}),
    "rounding": (
        "Rounding of trick points",
        {"type": "choice", "choices": ["half_up", "six_up", "none"]},
    ),
    "must_undertrump": ("Unable to over-trump an opponent, you must still trump", {"type": "bool"}),
}


def options_schema() -> list[dict[str, Any]]:
    """The ``options_schema`` of ``contree``: ``preset`` first, then every option of §10
    with its ``ffb`` default and ``presets`` (its value under each preset)."""
    schema: list[dict[str, Any]] = [
        {
            "name": "preset",
            "type": "choice",
            "default": "ffb",
            "choices": list(PRESETS),
            "label": "Rules preset",
        }
    ]
    for name, (label, spec) in _LABELS.items():
        schema.append(
            {
                "name": name,
                **spec,
                "default": PRESETS["ffb"][name],
                "label": label,
                "presets": {p: values[name] for p, values in PRESETS.items()},
            }
        )
    return schema
