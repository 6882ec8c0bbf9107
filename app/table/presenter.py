"""Turn one viewer's view dict into what the table templates draw.

The input is exactly what ``service.get_view`` returns for the viewer: the
engine's ``observe(state, seat)`` (docs/engine-face.md) merged with the room
info and ``my_seat``. Nothing else is read, so nothing the viewer may not see
can reach the page. The output is plain dicts and lists for Jinja2.

Seats are drawn from the viewer's chair: the viewer at the bottom, the next
seat in playing order on the right (play goes counter-clockwise at a real
table), the partner at the top, the previous seat on the left. A spectator
sits where seat 0 would.
"""

from __future__ import annotations

import json
from typing import Any

from app import rules
from app.table import labels, panels, sheets
from app.web import cards
from app.web.i18n import _

POSITIONS = {
    4: ("bottom", "right", "top", "left"),
    2: ("bottom", "top"),
    3: ("bottom", "right", "left"),
}
BELOTE_FLAGS = ("bolot", "belote")


def action_json(action: dict[str, Any]) -> str:
    """The action as the compact JSON string a move form posts."""
    return json.dumps(action, separators=(",", ":"), sort_keys=True)


def viewer_seat(view: dict[str, Any]) -> int | None:
    """The seat the viewer holds, or None for a spectator."""
    seat = view.get("my_seat", view.get("seat"))
    return seat if isinstance(seat, int) else None


def display_name(seat: dict[str, Any]) -> str:
    """The name shown for one seat of the room info: the person's nickname, or
    "Bot 3" for a bot (numbered by seat, so four bots are told apart)."""
    if seat.get("kind") == "bot":
        return _("Bot %(n)s") % {"n": seat["seat"] + 1}
    if seat.get("kind") == "empty":
        return _("empty seat")
    return seat.get("name") or _("Seat %(n)s") % {"n": seat["seat"] + 1}


def seat_names(view: dict[str, Any]) -> dict[int, str]:
    """Seat number -> the name shown for it ("Anna", "Bot 2", "empty seat")."""
    names: dict[int, str] = {}
    for s in view.get("seats") or []:
        names[s["seat"]] = display_name(s)
    for i in range(int(view.get("players") or 4)):
        names.setdefault(i, _("Seat %(n)s") % {"n": i + 1})
    return names


def sides(view: dict[str, Any]) -> int:
    """The scoring sides of the view's game: 2 pairs, or each player for himself (2 or 3:
    the ruleset's ``sides``); 2 for an unknown game."""
    return labels.sides(view.get("game"))


def each_for_himself(view: dict[str, Any]) -> bool:
    """True when every player scores for himself (Belote for two, for three): a side is a seat."""
    return sides(view) == int(view.get("players") or 4)


def team_names(view: dict[str, Any], names: dict[int, str]) -> list[str]:
    """Side names from the viewer's side: "You & Bea" / "Carl & Dan" (spectators see both
    pairs' names); each player's name ("You" for the viewer) where each plays for himself."""
    players = int(view.get("players") or 4)
    me = viewer_seat(view)
    if each_for_himself(view):
        return [(_("You") if me == s else names[s]) for s in range(players)]
    result = []
    for team in (0, 1):
        a, b = team, team + 2
        if me in (a, b):
            partner = b if me == a else a
            result.append(_("You & %(partner)s") % {"partner": names[partner]})
        else:
            result.append(_("%(a)s & %(b)s") % {"a": names[a], "b": names[b]})
    return result


