"""Results the way cafés keep them (issue 19 §2): a paper deal entered as each side's
points alone, checked by the engine (``rules.plausible_deal_points``); a typed final
score checked against what a match of that game and length can reach; a final score
typed over deals already entered needs a reason.

The bounds are worked out here by hand from the rules files (§2 card points, §5
declarations, §7 scoring), not read from the code:

* Bolot (bolot.md §2, §5, §7): capot 152 + 100; fours and runs are compared apart, so
  one pair scores fours (10s 200 + 9s 150 + 1s 100 + 3s 100 = 550, two fours per hand
  of 8) and one pair runs (a run of 5, 100, and one of 3, 20, per hand: 240); bolot 20:
  252 + 550 + 240 + 20 = 1062 for both pairs together.
* Belote, four (belote.md §5, §7): one team scores its declarations (carrés of J, 9, A,
  T: 550): 252 + 550 + 20 = 822.
* Belote for two (belote.md §2, §5, §7): 146 card points at most in 18 cards, capot
  100, one player's declarations from 9 cards (carrés of J and 9: 350), belote 20: 616.
* Belote for three (belote-3p.md §5, §7): 152 + 100 + 350 + 20 = 622.
* Bridge-Belote (bridge-belote.md §2, §5, §7): All Trumps 248 + 10 + 90 + 550 + 240 +
  4 belots 80 = 1218 raw, 122 game points, × 4 (recontra) = 488.
* Botifarra (botifarra.md §4, §7): one pair scores (72 − 36) × m at most; m up to 16
  (botifarra ×2, Sant Vicenç ×8): 576; every score is k × m, k from 1 to 36.
* Contrée "ffb" (contree.md §7, §10): a flat capot surcoinched, 2 × 250 × 4 = 2000,
  and the belote to the winner, 20: 2020; trick points rounded to tens, 160, bids
  and capot values are tens, so every score is a multiple of 10.
"""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from app import rules
from app.core.errors import Unprocessable
from app.tournaments.config import check_final
from app.tournaments.models import PaperDeal
from tests.tournaments.conftest import Org, bolot_deal, make_tournament, winning_deal

N = 20
KEY_FIELD = re.compile(r'name="creation_key" value="([^"]+)"')

# ---------------------------------------------------------------- the engine's bounds

BOUNDS = [
    ("bolot", {}, 1062),
    ("belote", {}, 822),
    ("belote-2p", {}, 616),
    ("belote-3p", {}, 622),
    ("belote-3p", {"declarations": False}, 272),  # 152 + 100 + 20
    ("bridge-belote", {}, 488),
    ("botifarra", {}, 576),
    ("botifarra", {"sant_vicenc_on_botifarra": False}, 288),  # 36 × 2 × 4, or 36 × 8
    ("contree", {"preset": "ffb"}, 2020),
    # coinche: max_bid 650, (base 250 + 650) × 4 = 3600, declarations 550, belote 20
    ("contree", {"preset": "coinche"}, 4170),
    # colver: contract scoring of a capot (252 + 250 × 3 = 1002), belote 20
    ("contree", {"preset": "colver"}, 1022),
]


def _sides(game: str) -> int:
    return rules.GAMES[game].sides


@pytest.mark.parametrize(("game", "options", "most"), BOUNDS)
def test_the_richest_deal_is_accepted_one_point_more_is_not(
    game: str, options: dict[str, Any], most: int
) -> None:
    assert rules.max_deal_points(game, options) == most
    zeros = [0] * (_sides(game) - 1)
    assert rules.plausible_deal_points(game, options, [most, *zeros]) is None
    over = rules.plausible_deal_points(game, options, [most + 1, *zeros])
    assert over is not None and over.code == "deal_points_above_max"
    assert f"more than {most} points" in over


@pytest.mark.parametrize("game", list(rules.GAMES))
def test_negative_points_are_refused_in_every_game(game: str) -> None:
    points = [-10] + [20] * (_sides(game) - 1)
    reason = rules.plausible_deal_points(game, {}, points)
    assert reason is not None and reason.code == "deal_points_negative"
    assert str(reason) == "the points of a deal are zero or more"


def test_points_are_one_whole_number_per_side() -> None:
    assert rules.plausible_deal_points("bolot", {}, [10]).code == "deal_points_count"  # type: ignore[union-attr]
    assert rules.plausible_deal_points("belote-3p", {}, [10, 20]).code == "deal_points_count"  # type: ignore[union-attr]
    assert rules.plausible_deal_points("bolot", {}, [10.5, 2]).code == "deal_points_whole"  # type: ignore[union-attr]
    assert rules.plausible_deal_points("bolot", {}, "162").code == "deal_points_count"  # type: ignore[union-attr]


