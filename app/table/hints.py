"""Hints: what the strong bot would do from the requester's own seat, and a few words why.

``hint(db, room_id, user)`` reads the requester's own view (``service.get_view``
for that user: never another seat's) and asks the ``strong`` bot
(:mod:`app.bots.strong`) for an action with a small budget, in a worker thread.
The reason of a card the search chose is what that search compared
(:class:`app.bots.strong.Explanation`, from the same search: no second one): on
how many of the deals it drew the card did better than the strongest other card,
and by how much on average (``explain``). Elsewhere (a call, a forced card, a
fallback) it is derived simply from the view (the trick on the table, the card's
points, the trump): what the suggested card does to the trick now (``reason``).
"""

from __future__ import annotations

from typing import Any, cast

import anyio

from app import rules
from app.accounts.models import User
from app.bots.strong import ADVICE_BUDGET_MS, Explanation, advice_rng
from app.core.errors import Forbidden
from app.core.hooks import HOOKS
from app.rooms import botplay, play, service
from app.table import labels
from app.table.presenter import action_json, asked, hints_allowed
from app.web import cards
from app.web.i18n import _, ngettext

#: Thinking time of a hint, in milliseconds (a bot at the table gets more): the strong
#: bot's advice budget, the same as the replay of a deal from the requester's seat, so that
#: the two agree (``strong.ADVICE_BUDGET_MS``).
HINT_BUDGET_MS = ADVICE_BUDGET_MS


def _choose(view: dict[str, Any], budget_ms: float) -> tuple[dict[str, Any], Explanation | None]:
    """The strong bot's action for ``view`` (one of its legal actions) and what its search
    compared (None when no search chose between cards). Its draws are seeded by the
    position (``strong.advice_rng``), as the replay of the deal from this seat is."""
    # the room's view is the engine's View with the room's keys added; an Action is a dict
    engine_view = cast(rules.View, view)
    action, explanation = botplay.choose_explained(
        "strong", engine_view, advice_rng(engine_view), budget_ms
    )
    return cast(dict[str, Any], action), explanation


async def hint(
    db: Any,
    room_id: int,
    user: User | None,
    budget_ms: float = HINT_BUDGET_MS,
    view: dict[str, Any] | None = None,
) -> dict[str, Any] | None:
    """``{action, json, label, why, card}`` for the requester's seat, or None when it is
    not their turn. ``view``: the requester's view when the caller has read it already
    (``service.get_view(db, room_id, user)``; the page renders the answer with it, so
    "Do it" carries the seq the hint was thought for). When the table does not ask the
    seat's empty declaration (``presenter.asked``), the hint is the card after it. Raises
    Forbidden for a spectator (no seat in the room), and where hints would help a person
    against people who play on their own (``presenter.hints_allowed``; a championship's
    table also when only its labeller names it), NotFound."""
    if view is None:
        view = await service.get_view(db, room_id, user)
    seat = view.get("my_seat")
    if user is None or not isinstance(seat, int):
        raise Forbidden(
            _("only a seated player gets a hint, for their own seat"), "hint_seated_only"
        )
    if not hints_allowed(view) or await HOOKS.room_labels(db, [room_id]):
        raise Forbidden(
            "no hints in a rated match against other people, nor at a championship's table",
            "hint_not_here",
        )
    if view.get("to_act") != seat or not view.get("legal_actions") or view.get("seat") != seat:
        return None
    thinking = view
    if asked(view) is not view:
        # the table does not ask this seat's empty declaration (presenter.asked): the hint
        # is the card the bot would play after it, which the card button then sends
        snap = await service.read_snapshot(db, room_id)
        empty = play.owed_declaration(snap.state)
        if empty is not None and snap.seq == view.get("seq"):
            after = rules.apply(snap.state, empty)
            thinking = {
                **view,
                **rules.observe(after, seat),
                "legal_actions": rules.legal_actions(after),
            }
    action, explanation = await anyio.to_thread.run_sync(_choose, thinking, budget_ms)
    game = view.get("game", "")
    why = ""
    if explanation is not None and explanation.card == action.get("card"):
        why = explain(explanation)
    return {
        "action": action,
        "json": action_json(action),
        "label": labels.action_label(game, action),
        "why": why or reason(view, action),
        "card": action.get("card") if action.get("type") == "play" else None,
    }


# ---------------------------------------------------------------- reasons


def explain(e: Explanation) -> str:
    """One sentence on what the search compared, in the viewer's language: "in 31 of the
    38 deals I drew, the 7 of hearts does better than the 10 of hearts: on average 8 points
    a deal more in your side's favour"; "" when there is nothing to say (no deal drawn)."""
    if e.deals < 1:
        return ""
    values = {
        "card": cards.card_name(e.card),
        "other": cards.card_name(e.other),
        "deals": e.deals,
        "better": e.better,
        "worse": e.worse,
    }
    if e.same == e.deals:
        return (
            ngettext(
                "the %(card)s and the %(other)s come to the same in the one deal I drew, "
                "so I play as usual",
                "the %(card)s and the %(other)s come to the same in all %(deals)s deals I drew, "
                "so I play as usual",
                e.deals,
            )
            % values
        )
    if e.gain <= 0:
        # the heuristic's card kept: the search's best did not gain clearly enough
        return (
            ngettext(
                "in the one deal I drew, the %(other)s is not clearly better than the %(card)s, "
                "so I play as usual",
                "over the %(deals)s deals I drew, the %(other)s is not clearly better than "
                "the %(card)s, so I play as usual",
                e.deals,
            )
            % values
        )
    if e.better == e.deals:
        said = (
            ngettext(
                "in the one deal I drew, the %(card)s does better than the %(other)s",
                "in all %(deals)s deals I drew, the %(card)s does better than the %(other)s",
                e.deals,
            )
            % values
        )
    elif e.worse:
        said = (
            _(
                "in %(better)s of the %(deals)s deals I drew, the %(card)s does better than "
                "the %(other)s, and worse in %(worse)s"
            )
            % values
        )
    else:
        said = (
            _(
                "in %(better)s of the %(deals)s deals I drew, the %(card)s does better than "
                "the %(other)s, and the same in the others"
            )
            % values
        )
    points = round(e.gain)
    if e.gain < 1:
        by = _("on average less than a point a deal more in your side's favour")
    else:
        by = ngettext(
            "on average %(num)d point a deal more in your side's favour",
            "on average %(num)d points a deal more in your side's favour",
            points,
        ) % {"num": points}
    return _("%(said)s: %(by)s") % {"said": said, "by": by}


