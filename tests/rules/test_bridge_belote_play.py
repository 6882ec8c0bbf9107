"""Declarations, belots, the public view and the match of rules/bridge-belote.md §5, §9."""

import pytest

from app.rules import IllegalAction, apply, is_over, legal_actions, new_game, observe, score_deal
from app.rules.bridge_belote import GAME as RULESET
from app.rules.bridge_belote_contract import TABLE

GAME = "bridge-belote"


def stacked_deck(seat0: list[str], seat1: list[str] = ()) -> list[str]:
    """A deck giving ``seat0`` to seat 0 (and ``seat1`` to seat 1) when seat 3 deals (§3);
    the other seats get the rest in deck order."""
    rest = [c for c in TABLE.deck if c not in seat0 and c not in seat1]
    hands = (
        [list(seat0)]
        + [list(seat1)] * bool(seat1)
        + [rest[8 * i : 8 * i + 8] for i in range(3 - bool(seat1))]
    )
    deck = []
    for lo, n in ((0, 3), (3, 2), (5, 3)):  # 3 each, 2 each, then 3 each after the contract
        for h in hands:
            deck += h[lo : lo + n]
    return deck


def bid_and_pass(options, seat0, contract, seat1=()):
    s = apply(
        new_game(GAME, options, dealer=3), {"type": "deal", "deck": stacked_deck(seat0, seat1)}
    )
    s = apply(s, {"type": "bid", "contract": contract})
    for _ in range(3):
        s = apply(s, {"type": "pass"})
    return s


def play_out(s, prefer=None):
    """Play the deal to its end: each seat the first legal action (``prefer`` picks first if it can)."""
    while s.phase == "play":
        acts = legal_actions(s)
        chosen = prefer(s, acts) if prefer else None
        s = apply(s, chosen or acts[0])
    return s


# ---------------------------------------------------------------------- declarations
def test_declare_prompt_offers_a_four_or_the_run_sharing_its_card():
    seat0 = ["9S", "TS", "JS", "JH", "JD", "JC", "7H", "8D"]
    s = bid_and_pass({}, seat0, "AT")
    acts = legal_actions(s)
    assert all(a["type"] == "declare" for a in acts)
    offered = sorted(repr(a["combinations"]) for a in acts)
    assert offered == sorted(
        repr(c)
        for c in (
            [],
            [{"kind": "four", "rank": "J"}],
            [{"kind": "sequence", "length": 3, "top": "J", "suit": "S"}],
        )
    )
    with pytest.raises(IllegalAction, match="declare"):
        apply(s, {"type": "play", "card": "JS"})
    both = [
        {"kind": "four", "rank": "J"},
        {"kind": "sequence", "length": 3, "top": "J", "suit": "S"},
    ]
    with pytest.raises(IllegalAction, match="do not hold"):
        apply(s, {"type": "declare", "combinations": both})


def test_declared_kinds_public_in_play_cards_after_the_last_trick():
    s = bid_and_pass({}, ["9S", "TS", "JS", "JH", "JD", "JC", "7H", "8D"], "S")
    s = apply(s, {"type": "declare", "combinations": [{"kind": "four", "rank": "J"}]})
    assert legal_actions(s)[0]["type"] == "play"
    for seat in (None, 0, 1):
        assert observe(s, seat)["declarations"] == [
            {"seat": 0, "combinations": [{"kind": "four"}], "shown": False}
        ]
    s = play_out(s)
    assert len(s.tricks) == 8
    shown = observe(s, 1)["declarations"][0]
    assert shown["shown"] is True and set(shown["combinations"][0]["cards"]) == {
        "JS",
        "JH",
        "JD",
        "JC",
    }
    assert s.sheet[-1]["summary"]["declarations"][0] == [{"kind": "four", "rank": "J"}]


def test_no_trumps_has_no_declarations_and_no_belot():
    s = bid_and_pass({}, ["9S", "TS", "JS", "JH", "JD", "JC", "KH", "QH"], "NT")
    acts = legal_actions(s)
    assert acts and all(a["type"] == "play" and set(a) == {"type", "card"} for a in acts)
    with pytest.raises(IllegalAction):
        apply(s, {"type": "play", "card": "KH", "belote": True})
    s = play_out(s)
    assert s.sheet[-1]["summary"]["declarations"] == [[], []] and s.sheet[-1]["summary"][
        "belote"
    ] == [0, 0]


# ---------------------------------------------------------------------- belot
def test_trump_belot_led_and_then_rebelote():
    s = bid_and_pass({}, ["KH", "QH", "7S", "8S", "9S", "7D", "8D", "9D"], "H")
    s = apply(s, {"type": "declare", "combinations": []})
    acts = legal_actions(s)
    assert {"type": "play", "card": "KH", "belote": True} in acts
    assert {"type": "play", "card": "7S", "belote": True} not in acts
    s = apply(s, {"type": "play", "card": "KH", "belote": True})
    assert observe(s, 2)["belote"] == [{"seat": 0, "card": "KH", "rebelote": False}]
    s = play_out(s)
    assert s.sheet[-1]["summary"]["belote"] == [1, 0]
    assert {"seat": 0, "card": "QH", "rebelote": True} in s.belote


def test_trump_belot_when_trumping_a_suit_the_player_lacks():
    s = bid_and_pass({}, ["KH", "QH", "7S", "8S", "9S", "7D", "8D", "9D"], "H")
    state = s.clone()
    state.trick = [(3, "AC")]  # seat 3 led a club; seat 0 has none and must trump
    state.to_act = 0
    state.declared = [[] for _ in range(4)]
    acts = RULESET.legal_actions(state)
    assert {"type": "play", "card": "KH", "belote": True} in acts


