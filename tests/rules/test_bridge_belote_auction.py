"""The auction of rules/bridge-belote.md §4 and its two options of §10."""

import pytest

from app.rules import IllegalAction, apply, legal_actions, new_game, observe
from app.rules.bridge_belote_contract import TABLE

GAME = "bridge-belote"


def dealt(options=None, dealer=3):
    """A deal in deck order; dealer 3, so seat 0 (team 0) speaks first."""
    return apply(
        new_game(GAME, options or {}, dealer=dealer), {"type": "deal", "deck": list(TABLE.deck)}
    )


def calls(state, *actions):
    for a in actions:
        state = apply(state, a if isinstance(a, dict) else {"type": a})
    return state


def bid(contract):
    return {"type": "bid", "contract": contract}


def types(state):
    return [a["type"] for a in legal_actions(state)]


def test_first_caller_may_bid_any_contract_or_pass():
    assert legal_actions(dealt()) == [bid(b) for b in ("C", "D", "H", "S", "NT", "AT")] + [
        {"type": "pass"}
    ]


def test_a_bid_must_be_strictly_higher():
    s = calls(dealt(), bid("H"))
    assert [a["contract"] for a in legal_actions(s) if a["type"] == "bid"] == ["S", "NT", "AT"]
    with pytest.raises(IllegalAction, match="higher than hearts"):
        apply(s, bid("H"))
    with pytest.raises(IllegalAction, match="name a contract"):
        apply(s, bid("X"))


def test_a_player_who_passed_may_bid_later():
    s = calls(dealt(), "pass", bid("C"), "pass", "pass")
    assert observe(s, None)["to_act"] == 0
    s = calls(s, bid("D"))
    assert observe(s, None)["bidding"]["bid"] == "D"


def test_double_only_the_opponents_undoubled_bid():
    s = calls(dealt(), bid("H"))  # seat 0 bids; seat 1 (opponent) to act
    assert "double" in types(s) and "redouble" not in types(s)
    s = calls(s, "pass")  # seat 2, partner of the bidder, to act
    assert "double" not in types(s)
    with pytest.raises(IllegalAction, match="other side"):
        apply(s, {"type": "double"})
    s = calls(s, "pass", "double")  # seat 3 doubles
    assert observe(s, None)["bidding"] == {
        "bid": "H",
        "bidder": 0,
        "multiplier": 2,
        "doubled_by": 3,
        "redoubled_by": None,
    }
    s = calls(s, "pass")  # seat 0; seat 1 (an opponent) may not double again
    with pytest.raises(IllegalAction, match="already doubled"):
        apply(s, {"type": "double"})


def test_double_and_redouble_in_turn():
    s = calls(dealt(), bid("H"), "double")  # seat 1 doubles seat 0's bid
    v = observe(s, None)["bidding"]
    assert v["multiplier"] == 2 and v["doubled_by"] == 1
    assert "double" not in types(s) and "redouble" in types(s)  # seat 2, the bidder's partner
    s3 = calls(s, "pass")  # seat 3, a doubler: cannot double again nor redouble
    assert "double" not in types(s3) and "redouble" not in types(s3)
    with pytest.raises(IllegalAction, match="redouble only your own side's bid"):
        apply(s3, {"type": "redouble"})


def test_no_double_before_any_bid():
    with pytest.raises(IllegalAction, match="no bid to double"):
        apply(dealt(), {"type": "double"})
    assert "double" not in types(dealt())


def test_three_passes_after_a_bid_end_the_auction():
    s = calls(dealt(), "pass", bid("S"), "pass", "pass")
    assert observe(s, None)["phase"] == "auction"
    s = calls(s, "pass")
    c = observe(s, None)["contract"]
    assert c["kind"] == "suit" and c["trump"] == "S" and c["bidder"] == 1
    assert c["declarer_team"] == 1 and c["multiplier"] == 1
    assert observe(s, None)["hand_counts"] == [8, 8, 8, 8]


