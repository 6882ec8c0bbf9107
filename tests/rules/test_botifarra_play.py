"""Legal cards for each rule of play (rules/botifarra.md §6), western and eastern.

The trick is in playing order and the player is next: with two cards down,
``trick[0]`` is the partner's; with one or three, ``trick[-1]`` is an
opponent's and ``trick[-2]`` (with three) the partner's.
"""

import pytest

from app.rules import legal_cards

OROS = {"trump": "o", "chooser_team": 0, "delegated": False, "doublings": 0}
BUTI = {"trump": None, "chooser_team": 0, "delegated": False, "doublings": 0}
W = {"variant": "western"}
E = {"variant": "eastern"}
EX = {"variant": "eastern", "eastern_extended_exception": True}


def legal(options, contract, hand, trick):
    return set(legal_cards("botifarra", options, contract, hand, trick))


def test_lead_is_free_in_both_variants():
    hand = ["9o", "2c", "1b", "4e"]
    assert legal(W, OROS, hand, []) == set(hand)
    assert legal(E, OROS, hand, []) == set(hand)


# ---------------------------------------------------------------- rule 1: follow suit
def test_follow_suit_when_you_cannot_beat():
    hand, trick = ["4c", "2c", "9b"], ["7c"]
    assert legal(W, OROS, hand, trick) == {"4c", "2c"}
    assert legal(E, OROS, hand, trick) == {"2c"}  # rule 3: the lowest copes


def test_follow_suit_comes_before_trumping():
    """Holding copes, a trump is never allowed on a copes lead, even one that would win."""
    hand, trick = ["2c", "9o"], ["1c"]
    assert legal(W, OROS, hand, trick) == {"2c"}
    assert legal(E, OROS, hand, trick) == {"2c"}


# ---------------------------------------------------------------- rule 2: beat the opponents
def test_must_beat_an_opponent_with_a_higher_card_of_the_suit():
    hand, trick = ["4c", "1c", "12c", "9b"], ["7c"]
    assert legal(W, OROS, hand, trick) == {"1c", "12c"}
    assert legal(E, OROS, hand, trick) == {"1c", "12c"}  # rule 3 only applies when you do not win


def test_trump_led_must_be_beaten_with_a_higher_trump():
    hand, trick = ["1o", "2o", "3c"], ["7o"]
    assert legal(W, OROS, hand, trick) == {"1o"}
    assert legal(E, OROS, hand, trick) == {"1o"}


def test_opponent_trumped_a_plain_suit_any_card_of_the_suit():
    """Partner led 9c, the opponent trumped with 2o: no copes can beat it."""
    hand, trick = ["1c", "4c", "5o"], ["9c", "2o"]
    assert legal(W, OROS, hand, trick) == {"1c", "4c"}
    assert legal(E, OROS, hand, trick) == {"4c"}


def test_void_must_trump_when_no_trump_in_the_trick():
    hand, trick = ["2o", "8o", "1b"], ["7c"]
    assert legal(W, OROS, hand, trick) == {"2o", "8o"}
    assert legal(E, OROS, hand, trick) == {"2o", "8o"}


def test_void_must_over_trump_an_opponent():
    """Opponent led 7c, partner 9c, the other opponent trumped 2o; I hold the 3o (higher)."""
    hand, trick = ["3o", "8b"], ["7c", "9c", "2o"]
    assert legal(W, OROS, hand, trick) == {"3o"}
    assert legal(E, OROS, hand, trick) == {"3o"}


def test_void_cannot_over_trump_plays_anything_western_lowest_eastern():
    """The opponent's 1o beats my 3o: no trump wins, so I am free (western)."""
    hand, trick = ["3o", "12b", "2b"], ["7c", "9c", "1o"]
    assert legal(W, OROS, hand, trick) == {"3o", "12b", "2b"}
    assert legal(E, OROS, hand, trick) == {"3o", "2b"}  # lowest of each suit