def split_actions(view: dict[str, Any]) -> dict[str, Any]:  # noqa: C901 - one pass over the list
    """Group ``legal_actions`` for drawing.

    Returns ``{"plays": {card: action}, "plain_alternatives": [action],
    "declares": [{label, json}], "calls": [{label, json, suit_img, kind}]}``.
    When a card is offered both plain and with the bolot/belote flag
    (rules/bolot.md §5), the card button plays the flagged form (say it, the
    default) and the plain form is offered apart as "play without saying it".
    """
    game = view.get("game", "")
    plays: dict[str, dict[str, Any]] = {}
    alternatives: list[dict[str, Any]] = []
    declares: list[dict[str, Any]] = []
    calls: list[dict[str, Any]] = []
    flagged = {
        a["card"]
        for a in view.get("legal_actions") or []
        if a.get("type") == "play" and any(a.get(f) for f in BELOTE_FLAGS)
    }
    for a in view.get("legal_actions") or []:
        kind = a.get("type")
        if kind == "play":
            is_flagged = any(a.get(f) for f in BELOTE_FLAGS)
            if a["card"] in flagged and not is_flagged:
                alternatives.append(
                    {
                        "label": _("Play the %(card)s without saying %(word)s")
                        % {"card": cards.card_name(a["card"]), "word": labels.belote_word(game)},
                        "json": action_json(a),
                    }
                )
            else:
                plays[a["card"]] = a
        elif kind == "declare":
            declares.append(
                {
                    "label": labels.action_label(game, a),
                    "json": action_json(a),
                    "value": sum(
                        labels.declaration_value(game, c) for c in a.get("combinations") or []
                    ),
                }
            )
        else:
            suit = cards.action_suit(a)
            label = labels.action_label(game, a)
            turned = view.get("turned")
            if kind == "take" and not suit and isinstance(turned, str) and turned:
                # Round 1: the take is in the turned card's suit; name it on the button.
                suit = turned[-1]
                label = _(labels.of(game).take_turned) % {"suit": cards.suit_name(suit)}
            short = False  # a claim below the target loses the match (rules/belote.md §6)
            if kind == "claim" and view.get("claim_totals") and isinstance(view.get("seat"), int):
                total, target = view["claim_totals"][view["seat"]], view.get("target")
                label = _("I'm done: claim %(total)s of %(target)s") % {
                    "total": total,
                    "target": target,
                }
                short = isinstance(target, int) and total < target
            calls.append(
                {
                    "label": label,
                    "json": action_json(a),
                    "kind": kind,
                    "suit_img": cards.suit_image(suit) if suit else None,
                    "short": short,
                    # "Vaig" explained: a title, and "· take" until the player has used it
                    "gloss": labels.action_gloss(
                        game, a, turned=kind == "take" and not a.get("suit") and bool(suit)
                    ),
                }
            )
    # The best choice first (the one the table suggests), "No declarations" last.
    declares.sort(key=lambda d: -d["value"] if d["value"] else 1)
    for i, d in enumerate(declares):
        d["best"] = i == 0 and d["value"] > 0
    return {
        "plays": plays,
        "plain_alternatives": alternatives,
        "declares": declares,
        "calls": calls,
    }


def _card(
    card: str, seat: int | None = None, pos: str | None = None, four: bool = False
) -> dict[str, Any]:
    return {
        "card": card,
        "img": cards.card_image(card, four),
        "name": cards.card_name(card),
        "long": cards.card_long_name(card),
        "seat": seat,
        "pos": pos,
    }


def _declared_by_seat(view: dict[str, Any], four: bool) -> dict[int, list[dict[str, Any]]]:
    game = view.get("game", "")
    out: dict[int, list[dict[str, Any]]] = {}
    for d in view.get("declarations") or []:
        items = []
        for c in d.get("combinations") or []:
            items.append(
                {
                    "label": labels.declaration_label(game, c),
                    "cards": [_card(x, four=four) for x in c.get("cards") or []],
                    "points": c.get("points"),
                }
            )
        out[d["seat"]] = items
    return out


def asked(view: dict[str, Any]) -> dict[str, Any]:
    """``view`` as the table asks it: when the room skips the empty declaration
    (``skip_empty_declaration``, on by default) and "no declarations" is the only
    declaration the seat may make, that prompt is left out of ``legal_actions``, so the
    seat is asked for its card only. The card it plays is then stored with the empty
    declaration before it, both as the seat's own moves, at the same moment
    (app/rooms/play.py ``resolve``; docs/server.md "Declarations"): the record and the
    replay hold the declaration, and nobody can tell this seat from one that chose to
    hide a combination. Otherwise ``view`` is returned unchanged."""
    legal = view.get("legal_actions") or []
    declares = [a for a in legal if a.get("type") == "declare"]
    if (
        view.get("skip_empty_declaration") is False
        or len(declares) != 1
        or declares[0].get("combinations")
        or not any(a.get("type") == "play" for a in legal)
    ):
        return view
    return {**view, "legal_actions": [a for a in legal if a.get("type") != "declare"]}


