"""The worked examples of rules/bridge-belote.md §11, the obligations table of §6
and the deal mapping of §3.

Expected values are the rules file's, not the code's.
"""

import pytest

from app.rules import apply, legal_actions, legal_cards, new_game, observe, score_deal

GAME = "bridge-belote"
QUARTE_TS = {"kind": "sequence", "length": 4, "top": "T", "suit": "S"}
FOUR_T = {"kind": "four", "rank": "T"}


def summary(kind, trump, dec, cp, tricks, last, decl=([], []), belote=(0, 0), carried=0, m=1):
    return {
        "contract": {"kind": kind, "trump": trump, "declarer_team": dec, "multiplier": m},
        "card_points": list(cp),
        "tricks": list(tricks),
        "last_trick_team": last,
        "declarations": [list(decl[0]), list(decl[1])],
        "belote": list(belote),
        "carried_in": carried,
        "revoke_team": None,
    }


AT, NT, SUIT = "all_trumps", "no_trumps", "suit"

EXAMPLES = [
    # id, summary, raw, points, carried_out, outcome
    ("P1", summary(AT, None, 1, (34, 214), (2, 6), 1), [34, 224], [4, 22], 0, "made"),
    (
        "P2",
        summary(AT, None, 1, (64, 184), (3, 5), 1, decl=([FOUR_T], [])),
        [164, 194],
        [17, 19],
        0,
        "made",
    ),
    ("P3", summary(SUIT, "H", 1, (56, 96), (2, 6), 1), [56, 106], [6, 10], 0, "made"),
    ("P4", summary(SUIT, "H", 1, (6, 146), (1, 7), 1), [6, 156], [1, 15], 0, "made"),
    (
        "P5",
        summary(AT, None, 0, (94, 154), (3, 5), 0, decl=([QUARTE_TS], [])),
        [154, 154],
        [0, 15],
        16,
        "hanging",
    ),
    (
        "P6",
        summary(SUIT, "H", 1, (106, 46), (5, 3), 1, decl=([], [QUARTE_TS])),
        [106, 106],
        [10, 0],
        11,
        "hanging",
    ),
    ("E1", summary(SUIT, "S", 0, (90, 62), (5, 3), 0), [100, 62], [10, 6], 0, "made"),
    ("E2", summary(SUIT, "S", 0, (76, 76), (4, 4), 0), [86, 76], [8, 8], 0, "made"),
    ("E3", summary(SUIT, "S", 0, (57, 95), (3, 5), 1), [57, 105], [0, 16], 0, "inside"),
    ("E4", summary(SUIT, "S", 0, (71, 81), (4, 4), 0), [81, 81], [0, 8], 8, "hanging"),
    ("E5", summary(SUIT, "H", 1, (40, 112), (2, 6), 1, carried=8), [40, 122], [4, 20], 0, "made"),
    ("E10", summary(NT, None, 0, (77, 43), (5, 3), 0), [174, 86], [17, 9], 0, "made"),
    ("E12", summary(NT, None, 0, (120, 0), (8, 0), 0), [350, 0], [35, 0], 0, "made"),
    ("E14", summary(SUIT, "D", 0, (60, 92), (3, 5), 1, m=2), [60, 102], [0, 32], 0, "inside"),
]


@pytest.mark.parametrize(
    "name, s, raw, points, carried_out, outcome", EXAMPLES, ids=[e[0] for e in EXAMPLES]
)
def test_worked_examples(name, s, raw, points, carried_out, outcome):
    result = score_deal(GAME, {}, s)
    assert result["detail"]["raw"] == raw
    assert result["points"] == points
    assert result["carried_out"] == carried_out
    assert result["outcome"] == outcome


def test_deal_totals_of_the_examples():
    """§7: R is 16 (suit), 26 (AT/NT) without declarations, 35 in NT with a capot."""
    totals = {e[0]: score_deal(GAME, {}, e[1])["detail"]["deal_total"] for e in EXAMPLES}
    assert totals["E1"] == 16 and totals["P1"] == 26 and totals["E10"] == 26 and totals["E12"] == 35
    assert totals["P2"] == 36 and totals["P5"] == 31


def test_e4_then_e5_pool_goes_to_the_next_winner():
    """E4 leaves 8 hanging; E5, the next deal, gives team 1 its 12 plus the 8."""
    e4 = score_deal(GAME, {}, EXAMPLES[9][1])
    e5 = summary(SUIT, "H", 1, (40, 112), (2, 6), 1, carried=e4["carried_out"])
    assert score_deal(GAME, {}, e5)["points"] == [4, 20]


# ---------------------------------------------------------------------- §6, every row in every contract
HEARTS = {"kind": SUIT, "trump": "H", "declarer_team": 0, "multiplier": 1}
ALL = {"kind": AT, "trump": None, "declarer_team": 0, "multiplier": 1}
NOT = {"kind": NT, "trump": None, "declarer_team": 0, "multiplier": 1}

