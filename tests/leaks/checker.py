"""The leak checker: which cards are hidden from whom at each seq, from the engine's own
state, and a search for those cards in anything sent to a viewer.

A card is **hidden from viewer v** (a seat, or None for a spectator) at a seq when it
lies in another seat's hand or in the stock (or in v's own hand while the engine keeps
it face down from v, the Botifarra dealer's partner before the choice), unless it has
been face up on the table earlier in the deal (turned, played, the 2-player bottom
card: anything of the deck that was at some point in no hand and not in the stock) or
belongs to a declaration the engine shows (``shown``). Between deals (phase ``deal``
or ``over``) nothing is hidden. The hands and the stock are read from the engine's
state: this is the one place outside app/rules that does, because it is the referee.

A card is **found** in a text when its code appears as a token (``1c`` in
``/static/cards/es/1c.svg``, ``data-card="1c"``, ``card-1c``, ``"card":"1c"``, not in
``11c``), or its spoken name (``1 of copes``, ``As de copes (1)``, ``Jack of hearts``)
does. JSON is searched value by value, so keys never match.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from app import rules
from app.web import cards as names

VIEWERS_4 = (None, 0, 1, 2, 3)
PREVIOUS_DEAL_KEYS = frozenset({"last_deal", "sheet", "open_hands"})
TOKEN = re.compile(r"[A-Za-z0-9]+")
#: A page's panel of a finished deal's hands (templates/rooms/_open_hands.html).
PREVIOUS_DEAL_HTML = re.compile(
    r'<section\b[^>]*\bdata-previous-deal="(\d+)"[^>]*>.*?</section>', re.S
)


@dataclass(frozen=True)
class Moment:
    """What the engine knows at one seq: the deal in play (0 before the first), the seq
    its ``deal`` action has, the phase, and the cards hidden from each viewer."""

    seq: int
    deal_no: int
    deal_seq: int | None
    phase: str
    hidden: dict[int | None, frozenset[str]] = field(default_factory=dict)


def hidden_sets(state: rules.State, seen: set[str]) -> dict[int | None, frozenset[str]]:
    """Cards hidden from each viewer in ``state``; ``seen`` (updated) holds the cards
    of this deal that have been face up on the table so far."""
    public = rules.observe(state, None)
    players = public["players"]
    if public["phase"] in ("deal", "over") or not state.deck:
        return {v: frozenset() for v in (None, *range(players))}
    hands = [set(h) for h in state.hands]
    stock = set(state.stock)
    in_hand = set().union(*hands)
    seen |= set(state.deck) - in_hand - stock
    shown = {
        c
        for d in public.get("declarations") or []
        if d.get("shown")
        for combo in d.get("combinations") or []
        for c in combo.get("cards") or []
    }
    out: dict[int | None, frozenset[str]] = {}
    for v in (None, *range(players)):
        hidden = set(stock)
        for s in range(players):
            if s != v:
                hidden |= hands[s]
        if v is not None and rules.observe(state, v)["hand"] is None:
            hidden |= hands[v]
        out[v] = frozenset(hidden - seen - shown)
    return out


def timeline(game: str, options: dict | None, dealer: int, actions: list[dict]) -> list[Moment]:
    """``Moment`` for every seq from 0 to ``len(actions)`` (the state after that many actions)."""
    state = rules.new_game(game, options, dealer)
    seen: set[str] = set()
    deal_no, deal_seq = 0, None
    moments = [Moment(0, 0, None, "deal", hidden_sets(state, seen))]
    for i, action in enumerate(actions):
        if action.get("type") == "deal":
            seen, deal_no, deal_seq = set(), deal_no + 1, i
        state = rules.apply(state, action)
        moments.append(
            Moment(
                state.seq,
                deal_no,
                deal_seq,
                rules.observe(state, None)["phase"],
                hidden_sets(state, seen),
            )
        )
    return moments


class Finder:
    """Finds card codes and card names of one game's deck in texts and JSON."""

    def __init__(self, game: str) -> None:
        deck = rules.GAMES[game].deck
        self.codes = frozenset(deck)
        self.names: dict[str, list[tuple[str, re.Pattern[str]]]] = {
            c: [
                (n, re.compile(rf"(?<![A-Za-z0-9]){re.escape(n)}(?![A-Za-z0-9])"))
                for n in {names.card_name(c), names.card_long_name(c)}
            ]
            for c in deck
        }

    def in_text(self, text: str, among: frozenset[str] | None = None) -> set[str]:
        """The cards named in ``text`` (only those of ``among`` when given: faster)."""
        found = set(TOKEN.findall(text)) & self.codes
        for card in self.codes if among is None else among:
            if card not in found and any(n in text and p.search(text) for n, p in self.names[card]):
                found.add(card)
        return found if among is None else found & among

    def in_json(self, data: Any, skip: frozenset[str] = frozenset()) -> Iterator[tuple[str, str]]:
        """``(path, card)`` for every card named in a JSON value (keys in ``skip`` skipped)."""
        stack: list[tuple[str, Any]] = [("", data)]
        while stack:
            path, value = stack.pop()
            if isinstance(value, str):
                for card in self.in_text(value):
                    yield path, card
            elif isinstance(value, dict):
                stack.extend((f"{path}.{k}", v) for k, v in value.items() if k not in skip)
            elif isinstance(value, list):
                stack.extend((f"{path}[{i}]", v) for i, v in enumerate(value))


