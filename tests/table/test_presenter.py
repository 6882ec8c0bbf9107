"""What the table draws from a view (app/table/presenter.py, app/web/cards.py), without a browser."""

from __future__ import annotations

import json
import random

from app import rules
from app.table import labels, presenter, sheets
from app.web import cards


def _seats(kinds: list[str]) -> list[dict]:
    return [
        {
            "seat": i,
            "kind": k,
            "name": "Pepa" if k == "person" else ("heuristic bot" if k == "bot" else None),
            "bot": "heuristic" if k == "bot" else None,
            "user_id": 1 if k == "person" else None,
        }
        for i, k in enumerate(kinds)
    ]


def _view(seat: int | None, seed: int = 1) -> dict:
    state = rules.new_game("bolot", {}, dealer=3)
    state = rules.apply(
        state, {"type": "deal", "deck": rules.new_deck("bolot", random.Random(seed))}
    )
    view = rules.observe(state, seat)
    view.update(status="playing", seats=_seats(["person", "bot", "bot", "bot"]), my_seat=seat)
    return view


def test_card_names_for_labels() -> None:
    assert cards.card_name("10c") == "10 of copes"
    assert cards.card_long_name("10c") == "Sota de copes (10)"
    # Catalan elides "de" before a vowel: oros and espases.
    assert cards.card_long_name("11o") == "Cavall d'oros (11)"
    assert cards.card_long_name("1e") == "As d'espases (1)"
    assert cards.card_long_name("12b") == "Rei de bastos (12)"
    assert cards.card_name("TS") == "10 of spades"
    assert cards.card_name("JH") == "Jack of hearts"
    assert cards.card_image("10e") == "/static/cards/es/10e.svg"
    assert cards.card_image("JH", four_colour=True) == "/static/cards/fr4/JH.svg"


def test_declaration_labels_follow_rules_bolot_5() -> None:
    seq = {"kind": "sequence", "length": 3, "top": "9", "suit": "c"}
    assert labels.declaration_label("bolot", seq) == "Tercera 9 de copes"
    assert (
        labels.declaration_label("bolot", {"kind": "four", "rank": "10"}) == "Dos-cents (four 10s)"
    )
    assert labels.declaration_label("bolot", {"kind": "four", "rank": "1"}) == "Cent (four 1s)"
    assert labels.declaration_label("bolot", {"kind": "sequence", "length": 4}) == "Cinquanta"
    assert (
        labels.declare_label("bolot", {"type": "declare", "combinations": []}) == "No declarations"
    )
    assert labels.declaration_label("belote", {"kind": "four", "rank": "J"}) == "Carré (four Jacks)"


def test_bidding_words_of_bolot() -> None:
    assert labels.action_label("bolot", {"type": "take"}) == "Vaig"
    assert labels.action_label("bolot", {"type": "take", "suit": "e"}) == "Vaig a espases"
    assert labels.action_label("bolot", {"type": "pass"}) == "No vaig"
    assert labels.action_label("bridge-belote", {"type": "bid", "contract": "NT"}) == "No trumps"
    assert labels.action_label("newgame", {"type": "shout_loudly"}) == "Shout loudly"


def test_seats_are_drawn_from_the_viewers_chair() -> None:
    t = presenter.table(_view(2))
    where = {s["seat"]: s["pos"] for s in t["seats"]}
    # Play goes to the right (counter-clockwise): the next seat sits on the right.
    assert where == {2: "bottom", 3: "right", 0: "top", 1: "left"}
    assert t["teams"][0] == "You & Pepa"
    names = {s["seat"]: s["name"] for s in t["seats"]}
    assert names[1] == "Bot 2" and names[3] == "Bot 4"


def test_everybody_sees_a_stand_in_bot_playing_for_a_person() -> None:
    # After too many timeouts the seat stays the person's (kind "person") with a stand-in.
    view = _view(2)
    view["seats"][0].update(bot="heuristic", stand_in=True)
    seat = {s["seat"]: s for s in presenter.table(view)["seats"]}[0]
    assert seat["bot"] == "heuristic" and seat["stand_in"] is True
    assert {s["seat"]: s for s in presenter.table(_view(2))["seats"]}[0]["bot"] is None


def test_auction_buttons_are_exactly_the_legal_actions() -> None:
    view = _view(0)  # dealer 3: seat 0 is the eldest hand and speaks first
    assert view["to_act"] == 0
    t = presenter.table(view)
    posted = [json.loads(c["json"]) for c in t["actions"]["calls"]]
    assert posted == view["legal_actions"]
    # Round 1 names the turned card's suit on the take button.
    suit = cards.suit_name(view["turned"][-1])
    assert [c["label"] for c in t["actions"]["calls"]] == [f"Vaig ({suit})", "No vaig"]
    assert t["actions"]["calls"][0]["suit_img"]
    assert t["status"] == "Your turn to bid"
    assert not any(c["playable"] for c in t["hand"])


def test_spectator_gets_no_hand_and_no_buttons() -> None:
    t = presenter.table(_view(None))
    assert t["spectator"] and t["hand"] == []
    assert t["actions"] == {"plays": {}, "plain_alternatives": [], "declares": [], "calls": []}


