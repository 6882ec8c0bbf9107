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

from app.table import labels
from app.web import cards
from app.web.i18n import N_, _


def _pair(value: Any, n: int = 2) -> list[Any] | None:
    """``value`` as a list of one entry per side (``n``: 2 pairs, or 3 players), or None."""
    if isinstance(value, (list, tuple)) and len(value) == n:
        return list(value)
    return None


def _trump_cell(
    contract: dict[str, Any] | None, game: str, detail: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The contract of a sheet line as a cell: a suit icon, or a word. A contract of
    points (contrée, rules/contree.md §4, §7) shows its value and, coinched, the
    multiplier of the deal's ``detail`` (×2; surcoinched ×4 or ×3)."""
    if not contract:
        return {"text": ""}
    trump = contract.get("trump")
    points = labels.contract_words(game, contract)
    if points is not None:
        value, level = points
        mult = (detail or {}).get("multiplier")
        times = f"×{mult}" if isinstance(mult, int) and mult > 1 else ""
        return {
            "img": cards.suit_image(trump) if trump in cards.SUIT_NAMES else None,
            "alt": cards.suit_name(trump) if trump else "",
            "lead": value,
            "text": times,
            "title": " ".join(w for w in (labels.contract_call(game, contract), level, times) if w),
        }
    words: list[str] = []
    if contract.get("botifarra"):
        words.append(_("Botifarra"))
    elif contract.get("kind") in ("no_trumps", "all_trumps"):
        words.append(_("NT") if contract["kind"] == "no_trumps" else _("AT"))
    if contract.get("delegated"):
        words.append(_("del."))
    mult = contract.get("multiplier")
    # Botifarra's sheet has its own multiplier column
    if isinstance(mult, int) and mult > 1 and labels.of(game).sheet != "botifarra":
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
        _("botifarra")
        if contract.get("botifarra")
        else cards.contract_name(contract.get("bid"))
        if contract.get("bid")
        else cards.suit_name(trump)
        if trump
        else ""
    )
    extra = []
    if contract.get("delegated"):
        extra.append(_("delegated"))
    if contract.get("doubled_by") is not None:
        extra.append(_("contra"))
    if contract.get("redoubled_by") is not None:
        extra.append(_("recontra"))
    if isinstance(contract.get("doublings"), int) and contract["doublings"]:
        extra.append(
            (_("contrar"), _("recontrar"), _("Sant Vicenç"))[min(contract["doublings"], 3) - 1]
        )
    return name + (f" ({', '.join(extra)})" if extra else "")


NOTES = {
    "failed": N_("failed"),
    "litige": N_("litige"),
    "inside": N_("inside"),
    "hanging": N_("hanging"),
    "tie": "36–36",
    "claim": N_("claim"),
}


