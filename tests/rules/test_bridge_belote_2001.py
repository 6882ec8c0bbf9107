"""Bridge-Belote "as the 2001 program": options ``runs_and_fours_one_contest`` and
``at_least_one_point`` (rules/bridge-belote.md §5, §7, §10; docs/rules-bridge-belote-notes.md),
through score_deal and through a real deal, each both ways.

The two rules, as the 2001 program plays them:

(a) declarations are ONE contest over runs and fours together: the higher value first
    (tierce 20, quarte 50, quint 100 for 5 to 8 cards, four J 200, four 9 150, four A T
    K Q 100), a four beats a run of equal value, then the top card; the winner scores
    all its runs and fours, the other team none; an exact tie cancels all of them.
(b) on a made contract, a side that took any points scores at least 1 game point,
    taken from the leader (the declarers).

Expected values are worked out by hand from those rules and the §7 rounding table.
"""

from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from app.rules import IllegalAction, apply, legal_actions, new_game, observe, score_deal
from app.rules.bridge_belote_contract import TABLE
from app.rules.bridge_belote_scoring import contest_key

GAME = "bridge-belote"
ONE = {"runs_and_fours_one_contest": True}
MIN1 = {"at_least_one_point": True}
BOTH = {**ONE, **MIN1}


def seq(length, top, suit):
    return {"kind": "sequence", "length": length, "top": top, "suit": suit}


def four(rank):
    return {"kind": "four", "rank": rank}


def summary(
    kind="suit",
    trump="S",
    dec=0,
    cp=(90, 62),
    tricks=(5, 3),
    last=0,
    decl=([], []),
    belote=(0, 0),
    carried=0,
    m=1,
):
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


def declarations_points(decl, options, **kw):
    return score_deal(GAME, options, summary(decl=decl, **kw))["detail"]["declarations"]


# ---------------------------------------------------------------------- (a) one contest
def test_both_options_are_off_by_default():
    r = score_deal(GAME, {}, summary(decl=([seq(5, "J", "H")], [four("K")])))
    # §5 default: runs and fours are compared apart, so both teams score theirs.
    assert r["detail"]["declarations"] == [100, 100]
    assert "minimum_point" not in r["detail"]  # the default result keeps its shape


def test_a_four_beats_a_run_of_equal_value():
    # team 0: quint 7-J of hearts (100) and tierce 7-9 of spades (20); team 1: four K (100).
    # One contest: 100 against 100, the four beats the run of equal value -> team 1
    # scores its four, team 0 nothing (not even its tierce): [0, 100].
    # Default (§5): runs alone -> team 0 120; fours alone -> team 1 100: [120, 100].
    decl = ([seq(5, "J", "H"), seq(3, "9", "S")], [four("K")])
    assert declarations_points(decl, ONE) == [0, 100]
    assert declarations_points(decl, {}) == [120, 100]


def test_a_higher_valued_four_beats_a_quint():
    # quint T-A of hearts (100) against four 9 (150): the value decides first -> [0, 150].
    # Default: [100, 150].
    decl = ([seq(5, "A", "H")], [four("9")])
    assert declarations_points(decl, ONE) == [0, 150]
    assert declarations_points(decl, {}) == [100, 150]


def test_a_higher_run_beats_the_other_sides_runs_and_a_lone_four_cannot_be_beaten_by_a_run():
    # quint 7-J of hearts (100) beats quarte Q-A of clubs (50) and tierce 7-9 of diamonds:
    # team 0 writes 100, team 1 nothing.
    decl = ([seq(5, "J", "H")], [seq(4, "A", "C"), seq(3, "9", "D")])
    assert declarations_points(decl, ONE) == [100, 0]
    # A run worth more than a four is only the run of 8 at 120 (eight_card_run_120):
    # its key is above the best four of 100 (the four A). No real deal holds both, since a
    # run of 8 takes a whole suit and a four needs a card of every suit.
    eight = contest_key(seq(8, "A", "C"), eight_card_run_120=True)
    assert eight > contest_key(four("A"), eight_card_run_120=True)
    assert contest_key(seq(8, "A", "C"), eight_card_run_120=False) < contest_key(four("Q"), False)