def test_three_passes_after_a_double_end_the_auction_doubled():
    s = calls(dealt(), bid("NT"), "double", "pass", "pass", "pass")
    c = observe(s, None)["contract"]
    assert (
        c["kind"] == "no_trumps"
        and c["trump"] is None
        and c["multiplier"] == 2
        and c["doubled_by"] == 1
    )


def test_all_pass_voids_the_deal_next_dealer_deals_and_the_pool_stays():
    s = dealt()
    s.carried = 11  # points hanging from an earlier tie
    s = calls(s, "pass", "pass", "pass", "pass")
    v = observe(s, None)
    assert v["phase"] == "deal" and v["dealer"] == 0
    assert v["sheet"][-1]["void"] is True and v["scores"] == [0, 0]
    assert v["hanging_points"] == 11


def test_escaping_a_contra_by_a_higher_bid_clears_it():
    s = calls(dealt(), bid("H"), "double")
    s = calls(s, bid("S"))  # seat 2, the doubled side, escapes
    b = observe(s, None)["bidding"]
    assert b["bid"] == "S" and b["multiplier"] == 1 and b["doubled_by"] is None
    s = calls(s, "pass", "pass", "pass")
    assert observe(s, None)["contract"]["multiplier"] == 1


def test_the_doubling_side_may_escape_too():
    s = calls(dealt(), bid("H"), "double", "pass", bid("AT"))  # seat 3 outbids
    assert observe(s, None)["bidding"]["multiplier"] == 1


@pytest.mark.parametrize("lock", [False, True])
def test_burgas_contra_lock(lock):
    s = calls(dealt({"burgas_contra_lock": lock}), bid("H"), "double")
    bids = [a for a in legal_actions(s) if a["type"] == "bid"]
    if lock:
        assert types(s) == ["redouble", "pass"] and not bids
        with pytest.raises(IllegalAction, match="Burgas"):
            apply(s, bid("S"))
    else:
        assert [a["contract"] for a in bids] == ["S", "NT", "AT"]
        apply(s, bid("S"))


def test_burgas_lock_before_any_contra_allows_bids():
    s = calls(dealt({"burgas_contra_lock": True}), bid("H"))
    assert "bid" in types(s)


@pytest.mark.parametrize("closes", [True, False])
def test_recontra_closes_auction(closes):
    s = calls(dealt({"recontra_closes_auction": closes}), bid("H"), "double", "redouble")
    v = observe(s, None)
    if closes:
        assert v["phase"] == "play" and v["contract"]["multiplier"] == 4
        assert v["contract"]["redoubled_by"] == 2
    else:
        assert v["phase"] == "auction" and v["bidding"]["multiplier"] == 4 and v["to_act"] == 3
        assert "double" not in types(s) and "redouble" not in types(s)  # no third level
        assert "bid" in types(s)
        s = calls(s, "pass", "pass")
        assert observe(s, None)["phase"] == "auction"
        s = calls(s, "pass")
        assert observe(s, None)["contract"]["multiplier"] == 4


def test_recontra_open_then_escape_clears_it():
    s = calls(dealt({"recontra_closes_auction": False}), bid("H"), "double", "redouble", bid("NT"))
    assert observe(s, None)["bidding"]["multiplier"] == 1


def test_no_third_doubling_level():
    s = calls(dealt({"recontra_closes_auction": False}), bid("H"), "double", "redouble", "pass")
    with pytest.raises(IllegalAction, match="no third level"):
        apply(s, {"type": "redouble"})


def test_all_trumps_cannot_be_outbid():
    s = calls(dealt(), bid("AT"))
    assert types(s) == ["double", "pass"]


def test_unknown_call_is_refused():
    with pytest.raises(IllegalAction, match="during the auction"):
        apply(dealt(), {"type": "play", "card": "7S"})


def test_auction_is_public():
    s = calls(dealt(), bid("C"), "double")
    assert observe(s, 2)["auction"] == [
        {"seat": 0, "type": "bid", "contract": "C"},
        {"seat": 1, "type": "double"},
    ]