def test_bolot_is_said_by_default_and_the_plain_play_is_offered_apart() -> None:
    view = _view(0)
    view.update(
        phase="play",
        legal_actions=[
            {"type": "play", "card": "12o"},
            {"type": "play", "card": "12o", "bolot": True},
            {"type": "play", "card": "7c"},
        ],
        hand=["12o", "7c"],
        to_act=0,
    )
    t = presenter.table(view)
    by_card = {c["card"]: c for c in t["hand"]}
    assert json.loads(by_card["12o"]["json"]) == {"type": "play", "card": "12o", "bolot": True}
    assert by_card["12o"]["says_belote"]
    assert json.loads(by_card["7c"]["json"]) == {"type": "play", "card": "7c"}
    alt = t["actions"]["plain_alternatives"]
    assert [json.loads(a["json"]) for a in alt] == [{"type": "play", "card": "12o"}]
    assert "without saying Bolot" in alt[0]["label"]


def test_deal_result_breakdown() -> None:
    view = _view(0)
    view["last_deal"] = {
        "deal": 1,
        "void": False,
        "points": [0, 162],
        "outcome": "failed",
        "contract": {"trump": "o", "taker": 0, "taker_team": 0, "round": 1},
        "detail": {
            "card_points": [71, 81],
            "last_trick_team": 1,
            "capot": None,
            "declarations": [0, 0],
            "belote": [0, 0],
            "totals": [71, 91],
            "points_in_play": 162,
            "needed": 82,
        },
    }
    result = presenter.table(view)["result"]
    rows = {r[0]: r[1:] for r in result["rows"]}
    assert rows["Card points"] == [71, 81]
    assert rows["Last trick (últimes)"] == [0, 10]
    assert rows["Total"] == [71, 91]
    assert "llocs" in result["headline"]


def _public(view: dict) -> set[str]:
    """Cards any viewer may see now: on the table, turned, announced or shown declarations."""
    cards_seen = {t["card"] for t in view.get("trick") or []}
    cards_seen |= {t["card"] for t in (view.get("last_trick") or {}).get("cards", [])}
    cards_seen |= {b["card"] for b in view.get("belote") or [] if b.get("card")}
    cards_seen |= {view["turned"]} if view.get("turned") else set()
    for d in view.get("declarations") or []:
        for c in d.get("combinations") or []:
            cards_seen |= set(c.get("cards") or [])
    return cards_seen


def test_every_game_renders_for_every_seat_and_spectator() -> None:
    """The table is driven by the view only: each game's views, all the way through
    some random deals, render for each seat and for a spectator without error, and
    a seat's page never names a card of another seat's hand."""
    from app.table.rendering import render_fragments

    rng = random.Random(7)
    for game_id, game in rules.GAMES.items():
        state = rules.new_game(game_id, {}, dealer=0)
        for _step in range(160):
            if rules.is_over(state):
                break
            if rules.needs_deal(state):
                state = rules.apply(state, {"type": "deal", "deck": rules.new_deck(game_id, rng)})
                continue
            if _step % 16 == 0:
                views = {s: rules.observe(state, s) for s in (*range(game.players), None)}
                for seat, view in views.items():
                    view.update(
                        id=1,
                        status="playing",
                        game_name=game.name,
                        my_seat=seat,
                        seats=_seats(["person"] + ["bot"] * (game.players - 1)),
                    )
                    html = render_fragments(view, None, "token")
                    assert 'id="room-main"' in html
                    if seat is None:
                        assert 'data-testid="hand"' not in html
                        continue
                    for other in range(game.players):
                        if other == seat:
                            continue
                        hidden = (
                            set(views[other]["hand"] or [])
                            - set(view["hand"] or [])
                            - _public(view)
                        )
                        for card in hidden:
                            assert f"/{card}.svg" not in html, (game_id, seat, card)
            state = rules.apply(state, rng.choice(rules.legal_actions(state)))


def _game_view(game: str, seat: int, pred, seed: int = 3, steps: int = 3000) -> dict:
    """Play ``game`` with heuristic bots until ``pred(view of seat)``; that view, with room info."""
    from app.bots import choose

    rng = random.Random(seed)
    g = rules.GAMES[game]
    state = rules.new_game(game, {}, dealer=0)
    for _ in range(steps):
        if rules.needs_deal(state):
            state = rules.apply(state, {"type": "deal", "deck": rules.new_deck(game, rng)})
            continue
        view = rules.observe(state, seat)
        if pred(view):
            view.update(
                status="playing", my_seat=seat, seats=_seats(["person"] + ["bot"] * (g.players - 1))
            )
            return view
        actor = rules.to_act(state)
        state = rules.apply(state, choose("heuristic", rules.observe(state, actor), rng))
    raise AssertionError(f"{game}: the wanted moment never came")


