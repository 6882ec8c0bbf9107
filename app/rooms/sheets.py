"""The last deal's breakdown and the score sheet, per game, from the viewer's view.

Both read only ``view["last_deal"]`` and ``view["sheet"]`` (docs/engine-face.md),
which every viewer may see. What the games share is drawn once (the templates
``_side.html`` and ``_result_short.html`` take rows of cells); what each game
writes on its paper sheet is chosen here:

* Bolot and Belote: card points, last trick, capot, declarations, belote, the
  held points of a *litige*; the outcome made / failed (*dedans*, *llocs*) / litige.
* Belote for two: per player; a claim ("I'm done") is its own line.
* Bridge-Belote: the raw points compared, the rounding to game points, the
  multiplier, inside and hanging points (people check it by hand).
* Botifarra: card points + one per trick, the 72 split, the multiplier.
"""

from __future__ import annotations

from typing import Any

from app.rooms import cards


def _pair(value: Any) -> list[Any] | None:
    if isinstance(value, (list, tuple)) and len(value) == 2:
        return list(value)
    return None


def _trump_cell(contract: dict[str, Any] | None, game: str) -> dict[str, Any]:
    """The contract of a sheet line as a cell: a suit icon, or a word."""
    if not contract:
        return {"text": ""}
    trump = contract.get("trump")
    words: list[str] = []
    if contract.get("botifarra"):
        words.append("Botifarra")
    elif contract.get("kind") in ("no_trumps", "all_trumps"):
        words.append("NT" if contract["kind"] == "no_trumps" else "AT")
    if contract.get("delegated"):
        words.append("del.")
    mult = contract.get("multiplier")
    if isinstance(mult, int) and mult > 1 and game != "botifarra":  # Botifarra has its own column
        words.append(f"×{mult}")
    return {
        "img": cards.suit_image(trump) if trump in cards.SUIT_NAMES else None,
        "alt": cards.suit_name(trump) if trump else "",
        "text": " ".join(words),
        "title": _contract_title(contract, game),
    }


def _contract_title(contract: dict[str, Any], game: str) -> str:
    trump = contract.get("trump")
    name = (
        "botifarra"
        if contract.get("botifarra")
        else cards.CONTRACT_NAMES.get(str(contract.get("bid")), "")
        if contract.get("bid")
        else cards.suit_name(trump)
        if trump
        else ""
    )
    extra = []
    if contract.get("delegated"):
        extra.append("delegated")
    if contract.get("doubled_by") is not None:
        extra.append("contra")
    if contract.get("redoubled_by") is not None:
        extra.append("recontra")
    if isinstance(contract.get("doublings"), int) and contract["doublings"]:
        extra.append(("contrar", "recontrar", "Sant Vicenç")[min(contract["doublings"], 3) - 1])
    return name + (f" ({', '.join(extra)})" if extra else "")


NOTES = {
    "failed": "failed",
    "litige": "litige",
    "inside": "inside",
    "hanging": "hanging",
    "tie": "36–36",
    "claim": "claim",
}


