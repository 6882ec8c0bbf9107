"""Properties of random legal Botifarra games from seeded decks (hypothesis).

Over whole games with random legal actions: the 48 cards are conserved, each
hand holds 72 points, a player to act always has a legal action until the
game ends, every card ``legal_actions`` leaves out is refused by ``apply``,
``observe`` never shows a card of another seat's hidden hand (the conservation
and no-leak checks are tests/rules/invariants.py's), and the
dealer's partner never sees his own hand before the dealer has chosen or
delegated (rules/botifarra.md §2-4, §6-7).
"""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules import (
    IllegalAction,
    apply,
    is_over,
    legal_actions,
    needs_deal,
    new_deck,
    new_game,
    observe,
    replay,
)
from tests.rules.invariants import IN_DEAL, assert_cards_conserved, assert_no_leak

OPTIONS = st.fixed_dictionaries(
    {
        "target": st.just(51),
        "variant": st.sampled_from(["western", "eastern"]),
        "eastern_extended_exception": st.booleans(),
        "sant_vicenc_on_botifarra": st.booleans(),
        "doubling_scale": st.sampled_from(["2-4-8", "2-3-4"]),
        "max_hands": st.sampled_from([None, 3]),
    }
)


def check_conservation(s):
    if s.phase not in IN_DEAL:
        return
    assert_cards_conserved(s)  # the 48 cards, each once (tests/rules/invariants.py)
    # the pairs' piles hold exactly the finished tricks' cards
    assert sorted(c for w in s.won for c in w) == sorted(c for t in s.tricks for _, c in t["cards"])
    assert sum(s.tricks_won) == len(s.tricks)


def check_views(s):
    if s.phase in IN_DEAL:
        assert_no_leak(s)  # no other seat's card (invariants.py); previous deals are public
    for seat in (None, 0, 1, 2, 3):
        v = observe(s, seat)
        if seat is None:
            assert v["hand"] is None
            continue
        hidden = (
            s.phase == "auction"
            and seat == (s.dealer + 2) % 4
            and not any(a["type"] in ("delegate", "trump", "botifarra") for a in s.auction)
        )
        assert v["hand_hidden"] is hidden
        if hidden:
            assert v["hand"] is None
            assert not any(f'"{c}"' in json.dumps(v["legal_actions"]) for c in s.hands[seat])
        elif s.phase in ("auction", "play"):
            assert sorted(v["hand"]) == sorted(s.hands[seat])
        if seat != s.to_act:
            assert v["legal_actions"] == []


def check_refusals(s, actions):
    """Every card in hand that is not offered is refused, with a reason."""
    if s.phase != "play":
        return
    offered = {a["card"] for a in actions}
    for c in s.hands[s.to_act]:
        if c not in offered:
            try:
                apply(s, {"type": "play", "card": c})
            except IllegalAction as exc:
                assert ": you hold the " in str(exc)
            else:
                raise AssertionError(f"{c} was accepted but not offered")


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), options=OPTIONS, dealer=st.integers(0, 3))
def test_random_legal_games_keep_the_invariants(seed, options, dealer):
    rng = random.Random(seed)
    s = new_game("botifarra", options, dealer=dealer)
    log = []
    while not is_over(s):
        if needs_deal(s):
            assert legal_actions(s) == []
            action = {"type": "deal", "deck": new_deck("botifarra", rng)}
        else:
            actions = legal_actions(s)
            assert actions, "a player to act must have a legal action"
            check_refusals(s, actions)
            action = rng.choice(actions)
        if rng.random() < 0.15:
            check_views(s)
        s = apply(s, action)
        log.append(action)
        check_conservation(s)
    assert legal_actions(s) == []
    for entry in s.sheet:
        assert sum(entry["detail"]["totals"]) == 72
        assert sum(entry["summary"]["card_points"]) == 60 and sum(entry["summary"]["tricks"]) == 12
        assert 0 in entry["points"]  # only one pair scores in a hand
    assert [sum(e["points"][t] for e in s.sheet) for t in (0, 1)] == s.scores
    if options["max_hands"] is None:
        assert s.winner is not None and max(s.scores) >= 51
    else:
        assert len(s.sheet) <= 3
    assert replay("botifarra", options, dealer, log).scores == s.scores


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 3))
def test_dealers_partner_sees_his_hand_only_after_the_choice(seed, dealer):
    rng = random.Random(seed)
    s = apply(
        new_game("botifarra", {}, dealer=dealer),
        {"type": "deal", "deck": new_deck("botifarra", rng)},
    )
    partner = (dealer + 2) % 4
    v = observe(s, partner)
    assert v["hand"] is None and v["hand_hidden"] is True and v["hand_counts"][partner] == 12
    text = json.dumps(v)
    assert not any(f'"{c}"' in text for c in s.hands[partner])
    s = apply(s, rng.choice(legal_actions(s)))
    assert sorted(observe(s, partner)["hand"]) == sorted(s.hands[partner])
