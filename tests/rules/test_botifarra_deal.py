"""Dealing, the hidden hand of the dealer's partner, the trump choice and the
doubling ladder (rules/botifarra.md §3-4)."""

import pytest

from app.rules import IllegalAction, apply, legal_actions, new_game, observe
from app.rules.botifarra import TABLE


def deck_for(hands: list[list[str]], dealer: int) -> list[str]:
    """The deck order that deals ``hands`` (12 cards per seat) with ``dealer`` (§3)."""
    deck = []
    for k in range(12):
        seat = (dealer + 1 + k) % 4
        j = k // 4
        deck.extend(hands[seat][4 * j : 4 * j + 4])
    return deck


def dealt(dealer=3, options=None, deck=None):
    s = new_game("botifarra", options or {}, dealer=dealer)
    return apply(s, {"type": "deal", "deck": deck or list(TABLE.deck)})


def act(s, *actions):
    for a in actions:
        s = apply(s, a)
    return s


PASS = {"type": "pass"}


def test_deal_mapping_four_at_a_time_from_the_seat_after_the_dealer():
    deck = list(TABLE.deck)
    s = dealt(dealer=3, deck=deck)
    s = act(s, {"type": "trump", "suit": "o"})
    for seat in range(4):
        expected = {deck[i] for i in range(48) if (3 + 1 + i // 4) % 4 == seat}
        assert set(observe(s, seat)["hand"]) == expected
    # 0-3 to d+1 = seat 0, 12-15 to the dealer, 44-47 to the dealer
    assert set(deck[0:4]) <= set(observe(s, 0)["hand"])
    assert set(deck[12:16] + deck[44:48]) <= set(observe(s, 3)["hand"])
    assert observe(s, None)["hand_counts"] == [12, 12, 12, 12]
    assert observe(s, None)["turned"] is None and observe(s, None)["stock_count"] == 0


def test_deck_must_be_a_permutation():
    s = new_game("botifarra", {}, dealer=0)
    with pytest.raises(IllegalAction, match="48 cards"):
        apply(s, {"type": "deal", "deck": list(TABLE.deck)[:47] + ["1o"]})


def test_dealers_partner_cannot_see_his_hand_until_the_choice():
    s = dealt(dealer=3)
    v = observe(s, 1)
    assert v["hand"] is None and v["hand_hidden"] is True
    assert observe(s, 3)["hand_hidden"] is False and len(observe(s, 3)["hand"]) == 12
    assert len(observe(s, 0)["hand"]) == 12
    assert observe(s, None)["hand_hidden"] is False
    after = act(s, {"type": "trump", "suit": "c"})
    assert len(observe(after, 1)["hand"]) == 12 and observe(after, 1)["hand_hidden"] is False
    delegated = act(s, {"type": "delegate"})
    assert len(observe(delegated, 1)["hand"]) == 12


def test_dealer_chooses_a_suit_botifarra_or_delegates():
    s = dealt(dealer=3)
    assert observe(s, None)["to_act"] == 3 and observe(s, None)["choice_step"] == "choose"
    assert legal_actions(s) == [
        {"type": "trump", "suit": "o"},
        {"type": "trump", "suit": "c"},
        {"type": "trump", "suit": "e"},
        {"type": "trump", "suit": "b"},
        {"type": "botifarra"},
        {"type": "delegate"},
    ]


def test_delegate_once_then_partner_must_choose():
    s = act(dealt(dealer=3), {"type": "delegate"})
    v = observe(s, None)
    assert v["to_act"] == 1 and v["delegated"] is True
    assert {"type": "delegate"} not in legal_actions(s)
    with pytest.raises(IllegalAction, match="cannot delegate it back"):
        apply(s, {"type": "delegate"})
    s = act(s, {"type": "botifarra"})
    c = observe(s, None)["contract"]
    assert c["chooser"] == 1 and c["chooser_team"] == 1 and c["delegated"] is True
    assert c["trump"] is None and c["botifarra"] is True and c["multiplier"] == 2
    # the defenders are asked from the seat after the trump maker: seat 2, then seat 0
    assert observe(s, None)["to_act"] == 2 and observe(s, None)["trump_maker"] == 1


def test_bad_choices_are_explained():
    s = dealt(dealer=0)
    with pytest.raises(IllegalAction, match="name a trump suit"):
        apply(s, {"type": "trump", "suit": "x"})
    with pytest.raises(IllegalAction, match="choose trumps"):
        apply(s, {"type": "double"})
    with pytest.raises(IllegalAction, match="choose trumps"):
        apply(s, {"type": "play", "card": "1o"})


def test_both_defenders_pass_and_play_begins_with_the_seat_after_the_dealer():
    s = act(dealt(dealer=3), {"type": "trump", "suit": "e"})
    assert observe(s, None)["to_act"] == 0 and legal_actions(s) == [{"type": "double"}, PASS]
    s = act(s, PASS)
    assert observe(s, None)["to_act"] == 2
    s = act(s, PASS)
    v = observe(s, None)
    assert v["phase"] == "play" and v["to_act"] == 0 and v["leader"] == 0
    assert v["multiplier"] == 1 and v["doublings"] == 0


def test_lead_is_the_seat_after_the_dealer_even_when_the_partner_chose():
    s = act(dealt(dealer=3), {"type": "delegate"}, {"type": "trump", "suit": "o"}, PASS, PASS)
    assert observe(s, None)["to_act"] == 0


def test_full_ladder_in_seat_order_2_4_8():
    """Dealer 0 chooses: contrar asked 1 then 3; 3 doubles; recontrar asked 0 then 2;
    2 redoubles; Sant Vicenç asked 3 then 1; 1 says it. ×8 and play begins."""
    s = act(dealt(dealer=0), {"type": "trump", "suit": "b"})
    assert observe(s, None)["to_act"] == 1
    s = act(s, PASS)
    assert observe(s, None)["to_act"] == 3
    s = act(s, {"type": "double"})
    v = observe(s, None)
    assert v["choice_step"] == "recontrar" and v["to_act"] == 0 and v["multiplier"] == 2
    assert legal_actions(s) == [{"type": "redouble"}, PASS]
    s = act(s, PASS)
    assert observe(s, None)["to_act"] == 2
    s = act(s, {"type": "redouble"})
    v = observe(s, None)
    assert v["choice_step"] == "sant_vicenc" and v["to_act"] == 3 and v["multiplier"] == 4
    s = act(s, PASS, {"type": "sant_vicenc"})
    v = observe(s, None)
    assert (
        v["phase"] == "play" and v["doublings"] == 3 and v["multiplier"] == 8 and v["to_act"] == 1
    )
    assert [(a["seat"], a["type"]) for a in v["auction"]] == [
        (0, "trump"),
        (1, "pass"),
        (3, "double"),
        (0, "pass"),
        (2, "redouble"),
        (3, "pass"),
        (1, "sant_vicenc"),
    ]


def test_choosing_pair_passes_the_redouble():
    s = act(dealt(dealer=0), {"type": "trump", "suit": "b"}, {"type": "double"}, PASS, PASS)
    v = observe(s, None)
    assert v["phase"] == "play" and v["multiplier"] == 2


def test_wrong_step_is_explained():
    s = act(dealt(dealer=0), {"type": "trump", "suit": "b"})
    with pytest.raises(IllegalAction, match="double \\(contrar\\) or pass"):
        apply(s, {"type": "redouble"})
    s = act(s, {"type": "double"})
    with pytest.raises(IllegalAction, match="redouble \\(recontrar\\) or pass"):
        apply(s, {"type": "double"})


@pytest.mark.parametrize("scale, multipliers", [("2-4-8", [1, 2, 4, 8]), ("2-3-4", [1, 2, 3, 4])])
def test_doubling_scale_on_a_suit(scale, multipliers):
    s = act(dealt(dealer=0, options={"doubling_scale": scale}), {"type": "trump", "suit": "c"})
    seen = [observe(s, None)["multiplier"]]
    for word in ("double", "redouble", "sant_vicenc"):
        s = act(s, {"type": word})
        seen.append(observe(s, None)["multiplier"])
    assert seen == multipliers


@pytest.mark.parametrize("scale, multipliers", [("2-4-8", [2, 4, 8, 16]), ("2-3-4", [2, 4, 6, 8])])
def test_doubling_scale_on_botifarra(scale, multipliers):
    s = act(dealt(dealer=0, options={"doubling_scale": scale}), {"type": "botifarra"})
    seen = [observe(s, None)["multiplier"]]
    for word in ("double", "redouble", "sant_vicenc"):
        s = act(s, {"type": word})
        seen.append(observe(s, None)["multiplier"])
    assert seen == multipliers
    assert observe(s, None)["phase"] == "play"


def test_no_sant_vicenc_on_botifarra_with_the_option_off():
    s = act(
        dealt(dealer=0, options={"sant_vicenc_on_botifarra": False}),
        {"type": "botifarra"},
        {"type": "double"},
        {"type": "redouble"},
    )
    v = observe(s, None)
    assert v["phase"] == "play" and v["multiplier"] == 8 and v["doublings"] == 2
    # on a suit the third step still exists
    s = act(
        dealt(dealer=0, options={"sant_vicenc_on_botifarra": False}),
        {"type": "trump", "suit": "o"},
        {"type": "double"},
        {"type": "redouble"},
    )
    assert observe(s, None)["choice_step"] == "sant_vicenc"


def test_contract_is_public_with_the_engine_common_names():
    s = act(dealt(dealer=2), {"type": "trump", "suit": "o"})
    c = observe(s, 0)["contract"]
    assert c == {
        "trump": "o",
        "botifarra": False,
        "chooser": 2,
        "chooser_team": 0,
        "taker": 2,
        "taker_team": 0,
        "delegated": False,
        "doublings": 0,
        "multiplier": 1,
    }