def hints_allowed(view: dict[str, Any]) -> bool:
    """Whether the seat of ``view`` (a room's view) may ask for hints: not at a
    championship's table (``match`` set), nor in a rated match where another seat is a
    person's; at a casual table, or a rated one against bots only, it may. The table
    shows its Hint button only then (``t.hints``); app/table/hints.py refuses the rest."""
    if view.get("match") is not None:
        return False
    if not view.get("rated"):
        return True
    me = view.get("my_seat")
    return not any(
        s.get("user_id") is not None and s.get("seat") != me for s in view.get("seats") or []
    )


def table(view: dict[str, Any], four_colour: bool = False) -> dict[str, Any]:
    """Everything the table template needs, from the viewer's view only (``asked``: the
    empty declaration prompt left out when it is all the seat may declare).

    ``four_colour`` is the viewer's choice of the French four-colour deck (a
    cookie); it changes only which art is drawn."""
    view = asked(view)
    four = four_colour
    game = view.get("game", "")
    words = labels.of(game)
    players = int(view.get("players") or 4)
    n_sides = sides(view)
    solo = each_for_himself(view)
    me = viewer_seat(view)
    base = me if me is not None else 0
    positions = POSITIONS.get(players, POSITIONS[4])
    names = seat_names(view)
    kinds = {s["seat"]: s for s in view.get("seats") or []}
    pos_of = {(base + i) % players: positions[i] for i in range(players)}
    counts = view.get("hand_counts") or [0] * players
    contract = view.get("contract") or None
    taker = _first_key(contract, "taker", "bidder", "chooser") if contract else None
    declared = _declared_by_seat(view, four)
    belote_said: dict[int, str] = {}
    for b in view.get("belote") or []:
        # Bridge-Belote says "belot" for the pair, once (rules/bridge-belote.md §5)
        belote_said[b["seat"]] = (
            labels.rebelote_word(game) if b.get("rebelote") else labels.belote_word(game)
        )
    to_act = view.get("to_act")
    calls: dict[int, str] = {}
    call_words: dict[int, str] = {}  # the call in full, for the tooltip and screen readers
    call_index: dict[int, int] = {}
    call_gloss: dict[int, str | None] = {}
    for i, entry in enumerate(view.get("auction") or []):
        calls[entry["seat"]] = labels.call_label(game, entry, view.get("options"))
        call_words[entry["seat"]] = labels.action_label(game, entry)
        call_index[entry["seat"]] = i
        glossed = labels.action_gloss(game, entry)
        call_gloss[entry["seat"]] = glossed["title"] if glossed else None
    # Between deals (phase "deal") the view already names the next deal's dealer while the
    # table still shows the finished deal: no dealer or eldest-hand chip until it starts.
    dealer = view.get("dealer") if view.get("phase") != "deal" else None
    exchanging = _exchange_asked(view)  # the bidding is over: no call bubbles left over
    seats = []
    for s in range(players):
        info = kinds.get(s, {})
        seats.append(
            {
                "seat": s,
                "pos": pos_of[s],
                "name": names[s],
                "me": s == me,
                # a stand-in plays a person's seat (left, or timed out too often: kind stays
                # "person" then); the table says so to everybody, not only in a tooltip
                "bot": info.get("bot")
                if info.get("kind") == "bot" or info.get("stand_in")
                else None,
                "stand_in": bool(info.get("stand_in")),
                "away": bool(info.get("away")),  # the person left the match (not a time-out)
                "count": counts[s] if s < len(counts) else 0,
                "team": s % n_sides,
                "role": labels.seat_word(game, s, dealer, players),
                "role_gloss": labels.seat_word_gloss(game, s, dealer, players),
                "dealer": dealer is not None and s == dealer,
                "to_act": s == to_act,
                "taker": s == taker,
                "declared": declared.get(s),
                "belote": belote_said.get(s),
                "call": calls.get(s) if view.get("phase") == "auction" and not exchanging else None,
                "call_key": call_index.get(s),
                "call_words": call_words.get(s),
                "call_gloss": call_gloss.get(s),
            }
        )
    # A championship stops its match between deals (a number of deals, a time limit):
    # the room is finished with no winner from the rules; the higher score wins it. A
    # withdrawal stops it during a deal: the championship's forfeit decides, not the table.
    winner, draw = view.get("winner"), bool(view.get("draw"))
    end = ending(view, names, me)
    stopped = match_stopped(view) and end is None
    stopped_in_deal = stopped and view.get("phase") != "deal"
    if stopped and not stopped_in_deal:
        winner = rules.leading_team(view.get("scores") or [0] * n_sides)
        draw = winner is None
    if end is not None and end["reason"] == "resigned" and n_sides == 2:
        winner = 1 - end["loser_side"]  # the other pair (or player) wins it
    acts = split_actions(view)
    hand_cards = []
    my_turn_to_play = bool(acts["plays"])
    for c in view.get("hand") or []:
        item = _card(c, four=four)
        action = acts["plays"].get(c)
        item["playable"] = action is not None
        # an unplayable card still posts its play on the player's turn, so that the server
        # answers with the rule that forbids it (issue: "a rejected card gets its rule")
        tried = {"type": "play", "card": c} if my_turn_to_play else None
        item["json"] = action_json(action) if action else action_json(tried) if tried else None
        item["says_belote"] = bool(action and any(action.get(f) for f in BELOTE_FLAGS))
        hand_cards.append(item)
    trick = [
        _card(t["card"], t["seat"], pos_of.get(t["seat"]), four) for t in view.get("trick") or []
    ]
    for item in trick:
        item["seat_name"] = _("You") if item["seat"] == me else names.get(item["seat"], "?")
    last = view.get("last_trick")
    last_trick = None
    if last:
        last_trick = {
            "cards": [
                _card(t["card"], t["seat"], pos_of.get(t["seat"]), four)
                for t in last.get("cards") or []
            ],
            "winner": _("You") if last.get("winner") == me else names.get(last.get("winner"), "?"),
            "winner_me": last.get("winner") == me,
            "winner_pos": pos_of.get(last.get("winner")),
        }
    teams = team_names(view, names)
    trump = contract.get("trump") if contract else None
    return {
        "game": game,
        "me": me,
        "spectator": me is None,
        "hints": me is not None and hints_allowed(view),
        "players": players,
        "sides": n_sides,
        "solo": solo,
        "seats": seats,
        "seat_by_pos": {s["pos"]: s for s in seats},
        "hand": hand_cards,
        "my_turn_to_play": my_turn_to_play,
        "actions": acts,
        "trick": trick,
        "last_trick": last_trick,
        "teams": teams,
        "teams_short": teams
        if solo
        else [_("Us"), _("Them")]
        if me is not None and me % 2 == 0
        else [_("Them"), _("Us")]
        if me is not None
        else [_("Pair 1"), _("Pair 2")],
        "my_team": (me % n_sides) if me is not None else None,
        "turned": _card(view["turned"], four=four) if view.get("turned") else None,
        "contract": contract
        and {
            "trump": trump,
            "trump_name": cards.suit_name(trump) if trump else None,
            "trump_img": cards.suit_image(trump, four) if trump in cards.SUIT_NAMES else None,
            "taker": (_("You") if taker == me else names.get(taker, "?"))
            if taker is not None
            else None,
            "taker_team": contract.get("taker_team"),
            "round": contract.get("round"),
            "label": contract_label(contract),
            "bid_words": (labels.contract_words(game, contract) or ("", ""))[0],
            "level_words": (labels.contract_words(game, contract) or ("", ""))[1],
            "multiplier": contract.get("multiplier") or view.get("multiplier"),
            "always_multiplier": words.always_multiplier,
            "delegated": bool(contract.get("delegated")),
        },
        "preset": labels.preset_words(game, view.get("options")),
        "to_act": to_act,
        "to_act_name": names.get(to_act) if to_act is not None else None,
        "my_turn": to_act is not None and to_act == me,
        "status": status_line(view, names, me),
        "back_img": cards.back_image(game),
        "result": sheets.deal_result(view, teams),
        "result_mood": sheets.result_mood(view, me % n_sides if me is not None else None),
        "deal_no": deal_number(view),
        "sheet": sheets.sheet(view),
        # a match ended mid-deal (resigned, abandoned) asks nothing more (a fresh tester
        # saw "Contrar?" under "The match is over.")
        "panel": None
        if view.get("status") == "finished"
        else panels.panel(view, names, me, acts, four),
        "french": not cards.spanish_deck(game),
        "four_colour": four,
        "winner": winner,
        "draw": draw,
        "stopped": stopped,
        "stopped_in_deal": stopped_in_deal,
        "end": end,
        "rematch": rematch(view, names, me),
        # The dealer's partner in Botifarra holds cards he may not look at yet.
        "hidden_hand": (counts[me] if me is not None and view.get("hand_hidden") else 0),
        "belote_word": labels.belote_word(game),
        "trump_choice": labels.trump_chosen(game),
        "taker_chip": _(words.taker_chip),
        "carried_row": _(words.carried_row),
        "clock": _clock(view, me),
        "open_hands": open_hands(view, names, four),
    }