def test_bridge_belote_bidding_panel_enables_exactly_the_legal_calls() -> None:
    view = _game_view(
        "bridge-belote",
        0,
        lambda v: (
            v["phase"] == "auction" and v["to_act"] == 0 and (v.get("bidding") or {}).get("bid")
        ),
    )
    panel = presenter.table(view)["panel"]
    assert panel["kind"] == "bidding"
    assert [b["key"] for b in panel["buttons"]] == [
        "C",
        "D",
        "H",
        "S",
        "NT",
        "AT",
        "pass",
        "double",
        "redouble",
    ]
    enabled = [json.loads(b["json"]) for b in panel["buttons"] if b["json"]]
    assert sorted(map(presenter.action_json, enabled)) == sorted(
        map(presenter.action_json, view["legal_actions"])
    )
    assert panel["bidder"] is not None and panel["bid_label"]


def test_botifarra_choice_and_the_partners_face_down_hand() -> None:
    view = _game_view("botifarra", 2, lambda v: bool(v.get("hand_hidden")))  # dealer 0, partner 2
    t = presenter.table(view)
    assert t["hidden_hand"] == 12 and t["hand"] == []
    dealer = _game_view(
        "botifarra", 0, lambda v: v["to_act"] == 0 and v.get("choice_step") == "choose"
    )
    panel = presenter.table(dealer)["panel"]
    assert panel["kind"] == "choice" and {c["kind"] for c in panel["calls"]} == {
        "trump",
        "botifarra",
        "delegate",
    }


def test_a_match_ended_at_the_doubling_asks_nothing_more() -> None:
    # resigned while a defender is asked "Contrar?" (rules/botifarra.md §4): the finished
    # table shows no step of the choice
    view = _game_view("botifarra", 1, lambda v: v.get("choice_step") == "contrar")
    assert presenter.table(view)["panel"]["kind"] == "choice"
    view.update(status="finished", ended={"reason": "resigned", "resigned_seat": 1})
    assert presenter.table(view)["panel"] is None


def test_the_status_names_the_redouble_and_sant_vicenc_steps() -> None:
    # rules/botifarra.md §4: the dealer (0) names oros, seat 1 doubles; the choosing pair
    # is asked to redouble from the seat after the doubler (2); after a redouble the
    # defenders are asked for Sant Vicenç from the seat after it (3)
    rng = random.Random(2)
    state = rules.new_game("botifarra", {}, dealer=0)
    state = rules.apply(state, {"type": "deal", "deck": rules.new_deck("botifarra", rng)})
    state = rules.apply(state, {"type": "trump", "suit": "o"})
    state = rules.apply(state, {"type": "double"})

    def status(seat: int) -> str:
        view = rules.observe(state, seat)
        view.update(status="playing", my_seat=seat, seats=_seats(["person", "bot", "bot", "bot"]))
        return presenter.table(view)["status"]

    assert rules.to_act(state) == 2
    assert status(2) == "Your turn: redouble or pass"
    assert status(0).endswith(": redouble or pass") and status(0).startswith("Waiting for")
    state = rules.apply(state, {"type": "redouble"})
    assert rules.to_act(state) == 3
    assert status(3) == "Your turn: Sant Vicenç or pass"
    assert status(1).endswith(": Sant Vicenç or pass")


def test_belote_for_two_shows_the_stock_and_the_bottom_card() -> None:
    view = _game_view("belote-2p", 0, lambda v: v["phase"] == "play")
    t = presenter.table(view)
    assert t["players"] == 2 and [s["pos"] for s in t["seats"]] == ["bottom", "top"]
    assert t["panel"]["kind"] == "stock" and t["panel"]["bottom"] and t["panel"]["turned"]
    assert t["panel"]["stock"] == view["stock_count"]


def test_belote_for_two_shows_the_undrawn_stock_as_out_of_play() -> None:
    """rules/belote.md §3 (2p): 12 + 1 (retourne) + 6 = 19 cards are left after the first
    twelve; after the bidding 6 more are dealt and the bottom card is turned, so 12 stay
    face down all deal and nobody draws them: the table shows them as out of play."""
    from app.table.rendering import render_fragments

    auction = _game_view("belote-2p", 0, lambda v: v["phase"] == "auction")
    auction.update(id=1, game_name="Belote for two")
    assert auction["stock_count"] == 19
    html = render_fragments(auction, None, "token")
    assert "Stock 19" in html and 'data-testid="out-of-play"' not in html
    play = _game_view("belote-2p", 0, lambda v: v["phase"] == "play")
    play.update(id=1, game_name="Belote for two")
    assert play["stock_count"] == 12 and presenter.table(play)["panel"]["dealt_from"] is False
    html = render_fragments(play, None, "token")
    assert "Out of play: 12" in html and "Stock 12" not in html
    assert "12 cards out of play, never drawn" in html


