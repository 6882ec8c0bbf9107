"""The "replay my deal" panel (rooms/_replay_mine.html) in the viewer's language, from an
answer of :func:`app.records.replay_mine.replay_mine`: both results side by side, from the
viewer's side, and the first differences as sentences."""

from __future__ import annotations

from typing import Any

from app import rules
from app.table import labels, presenter, sheets
from app.web import cards
from app.web.i18n import _

#: Differences the page shows (the JSON lists them all).
DIFFERENCES_SHOWN = 4


def for_page(result: dict[str, Any], room: dict[str, Any]) -> dict[str, Any]:
    """What ``rooms/_replay_mine.html`` draws, in the viewer's language, from a
    :func:`app.records.replay_mine.replay_mine` answer and ``room`` (``service.room_info``): ``{deal_no, rows:
    [[label, as played, replayed]], gain, people, differences: [text], more, budget_ms}``.
    Points and tricks read "your side – the other side"."""
    game, seat = result["game"], result["seat"]
    g = rules.GAMES[game]
    players = g.players
    names = presenter.seat_names({"seats": room.get("seats") or [], "players": players})
    teams = presenter.team_names(
        {"seats": room.get("seats") or [], "players": players, "my_seat": seat, "game": game},
        names,
    )
    us = g.team_of(seat)

    def versus(values: list[int]) -> str:
        """Your side's figure, then the other side's (with three players, each other's)."""
        return " – ".join(
            str(v) for v in [values[us], *(v for s, v in enumerate(values) if s != us)]
        )

    def side(part: dict[str, Any]) -> dict[str, Any]:
        last = part["last_deal"]
        shown = sheets.deal_result({"game": game, "last_deal": last}, teams) or {}
        contract = part.get("contract") or {}
        taker = next(
            (
                contract.get(k)
                for k in ("taker", "bidder", "chooser")
                if isinstance(contract.get(k), int)
            ),
            None,
        )
        if part["void"]:
            words = _("everybody passed")
        else:
            words = str(shown.get("trump_name") or presenter.contract_label(contract) or "")
            words = words[:1].upper() + words[1:]
            if taker is not None:
                words += " · " + (_("You") if taker == seat else names.get(taker, "?"))
        return {
            "contract": words,
            "tricks": versus(part["tricks"]),
            "points": versus(part["points"]),
            "headline": shown.get("headline", ""),
            # over the best of the others (two sides: the other side)
            "margin": part["points"][us] - max(v for s, v in enumerate(part["points"]) if s != us),
        }

    mine, bot = side(result["actual"]), side(result["replay"])
    rows = [
        [_("Contract"), mine["contract"], bot["contract"]],
        [
            _("Tricks (us – them)")
            if players == 4
            else _("Tricks (you – them)")
            if players == 2
            else _("Tricks (you – the others)"),
            mine["tricks"],
            bot["tricks"],
        ],
        [
            _("Points (us – them)")
            if players == 4
            else _("Points (you – them)")
            if players == 2
            else _("Points (you – the others)"),
            mine["points"],
            bot["points"],
        ],
        [_("Result"), mine["headline"], bot["headline"]],
    ]
    # Both margins spelled out: "54 points better" was read as 54 more points, when it is
    # the change of the difference between the sides.
    if bot["margin"] != mine["margin"]:
        verdict = (
            _(
                "Your margin over the best of the others: %(mine)s with your play, %(bot)s with the bot's."
            )
            if players == 3  # each for himself: the margin is over the better of the two
            else _(
                "Your side's margin over the other: %(mine)s with your play, %(bot)s with the bot's."
            )
        ) % {"mine": f"{mine['margin']:+d}", "bot": f"{bot['margin']:+d}"}
    else:
        verdict = _("The same margin either way.")
    texts = [_difference(game, d) for d in result["differences"]]
    return {
        "deal_no": result["deal_no"],
        "rows": rows,
        "verdict": verdict,
        "people": ", ".join(names[s] for s in result["people"]),
        "differences": texts[:DIFFERENCES_SHOWN],
        "more": max(0, len(texts) - DIFFERENCES_SHOWN),
        "budget_ms": int(result["budget_ms"]),
    }


def _difference(game: str, diff: dict[str, Any]) -> str:
    """One difference as a sentence: "Trick 3: you played the 7 of spades, the bot the Ace of spades"."""

    def said(action: dict[str, Any] | None) -> str:
        if action is None:  # that deal's auction ended before this call (a fresh tester read "—")
            return _("no call, the bidding was over") if diff["kind"] == "call" else "—"
        if action.get("type") == "play":
            return cards.card_name(str(action.get("card")))
        return labels.action_label(game, action)

    values = {"n": diff["n"], "mine": said(diff["mine"]), "bot": said(diff["bot"])}
    if diff["kind"] == "card":
        return _("Trick %(n)s: you played the %(mine)s, the bot the %(bot)s") % values
    if diff["kind"] == "declare":
        return _("Declarations: you: %(mine)s; the bot: %(bot)s") % values
    return _("Bidding, call %(n)s: you: %(mine)s; the bot: %(bot)s") % values