def test_both_pairs_together_are_bounded_not_each_alone() -> None:
    # Bolot: 531 + 532 = 1063 > 1062, though each alone is far below it
    assert rules.plausible_deal_points("bolot", {}, [531, 532]).code == "deal_points_above_max"  # type: ignore[union-attr]
    assert rules.plausible_deal_points("bolot", {}, [531, 531]) is None
    # Belote for three: 0 + 311 + 311 = 622 is a dedans of the richest deal shared
    assert rules.plausible_deal_points("belote-3p", {}, [0, 311, 311]) is None
    assert rules.plausible_deal_points("belote-3p", {}, [0, 312, 311]) is not None


def test_botifarra_one_pair_scores_a_multiple_of_its_doubling() -> None:
    # botifarra.md §7: one pair scores; (total - 36) × m, m in 1, 2, 4, 8, 16
    assert rules.plausible_deal_points("botifarra", {}, [36, 0]) is None
    assert rules.plausible_deal_points("botifarra", {}, [0, 72]) is None  # 36 × 2
    assert rules.plausible_deal_points("botifarra", {}, [0, 48]) is None  # 24 × 2 or 12 × 4
    assert rules.plausible_deal_points("botifarra", {}, [0, 0]) is None  # 36-36
    both = rules.plausible_deal_points("botifarra", {}, [10, 10])
    assert both is not None and both.code == "deal_points_one_side"
    odd = rules.plausible_deal_points("botifarra", {}, [37, 0])  # over 36, so m > 1: even
    assert odd is not None and odd.code == "deal_points_steps"
    assert "at most 36 times its multiplier (1, 2, 4, 8, 16)" in odd
    # "2-3-4" (§4): suit 1, 2, 3, 4; botifarra 2, 4, 6, 8: 37 is still impossible, 51 = 17 × 3
    scale = {"doubling_scale": "2-3-4"}
    assert rules.plausible_deal_points("botifarra", scale, [51, 0]) is None
    assert rules.plausible_deal_points("botifarra", scale, [37, 0]) is not None
    assert rules.max_deal_points("botifarra", scale) == 36 * 8


def test_contree_with_rounding_scores_tens() -> None:
    ffb = {"preset": "ffb"}
    reason = rules.plausible_deal_points("contree", ffb, [85, 0])
    assert reason is not None and reason.code == "deal_points_unit"
    assert str(reason) == "the points of a deal of this game are a multiple of 10"
    assert rules.plausible_deal_points("contree", ffb, [170, 70]) is None
    # coinche (no rounding, failure base 162): 162 + 80 = 242 is a failed 80
    assert rules.plausible_deal_points("contree", {"preset": "coinche"}, [0, 242]) is None


def _score(game: str, options: dict[str, Any], summary: dict[str, Any]) -> list[int]:
    return [int(p) for p in rules.score_deal(game, options, summary)["points"]]


def test_real_extreme_deals_are_accepted() -> None:
    """Deals worked out by hand at the top of the rules, then scored by the engine: the
    check accepts what the scoring gives."""
    # Bolot: pair 0 takes every trick and declares the four 10s, 9s, 1s and 3s; pair 1
    # holds the bolot (§7: 152 + 550 + 100 = 802 against 20; made)
    bolot = {
        "contract": {"trump": "o", "taker_team": 0, "eldest_team": 0},
        "card_points": [152, 0],
        "tricks": [8, 0],
        "last_trick_team": 0,
        "declarations": [
            [{"kind": "four", "rank": r} for r in ("10", "9", "1", "3")],
            [],
        ],
        "belote": [0, 1],
    }
    assert _score("bolot", {}, bolot) == [802, 20]
    assert rules.plausible_deal_points("bolot", {}, [802, 20]) is None
    # Belote: the same with carrés of J, 9, A, T (belote.md §7): 802 against 20 = 822
    belote = {
        "contract": {"trump": "H", "taker_team": 0, "eldest_team": 0},
        "card_points": [152, 0],
        "tricks": [8, 0],
        "last_trick_team": 0,
        "declarations": [[{"kind": "four", "rank": r} for r in ("J", "9", "A", "T")], []],
        "belote": [0, 1],
    }
    assert _score("belote", {}, belote) == [802, 20]
    assert rules.plausible_deal_points("belote", {}, [802, 20]) is None
    # Botifarra: botifarra, Sant Vicenç, a capot (§7): 36 × 16 = 576
    botifarra = {
        "contract": {"trump": None, "chooser_team": 1, "delegated": False, "doublings": 3},
        "card_points": [0, 60],
        "tricks": [0, 12],
        "last_trick_team": None,
        "declarations": [[], []],
        "belote": [0, 0],
    }
    assert _score("botifarra", {}, botifarra) == [0, 576]
    assert rules.plausible_deal_points("botifarra", {}, [0, 576]) is None
    # Contrée ffb: a capot bid, surcoinched and made, the belote to the winner: 2020
    contree = {
        "contract": {"trump": "S", "taker_team": 0, "bid": "capot", "coinche": 2, "eldest_team": 0},
        "card_points": [152, 0],
        "tricks": [8, 0],
        "last_trick_team": 0,
        "declarations": [[], []],
        "belote": [0, 1],
    }
    assert _score("contree", {"preset": "ffb"}, contree) == [2020, 0]
    assert rules.plausible_deal_points("contree", {"preset": "ffb"}, [2020, 0]) is None
    # a hundred random Bolot deals: never refused
    rng = random.Random(19)
    for _ in range(100):
        points = _score("bolot", {}, bolot_deal(rng))
        assert rules.plausible_deal_points("bolot", {}, points) is None