def test_bridge_belote_sheet_shows_raw_points_and_rounding() -> None:
    view = _game_view("bridge-belote", 0, lambda v: any(not e["void"] for e in v["sheet"]))
    t = presenter.table(view)
    assert t["sheet"]["columns"][:4] == ["#", "Contract", "Raw", "Pts"]
    entry = next(e for e in view["sheet"] if not e["void"])
    row = t["sheet"]["rows"][entry["deal"] - 1]
    raw = entry["detail"]["raw"]
    assert row["cells"][2]["text"] == f"{raw[0]}–{raw[1]}"
    labels = [r[0] for r in t["result"]["rows"]] if t["result"] and not t["result"]["void"] else []
    assert not labels or ("Raw points" in labels and "Rounded (÷ 10)" in labels)


def test_choice_options_have_readable_labels() -> None:
    from app.table.rendering import games_for_form, parse_options

    belote = next(g for g in games_for_form() if g["id"] == "belote")
    tie = next(o for o in belote["options"] if o["name"] == "tie_rule")
    assert dict(tie["choice_labels"])["fail"] == "the takers fail (dedans)"
    # Bolot says llocs, and its "half" gives the defenders their own points (rules/bolot.md §10)
    bolot = next(g for g in games_for_form() if g["id"] == "bolot")
    words = dict(next(o for o in bolot["options"] if o["name"] == "tie_rule")["choice_labels"])
    assert words == {
        "fail": "the takers are llocs: the defenders score everything",
        "half": "the defenders score their own points, the takers nothing",
    }
    assert parse_options("botifarra", {"opt_target": ["51"], "opt_variant": ["eastern"]}) == {
        "target": 51,
        "variant": "eastern",
    }


def test_botifarra_headline_says_who_scores_and_how_without_llocs() -> None:
    from app.table import sheets

    last = {
        "deal": 3,
        "void": False,
        "points": [0, 22],
        "outcome": "failed",
        "contract": {"trump": "o", "chooser": 0, "chooser_team": 0, "multiplier": 2},
        "detail": {"totals": [25, 47], "card_points": [20, 40], "tricks": [5, 7], "multiplier": 2},
    }
    result = sheets.deal_result({"game": "botifarra", "last_deal": last}, ["Pair A", "Pair B"])
    assert result is not None
    headline = result["headline"]
    assert "llocs" not in headline and "defenders" not in headline
    assert headline == "Pair B score 22 (= (7 tricks + 40 card points − 36) × 2)."


def test_belote_result_shows_the_defenders_total_to_beat_not_a_needed_figure() -> None:
    from app.table import sheets

    last = {
        "deal": 1,
        "void": False,
        "points": [111, 51],
        "outcome": "made",
        "contract": {"trump": "H", "taker": 0, "taker_team": 0},
        "detail": {
            "totals": [111, 51],
            "card_points": [101, 51],
            "last_trick_team": 0,
            "capot": None,
            "declarations": [0, 0],
            "belote": [0, 0],
            "points_in_play": 162,
            "needed": 52,
            "taker_team": 0,
        },
    }
    result = sheets.deal_result({"game": "belote", "last_deal": last}, ["Us", "Them"])
    assert result is not None
    assert result["needed"] is None and result["defenders"] == 51
    assert result["headline"] == "Us made it: 111, more than Them's 51."


def test_the_viewer_is_you_when_winning_a_trick() -> None:
    view = _view(0)
    view["phase"] = "play"
    view["last_trick"] = {
        "cards": [{"seat": s, "card": c} for s, c in enumerate(view["hand"][:4])],
        "winner": 0,
    }
    t = presenter.table(view)
    assert t["last_trick"]["winner"] == "You" and t["last_trick"]["winner_me"]


def test_bridge_belote_no_trumps_breakdown_shows_the_doubling() -> None:
    from app.table import sheets

    last = {
        "deal": 1,
        "void": False,
        "points": [22, 4],
        "outcome": "made",
        "contract": {"kind": "no_trumps", "trump": None, "declarer_team": 0, "multiplier": 1},
        "detail": {
            "card_points": [100, 20],
            "last_trick_team": 0,
            "raw": [220, 40],
            "rounded": [22, 4],
        },
    }
    result = sheets.deal_result({"game": "bridge-belote", "last_deal": last}, ["Us", "Them"])
    assert result is not None
    rows = {r[0]: r[1:] for r in result["rows"]}
    assert rows["× 2 (no trumps)"] == [220, 40]


def test_between_deals_no_seat_wears_the_next_deals_dealer_chip() -> None:
    """In phase "deal" the view already names the next dealer (seat 0 after dealer 3)
    while the table still shows the finished deal: no dealer or eldest chip then."""
    view = _view(2)
    assert presenter.table(view)["seats"][3]["dealer"] is True  # deal in progress: dealer 3
    view.update(phase="deal", dealer=0, to_act=None, legal_actions=[])
    seats = presenter.table(view)["seats"]
    assert [s["dealer"] for s in seats] == [False] * 4
    assert [s["role"] for s in seats] == [None] * 4


