"""Play-level rules of Bolot through apply(): the declaration step, bolot i rebolot, readable errors."""

import pytest

from app.rules import IllegalAction, apply, legal_actions, new_game, observe

# A deck laid out for dealer 3 (eldest seat 0) so that seat 0 takes oros in round 1.
# Indices: 0-2 seat 0, 3-5 seat 1, 6-8 seat 2, 9-11 seat 3, 12-13 s0, 14-15 s1, 16-17 s2,
# 18-19 s3, 20 turned, then the stock: seat 0 (taker) 21-22, seat 1 23-25, seat 2 26-28, seat 3 29-31.
HANDS = {
    0: ["10o", "9o", "12o", "11o", "1c"],  # + turned 1o + 3o 7c
    1: ["7e", "8e", "9e", "1e", "3e"],
    2: ["7b", "8b", "9b", "3b", "10b"],
    3: ["3c", "12c", "11c", "10c", "9c"],
}
TURNED = "1o"
STOCK = ["3o", "7c", "12e", "11e", "10e", "11b", "12b", "1b", "7o", "8o", "8c"]


def deck() -> list[str]:
    d = []
    for packet_start, size in ((0, 3), (3, 2)):
        for seat in (0, 1, 2, 3):
            d += HANDS[seat][packet_start : packet_start + size]
    return d + [TURNED] + STOCK


def dealt():
    s = apply(new_game("bolot", {}, dealer=3), {"type": "deal", "deck": deck()})
    return apply(s, {"type": "take"})  # seat 0 takes oros


def test_deck_fixture_is_a_permutation():
    from app.rules.bolot import TABLE

    assert sorted(deck()) == sorted(TABLE.deck)


def test_hands_after_the_take():
    s = dealt()
    assert set(observe(s, 0)["hand"]) == {"10o", "9o", "12o", "11o", "1c", "1o", "3o", "7c"}
    assert set(observe(s, 3)["hand"]) == {"3c", "12c", "11c", "10c", "9c", "7o", "8o", "8c"}


def test_each_seat_declares_once_before_its_first_card():
    s = dealt()
    acts = legal_actions(s)
    assert all(a["type"] == "declare" for a in acts)
    # seat 0 holds oros 1 3 10 11 12 9: sequence order 7 8 9 3 10 11 12 1 -> 9-3-10-11-12-1, a run of 6.
    assert {
        "type": "declare",
        "combinations": [{"kind": "sequence", "length": 6, "top": "1", "suit": "o"}],
    } in acts
    assert {"type": "declare", "combinations": []} in acts
    with pytest.raises(IllegalAction, match="declare"):
        apply(s, {"type": "play", "card": "1c"})
    s = apply(
        s,
        {
            "type": "declare",
            "combinations": [{"kind": "sequence", "length": 6, "top": "1", "suit": "o"}],
        },
    )
    # the kind is public at once, the cards only after trick 1
    assert observe(s, 1)["declarations"] == [
        {"seat": 0, "combinations": [{"kind": "sequence", "length": 6}], "shown": False}
    ]
    assert all(a["type"] == "play" for a in legal_actions(s))


def test_a_run_must_be_declared_whole():
    s = dealt()
    with pytest.raises(IllegalAction, match="whole"):
        apply(
            s,
            {
                "type": "declare",
                "combinations": [{"kind": "sequence", "length": 3, "top": "1", "suit": "o"}],
            },
        )


def test_bolot_offered_with_the_first_card_and_rebolot_automatic():
    s = dealt()
    s = apply(s, {"type": "declare", "combinations": []})
    acts = legal_actions(s)
    assert {"type": "play", "card": "12o", "bolot": True} in acts
    assert {"type": "play", "card": "12o"} in acts
    assert {"type": "play", "card": "1c", "bolot": True} not in acts
    with pytest.raises(IllegalAction, match="bolot"):
        apply(s, {"type": "play", "card": "1c", "bolot": True})
    s = apply(s, {"type": "play", "card": "12o", "bolot": True})
    assert observe(s, 2)["belote"] == [{"seat": 0, "card": "12o", "rebelote": False}]