def test_all_trumps_belot_not_with_a_discard():
    s = bid_and_pass({}, ["KS", "QS", "7H", "8H", "9H", "7D", "8D", "9D"], "AT")
    state = s.clone()
    state.hands[0] = ["KS", "QS", "7D"]
    state.trick = [(3, "AC")]  # a club led; seat 0 has none and may discard anything
    state.to_act = 0
    state.declared = [[] for _ in range(4)]
    acts = RULESET.legal_actions(state)
    assert {"type": "play", "card": "KS"} in acts
    assert {"type": "play", "card": "KS", "belote": True} not in acts
    with pytest.raises(IllegalAction, match="discard"):
        RULESET.apply(state, {"type": "play", "card": "KS", "belote": True})
    state.trick = [(3, "AS")]  # following suit: allowed
    assert {"type": "play", "card": "KS", "belote": True} in RULESET.legal_actions(state)


def test_all_trumps_four_belots_in_one_hand():
    """Seat 1 holds every J and 9 and leads each suit; seat 0 follows with each K first."""
    seat0 = ["KS", "QS", "KH", "QH", "KD", "QD", "KC", "QC"]
    s = bid_and_pass({}, seat0, "AT", seat1=["JS", "JH", "JD", "JC", "9S", "9H", "9D", "9C"])

    def flag_first(state, acts):
        if state.to_act == 0:
            return next((a for a in acts if a.get("belote")), None)
        return None

    s = play_out(s, flag_first)
    assert s.sheet[-1]["summary"]["belote"] == [4, 0]
    assert s.sheet[-1]["detail"]["belote"] == [80, 0]


# ---------------------------------------------------------------------- match (§9)
def play_match_after(s):
    """Finish the match from a state between deals, first legal action everywhere, a fixed deck."""
    deals = 0
    while not is_over(s) and deals < 50:
        if s.phase == "deal":
            s = apply(s, {"type": "deal", "deck": list(TABLE.deck)})
            deals += 1
        else:
            s = apply(s, legal_actions(s)[0])
    return s


def capot_deal(options):
    """Seat 0 holds the four J and the four 9 in All Trumps and takes every trick: [35, 0]."""
    s = bid_and_pass(options, ["JS", "JH", "JD", "JC", "9S", "9H", "9D", "9C"], "AT")
    s = play_out(s)
    assert s.sheet[-1]["detail"]["capot"] == 0 and s.sheet[-1]["points"] == [35, 0]
    return s


@pytest.mark.parametrize("no_exit", [True, False])
def test_no_exit_on_capot(no_exit):
    s = capot_deal({"target": 30, "no_exit_on_capot": no_exit})
    if not no_exit:
        assert is_over(s) and s.winner == 0
        return
    assert not is_over(s) and s.scores == [35, 0]
    assert observe(s, None)["no_exit_after_capot"] is True
    s = apply(s, {"type": "deal", "deck": list(TABLE.deck)})  # a passed-out deal does not count
    for _ in range(4):
        s = apply(s, {"type": "pass"})
    assert not is_over(s) and observe(s, None)["no_exit_after_capot"] is True
    s = play_match_after(s)
    played = [e for e in s.sheet if not e["void"]]
    assert played[-1]["detail"]["capot"] is None
    assert s.winner == (0 if s.scores[0] > s.scores[1] else 1)


def score_into(state, s):
    """Add one deal's result to a match the way the engine does, and return the winner."""
    r = score_deal(GAME, {}, dict(s, carried_in=state.carried))
    state.scores = [state.scores[i] + r["points"][i] for i in (0, 1)]
    state.carried = r["carried_out"]
    state.sheet.append({"void": False, "detail": r["detail"], "points": r["points"]})
    return RULESET.match_winner(state)


def suit_summary(trump, dec, cp, tricks, last):
    return {
        "contract": {"kind": "suit", "trump": trump, "declarer_team": dec, "multiplier": 1},
        "card_points": cp,
        "tricks": tricks,
        "last_trick_team": last,
        "declarations": [[], []],
        "belote": [0, 0],
        "carried_in": 0,
        "revoke_team": None,
    }


def test_m1_match_to_151():
    """§11 M1: 140-95, E1 -> 150-101 (play on), then [9, 7] -> 159-108, team 0 wins."""
    state = new_game(GAME, {}, dealer=0)
    state.scores = [140, 95]
    assert score_into(state, suit_summary("S", 0, [90, 62], [5, 3], 0)) is None
    assert state.scores == [150, 101]
    assert score_into(state, suit_summary("H", 0, [79, 73], [5, 3], 0)) == 0
    assert state.scores == [159, 108]


def test_target_option():
    """The same E1 ends a match played to 150."""
    state = new_game(GAME, {"target": 150}, dealer=0)
    state.scores = [140, 95]
    assert score_into(state, suit_summary("S", 0, [90, 62], [5, 3], 0)) == 0


def test_equal_scores_over_the_target_play_on():
    state = new_game(GAME, {}, dealer=0)
    state.scores = [145, 145]
    assert (
        score_into(state, suit_summary("S", 0, [76, 76], [4, 4], 0)) is None
    )  # E2: +8/+8 -> 153-153
    assert state.scores == [153, 153]


def test_hanging_points_do_not_delay_the_end():
    state = new_game(GAME, {}, dealer=0)
    state.scores = [150, 100]
    state.carried = 0
    assert score_into(state, suit_summary("S", 0, [71, 81], [4, 4], 0)) is None  # E4: 0/8, 8 hang
    assert state.scores == [150, 108] and state.carried == 8
    state.scores = [145, 100]
    assert score_into(state, suit_summary("S", 0, [90, 62], [5, 3], 0)) == 0  # +10 + 8 hanging
    assert state.scores == [163, 106] and state.carried == 0
