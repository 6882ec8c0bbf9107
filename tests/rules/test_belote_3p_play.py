"""belote-3p through apply(): the deals of §3 (24 and 32 cards), the auction of §4, the
duties of play of §6 (no partner exception), the exchange, the match end of §9.

Expected values are worked out from rules/belote-3p.md, not copied from the code.
"""

import pytest

from app.rules import (
    IllegalAction,
    apply,
    is_over,
    legal_actions,
    legal_cards,
    new_deck,
    new_game,
    observe,
)
from app.rules.api import GAMES

GAME = "belote-3p"
HEARTS = {"trump": "H", "taker": 1}
#: §11 "Deal example": the 24 cards in the order of the suits S H D C, each 9 T J Q K A.
ORDERED_24 = [r + s for s in "SHDC" for r in "9TJQKA"]


@pytest.mark.parametrize(
    "name, trick, hand, legal",
    [
        ("lead anything", [], ["9H", "AS"], {"9H", "AS"}),
        ("follow suit, no need to beat", ["AS"], ["9S", "JH"], {"9S"}),
        ("trumps led: go over", ["AH"], ["9H", "QH", "AS"], {"9H"}),
        ("trumps led, cannot go over: any trump", ["JH"], ["9H", "QH", "AS"], {"9H", "QH"}),
        ("void: must trump", ["AS"], ["QH", "AD"], {"QH"}),
        # no partner: even when the first player (who would be a partner at four) is
        # winning, the third must trump
        ("void, first player winning: still trump", ["AS", "9S"], ["QH", "AD"], {"QH"}),
        ("must over-trump", ["AS", "TH"], ["QH", "AH", "AD"], {"AH"}),
        ("cannot over-trump: under-trump", ["AS", "JH"], ["QH", "AD"], {"QH"}),
        ("void of trumps: any card", ["AS"], ["AD", "KC"], {"AD", "KC"}),
    ],
)
def test_legal_cards_three_players(name, trick, hand, legal):
    """§6, the procedure line by line."""
    assert set(legal_cards(GAME, {}, HEARTS, hand, trick)) == legal, name


def test_without_must_undertrump_any_card():
    """§6: ``return T if options.must_undertrump else hand``."""
    got = legal_cards(GAME, {"must_undertrump": False}, HEARTS, ["QH", "AD"], ["AS", "JH"])
    assert set(got) == {"QH", "AD"}


def test_deal_example_24_cards():
    """§11 "Deal example": dealer 0; seat 1 9S TS JS QH KH, seat 2 QS KS AS AH 9D, seat 0
    9H TH JH TD JD, the retourne QD. Seat 2 takes: seat 1 receives KD AD 9C, seat 2 TC JC
    and QD, seat 0 QC KC AC."""
    s = apply(new_game(GAME, {}, dealer=0), {"type": "deal", "deck": ORDERED_24})
    assert set(observe(s, 1)["hand"]) == {"9S", "TS", "JS", "QH", "KH"}
    assert set(observe(s, 2)["hand"]) == {"QS", "KS", "AS", "AH", "9D"}
    assert set(observe(s, 0)["hand"]) == {"9H", "TH", "JH", "TD", "JD"}
    v = observe(s, None)
    assert (v["turned"], v["to_act"], v["stock_count"]) == ("QD", 1, 8)
    s = apply(s, {"type": "pass"})
    s = apply(s, {"type": "take"})
    assert s.contract["trump"] == "D" and s.contract["taker"] == 2
    assert set(observe(s, 1)["hand"]) == {"9S", "TS", "JS", "QH", "KH", "KD", "AD", "9C"}
    assert set(observe(s, 2)["hand"]) == {"QS", "KS", "AS", "AH", "9D", "TC", "JC", "QD"}
    assert set(observe(s, 0)["hand"]) == {"9H", "TH", "JH", "TD", "JD", "QC", "KC", "AC"}
    v = observe(s, 0)
    assert v["phase"] == "play" and v["to_act"] == 1 and v["turned"] is None
    assert v["hand_counts"] == [8, 8, 8] and v["stock_count"] == 0