def deal_number(view: dict[str, Any]) -> int:
    """The number of the deal the table shows: the one being bid or played, or, between
    deals and at the end, the one just finished; 0 before the first deal.

    The view carries no deal number of its own; the sheet lists every deal, void ones
    included, numbered by the engine (docs/engine-face.md ``sheet[].deal``), and a deal
    enters the sheet when it is scored (or found void). So while a deal is bid or played
    it is the one after the sheet's last ("Deal 6" while the sheet ends at deal 5)."""
    sheet = view.get("sheet") or []
    finished = max((int(e.get("deal") or 0) for e in sheet), default=0)
    if view.get("phase") in ("deal", "over") or view.get("winner") is not None:
        return finished
    return finished + 1


def open_hands(
    view: dict[str, Any], names: dict[int, str], four: bool = False
) -> dict[str, Any] | None:
    """The hands a spectator sees one deal late (room option ``spectators_see_hands``;
    the view's ``open_hands`` ``{"deal": N, "hands": [[codes] per seat]}``, which the
    server gives spectators only and only of a finished deal: docs/server.md
    "Spectators"): ``{"deal": N, "seats": [{"seat", "name", "team", "cards": [card
    dicts]}]}`` in seat order, or None (a seated viewer, the option off, no deal finished)."""
    opened = view.get("open_hands")
    if viewer_seat(view) is not None or not isinstance(opened, dict) or not opened.get("hands"):
        return None
    seats = [
        {
            "seat": s,
            "name": names.get(s, "?"),
            "team": s % sides(view),
            "cards": [_card(c, s, four=four) for c in hand],
        }
        for s, hand in enumerate(opened["hands"])
    ]
    return {"deal": opened.get("deal"), "seats": seats}


