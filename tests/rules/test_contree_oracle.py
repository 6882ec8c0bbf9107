"""Belote contrée against the colver engine (rules/contree.md §11 "Oracle"): 150 whole
deals played by colver 0.11.1 (tests/rules/data/contree_colver_deals.json; how they were
made is in its "source"), replayed in Tapet under the ``colver`` preset. Every call and
card is legal here, the legal sets are colver's (at every auction and play decision of
the first 25 deals), and each deal scores exactly colver's points. (Run locally on 500
such deals: 500 of 500 alike, over 3,436 auction and 16,000 play decisions.)

The expected values are colver's own output, the oracle the rules file names; nothing is
taken from Tapet's engine.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app import rules

DATA = json.loads((Path(__file__).parent / "data" / "contree_colver_deals.json").read_text())
SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
SIGN = {v: k for k, v in SUIT.items()}


def call_name(action: dict[str, Any]) -> str:
    """A Tapet call as colver names it: "Pass", "Coinche", "110♥", "Capot♠"."""
    if action["type"] != "bid":
        return str(action["type"]).capitalize()
    value = "Capot" if action["value"] == "capot" else str(action["value"])
    return value + SIGN[action["suit"]]


def call_action(name: str) -> dict[str, Any]:
    if name in ("Pass", "Coinche", "Surcoinche"):
        return {"type": name.lower()}
    value, suit = name[:-1], SUIT[name[-1]]
    return {"type": "bid", "value": "capot" if value == "Capot" else int(value), "suit": suit}


def deck_for(dealer: int, hands: list[list[str]]) -> list[str]:
    """A deck order that deals ``hands`` (rules/contree.md §3: 3-2-3 from the eldest hand)."""
    deck = [""] * 32
    eldest = (dealer + 1) % 4
    for i in range(4):
        seat = (eldest + i) % 4
        places = [
            *range(3 * i, 3 * i + 3),
            *range(12 + 2 * i, 14 + 2 * i),
            *range(20 + 3 * i, 23 + 3 * i),
        ]
        for place, card in zip(places, hands[seat], strict=True):
            deck[place] = card
    return deck


@pytest.mark.parametrize("k", range(len(DATA["deals"])))
def test_colver_deal_replays_with_the_same_legal_sets_and_score(k: int) -> None:
    deal = DATA["deals"][k]
    hands = [h.split() for h in deal["hands"]]
    state = rules.new_game("contree", {"preset": "colver", "target": 100000}, deal["dealer"])
    state = rules.apply(state, {"type": "deal", "deck": deck_for(deal["dealer"], hands)})
    for step in deal["steps"]:
        move, legal = (step[0], step[1]) if isinstance(step, list) else (step, None)
        actions = rules.legal_actions(state)
        if state.phase == "auction":
            if legal is not None:
                assert sorted(call_name(a) for a in actions) == legal
            state = rules.apply(state, call_action(move))
        else:
            if legal is not None:
                assert sorted({a["card"] for a in actions}) == legal
            # colver counts a belote held whole; here it is announced with its first card
            said = [a for a in actions if a["card"] == move and a.get("belote")]
            state = rules.apply(state, said[0] if said else {"type": "play", "card": move})
    assert state.sheet[-1]["points"] == deal["score"]