def sheet(view: dict[str, Any]) -> dict[str, Any]:
    """The score sheet: ``{"columns": [...], "rows": [{"cells", "cls"}], "extra": [...]}``.

    The first column is the deal number, then the contract, then per-game
    columns, then one column per team (points scored, the running total small).
    """
    game = view.get("game", "")
    words = labels.of(game)
    n = labels.sides(game)
    bridge = words.sheet == "bridge"
    botifarra = words.sheet == "botifarra"
    columns = ["#", _("Contract") if bridge or words.bid_points else _("Trumps")]
    if bridge:
        columns += [_("Raw"), _("Pts")]
    if botifarra:
        columns += ["×", _("Totals")]
    rows = []
    for e in view.get("sheet") or []:
        detail = e.get("detail") or {}
        contract = e.get("contract") or None
        taker_team = (contract or {}).get("taker_team", (contract or {}).get("declarer_team"))
        cells: list[dict[str, Any]] = [{"text": str(e.get("deal", ""))}]
        cells.append(
            {"text": _("void"), "title": _("everybody passed")}
            if e.get("void")
            else _trump_cell(contract, game, detail)
        )
        if bridge:
            raw, rounded = _pair(detail.get("raw")), _pair(detail.get("rounded"))
            cells.append({"text": f"{raw[0]}–{raw[1]}" if raw else ""})
            cells.append(
                {
                    "text": f"{rounded[0]}–{rounded[1]}" if rounded else "",
                    "title": _("deal total %(n)s") % {"n": detail.get("deal_total")}
                    if detail.get("deal_total")
                    else None,
                }
            )
        if botifarra:
            mult = (contract or {}).get("multiplier", detail.get("multiplier"))
            cells.append({"text": f"×{mult}" if mult else "", "title": _("multiplier")})
            tot = _pair(detail.get("totals"))
            cells.append({"text": f"{tot[0]}–{tot[1]}" if tot else _("revoke")})
        points = e.get("points") or [0] * n
        after = e.get("scores_after") or [0] * n
        for team in range(n):
            cells.append(
                {
                    "text": str(points[team]),
                    "sub": str(after[team]),
                    "cls": "took" if taker_team == team else "",
                    "title": _("took the contract") if taker_team == team else None,
                }
            )
        note_id = words.failed_note if e.get("outcome") == "failed" and words.failed_note else ""
        note_id = note_id or NOTES.get(str(e.get("outcome")), "")
        if botifarra and e.get("outcome") == "failed":
            note_id = ""  # the other pair scores: nothing more to say
        note = _(note_id) if note_id else ""
        # a game's own word ("llocs", "dedans", "inside") carries its explanation
        explained = labels.gloss(note_id) if note_id else None
        carried = e.get("carried_out")
        if carried:
            note += " · " + _(words.carried_note) % {"n": carried}
        rows.append(
            {
                "cells": cells,
                "cls": f"outcome-{e.get('outcome') or 'void'}",
                "note": note,
                "note_title": explained["title"] if explained else None,
            }
        )
    extra = []
    if view.get("held"):
        extra.append(
            _("Held from a litige: %(n)s points, for the next deal made") % {"n": view["held"]}
        )
    if view.get("hanging_points"):
        extra.append(
            _("Hanging points: %(n)s, for the next deal that is not a tie")
            % {"n": view["hanging_points"]}
        )
    if view.get("recorded_scores") and (view.get("options") or {}).get("cap_score"):
        rs = view["recorded_scores"]
        extra.append(_("Recorded for the standings: %(a)s – %(b)s") % {"a": rs[0], "b": rs[1]})
    return {"columns": columns, "rows": rows, "extra": extra}


def _bridge_rows(detail: dict[str, Any], contract: dict[str, Any]) -> list[list[Any]]:
    """Raw points as rules/bridge-belote.md §7 adds them, then the rounding."""
    rows: list[list[Any]] = []
    cp = _pair(detail.get("card_points")) or [0, 0]
    ltt = detail.get("last_trick_team")
    rows.append([_("Card points"), *cp])
    rows.append([_("Last trick"), *(10 if ltt == t else 0 for t in (0, 1))])
    if contract.get("kind") == "no_trumps":
        rows.append(
            [_("× 2 (no trumps)"), *(2 * (cp[t] + (10 if ltt == t else 0)) for t in (0, 1))]
        )
    if (dp := _pair(detail.get("declarations"))) and any(dp):
        rows.append([_("Declarations"), *dp])
    if (bp := _pair(detail.get("belote"))) and any(bp):
        rows.append([_("Belot"), *bp])
    capot = detail.get("capot")
    if capot is not None:
        rows.append([_("Capot"), *(90 if capot == t else 0 for t in (0, 1))])
    if raw := _pair(detail.get("raw")):
        rows.append([_("Raw points"), *raw])
    if rounded := _pair(detail.get("rounded")):
        rows.append([_("Rounded (÷ 10)"), *rounded])
    if (low := detail.get("minimum_point")) in (0, 1):
        # option at_least_one_point: the side that took points writes 1, taken from the other
        rows.append([_("At least 1 point"), *("+1" if t == low else "−1" for t in (0, 1))])
    mult = detail.get("multiplier")
    if isinstance(mult, int) and mult > 1:
        rows.append([_("Contra") if mult == 2 else _("Recontra"), f"×{mult}", f"×{mult}"])
    if detail.get("carried_in"):
        rows.append([_("Hanging points in"), detail["carried_in"], ""])
    return rows


