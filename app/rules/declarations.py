"""Declarations shared by the Belote family: runs (sequences) and fours of a kind.

A combination is a JSON object, as in the API:

* ``{"kind": "sequence", "length": 3..8, "top": "<rank>", "suit": "<suit>"}``
* ``{"kind": "four", "rank": "<rank>"}``

What one player may declare (rules/bolot.md §5, rules/belote.md §5): a card
counts in only one combination; a run is declared whole, as a maximal run
among the cards not used by the fours he declares; he may leave out any
combination. :func:`declare_choices` lists every such choice.
"""

from __future__ import annotations

from itertools import combinations as _subsets
from typing import Any

from app.rules.cards import CardTable, rank_of, suit_of
from app.rules.errors import IllegalAction


def four_ranks_held(hand: list[str], ranks: tuple[str, ...], n_suits: int = 4) -> list[str]:
    """Ranks (among ``ranks``, the declarable ones) of which ``hand`` holds all four suits."""
    held = [c[:-1] for c in hand]  # rank_of, inline: this runs at every declaration
    return [r for r in ranks if held.count(r) == n_suits]


def maximal_runs(
    cards: list[str] | set[str], table: CardTable, min_length: int = 3
) -> list[dict[str, Any]]:
    """Maximal runs of ``min_length`` or more cards in one suit, in ``table.sequence_order``.

    Returns combinations ``{"kind": "sequence", "length", "top", "suit"}``,
    ordered by suit then top card.
    """
    # quick test first: the cards as bits (table.seq_bits); min_length bits in a row?
    bits = table.seq_bits
    mask = 0
    for c in set(cards):
        mask |= bits.get(c, 0)
    in_row = mask
    for k in range(1, min_length):
        in_row &= mask >> k
    if not in_row:  # the usual hand: no run at all
        return []
    order, index = table.sequence_order, table.seq_index
    # each suit's cards as positions in the sequence order (a run is consecutive positions)
    positions: dict[str, set[int]] = {}
    for c in cards:
        r = rank_of(c)
        if r in index:
            positions.setdefault(suit_of(c), set()).add(index[r])
    runs = []
    for s in table.suits:
        held = positions.get(s)
        if held is None or len(held) < min_length:
            continue
        ordered = sorted(held)
        start = prev = ordered[0]
        for i in [*ordered[1:], -2]:  # -2 closes the last stretch
            if i == prev + 1:
                prev = i
                continue
            if prev - start + 1 >= min_length:
                runs.append(
                    {"kind": "sequence", "length": prev - start + 1, "top": order[prev], "suit": s}
                )
            start = prev = i
    return runs


def combination_cards(combo: dict[str, Any], table: CardTable) -> list[str]:
    """The card codes a combination consists of.

    Raises:
        IllegalAction: an unknown kind, rank or suit, or a run that does not fit
            the sequence order (too long, or a top card too low for its length).
    """
    kind = combo.get("kind")
    if kind == "four":
        rank = str(combo.get("rank"))
        if rank not in table.ranks:
            raise IllegalAction("unknown_four_rank", rank=rank)
        return [rank + s for s in table.suits]
    if kind == "sequence":
        suit, top, length = combo.get("suit"), str(combo.get("top")), combo.get("length")
        if suit not in table.suits:
            raise IllegalAction("unknown_run_suit", suit=suit)
        if not isinstance(length, int) or isinstance(length, bool) or not 3 <= length <= 8:
            raise IllegalAction("run_length")
        if top not in table.seq_index:
            raise IllegalAction("unknown_run_top", top=top)
        hi = table.seq_index[top]
        if hi + 1 < length:
            raise IllegalAction("run_top", length=length, top=top)
        return [table.sequence_order[i] + suit for i in range(hi - length + 1, hi + 1)]
    raise IllegalAction("unknown_declaration_kind", kind=kind)