def _clock(view: dict[str, Any], me: int | None) -> dict[str, Any] | None:
    """The running move clock (the view's ``clock``: seat, deadline, seconds), or None."""
    clock = view.get("clock")
    if not isinstance(clock, dict) or not clock.get("deadline"):
        return None
    return {
        "seat": clock.get("seat"),
        "deadline": clock["deadline"],
        "seconds": clock.get("seconds"),
        "mine": clock.get("seat") == me,
    }


def _first_key(d: dict[str, Any], *keys: str) -> Any:
    """The value of the first of ``keys`` present (not None) in ``d``."""
    return next((d[k] for k in keys if d.get(k) is not None), None)


def contract_label(contract: dict[str, Any]) -> str | None:
    """What to call a contract with no trump suit: "Botifarra", "No trumps", "All trumps"."""
    if contract.get("botifarra"):
        return _("Botifarra")
    kind = contract.get("kind")
    if kind in ("no_trumps", "all_trumps"):
        return _("No trumps") if kind == "no_trumps" else _("All trumps")
    bid = contract.get("bid") or contract.get("contract")
    return cards.contract_name(bid) if isinstance(bid, str) else None


def ending(view: dict[str, Any], names: dict[int, str], me: int | None) -> dict[str, Any] | None:
    """How a match that the rules did not end was ended, for the finished panel (None
    for a played or stopped one, or while it runs): ``{"reason": "resigned" |
    "abandoned", "line": one sentence, "loser_side": the resigning seat's side}``."""
    ended = view.get("ended") or {}
    reason = ended.get("reason")
    if view.get("status") != "finished" or reason not in ("resigned", "abandoned"):
        return None
    if reason == "abandoned":
        line = _("Nobody was at the table any more: the match was ended.")
        return {"reason": reason, "line": line, "loser_side": None}
    seat = int(ended.get("resigned_seat") or 0)
    if seat == me:
        line = _("You resigned: your side lost the match.")
    else:
        line = _("%(name)s resigned: their side lost the match.") % {"name": names.get(seat, "?")}
    return {"reason": reason, "line": line, "loser_side": seat % sides(view)}