def sheet(view: dict[str, Any]) -> dict[str, Any]:
    """The score sheet: ``{"columns": [...], "rows": [{"cells", "cls"}], "extra": [...]}``.

    The first column is the deal number, then the contract, then per-game
    columns, then one column per team (points scored, the running total small).
    """
    game = view.get("game", "")
    bridge = game == "bridge-belote"
    botifarra = game == "botifarra"
    columns = ["#", "Contract" if bridge else "Trumps"]
    if bridge:
        columns += ["Raw", "Pts"]
    if botifarra:
        columns += ["×", "Totals"]
    rows = []
    for e in view.get("sheet") or []:
        detail = e.get("detail") or {}
        contract = e.get("contract") or None
        taker_team = (contract or {}).get("taker_team", (contract or {}).get("declarer_team"))
        cells: list[dict[str, Any]] = [{"text": str(e.get("deal", ""))}]
        cells.append(
            {"text": "void", "title": "everybody passed"}
            if e.get("void")
            else _trump_cell(contract, game)
        )
        if bridge:
            raw, rounded = _pair(detail.get("raw")), _pair(detail.get("rounded"))
            cells.append({"text": f"{raw[0]}–{raw[1]}" if raw else ""})
            cells.append(
                {
                    "text": f"{rounded[0]}–{rounded[1]}" if rounded else "",
                    "title": f"deal total {detail.get('deal_total')}"
                    if detail.get("deal_total")
                    else None,
                }
            )
        if botifarra:
            mult = (contract or {}).get("multiplier", detail.get("multiplier"))
            cells.append({"text": f"×{mult}" if mult else "", "title": "multiplier"})
            tot = _pair(detail.get("totals"))
            cells.append({"text": f"{tot[0]}–{tot[1]}" if tot else "revoke"})
        points = e.get("points") or [0, 0]
        after = e.get("scores_after") or [0, 0]
        for team in (0, 1):
            cells.append(
                {
                    "text": str(points[team]),
                    "sub": str(after[team]),
                    "cls": "took" if taker_team == team else "",
                    "title": "took the contract" if taker_team == team else None,
                }
            )
        note = (
            {"belote": "dedans", "bolot": "llocs"}.get(game, "")
            if e.get("outcome") == "failed"
            else ""
        )
        note = note or NOTES.get(str(e.get("outcome")), "")
        if botifarra and e.get("outcome") == "failed":
            note = ""  # the other pair scores: nothing more to say
        carried = e.get("carried_out")
        if carried:
            note += f" · {carried} held" if game != "bridge-belote" else f" · {carried} hang"
        rows.append({"cells": cells, "cls": f"outcome-{e.get('outcome') or 'void'}", "note": note})
    extra = []
    if view.get("held"):
        extra.append(f"Held from a litige: {view['held']} points, for the next deal made")
    if view.get("hanging_points"):
        extra.append(
            f"Hanging points: {view['hanging_points']}, for the next deal that is not a tie"
        )
    if view.get("recorded_scores") and (view.get("options") or {}).get("cap_score"):
        rs = view["recorded_scores"]
        extra.append(f"Recorded for the standings: {rs[0]} – {rs[1]}")
    return {"columns": columns, "rows": rows, "extra": extra}


def _bridge_rows(detail: dict[str, Any], contract: dict[str, Any]) -> list[list[Any]]:
    """Raw points as rules/bridge-belote.md §7 adds them, then the rounding."""
    rows: list[list[Any]] = []
    cp = _pair(detail.get("card_points")) or [0, 0]
    ltt = detail.get("last_trick_team")
    rows.append(["Card points", *cp])
    rows.append(["Last trick", *(10 if ltt == t else 0 for t in (0, 1))])
    if contract.get("kind") == "no_trumps":
        rows.append(["× 2 (no trumps)", *(2 * (cp[t] + (10 if ltt == t else 0)) for t in (0, 1))])
    if (dp := _pair(detail.get("declarations"))) and any(dp):
        rows.append(["Declarations", *dp])
    if (bp := _pair(detail.get("belote"))) and any(bp):
        rows.append(["Belot", *bp])
    capot = detail.get("capot")
    if capot is not None:
        rows.append(["Capot", *(90 if capot == t else 0 for t in (0, 1))])
    if raw := _pair(detail.get("raw")):
        rows.append(["Raw points", *raw])
    if rounded := _pair(detail.get("rounded")):
        rows.append(["Rounded (÷ 10)", *rounded])
    mult = detail.get("multiplier")
    if isinstance(mult, int) and mult > 1:
        rows.append(["Contra" if mult == 2 else "Recontra", f"×{mult}", f"×{mult}"])
    if detail.get("carried_in"):
        rows.append(["Hanging points in", detail["carried_in"], ""])
    return rows


def _generic_rows(game: str, detail: dict[str, Any]) -> list[list[Any]]:
    """Bolot, Belote and Botifarra: the totals the way their rules add them."""
    rows: list[list[Any]] = []
    if (cp := _pair(detail.get("card_points"))) is not None:
        rows.append(["Card points", *cp])
    if game == "botifarra":
        if (tr := _pair(detail.get("tricks"))) is not None:
            rows.append(["Tricks (1 each)", *tr])
    capot = detail.get("capot")
    ltt = detail.get("last_trick_team")
    if capot is not None:
        rows.append(["Capot", *(100 if capot == t else 0 for t in (0, 1))])
    elif ltt is not None:
        label = {"bolot": "Last trick (últimes)", "botifarra": "Last trick"}.get(
            game, "Last trick (dix de der)"
        )
        rows.append([label, *(10 if ltt == t else 0 for t in (0, 1))])
    if (dp := _pair(detail.get("declarations"))) is not None and any(dp):
        rows.append(["Declarations", *dp])
    if (bp := _pair(detail.get("belote"))) is not None and any(bp):
        # Bolot gives a 0/1 flag per pair, other games the points (20 per belote).
        rows.append(
            [cards.belote_word(game), *(20 * int(x) if int(x) <= 1 else int(x) for x in bp)]
        )
    if (tot := _pair(detail.get("totals"))) is not None:
        rows.append(["Total", *tot])
    if detail.get("carried_in"):
        rows.append(["Held points in (litige)", detail["carried_in"], ""])
    if isinstance(detail.get("multiplier"), int) and detail["multiplier"] > 1:
        rows.append(["Multiplier", *(f"×{detail['multiplier']}",) * 2])
    return rows


