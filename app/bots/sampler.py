"""What a seat knows about the cards it cannot see, and deals drawn at random within it.

Used by the ``strong`` bot (:mod:`app.bots.strong`). Everything comes from
the seat's own view (``observe(state, seat)``) and, for Botifarra, whose
finished tricks lie face down, from what the same seat saw earlier in the deal
(:mod:`app.bots.memory`). The knowledge, per hidden *place* (another seat, or
``"stock"`` for the cards never dealt: Belote for two, Belote for three with 32 cards):

* ``count``: how many cards the place holds now;
* ``known``: cards it surely holds: the turned card taken by the taker
  (rules/bolot.md §3, rules/belote.md §3), the 7 of trumps or the *retourne*
  after the two-player exchange, declared cards once shown, the other card of
  an announced belote/bolot;
* ``forbidden``: cards it surely does not hold: every card that would have
  made one of its past plays illegal. The obligations of every game
  (rules/*.md §6) are of the form "if you hold a card such that ..., you must
  ...", so a card ``x`` is excluded when ``[played card, x]`` alone would
  already have forbidden the played card on that trick: voids, failures to
  trump or to over-trump, and Botifarra's eastern "lowest card" rule alike.

The auction is not a constraint here: a drawn deal the other seats' calls make
unlikely is weighed down afterwards (:mod:`app.bots.auction_model`), never
excluded, so the true deal always stays possible.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from app.rules import GAMES
from app.rules.cards import suit_of
from app.rules.types import View

STOCK = "stock"
#: A hidden place: another seat, or STOCK.
Place = int | str


@dataclass
class Knowledge:
    """What ``seat`` knows: ``places`` (other seats, then maybe ``"stock"``), per place its
    ``count``, ``known`` and ``forbidden`` cards, and ``pool``: the unknown cards to share
    out (every card not seen, not known to be somewhere)."""

    seat: int
    places: list[Place] = field(default_factory=list)
    count: dict[Place, int] = field(default_factory=dict)
    known: dict[Place, set[str]] = field(default_factory=dict)
    forbidden: dict[Place, set[str]] = field(default_factory=dict)
    pool: list[str] = field(default_factory=list)


def _strip(combo: dict[str, Any]) -> dict[str, Any]:
    """A declared combination as the engine keeps it (the view adds cards, points, valid)."""
    return {k: v for k, v in combo.items() if k in ("kind", "length", "top", "suit", "rank")}


def knowledge(view: View, tricks: list[dict[str, Any] | None]) -> Knowledge:
    """What the viewer of ``view`` (play phase) knows of the hidden cards.

    ``tricks``: the deal's finished tricks in engine form (``{"leader", "cards": [(seat,
    card)], "winner"}``); ``None`` for a trick the seat did not see (its cards are then
    simply not known, and stay in the pool).
    """
    g = GAMES[view["game"]]
    seat, contract, options = view["seat"], view["contract"], view["options"]
    trump = g.trump(contract)
    mine = set(view["hand"] or [])
    seen = set(mine)
    for t in tricks:
        if t is not None:
            seen.update(c for _, c in t["cards"])
    current = [(t["seat"], t["card"]) for t in view["trick"]]
    seen.update(c for _, c in current)
    out_of_hands: set[str] = set()
    assert seat is not None  # a bot's own view
    know = Knowledge(seat=seat)
    others = [s for s in range(g.players) if s != seat]
    for s in others:
        know.known[s], know.forbidden[s] = set(), set()
        know.count[s] = view["hand_counts"][s]
    # the turned card and its exchange (rules/belote.md §3; Bolot §3; rules/belote-3p.md §3)
    turned = contract.get("turned") if isinstance(contract, dict) else None
    if g.turned_to_taker(options):
        if turned and contract and contract.get("taker") in know.known:
            know.known[contract["taker"]].add(turned)
    else:  # the turned card stays on the table (and the bottom card of Belote for two)
        for c in (view.get("turned"), view.get("bottom_card")):
            if c:
                out_of_hands.add(c)
        ex = view.get("exchange")
        seven = "7" + trump if trump else None
        if ex and ex["seat"] in know.known:
            swapped = turned if ex["swap"] else seven
            assert swapped is not None  # an exchange is offered only on a turned card's trump
            know.known[ex["seat"]].add(swapped)
        elif (
            ex is None
            and options.get("seven_of_trump_exchange")
            and seven
            and turned
            and suit_of(turned) == trump
        ):
            for other in others:  # nobody held it when the exchange was due
                know.forbidden[other].add(seven)
    # shown declarations and announced belotes
    for entry in view.get("declarations") or []:
        if entry["seat"] != seat and entry.get("shown"):
            for combo in entry["combinations"]:
                know.known[entry["seat"]].update(combo.get("cards") or [])
    for b in view.get("belote") or []:
        if b["seat"] != seat and not b["rebelote"]:
            other_card = g.belote_partner(contract, b["card"])
            if other_card:
                know.known[b["seat"]].add(other_card)
    for s in others:
        know.known[s] -= seen
    known_anywhere = set().union(*know.known.values()) if others else set()
    know.pool = [
        c
        for c in g.deck_for(options)
        if c not in seen and c not in known_anywhere and c not in out_of_hands
    ]
    # forbidden cards: each past play by another seat, judged card by card
    plays = []
    for t in [*(t for t in tricks if t is not None), {"cards": current}]:
        cards = t["cards"]
        for i, (s, c) in enumerate(cards):
            if s != seat:
                plays.append((s, c, [x for _, x in cards[:i]]))
    unknown = know.pool
    for s, c, before in plays:
        if not before:
            continue
        bad = know.forbidden[s]
        for x in unknown:
            if x not in bad and c not in g.legal_play(options, contract, [c, x], before)[0]:
                bad.add(x)
    hidden_total = sum(know.count[s] - len(know.known[s]) for s in others)
    know.places = list(others)
    stock = len(unknown) - hidden_total
    if stock > 0:
        know.places.append(STOCK)
        know.count[STOCK], know.known[STOCK], know.forbidden[STOCK] = stock, set(), set()
    return know


def sample(know: Knowledge, rng: random.Random, tries: int = 30) -> dict[Place, list[str]]:
    """One deal of the hidden cards within ``know``: place -> list of cards.

    Cards go one at a time, the most constrained first, each to an allowed place with a
    chance proportional to the room left there. After ``tries`` dead ends the last
    constraint that cannot be kept is dropped (the counts always are).
    """
    for _ in range(tries):
        got = _try_sample(know, rng, strict=True)
        if got is not None:
            return got
    return _try_sample(know, rng, strict=False)  # type: ignore[return-value]


def _try_sample(know: Knowledge, rng: random.Random, strict: bool) -> dict[Place, list[str]] | None:
    places = know.places
    room = {p: know.count[p] - len(know.known[p]) for p in places}
    out = {p: list(know.known[p]) for p in places}
    cards = list(know.pool)
    rng.shuffle(cards)
    allowed = {c: [p for p in places if c not in know.forbidden[p]] for c in cards}
    cards.sort(key=lambda c: len(allowed[c]))
    for c in cards:
        options = [p for p in allowed[c] if room[p] > 0]
        if not options:
            if strict:
                return None
            options = [p for p in places if room[p] > 0]
            if not options:
                break
        total = sum(room[p] for p in options)
        r = rng.random() * total
        for p in options:
            r -= room[p]
            if r < 0:
                break
        out[p].append(c)
        room[p] -= 1
    return out


def consistent(know: Knowledge, hands: dict[Place, list[str]]) -> bool:
    """True when ``hands`` (place -> cards) keeps every count, known and forbidden card of ``know``."""
    for p in know.places:
        cards = set(hands.get(p, []))
        if len(cards) != know.count[p] or not know.known[p] <= cards or cards & know.forbidden[p]:
            return False
    return True
