"""Play-level rules of belote (4 players) through legal_cards() and apply(): rules/belote.md §5-6."""

import pytest

from app.rules import IllegalAction, apply, legal_actions, legal_cards, new_game, observe

HEARTS = {"trump": "H", "taker_team": 0}


# ---------------------------------------------------------------- legal_cards (§6, 4 players)
# The trick is listed in playing order and the player is next: trick[-2] is the partner's card.
@pytest.mark.parametrize(
    "name, trick, hand, legal",
    [
        ("lead anything", [], ["7S", "JH", "AD"], {"7S", "JH", "AD"}),
        ("follow, no need to beat", ["AS"], ["7S", "KS", "JH"], {"7S", "KS"}),
        ("trumps led: overtake", ["9H"], ["JH", "7H", "AS"], {"JH"}),
        ("trumps led, cannot overtake: any trump", ["JH"], ["9H", "7H", "AS"], {"9H", "7H"}),
        ("trumps led: overtake even the partner", ["9H", "8H"], ["JH", "7H"], {"JH"}),
        ("trumps led, void: anything", ["9H"], ["AS", "7D"], {"AS", "7D"}),
        ("void, no trump: anything", ["AS"], ["7D", "8C"], {"7D", "8C"}),
        ("void, partner winning: free", ["AS", "7S"], ["7H", "8D"], {"7H", "8D"}),
        (
            "void, partner winning with a trump: free",
            ["AS", "9H", "8S"],
            ["JH", "7D"],
            {"JH", "7D"},
        ),
        ("void, opponent winning: must trump", ["AS"], ["7H", "JH", "8D"], {"7H", "JH"}),
        ("opponent trumped: must over-trump", ["7S", "9H"], ["JH", "8H", "8D"], {"JH"}),
    ],
)
def test_legal_cards_four_players(name, trick, hand, legal):
    assert set(legal_cards("belote", {}, HEARTS, hand, trick)) == legal, name


def test_cannot_over_trump_an_opponent_must_undertrump_by_default():
    args = (HEARTS, ["8H", "7H", "8D"], ["7S", "JH"])
    assert set(legal_cards("belote", {"must_undertrump": True}, *args)) == {"8H", "7H"}


def test_cannot_over_trump_an_opponent_any_card_without_must_undertrump():
    args = (HEARTS, ["8H", "7H", "8D"], ["7S", "JH"])
    assert set(legal_cards("belote", {"must_undertrump": False}, *args)) == {"8H", "7H", "8D"}


def test_without_must_undertrump_a_possible_over_trump_is_still_owed():
    args = (HEARTS, ["JH", "7H", "8D"], ["7S", "9H"])
    assert set(legal_cards("belote", {"must_undertrump": False}, *args)) == {"JH"}


def test_legal_cards_rejects_unknown_trump():
    with pytest.raises(IllegalAction, match="trump"):
        legal_cards("belote", {}, {"trump": "o", "taker_team": 0}, ["7S"], [])


# ---------------------------------------------------------------- a laid-out deal
# Dealer 3, eldest seat 0. First 5 cards per seat, the turned JH, then the stock:
# seat 0 (taker) 2, seat 1 3, seat 2 3, seat 3 3.
FIRST5 = {
    0: ["KH", "QH", "AH", "7S", "8S"],
    1: ["AS", "TS", "KS", "7D", "8D"],
    2: ["AD", "TD", "KD", "QD", "9H"],
    3: ["QS", "JS", "8H", "TH", "JD"],
}
TURNED = "JH"
STOCK = ["9S", "7C", "9D", "7H", "8C", "TC", "JC", "QC", "KC", "AC", "9C"]


def deck():
    d = []
    for start, size in ((0, 3), (3, 2)):
        for seat in range(4):
            d += FIRST5[seat][start : start + size]
    return d + [TURNED] + STOCK


def dealt(options=None):
    s = apply(new_game("belote", options or {}, dealer=3), {"type": "deal", "deck": deck()})
    return apply(s, {"type": "take"})  # seat 0 takes hearts


QUARTE = {"kind": "sequence", "length": 4, "top": "A", "suit": "H"}
TIERCE_S = {"kind": "sequence", "length": 3, "top": "9", "suit": "S"}


def declare_all(s):
    """Each seat declares its longest choice as it comes to play; seat 0 leads KH with the belote."""
    s = apply(s, {"type": "declare", "combinations": [QUARTE, TIERCE_S]})
    s = apply(s, {"type": "play", "card": "KH", "belote": True})
    for _ in range(3):
        best = max(legal_actions(s), key=lambda a: len(a["combinations"]))
        s = apply(s, best)
        s = apply(s, legal_actions(s)[0])
    return s


def test_hands_after_the_take():
    s = dealt()
    assert set(observe(s, 0)["hand"]) == {"KH", "QH", "AH", "JH", "7S", "8S", "9S", "7C"}
    assert set(observe(s, 1)["hand"]) == {"AS", "TS", "KS", "7D", "8D", "9D", "7H", "8C"}


