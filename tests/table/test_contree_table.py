"""What the table shows of Belote contrée (app/table: labels, panels, presenter): the
bidding panel enables exactly the legal calls (rules/contree.md §4), the contract and its
coinche level, the preset."""

from __future__ import annotations

from app import rules
from app.table import labels, panels
from app.web import i18n

DECK = list(rules.GAMES["contree"].deck)


def view_after(*calls: dict, options: dict | None = None) -> dict:
    state = rules.apply(rules.new_game("contree", options or {}, 0), {"type": "deal", "deck": DECK})
    for a in calls:
        state = rules.apply(state, a)
    return rules.observe(state, rules.to_act(state))


def test_the_panel_enables_the_bids_above_the_standing_one_and_coinche() -> None:
    # dealer 0: seat 1 bids 100 spades; seat 2 (an opponent) is asked
    view = view_after({"type": "bid", "value": 100, "suit": "S"})
    with i18n.using("en"):
        p = panels.panel(view, {}, 2, {})
    assert p is not None and p["kind"] == "contree"
    enabled = [v["value"] for v in p["values"] if v["enabled"]]
    assert enabled == [110, 120, 130, 140, 150, 160, "capot"]
    assert [v["value"] for v in p["values"] if v["checked"]] == [110]
    assert all(s["json"] for s in p["suits"])
    calls = {c["key"]: bool(c["json"]) for c in p["calls"]}
    assert calls == {"pass": True, "coinche": True, "surcoinche": False}
    assert p["bid_label"] == "100" and p["bidder"] == "Seat 2"


def test_after_a_coinche_the_doubled_side_may_only_pass_or_surcoinche() -> None:
    view = view_after({"type": "bid", "value": 80, "suit": "S"}, {"type": "coinche"})
    with i18n.using("en"):
        p = panels.panel(view, {}, 3, {})
    assert p is not None
    assert not any(v["enabled"] for v in p["values"]) and not any(s["json"] for s in p["suits"])
    assert {c["key"]: bool(c["json"]) for c in p["calls"]} == {
        "pass": True,
        "coinche": False,
        "surcoinche": True,
    }
    assert p["coinched_by"] == "Seat 3"


def test_the_words_of_calls_contracts_and_presets() -> None:
    with i18n.using("en"):
        assert labels.call_label("contree", {"type": "bid", "value": 80, "suit": "C"}) == "80 ♣"
        assert labels.action_label("contree", {"type": "bid", "value": "capot", "suit": "H"}) == (
            "Capot hearts"
        )
        assert labels.action_label("contree", {"type": "coinche"}) == "Coinche"
        assert labels.contract_words("contree", {"bid": 110, "coinche": 2}) == ("110", "Surcoinche")
        assert labels.contract_words("belote", {"trump": "H"}) is None
        assert labels.preset_words("contree", {})[0] == "ffb"
        assert labels.preset_words("contree", {"preset": "colver"})[0] == "colver"
        assert labels.preset_words("belote", {}) is None
    with i18n.using("fr"):
        assert labels.action_label("contree", {"type": "bid", "value": 90, "suit": "H"}) == (
            "90 à cœur"
        )


def test_the_panel_stays_compact_under_the_coinche_preset() -> None:
    # preset coinche: max_bid 650 (rules/contree.md §10), so §4 allows 80, 90 ... 650 and
    # capot: 58 numbers. Dealer 0: seat 1 bids 100 spades, seat 2 may bid 110 ... 650, capot.
    view = view_after({"type": "bid", "value": 100, "suit": "S"}, options={"preset": "coinche"})
    assert view["options"]["max_bid"] == 650
    with i18n.using("en"):
        p = panels.panel(view, {}, 2, {})
    assert p is not None
    # the next four numbers and capot as chips, the first checked; the rest in the list
    assert [c["value"] for c in p["chips"]] == [110, 120, 130, 140, "capot"]
    assert [c["checked"] for c in p["chips"]] == [True, False, False, False, False]
    assert [m["value"] for m in p["more"]] == list(range(150, 651, 10))
    # exactly the legal values, once each
    legal = [a["value"] for a in view["legal_actions"] if a["type"] == "bid"]
    offered = [c["value"] for c in p["chips"]] + [m["value"] for m in p["more"]]
    assert sorted(map(str, offered)) == sorted({str(v) for v in legal})
    assert len(offered) == len(set(map(str, offered)))


def test_the_panel_under_ffb_near_the_top_and_after_a_coinche() -> None:
    # ffb: max_bid 160 (§10). After 140 hearts only 150, 160, capot remain (§4): all chips.
    view = view_after({"type": "bid", "value": 140, "suit": "H"})
    with i18n.using("en"):
        p = panels.panel(view, {}, 2, {})
    assert p is not None
    assert [c["value"] for c in p["chips"]] == [150, 160, "capot"] and p["more"] == []
    # after a coinche no bid is legal (§4): neither chips nor list
    view = view_after({"type": "bid", "value": 80, "suit": "S"}, {"type": "coinche"})
    with i18n.using("en"):
        p = panels.panel(view, {}, 3, {})
    assert p is not None and p["chips"] == [] and p["more"] == []