def test_equal_value_runs_are_decided_by_the_top_card():
    # quint T-A of hearts (100, top A) against run of 6 8-K of clubs (100, top K): the A is
    # higher, so team 0 scores its quint and its tierce 7-9 of spades: 100 + 20 = 120.
    decl = ([seq(5, "A", "H"), seq(3, "9", "S")], [seq(6, "K", "C"), seq(4, "A", "D")])
    assert declarations_points(decl, ONE) == [120, 0]


def test_equal_value_fours_are_decided_by_the_four_order():
    # four T and four K against four A (all 100): A is the highest of the three
    # (J > 9 > A > T > K > Q) -> team 1 writes 100, team 0 nothing.
    assert declarations_points(([four("T"), four("K")], [four("A")]), ONE) == [0, 100]


def test_an_exact_tie_cancels_every_declaration_but_not_the_belots():
    # quint T-A of hearts (100, top A) and run of 7 8-A of clubs (100, top A): an exact tie.
    # Every run of both teams goes (team 0's tierce 7-9 of spades too); the trump belot of
    # team 1 (K and Q of diamonds, trumps) always counts: 20.
    decl = ([seq(5, "A", "H"), seq(3, "9", "S")], [seq(7, "A", "C")])
    r = score_deal(GAME, ONE, summary(trump="D", decl=decl, belote=(0, 1)))
    assert r["detail"]["declarations"] == [0, 0]
    assert r["detail"]["belote"] == [0, 20]
    assert r["detail"]["run_winner"] is None and r["detail"]["four_winner"] is None


def test_the_winner_scores_all_its_declarations_even_below_the_others_best():
    # team 0: four J (200) and tierce Q-A of hearts (20); team 1: quarte 7-T of diamonds (50)
    # and tierce 7-9 of clubs (20). Four J is the best declaration: team 0 scores
    # 200 + 20 = 220, its tierce included though below team 1's quarte; team 1 nothing.
    # Default (§5): fours -> team 0 200; runs -> team 1's quarte wins, 50 + 20 = 70.
    decl = ([four("J"), seq(3, "A", "H")], [seq(4, "T", "D"), seq(3, "9", "C")])
    assert declarations_points(decl, ONE) == [220, 0]
    assert declarations_points(decl, {}) == [200, 70]
    r = score_deal(GAME, ONE, summary(decl=decl))
    assert r["detail"]["run_winner"] == 0 and r["detail"]["four_winner"] == 0


def test_one_contest_moves_the_raw_points_and_the_score():
    # ♠ by team 0, card points [90, 62], 5-3 tricks, last trick team 0 (E1 of §11), with
    # team 0 quint 7-J of hearts and team 1 four K.
    # Option on: raw [100, 62 + 100] = [100, 162]: team 0 is inside, team 1 writes
    # round(262 / 10) = 26.
    # Default: raw [200, 162]: made; 200 -> 20, 162 (fewer, digit 2) -> 16: [20, 16].
    decl = ([seq(5, "J", "H")], [four("K")])
    on = score_deal(GAME, ONE, summary(decl=decl))
    assert on["detail"]["raw"] == [100, 162]
    assert on["points"] == [0, 26] and on["outcome"] == "inside"
    off = score_deal(GAME, {}, summary(decl=decl))
    assert off["points"] == [20, 16] and off["outcome"] == "made"


# ---------------------------------------------------------------------- (b) at least one point
def test_defenders_four_raw_points_write_1_taken_from_the_declarers():
    # ♠ by team 0, card points [148, 4], tricks 7-1, last trick team 0: raw [158, 4].
    # §7: 158 -> 16 (digit 8 up), 4 -> 0 (digit 4 down); R = round(162 / 10) = 16.
    # Option: the defenders took points, so they write 1, and the declarers 16 - 1 = 15.
    s = summary(cp=(148, 4), tricks=(7, 1))
    assert score_deal(GAME, {}, s)["points"] == [16, 0]
    r = score_deal(GAME, MIN1, s)
    assert r["points"] == [15, 1] and r["outcome"] == "made"
    assert r["detail"]["rounded"] == [16, 0]  # the §7 table itself is unchanged
    assert r["detail"]["minimum_point"] == 1


def test_the_point_comes_from_the_declarers_before_the_pool():
    # The same deal with 5 hanging points coming in: the declarers write 15 + 5 = 20.
    r = score_deal(GAME, MIN1, summary(cp=(148, 4), tricks=(7, 1), carried=5))
    assert r["points"] == [20, 1] and r["carried_out"] == 0