def leaks_in_view(finder: Finder, view: dict, moment: Moment, viewer: int | None) -> list[str]:
    """Every hidden card the view shows, as "path: card" lines; also checks that the
    previous-deal keys (``last_deal``, ``sheet``, ``open_hands``) speak of finished deals only."""
    hidden = moment.hidden.get(viewer, frozenset())
    found: list[str] = []
    if hidden:
        current = {k: v for k, v in view.items() if k not in PREVIOUS_DEAL_KEYS}
        if finder.in_text(json.dumps(current, ensure_ascii=False), hidden):  # fast path
            found = [f"{path}: {card}" for path, card in finder.in_json(current) if card in hidden]
    if moment.phase not in ("deal", "over"):
        last = view.get("last_deal")
        if last is not None and last.get("deal", 0) >= moment.deal_no:
            found.append(f"last_deal of deal {last.get('deal')} during deal {moment.deal_no}")
        opened = view.get("open_hands")  # spectators_see_hands: one deal late only
        if opened is not None and opened.get("deal", 0) >= moment.deal_no:
            found.append(f"open_hands of deal {opened.get('deal')} during deal {moment.deal_no}")
        for entry in view.get("sheet") or []:
            if entry.get("deal", 0) >= moment.deal_no:
                found.append(
                    f"sheet entry of deal {entry.get('deal')} during deal {moment.deal_no}"
                )
    return found


def leaks_in_text(finder: Finder, text: str, moment: Moment, viewer: int | None) -> list[str]:
    """Every hidden card named in ``text``. A page's panel of a finished deal's hands
    (``data-previous-deal="N"``, room option ``spectators_see_hands``) names cards of
    deal N, not of the deal in play: it is left out of the search, and it is a leak
    itself when N is the deal in play (or a later one)."""
    found: list[str] = []
    if moment.phase not in ("deal", "over"):
        for m in PREVIOUS_DEAL_HTML.finditer(text):
            if int(m.group(1)) >= moment.deal_no:
                found.append(f"the hands of deal {m.group(1)} during deal {moment.deal_no}")
    text = PREVIOUS_DEAL_HTML.sub("", text)
    hidden = moment.hidden.get(viewer, frozenset())
    return found + (sorted(finder.in_text(text, hidden)) if hidden else [])


def union(sets: Iterable[frozenset[str]]) -> frozenset[str]:
    """The union of several hidden sets."""
    out: set[str] = set()
    for s in sets:
        out |= s
    return frozenset(out)