def test_the_seven_of_trumps_question_is_named_and_no_bid_bubble_is_left() -> None:
    # belote-2p (rules/belote.md §3): after a take in round 1 the holder of the 7 of trumps
    # is asked about the exchange; the table must not still say "Your turn to bid".
    for seed in range(500):
        state = rules.new_game("belote-2p", {}, dealer=1)
        state = rules.apply(
            state, {"type": "deal", "deck": rules.new_deck("belote-2p", random.Random(seed))}
        )
        state = rules.apply(state, {"type": "take"})
        if any(a["type"] == "exchange" for a in rules.legal_actions(state)):
            break
    else:
        raise AssertionError("no deal with the exchange in 500 seeds")
    holder = rules.observe(state, None)["to_act"]
    for seat in (0, 1):
        view = rules.observe(state, seat)
        view.update(status="playing", seats=_seats(["person", "bot"]), my_seat=seat)
        t = presenter.table(view)
        if seat == holder:
            assert t["status"] == "Your turn: swap your 7 of trumps for the turned card?"
        else:
            assert t["status"].startswith("Waiting for ") and t["status"].endswith(
                ": swap the 7 of trumps?"
            )
        assert all(s["call"] is None for s in t["seats"])


def test_a_claim_below_the_target_is_offered_quietly() -> None:
    # rules/belote.md §6: a claim whose total is under the target loses the match.
    rng = random.Random(4)
    state = rules.new_game("belote-2p", {}, dealer=1)
    state = rules.apply(state, {"type": "deal", "deck": rules.new_deck("belote-2p", rng)})
    while not any(a["type"] == "claim" for a in rules.legal_actions(state)):
        actions = [a for a in rules.legal_actions(state) if a["type"] not in ("claim", "deal")]
        state = rules.apply(state, rng.choice(actions))
    seat = rules.observe(state, None)["to_act"]
    view = rules.observe(state, seat)
    view.update(status="playing", seats=_seats(["person", "bot"]), my_seat=seat)
    claim = next(c for c in presenter.table(view)["actions"]["calls"] if c["kind"] == "claim")
    total = view["claim_totals"][seat]
    assert total < 1000  # the first deal of a match to 1000: no claim can be right yet
    assert claim["short"] is True and claim["label"] == f"I'm done: claim {total} of 1000"


def test_botifarra_has_no_bidding_in_its_status_line() -> None:
    # rules/botifarra.md §4: the dealer chooses trumps, then the doubling
    state = rules.new_game("botifarra", {}, dealer=3)
    state = rules.apply(
        state, {"type": "deal", "deck": rules.new_deck("botifarra", random.Random(1))}
    )
    seats = _seats(["person", "bot", "bot", "person"])

    def status(seat: int) -> str:
        view = rules.observe(state, seat)
        view.update(status="playing", seats=seats, my_seat=seat)
        return presenter.table(view)["status"]

    assert status(3) == "Your turn to choose trumps"
    assert status(0) == "Waiting for Pepa to choose trumps"
    state = rules.apply(state, {"type": "trump", "suit": "o"})  # seat 0 (opponents) may double
    assert status(0) == "Your turn: double or pass"
    assert status(3) == "Waiting for Pepa: double or pass"
    assert labels.action_label("botifarra", {"type": "pass"}) == "Pass"


def test_an_unplayable_card_posts_its_play_to_learn_the_rule() -> None:
    # On the player's turn a greyed card still sends {"type": "play"} so that the server
    # answers with the rule that forbids it; outside the turn no card sends anything.
    rng = random.Random(7)
    state = rules.new_game("bolot", {}, dealer=3)
    state = rules.apply(state, {"type": "deal", "deck": rules.new_deck("bolot", rng)})
    while True:
        view = rules.observe(state, None)
        seat = view["to_act"]
        if view["phase"] == "play":
            mine = rules.observe(state, seat)
            playable = {a["card"] for a in mine["legal_actions"] if a["type"] == "play"}
            if 0 < len(playable) < len(mine["hand"]):
                break
        state = rules.apply(state, rng.choice(rules.legal_actions(state)))
    mine.update(status="playing", seats=_seats(["person"] * 4), my_seat=seat)
    hand = presenter.table(mine)["hand"]
    barred = [c for c in hand if not c["playable"]]
    assert barred and all(
        json.loads(c["json"]) == {"type": "play", "card": c["card"]} for c in barred
    )
    other = (seat + 1) % 4
    theirs = rules.observe(state, other)
    theirs.update(status="playing", seats=_seats(["person"] * 4), my_seat=other)
    assert all(c["json"] is None for c in presenter.table(theirs)["hand"])


def test_bridge_belote_result_shows_the_point_given_by_at_least_one_point() -> None:
    """Option at_least_one_point (docs/rules-bridge-belote-notes.md): ♠ by team 0, card points
    [148, 4], tricks 7-1, last trick team 0 -> raw [158, 4], rounded [16, 0] (§7), written
    [15, 1]; the breakdown says where the point came from."""
    contract = {"kind": "suit", "trump": "S", "declarer_team": 0, "multiplier": 1}
    r = rules.score_deal(
        "bridge-belote",
        {"at_least_one_point": True},
        {
            "contract": contract,
            "card_points": [148, 4],
            "tricks": [7, 1],
            "last_trick_team": 0,
            "declarations": [[], []],
            "belote": [0, 0],
            "carried_in": 0,
            "revoke_team": None,
        },
    )
    last = {"deal": 1, "void": False, "contract": contract, **r}
    result = sheets.deal_result({"game": "bridge-belote", "last_deal": last}, ["Us", "Them"])
    assert result is not None
    rows = {row[0]: row[1:] for row in result["rows"]}
    assert rows["Rounded (÷ 10)"] == [16, 0]
    assert rows["At least 1 point"] == ["−1", "+1"]
    assert result["points"] == [15, 1]


