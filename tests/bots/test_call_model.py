"""The learned worth of a take (app/bots/call_model.py): its features, its fit, its calls."""

import random

import pytest

from app.bots import call_model
from app.rules import GAMES, apply, legal_actions, new_deck, new_game, observe, to_act


def _on(f: list[float]) -> dict[int, float]:
    return {i: x for i, x in enumerate(f) if x}


def test_the_features_of_a_bolot_hand():
    # rules/bolot.md §2: trumps rank 10 9 1 3 12 11 8 7, plain suits 1 3 12 11 10 9 8 7.
    # Trumps oros: the 10 (0), the 9 (1) and the turned 1 (2); plain 1 and 3 of copes (8,
    # 9: the 3 behind its 1, 16), the 7 of espases (15); three trumps (17); no bastos: one
    # void (19); round 1, the eldest hand (21 + 0 + 1).
    cards = ["10o", "9o", "1c", "3c", "7e", "1o"]
    f = call_model.features(GAMES["bolot"], cards, "o", 1, 1)
    assert len(f) == call_model.SIZE
    assert _on(f) == {0: 1, 1: 1, 2: 1, 8: 1, 9: 1, 15: 1, 16: 1, 17: 1, 19: 1, 22: 1}


def test_the_features_of_a_belote_hand_in_round_two():
    # rules/belote.md: trumps rank J 9 A 10 K Q 8 7, plain suits A 10 K Q J 9 8 7. Hearts
    # named in round 2 by the dealer (21 + 4 + 0), the turned card a plain king of clubs:
    # J 9 8 7 of hearts (0, 1, 6, 7), four trumps (17, 18); the plain king (10), the plain
    # 10 of spades without its ace (9, nothing at 16); no diamonds: one void (19).
    cards = ["JH", "9H", "8H", "7H", "TS", "KC"]
    f = call_model.features(GAMES["belote"], cards, "H", 2, 0)
    assert _on(f) == {0: 1, 1: 1, 6: 1, 7: 1, 9: 1, 10: 1, 17: 1, 18: 1, 19: 1, 25: 1}


def test_a_round_or_position_out_of_range_has_no_features():
    with pytest.raises(IndexError):
        call_model.features(GAMES["bolot"], ["10o"], "o", 3, 0)
    with pytest.raises(IndexError):
        call_model.features(GAMES["bolot"], ["10o"], "o", 1, 4)


def test_the_fit_predicts_a_worth_that_is_a_sum_of_its_features():
    # Worths made up as a known sum of the features (the features are not independent: the
    # trumps and plain cards held add up to six, so the weights are not unique, but their
    # predictions are): the fit predicts every row's worth.
    game = GAMES["bolot"]
    rng = random.Random(3)
    truth = [rng.uniform(-30, 30) for _ in range(call_model.SIZE)]
    truth[20] = 0.0  # a feature that is always 0 has no weight to find
    rows = []
    for _ in range(400):
        cards = rng.sample(game.deck, 6)
        row = {"cards": cards, "trump": rng.choice("oceb"), "rnd": rng.choice((1, 2))}
        row["pos"] = rng.randrange(4)
        f = call_model.features(game, cards, row["trump"], row["rnd"], row["pos"])
        row["worth"] = sum(w * x for w, x in zip(truth, f, strict=True))
        rows.append(row)
    weights = call_model.fit("bolot", rows, ridge=1e-6)
    for row in rows:
        f = call_model.features(game, row["cards"], row["trump"], row["rnd"], row["pos"])
        assert sum(w * x for w, x in zip(weights, f, strict=True)) == pytest.approx(
            row["worth"], abs=1e-4
        )
    with pytest.raises(ValueError):
        call_model.fit("bolot", [])


def _auction_view(cards, turned, dealer=3, others=None, game="bolot"):
    """Seat 0's first auction view in Bolot (or ``game``), with ``cards`` (five) and
    ``turned`` (rules/bolot.md §3, rules/belote.md: dealer 3, so seat 0 holds deck 0-2
    and 12-13, deck 20 is turned)."""
    rest = [c for c in GAMES[game].deck if c not in cards + [turned]]
    deck = cards[:3] + rest[:9] + cards[3:] + rest[9:15] + [turned] + rest[15:]
    state = apply(new_game(game, {}, dealer=dealer), {"type": "deal", "deck": deck})
    return state, observe(state, 0)


