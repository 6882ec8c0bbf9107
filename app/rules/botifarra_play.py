"""Which cards may follow a trick in Botifarra (rules/botifarra.md §6).

The game's words: *matar* is to beat the card now winning the trick;
*carregar* is to give counting cards to the partner's trick; the *manilla*
is the 9, the highest card of every suit. The western rules (*occidental*)
apply rules 1-2; the eastern rules (*oriental*) add rule 3.
"""

from __future__ import annotations

from collections.abc import Callable

from .cards import SUIT_NAMES, card_name, rank_of, suit_of

#: rules/botifarra.md §2: the cards that hold points (9, 1, 12, 11, 10).
COUNTING_RANKS = frozenset(("9", "1", "12", "11", "10"))


def is_counting(card: str) -> bool:
    """True for a counting card (9, 1, 12, 11 or 10 of any suit)."""
    return rank_of(card) in COUNTING_RANKS


def lowest_of_each_suit(cards: list[str], power: Callable[[str, str], int]) -> set[str]:
    """The lowest card (rank order) of each suit present in ``cards``."""
    low: dict[str, str] = {}
    for c in cards:
        s = suit_of(c)
        if s not in low or power(c, s) < power(low[s], s):
            low[s] = c
    return set(low.values())


def botifarra_follow(
    hand: list[str],
    trick: list[str],
    trump: str | None,
    power: Callable[[str, str], int],
    eastern: bool = False,
    extended_exception: bool = False,
) -> tuple[list[str], str]:
    """Which cards of ``hand`` may follow ``trick``, and the wording of the rule that limits them.

    ``trick`` holds the card codes already played in order; the player is
    next, so ``trick[-2]`` is his partner's card. ``trump`` is None in a
    botifarra (no trumps). ``power(card, led)`` ranks a card in a trick led
    in ``led`` (0: it cannot win). Returns ``(legal cards, reason)``; the
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
    led = suit_of(trick[0])
    led_name = SUIT_NAMES[led]
    win = max(range(len(trick)), key=lambda i: power(trick[i], led))
    partner_winning = win == len(trick) - 2
    winning = trick[win]
    follow = [c for c in hand if suit_of(c) == led]
    pool = follow or list(hand)
    if not partner_winning:
        top = power(winning, led)
        winners = [c for c in pool if power(c, led) > top]
        if winners:
            if follow:
                why = f"you must beat the opponents' {card_name(winning)}"
            elif suit_of(winning) == trump:
                why = f"you cannot follow {led_name}, so you must over-trump the opponents' {card_name(winning)}"
            else:
                why = f"you cannot follow {led_name}, so you must trump to beat the opponents' {card_name(winning)}"
            return winners, why
    if not eastern:
        return pool, (f"you must follow suit in {led_name}" if follow else "")
    low = lowest_of_each_suit(pool, power)
    if partner_winning:
        legal = [c for c in pool if c in low or is_counting(c)]
        if follow:
            why = (f"your partner is winning: follow {led_name} with a counting card "
                   f"(9, 1, 12, 11, 10) or your lowest {led_name}")
        else:
            why = ("your partner is winning and you cannot follow "
                   f"{led_name}: play a counting card (9, 1, 12, 11, 10) or the lowest card of a suit")
        return legal, why
    second = len(trick) == 1 and (not follow or extended_exception)
    legal = [c for c in pool if c in low or (second and is_counting(c))]
    also = " (or, as second player, a counting card)" if second else ""
    if follow:
        why = (f"you cannot beat the opponents' {card_name(winning)}, so you must "
               f"follow with your lowest {led_name}{also}")
    else:
        why = (f"you can neither follow {led_name} nor beat the opponents' {card_name(winning)}, "
               f"so you must play the lowest card of a suit{also}")
    return legal, why
