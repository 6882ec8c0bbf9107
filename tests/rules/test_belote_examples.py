"""The worked examples of rules/belote.md §11, and the deal mappings and auctions of §3-4.

Expected values are the rules file's, not the code's.
"""

import pytest

from app.rules import apply, legal_actions, new_game, observe, score_deal
from app.rules.belote_base import TABLE

HEARTS = {"trump": "H", "taker_team": 0, "eldest_team": 1}
TIERCE_9C = {"kind": "sequence", "length": 3, "top": "9", "suit": "C"}


def summary(cp, tricks, last, decl=([], []), belote=(0, 0), carried_in=0, contract=HEARTS):
    return {
        "contract": dict(contract),
        "card_points": list(cp),
        "tricks": list(tricks),
        "last_trick_team": last,
        "declarations": [list(decl[0]), list(decl[1])],
        "belote": list(belote),
        "carried_in": carried_in,
        "revoke_team": None,
    }


@pytest.mark.parametrize(
    "name, s, points, carried_out, outcome",
    [
        ("F1", summary((92, 60), (5, 3), 0), [102, 60], 0, "made"),
        ("F2", summary((70, 82), (4, 4), 0, belote=(1, 0)), [100, 82], 0, "made"),
        ("F3", summary((62, 90), (3, 5), 1), [0, 162], 0, "failed"),
        (
            "F4",
            summary((55, 97), (3, 5), 1, decl=([], [TIERCE_9C]), belote=(1, 0)),
            [20, 182],
            0,
            "failed",
        ),
        ("F5", summary((71, 81), (4, 4), 0), [0, 81], 81, "litige"),
    ],
)
def test_worked_examples_four_players(name, s, points, carried_out, outcome):
    result = score_deal("belote", {}, s)
    assert result["points"] == points, name
    assert result["carried_out"] == carried_out, name
    assert result["outcome"] == outcome, name


def test_f2_without_the_belote_the_takers_fail():
    """§11: "Without it, 80 < 82"."""
    result = score_deal("belote", {}, summary((70, 82), (4, 4), 0))
    assert result["detail"]["totals"] == [80, 82]
    assert result["outcome"] == "failed"


def test_f4_totals():
    result = score_deal(
        "belote", {}, summary((55, 97), (3, 5), 1, decl=([], [TIERCE_9C]), belote=(1, 0))
    )
    assert result["detail"]["totals"] == [75, 127]


def test_f5_totals_are_level():
    assert score_deal("belote", {}, summary((71, 81), (4, 4), 0))["detail"]["totals"] == [81, 81]


TWO_P = {"trump": "H", "taker_team": 0, "eldest_team": 0}


@pytest.mark.parametrize(
    "name, s, points",
    [
        (
            "S1",
            summary(
                (58, 45),
                (5, 4),
                0,
                contract=TWO_P,
                belote=(1, 0),
                decl=(
                    [{"kind": "sequence", "length": 4, "top": "T", "suit": "D"}],
                    [{"kind": "sequence", "length": 3, "top": "K", "suit": "C"}],
                ),
            ),
            [138, 45],
        ),
        (
            "S2",
            summary(
                (62, 48),
                (5, 4),
                0,
                contract=TWO_P,
                decl=(
                    [{"kind": "sequence", "length": 5, "top": "J", "suit": "S"}],
                    [{"kind": "four", "rank": "K"}],
                ),
            ),
            [72, 148],
        ),
    ],
)
def test_worked_examples_two_players(name, s, points):
    result = score_deal("belote-2p", {}, s)
    assert result["points"] == points, name
    assert result["carried_out"] == 0
    assert result["outcome"] == "scored"


# ---------------------------------------------------------------- deal mapping (§3)
DECK = list(TABLE.deck)


def test_four_player_mapping_dealer_0_taker_3():
    """§3 example: dealer 0, taker seat 3: seat 1 gets 21-23, seat 2 24-26, seat 3 27-28 + 20, seat 0 29-31."""
    s = apply(new_game("belote", {}, dealer=0), {"type": "deal", "deck": DECK})
    # eldest seat 1: 0-2; seat 2: 3-5; seat 3: 6-8; seat 0 (dealer): 9-11; then 2 each from 12.
    assert set(observe(s, 1)["hand"]) == set(DECK[0:3] + DECK[12:14])
    assert set(observe(s, 2)["hand"]) == set(DECK[3:6] + DECK[14:16])
    assert set(observe(s, 3)["hand"]) == set(DECK[6:9] + DECK[16:18])
    assert set(observe(s, 0)["hand"]) == set(DECK[9:12] + DECK[18:20])
    assert observe(s, None)["turned"] == DECK[20]
    assert observe(s, None)["stock_count"] == 11
    for _ in range(2):
        s = apply(s, {"type": "pass"})  # seats 1, 2
    s = apply(s, {"type": "take"})  # seat 3
    hands = [set(observe(s, seat)["hand"]) for seat in range(4)]
    assert hands[1] == set(DECK[0:3] + DECK[12:14] + DECK[21:24])
    assert hands[2] == set(DECK[3:6] + DECK[14:16] + DECK[24:27])
    assert hands[3] == set(DECK[6:9] + DECK[16:18] + DECK[27:29] + [DECK[20]])
    assert hands[0] == set(DECK[9:12] + DECK[18:20] + DECK[29:32])
    v = observe(s, None)
    assert v["contract"]["trump"] == DECK[20][-1] and v["contract"]["taker"] == 3
    assert v["turned"] is None and v["stock_count"] == 0 and v["to_act"] == 1


