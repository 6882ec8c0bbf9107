"""Checks and comparisons shared by the score functions of the Belote family."""

from __future__ import annotations

from typing import Any

from app.rules.declarations import check_disjoint
from app.rules.errors import IllegalAction


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def card_points_cap(game: Any, trump: str | None, tricks: int) -> int:
    """Most card points ``tricks`` tricks can hold: the ``players * tricks`` richest cards.

    rules/bolot.md §8: with trump oros, 1 trick 56, 2 tricks 98, ... 6 or more 152.
    """
    n: int = game.players * tricks
    if n < 0:  # not a count of cards: as the slice of the richest ones reads it
        return sum(_sorted_points(game, trump)[::-1][:n])
    caps = _richest_sums(game, trump)
    return caps[min(n, len(caps) - 1)]


def _richest_sums(game: Any, trump: str | None) -> list[int]:
    """``[0, the richest card's points, the two richest cards' points, ...]`` under
    ``trump``, up to the whole deck (remembered per game: every deal's end checks the caps)."""
    memo = getattr(game, "_memo", None)
    key = ("richest_sums", trump)
    if memo is not None and key in memo:
        memoized: list[int] = memo[key]
        return memoized
    sums = [0]
    for value in reversed(_sorted_points(game, trump)):
        sums.append(sums[-1] + value)
    if memo is not None:
        memo[key] = sums
    return sums


def _sorted_points(game: Any, trump: str | None) -> list[int]:
    """The card points of the whole deck under ``trump``, low to high (remembered per game)."""
    memo = getattr(game, "_memo", None)
    key = ("sorted_points", trump)
    if memo is not None and key in memo:
        memoized: list[int] = memo[key]
        return memoized
    values = sorted(game.table.points(c, trump) for c in game.table.deck)
    if memo is not None:
        memo[key] = values
    return values


def total_card_points(game: Any, trump: str | None) -> int:
    """All the card points of the deck under ``trump`` (152 in Bolot and Belote)."""
    return sum(_sorted_points(game, trump))


def played_card_points(game: Any, trump: str | None) -> tuple[int, int]:
    """Fewest and most card points the cards played in a deal can hold.

    Every card is played in the 4-player games (both ends are the deck's
    total, 152); in Belote for two only 18 of the 32 are, 18 to 146 under any
    trump (rules/belote.md §2).
    """
    values = _sorted_points(game, trump)
    n = game.players * game.tricks_per_deal
    return sum(values[:n]), sum(values[-n:])


def check_tricks_and_points(
    game: Any, summary: dict[str, Any], trump: str | None
) -> tuple[list[int], list[int]]:
    """Validate a summary's ``tricks`` and ``card_points``; returns them.

    Tricks add up to the deal's tricks, card points to the deck's total under
    ``trump`` (None: no trumps; a range where not every card is played, see
    :func:`played_card_points`), and no team holds more card points than its
    tricks can (rules/bolot.md §8, rules/botifarra.md §8).

    Raises:
        IllegalAction: with the reason.
    """
    tricks = summary.get("tricks")
    n = game.tricks_per_deal
    if not (
        isinstance(tricks, list)
        and len(tricks) == 2
        and all(_int(t) and t >= 0 for t in tricks)
        and sum(tricks) == n
    ):
        raise IllegalAction("tricks_sum", n=n)
    cp = summary.get("card_points")
    if not (isinstance(cp, list) and len(cp) == 2 and all(_int(p) and p >= 0 for p in cp)):
        raise IllegalAction("card_points_numbers")
    low, high = played_card_points(game, trump)
    if low == high and sum(cp) != high:
        raise IllegalAction("card_points_total", total=high, sum=sum(cp))
    if not low <= sum(cp) <= high:
        raise IllegalAction(
            "card_points_range", cards=game.players * n, low=low, high=high, sum=sum(cp)
        )
    for team in (0, 1):
        cap = card_points_cap(game, trump, tricks[team])
        if cp[team] > cap:
            if tricks[team] == 1:
                raise IllegalAction("one_trick_cap", cap=cap, cp=cp[team])
            raise IllegalAction("tricks_cap", n=tricks[team], cap=cap, cp=cp[team])
    return tricks, cp


#: What the summary checks return: ``(trump, taker_team, tricks, card_points,
#: last_trick_team, declarations, belote)``.
CheckedSummary = tuple[str, int, list[int], list[int], int, list[list[dict[str, Any]]], list[int]]


