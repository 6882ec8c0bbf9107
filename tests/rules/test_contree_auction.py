"""The deal, auction and match of Belote contrée (rules/contree.md §3, §4, §6, §9):
the §3 deal example and the auction examples A1-A4, worked out from the rules file."""

from __future__ import annotations

import pytest

from app.rules import GAMES, IllegalAction, apply, legal_actions, new_game, observe, to_act
from app.rules.state import State

GAME = "contree"
DECK = list(GAMES[GAME].deck)


def dealt(options: dict | None = None, dealer: int = 0) -> State:
    return apply(new_game(GAME, options or {}, dealer), {"type": "deal", "deck": DECK})


def calls(state: State, *actions: dict) -> State:
    for a in actions:
        state = apply(state, a)
    return state


def kinds(state: State) -> set:
    """The calls open to the seat to act, bids by value only."""
    return {a.get("value", a["type"]) for a in legal_actions(state)}


PASS = {"type": "pass"}
COINCHE = {"type": "coinche"}
SURCOINCHE = {"type": "surcoinche"}


def bid(value, suit="S") -> dict:
    return {"type": "bid", "value": value, "suit": suit}


def test_the_deal_3_2_3_from_the_eldest_hand() -> None:
    # §3 example: dealer 0. Seat 1 holds cards 0-2, 12-13, 20-22; the dealer 9-11, 18-19, 29-31.
    state = dealt()
    assert sorted(state.hands[1]) == sorted(DECK[0:3] + DECK[12:14] + DECK[20:23])
    assert sorted(state.hands[0]) == sorted(DECK[9:12] + DECK[18:20] + DECK[29:32])
    assert all(len(h) == 8 for h in state.hands) and state.stock == []
    assert to_act(state) == 1 and state.phase == "auction"


def test_opening_calls_are_pass_and_every_bid_in_each_suit() -> None:
    # §4: 80 ... 160 by tens (9 values) and capot, each in 4 suits, and pass.
    actions = legal_actions(dealt())
    assert len(actions) == 1 + 10 * 4
    assert {"type": "coinche"} not in actions


def test_a1_the_dealer_may_outbid_or_coinche_and_a_pass_ends_it() -> None:
    state = calls(dealt(), bid(80), PASS, PASS)
    assert to_act(state) == 0
    assert kinds(state) == {"pass", "coinche", "capot", *range(90, 161, 10)}
    state = apply(state, PASS)
    assert state.phase == "play"
    assert state.contract == {"trump": "S", "bid": 80, "bidder": 1, "taker_team": 1, "coinche": 0}
    assert to_act(state) == 1  # the eldest hand leads trick 1 (§6)


def test_a2_after_a_coinche_the_doubled_team_may_surcoinche_the_coincher_s_partner_only_pass() -> (
    None
):
    state = calls(dealt(), bid(80), COINCHE)
    assert to_act(state) == 3 and kinds(state) == {"pass", "surcoinche"}
    state = apply(state, PASS)
    assert to_act(state) == 0 and kinds(state) == {"pass"}
    state = apply(state, PASS)
    assert to_act(state) == 1 and kinds(state) == {"pass", "surcoinche"}
    state = apply(state, PASS)
    assert state.phase == "play" and state.contract["coinche"] == 1


def test_a_surcoinche_ends_the_auction_at_once() -> None:
    state = calls(dealt(), bid(80), COINCHE, SURCOINCHE)
    assert state.phase == "play" and state.contract["coinche"] == 2


def test_a_frozen_auction_refuses_a_bid() -> None:
    state = calls(dealt(), bid(80), COINCHE)
    with pytest.raises(IllegalAction) as refused:
        apply(state, bid(100))
    assert refused.value.code == "bid_after_coinche"


def test_without_coinche_freezes_a_new_bid_cancels_the_coinche() -> None:
    state = calls(dealt({"coinche_freezes": False}), bid(80), COINCHE, bid(90, "H"))
    assert state.extra["coinche"] == 0 and state.extra["bid"] == 90
    assert "coinche" in kinds(state)  # seat 0 is an opponent of seat 3's 90