def test_declaration_choices_and_the_belote_flag():
    s = dealt()
    choices = [sorted(a["combinations"], key=lambda c: c["length"]) for a in legal_actions(s)]
    assert sorted(choices, key=repr) == sorted(
        [[], [QUARTE], [TIERCE_S], [TIERCE_S, QUARTE]], key=repr
    )
    with pytest.raises(IllegalAction, match="declare"):
        apply(s, {"type": "play", "card": "KH"})
    with pytest.raises(IllegalAction, match="do not hold"):
        apply(
            s,
            {
                "type": "declare",
                "combinations": [{"kind": "sequence", "length": 5, "top": "A", "suit": "H"}],
            },
        )
    s = apply(s, {"type": "declare", "combinations": [QUARTE, TIERCE_S]})
    acts = legal_actions(s)
    assert {"type": "play", "card": "KH", "belote": True} in acts
    assert {"type": "play", "card": "QH", "belote": True} in acts
    assert {"type": "play", "card": "AH", "belote": True} not in acts
    with pytest.raises(IllegalAction, match="belote"):
        apply(s, {"type": "play", "card": "AH", "belote": True})


def test_trumps_led_errors_name_the_rule():
    s = dealt()
    s = apply(s, {"type": "declare", "combinations": []})
    s = apply(s, {"type": "play", "card": "KH", "belote": True})
    s = apply(s, {"type": "declare", "combinations": []})
    with pytest.raises(
        IllegalAction, match="you must follow suit in hearts: you hold the 7 of hearts"
    ):
        apply(s, {"type": "play", "card": "AS"})
    s = apply(s, {"type": "play", "card": "7H"})
    s = apply(s, {"type": "declare", "combinations": []})
    # seat 2 must overtake the K of hearts even though seat 0 is his partner
    assert legal_actions(s) == [{"type": "play", "card": "9H"}]
    with pytest.raises(IllegalAction, match="overtake: you hold the 9 of hearts"):
        apply(s, {"type": "play", "card": "AD"})


def test_declarations_public_kinds_then_cards_and_validity():
    s = dealt()
    s = apply(s, {"type": "declare", "combinations": [QUARTE, TIERCE_S]})
    assert observe(s, 3)["declarations"] == [
        {
            "seat": 0,
            "combinations": [{"kind": "sequence", "length": 3}, {"kind": "sequence", "length": 4}],
            "shown": False,
        }
    ]
    s = apply(s, {"type": "play", "card": "KH", "belote": True})
    for _ in range(3):
        best = max(legal_actions(s), key=lambda a: len(a["combinations"]))
        s = apply(s, best)
        s = apply(s, legal_actions(s)[0])
    v = observe(s, 1)
    assert v["trick_number"] == 2
    by_seat = {d["seat"]: d for d in v["declarations"]}
    assert by_seat[0]["valid"] is True and by_seat[0]["shown"] is True
    assert by_seat[0]["combinations"][1]["cards"] == ["JH", "QH", "KH", "AH"]
    assert by_seat[1]["valid"] is False  # seat 1's tierce to the 9 of diamonds loses to the quarte
    assert by_seat[2]["valid"] is True  # partner of the best declaration: team 0 scores all its own
    assert all(c["valid"] for c in by_seat[2]["combinations"])
    assert v["belote"] == [{"seat": 0, "card": "KH", "rebelote": False}]


def test_whole_deal_summary_has_by_belote_and_declarations():
    s = declare_all(dealt())
    while observe(s, None)["phase"] == "play":
        acts = legal_actions(s)
        s = apply(s, acts[0])
    entry = observe(s, None)["last_deal"]
    summary = entry["summary"]
    assert summary["belote"] == [1, 0]  # KH announced, QH came later as the rebelote
    decl0 = summary["declarations"][0]
    assert dict(QUARTE, by=0) in decl0 and dict(TIERCE_S, by=0) in decl0
    assert all(c["by"] == 2 for c in decl0 if c not in (dict(QUARTE, by=0), dict(TIERCE_S, by=0)))
    assert sum(summary["card_points"]) == 152
    assert entry["detail"]["declarations"][1] == 0
    assert entry["detail"]["belote"] == [20, 0]
    assert observe(s, None)["dealer"] == 0  # the deal passes to the next seat


def test_first_belote_card_without_the_flag_loses_the_20():
    s = dealt()
    s = apply(s, {"type": "declare", "combinations": []})
    s = apply(s, {"type": "play", "card": "KH"})
    assert observe(s, None)["belote"] == []
    while observe(s, None)["phase"] == "play":
        s = apply(s, legal_actions(s)[0])
    assert observe(s, None)["last_deal"]["summary"]["belote"] == [0, 0]


def test_an_action_without_a_type_in_the_play_is_named_so():
    """{} or a type that is not a word gets "an action is a JSON object with a type", not
    "you cannot None now" (a fresh tester's find); a known call at the wrong time names it."""
    s = dealt()
    for action in ({}, {"type": None}, {"type": 5}):
        with pytest.raises(IllegalAction, match="an action is a JSON object with a type"):
            apply(s, action)
    with pytest.raises(IllegalAction, match="you cannot 'take' now: it is time to play a card"):
        apply(s, {"type": "take"})