def _generic_rows(game: str, detail: dict[str, Any]) -> list[list[Any]]:
    """Bolot, Belote and Botifarra: the totals the way their rules add them."""
    rows: list[list[Any]] = []
    if (cp := _pair(detail.get("card_points"))) is not None:
        rows.append([_("Card points"), *cp])
    if labels.of(game).sheet == "botifarra":
        if (tr := _pair(detail.get("tricks"))) is not None:
            rows.append([_("Tricks (1 each)"), *tr])
    capot = detail.get("capot")
    ltt = detail.get("last_trick_team")
    if capot is not None:
        rows.append([_("Capot"), *(100 if capot == t else 0 for t in (0, 1))])
    elif ltt is not None:
        rows.append([_(labels.of(game).last_trick), *(10 if ltt == t else 0 for t in (0, 1))])
    if (dp := _pair(detail.get("declarations"))) is not None and any(dp):
        rows.append([_("Declarations"), *dp])
    if (bp := _pair(detail.get("belote"))) is not None and any(bp):
        # Bolot gives a 0/1 flag per pair, other games the points (20 per belote).
        rows.append(
            [labels.belote_word(game), *(20 * int(x) if int(x) <= 1 else int(x) for x in bp)]
        )
    if (tot := _pair(detail.get("totals"))) is not None:
        rows.append([_("Total"), *tot])
    if detail.get("carried_in"):
        rows.append([_("Held points in (litige)"), detail["carried_in"], ""])
    if isinstance(detail.get("multiplier"), int) and detail["multiplier"] > 1:
        rows.append([_("Multiplier"), *(f"×{detail['multiplier']}",) * 2])
    return rows


def _player_rows(game: str, detail: dict[str, Any], n: int) -> list[list[Any]]:
    """Belote for three: one column per player (rules/belote-3p.md §7): card points, the
    last trick's 10 or the capot's 100 shared by those who took tricks, declarations,
    belote, the totals the taker must beat."""
    rows: list[list[Any]] = []
    if (cp := _pair(detail.get("card_points"), n)) is not None:
        rows.append([_("Card points"), *cp])
    if (bonus := _pair(detail.get("bonus"), n)) is not None:
        label = _("Capot (100 shared)") if detail.get("capot") else _(labels.of(game).last_trick)
        rows.append([label, *bonus])
    if (dp := _pair(detail.get("declarations"), n)) is not None and any(dp):
        rows.append([_("Declarations"), *dp])
    if (bp := _pair(detail.get("belote"), n)) is not None and any(bp):
        rows.append([labels.belote_word(game), *bp])
    if (tot := _pair(detail.get("totals"), n)) is not None:
        rows.append([_("Total"), *tot])
    return rows


def _headline(game: str, last: dict[str, Any], detail: dict[str, Any], teams: list[str]) -> str:
    outcome = str(last.get("outcome"))
    contract = last.get("contract") or {}
    taker_team = contract.get("taker_team", contract.get("declarer_team", detail.get("taker_team")))
    taker = (
        teams[taker_team]
        if isinstance(taker_team, int) and taker_team < len(teams)
        else _("The takers")
    )
    other = (
        teams[1 - taker_team]
        if isinstance(taker_team, int) and taker_team < len(teams)
        else _("the defenders")
    )
    needed = detail.get("needed")
    w = {
        "taker": taker,
        "other": other,
        "needed": needed,
        "total": detail.get("deal_total"),
        "carried": last.get("carried_out"),
        "in_play": detail.get("points_in_play", detail.get("pot") or ""),
    }
    if outcome == "claim":
        claim = detail.get("claim") or {}
        who = teams[claim["seat"]] if isinstance(claim.get("seat"), int) else _("A player")
        values = {"who": who, "total": claim.get("total"), "target": claim.get("target")}
        if claim.get("correct"):
            return _("%(who)s claimed %(total)s of %(target)s: right, the match is won.") % values
        return _("%(who)s claimed %(total)s of %(target)s: wrong, the match is lost.") % values
    words = labels.of(game)
    if words.sheet == "botifarra":
        return _botifarra_headline(outcome, detail, last, teams)
    called = labels.contract_call(game, contract)
    if called is not None:
        return _bid_points_headline(outcome, contract, called, w)
    if outcome == "made" and words.beat_defenders:
        totals = _pair(detail.get("totals"))
        if words.sheet == "players" and isinstance(taker_team, int):
            totals = _pair(detail.get("totals"), labels.sides(game)) or []
            if taker_team < len(totals):
                w["mine"] = totals[taker_team]
                return _("%(taker)s made it: %(mine)s, more than each opponent.") % w
        if totals and isinstance(taker_team, int) and taker_team < 2:
            w["mine"], w["theirs"] = totals[taker_team], totals[1 - taker_team]
            return _("%(taker)s made it: %(mine)s, more than %(other)s's %(theirs)s.") % w
        return _("%(taker)s made it.") % w
    if outcome == "made":
        if needed and words.sheet == "belote":
            return _("%(taker)s made it (needed %(needed)s).") % w
        return _("%(taker)s made it.") % w
    if words.sheet == "bridge":
        return {
            "inside": _("%(taker)s are inside: the whole deal (%(total)s) to %(other)s."),
            "hanging": _("A tie: %(carried)s points hang for the next deal."),
        }.get(outcome, "") % w
    if outcome == "scored":
        return _("Each player scores what he took.")
    return {
        "failed": _(words.failed_headline),
        "tie": _("%(taker)s tied: exactly half."),
        "litige": _("Litige: a tie, %(taker)s's %(carried)s points are held for the next deal."),
    }.get(outcome, "") % w