def test_a_strong_hand_takes_and_a_poor_one_passes():
    w = call_model.WEIGHTS["bolot"]
    # 10 9 1 of trumps with the turned 3 (0-3), two plain 1s (8): four trumps (17, 18),
    # no bastos (19), round 1 eldest (22).
    _, view = _auction_view(["10o", "9o", "1o", "1c", "1e"], "3o")
    worth = w[0] + w[1] + w[2] + w[3] + 2 * w[8] + w[17] + w[18] + w[19] + w[22]
    assert worth > 0
    assert call_model.take_value(view, {"type": "take"}, w) == pytest.approx(worth)
    assert call_model.choose_call(view) == {"type": "take"}
    # the turned 7 the only trump (7), plain 8s and 7s (14, 15), the 12 of espases (10),
    # no bastos (19)
    _, view = _auction_view(["8c", "7c", "8e", "7e", "12e"], "7o")
    worth = w[7] + 2 * w[14] + 2 * w[15] + w[10] + w[19] + w[22]
    assert worth < 0
    assert call_model.take_value(view, {"type": "take"}, w) == pytest.approx(worth)
    assert call_model.choose_call(view) == {"type": "pass"}


def test_belote_s_searched_calls_start_from_the_learned_take():
    # rules/belote.md: trumps rank J 9 A 10 K Q 8 7. A K Q of hearts with the turned 8
    # (2, 4, 5, 6), four trumps (17, 18), the plain 7 of spades and 8 of diamonds (15,
    # 14), no clubs (19), round 1 eldest (22). The heuristic passes it; the learned take
    # is worth more than 0, and the strong bot keeps it while its search has too few deals
    # (strong_auction.MIN_SAMPLES) to prefer another call.
    from app.bots import choose, strong
    from app.bots.strong_auction import MIN_SAMPLES

    _, view = _auction_view(["AH", "KH", "QH", "7S", "8D"], "8H", game="belote")
    w = call_model.WEIGHTS["belote"]
    worth = w[2] + w[4] + w[5] + w[6] + w[15] + w[14] + w[17] + w[18] + w[19] + w[22]
    assert worth == pytest.approx(20.739)
    assert call_model.take_value(view, {"type": "take"}, w) == pytest.approx(worth)
    assert choose("heuristic", view, random.Random(1)) == {"type": "pass"}
    assert "belote" in strong.AUCTION_GAMES and "belote" in strong.LEARNED_CALL_GAMES
    few = {"samples": MIN_SAMPLES - 1, "budget_ms": 10_000}
    assert strong.choose(view, random.Random(1), **few) == {"type": "take"}
    # the arena's strong-bid searches from the heuristic's call
    assert strong.choose(view, random.Random(1), learned=False, **few) == {"type": "pass"}
    # unsearched, Belote has no learned call of its own: the heuristic's
    assert strong.choose(view, random.Random(1), auction=False) == {"type": "pass"}


def test_in_round_two_the_call_names_the_suit_worth_most():
    # Everyone passes round 1 on a turned 7 of oros; then seat 0 may name copes, espases
    # or bastos with 10 9 1 of copes, the 1 of espases and the 8 of bastos.
    state, _ = _auction_view(["10c", "9c", "1c", "1e", "8b"], "7o")
    for _ in range(4):
        state = apply(state, {"type": "pass"})
    view = observe(state, to_act(state))
    assert view["seat"] == 0 and {"type": "take", "suit": "c"} in view["legal_actions"]
    w = call_model.WEIGHTS["bolot"]
    worths = {
        a["suit"]: call_model.take_value(view, a, w)
        for a in view["legal_actions"]
        if a["type"] == "take"
    }
    # copes: 10 9 1 of trumps (0-2), three trumps (17), plain 1 of espases (8), plain 8 of
    # bastos (14), the turned 7 of oros (15), no void; round 2, eldest (21 + 4 + 1)
    assert worths["c"] == pytest.approx(w[0] + w[1] + w[2] + w[17] + w[8] + w[14] + w[15] + w[26])
    assert max(worths, key=worths.get) == "c" and worths["c"] > 0
    assert call_model.choose_call(view) == {"type": "take", "suit": "c"}


def test_the_labels_are_the_same_for_a_seed_and_cover_every_take():
    rows = list(call_model.labels("bolot", 30, seed=5))
    assert rows == list(call_model.labels("bolot", 30, seed=5))
    assert {r["rnd"] for r in rows} == {1, 2}
    assert {r["pos"] for r in rows} == {0, 1, 2, 3}
    for r in rows:
        assert len(r["cards"]) == 6 and r["trump"] in "oceb"
        assert r["rnd"] == 1 or r["trump"] != r["cards"][-1][-1]  # round 2: another suit


def test_the_strong_bot_s_learned_calls_are_legal_through_whole_deals():
    from app.bots import choose

    rng = random.Random(9)
    for _ in range(3):
        state = apply(
            new_game("bolot", {}, dealer=rng.randrange(4)),
            {"type": "deal", "deck": new_deck("bolot", rng)},
        )
        view = observe(state, to_act(state))
        while view["phase"] == "auction":
            action = choose("strong", view, rng)
            assert action in legal_actions(state)
            state = apply(state, action)
            seat = to_act(state)
            if seat is None:
                break
            view = observe(state, seat)