def test_a3_over_a_capot_only_pass_or_coinche_and_the_generale_with_the_option() -> None:
    state = calls(dealt(), bid("capot", "H"))
    assert kinds(state) == {"pass", "coinche"}
    assert kinds(apply(state, PASS)) == {"pass"}  # seat 3, the partner
    state = calls(dealt({"generale": True}), bid("capot", "H"))
    assert kinds(state) == {"pass", "coinche", "generale"}
    assert kinds(calls(dealt({"coinche_capot": False}), bid("capot", "H"))) == {"pass"}


def test_a4_a_player_who_passed_may_coinche_later() -> None:
    state = calls(dealt(), bid(80), PASS, bid(90), PASS, PASS)
    assert to_act(state) == 2 and "coinche" in kinds(state)


def test_a_bid_must_be_higher_and_well_formed() -> None:
    state = calls(dealt(), bid(100))
    for wrong, code in [
        (bid(100, "H"), "contree_bid_higher"),
        (bid(85), "contree_bid_value"),
        (bid(170), "contree_bid_value"),
        (bid(110, "X"), "unknown_trump"),
        ({"type": "surcoinche"}, "surcoinche_own_side"),
        ({"type": "double"}, "contree_calls"),
    ]:
        with pytest.raises(IllegalAction) as refused:
            apply(state, wrong)
        assert refused.value.code == code
    with pytest.raises(IllegalAction) as refused:
        apply(apply(state, PASS), COINCHE)  # seat 3 is the bidder's partner
    assert refused.value.code == "coinche_other_side"


def test_four_passes_void_the_deal_and_the_next_seat_deals() -> None:
    state = calls(dealt(), PASS, PASS, PASS, PASS)
    assert state.phase == "deal" and state.dealer == 1
    assert state.sheet[-1]["void"] and state.scores == [0, 0]


def test_the_bidder_leads_after_a_generale() -> None:
    state = calls(dealt({"generale": True}), PASS, bid("generale", "H"), PASS, PASS, PASS)
    assert state.phase == "play" and to_act(state) == 2


def test_the_view_shows_the_standing_call_and_no_other_hand() -> None:
    state = calls(dealt(), bid(80), COINCHE)
    view = observe(state, 3)
    assert view["bidding"] == {
        "bid": 80,
        "suit": "S",
        "bidder": 1,
        "coinche": 1,
        "coinched_by": 2,
        "surcoinched_by": None,
    }
    assert all(c not in str(view) for c in state.hands[0])


def test_declarations_are_asked_only_with_the_option() -> None:
    state = calls(dealt(), bid(80), PASS, PASS, PASS)
    assert all(a["type"] == "play" for a in legal_actions(state))
    state = calls(dealt({"preset": "coinche"}), bid(80), PASS, PASS, PASS)
    assert all(a["type"] == "declare" for a in legal_actions(state))


@pytest.mark.parametrize(
    ("win_rule", "scores", "winner"),
    [
        ("reach", [2000, 1500], 0),  # §9: reaching the target wins
        ("exceed", [2000, 1500], None),  # exceed: 2000 is not past 2000
        ("exceed", [2010, 1500], 0),
        ("reach", [2100, 2200], 1),  # both there: the higher wins
        ("reach", [2100, 2100], None),  # equal: another deal
    ],
)
def test_the_match_end(win_rule: str, scores: list[int], winner: int | None) -> None:
    g = GAMES[GAME]
    state = new_game(GAME, {"win_rule": win_rule}, 0)
    state.scores = scores
    assert g.match_winner(state) == winner


def test_presets_set_every_option_and_given_options_override_them() -> None:
    g = GAMES[GAME]
    coinche = g.validate_options({"preset": "coinche"})
    assert (coinche["max_bid"], coinche["declarations"], coinche["belote_rule"]) == (
        650,
        True,
        "holder",
    )
    colver = g.validate_options({"preset": "colver", "surcoinche_multiplier": 4})
    assert colver["surcoinche_multiplier"] == 4 and colver["multiplier_on"] == "contract"
    assert g.validate_options({})["preset"] == "ffb"
    with pytest.raises(IllegalAction):
        g.validate_options({"preset": "belote"})
    for wrong in ([], {}, 3, None):  # not a preset's name: refused, not a TypeError (a 500)
        with pytest.raises(IllegalAction):
            g.validate_options({"preset": wrong})