def test_two_player_mapping_dealer_0():
    """§3, 2p: 0-2 e, 3-5 d, 6-8 e, 9-11 d; 12 the retourne; 13-18 one at a time e, d; 31 turned up."""
    s = apply(new_game("belote-2p", {}, dealer=0), {"type": "deal", "deck": DECK})
    e, d = 1, 0
    assert set(observe(s, e)["hand"]) == set(DECK[0:3] + DECK[6:9])
    assert set(observe(s, d)["hand"]) == set(DECK[3:6] + DECK[9:12])
    v = observe(s, None)
    assert v["turned"] == DECK[12] and v["to_act"] == e and v["stock_count"] == 19
    assert v["bottom_card"] is None
    s = apply(s, {"type": "pass"})
    # the dealer takes the retourne's suit: hearts (DECK[12] is the JH)
    assert DECK[12] == "JH" and DECK.index("7H") == 8
    s = apply(s, {"type": "take"})
    # the eldest holds the 7 of hearts (index 8): he is asked about the exchange first
    assert observe(s, None)["exchange"] == {"seat": e, "swap": None}
    assert legal_actions(s) == [
        {"type": "exchange", "swap": True},
        {"type": "exchange", "swap": False},
    ]
    s = apply(s, {"type": "exchange", "swap": False})
    assert set(observe(s, e)["hand"]) == set(DECK[0:3] + DECK[6:9] + [DECK[13], DECK[15], DECK[17]])
    assert set(observe(s, d)["hand"]) == set(
        DECK[3:6] + DECK[9:12] + [DECK[14], DECK[16], DECK[18]]
    )
    v = observe(s, None)
    assert v["hand_counts"] == [9, 9]
    assert v["turned"] == DECK[12], "the retourne is not taken in 2p and stays face up"
    assert v["bottom_card"] == DECK[31]
    assert v["stock_count"] == 12  # 19-30, unseen
    assert v["phase"] == "play" and v["to_act"] == e


# ---------------------------------------------------------------- auction (§4)
def test_four_player_auction_second_round_and_void_deal():
    s = apply(new_game("belote", {}, dealer=0), {"type": "deal", "deck": DECK})
    turned_suit = DECK[20][-1]
    assert legal_actions(s) == [{"type": "take"}, {"type": "pass"}]
    for _ in range(4):
        s = apply(s, {"type": "pass"})
    suits = {a.get("suit") for a in legal_actions(s) if a["type"] == "take"}
    assert suits == {"S", "H", "D", "C"} - {turned_suit}
    for _ in range(4):
        s = apply(s, {"type": "pass"})
    v = observe(s, None)
    assert v["phase"] == "deal" and v["dealer"] == 1 and v["sheet"][-1]["void"] is True
    assert v["scores"] == [0, 0]


def test_four_player_round_two_take_names_the_trump():
    s = apply(new_game("belote", {}, dealer=0), {"type": "deal", "deck": DECK})
    for _ in range(5):
        s = apply(s, {"type": "pass"})
    s = apply(s, {"type": "take", "suit": "S"})  # seat 2 in round 2
    c = observe(s, None)["contract"]
    assert (c["trump"], c["taker"], c["taker_team"], c["round"]) == ("S", 2, 0, 2)


def test_two_player_auction_four_passes_void_and_the_other_deals():
    s = apply(new_game("belote-2p", {}, dealer=0), {"type": "deal", "deck": DECK})
    s = apply(s, {"type": "pass"})
    s = apply(s, {"type": "pass"})
    acts = legal_actions(s)
    assert {a.get("suit") for a in acts if a["type"] == "take"} == {
        "S",
        "D",
        "C",
    }  # not the retourne's hearts
    s = apply(s, {"type": "pass"})
    s = apply(s, {"type": "pass"})
    v = observe(s, None)
    assert v["phase"] == "deal" and v["sheet"][-1]["void"] is True and v["dealer"] == 1


def test_two_player_round_two_take():
    s = apply(new_game("belote-2p", {}, dealer=1), {"type": "deal", "deck": DECK})
    s = apply(s, {"type": "pass"})  # seat 0, eldest
    s = apply(s, {"type": "pass"})  # seat 1
    s = apply(s, {"type": "take", "suit": "C"})  # seat 0 names clubs
    v = observe(s, None)
    assert v["contract"]["trump"] == "C" and v["contract"]["taker_team"] == 0
    assert v["phase"] == "play" and v["exchange"] is None  # not the retourne's suit: no exchange