def _belote_3p_view(seat: int | None, summary: dict, options: dict | None = None) -> dict:
    """A belote-3p view whose last deal is scored from ``summary`` (rules/belote-3p.md §8)."""
    scored = rules.score_deal("belote-3p", options or {}, summary)
    entry = {
        "deal": 1,
        "dealer": 0,
        "void": False,
        "contract": {"trump": "H", "taker": 1, "taker_team": 1, "round": 1},
        "points": scored["points"],
        "outcome": scored["outcome"],
        "detail": scored["detail"],
        "carried_out": 0,
        "scores_after": scored["points"],
    }
    view = rules.observe(rules.new_game("belote-3p", options or {}, dealer=1), seat)
    view.update(
        status="playing",
        seats=_seats(["person", "bot", "bot"]),
        my_seat=seat,
        sheet=[entry],
        last_deal=entry,
        scores=scored["points"],
    )
    return view


def test_belote_for_three_is_drawn_with_three_players_each_for_himself() -> None:
    """rules/belote-3p.md: the viewer at the bottom, the next seat right, the other left;
    three names in the score bar, the breakdown and the sheet have a column per player.
    §11 T2: the taker (seat 1) fails, the defenders share 162 (81 each)."""
    summary = {
        "contract": {"trump": "H", "taker": 1, "eldest": 1},
        "card_points": [55, 50, 47],
        "tricks": [3, 3, 2],
        "last_trick_player": 0,
    }
    t = presenter.table(_belote_3p_view(0, summary))
    assert [s["pos"] for s in t["seats"]] == ["bottom", "right", "left"]
    assert t["sides"] == 3 and t["solo"] and len(t["teams"]) == 3 and t["teams"][0] == "You"
    assert t["teams_short"] == t["teams"]
    result = t["result"]
    assert result["points"] == [81, 0, 81]
    assert all(len(row) == 4 for row in result["rows"])  # label + three players
    assert ["Total", 65, 50, 47] in result["rows"]
    assert result["headline"] == "Bot 2 failed: dedans, all 162 points to the defenders."
    sheet_row = t["sheet"]["rows"][0]["cells"]
    assert [c["text"] for c in sheet_row[-3:]] == ["81", "0", "81"]
    assert sheet_row[-2]["cls"] == "took"  # seat 1 took the contract
    # T6: seat 0 is capot; the capot's 100 is shared by seats 1 and 2
    capot = {
        "contract": {"trump": "H", "taker": 1, "eldest": 1},
        "card_points": [0, 100, 52],
        "tricks": [0, 5, 3],
        "last_trick_player": 1,
    }
    rows = presenter.table(_belote_3p_view(2, capot))["result"]["rows"]
    assert ["Capot (100 shared)", 0, 50, 50] in rows


def _contree_result(
    contract: dict,
    cp: list[int],
    tricks: list[int],
    last: int,
    belote: list[int],
    **options: object,
) -> dict:
    """The end-of-deal box of a contrée deal scored from its summary (rules/contree.md §8);
    team 0 ("Us") takes unless ``contract`` says otherwise."""
    summary = {
        "contract": {"trump": "H", "taker_team": 0, "eldest_team": 1, **contract},
        "card_points": cp,
        "tricks": tricks,
        "last_trick_team": last,
        "declarations": [[], []],
        "belote": belote,
    }
    scored = rules.score_deal("contree", options, summary)
    entry = {
        "deal": 1,
        "void": False,
        "contract": {"trump": "H", "bidder": 0, "taker_team": 0, **contract},
        "points": scored["points"],
        "outcome": scored["outcome"],
        "detail": scored["detail"],
        "carried_out": scored["carried_out"],
    }
    result = sheets.deal_result({"game": "contree", "last_deal": entry}, ["Us", "Them"])
    assert result is not None
    return result


