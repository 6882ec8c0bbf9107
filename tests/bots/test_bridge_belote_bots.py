"""The Bridge-Belote heuristic bot: always legal, sensible calls, beats the random bot,
and plays whole matches through the engine."""

import random

from app.bots import choose
from app.bots.bridge_belote import contract_values
from app.rules import apply, is_over, legal_actions, needs_deal, new_deck, new_game, observe, to_act

GAME = "bridge-belote"
OPTION_NAMES = (
    "burgas_contra_lock",
    "recontra_closes_auction",
    "carre_kills_quint",
    "eight_card_run_120",
    "capot_multiplied_by_contra",
    "no_exit_on_capot",
)


def play_match(levels, seed, options=None, max_deals=None):
    rng = random.Random(seed)
    state = new_game(GAME, options or {}, dealer=rng.randrange(4))
    while not is_over(state):
        if needs_deal(state):
            if max_deals is not None and state.deal_no >= max_deals:
                break
            state = apply(state, {"type": "deal", "deck": new_deck(GAME, rng)})
            continue
        seat = to_act(state)
        action = choose(levels[seat % 2], observe(state, seat), rng)
        assert action in legal_actions(state), action
        state = apply(state, action)
    return state


def test_heuristic_is_always_legal_over_many_random_deals_and_options():
    for seed in range(40):
        rng = random.Random(seed)
        options = {name: rng.random() < 0.5 for name in OPTION_NAMES}
        levels = ["heuristic", "random"] if seed % 2 else ["heuristic", "heuristic"]
        play_match(levels, seed, options, max_deals=3)


def test_heuristic_beats_random_most_of_the_time():
    # 20 matches to 151, seats swapped every other match; measured 40/40 over 40 matches
    # (about 6800 game points to 1700).
    wins = 0
    for seed in range(20):
        levels = ["heuristic", "random"] if seed % 2 == 0 else ["random", "heuristic"]
        wins += play_match(levels, 5000 + seed).winner == seed % 2
    assert wins >= 15


def test_whole_match_of_four_heuristic_bots():
    state = play_match(["heuristic", "heuristic"], 7)
    assert is_over(state) and state.winner in (0, 1)
    assert max(state.scores) >= 151
    assert [sum(e["points"][i] for e in state.sheet) for i in (0, 1)] == state.scores


def view_in_auction(hand, bidding=None, seat=0, actions=None):
    return {
        "game": GAME,
        "phase": "auction",
        "seat": seat,
        "hand": hand,
        "bidding": bidding or {"bid": None, "bidder": None, "multiplier": 1},
        "legal_actions": actions
        or [{"type": "bid", "contract": b} for b in ("C", "D", "H", "S", "NT", "AT")]
        + [{"type": "pass"}],
    }


def test_bids_a_strong_trump_suit_and_passes_a_weak_hand():
    assert choose("heuristic", view_in_auction(["JH", "9H", "AH", "AS", "7D"]))["contract"] == "H"
    assert choose("heuristic", view_in_auction(["7H", "8S", "QD", "KC", "8C"])) == {"type": "pass"}
    assert (
        contract_values(["JS", "JH", "JD", "9S", "9H"])["AT"]
        > contract_values(["JS", "JH", "JD", "9S", "9H"])["S"]
    )


def test_doubles_only_with_the_top_trumps_of_the_opponents_suit():
    actions = [{"type": "bid", "contract": b} for b in ("S", "NT", "AT")] + [
        {"type": "double"},
        {"type": "pass"},
    ]
    bidding = {"bid": "H", "bidder": 1, "multiplier": 1}
    strong = view_in_auction(["JH", "9H", "AH", "TH", "7D"], bidding, seat=0, actions=actions)
    assert choose("heuristic", strong) == {"type": "double"}
    weak = view_in_auction(["JH", "8H", "7S", "7C", "8D"], bidding, seat=0, actions=actions)
    assert choose("heuristic", weak) == {"type": "pass"}


def test_does_not_take_a_partners_bid_without_a_much_stronger_hand():
    actions = [{"type": "bid", "contract": b} for b in ("S", "NT", "AT")] + [{"type": "pass"}]
    bidding = {"bid": "H", "bidder": 2, "multiplier": 1}
    view = view_in_auction(["JS", "AS", "7S", "AD", "8C"], bidding, seat=0, actions=actions)
    assert choose("heuristic", view) == {"type": "pass"}


def test_declares_the_most_points_and_announces_the_belot():
    declare = [
        {"type": "declare", "combinations": c}
        for c in (
            [],
            [{"kind": "four", "rank": "J"}],
            [{"kind": "sequence", "length": 3, "top": "J", "suit": "S"}],
        )
    ]
    view = {"game": GAME, "phase": "play", "legal_actions": declare}
    assert choose("heuristic", view)["combinations"] == [{"kind": "four", "rank": "J"}]
    plays = [{"type": "play", "card": "KH"}, {"type": "play", "card": "KH", "belote": True}]
    view = {
        "game": GAME,
        "phase": "play",
        "seat": 0,
        "trick": [],
        "legal_actions": plays,
        "contract": {"kind": "suit", "trump": "H", "declarer_team": 0, "multiplier": 1},
    }
    assert choose("heuristic", view) == {"type": "play", "card": "KH", "belote": True}