def _headline(game: str, last: dict[str, Any], detail: dict[str, Any], teams: list[str]) -> str:
    outcome = str(last.get("outcome"))
    contract = last.get("contract") or {}
    taker_team = contract.get("taker_team", contract.get("declarer_team", detail.get("taker_team")))
    taker = (
        teams[taker_team]
        if isinstance(taker_team, int) and taker_team < len(teams)
        else "The takers"
    )
    other = (
        teams[1 - taker_team]
        if isinstance(taker_team, int) and taker_team < len(teams)
        else "the defenders"
    )
    needed = detail.get("needed")
    if outcome == "claim":
        claim = detail.get("claim") or {}
        who = teams[claim["seat"]] if isinstance(claim.get("seat"), int) else "A player"
        verdict = "right: the match is won" if claim.get("correct") else "wrong: the match is lost"
        return f"{who} claimed {claim.get('total')} of {claim.get('target')}: {verdict}."
    if game == "bridge-belote":
        return {
            "made": f"{taker} made it.",
            "inside": f"{taker} are inside: the whole deal ({detail.get('deal_total')}) to {other}.",
            "hanging": f"A tie: {last.get('carried_out')} points hang for the next deal.",
        }.get(outcome, "")
    if game == "botifarra":
        return {
            "made": f"{taker} made it.",
            "failed": f"{taker} failed: {other} score.",
            "tie": "36–36: nobody scores.",
        }.get(outcome, "")
    if outcome == "scored":
        return "Each player scores what he took."
    return {
        "made": f"{taker} made it" + (f" (needed {needed})." if needed else "."),
        "failed": f"{taker} failed: llocs, all {detail.get('points_in_play', '')} points to the defenders."
        if game == "bolot"
        else f"{taker} failed: dedans, all {detail.get('points_in_play', '')} points to {other}.",
        "tie": f"{taker} tied: exactly half.",
        "litige": f"Litige: a tie, {taker}'s {last.get('carried_out')} points are held for the next deal.",
    }.get(outcome, "")


def deal_result(view: dict[str, Any], teams: list[str]) -> dict[str, Any] | None:
    """The last deal's breakdown: rows of [label, pair 0, pair 1], a headline, what was scored.

    Reads ``view.last_deal``; unknown detail keys are ignored; a void deal gives
    a one-line result.
    """
    last = view.get("last_deal")
    if not last:
        return None
    game = view.get("game", "")
    detail = last.get("detail") or {}
    if last.get("void"):
        return {
            "deal": last.get("deal"),
            "void": True,
            "rows": [],
            "points": last.get("points"),
            "outcome": "void",
            "headline": "Everybody passed: no score, the next dealer deals.",
        }
    contract = last.get("contract") or {}
    if game == "bridge-belote":
        rows = _bridge_rows(detail, contract)
    elif last.get("outcome") == "claim":
        rows = [["Card points", *(_pair(detail.get("card_points")) or ["", ""])]]
    else:
        rows = _generic_rows(game, detail)
    trump = contract.get("trump")
    return {
        "deal": last.get("deal"),
        "void": False,
        "rows": rows,
        "points": last.get("points"),
        "outcome": last.get("outcome"),
        "headline": _headline(game, last, detail, teams),
        "trump": trump,
        "trump_name": cards.suit_name(trump) if trump else _contract_title(contract, game) or None,
        "points_in_play": detail.get("points_in_play"),
        "needed": detail.get("needed"),
        "carried_out": last.get("carried_out") or 0,
    }
