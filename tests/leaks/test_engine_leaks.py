"""The leak proof, engine side: 200 deals of every game, played by bots, and at every
seq the view of every seat and of a spectator searched for the cards the engine's state
says that viewer may not see (tests/leaks/checker.py).

This is where the volume is: ``observe`` is the only way anything outside the engine
sees a state (DESIGN.md), so a leak in any page or socket would have to come through
it or through the server's own additions, which tests/leaks/test_server_leaks.py
checks on fewer deals through the real server.
"""

from __future__ import annotations

import random

import pytest

from app import bots, rules
from app.web import cards
from tests.leaks.checker import Finder, Moment, hidden_sets, leaks_in_text, leaks_in_view

DEALS_PER_GAME = 200
#: Matches are long enough to span many deals; a match that ends starts a new one.
OPTIONS = {
    "bolot": {"target": 3000},
    "belote": {"target": 3000},
    "belote-2p": {"target": 3000},
    "belote-3p": {"target": 3000},
    "bridge-belote": {"target": 401},
    "botifarra": {"target": 151},
    "contree": {"target": 3000},
}


def _bot(game: str, seat: int) -> str:
    return "heuristic" if seat % 2 == 0 else "random"


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(rules.GAMES))
def test_no_view_shows_a_hidden_card_over_200_deals(game: str) -> None:
    rng = random.Random(f"tapet-leaks-{game}")
    finder = Finder(game)
    deals = checked = 0
    state = rules.new_game(game, OPTIONS[game], 0)
    players = rules.observe(state, None)["players"]
    seen: set[str] = set()
    deal_seq = None
    hidden_ever = 0
    while deals < DEALS_PER_GAME:
        if rules.is_over(state):
            state = rules.new_game(game, OPTIONS[game], rng.randrange(players))
        if rules.needs_deal(state):
            deal_seq = state.seq
            state = rules.apply(state, {"type": "deal", "deck": rules.new_deck(game, rng)})
            seen = set()
            deals += 1
        else:
            seat = rules.to_act(state)
            action = bots.choose(_bot(game, seat), rules.observe(state, seat), rng)
            state = rules.apply(state, action)
        public = rules.observe(state, None)
        moment = Moment(
            state.seq, state.deal_no, deal_seq, public["phase"], hidden_sets(state, seen)
        )
        hidden_ever += len(moment.hidden[None])
        for viewer in (None, *range(players)):
            view = public if viewer is None else rules.observe(state, viewer)
            leaks = leaks_in_view(finder, view, moment, viewer)
            assert not leaks, (
                f"{game} deal {state.deal_no} seq {state.seq} viewer {viewer}: {leaks}"
            )
            checked += 1
    assert hidden_ever > 0 and checked > 1000  # the checker had something to look for


def test_the_checker_finds_a_planted_card() -> None:
    """The checker has teeth: another seat's card put into a view, a page or a message is found."""
    rng = random.Random("tapet-planted")
    state = rules.new_game("bolot", None, 0)
    state = rules.apply(state, {"type": "deal", "deck": rules.new_deck("bolot", rng)})
    moment = Moment(state.seq, 1, 0, "auction", hidden_sets(state, set()))
    finder = Finder("bolot")
    view = rules.observe(state, 0)
    assert leaks_in_view(finder, view, moment, 0) == []
    other = rules.observe(state, 1)["hand"][0]
    assert other in moment.hidden[0] and other in moment.hidden[None]
    planted = dict(view, extra={"note": f"nice {other}"})
    assert leaks_in_view(finder, planted, moment, 0)
    page = f'<img src="/static/cards/es/{other}.svg" alt="">'
    assert leaks_in_text(finder, page, moment, 0) == [other]
    spoken = cards.card_long_name(other)
    assert leaks_in_text(finder, f"<p>you must play the {spoken}</p>", moment, None) == [other]
    assert leaks_in_text(finder, f"x{other}y", moment, None) == []