OBLIGATIONS = [
    # contract, trick (cards in order; the player is next), hand, legal
    ("suit: lead anything", HEARTS, [], ["7H", "AS", "KD"], {"7H", "AS", "KD"}),
    ("suit: trumps led, go higher", HEARTS, ["AH"], ["9H", "7H", "AS"], {"9H"}),
    ("suit: trumps led, cannot beat, any trump", HEARTS, ["9H"], ["AH", "7H", "AS"], {"AH", "7H"}),
    (
        "suit: trumps led, go higher even over the partner",
        HEARTS,
        ["AH", "7S"],
        ["JH", "8H"],
        {"JH"},
    ),
    ("suit: trumps led, none held, anything", HEARTS, ["AH"], ["AS", "KD"], {"AS", "KD"}),
    ("suit: follow suit, no need to beat", HEARTS, ["KS"], ["AS", "7S", "JH"], {"AS", "7S"}),
    ("suit: void, no trumps, anything", HEARTS, ["KS"], ["AD", "7C"], {"AD", "7C"}),
    ("suit: void, partner winning, anything", HEARTS, ["AS", "7S"], ["JH", "7D"], {"JH", "7D"}),
    ("suit: void, opponent winning, must trump", HEARTS, ["KS"], ["8H", "JH", "7D"], {"8H", "JH"}),
    ("suit: void, trumped, must over-trump", HEARTS, ["KS", "AH"], ["9H", "8H", "7D"], {"9H"}),
    ("suit: void, cannot over-trump, anything", HEARTS, ["KS", "JH"], ["9H", "7D"], {"9H", "7D"}),
    ("suit: partner trumped, anything", HEARTS, ["KS", "8H", "7S"], ["9H", "7D"], {"9H", "7D"}),
    ("AT: lead anything", ALL, [], ["7H", "AS"], {"7H", "AS"}),
    ("AT: follow and go higher", ALL, ["AS"], ["9S", "KS", "7H"], {"9S"}),
    ("AT: go higher even over the partner", ALL, ["AS", "7S"], ["JS", "KS"], {"JS"}),
    ("AT: cannot beat, any card of the suit", ALL, ["9S"], ["AS", "7S", "JH"], {"AS", "7S"}),
    ("AT: void, anything", ALL, ["9S"], ["JH", "7D"], {"JH", "7D"}),
    ("NT: lead anything", NOT, [], ["7H", "AS"], {"7H", "AS"}),
    ("NT: follow, no need to beat", NOT, ["AS"], ["7S", "KS", "AH"], {"7S", "KS"}),
    ("NT: void, anything", NOT, ["AS"], ["JH", "7D"], {"JH", "7D"}),
]


@pytest.mark.parametrize(
    "name, contract, trick, hand, legal", OBLIGATIONS, ids=[o[0] for o in OBLIGATIONS]
)
def test_obligations_table(name, contract, trick, hand, legal):
    assert set(legal_cards(GAME, {}, contract, hand, trick)) == legal


@pytest.mark.parametrize(
    "contract, trick, winner",
    [
        (HEARTS, ["AS", "7H", "TS", "KS"], 1),  # the only trump
        (HEARTS, ["AS", "7H", "JH", "KS"], 2),  # the highest trump
        (
            HEARTS,
            ["TS", "AS", "JD", "KS"],
            1,
        ),  # the highest of the suit led; J of diamonds is no trump
        (
            ALL,
            ["AS", "9S", "JH", "KS"],
            1,
        ),  # AT: trump order in the suit led, 9 over A; JH cannot win
        (NOT, ["9S", "AS", "JH", "TS"], 1),  # NT: plain order, A over T over 9
        (NOT, ["KS", "JS", "AH", "QS"], 0),  # NT: K over Q over J
    ],
)
def test_trick_winner(contract, trick, winner):
    from app.rules.bridge_belote import GAME as ruleset

    assert ruleset.trick_winner(list(enumerate(trick)), contract) == winner


# ---------------------------------------------------------------------- §3
def test_deal_mapping_dealer_3():
    """§3: e = 0; 0-11 three each, 12-19 two each, then after the contract 20-31 three each."""
    from app.rules.bridge_belote_contract import TABLE

    deck = list(TABLE.deck)
    s = apply(new_game(GAME, {}, dealer=3), {"type": "deal", "deck": deck})
    v = observe(s, None)
    assert v["phase"] == "auction" and v["to_act"] == 0 and v["hand_counts"] == [5, 5, 5, 5]
    assert v["stock_count"] == 12 and v["turned"] is None
    assert set(observe(s, 0)["hand"]) == set(deck[0:3] + deck[12:14])
    assert set(observe(s, 1)["hand"]) == set(deck[3:6] + deck[14:16])
    assert set(observe(s, 2)["hand"]) == set(deck[6:9] + deck[16:18])
    assert set(observe(s, 3)["hand"]) == set(deck[9:12] + deck[18:20])
    s = apply(s, {"type": "bid", "contract": "H"})
    for _ in range(3):
        s = apply(s, {"type": "pass"})
    hands = [set(observe(s, seat)["hand"]) for seat in range(4)]
    assert hands[0] == set(deck[0:3] + deck[12:14] + deck[20:23])
    assert hands[1] == set(deck[3:6] + deck[14:16] + deck[23:26])
    assert hands[2] == set(deck[6:9] + deck[16:18] + deck[26:29])
    assert hands[3] == set(deck[9:12] + deck[18:20] + deck[29:32])
    v = observe(s, 0)
    assert v["phase"] == "play" and v["to_act"] == 0 and v["stock_count"] == 0
    assert v["contract"]["kind"] == "suit" and v["contract"]["trump"] == "H"
    assert v["contract"]["declarer_team"] == 0 and v["contract"]["multiplier"] == 1
    assert legal_actions(s)[0]["type"] == "declare"
