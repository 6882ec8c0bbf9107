"""What is truly one game's own on the table, from the viewer's view only.

* Bridge-Belote: the bidding panel (the standing contract, who doubled, the
  nine calls with exactly the legal ones enabled);
* Botifarra: the dealer's choice and the doubling ladder (step, multiplier);
* Belote for two: the stock, the *retourne* and the bottom card;
* Belote contrée: the bidding panel (the standing bid, who coinched, the bid values
  and suits, pass, coinche and surcoinche, exactly the legal ones enabled).

Each returns a dict whose ``kind`` names its partial
(``templates/rooms/_panel_<kind>.html``), or None when the game has nothing
of its own to show now. Everything else of the table is shared
(app/table/presenter.py).
"""

from __future__ import annotations

import json
from typing import Any

from app.table import labels
from app.web import cards
from app.web.i18n import N_, _

BRIDGE_BIDS = ("C", "D", "H", "S", "NT", "AT")
BOTIFARRA_STEPS = {
    "choose": N_("Choosing trumps"),
    "contrar": N_("Contrar?"),
    "recontrar": N_("Recontrar?"),
    "sant_vicenc": N_("Sant Vicenç?"),
}


def _json(action: dict[str, Any]) -> str:
    return json.dumps(action, separators=(",", ":"), sort_keys=True)


def _who(seat: Any, names: dict[int, str], me: int | None) -> str | None:
    if not isinstance(seat, int):
        return None
    return _("You") if seat == me else names.get(seat, _("Seat %(n)s") % {"n": seat + 1})


def panel(
    view: dict[str, Any],
    names: dict[int, str],
    me: int | None,
    acts: dict[str, Any],
    four: bool = False,
) -> dict[str, Any] | None:
    """The game's own panel now, or None."""
    words = labels.of(view.get("game"))
    if words.panel is None or view.get("phase") not in words.panel_phases:
        return None
    if words.panel == "bridge_bidding":
        return bridge_bidding(view, names, me, four)
    if words.panel == "botifarra_choice":
        return botifarra_choice(view, names, me)
    if words.panel == "belote_2p_stock":
        return belote_2p_stock(view, four)
    if words.panel == "contree_bidding":
        return contree_bidding(view, names, me, four)
    return None


def _bid_values(options: dict[str, Any]) -> list[Any]:
    """The bid values of the options, low to high: 80 ... ``max_bid`` by tens, capot, and
    the générale with its option (rules/contree.md §4)."""
    values: list[Any] = list(range(80, int(options.get("max_bid") or 160) + 1, 10))
    values.append("capot")
    if options.get("generale"):
        values.append("generale")
    return values


CHIPS = 4  # the next legal numbers shown as chips; the higher ones go to a list


