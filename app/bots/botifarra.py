"""The heuristic bot for Botifarra (rules/botifarra.md), from the seat's view only.

* Trump choice: the dealer names the suit where his hand is strongest,
  makes botifarra (no trumps, ×2) with several *manilles* (the 9s) backed by
  their aces, and delegates to his partner when no suit is good enough; the
  partner, who may not delegate back, takes the better of the two.
* Doubling (*contrar*, *recontrar*, *Sant Vicenç*): rarely, only with a very
  strong holding in the trump suit (or many manilles against a botifarra).
* Play: take a trick an opponent is winning as cheaply as possible, give
  counting cards to a partner who holds the trick (*carregar*), otherwise
  throw the cheapest card; lead manilles, and trumps when the pair chose them.

Every choice is one of ``view["legal_actions"]``, so both variants' rules of
play are kept by construction.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from app.rules import botifarra as ruleset
from app.rules.cards import rank_of, suit_of
from app.rules.types import Action, View

GAME = ruleset.GAME  # the bot of the Botifarra family: its own ruleset
TABLE = GAME.table
TOP = len(TABLE.ranks)  # the plain power of the manilla

#: Value of a trump card by rank when judging a hand (the 9 and 1 take tricks, length counts too).
TRUMP_VALUE = {"9": 4.0, "1": 3.0, "12": 2.0, "11": 1.5, "10": 1.0}
#: Strength (see :func:`trump_strength`) to name a suit; below it the dealer delegates.
CHOOSE_THRESHOLD = 12.0
#: Strength (see :func:`botifarra_strength`) to make botifarra.
BOTIFARRA_THRESHOLD = 11.0
#: Strength a defender needs in the trump suit to double, a chooser to redouble, for Sant Vicenç.
DOUBLE_THRESHOLD = {"double": 20.0, "redouble": 22.0, "sant_vicenc": 26.0}


def _by_suit(hand: list[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {s: [] for s in TABLE.suits}
    for c in hand:
        out[suit_of(c)].append(c)
    return out


def trump_strength(hand: list[str], trump: str) -> float:
    """A rough value of ``hand`` with ``trump`` as trumps: trump honours and length, side manilles."""
    suits = _by_suit(hand)
    value = sum(TRUMP_VALUE.get(rank_of(c), 0.6) for c in suits[trump]) + 1.0 * len(suits[trump])
    for s, cards in suits.items():
        if s == trump:
            continue
        ranks = {rank_of(c) for c in cards}
        if "9" in ranks:
            value += 2.0 + (1.0 if "1" in ranks else 0.0)
        if not cards:
            value += 1.0  # a void lets the trumps work
    return value


def botifarra_strength(hand: list[str]) -> float:
    """A rough value of ``hand`` without trumps: manilles, manilla-ace pairs and long guarded suits."""
    value = 0.0
    for cards in _by_suit(hand).values():
        ranks = {rank_of(c) for c in cards}
        if "9" in ranks:
            value += 3.0 + (2.0 if "1" in ranks else 0.0) + 0.5 * max(0, len(cards) - 3)
        elif "1" in ranks and len(cards) >= 3:
            value += 0.5
        elif not cards or (len(cards) <= 2 and ranks & {"1", "12"}):
            value -= 1.0  # a suit the opponents can run, or an honour they will catch
    return value


def _choose_trump(view: View, actions: list[Action]) -> Action:
    hand = view["hand"] or []
    best_suit = max(TABLE.suits, key=lambda s: trump_strength(hand, s))
    best = trump_strength(hand, best_suit)
    buti = botifarra_strength(hand)
    if buti >= BOTIFARRA_THRESHOLD:
        return {"type": "botifarra"}
    delegate = {"type": "delegate"}
    if best < CHOOSE_THRESHOLD and delegate in actions:
        return delegate
    return {"type": "trump", "suit": best_suit}


def _double(view: View, actions: list[Action]) -> Action:
    word = actions[0]["type"]
    contract = view["contract"]
    assert contract is not None  # doubling follows the trump choice
    hand = view["hand"] or []
    if contract["botifarra"]:
        strength = 2.0 * botifarra_strength(hand)
    else:
        trump = contract["trump"]
        strength = trump_strength(hand, trump)
        if word != "redouble":
            # a defender's trumps sit behind the chooser's: count them twice as much
            strength += sum(TRUMP_VALUE.get(rank_of(c), 0.0) for c in hand if suit_of(c) == trump)
    if strength >= DOUBLE_THRESHOLD[word]:
        return actions[0]
    return {"type": "pass"}


def _choose_card(view: View, actions: list[Action]) -> Action:
    contract = view["contract"]
    assert contract is not None  # the play follows the trump choice
    trump = contract["trump"]
    cards = [a["card"] for a in actions]
    trick = [t["card"] for t in view["trick"]]
    points: Callable[[str], int] = lambda c: TABLE.points(c, trump)  # noqa: E731
    power: Callable[[str, str], int] = lambda c, led: GAME.card_power(c, led, trump)  # noqa: E731

    def cheapest(cs: list[str], led: str) -> str:
        return min(cs, key=lambda c: (points(c), suit_of(c) == trump, power(c, led)))

    if not trick:
        return _lead(view, cards, trump, cheapest)
    led = suit_of(trick[0])
    win = GAME.winning_index(trick, contract)
    partner_winning = win == len(trick) - 2
    last_to_play = len(trick) == 3
    if partner_winning:
        sure = last_to_play or (
            suit_of(trick[win]) == led and power(trick[win], led) == TOP and trump is None
        )
        if sure or power(trick[win], led) >= 100 + TOP - 1:
            # carregar: give the partner points, but keep a manilla that can still win a trick
            give = [c for c in cards if rank_of(c) != "9" or suit_of(c) == led]
            return {
                "type": "play",
                "card": max(give or cards, key=lambda c: (points(c), -power(c, led))),
            }
        return {"type": "play", "card": cheapest(cards, led)}
    winners = [c for c in cards if GAME.winning_index(trick + [c], contract) == len(trick)]
    if winners:
        if last_to_play or any(power(c, led) == TOP or power(c, led) > 100 for c in winners):
            return {"type": "play", "card": min(winners, key=lambda c: (power(c, led), -points(c)))}
        top = max(winners, key=lambda c: power(c, led))
        return {"type": "play", "card": top}
    return {"type": "play", "card": cheapest(cards, led)}


def _lead(
    view: View, cards: list[str], trump: str | None, cheapest: Callable[[list[str], str], str]
) -> Action:
    contract, seat = view["contract"], view["seat"]
    assert contract is not None and seat is not None  # the bot's own view in the play
    ours = contract["chooser_team"] == seat % 2
    trumps = [c for c in cards if suit_of(c) == trump]
    if trumps and ours and len(trumps) >= 3:
        top = max(trumps, key=lambda c: TABLE.plain_power[rank_of(c)])
        if rank_of(top) == "9":
            return {"type": "play", "card": top}
    manilles = [c for c in cards if rank_of(c) == "9" and suit_of(c) != trump]
    if manilles:
        return {"type": "play", "card": manilles[0]}
    suits = _by_suit(cards)
    plain = [s for s in TABLE.suits if s != trump and suits[s]]
    if plain:
        longest = max(plain, key=lambda s: len(suits[s]))
        return {"type": "play", "card": cheapest(suits[longest], longest)}
    return {"type": "play", "card": cheapest(cards, suit_of(cards[0]))}


def decide(view: View, rng: random.Random) -> Action:
    """The heuristic's own decision for ``view``, before any safety net (tests check it is legal).

    Raises:
        ValueError: the seat has nothing to do.
    """
    actions = view["legal_actions"]
    if not actions:
        raise ValueError("this seat has no action to take")
    kind = actions[0]["type"]
    if kind == "trump":
        return _choose_trump(view, actions)
    if kind in ("double", "redouble", "sant_vicenc"):
        return _double(view, actions)
    if kind == "play":
        return _choose_card(view, actions)
    return rng.choice(actions)


def choose(view: View, rng: random.Random) -> Action:
    """The heuristic action for ``view`` (the bot's own seat view); always one of its legal_actions.

    Raises:
        ValueError: the seat has nothing to do.
    """
    choice = decide(view, rng)
    return choice if choice in view["legal_actions"] else rng.choice(view["legal_actions"])