def test_partner_winning_no_need_to_beat_or_trump():
    hand, trick = ["2o", "8o", "1b", "5b", "7b"], ["9c", "2c"]
    assert legal(W, OROS, hand, trick) == {"2o", "8o", "1b", "5b", "7b"}
    assert legal(E, OROS, hand, trick) == {"2o", "1b", "5b"}  # counting or lowest of a suit


def test_partner_trumped_no_need_to_over_trump():
    """Opponent led 7c, partner trumped 3o, opponent threw 5c: partner wins."""
    hand, trick = ["2o", "1o", "8b"], ["7c", "3o", "5c"]
    assert legal(W, OROS, hand, trick) == {"2o", "1o", "8b"}
    assert legal(E, OROS, hand, trick) == {"2o", "1o", "8b"}  # 1o counting; 2o, 8b lowest


def test_partner_winning_over_an_opponent_then_fourth_hand_follows_freely():
    hand, trick = ["1c", "8c", "4c"], ["7c", "9c", "3c"]
    assert legal(W, OROS, hand, trick) == {"1c", "8c", "4c"}
    assert legal(E, OROS, hand, trick) == {"1c", "4c"}


# ---------------------------------------------------------------- botifarra (no trumps)
def test_botifarra_following_must_beat():
    assert legal(W, BUTI, ["8c", "2c", "9o"], ["7c"]) == {"8c"}
    assert legal(E, BUTI, ["8c", "2c", "9o"], ["7c"]) == {"8c"}


def test_botifarra_void_plays_anything_western():
    hand, trick = ["2o", "8o", "1b", "5b"], ["7c"]
    assert legal(W, BUTI, hand, trick) == {"2o", "8o", "1b", "5b"}
    # eastern, second player who cannot follow: lowest of a suit or a counting card
    assert legal(E, BUTI, hand, trick) == {"2o", "5b", "1b"}


def test_botifarra_oros_are_not_trumps():
    """On a botifarra the 9 of oros does not beat a 2 of copes led."""
    assert legal(W, BUTI, ["9o", "2b"], ["2c"]) == {"9o", "2b"}


# ---------------------------------------------------------------- rule 3 (eastern only)
def test_second_player_void_may_play_a_counting_card():
    hand, trick = ["1b", "5b", "12e", "8e", "4e"], ["7c"]
    assert legal(W, OROS, hand, trick) == set(hand)
    assert legal(E, OROS, hand, trick) == {"5b", "4e", "1b", "12e"}


def test_second_player_following_lowest_unless_extended_exception():
    hand, trick = ["1c", "12c", "4c"], ["9c"]
    assert legal(E, OROS, hand, trick) == {"4c"}
    assert legal(EX, OROS, hand, trick) == {"1c", "12c", "4c"}
    assert legal(W, OROS, hand, trick) == {"1c", "12c", "4c"}


def test_extended_exception_is_for_the_second_player_only():
    """Third hand (partner led 4c, opponent's 9c wins) must follow with the lowest."""
    hand, trick = ["1c", "12c", "3c"], ["4c", "9c"]
    assert legal(E, OROS, hand, trick) == {"3c"}
    assert legal(EX, OROS, hand, trick) == {"3c"}


def test_fourth_hand_void_and_opponent_winning_plays_lowest_of_a_suit():
    hand, trick = ["1b", "5b", "12e", "4e"], ["9c", "2c", "1c"]  # opp 9c, partner 2c, opp 1c
    assert legal(E, BUTI, hand, trick) == {"5b", "4e"}
    assert legal(EX, BUTI, hand, trick) == {"5b", "4e"}
    assert legal(W, BUTI, hand, trick) == set(hand)


def test_eastern_partner_winning_follows_with_counting_or_lowest():
    """E2 reversed: the 8 is neither counting nor lowest; the 10 (Sota) counts."""
    hand, trick = ["10c", "8c", "6c"], ["9c", "2c"]
    assert legal(E, OROS, hand, trick) == {"10c", "6c"}
    assert legal(W, OROS, hand, trick) == set(hand)


@pytest.mark.parametrize("options", [W, E, EX])
def test_a_single_card_is_always_legal(options):
    assert legal(options, OROS, ["5e"], ["9c", "1c", "12c"]) == {"5e"}