def test_trumps_led_unable_to_overtake_any_trump_with_a_readable_reason():
    s = dealt()
    s = apply(s, {"type": "declare", "combinations": []})
    s = apply(s, {"type": "play", "card": "3o"})  # seat 0 leads the 3 of oros
    # seat 1 holds no oros: free to play anything
    s = apply(s, {"type": "declare", "combinations": []})
    assert {a["card"] for a in legal_actions(s)} == {
        "7e",
        "8e",
        "9e",
        "1e",
        "3e",
        "12e",
        "11e",
        "10e",
    }
    s = apply(s, {"type": "play", "card": "7e"})
    s = apply(s, {"type": "declare", "combinations": []})
    s = apply(s, {"type": "play", "card": "7b"})  # seat 2 has no oros either
    # seat 3 holds 7o and 8o, neither beats the 3: any trump (BL3)
    s = apply(s, {"type": "declare", "combinations": []})
    legal = {a["card"] for a in legal_actions(s)}
    assert legal == {"7o", "8o"}
    with pytest.raises(IllegalAction, match="follow suit in oros: you hold the 8 of oros"):
        apply(s, {"type": "play", "card": "3c"})


def test_plain_suit_led_follow_without_beating_message():
    s = dealt()
    s = apply(s, {"type": "declare", "combinations": []})
    s = apply(s, {"type": "play", "card": "1c"})  # seat 0 leads the As of copes
    s = apply(s, {"type": "declare", "combinations": []})
    # seat 1 has no copes and no oros: free
    s = apply(s, {"type": "play", "card": "3e"})
    s = apply(s, {"type": "declare", "combinations": []})
    s = apply(s, {"type": "play", "card": "10b"})
    # seat 3 holds copes: must follow, no need to beat (BL1)
    s = apply(s, {"type": "declare", "combinations": []})
    assert {a["card"] for a in legal_actions(s)} == {"3c", "12c", "11c", "10c", "9c", "8c"}
    with pytest.raises(IllegalAction, match="you must follow suit in copes"):
        apply(s, {"type": "play", "card": "7o"})


def test_apply_leaves_the_input_state_untouched():
    s = dealt()
    before = observe(s, 0)
    apply(s, {"type": "declare", "combinations": []})
    assert observe(s, 0) == before


def test_wrong_phase_actions_are_rejected():
    s = new_game("bolot", {}, dealer=0)
    with pytest.raises(IllegalAction, match="not been dealt"):
        apply(s, {"type": "pass"})
    s = apply(s, {"type": "deal", "deck": deck()})
    with pytest.raises(IllegalAction, match="already dealt"):
        apply(s, {"type": "deal", "deck": deck()})
    with pytest.raises(IllegalAction):
        apply(s, {"type": "play", "card": "1c"})
    with pytest.raises(IllegalAction, match="unknown game"):
        new_game("chess")


def test_must_trump_and_over_trump_messages():
    from app.rules import legal_cards

    contract = {"trump": "o", "taker_team": 0}
    with pytest.raises(IllegalAction, match="you must trump: you hold the 10 of oros"):
        _play_from(contract, ["12c"], ["7o", "10o", "1b"], "1b")
    with pytest.raises(IllegalAction, match="you must over-trump: you hold the 9 of oros"):
        _play_from(contract, ["12c", "3o"], ["9o", "7o", "1b"], "7o")
    # partner winning: free (two places back)
    assert set(legal_cards("bolot", {}, contract, ["7o", "1b"], ["12c", "1c", "7c"])) == {
        "7o",
        "1b",
    }


def _play_from(contract, trick, hand, card):
    """Apply a play on a hand-made state: seat 0's hand and the trick so far."""
    s = dealt()
    s = s.clone()
    s.declared = [[], [], [], []]
    s.tricks = [{"leader": 0, "cards": [], "winner": 0}]
    s.contract = dict(s.contract, **contract)
    s.hands[0] = list(hand)
    s.trick = [((0 - len(trick) + i) % 4, c) for i, c in enumerate(trick)]
    s.to_act = 0
    return apply(s, {"type": "play", "card": card})