def test_contree_result_names_the_contract_its_coinche_and_the_outcome() -> None:
    """rules/contree.md §11, trumps hearts, team 0 ("Us") bid, `ffb` preset: the box's
    title is the contract as bid (§4: "110 ♥"), coinched by the defenders (§1: only an
    opponent of the bid coinches), then made or failed (§7), not a "needed" figure."""
    # C1: 100, 97 + 10 = 107 >= 100, made: [210, 60]
    made = _contree_result({"bid": 100, "coinche": 0}, [97, 55], [5, 3], 0, [0, 0])
    assert made["points"] == [210, 60]
    assert made["headline"] == "100 ♥ by Us: made."
    # C6: 130 coinched, 112 < 130, failed: (160 + 130) × 2 + the belote 20 = 600
    c6 = _contree_result({"bid": 130, "coinche": 1}, [112, 40], [6, 2], 1, [0, 1])
    assert c6["points"] == [0, 600]
    assert c6["headline"] == "130 ♥ by Us, coinched by Them: failed, the deal goes to Them."
    # C5: 90 coinched, 105 >= 90, made: (160 + 90) × 2 = 500
    c5 = _contree_result({"bid": 90, "coinche": 1}, [95, 57], [5, 3], 0, [0, 0])
    assert c5["points"] == [500, 0]
    assert c5["headline"] == "90 ♥ by Us, coinched by Them: made."
    # C8: 140 surcoinched, 110 < 140: (160 + 140) × 4 = 1200 to the defenders
    c8 = _contree_result({"bid": 140, "coinche": 2}, [100, 52], [5, 3], 0, [0, 0])
    assert c8["points"] == [0, 1200]
    assert c8["headline"] == (
        "140 ♥ by Us, coinched by Them and surcoinched: failed, the deal goes to Them."
    )
    # C10: a capot bid, one trick lost: flat 500 + the takers' belote (prenable) = 520
    c10 = _contree_result({"bid": "capot", "coinche": 0}, [140, 12], [7, 1], 0, [1, 0])
    assert c10["points"] == [0, 520]
    assert c10["headline"] == "Capot ♥ by Us: failed, the deal goes to Them."
    for result in (made, c6, c5, c8, c10):
        assert "needed" not in result["headline"]


def test_contree_litige_result_says_what_is_held() -> None:
    """rules/contree.md §11 C15 (`coinche`, `tie_rule "litige"`): 80, 81 against 81,
    a tie: the defenders score 81, the takers' 81 are held."""
    c15 = _contree_result(
        {"bid": 80, "coinche": 0}, [71, 81], [4, 4], 0, [0, 0], preset="coinche", tie_rule="litige"
    )
    assert c15["points"] == [0, 81] and c15["outcome"] == "litige"
    assert c15["headline"] == "80 ♥ by Us: litige, 81 points are held for the next deal."


def test_the_table_names_the_deal_in_play_and_the_last_one_as_last() -> None:
    """Issue 17 §7: during deal 3 the side panel said "Deal 2" (the last result). The
    deal in play is the one after the sheet's last entry (docs/engine-face.md ``sheet``);
    between deals the finished one is the table's deal, and its result is "Deal N"."""
    from app.table.rendering import render_fragments

    def with_room(view: dict) -> dict:
        view.update(id=1, game_name="Belote", seats=_seats(["person", "bot", "bot", "bot"]))
        return view

    playing = with_room(
        _game_view("belote", 0, lambda v: len(v["sheet"]) >= 2 and v["phase"] == "play")
    )
    done = len(playing["sheet"])  # deals are numbered 1, 2, ... void ones included
    t = presenter.table(playing)
    assert t["deal_no"] == done + 1 and t["result"]["deal"] == done
    html = render_fragments(playing, None, "token")
    assert f'data-testid="deal-no">Deal {done + 1}<' in html
    assert f"Last deal (deal {done})" in html and f">Deal {done}<" not in html
    assert f'data-testid="deal-now">now deal {done + 1}<' in html
    # between deals: the state right after deal 3 is scored, before the next deal
    from app.bots import choose

    rng = random.Random(5)
    state = rules.new_game("belote", {}, dealer=0)
    while len(rules.observe(state, None)["sheet"]) < 3:
        if rules.needs_deal(state):
            state = rules.apply(state, {"type": "deal", "deck": rules.new_deck("belote", rng)})
            continue
        actor = rules.to_act(state)
        state = rules.apply(state, choose("heuristic", rules.observe(state, actor), rng))
    between = with_room(rules.observe(state, 0))
    between.update(status="playing", my_seat=0)
    assert between["phase"] == "deal"
    t = presenter.table(between)
    assert t["deal_no"] == 3 and t["result"]["deal"] == 3
    html = render_fragments(between, None, "token")
    assert "Last deal" not in html and 'data-testid="deal-now"' not in html
    assert presenter.deal_number({"phase": "deal", "sheet": []}) == 0
    assert presenter.deal_number({"phase": "auction", "sheet": []}) == 1