def rematch(view: dict[str, Any], names: dict[int, str], me: int | None) -> dict[str, Any] | None:
    """The rematch of a finished table for its panel (None when it has none: running,
    or a championship's table): ``{"room": the new room's id or None, "seats": [{"name",
    "state", "word"}], "mine": the viewer's answer or None for a spectator, "declined":
    the names of the others who said no}``."""
    ended = view.get("ended") or {}
    state = ended.get("rematch")
    if view.get("status") != "finished" or not state:
        return None
    words = {
        "accepted": _("accepted"),
        "declined": _("declined"),
        "waiting": _("not answered yet"),
        "bot": _("accepts (a bot)"),
    }
    seats = []
    for seat, answer in sorted((int(k), v) for k, v in state["seats"].items()):
        seats.append(
            {
                "name": _("You") if seat == me else names.get(seat, "?"),
                "state": answer,
                "word": words.get(answer, answer),
                "me": seat == me,
            }
        )
    mine = state["seats"].get(str(me), state["seats"].get(me)) if me is not None else None
    declined = [s["name"] for s in seats if s["state"] == "declined" and not s["me"]]
    return {"room": state.get("room"), "seats": seats, "mine": mine, "declined": declined}


def match_stopped(view: dict[str, Any]) -> bool:
    """True when the room was finished without the rules ending the match
    (``service.end_match``): between deals by a championship's number of deals or time
    limit, or during a deal by a team's withdrawal. The record says the same
    (``records.record``: ``stopped``). Never on a replay's step (``replay``: its room is
    finished, its step is not the end)."""
    return (
        view.get("status") == "finished"
        and view.get("phase") != "over"
        and view.get("winner") is None
        and not view.get("replay")
    )


def status_line(view: dict[str, Any], names: dict[int, str], me: int | None) -> str:
    """One sentence saying what happens now: "Your turn to bid", "Waiting for Bot 2 to play"."""
    phase = view.get("phase")
    to_act = view.get("to_act")
    if phase == "over" or view.get("winner") is not None or match_stopped(view):
        return _("The match is over.")
    if phase == "deal" or to_act is None:
        return _("Next deal coming…") if view.get("sheet") else _("Dealing…")
    verb = {"auction": "bid", "play": "play"}.get(str(phase), "act")
    acts = view.get("legal_actions") or []
    if any(a.get("type") == "declare" for a in acts):
        verb = "declare"
    if _exchange_asked(view):
        verb = "exchange"
    if labels.trump_chosen(view.get("game")) and phase == "auction":
        # no bidding in Botifarra (rules/botifarra.md §4): the trump choice (no contract
        # yet), then the doubling, the redouble and Sant Vicenç, each named
        step = view.get("choice_step")
        verb = "choose" if view.get("contract") is None else "double"
        if step in ("recontrar", "sant_vicenc"):
            verb = str(step)
    if to_act == me:
        return {
            "bid": _("Your turn to bid"),
            "play": _("Your turn to play"),
            "declare": _("Your turn to declare"),
            "exchange": _("Your turn: swap your 7 of trumps for the turned card?"),
            "choose": _("Your turn to choose trumps"),
            "double": _("Your turn: double or pass"),
            "recontrar": _("Your turn: redouble or pass"),
            "sant_vicenc": _("Your turn: Sant Vicenç or pass"),
        }.get(verb, _("Your turn"))
    who = {"name": names.get(to_act, "?")}
    return {
        "bid": _("Waiting for %(name)s to bid"),
        "play": _("Waiting for %(name)s to play"),
        "declare": _("Waiting for %(name)s to declare"),
        "exchange": _("Waiting for %(name)s: swap the 7 of trumps?"),
        "choose": _("Waiting for %(name)s to choose trumps"),
        "double": _("Waiting for %(name)s: double or pass"),
        "recontrar": _("Waiting for %(name)s: redouble or pass"),
        "sant_vicenc": _("Waiting for %(name)s: Sant Vicenç or pass"),
    }.get(verb, _("Waiting for %(name)s")) % who


def _exchange_asked(view: dict[str, Any]) -> bool:
    """True while the holder of the 7 of trumps is asked about the exchange (belote-2p,
    rules/belote.md §3): the bidding is over then."""
    exchange = view.get("exchange") or {}
    return bool(exchange) and exchange.get("swap") is None and view.get("phase") == "auction"