def test_points_held_from_the_deal_before_widen_the_bound() -> None:
    # Belote's litige (belote.md §7): the next deal's winner adds the held points
    assert rules.plausible_deal_points("belote", {}, [900, 0]) is not None
    assert rules.plausible_deal_points("belote", {}, [900, 0], carried_in=100) is None


# ---------------------------------------------------------------- a typed final score


TARGET = {"match": {"kind": "target"}}


def test_a_final_score_no_match_can_reach_is_refused() -> None:
    # Bolot to 1000: 1000 + 2 × 1062 = 3124 (the deal that reaches the target, and one
    # level or held deal before it)
    with pytest.raises(Unprocessable) as exc:
        check_final("bolot", {"target": 1000}, TARGET, 999999, 0)
    assert exc.value.code == "score_beyond_match" and exc.value.params["most"] == 3124
    with pytest.raises(Unprocessable):
        check_final("bolot", {"target": 1000}, TARGET, 3125, 900)
    check_final("bolot", {"target": 1000}, TARGET, 3124, 900)
    # 12 deals: 12 × 1062 = 12744, whatever the target
    deals = {"match": {"kind": "deals", "deals": 12}}
    check_final("bolot", {"target": 1000}, deals, 12744, 0)
    with pytest.raises(Unprocessable):
        check_final("bolot", {"target": 1000}, deals, 12745, 0)
    # to 1000 or 3 deals, whichever first: 3 × 1062 = 3186 > 3124, the target's bound
    both = {"match": {"kind": "target", "deals": 3}}
    with pytest.raises(Unprocessable) as exc:
        check_final("bolot", {"target": 1000}, both, 3125, 0)
    assert exc.value.params["most"] == 3124
    # 45 minutes: 45 deals at most, 45 × 822 in Belote
    time = {"match": {"kind": "time", "minutes": 45}}
    check_final("belote", {}, time, 45 * 822, 0)
    with pytest.raises(Unprocessable):
        check_final("belote", {}, time, 45 * 822 + 1, 0)
    # a forfeit is no exception
    with pytest.raises(Unprocessable):
        check_final("bolot", {"target": 1000}, TARGET, 999999, 0, forfeit=True)


# ---------------------------------------------------------------- through the API


async def _paper_round(org: Org, teams: int = 4, **kw: Any) -> int:
    t, _ = await make_tournament(org, teams, **kw)
    tid = int(t["id"])
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    await org.post(f"/tournaments/{tid}/rounds/1/publish")
    return tid


async def _count_deals(app: Any) -> int:
    async with app.state.sessionmaker() as db:
        return int(await db.scalar(select(func.count()).select_from(PaperDeal)) or 0)