def test_declarers_team_1_give_the_point():
    # ♥ by team 1, card points [3, 149], tricks 1-7, last trick team 1: raw [3, 159].
    # §7: 3 -> 0, 159 -> 16; option: [1, 15].
    s = summary(trump="H", dec=1, cp=(3, 149), tricks=(1, 7), last=1)
    assert score_deal(GAME, MIN1, s)["points"] == [1, 15]


def test_no_trumps_and_all_trumps():
    # NT: card points [118, 2], 7-1, last team 0: raw [2 × 128, 2 × 2] = [256, 4];
    # 256 -> 26 (digit 6 up), 4 -> 0 (NT: 0-4 down); R = 26. Option: [25, 1].
    nt = summary(kind="no_trumps", trump=None, cp=(118, 2), tricks=(7, 1))
    assert score_deal(GAME, {}, nt)["points"] == [26, 0]
    assert score_deal(GAME, MIN1, nt)["points"] == [25, 1]
    # AT: card points [245, 3]: raw [255, 3]; 255 -> 26 (digit 5 up), 3 -> 0; option [25, 1].
    at = summary(kind="all_trumps", trump=None, cp=(245, 3), tricks=(7, 1))
    assert score_deal(GAME, MIN1, at)["points"] == [25, 1]
    # AT: card points [244, 4]: raw [254, 4]; digit 4: the team with more rounds down (25),
    # the team with fewer up (1). Already 1: the option changes nothing.
    at4 = summary(kind="all_trumps", trump=None, cp=(244, 4), tricks=(7, 1))
    assert score_deal(GAME, {}, at4)["points"] == [25, 1]
    r = score_deal(GAME, MIN1, at4)
    assert r["points"] == [25, 1] and r["detail"]["minimum_point"] is None


def test_a_side_with_no_points_stays_at_zero():
    # AT, card points [248, 0], tricks 7-1 (a trick of 7s and 8s), last trick team 0:
    # raw [258, 0]; team 1 took no points: 0 either way; 258 -> 26.
    s = summary(kind="all_trumps", trump=None, cp=(248, 0), tricks=(7, 1))
    assert score_deal(GAME, MIN1, s)["points"] == [26, 0]
    # A capot: ♠ [152, 0], 8-0: raw [252, 0] -> [25, 0] either way.
    capot = summary(cp=(152, 0), tricks=(8, 0))
    assert score_deal(GAME, MIN1, capot)["points"] == [25, 0]


def test_a_capoted_side_with_declarations_rounds_as_usual():
    # ♥ capot by team 0, team 1 declared a tierce: raw [252, 20] -> [25, 2]; 2 >= 1 already.
    s = summary(trump="H", cp=(152, 0), tricks=(8, 0), decl=([], [seq(3, "T", "C")]))
    assert score_deal(GAME, MIN1, s)["points"] == [25, 2]


def test_inside_and_doubled_deals_are_all_or_nothing_as_before():
    # Inside: ♠ by team 0, card points [3, 149], tricks 1-7, last trick team 1: raw [3, 159];
    # the defenders write all 16; the declarers' 3 raw points give them nothing.
    inside = summary(cp=(3, 149), tricks=(1, 7), last=1)
    assert score_deal(GAME, MIN1, inside)["points"] == [0, 16]
    # Contra made: raw [158, 4] -> team 0 writes 16 × 2 = 32, team 1 nothing (§7: the side
    # with more raw points writes the whole deal × m).
    doubled = summary(cp=(148, 4), tricks=(7, 1), m=2)
    assert score_deal(GAME, MIN1, doubled)["points"] == [32, 0]
    # A capot under contra scored as undoubled (capot_multiplied_by_contra off) is a made
    # undoubled deal; the capoted side took nothing: [25, 0].
    capot = summary(cp=(152, 0), tricks=(8, 0), m=2)
    options = {**MIN1, "capot_multiplied_by_contra": False}
    assert score_deal(GAME, options, capot)["points"] == [25, 0]


# ---------------------------------------------------------------------- the real deal flow
def deck_for(hands):
    """The deck giving ``hands[i]`` to seat i when seat 3 deals (§3: 3, 2, then 3 each)."""
    deck = []
    for lo, n in ((0, 3), (3, 2), (5, 3)):
        for h in hands:
            deck += h[lo : lo + n]
    assert sorted(deck) == sorted(TABLE.deck)
    return deck


