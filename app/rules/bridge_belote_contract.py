"""Bridge-Belote contracts and the card table under them (rules/bridge-belote.md §2, §4).

A contract is a trump suit, No Trumps (*без коз*) or All Trumps (*всичко
коз*). Inside the engine the contract's "trump" for the card table and for
``card_power`` is a marker: the suit letter, ``None`` in No Trumps, and
:data:`ALL_TRUMPS` in All Trumps, where every suit ranks and counts as trumps
but only the suit led can win a trick.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from app.rules.cards import FRENCH_BELOTE, CardTable, rank_of, suit_of
from app.rules.errors import IllegalAction

#: The trump marker of an All Trumps contract.
ALL_TRUMPS = "AT"

#: The six bids, low to high: ♣ < ♦ < ♥ < ♠ < No Trumps < All Trumps (§1, §4).
BIDS = ("C", "D", "H", "S", "NT", "AT")
BID_NAMES = {
    "C": "clubs",
    "D": "diamonds",
    "H": "hearts",
    "S": "spades",
    "NT": "no trumps",
    "AT": "all trumps",
}

#: Contract kinds of the deal summary (§8).
SUIT, NO_TRUMPS, ALL_TRUMPS_KIND = "suit", "no_trumps", "all_trumps"
KINDS = (SUIT, NO_TRUMPS, ALL_TRUMPS_KIND)


@dataclass(frozen=True)
class ContractTable(CardTable):
    """The French Belote table, which also knows All Trumps (``trump == ALL_TRUMPS``).

    In All Trumps every card takes its trump points and trump order (§2).
    """

    def points(self, card: str, trump: str | None) -> int:
        """Card points of ``card`` under the trump marker ``trump``."""
        if trump == ALL_TRUMPS:
            return self.trump_points[rank_of(card)]
        return CardTable.points(self, card, trump)

    def sort_key(self, card: str, trump: str | None) -> tuple[int, int]:
        """Suits grouped in deck order, high cards first (trump order for every suit in AT)."""
        if trump == ALL_TRUMPS:
            return (self.suits.index(suit_of(card)), -self.trump_power[rank_of(card)])
        return CardTable.sort_key(self, card, trump)


TABLE = ContractTable(
    **{f.name: getattr(FRENCH_BELOTE, f.name) for f in fields(CardTable) if f.init}
)


def contract_of_bid(bid: str) -> dict[str, Any]:
    """``{"kind", "trump"}`` of a bid code: "H" -> suit hearts, "NT", "AT"."""
    if bid == "NT":
        return {"kind": NO_TRUMPS, "trump": None}
    if bid == "AT":
        return {"kind": ALL_TRUMPS_KIND, "trump": None}
    return {"kind": SUIT, "trump": bid}


def trump_marker(contract: dict[str, Any] | None) -> str | None:
    """The trump marker of a contract: its suit, ``ALL_TRUMPS``, or None (No Trumps).

    ``contract`` is shaped as in the deal summary (§8): ``{"kind", "trump"}``.

    Raises:
        IllegalAction: an unknown kind, a missing or unknown trump for a suit
            contract, or a trump given for No Trumps / All Trumps.
    """
    if not isinstance(contract, dict):
        raise IllegalAction("contract_kind_object")
    kind, trump = contract.get("kind"), contract.get("trump")
    if kind not in KINDS:
        raise IllegalAction("unknown_contract_kind", kind=kind)
    if kind == SUIT:
        if trump not in TABLE.suits:
            raise IllegalAction("suit_contract_trump", trump=trump)
        suit: str = trump  # one of TABLE.suits
        return suit
    if trump is not None:
        raise IllegalAction(
            "all_trumps_no_suit" if kind == ALL_TRUMPS_KIND else "no_trumps_no_suit"
        )
    return ALL_TRUMPS if kind == ALL_TRUMPS_KIND else None