async def test_points_only_deals_count_in_the_totals_and_the_standings(org: Org) -> None:
    tid = await _paper_round(org)  # Bolot to 300 (conftest)
    sheet = await org.post(f"/tournaments/{tid}/tables/1/deals", {"points": [120, 42]}, 201)
    assert sheet["deals"][0]["points"] == [120, 42]
    assert sheet["deals"][0]["outcome"] == "points only"
    assert (sheet["home_score"], sheet["away_score"], sheet["status"]) == (120, 42, "playing")
    # a full deal after it adds up with it: winning_deal gives 110 against 52
    sheet = await org.post(f"/tournaments/{tid}/tables/1/deals", {"summary": winning_deal(0)}, 201)
    assert sheet["deals"][1]["totals_after"] == [230, 94]
    sheet = await org.post(f"/tournaments/{tid}/tables/1/deals", {"points": [162, 0]}, 201)
    # 392 ≥ 300: the match is over, won by the home team
    assert (sheet["home_score"], sheet["away_score"], sheet["status"]) == (392, 94, "done")
    table = await org.get(f"/tournaments/{tid}/tables/1")
    assert [d["deal"] for d in table["deals"]] == [1, 2, 3]
    standings = await org.get(f"/tournaments/{tid}/standings")
    home = next(r for r in standings["rows"] if r["team"]["id"] == table["home"]["id"])
    assert (home["points_for"], home["points_against"], home["won"]) == (392, 94, 1)
    audit = await org.get(f"/tournaments/{tid}/audit")
    entries = [e for e in audit if e["action"] == "points_deal"]
    assert sorted(e["subject"] for e in entries) == [  # the trail is newest first
        "round 1 table 1 deal 1",
        "round 1 table 1 deal 3",
    ]
    first = next(e for e in entries if e["subject"].endswith("deal 1"))
    assert first["after"]["points"] == [120, 42] and first["after"]["home_score"] == 120


@pytest.mark.parametrize(
    ("points", "message"),
    [
        ([1063, 0], "deal 1: no deal of this game scores more than 1062 points in all"),
        ([-10, 172], "deal 1: the points of a deal are zero or more"),
        ([100], "deal 1: give 2 numbers, one per side"),
    ],
)
async def test_impossible_points_are_refused_with_the_reason(
    org: Org, app: Any, points: list[int], message: str
) -> None:
    tid = await _paper_round(org)
    answer = await org.post(f"/tournaments/{tid}/tables/1/deals", {"points": points}, 422)
    assert answer["detail"] == message
    assert await _count_deals(app) == 0


async def test_summary_and_points_together_are_refused(org: Org) -> None:
    tid = await _paper_round(org)
    answer = await org.post(
        f"/tournaments/{tid}/tables/1/deals",
        {"points": [100, 62], "summary": bolot_deal(random.Random(1))},
        422,
    )
    assert answer["detail"] == "give the deal's summary or its points, not both"


async def test_a_points_only_deal_is_corrected_with_a_reason(org: Org) -> None:
    tid = await _paper_round(org)
    await org.post(f"/tournaments/{tid}/tables/1/deals", {"points": [120, 42]}, 201)
    await org.call(
        "PUT", f"/tournaments/{tid}/tables/1/deals/1", 422, json={"points": [100, 62], "reason": ""}
    )
    sheet = await org.call(
        "PUT",
        f"/tournaments/{tid}/tables/1/deals/1",
        json={"points": [100, 62], "reason": "columns swapped"},
    )
    assert sheet["deals"][0]["points"] == [100, 62]
    fixed = [e for e in await org.get(f"/tournaments/{tid}/audit") if e["action"] == "correction"]
    assert len(fixed) == 1 and fixed[0]["reason"] == "columns swapped"
    assert fixed[0]["before"]["summary"] == {"points_only": [120, 42]}
    assert fixed[0]["after"]["summary"] == {"points_only": [100, 62]}


async def _at_once(org: Org, path: str, body: Any, key: str | None) -> list[httpx.Response]:
    headers = dict(org.headers) | ({"Idempotency-Key": key} if key else {})
    answers = await asyncio.gather(
        *(org.client.post("/api" + path, json=body, headers=headers) for _ in range(N))
    )
    assert all(a.status_code < 500 for a in answers), [a.text for a in answers][:3]
    return list(answers)


async def test_twenty_copies_of_a_points_only_deal_record_one_deal(org: Org, app: Any) -> None:
    tid = await _paper_round(org)
    answers = await _at_once(
        org, f"/tournaments/{tid}/tables/1/deals", {"points": [120, 42]}, "points-deal-0001"
    )
    assert {a.status_code for a in answers} == {201}
    assert all(a.json() == answers[0].json() for a in answers)
    assert [d["deal"] for d in answers[0].json()["deals"]] == [1]
    assert await _count_deals(app) == 1
    audit = await org.get(f"/tournaments/{tid}/audit")
    assert sum(1 for e in audit if e["action"] == "points_deal") == 1


