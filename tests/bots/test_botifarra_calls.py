"""The learned worth of Botifarra's calls (app/bots/botifarra_calls.py)."""

import random

import pytest

from app.bots import botifarra_calls as calls
from app.bots import choose
from app.rules import GAMES, apply, legal_actions, new_deck, new_game, observe, to_act

# rules/botifarra.md §3: dealer 3 deals four cards at a time from seat 0, so seat 3 holds
# deck 12-15, 28-31 and 44-47.
HAND = ["9o", "1o", "12o", "5o", "2o", "9c", "1c", "4c", "1e", "12e", "3e", "12b"]


def test_hand_features_worked_out_by_hand():
    # oros 9 1 12 5 2, copes 9 1 4, espases 1 12 3, bastos 12: manilles in oros and copes
    # (2), with their As (2), with As and Rei: oros (1); an As without its 9: espases (1);
    # Reis: oros, espases, bastos (3); longest 5, next 3; no void; one singleton (bastos).
    assert calls.hand_features(HAND) == [1, 2, 2, 1, 1, 3, 5, 3, 0, 1]


def test_suit_features_worked_out_by_hand():
    # oros as trumps: the 9, 1 and 12 held, not the 11 or 10; two other trumps (5, 2);
    # five trumps, not six; plain suits: a 9 (copes), with its 1 (copes), a 1 without its
    # 9 (espases), Reis (espases, bastos), no void, a singleton (bastos).
    assert calls.suit_features(HAND, "o") == [1, 1, 1, 1, 0, 0, 2, 1, 0, 1, 1, 1, 2, 0, 1]
    # bastos: only the Rei; the plain suits' 9s of oros and copes, both with their 1s, the
    # espases' 1 alone; Reis of oros and espases.
    assert calls.suit_features(HAND, "b") == [1, 0, 0, 1, 0, 0, 0, 0, 0, 2, 2, 1, 2, 0, 0]


def test_a_double_s_features_add_whether_the_doubler_sits_after_the_maker():
    suit = calls.features("double", HAND, {"type": "double"}, {"trump": "c", "maker_next": True})
    assert suit == [*calls.suit_features(HAND, "c"), 1.0]
    bot = calls.features("double", HAND, {"type": "double"}, {"trump": None, "maker_next": False})
    assert bot == [*calls.hand_features(HAND), 0.0]
    assert calls.model_name("double", {"type": "double"}, True) == "double:bot"
    assert calls.model_name("choose2", {"type": "trump", "suit": "o"}) == "choose2:trump"


def _dealer_view(hand):
    game = GAMES["botifarra"]
    rest = [c for c in game.deck if c not in hand]
    deck = rest[:12] + hand[:4] + rest[12:24] + hand[4:8] + rest[24:36] + hand[8:]
    state = apply(new_game("botifarra", {}, dealer=3), {"type": "deal", "deck": deck})
    return state, observe(state, 3)


def _worth(name, f):
    return sum(w * x for w, x in zip(calls.WEIGHTS[name], f, strict=True))


def _dealer_worths(hand):
    worths = {f"trump {s}": _worth("choose1:trump", calls.suit_features(hand, s)) for s in "oceb"}
    worths["botifarra"] = _worth("choose1:botifarra", calls.hand_features(hand))
    worths["delegate"] = _worth("choose1:delegate", calls.hand_features(hand))
    return worths


def test_the_dealer_names_the_call_predicted_best():
    # the manilla with its As in oros and copes, an As of espases: botifarra (x2) is
    # predicted best (about +31 against +18 for oros), as a player with winners in three
    # suits would call it
    state, view = _dealer_view(HAND)
    assert sorted(view["hand"]) == sorted(HAND) and view["choice_step"] == "choose"
    worths = _dealer_worths(HAND)
    assert max(worths, key=worths.get) == "botifarra"
    assert worths["botifarra"] > worths["trump o"] > worths["delegate"]
    assert calls.choose_call(view, random.Random(1)) == {"type": "botifarra"}
    assert choose("strong", view, random.Random(1)) == {"type": "botifarra"}
    # seven oros from the 9 down to the Sota, nothing above a 6 elsewhere: oros
    long_oros = ["9o", "1o", "12o", "11o", "10o", "5o", "2o", "4c", "3c", "6e", "5e", "4b"]
    _, view = _dealer_view(long_oros)
    worths = _dealer_worths(long_oros)
    assert max(worths, key=worths.get) == "trump o"
    assert calls.choose_call(view, random.Random(1)) == {"type": "trump", "suit": "o"}