def _bid_points_headline(
    outcome: str, contract: dict[str, Any], called: str, w: dict[str, Any]
) -> str:
    """A contract of points (rules/contree.md §4, §7): the contract as bid, who took it,
    who coinched it, then made, failed or litige. ``w``: the headline's words (taker,
    other, carried)."""
    v = {**w, "contract": called}
    level = contract.get("coinche") or 0
    if level >= 2:
        call = _("%(contract)s by %(taker)s, coinched by %(other)s and surcoinched") % v
    elif level == 1:
        call = _("%(contract)s by %(taker)s, coinched by %(other)s") % v
    else:
        call = _("%(contract)s by %(taker)s") % v
    v["call"] = call
    if outcome == "made":
        return _("%(call)s: made.") % v
    if outcome == "failed":
        return _("%(call)s: failed, the deal goes to %(other)s.") % v
    if outcome == "litige":
        return _("%(call)s: litige, %(carried)s points are held for the next deal.") % v
    return call


def _botifarra_headline(
    outcome: str, detail: dict[str, Any], last: dict[str, Any], teams: list[str]
) -> str:
    """Botifarra: the pair over 36 scores the excess times the multiplier (rules/botifarra.md §7)."""
    if outcome == "tie":
        return _("36–36: nobody scores.")
    points = _pair(last.get("points")) or [0, 0]
    team = 0 if (points[0] or 0) >= (points[1] or 0) else 1
    name = teams[team] if team < len(teams) else ""
    mult = detail.get("multiplier") or 1
    if outcome == "revoke":
        return _("%(team)s score %(n)s: a revoke by the other pair (36 × %(mult)s).") % {
            "team": name,
            "n": points[team],
            "mult": mult,
        }
    totals = _pair(detail.get("totals"))
    tricks = _pair(detail.get("tricks"))
    cp = _pair(detail.get("card_points"))
    if not (totals and tricks and cp):
        return _("%(team)s score %(n)s.") % {"team": name, "n": points[team]}
    return _(
        "%(team)s score %(n)s (= (%(tricks)s tricks + %(cp)s card points − 36) × %(mult)s)."
    ) % {"team": name, "n": points[team], "tricks": tricks[team], "cp": cp[team], "mult": mult}


def _defenders_total(detail: dict[str, Any]) -> int | None:
    """Belote: the defenders' total, which the takers must beat."""
    totals, taker = _pair(detail.get("totals")), detail.get("taker_team")
    if totals and isinstance(taker, int) and taker in (0, 1):
        return int(totals[1 - taker])
    return None


def result_mood(view: dict[str, Any], side: int | None) -> str | None:
    """How the last deal went for the viewer's ``side`` (its index in the deal's points):
    "good" when no side scored more and some side less (Belote for three's two defenders
    sharing a failed contract are both good), "bad" when another side scored more, None
    when every side scored alike, for a spectator (``side`` None) or with no scored
    deal. The headline's colour: a failed contract is good news for the defenders."""
    last = view.get("last_deal")
    points = (last or {}).get("points")
    if side is None or not last or last.get("void") or not isinstance(points, list):
        return None
    if side >= len(points) or not all(isinstance(p, int | float) for p in points):
        return None
    if min(points) == max(points):
        return None
    return "good" if points[side] == max(points) else "bad"


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
            "headline": _("Everybody passed: no score, the next dealer deals."),
        }
    contract = last.get("contract") or {}
    words = labels.of(game)
    if words.sheet == "bridge":
        rows = _bridge_rows(detail, contract)
    elif words.sheet == "players":
        rows = _player_rows(game, detail, labels.sides(game))
    elif last.get("outcome") == "claim":
        rows = [[_("Card points"), *(_pair(detail.get("card_points")) or ["", ""])]]
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
        "needed": detail.get("needed") if not words.beat_defenders else None,
        "defenders": _defenders_total(detail) if words.beat_defenders else None,
        "carried_out": last.get("carried_out") or 0,
    }