async def test_twenty_points_only_deals_without_a_key_are_numbered_in_turn(
    org: Org, app: Any
) -> None:
    # each copy is a deal of its own (no key), queued: 120 a deal reaches 300 at deal 3,
    # and the deals after the match is over are refused with a 409
    tid = await _paper_round(org)
    answers = await _at_once(org, f"/tournaments/{tid}/tables/1/deals", {"points": [120, 42]}, None)
    assert {a.status_code for a in answers} <= {201, 409}
    assert sum(1 for a in answers if a.status_code == 201) == 3
    async with app.state.sessionmaker() as db:
        numbers = sorted((await db.scalars(select(PaperDeal.deal_no))).all())
    assert numbers == [1, 2, 3]


# ---------------------------------------------------------------- a final score over deals


async def test_a_final_score_over_deals_entered_needs_a_reason(org: Org) -> None:
    tid = await _paper_round(org)
    await org.post(f"/tournaments/{tid}/tables/1/deals", {"points": [120, 42]}, 201)
    refused = await org.post(
        f"/tournaments/{tid}/tables/1/result", {"home_score": 320, "away_score": 94}, 422
    )
    assert refused["detail"].startswith("deals already entered at this table: 1 (120–42);")
    done = await org.post(
        f"/tournaments/{tid}/tables/1/result",
        {"home_score": 320, "away_score": 94, "reason": "sheet lost after deal 1"},
    )
    assert (done["home_score"], done["status"]) == (320, "done")
    entry = [e for e in await org.get(f"/tournaments/{tid}/audit") if e["action"] == "correction"]
    assert entry[0]["reason"] == "sheet lost after deal 1"
    assert entry[0]["before"]["deals"] == 1 and entry[0]["before"]["home_score"] == 120


async def test_a_final_score_beyond_the_match_is_refused_through_the_api(org: Org) -> None:
    tid = await _paper_round(org)  # Bolot to 300: 300 + 2 × 1062 = 2424
    refused = await org.post(
        f"/tournaments/{tid}/tables/2/result", {"home_score": 999999, "away_score": 0}, 422
    )
    assert refused["detail"] == (
        "no match of this game and length reaches 2424 points: a score is at most 2424"
    )


# ---------------------------------------------------------------- through the table page


def _form(page: str, testid: str) -> dict[str, str]:
    """The hidden fields (csrf, one-time key, round, entry) of the page's form ``testid``."""
    m = re.search(rf'<form [^>]*data-testid="{testid}"[^>]*>(.*?)</form>', page, re.S)
    assert m, f"no form {testid}"
    hidden = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', m.group(1))
    return dict(hidden)


async def test_the_points_form_records_a_deal_and_a_refusal_stays_on_the_page(
    org: Org, client: httpx.AsyncClient, app: Any
) -> None:
    tid = await _paper_round(org)
    url = f"/tournaments/{tid}/tables/1"
    page = (await client.get(url, headers=org.headers)).text
    form = _form(page, "points-form")
    assert form["entry"] == "points"
    bad = await client.post(
        f"{url}/deals", data=form | {"p0": "1100", "p1": "0"}, headers=org.headers
    )
    assert bad.status_code == 422
    refused = re.search(r'data-testid="points-form".*?</form>', bad.text, re.S)
    assert refused is not None
    assert "Deal 1: no deal of this game scores more than 1062 points in all." in refused.group(0)
    assert 'value="1100"' in refused.group(0)  # what was typed comes back
    assert await _count_deals(app) == 0
    form = _form(bad.text, "points-form")
    ok = await client.post(
        f"{url}/deals", data=form | {"p0": "120", "p1": "42"}, headers=org.headers
    )
    assert ok.status_code == 303
    again = await client.post(
        f"{url}/deals", data=form | {"p0": "120", "p1": "42"}, headers=org.headers
    )
    assert again.status_code == 303  # a double tap: the first answer, no second deal
    assert await _count_deals(app) == 1
    page = (await client.get(url, headers=org.headers)).text
    assert "120 <span" in page and "points only" in page


async def test_twenty_taps_on_the_points_form_record_one_deal(
    org: Org, client: httpx.AsyncClient, app: Any
) -> None:
    tid = await _paper_round(org)
    url = f"/tournaments/{tid}/tables/1"
    form = _form((await client.get(url, headers=org.headers)).text, "points-form")
    form |= {"p0": "0", "p1": "162"}
    taps = await asyncio.gather(
        *(client.post(f"{url}/deals", data=form, headers=org.headers) for _ in range(N))
    )
    assert {t.status_code for t in taps} == {303}
    assert await _count_deals(app) == 1