def deal_and_bid(options, hands, contract):
    s = apply(new_game(GAME, options, dealer=3), {"type": "deal", "deck": deck_for(hands)})
    s = apply(s, {"type": "bid", "contract": contract})
    for _ in range(3):
        s = apply(s, {"type": "pass"})
    return s


def play_deal(s, choose):
    while s.phase == "play":
        s = apply(s, choose(s, legal_actions(s)))
    return s


CONTEST_HANDS = [
    ["7H", "8H", "9H", "TH", "JH", "7S", "8S", "9S"],  # quint 7-J ♥, tierce 7-9 ♠
    ["KS", "KH", "KD", "KC", "7D", "9D", "7C", "9C"],  # four K, no run
    ["TS", "JS", "QH", "AH", "8D", "TD", "8C", "TC"],  # no run, no four
    ["QS", "AS", "JD", "QD", "AD", "JC", "QC", "AC"],  # no run, no four
]


def declare_all_first_hand(s, acts):
    """Seats 0 and 1 declare everything they can; the others nothing; then any card."""
    declares = [a for a in acts if a["type"] == "declare"]
    if declares:
        return max(declares, key=lambda a: len(a["combinations"]) * (s.to_act in (0, 1)))
    return next(a for a in acts if not a.get("belote"))


def test_one_contest_in_a_played_deal():
    # Seat 0 (team 0) declares quint 7-J ♥ and tierce 7-9 ♠, seat 1 (team 1) four K.
    # On: the four K beats the quint of equal value -> declarations [0, 100].
    # Off (§5): runs and fours apart -> [120, 100].
    for options, expected in ((ONE, [0, 100]), ({}, [120, 100])):
        s = deal_and_bid(options, CONTEST_HANDS, "C")
        s = play_deal(s, declare_all_first_hand)
        entry = s.sheet[-1]
        declared = entry["summary"]["declarations"]
        assert sorted(map(repr, declared[0])) == sorted(
            map(repr, [seq(5, "J", "H"), seq(3, "9", "S")])
        )
        assert declared[1] == [four("K")]
        assert entry["detail"]["declarations"] == expected
        assert observe(s, None)["options"]["runs_and_fours_one_contest"] is (options == ONE)


# ♠ by seat 0. Seat 0 gives away one trick of 3 points (7D, 8D, 9D, QD: the QD wins,
# 3 points) and takes the seven others with his trumps, the last one included.
ONE_TRICK_HANDS = [
    ["JS", "9S", "AS", "TS", "KS", "QS", "8S", "7D"],
    ["8D", "7H", "8H", "9H", "TH", "JH", "QH", "KH"],
    ["9D", "7S", "AH", "7C", "8C", "9C", "TC", "JC"],
    ["QD", "JD", "TD", "KD", "AD", "QC", "KC", "AC"],
]
SEAT0_CARDS = ["7D", "JS", "9S", "AS", "TS", "KS", "QS", "8S"]


def give_one_trick(s, acts):
    """Nobody declares or announces a belot; seat 0 plays SEAT0_CARDS in order, seat 3
    wins trick 1 with the QD; the others play their first legal card."""
    declares = [a for a in acts if a["type"] == "declare"]
    if declares:
        return next(a for a in declares if not a["combinations"])
    plays = [a for a in acts if not a.get("belote")]
    if s.to_act == 0:
        card = SEAT0_CARDS[8 - len(s.hands[0])]
    elif s.to_act == 3 and not s.tricks:
        card = "QD"
    else:
        return plays[0]
    return next(a for a in plays if a["card"] == card)


def test_at_least_one_point_in_a_played_deal():
    # Defenders: card points 3, no last trick -> raw 3; declarers 152 - 3 + 10 = 159.
    # §7: 159 -> 16, 3 -> 0 (R = 16). Option: [15, 1]; default: [16, 0].
    for options, expected in ((MIN1, [15, 1]), ({}, [16, 0])):
        s = play_deal(deal_and_bid(options, ONE_TRICK_HANDS, "S"), give_one_trick)
        entry = s.sheet[-1]
        assert entry["detail"]["raw"] == [159, 3]
        assert entry["summary"]["tricks"] == [7, 1]
        assert entry["points"] == expected and s.scores == expected