def test_the_preset_label_says_modified_when_an_option_differs() -> None:
    # §10: ffb fixes rounding half_up and surcoinche x4; a room with none and x3 is not ffb
    ffb = rules.GAMES["contree"].validate_options({"preset": "ffb"})
    with i18n.using("en"):
        assert labels.preset_words("contree", ffb) == ("ffb", "FFB contrée (2016)")
        changed = rules.GAMES["contree"].validate_options(
            {"preset": "ffb", "rounding": "none", "surcoinche_multiplier": 3}
        )
        short, words = labels.preset_words("contree", changed) or ("", "")
        assert short == "ffb, modified"
        assert words.startswith("FFB contrée (2016), modified: ")
        assert "A surcoinche multiplies by: 3" in words and "Rounding of trick points" in words
        # coinche's own values (max_bid 650, rounding none) are the preset: not modified
        coinche = rules.GAMES["contree"].validate_options({"preset": "coinche"})
        assert labels.preset_words("contree", coinche)[0] == "coinche"  # type: ignore[index]


def _deal_played(options: dict, *calls: dict) -> dict:
    """A contrée deal: the given calls, then the first legal action each time (passes
    end the auction, then any card) to the end of the deal; the view of seat 0."""
    state = rules.apply(rules.new_game("contree", options, 0), {"type": "deal", "deck": DECK})
    for a in calls:
        state = rules.apply(state, a)
    while not rules.observe(state, 0).get("sheet"):
        seat = rules.to_act(state)
        legal = rules.observe(state, seat)["legal_actions"]
        passes = [a for a in legal if a["type"] == "pass"]
        state = rules.apply(state, passes[0] if passes else legal[0])
    return rules.observe(state, 0)


def test_the_score_sheet_shows_the_contract_and_its_coinche_level() -> None:
    from app.table import sheets

    # dealer 0: seat 1 bids 80 spades, seat 2 coinches, seat 1 surcoinches (§4): the
    # bidding ends; surcoinche multiplies by 4 under ffb, by 3 under colver (§7, §10)
    calls = (
        {"type": "bid", "value": 80, "suit": "S"},
        {"type": "coinche"},
        {"type": "surcoinche"},
    )
    for preset, times in (("ffb", "×4"), ("colver", "×3")):
        view = _deal_played({"preset": preset}, *calls)
        with i18n.using("en"):
            s = sheets.sheet(view)
        assert s["columns"][1] == "Contract"
        cell = s["rows"][0]["cells"][1]
        assert cell["lead"] == "80" and cell["text"] == times
        assert cell["alt"] == "spades"
        assert cell["title"] == f"80 ♠ Surcoinche {times}"
    # a plain contract: the value alone; coinched only: ×2
    view = _deal_played({}, {"type": "bid", "value": 90, "suit": "H"})
    with i18n.using("en"):
        cell = sheets.sheet(view)["rows"][0]["cells"][1]
    assert cell["lead"] == "90" and cell["text"] == "" and cell["title"] == "90 ♥"
    view = _deal_played({}, {"type": "bid", "value": 90, "suit": "H"}, {"type": "coinche"})
    with i18n.using("en"):
        cell = sheets.sheet(view)["rows"][0]["cells"][1]
    assert cell["text"] == "×2" and cell["title"] == "90 ♥ Coinche ×2"


def test_a_seat_says_a_coinche_short() -> None:
    # §7: a coinche multiplies by 2, a surcoinche by 4 (ffb) or 3 (colver, §10)
    with i18n.using("en"):
        assert labels.call_label("contree", {"type": "coinche"}) == "×2"
        assert (
            labels.call_label("contree", {"type": "surcoinche"}, {"surcoinche_multiplier": 4})
            == "×4"
        )
        assert (
            labels.call_label("contree", {"type": "surcoinche"}, {"surcoinche_multiplier": 3})
            == "×3"
        )
        assert labels.call_label("contree", {"type": "pass"}) == "Pass"


def test_no_list_of_a_single_higher_value() -> None:
    # ffb (max_bid 160, §10): after 110, 120 ... 160 remain (§4): five numbers, all chips
    view = view_after({"type": "bid", "value": 110, "suit": "S"})
    with i18n.using("en"):
        p = panels.panel(view, {}, 2, {})
    assert p is not None
    assert [c["value"] for c in p["chips"]] == [120, 130, 140, 150, 160, "capot"]
    assert p["more"] == []