def canonical(combos: list[dict[str, Any]]) -> tuple[tuple[Any, ...], ...]:
    """A hashable, order-free key for a list of combinations (to compare choices)."""
    keys: list[tuple[Any, ...]] = []
    for c in combos:
        if c.get("kind") == "four":
            keys.append(("four", str(c.get("rank"))))
        else:
            keys.append(("sequence", c.get("suit"), str(c.get("top")), c.get("length")))
    return tuple(sorted(keys, key=repr))


def declare_choices(
    hand: list[str], table: CardTable, four_ranks: tuple[str, ...]
) -> list[list[dict[str, Any]]]:
    """Every declaration a player holding ``hand`` may make, the empty one first.

    Each subset of his declarable fours, combined with each subset of the
    maximal runs among the cards those fours leave (rules/bolot.md §5).
    Shape: a list of combination lists; no duplicates.
    """
    # the hand as bits (table.seq_bits): a four held is its rank's bits all set, a run is
    # three bits in a row; most hands hold neither, and are answered from these bits alone
    bits, rank_bits = table.seq_bits, table.rank_bits
    mask = 0
    for c in hand:
        mask |= bits.get(c, 0)
    try:
        fours = [r for r in four_ranks if mask & rank_bits[r] == rank_bits[r]]
    except KeyError:  # a declarable rank outside the run order: count the ranks
        fours = four_ranks_held(hand, four_ranks, len(table.suits))
    if not fours:  # the usual case: distinct runs, so no two choices alike; already in order
        if not mask & (mask >> 1) & (mask >> 2):  # no run of three
            return [[]]
        runs = maximal_runs(hand, table)
        return [list(rs) for j in range(len(runs) + 1) for rs in _subsets(runs, j)]
    seen: set[tuple[tuple[Any, ...], ...]] = set()
    choices: list[list[dict[str, Any]]] = []
    for k in range(len(fours) + 1):
        for chosen in _subsets(fours, k):
            used = {r + s for r in chosen for s in table.suits}
            runs = maximal_runs([c for c in hand if c not in used], table)
            four_combos = [{"kind": "four", "rank": r} for r in chosen]
            for j in range(len(runs) + 1):
                for rs in _subsets(runs, j):
                    choice = four_combos + list(rs)
                    key = canonical(choice)
                    if key not in seen:
                        seen.add(key)
                        choices.append(choice)
    choices.sort(key=lambda c: (len(c) > 0, len(c)))
    return choices


def public_kind(combo: dict[str, Any]) -> dict[str, Any]:
    """What the table learns when a combination is declared: its kind and run length only."""
    if combo.get("kind") == "four":
        return {"kind": "four"}
    return {"kind": "sequence", "length": combo.get("length")}


def run_key(
    combo: dict[str, Any], table: CardTable, trump: str | None, cap: int = 5
) -> tuple[int, int, int]:
    """Comparison key of a run: length (``cap`` and longer count alike), top card, trump suit.

    rules/bolot.md §5 "Runs between the pairs", steps 1-3.
    """
    return (
        min(int(combo["length"]), cap),
        table.seq_index[str(combo["top"])],
        1 if combo.get("suit") == trump else 0,
    )


def check_disjoint(
    per_team: list[list[dict[str, Any]]], table: CardTable, max_cards: int
) -> list[set[str]]:
    """The card sets of each team's declarations, checking no card is used twice.

    Raises:
        IllegalAction: a card in two declarations, or a team declaring more
            than ``max_cards`` cards.
    """
    seen: set[str] = set()
    sets = []
    for team, combos in enumerate(per_team):
        mine: set[str] = set()
        for combo in combos:
            for card in combination_cards(combo, table):
                if card in seen:
                    raise IllegalAction("card_in_two_declarations", card=card)
                seen.add(card)
                mine.add(card)
        if len(mine) > max_cards:
            raise IllegalAction("too_many_declared_cards", team=team, max_cards=max_cards)
        sets.append(mine)
    return sets