def test_the_deck_is_24_cards_or_32():
    """§2: no 7s or 8s by default; all 32 cards with deal "32"."""
    assert sorted(new_deck(GAME)) == sorted(ORDERED_24)
    assert len(new_deck(GAME, options={"deal": "32"})) == 32
    with pytest.raises(IllegalAction) as exc:
        apply(
            new_game(GAME, {}, 0), {"type": "deal", "deck": new_deck(GAME, options={"deal": "32"})}
        )
    assert exc.value.code == "deck_once"


def _deck_32(retourne="AH"):
    """32 cards, dealer 0 (eldest 1): indices 0-17 three each twice (1, 2, 0), 18 the
    retourne, 19-27 one at a time to 1, 2, 0, 28-31 never dealt (§3)."""
    rest = [c for c in GAMES[GAME].table.deck if c != retourne]
    return rest[:18] + [retourne] + rest[18:]


def test_deal_32_cards():
    """§3, 32 cards: six each, the retourne stays on the table after the take, nine each
    one at a time from the eldest, four never dealt, and nobody sees them."""
    deck = _deck_32()
    s = apply(
        new_game(GAME, {"deal": "32", "seven_of_trump_exchange": False}, 0),
        {"type": "deal", "deck": deck},
    )
    assert set(observe(s, 1)["hand"]) == set(deck[0:3] + deck[9:12])
    assert set(observe(s, 2)["hand"]) == set(deck[3:6] + deck[12:15])
    assert set(observe(s, 0)["hand"]) == set(deck[6:9] + deck[15:18])
    assert observe(s, None)["turned"] == "AH"
    s = apply(s, {"type": "take"})  # seat 1 takes hearts
    assert set(observe(s, 1)["hand"]) == set(
        deck[0:3] + deck[9:12] + [deck[19], deck[22], deck[25]]
    )
    assert set(observe(s, 2)["hand"]) == set(
        deck[3:6] + deck[12:15] + [deck[20], deck[23], deck[26]]
    )
    assert set(observe(s, 0)["hand"]) == set(
        deck[6:9] + deck[15:18] + [deck[21], deck[24], deck[27]]
    )
    for viewer in (None, 0, 1, 2):
        v = observe(s, viewer)
        assert v["turned"] == "AH" and v["hand_counts"] == [9, 9, 9] and v["stock_count"] == 4
        text = repr(v)
        for card in deck[28:]:
            assert f"'{card}'" not in text


def test_seven_of_trumps_exchange_32_cards():
    """§3: after a round-1 take the holder of the 7 of trumps may swap it for the retourne."""
    deck = _deck_32()
    holder = next(
        s
        for s in (0, 1, 2)
        if "7H"
        in [
            *{
                1: deck[0:3] + deck[9:12] + [deck[19], deck[22], deck[25]],
                2: deck[3:6] + deck[12:15] + [deck[20], deck[23], deck[26]],
                0: deck[6:9] + deck[15:18] + [deck[21], deck[24], deck[27]],
            }[s]
        ]
    )
    s = apply(new_game(GAME, {"deal": "32"}, 0), {"type": "deal", "deck": deck})
    s = apply(s, {"type": "take"})
    assert s.phase == "auction" and s.to_act == holder
    assert legal_actions(s) == [
        {"type": "exchange", "swap": True},
        {"type": "exchange", "swap": False},
    ]
    s = apply(s, {"type": "exchange", "swap": True})
    assert "AH" in observe(s, holder)["hand"] and "7H" not in observe(s, holder)["hand"]
    assert observe(s, None)["turned"] == "7H" and s.phase == "play" and s.to_act == 1


def test_no_exchange_with_24_cards():
    """There is no 7 in the 24-card game: the play begins after the take."""
    s = apply(new_game(GAME, {}, 0), {"type": "deal", "deck": ORDERED_24})
    s = apply(s, {"type": "take"})
    assert s.phase == "play"


