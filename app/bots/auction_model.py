"""How well a drawn deal agrees with the auction: the heuristic's calls, replayed.

The sampler (:mod:`app.bots.sampler`) draws the hidden hands within what the play
proves (voids, cards held); it ignores the auction. A seat that passed twice
seldom holds the hand the heuristic would have taken with. This module weighs a
drawn deal by the auction, for any game, with the engine alone:

1. **Where the cards go** (once per decision, :func:`model`): deal a placeholder
   deck (the game's own card list) with the view's dealer and replay the public
   auction (``view["auction"]``, each entry matched to a legal action); the
   position each card of that deck ends in tells which deck places make each
   seat's hand at the auction and which its hand when the play began. Dealing
   does not depend on which card sits where, so these places hold for every deal.
2. **Each drawn deal** (:meth:`AuctionModel.weight`): put each seat's drawn
   hand from the start of play (cards played + cards held) on that seat's
   places, the turned card on its own, the rest anywhere left; deal that deck,
   replay the auction and ask the heuristic bot, from each other seat's own
   ``observe``, for the call that seat made. Each call it would not have made
   multiplies the weight by ``MISMATCH``.

Which of a seat's cards it held during the auction (Bolot: 5 of its 8) is not
known; they are chosen at random among its places, so the weight is an
estimate. Anything that does not fit (an exchange after the auction, a
made-up trick) gives weight 1: no information, never a wrong one. The weight
reads only the drawn cards and the public auction: the decision still depends
on the seat's view alone.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from app.rules import GAMES, apply, legal_actions, new_game, observe, to_act
from app.rules.types import Action, View

#: Weight factor of each call the heuristic would not have made with the drawn hand.
MISMATCH = 0.3
#: Auction entries' bookkeeping fields, not part of the action.
_NOT_ACTION = ("seat",)


@dataclass
class AuctionModel:
    """The deck places of one deal as seen from ``seat``: ``places[s]`` the places of seat
    ``s``'s hand when the play began, ``turned`` the place of the turned card (or None),
    ``calls`` the public auction entries, ``heuristic`` the bot whose calls are checked."""

    game: str
    options: dict[str, Any]
    dealer: int
    seat: int
    deck_size: int
    places: list[list[int]]
    turned: int | None
    turned_card: str | None
    calls: list[dict[str, Any]]
    heuristic: object
    checked: int = 0
    others: list[int] = field(default_factory=list)

    def weight(self, initial: list[list[str]], rng: random.Random) -> float:
        """The weight of a drawn deal: ``initial[s]`` each seat's cards when the play began
        (played + held). 1.0 when the deal agrees with every call of the other seats, or
        when it cannot be checked; ``MISMATCH`` per call the heuristic would not make."""
        try:
            deck = self.deck_for(initial, rng)
            if deck is None:
                return 1.0
            return self._replay(deck, initial, rng)
        except Exception:  # noqa: BLE001 - a check that fails tells nothing
            return 1.0

    def deck_for(self, initial: list[list[str]], rng: random.Random) -> list[str] | None:
        """A deck (top card first) that, dealt with this dealer and this auction, gives each
        seat ``initial[s]`` when the play begins: each seat's cards at random on its places,
        the turned card on its own, the other cards anywhere left. None when the counts
        do not fit the places."""
        deck: list[str | None] = [None] * self.deck_size
        used: set[str] = set()
        for s, places in enumerate(self.places):
            cards = list(initial[s])
            if len(cards) != len(places):
                return None
            spots = list(places)
            if self.turned is not None and self.turned in spots and self.turned_card in cards:
                deck[self.turned] = self.turned_card
                spots.remove(self.turned)
                cards.remove(self.turned_card)
            rng.shuffle(cards)
            for place, card in zip(spots, cards, strict=True):
                deck[place] = card
            used.update(initial[s])
        rest = [c for c in GAMES[self.game].deck_for(self.options) if c not in used]
        if self.turned is not None and deck[self.turned] is None and self.turned_card in rest:
            deck[self.turned] = self.turned_card
            rest.remove(self.turned_card)
        rng.shuffle(rest)
        for i, slot in enumerate(deck):
            if slot is None:
                if not rest:
                    return None
                deck[i] = rest.pop()
        return deck  # type: ignore[return-value]

    def _replay(self, deck: list[str], initial: list[list[str]], rng: random.Random) -> float:
        state = apply(
            new_game(self.game, self.options, self.dealer), {"type": "deal", "deck": deck}
        )
        w = 1.0
        for entry in self.calls:
            seat = to_act(state)
            if seat != entry["seat"]:
                return 1.0
            legal = legal_actions(state)
            action = _matching(legal, entry)
            if action is None:
                return 1.0
            if seat != self.seat:
                view = observe(state, seat)
                guess = self.heuristic(view, rng)  # type: ignore[operator]
                if guess != action:
                    w *= MISMATCH
            state = apply(state, action)
        if state.phase != "play" or [sorted(h) for h in state.initial_hands] != [
            sorted(h) for h in initial
        ]:
            return 1.0  # the drawn deal is not the one this deck gives: no information
        return w


def _matching(legal: list[Action], entry: dict[str, Any]) -> Action | None:
    """The legal action an auction entry records (its fields, bookkeeping aside)."""
    for a in legal:
        if all(entry.get(k) == v for k, v in a.items() if k not in _NOT_ACTION):
            return a
    return None


def model(view: View, heuristic: object) -> AuctionModel | None:
    """The deck places of ``view``'s deal (a play-phase view of any game), or None when
    the auction cannot be replayed (then no sample is weighed)."""
    try:
        g = GAMES[view["game"]]
        calls = [dict(e) for e in view.get("auction") or []]
        if not calls:
            return None
        placeholder = list(g.deck_for(view["options"]))
        state = new_game(view["game"], view["options"], view["dealer"])
        state = apply(state, {"type": "deal", "deck": placeholder})
        turned = observe(state, None).get("turned")
        for entry in calls:
            action = _matching(legal_actions(state), entry)
            if action is None or to_act(state) != entry["seat"]:
                return None
            state = apply(state, action)
        if state.phase != "play":
            return None
        index = {c: i for i, c in enumerate(placeholder)}
        places = [[index[c] for c in hand] for hand in state.initial_hands]
        contract = view.get("contract") or {}
        real_turned = contract.get("turned") if isinstance(contract, dict) else None
        real_turned = real_turned or view.get("turned")
        assert view["seat"] is not None  # a bot's own view
        return AuctionModel(
            game=view["game"],
            options=view["options"],
            dealer=view["dealer"],
            seat=view["seat"],
            deck_size=len(placeholder),
            places=places,
            turned=index.get(turned) if turned else None,
            turned_card=real_turned,
            calls=calls,
            heuristic=heuristic,
            others=[e["seat"] for e in calls if e["seat"] != view["seat"]],
        )
    except Exception:  # noqa: BLE001 - a game whose auction does not replay so: no weights
        return None