def test_french_readers_see_the_french_index_letters_r_d_v() -> None:
    """Issue 17 §7: French cards print R (roi), D (dame), V (valet) and A (as) where
    English ones print K, Q, J, A. The pages draw the French court cards from their own
    art; the card codes (KH, QH, JH) do not change."""
    from pathlib import Path

    from app.web import i18n

    static = Path(__file__).resolve().parents[2]
    with i18n.using("fr"):
        assert cards.card_image("KH") == "/static/cards/fr-fr/KH.svg"
        assert cards.card_image("QS", four_colour=True) == "/static/cards/fr4-fr/QS.svg"
        assert cards.card_image("JC") == "/static/cards/fr-fr/JC.svg"
        assert cards.card_image("AH") == "/static/cards/fr/AH.svg"  # as: A as in English
        assert cards.card_image("TD") == "/static/cards/fr/TD.svg"
        assert cards.card_image("10c") == "/static/cards/es/10c.svg"  # Spanish cards: numbers
        assert [cards.rank_label(r) for r in ("J", "Q", "K", "A", "T")] == [
            "V",
            "D",
            "R",
            "A",
            "10",
        ]
    with i18n.using("en"):
        assert cards.card_image("KH") == "/static/cards/fr/KH.svg"
        assert cards.rank_label("K") == "K"
    # the art itself: the corner index of each French court card, top left and upside down
    for code, letter in (("K", "R"), ("Q", "D"), ("J", "V")):
        for folder in ("fr-fr", "fr4-fr"):
            for suit in "SHDC":
                svg = (static / "static" / "cards" / folder / f"{code}{suit}.svg").read_text()
                assert svg.count(f">{letter}</text>") == 2, (folder, code, suit)
                assert f">{code}</text>" not in svg


def test_a_games_own_words_are_explained_where_they_stay_bare() -> None:
    """House rule: "Where a game has its own word, keep it, explained once". English keeps
    Bolot's "Vaig"/"No vaig" (rules/bolot.md §4) and the sheet's "llocs"/"dedans"/"inside"
    bare: they get an explanation (a title, and "· take" on the button until used).
    Catalan players know the words; the French catalogue already says "Je prends (vaig)"."""
    from app.table.rendering import render_fragments
    from app.web import i18n

    view = _game_view(
        "bolot", 0, lambda v: v["phase"] == "auction" and v["to_act"] == 0 and v["legal_actions"]
    )
    view.update(id=1, game_name="Bolot")
    with i18n.using("en"):
        calls = presenter.table(view)["actions"]["calls"]
        take = next(c for c in calls if c["kind"] == "take")
        passing = next(c for c in calls if c["kind"] == "pass")
        assert take["label"].startswith("Vaig") and take["gloss"]["short"] == "take"
        assert "you take the trump" in take["gloss"]["title"]
        assert passing["label"] == "No vaig" and passing["gloss"]["short"] == "pass"
        html = render_fragments(view, None, "token")
        assert '<span class="gloss-once" data-gloss="novaig"> · pass</span>' in html
    for lang in ("ca", "fr"):
        with i18n.using(lang):
            calls = presenter.table(view)["actions"]["calls"]
            assert all(c["gloss"] is None for c in calls), lang
    with i18n.using("en"):
        assert labels.gloss("llocs")["title"].startswith("llocs: the takers failed")
        assert labels.gloss("inside")["title"].startswith("inside: the declarers failed")
        assert labels.gloss("dedans") is not None and labels.gloss("Take") is None
        sheet = sheets.sheet(
            {
                "game": "belote",
                "sheet": [
                    {
                        "deal": 1,
                        "contract": {"trump": "H", "taker_team": 0},
                        "points": [0, 162],
                        "scores_after": [0, 162],
                        "outcome": "failed",
                        "detail": {},
                    }
                ],
            }
        )
        row = sheet["rows"][0]
        assert row["note"] == "dedans" and "the takers failed" in row["note_title"]
    with i18n.using("fr"):
        assert labels.gloss("dedans") is None  # a French word in French


def test_the_rematch_panel_names_who_said_no() -> None:
    """After one "No rematch", the others read who said no (a fresh tester saw the Rematch
    button alone, with no word of it)."""
    view = {
        "status": "finished",
        "ended": {
            "rematch": {"room": None, "seats": {"0": "waiting", "1": "declined", "2": "bot"}}
        },
    }
    names = {0: "Ana", 1: "Ben", 2: "Bot 3"}
    mine = presenter.rematch(view, names, 0)
    assert mine is not None and mine["declined"] == ["Ben"] and mine["mine"] == "waiting"
    theirs = presenter.rematch(view, names, 1)
    assert theirs is not None and theirs["declined"] == []  # their own answer is no news


def test_the_headline_colour_is_the_viewers_news_not_the_contracts() -> None:
    """A failed contract is good news for the defenders (a fresh tester's find: the side
    that won the deal saw its headline in red)."""
    last = {"deal": 3, "void": False, "points": [0, 22], "outcome": "failed"}
    view = {"game": "botifarra", "last_deal": last}
    assert sheets.result_mood(view, 1) == "good"  # the defenders scored 22
    assert sheets.result_mood(view, 0) == "bad"  # the choosers failed
    assert sheets.result_mood(view, None) is None  # a spectator: no side's colour
    # Belote for three, each player a side: the two defenders share a failed contract
    # (rules/belote-3p.md §7), good news for both; the taker's is bad
    three = {"game": "belote-3p", "last_deal": {"points": [0, 81, 81], "outcome": "failed"}}
    assert [sheets.result_mood(three, s) for s in range(3)] == ["bad", "good", "good"]
    level = {"game": "belote", "last_deal": {"points": [80, 80], "outcome": "litige"}}
    assert sheets.result_mood(level, 0) is None
    assert sheets.result_mood({"last_deal": {"void": True, "points": [0, 0]}}, 0) is None