# ---------------------------------------------------------------------- property
CANDIDATES = [
    seq(3, "9", "H"),
    seq(4, "A", "H"),
    seq(5, "J", "D"),
    seq(3, "A", "D"),
    seq(6, "K", "C"),
    seq(3, "9", "S"),
    seq(8, "A", "S"),
    four("J"),
    four("9"),
    four("A"),
    four("Q"),
]
TOTAL_CARD_POINTS = {"suit": 152, "all_trumps": 248, "no_trumps": 120}
BASE_RAW = {"suit": 162, "all_trumps": 258, "no_trumps": 260}


@settings(max_examples=300, deadline=None)
@given(
    kind=st.sampled_from(["suit", "all_trumps", "no_trumps"]),
    dec=st.integers(0, 1),
    m=st.sampled_from([1, 1, 2, 4]),
    poor=st.sampled_from([0, 1, None]),
    tricks_poor=st.integers(0, 8),
    small=st.integers(0, 6),
    share=st.floats(0, 1),
    last=st.integers(0, 1),
    carried=st.integers(0, 40),
    decl0=st.lists(st.sampled_from(CANDIDATES), max_size=2, unique_by=repr),
    decl1=st.lists(st.sampled_from(CANDIDATES), max_size=2, unique_by=repr),
    belote=st.tuples(st.integers(0, 1), st.integers(0, 1)),
    extra=st.fixed_dictionaries(
        {"carre_kills_quint": st.booleans(), "eight_card_run_120": st.booleans()}
    ),
)
def test_with_both_options_a_deal_conserves_its_points(
    kind, dec, m, poor, tricks_poor, small, share, last, carried, decl0, decl1, belote, extra
):
    """§7: points written + points left hanging - points carried in = R × m, where
    R = round((raw0 + raw1) / 10) and raw0 + raw1 = 162 / 258 / 260 + counted declarations
    + belots + 90 on a capot; and on a made undoubled deal a side with raw points writes >= 1."""
    total = TOTAL_CARD_POINTS[kind]
    if poor is None:  # any split
        tricks = [tricks_poor, 8 - tricks_poor]
        cp0 = round(share * total)
    else:  # team ``poor`` takes at most 2 tricks and a few card points (the option's case)
        tricks = [0, 0]
        tricks[poor] = tricks_poor % 3
        tricks[1 - poor] = 8 - tricks[poor]
        cp0 = small if tricks[poor] else 0
        cp0 = cp0 if poor == 0 else total - cp0
        last = 1 - poor
        dec = dec if share > 0.9 else 1 - poor  # mostly the poor team defends
        if share < 0.5:  # and often nothing declared
            decl0, decl1 = (decl0, []) if poor == 1 else ([], decl1)
            belote = (belote[0] * poor, belote[1] * (1 - poor))
    cp = [cp0, total - cp0]
    last = last if tricks[last] else 1 - last
    if kind == "no_trumps":
        decl0, decl1, belote = [], [], (0, 0)
    if kind == "suit" and sum(belote) > 1:
        belote = (belote[0], 0)
    s = summary(
        kind=kind,
        trump="H" if kind == "suit" else None,
        dec=dec,
        cp=cp,
        tricks=tricks,
        last=last,
        decl=(decl0, decl1),
        belote=belote,
        carried=carried,
        m=m,
    )
    try:
        r = score_deal(GAME, {**BOTH, **extra}, s)
    except IllegalAction:
        assume(False)
        return
    d = r["detail"]
    event(f"{r['outcome']}, minimum point: {d['minimum_point'] is not None}")
    capot = d["capot"] is not None
    bonus = sum(d["declarations"]) + sum(d["belote"])
    assert sum(d["raw"]) == BASE_RAW[kind] + bonus + (90 if capot else 0)
    total_game = (sum(d["raw"]) + 5) // 10
    assert d["deal_total"] == total_game
    assert sum(r["points"]) + r["carried_out"] - carried == total_game * d["multiplier"]
    assert min(r["points"]) >= 0
    if r["outcome"] == "made" and d["multiplier"] == 1:
        for t in (0, 1):
            own = r["points"][t] - (carried if t == dec else 0)
            assert own >= (1 if d["raw"][t] > 0 else 0)