def _value_choice(legal: list[Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The legal bid values (low to high) split for a compact panel whatever ``max_bid``:
    ``(chips, more)`` -- chips (radios ``bid_value``) for the next ``CHIPS`` numbers (all five when
    only one more is left) and capot / générale, the first checked; ``more`` (options of the list ``bid_value_more``)
    for the higher numbers. Each entry is ``{"value", "label", "checked"}``; exactly the
    legal values appear, once each (rules/contree.md §4)."""
    numbers = [v for v in legal if isinstance(v, int)]
    words = [v for v in legal if not isinstance(v, int)]
    shown = CHIPS + 1 if len(numbers) == CHIPS + 1 else CHIPS  # no list of a single value
    chips = [
        {"value": v, "label": labels.bid_value_word(v), "checked": i == 0}
        for i, v in enumerate(numbers[:shown] + words)
    ]
    more = [
        {"value": v, "label": labels.bid_value_word(v), "checked": False} for v in numbers[shown:]
    ]
    return chips, more


def contree_bidding(
    view: dict[str, Any], names: dict[int, str], me: int | None, four: bool
) -> dict[str, Any]:
    """The bidding panel of Belote contrée (rules/contree.md §4): the standing bid and who
    coinched it; for the seat to act, a value (80 ... 160, capot), a trump suit to bid it
    in, pass, coinche and surcoinche, each enabled only when legal. A bid posts its suit
    as the action and its value as the form's ``bid_value``."""
    bidding = view.get("bidding") or {}
    legal = view.get("legal_actions") or []
    open_values = {a.get("value") for a in legal if a.get("type") == "bid"}
    values = []
    checked = False
    for v in _bid_values(view.get("options") or {}):
        enabled = v in open_values
        values.append(
            {
                "value": v,
                "label": labels.bid_value_word(v),
                "enabled": enabled,
                "checked": enabled and not checked,
            }
        )
        checked = checked or enabled
    chips, more = _value_choice([v["value"] for v in values if v["enabled"]])
    suits = [
        {
            "suit": s,
            "label": cards.suit_name(s),
            "img": cards.suit_image(s, four),
            "json": _json({"type": "bid", "suit": s}) if open_values else None,
        }
        for s in cards.FRENCH_SUITS
    ]
    by_type = {a["type"]: a for a in legal if a.get("type") != "bid"}
    calls = []
    for key in ("pass", "coinche", "surcoinche"):
        a = by_type.get(key)
        calls.append(
            {
                "key": key,
                "label": labels.action_label(str(view.get("game")), {"type": key}),
                "json": _json(a) if a else None,
            }
        )
    bid, suit = bidding.get("bid"), bidding.get("suit")
    return {
        "kind": "contree",
        "owns_calls": True,
        "bid": bid,
        "bid_label": labels.bid_value_word(bid) if bid is not None else None,
        "suit_img": cards.suit_image(suit, four) if suit else None,
        "suit_name": cards.suit_name(suit) if suit else None,
        "bidder": _who(bidding.get("bidder"), names, me),
        "coinched_by": _who(bidding.get("coinched_by"), names, me),
        "surcoinched_by": _who(bidding.get("surcoinched_by"), names, me),
        "values": values,
        "chips": chips,
        "more": more,
        "suits": suits,
        "calls": calls,
        "my_turn": bool(legal) and me is not None,
    }


def bridge_bidding(
    view: dict[str, Any], names: dict[int, str], me: int | None, four: bool
) -> dict[str, Any]:
    """The bidding panel of Bridge-Belote (rules/bridge-belote.md §4)."""
    bidding = view.get("bidding") or {}
    legal = view.get("legal_actions") or []
    by_key: dict[str, dict[str, Any]] = {}
    for a in legal:
        key = a.get("contract") if a.get("type") == "bid" else a.get("type")
        by_key[str(key)] = a
    buttons = []
    bid: str | None
    for bid in BRIDGE_BIDS:
        a = by_key.get(bid)
        buttons.append(
            {
                "key": bid,
                "label": cards.contract_name(bid),
                "img": cards.suit_image(bid, four) if bid in cards.FRENCH_SUITS else None,
                "json": _json(a) if a else None,
                "kind": "bid",
            }
        )
    for key, label in (("pass", _("Pass")), ("double", _("Contra")), ("redouble", _("Recontra"))):
        a = by_key.get(key)
        buttons.append(
            {"key": key, "label": label, "img": None, "json": _json(a) if a else None, "kind": key}
        )
    bid = bidding.get("bid")
    return {
        "kind": "bidding",
        "owns_calls": True,
        "bid": bid,
        "bid_label": cards.contract_name(bid) if bid else None,
        "bid_img": cards.suit_image(bid, four) if bid in cards.FRENCH_SUITS else None,
        "bidder": _who(bidding.get("bidder"), names, me),
        "doubled_by": _who(bidding.get("doubled_by"), names, me),
        "redoubled_by": _who(bidding.get("redoubled_by"), names, me),
        "multiplier": bidding.get("multiplier") or 1,
        "buttons": buttons if me is not None else [],
        "my_turn": bool(legal),
    }


def _scale(options: dict[str, Any]) -> list[int]:
    """Multipliers by number of doublings: [1, 2, 4, 8] or [1, 2, 3, 4] (option doubling_scale)."""
    raw = str((options or {}).get("doubling_scale") or "2-4-8")
    try:
        return [1, *(int(x) for x in raw.split("-"))]
    except ValueError:
        return [1, 2, 4, 8]


def botifarra_choice(view: dict[str, Any], names: dict[int, str], me: int | None) -> dict[str, Any]:
    """The dealer's choice and the doubling ladder of Botifarra (rules/botifarra.md §4)."""
    step = view.get("choice_step")
    contract = view.get("contract") or {}
    scale = _scale(view.get("options") or {})
    doublings = int(view.get("doublings") or 0)
    base = 2 if contract.get("botifarra") else 1
    calls = []
    for a in view.get("legal_actions") or []:
        kind = a.get("type")
        label = labels.action_label(str(view.get("game")), a)
        if kind in ("double", "redouble", "sant_vicenc") and doublings + 1 < len(scale):
            label += f" ×{base * scale[doublings + 1]}"
        suit = a.get("suit")
        calls.append(
            {
                "label": label,
                "json": _json(a),
                "kind": kind,
                "suit_img": cards.suit_image(suit) if suit else None,
            }
        )
    trump = contract.get("trump")
    if contract.get("botifarra"):
        choice = _("Botifarra (no trumps, ×2)")
    elif trump:
        choice = _("Trumps: %(suit)s") % {"suit": cards.suit_name(trump)}
    else:
        choice = None
    dealer = view.get("dealer")
    partner = (dealer + 2) % 4 if isinstance(dealer, int) else None
    if step == "choose" and view.get("delegated"):
        words = {"dealer": _who(dealer, names, me), "partner": _who(partner, names, me)}
        if partner == me:
            who_chooses = _("%(dealer)s delegated: you choose") % words
        else:
            who_chooses = _("%(dealer)s delegated: %(partner)s chooses") % words
    elif step == "choose":
        if dealer == me:
            who_chooses = _("You choose trumps")
        else:
            who_chooses = _("%(dealer)s chooses trumps") % {"dealer": _who(dealer, names, me)}
    else:
        maker = {"who": _who(view.get("trump_maker"), names, me)}
        if view.get("delegated"):
            who_chooses = _("chosen by %(who)s (delegated)") % maker
        else:
            who_chooses = _("chosen by %(who)s") % maker
    return {
        "kind": "choice",
        "owns_calls": True,
        "step": step,
        "step_label": _(BOTIFARRA_STEPS[str(step)]) if str(step) in BOTIFARRA_STEPS else "",
        "choice": choice,
        "choice_img": cards.suit_image(trump) if trump else None,
        "who": who_chooses,
        "multiplier": view.get("multiplier"),
        "doublings": doublings,
        "calls": calls,
    }


def belote_2p_stock(view: dict[str, Any], four: bool) -> dict[str, Any]:
    """Belote for two: the stock, the retourne and the bottom card beside it (rules/belote.md
    §3); Belote for three: the stock and the retourne (rules/belote-3p.md §3).

    ``dealt_from``: the stock still gives cards, after the bidding (the auction); once the
    play begins what is left of it (Belote for two's 12 cards, the 32-card Belote for
    three's 4) is never drawn from nor played, and the table says so."""

    def card(code: str | None) -> dict[str, Any] | None:
        if not code:
            return None
        return {"card": code, "img": cards.card_image(code, four), "name": cards.card_name(code)}

    exchange = view.get("exchange") or None
    return {
        "kind": "stock",
        "owns_calls": False,
        "stock": int(view.get("stock_count") or 0),
        "dealt_from": view.get("phase") == "auction",
        "turned": card(view.get("turned")),
        "bottom": card(view.get("bottom_card")),
        "exchanged": bool(exchange and exchange.get("swap")),
        "back": cards.back_image(view.get("game")),
        "won": view.get("card_points_won"),
    }