def test_six_passes_void_the_deal_and_the_deal_passes_on():
    """§4.3: six passes, nothing scored, the next dealer (the eldest) deals."""
    s = apply(new_game(GAME, {}, dealer=2), {"type": "deal", "deck": ORDERED_24})
    assert s.to_act == 0
    seen = []
    for _ in range(3):
        seen.append(s.to_act)
        s = apply(s, {"type": "pass"})
    assert seen == [0, 1, 2]
    assert legal_actions(s) == [{"type": "take", "suit": x} for x in "SHC"] + [{"type": "pass"}]
    for _ in range(3):
        s = apply(s, {"type": "pass"})
    v = observe(s, None)
    assert v["phase"] == "deal" and v["dealer"] == 0 and v["scores"] == [0, 0, 0]
    assert v["sheet"][-1]["void"] and v["sheet"][-1]["points"] == [0, 0, 0]


def test_round_two_take_names_another_suit():
    """§4.2: after three passes, a seat names another suit."""
    s = apply(new_game(GAME, {}, dealer=0), {"type": "deal", "deck": ORDERED_24})
    for _ in range(4):
        s = apply(s, {"type": "pass"})
    s = apply(s, {"type": "take", "suit": "S"})  # seat 2, round 2
    assert s.contract["trump"] == "S" and s.contract["taker"] == 2 and s.contract["round"] == 2


def _play_out(state, pick=0):
    while state.phase == "play":
        state = apply(state, legal_actions(state)[pick % len(legal_actions(state))])
    return state


def test_a_whole_deal_scores_three_players():
    """§7-8: a played deal's summary is per player; 24 cards: 152 card points, 8 tricks."""
    s = apply(new_game(GAME, {}, dealer=0), {"type": "deal", "deck": ORDERED_24})
    s = _play_out(apply(apply(s, {"type": "pass"}), {"type": "take"}))
    entry = s.sheet[-1]
    summary = entry["summary"]
    assert sum(summary["card_points"]) == 152 and sum(summary["tricks"]) == 8
    assert summary["contract"] == {"trump": "D", "taker": 2, "eldest": 1}
    assert len(entry["points"]) == 3 and s.scores == entry["points"]
    assert s.dealer == 1 and s.phase == "deal"


def test_declarations_off():
    """§10 option declarations false: nobody declares in trick 1."""
    s = apply(new_game(GAME, {"declarations": False}, 0), {"type": "deal", "deck": ORDERED_24})
    s = apply(apply(s, {"type": "pass"}), {"type": "take"})
    assert all(a["type"] == "play" for a in legal_actions(s))
    s2 = apply(new_game(GAME, {}, 0), {"type": "deal", "deck": ORDERED_24})
    s2 = apply(apply(s2, {"type": "pass"}), {"type": "take"})
    assert all(a["type"] == "declare" for a in legal_actions(s2))


@pytest.mark.parametrize(
    "scores, winner",
    [
        ([1000, 990, 400], 0),  # at the target and single highest
        ([1005, 1005, 300], None),  # two share the highest: another deal
        ([999, 998, 0], None),  # nobody at the target
        ([600, 1200, 1100], 1),
    ],
)
def test_match_winner(scores, winner):
    """§9: a player at or over the target whose score is the single highest wins."""
    s = new_game(GAME, {}, 0)
    s.scores = scores
    assert GAMES[GAME].match_winner(s) == winner


def test_the_match_ends_at_the_target():
    """§9 with target 1: the first deal that scores ends the match unless two share the top."""
    s = apply(new_game(GAME, {"target": 1}, dealer=0), {"type": "deal", "deck": ORDERED_24})
    s = _play_out(apply(apply(s, {"type": "pass"}), {"type": "take"}))
    top = max(s.scores)
    if s.scores.count(top) == 1:
        assert is_over(s) and s.winner == s.scores.index(top)
    else:
        assert not is_over(s)


def test_options_schema_lists_every_option_of_section_10():
    names = [o["name"] for o in GAMES[GAME].options_schema]
    assert names == [
        "target",
        "deal",
        "contract",
        "must_undertrump",
        "declarations",
        "capoted_keep_declarations",
        "eight_card_run_120",
        "seven_of_trump_exchange",
    ]
    defaults = {o["name"]: o["default"] for o in GAMES[GAME].options_schema}
    assert defaults == {
        "target": 1000,
        "deal": "24",
        "contract": True,
        "must_undertrump": True,
        "declarations": True,
        "capoted_keep_declarations": False,
        "eight_card_run_120": True,
        "seven_of_trump_exchange": True,
    }
