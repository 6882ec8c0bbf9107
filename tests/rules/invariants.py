"""The invariants every game's property test checks on its random legal playouts
(tests/rules/test_*_properties.py), written once.

* **Card conservation**: every card of the game's deck is, exactly once, in a hand,
  in the stock (the undealt cards), in a finished trick of the deal, in the trick in
  play, or face up on the table (the turned card; the bottom card of Belote for two,
  ``extra["bottom"]``).
* **No leak**: ``observe(state, viewer)`` (a seat, or None for a spectator) never names,
  as a JSON string, a card hidden from the viewer: a card of the stock or of another
  seat's hand, less the cards of that hand everyone may know (``public``, a game's own
  rule: see ``shown_cards_of``). The finished deals' record (``last_deal``, ``sheet``)
  is public and left out.

Both are for positions during a deal (phases ``IN_DEAL``: between deals the engine
keeps no cards where these look); a test checks only those.

Both raise AssertionError naming the viewer and the card, or the cards counted.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from app.rules import GAMES, State, observe
from app.rules.declarations import combination_cards

#: The phases in which cards are held: a deal is in progress.
IN_DEAL = ("auction", "play")


def cards_in_play(state: State) -> list[str]:
    """Every card of the deal in progress, wherever it lies (with repeats, if any)."""
    cards = [c for h in state.hands for c in h] + list(state.stock)
    cards += [c for t in state.tricks for _, c in t["cards"]] + [c for _, c in state.trick]
    if state.turned:
        cards.append(state.turned)
    if state.extra.get("bottom"):
        cards.append(state.extra["bottom"])
    return cards


def assert_cards_conserved(state: State) -> None:
    """Every card of ``state.game``'s deck is in play exactly once (see the module).
    For a position during a deal (``IN_DEAL``)."""
    deck = GAMES[state.game].deck_for(state.options)  # the options' deck (belote-3p: 24 or 32)
    assert sorted(cards_in_play(state)) == sorted(deck), "cards not conserved"


def shown_cards_of(state: State, seat: int) -> set[str]:
    """The cards of ``seat``'s hand everyone may know in Bolot and Belote (rules/bolot.md,
    belote.md, belote-3p.md): the declarations shown once the first trick is over, the
    turned card the taker took (4 players; 3 with 24 cards), the turned card the holder of
    the 7 of trumps exchanged for (2 players; 3 with 32 cards)."""
    table = GAMES[state.game].table
    known: set[str] = set()
    if state.tricks and state.declared and state.declared[seat]:
        for combo in state.declared[seat]:
            known.update(combination_cards(combo, table))
    if state.contract and state.contract["taker"] == seat and state.players != 2:
        known.add(state.contract["turned"])
    exchange = state.extra.get("exchange")
    if exchange and exchange["swap"] and exchange["seat"] == seat:
        known.add(state.contract["turned"])
    return known


def hidden_from(
    state: State, viewer: int | None, public: Callable[[State, int], set[str]] | None = None
) -> set[str]:
    """The cards ``viewer`` may not know: the stock and the other seats' hands, less
    what ``public(state, seat)`` says everyone knows of each hand (nothing when None)."""
    hidden = set(state.stock)
    for other in range(state.players):
        if other != viewer:
            hidden |= set(state.hands[other]) - (public(state, other) if public else set())
    return hidden


def assert_no_leak(state: State, public: Callable[[State, int], set[str]] | None = None) -> None:
    """No viewer's ``observe`` names a card hidden from it (see the module). For a
    position during a deal (``IN_DEAL``)."""
    for viewer in [None, *range(state.players)]:
        view = observe(state, viewer)
        view.pop("last_deal")  # a finished deal's record is public
        view.pop("sheet")
        text = json.dumps(view)
        for card in hidden_from(state, viewer, public):
            assert f'"{card}"' not in text, (viewer, card)
