"""belote-2p through apply(): the 7-of-trump exchange, free play, "I'm done", the dealer (rules/belote.md)."""

import pytest

from app.rules import IllegalAction, apply, is_over, legal_actions, legal_cards, new_game, observe

HEARTS = {"trump": "H", "taker_team": 0}


@pytest.mark.parametrize(
    "name, trick, hand, legal",
    [
        ("follow suit", ["AS"], ["7S", "JH", "8D"], {"7S"}),
        ("void: any card, no duty to trump", ["AS"], ["JH", "8D"], {"JH", "8D"}),
        ("trumps led: follow, no duty to overtake", ["9H"], ["7H", "JH", "AS"], {"7H", "JH"}),
        ("lead anything", [], ["7H", "AS"], {"7H", "AS"}),
    ],
)
def test_legal_cards_two_players(name, trick, hand, legal):
    assert set(legal_cards("belote-2p", {}, HEARTS, hand, trick)) == legal, name


# Dealer 1, eldest seat 0. Indices 0-2 s0, 3-5 s1, 6-8 s0, 9-11 s1, 12 retourne,
# 13 s0, 14 s1, 15 s0, 16 s1, 17 s0, 18 s1, 19-30 stock, 31 bottom card.
SEAT0 = ["JH", "9H", "KH", "QH", "AS", "TS", "KS", "AD", "TD"]
SEAT1 = ["7H", "8H", "7S", "8S", "9S", "7D", "8D", "9D", "7C"]
RETOURNE, BOTTOM = "AH", "AC"
STOCK = ["TH", "QS", "JS", "JD", "QD", "KD", "8C", "9C", "TC", "JC", "QC", "KC"]
TIERCE_K = {"kind": "sequence", "length": 3, "top": "K", "suit": "H"}


def deck():
    d = SEAT0[0:3] + SEAT1[0:3] + SEAT0[3:6] + SEAT1[3:6] + [RETOURNE]
    for i in range(3):
        d += [SEAT0[6 + i], SEAT1[6 + i]]
    return d + STOCK + [BOTTOM]


def taken(options=None):
    s = apply(new_game("belote-2p", options or {}, dealer=1), {"type": "deal", "deck": deck()})
    return apply(s, {"type": "take"})  # seat 0 takes hearts, the retourne's suit


def test_the_hands():
    s = taken({"seven_of_trump_exchange": False})
    assert set(observe(s, 0)["hand"]) == set(SEAT0)
    assert set(observe(s, 1)["hand"]) == set(SEAT1)
    v = observe(s, None)
    assert (v["turned"], v["bottom_card"], v["stock_count"]) == (RETOURNE, BOTTOM, 12)


def test_exchange_of_the_seven_of_trumps_swap():
    s = taken({"seven_of_trump_exchange": True})
    assert observe(s, None)["to_act"] == 1 and observe(s, None)["phase"] == "auction"
    assert legal_actions(s) == [
        {"type": "exchange", "swap": True},
        {"type": "exchange", "swap": False},
    ]
    with pytest.raises(IllegalAction, match="exchange"):
        apply(s, {"type": "pass"})
    s = apply(s, {"type": "exchange", "swap": True})
    v = observe(s, 1)
    assert "AH" in v["hand"] and "7H" not in v["hand"]
    assert v["turned"] == "7H" and v["exchange"] == {"seat": 1, "swap": True}
    assert v["phase"] == "play" and v["to_act"] == 0  # the eldest declares and leads


def test_exchange_declined_keeps_the_hands():
    s = apply(taken(), {"type": "exchange", "swap": False})
    assert set(observe(s, 1)["hand"]) == set(SEAT1)
    assert observe(s, None)["turned"] == RETOURNE


def test_no_exchange_without_the_option():
    s = taken({"seven_of_trump_exchange": False})
    assert observe(s, None)["phase"] == "play" and observe(s, None)["exchange"] is None
    with pytest.raises(IllegalAction):
        apply(s, {"type": "exchange", "swap": True})


def test_four_player_game_has_no_exchange_option():
    with pytest.raises(IllegalAction, match="unknown option"):
        new_game("belote", {"seven_of_trump_exchange": True})


def first_trick(options):
    """Seat 0 declares his tierce and wins trick 1 with the J of hearts (20 card points)."""
    s = taken(dict(options, seven_of_trump_exchange=False))
    s = apply(s, {"type": "declare", "combinations": [TIERCE_K]})
    assert {"type": "claim"} not in legal_actions(s), "no trick won yet"
    s = apply(s, {"type": "play", "card": "JH"})
    s = apply(s, {"type": "declare", "combinations": []})
    assert set(a["card"] for a in legal_actions(s)) == {"7H", "8H"}
    with pytest.raises(IllegalAction, match="follow suit in hearts"):
        apply(s, {"type": "play", "card": "7S"})
    return apply(s, {"type": "play", "card": "7H"})


def test_claim_reaching_the_target_wins_the_match():
    s = first_trick({"allow_claim": True, "target": 40})
    assert {"type": "claim"} in legal_actions(s)
    assert observe(s, None)["claim_totals"] == [40, 0]  # 20 card points + the tierce
    s = apply(s, {"type": "claim"})
    v = observe(s, None)
    assert is_over(s) and v["winner"] == 0 and v["scores"] == [40, 0]
    assert v["sheet"][-1]["outcome"] == "claim"
    assert v["sheet"][-1]["detail"]["claim"] == {
        "seat": 0,
        "total": 40,
        "target": 40,
        "correct": True,
    }


def test_claim_short_of_the_target_loses_the_match():
    s = apply(first_trick({"allow_claim": True, "target": 41}), {"type": "claim"})
    v = observe(s, None)
    assert is_over(s) and v["winner"] == 1
    assert v["sheet"][-1]["detail"]["claim"]["correct"] is False


def test_no_claim_without_the_option():
    s = first_trick({"allow_claim": False, "target": 40})
    assert {"type": "claim"} not in legal_actions(s)
    with pytest.raises(IllegalAction, match="not played"):
        apply(s, {"type": "claim"})


def test_claim_counts_the_belote_once_both_cards_are_played():
    s = first_trick({"target": 1000})
    s = apply(s, {"type": "play", "card": "KH", "belote": True})
    s = apply(s, {"type": "play", "card": "8H"})
    assert observe(s, None)["claim_totals"][0] == 40 + 4  # the K alone: no belote yet
    s = apply(s, {"type": "play", "card": "QH"})
    s = apply(s, {"type": "play", "card": "7S"})  # void in hearts now: any card
    assert observe(s, None)["claim_totals"][0] == 40 + 4 + 3 + 20


def test_no_claim_at_the_last_trick():
    s = first_trick({"target": 1000})
    while len(s.tricks) < 8:
        s = apply(s, next(a for a in legal_actions(s) if a["type"] == "play"))
    assert observe(s, None)["trick_number"] == 9
    assert all(a["type"] == "play" for a in legal_actions(s))
    with pytest.raises(IllegalAction, match="last trick"):
        apply(s, {"type": "claim"})


def test_the_player_who_scored_more_deals_next():
    s = first_trick({"target": 1000})
    while observe(s, None)["phase"] == "play":
        s = apply(s, next(a for a in legal_actions(s) if a["type"] == "play"))
    v = observe(s, None)
    a, b = v["sheet"][-1]["points"]
    assert a != b and v["dealer"] == (0 if a > b else 1)
    summary = v["last_deal"]["summary"]
    assert sum(summary["tricks"]) == 9 and 18 <= sum(summary["card_points"]) <= 146
    assert v["sheet"][-1]["points"] == v["sheet"][-1]["detail"]["totals"]
