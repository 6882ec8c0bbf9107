"""Trick obligations shared by the Belote family in suit contracts.

rules/bolot.md §6 and rules/belote.md §6 (4 players) state the same
procedure; French Belote adds the option ``must_undertrump``.
"""

from __future__ import annotations

from collections.abc import Callable

from .cards import SUIT_NAMES, suit_of


def belote_follow(
    hand: list[str],
    trick: list[str],
    trump: str | None,
    power: Callable[[str, str], int],
    players: int = 4,
    must_undertrump: bool = True,
) -> tuple[list[str], str]:
    """Which cards of ``hand`` may follow ``trick`` in a suit contract, and why.

    ``trick`` holds the card codes already played, in order; the player is
    next, so in a 4-player game ``trick[-2]`` is his partner's card.
    ``trump`` is the trump suit; None means no trumps (only following suit is
    owed). ``power(card, led)`` ranks a card in a trick led in ``led`` (0: cannot win).
    Returns ``(legal cards, wording of the rule that limits them)``.

    Procedure (rules/bolot.md §6)::

        lead: anything; trumps led: overtake if possible, else any trump;
        follow suit if possible (no need to beat);
        void: partner winning -> free; else trump, over-trumping if possible;
        unable to over-trump: any trump (or anything, without must_undertrump).
    """
    if not trick:
        return list(hand), ""
    led = suit_of(trick[0])
    follow = [c for c in hand if suit_of(c) == led]
    trumps = [c for c in hand if suit_of(c) == trump]
    if led == trump:
        if not follow:
            return list(hand), ""
        top = max(power(c, led) for c in trick)
        higher = [c for c in follow if power(c, led) > top]
        if higher:
            return higher, "trumps were led: you must overtake"
        return follow, f"you must follow suit in {SUIT_NAMES[led]}"
    if follow:
        return follow, f"you must follow suit in {SUIT_NAMES[led]}"
    if not trumps:
        return list(hand), ""
    win = max(range(len(trick)), key=lambda i: power(trick[i], led))
    if players == 4 and win == len(trick) - 2:
        return list(hand), ""
    trick_trumps = [c for c in trick if suit_of(c) == trump]
    if not trick_trumps:
        return trumps, "you cannot follow suit, so you must trump"
    top = max(power(c, led) for c in trick_trumps)
    higher = [c for c in trumps if power(c, led) > top]
    if higher:
        return higher, "you must over-trump"
    if must_undertrump:
        return trumps, "you cannot over-trump, but you must still trump"
    return list(hand), ""
