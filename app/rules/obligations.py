"""Trick obligations shared by the Belote family in suit contracts.

rules/bolot.md §6 and rules/belote.md §6 (4 players) state the same
procedure; French Belote adds the option ``must_undertrump``.

Speed: bots simulate thousands of deals per decision, so this runs on plain
lookups (``strength`` from :meth:`app.rules.core.TrickGame.power_table`)
rather than a function call per card comparison. A card's suit is its last
character (``card[-1]``, see :func:`app.rules.cards.suit_of`).
"""

from __future__ import annotations

from collections.abc import Mapping

from app.rules.errors import Reason

#: The reasons, built once each: a Reason is an immutable English sentence, and building
#: one formats a template, which the play-outs of the bots would otherwise do at every card.
_REASONS: dict[tuple[str, str | None], Reason] = {}


def _reason(code: str, suit: str | None = None) -> Reason:
    """The Reason ``code`` (with ``suit`` when given), from the cache."""
    key = (code, suit)
    found = _REASONS.get(key)
    if found is None:
        found = _REASONS[key] = Reason(code, suit=suit) if suit is not None else Reason(code)
    return found


class _FollowSuit(dict[str, Reason]):
    """suit -> the Reason "must_follow_suit" for it, built on first use: the commonest
    reason, given at most cards of a play-out, is then one lookup."""

    def __missing__(self, suit: str) -> Reason:
        found = self[suit] = _reason("must_follow_suit", suit)
        return found


_FOLLOW_SUIT = _FollowSuit()


def winning_index(trick: list[str], trump: str | None, strength: Mapping[str, int]) -> int:
    """Index in ``trick`` (card codes in play order, at least one) of the card now
    winning it: the first of the highest power, where a card has ``strength[card]``
    when its suit is ``trump`` or the suit led, else 0 (rules/bolot.md §6)."""
    led = trick[0][-1]
    win, best = 0, -1
    for i, c in enumerate(trick):
        s = c[-1]
        p = strength[c] if s == trump or s == led else 0
        if p > best:
            win, best = i, p
    return win


def belote_follow(
    hand: list[str],
    trick: list[str],
    trump: str | None,
    strength: Mapping[str, int],
    players: int = 4,
    must_undertrump: bool = True,
) -> tuple[list[str], str]:
    """Which cards of ``hand`` may follow ``trick`` in a suit contract, and why.

    ``trick`` holds the card codes already played, in order; the player is
    next, so in a 4-player game ``trick[-2]`` is his partner's card.
    ``trump`` is the trump suit; None means no trumps (only following suit is
    owed). ``strength[card]`` is the card's power in a trick led in its own
    suit; in a trick led in ``led`` a card has that power when its suit is
    ``trump`` or ``led``, else 0 (it cannot win).
    Returns ``(legal cards, wording of the rule that limits them)``.

    Procedure (rules/bolot.md §6)::

        lead: anything; trumps led: overtake if possible, else any trump;
        follow suit if possible (no need to beat);
        void: partner winning -> free; else trump, over-trumping if possible;
        unable to over-trump: any trump (or anything, without must_undertrump).
    """
    if not trick:
        return list(hand), ""
    led = trick[0][-1]
    follow = [c for c in hand if c[-1] == led]
    if led == trump:
        if not follow:
            return list(hand), ""
        top = max(strength[c] for c in trick if c[-1] == led)
        higher = [c for c in follow if strength[c] > top]
        if higher:
            return higher, _reason("must_overtake_trumps")
        return follow, _FOLLOW_SUIT[led]
    if follow:
        return follow, _FOLLOW_SUIT[led]
    trumps = [c for c in hand if c[-1] == trump]
    if not trumps:
        return list(hand), ""
    if players == 4 and winning_index(trick, trump, strength) == len(trick) - 2:
        return list(hand), ""
    trick_trumps = [strength[c] for c in trick if c[-1] == trump]
    if not trick_trumps:
        return trumps, _reason("must_trump")
    top = max(trick_trumps)
    higher = [c for c in trumps if strength[c] > top]
    if higher:
        return higher, _reason("must_over_trump")
    if must_undertrump:
        return trumps, _reason("must_still_trump")
    return list(hand), ""