def check_common_summary(game: Any, summary: Any) -> CheckedSummary:
    """Validate the parts of a deal summary every Belote-family game shares.

    Returns ``(trump, taker_team, tricks, card_points, last_trick_team,
    declarations, belote)``.

    Raises:
        IllegalAction: with the reason (rules/bolot.md §8 lists them).
    """
    if not isinstance(summary, dict):
        raise IllegalAction("summary_object")
    contract = summary.get("contract")
    if not isinstance(contract, dict):
        raise IllegalAction("summary_contract")
    trump = contract.get("trump")
    if trump not in game.table.suits:
        raise IllegalAction("unknown_trump", trump=trump)
    assert isinstance(trump, str)  # one of table.suits
    taker = contract.get("taker_team")
    if taker not in (0, 1) or not _int(taker):
        raise IllegalAction("team_field", field="taker_team")
    eldest = contract.get("eldest_team")
    if eldest is not None and (eldest not in (0, 1) or not _int(eldest)):
        raise IllegalAction("team_field", field="eldest_team")
    tricks, cp = check_tricks_and_points(game, summary, trump)
    last = summary.get("last_trick_team")
    if last not in (0, 1) or not _int(last):
        raise IllegalAction("team_field", field="last_trick_team")
    if tricks[last] == 0:
        raise IllegalAction("last_trick_no_trick")
    belote = summary.get("belote", [0, 0])
    if not (
        isinstance(belote, list)
        and len(belote) == 2
        and all(b in (0, 1) and _int(b) for b in belote)
    ):
        raise IllegalAction("belote_values")
    if sum(belote) > 1:
        raise IllegalAction("one_belote")
    decl = summary.get("declarations", [[], []])
    if not (
        isinstance(decl, list)
        and len(decl) == 2
        and all(isinstance(d, list) for d in decl)
        and all(isinstance(c, dict) for d in decl for c in d)
    ):
        raise IllegalAction("declarations_lists")
    return trump, taker, tricks, cp, last, decl, belote


def compare_best(keys: list[list[Any]], eldest: int | None, what: str) -> int | None:
    """The team whose best key is higher (None when neither has any).

    An exact tie goes to ``eldest`` (the eldest hand's team).

    Raises:
        IllegalAction: a tie and no ``eldest`` to break it.
    """
    best = [max(k) if k else None for k in keys]
    if best[0] is None and best[1] is None:
        return None
    if best[1] is None:
        return 0
    if best[0] is None:
        return 1
    if best[0] != best[1]:
        return 0 if best[0] > best[1] else 1
    if eldest is None:
        raise IllegalAction("tie_needs_eldest", what=what)
    return eldest


def capot_team(tricks: list[int]) -> int | None:
    """The team that took every trick of the deal (*capot*), or None."""
    if tricks[1] == 0:
        return 0
    if tricks[0] == 0:
        return 1
    return None


def deal_totals(
    card_points: list[int],
    declarations: list[int],
    belote: list[int],
    capot: int | None,
    last_trick_team: int,
) -> list[int]:
    """Each team's total of one deal, before the contract is judged.

    ``total[p] = card points + declarations + 20 per belote + 100 for a capot,
    or 10 for the last trick when there is no capot`` (rules/bolot.md §7,
    rules/belote.md §7).
    """
    return [
        card_points[p]
        + declarations[p]
        + 20 * belote[p]
        + (100 if capot == p else 0)
        + (10 if capot is None and last_trick_team == p else 0)
        for p in (0, 1)
    ]


def check_declared(
    game: Any,
    declarations: list[list[dict[str, Any]]],
    trump: str,
    belote: list[int],
    max_cards: int,
) -> list[set[str]]:
    """Check the declarations of a summary; returns each team's declared cards.

    Raises:
        IllegalAction: a four of a rank that is no declaration, an impossible
            run, a card in two declarations, more than ``max_cards`` cards for
            one team, or the belote's cards in the other team's declarations
            (rules/bolot.md §8, rules/belote.md §8).
    """
    for combos in declarations:
        for combo in combos:
            if combo.get("kind") == "four" and str(combo.get("rank")) not in game.four_ranks:
                raise IllegalAction("four_not_declaration", rank=combo.get("rank"))
    sets = check_disjoint(declarations, game.table, max_cards)
    pair = set(game.belote_cards({"trump": trump}))
    for team in (0, 1):
        if belote[team] and sets[1 - team] & pair:
            raise IllegalAction("belote_in_other_declarations", key=game.belote_key)
    return sets