async def test_the_fix_form_of_a_points_only_deal_shows_its_points(
    org: Org, client: httpx.AsyncClient
) -> None:
    tid = await _paper_round(org)
    await org.post(f"/tournaments/{tid}/tables/1/deals", {"points": [120, 42]}, 201)
    url = f"/tournaments/{tid}/tables/1"
    page = (await client.get(f"{url}?fix=1", headers=org.headers)).text
    form = _form(page, "fix-form")
    assert form["entry"] == "points" and form["deal_no"] == "1"
    assert re.search(r'name="p0"[^>]*value="120"', page)
    done = await client.post(
        f"{url}/fix",
        data=form | {"p0": "100", "p1": "62", "reason": "columns swapped"},
        headers=org.headers,
    )
    assert done.status_code == 303
    table = await org.get(f"/tournaments/{tid}/tables/1")
    assert table["deals"][0]["points"] == [100, 62]


async def test_the_final_score_form_over_deals_asks_for_a_reason(
    org: Org, client: httpx.AsyncClient
) -> None:
    tid = await _paper_round(org)
    await org.post(f"/tournaments/{tid}/tables/1/deals", {"points": [120, 42]}, 201)
    url = f"/tournaments/{tid}/tables/1"
    page = (await client.get(url, headers=org.headers)).text
    assert 'data-testid="over-deals"' in page
    m = re.search(r'<form method="post" action="[^"]+/result"(.*?)</form>', page, re.S)
    assert m
    hidden = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', m.group(1)))
    refused = await client.post(
        f"{url}/result",
        data=hidden | {"home_score": "320", "away_score": "94"},
        headers=org.headers,
    )
    assert refused.status_code == 422
    assert "Deals already entered at this table: 1 (120–42)." in refused.text


# ---------------------------------------------------------------- a table of three


async def test_a_table_of_three_takes_each_players_points(
    org: Org, client: httpx.AsyncClient
) -> None:
    t = await org.post(
        "/tournaments",
        {
            "name": "Belote a tres",
            "game": "belote-3p",
            "format": "swiss",
            "settings": {"rounds": 1, "match": {"kind": "deals", "deals": 2}},
        },
        201,
    )
    tid = t["id"]
    for i in range(1, 4):
        await org.post(f"/tournaments/{tid}/teams", {"name": f"P{i}", "players": [f"P{i}"]}, 201)
    await org.post(f"/tournaments/{tid}/rounds", status=201)
    await org.post(f"/tournaments/{tid}/rounds/1/publish")
    url = f"/tournaments/{tid}/tables/1"
    # two numbers for three players: refused; 623 in all (> 622): refused
    two = await org.post(f"{url}/deals", {"points": [100, 62]}, 422)
    assert two["detail"] == "deal 1: give 3 numbers, one per side"
    await org.post(f"{url}/deals", {"points": [0, 312, 311]}, 422)
    sheet = await org.post(f"{url}/deals", {"points": [0, 311, 311]}, 201)  # a rich dedans
    assert sheet["third_score"] == 311
    page = (await client.get(url, headers=org.headers)).text
    assert 'data-testid="p2"' in page  # a column per player
    form = _form(page, "points-form")
    done = await client.post(
        f"{url}/deals", data=form | {"p0": "90", "p1": "42", "p2": "30"}, headers=org.headers
    )
    assert done.status_code == 303
    table = await org.get(url)
    # two deals: the match is over (311 + 42 = 353 for P2, 311 + 30 = 341 for P3)
    assert (table["status"], table["home_score"], table["away_score"], table["third_score"]) == (
        "done",
        90,
        353,
        341,
    )
    fix = (await client.get(f"{url}?fix=2", headers=org.headers)).text
    assert re.search(r'name="p2"[^>]*value="30"', fix)


async def test_the_audit_trail_says_who_entered_points_alone(
    org: Org, client: httpx.AsyncClient
) -> None:
    tid = await _paper_round(org)
    await org.post(f"/tournaments/{tid}/tables/1/deals", {"points": [120, 42]}, 201)
    page = (await client.get(f"/tournaments/{tid}/manage", headers=org.headers)).text
    assert "entered the points alone of round 1, table 1, deal 1" in page
    ca = (
        await client.get(
            f"/tournaments/{tid}/manage", headers=org.headers | {"Accept-Language": "ca"}
        )
    ).text
    assert "ha anotat només els punts de" in ca