def test_a_poor_hand_delegates_and_the_partner_chooses():
    poor = ["2o", "3o", "4c", "5c", "6c", "2e", "3e", "4e", "5b", "6b", "7b", "8b"]
    state, view = _dealer_view(poor)
    worths = {s: _worth("choose1:trump", calls.suit_features(poor, s)) for s in "oceb"}
    delegate = _worth("choose1:delegate", calls.hand_features(poor))
    assert delegate > max(worths.values())
    assert calls.choose_call(view, random.Random(1)) == {"type": "delegate"}
    state = apply(state, {"type": "delegate"})
    view = observe(state, 1)
    assert view["choice_step"] == "choose" and view["delegated"]
    assert calls.choose_call(view, random.Random(1)) in view["legal_actions"]
    assert calls.choose_call(view, random.Random(1))["type"] != "delegate"


def test_a_defender_doubles_only_where_its_model_predicts_a_gain():
    rng = random.Random(7)
    seen = set()
    for i in range(200):
        state = apply(
            new_game("botifarra", {}, dealer=i % 4),
            {"type": "deal", "deck": new_deck("botifarra", rng)},
        )
        state = apply(state, {"type": "trump", "suit": "o"})
        view = observe(state, to_act(state))
        assert {"type": "double"} in view["legal_actions"]
        contract = {"trump": "o", "maker_next": True}
        f = calls.features("double", view["hand"], {"type": "double"}, contract)
        gain = _worth("double:suit", f)
        call = calls.choose_call(view, random.Random(1))
        assert call == ({"type": "double"} if gain > 0 else {"type": "pass"})
        seen.add(call["type"])
    assert seen == {"double", "pass"}


def test_the_fit_finds_each_model_s_weights():
    # Made-up worths, a known sum of each model's features: the fit predicts them.
    rng = random.Random(5)
    deck = GAMES["botifarra"].deck
    truth = {"choose1:trump": [rng.uniform(-9, 9) for _ in range(15)]}
    truth["choose1:delegate"] = [rng.uniform(-9, 9) for _ in range(10)]
    rows = []
    for _ in range(300):
        hand = rng.sample(deck, 12)
        act = rng.choice([{"type": "trump", "suit": rng.choice("oceb")}, {"type": "delegate"}])
        name = calls.model_name("choose1", act)
        worth = _dot(truth[name], calls.features("choose1", hand, act))
        rows.append({"kind": "choose1", "hand": hand, "act": act, "worth": worth})
    weights = calls.fit(rows, ridge=1e-6)
    assert sorted(weights) == ["choose1:delegate", "choose1:trump"]
    for r in rows:
        name = calls.model_name("choose1", r["act"])
        predicted = _dot(weights[name], calls.features("choose1", r["hand"], r["act"]))
        assert predicted == pytest.approx(r["worth"], abs=1e-4)
    with pytest.raises(ValueError):
        calls.fit([])


def _dot(w, f):
    return sum(a * b for a, b in zip(w, f, strict=True))


def test_the_labels_repeat_for_a_seed_and_see_every_kind_of_call():
    rows = list(calls.labels(12, 3))
    assert rows == list(calls.labels(12, 3))
    assert {r["kind"] for r in rows} == {"choose1", "choose2", "double"}
    # the dealer's rows: one per action on offer, six (four suits, botifarra, delegate)
    assert sum(r["kind"] == "choose1" for r in rows) == 12 * 6


def test_the_strong_bot_s_calls_are_legal_through_whole_auctions():
    rng = random.Random(11)
    for i in range(20):
        state = apply(
            new_game("botifarra", {}, dealer=i % 4),
            {"type": "deal", "deck": new_deck("botifarra", rng)},
        )
        while True:
            view = observe(state, to_act(state))
            if view["phase"] != "auction":
                break
            action = choose("strong", view, rng)
            assert action in legal_actions(state)
            state = apply(state, action)
