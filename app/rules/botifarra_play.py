"""Which cards may follow a trick in Botifarra (rules/botifarra.md §6).

The game's words: *matar* is to beat the card now winning the trick;
*carregar* is to give counting cards to the partner's trick; the *manilla*
is the 9, the highest card of every suit. The western rules (*occidental*)
apply rules 1-2; the eastern rules (*oriental*) add rule 3.
"""

from __future__ import annotations

from collections.abc import Mapping

from app.rules.cards import rank_of
from app.rules.errors import Reason

#: rules/botifarra.md §2: the cards that hold points (9, 1, 12, 11, 10).
COUNTING_RANKS = frozenset(("9", "1", "12", "11", "10"))


def is_counting(card: str) -> bool:
    """True for a counting card (9, 1, 12, 11 or 10 of any suit)."""
    return rank_of(card) in COUNTING_RANKS


def lowest_of_each_suit(cards: list[str], strength: Mapping[str, int]) -> set[str]:
    """The lowest card (rank order) of each suit present in ``cards``; ``strength`` as in
    :func:`botifarra_follow`."""
    low: dict[str, str] = {}
    for c in cards:
        s = c[-1]
        if s not in low or strength[c] < strength[low[s]]:
            low[s] = c
    return set(low.values())


def botifarra_follow(
    hand: list[str],
    trick: list[str],
    trump: str | None,
    strength: Mapping[str, int],
    eastern: bool = False,
    extended_exception: bool = False,
) -> tuple[list[str], str]:
    """Which cards of ``hand`` may follow ``trick``, and the wording of the rule that limits them.

    ``trick`` holds the card codes already played in order; the player is
    next, so ``trick[-2]`` is his partner's card. ``trump`` is None in a
    botifarra (no trumps). ``strength[card]`` is the card's power in a trick
    led in its own suit; in a trick led in ``led`` it has that power when its
    suit is ``trump`` or ``led``, else 0 (it cannot win). Returns ``(legal cards, reason)``; the
    reason is "" when every card of ``hand`` is legal.

    Rules in order of precedence (rules/botifarra.md §6): 1 follow the led
    suit; 2 beat the opponents (never the partner): a higher card of the led
    suit, or when void a trump that wins; 3 (eastern only) when you do not
    win: a counting card or your lowest if the partner is winning, your
    lowest if an opponent is; the second player who cannot follow (with
    ``extended_exception``, even when he follows) may also play a counting card.
    """
    if not trick:
        return list(hand), ""
    led = trick[0][-1]  # a card's suit is its last character

    def power(c: str) -> int:
        s = c[-1]
        return strength[c] if s == trump or s == led else 0

    win, top = 0, -1
    for i, c in enumerate(trick):  # the first card of the highest power wins
        p = power(c)
        if p > top:
            win, top = i, p
    partner_winning = win == len(trick) - 2
    winning = trick[win]
    follow = [c for c in hand if c[-1] == led]
    pool = follow or list(hand)
    if not partner_winning:
        winners = [c for c in pool if power(c) > top]
        if winners:
            if follow:
                why = Reason("must_beat", card=winning)
            elif winning[-1] == trump:
                why = Reason("must_over_trump_to_beat", suit=led, card=winning)
            else:
                why = Reason("must_trump_to_beat", suit=led, card=winning)
            return winners, why
    if not eastern:
        return pool, (Reason("must_follow_suit", suit=led) if follow else "")
    low = lowest_of_each_suit(pool, strength)
    if partner_winning:
        legal = [c for c in pool if c in low or is_counting(c)]
        if follow:
            why = Reason("partner_winning_follow", suit=led)
        else:
            why = Reason("partner_winning_discard", suit=led)
        return legal, why
    second = len(trick) == 1 and (not follow or extended_exception)
    legal = [c for c in pool if c in low or (second and is_counting(c))]
    also = "_or_counting" if second else ""
    if follow:
        why = Reason("must_follow_lowest" + also, card=winning, suit=led)
    else:
        why = Reason("must_play_lowest" + also, card=winning, suit=led)
    return legal, why