def _points(g: Any, card: str, trump: str | None) -> int:
    table = g.table
    rank = rules_rank(card)
    if trump is not None and card[-1] == trump:
        return int(table.trump_points.get(rank, 0))
    return int(table.plain_points.get(rank, 0))


def rules_rank(card: str) -> str:
    """The rank part of a card code ("10e" -> "10")."""
    return card[:-1]


#: The calls that double a contract the other side made (contree.md coinche,
#: botifarra.md contrar and Sant Vicenç, bridge-belote.md contra) and those that double
#: it back (surcoinche, recontrar).
DOUBLES = frozenset({"double", "coinche", "sant_vicenc"})
REDOUBLES = frozenset({"redouble", "surcoinche"})


def reason(view: dict[str, Any], action: dict[str, Any]) -> str:
    """A few words on what ``action`` does, from the view alone ("" when nothing simple fits)."""
    kind = action.get("type")
    hand = list(view.get("hand") or [])
    legal = view.get("legal_actions") or []
    if kind == "play" and len({a.get("card") for a in legal if a.get("type") == "play"}) == 1:
        return _("the only card you may play")
    if kind in DOUBLES:
        return _("the bot expects the contract to fail")
    if kind in REDOUBLES:
        return _("the bot expects the contract to be made")
    others = {a.get("type") for a in legal} - {"pass"}
    if kind == "pass" and others and others <= DOUBLES | REDOUBLES:
        # a pass where the only other calls double or redouble: the contract stands
        return _("the bot would leave the contract as it stands")
    if kind == "play":
        try:
            return _play_reason(view, action["card"])
        except (KeyError, IndexError, TypeError, AttributeError):
            return ""
    if kind in ("take", "trump", "bid") and cards.action_suit(action):
        suit = cards.action_suit(action)
        n = sum(1 for c in hand if c[-1] == suit)
        if n >= 3:  # a length worth naming (one or two cards are no reason for the suit)
            return _("you hold %(n)s cards of %(suit)s") % {
                "n": n,
                "suit": cards.suit_name(str(suit)),
            }
        return ""
    if kind == "pass":
        return _("the bot would not play a contract with this hand")
    if kind == "declare" and action.get("combinations"):
        return _("declares your best combination")
    if kind == "botifarra":
        return _("no trumps: your hand is strong in several suits")
    return ""


def _play_reason(view: dict[str, Any], card: str) -> str:  # noqa: C901 - one case per situation
    g = rules.GAMES[view["game"]]
    trump = g.trump(view.get("contract"))
    me = view["seat"]
    trick = [t["card"] for t in view.get("trick") or []]
    seats = [t["seat"] for t in view.get("trick") or []]
    players = int(view.get("players") or 4)
    if not trick:
        if trump is not None and card[-1] == trump:
            return _("draws trumps")
        if _highest_left(g, view, card, trump):
            return _("leads the highest card left in its suit")
        if _points(g, card, trump) == 0:
            return _("leads a low card")
        return ""
    led = trick[0][-1]
    playable = [a["card"] for a in view.get("legal_actions") or [] if a.get("type") == "play"]
    winner_now = seats[g.winning_index(trick, view.get("contract"))]
    mine_wins = g.winning_index(trick + [card], view.get("contract")) == len(trick)
    last = len(trick) == players - 1
    if mine_wins:
        winners = [
            c for c in playable if g.winning_index(trick + [c], view.get("contract")) == len(trick)
        ]
        cheapest = min(winners, key=lambda c: (_points(g, c, trump), g.card_power(c, led, trump)))
        ruff = trump is not None and card[-1] == trump and led != trump
        if ruff:
            return _("trumps the trick") if last else _("trumps the trick for now")
        if last:
            return _("wins the trick cheaply") if card == cheapest else _("wins the trick")
        return (
            _("takes the trick for now, cheaply")
            if card == cheapest
            else _("takes the trick for now")
        )
    partner_wins = players == 4 and winner_now % 2 == me % 2
    pts = _points(g, card, trump)
    if partner_wins:
        if pts >= 10:
            return _("gives points to your partner, who is winning the trick")
        return _("your partner is winning the trick: keeps your strong cards")
    least = min(_points(g, c, trump) for c in playable) if playable else pts
    if pts == least:
        return _("cannot win the trick: gives away as few points as possible")
    return ""


def _highest_left(g: Any, view: dict[str, Any], card: str, trump: str | None) -> bool:
    """Whether no card of ``card``'s suit still out (not played, not in hand) beats it."""
    suit = card[-1]
    seen = set(view.get("hand") or [])
    for t in view.get("played") or []:
        seen.update(c["card"] for c in t.get("cards") or [])
    for t in view.get("trick") or []:
        seen.add(t["card"])
    mine = g.card_power(card, suit, trump)
    for other in g.table.deck:
        if other[-1] == suit and other not in seen and g.card_power(other, suit, trump) > mine:
            return False
    return True
