"""The frequent service and engine messages, in the viewer's language, for the pages.

The JSON API keeps the English messages (programs read them). The pages pass every
refusal through ``translate_error``: a table of patterns over the English texts of
app/rooms/service.py and the engine's ``IllegalAction`` reasons (app/rules), each with
its msgid. Values caught by a pattern (a seat number, a card "9 of copes", a suit
"copes") are put back in the viewer's language. A play refusal "<reason>: you hold the
<card>" is translated in its two halves. A message no pattern knows is shown as it is
(English), so a new engine message is never lost, only untranslated.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from app import rules
from app.web import cards
from app.web.i18n import N_, _

# Engine card names are "<rank> of <suit>" with short ranks (app/rules/cards.card_name).
_SUITS = {
    "oros": "o",
    "copes": "c",
    "espases": "e",
    "bastos": "b",
    "spades": "S",
    "hearts": "H",
    "diamonds": "D",
    "clubs": "C",
}
_CARD = r"(?:[0-9]{1,2}|[TJQKA]) of (?:oros|copes|espases|bastos|spades|hearts|diamonds|clubs)"
_SUIT = r"(?:oros|copes|espases|bastos|spades|hearts|diamonds|clubs)"

PATTERNS: list[tuple[str, str]] = [
    # the service (app/rooms/service.py)
    (r"it is not your turn", N_("It is not your turn.")),
    (
        r"another move was made first; reload the table",
        N_("Another move was made first; reload the table."),
    ),
    (r"stale move: .*", N_("The table has moved on; reload it.")),
    (
        r"every seat must be filled before the start",
        N_("Every seat must be filled before the start."),
    ),
    (r"the game has already started", N_("The game has already started.")),
    (r"the game has not started", N_("The game has not started.")),
    (r"the game is over", N_("The game is over.")),
    (r"the match is over", N_("The match is over.")),
    (r"bots are seated before the game starts", N_("Bots are seated before the game starts.")),
    (r"you already hold a seat in this room", N_("You already hold a seat in this room.")),
    (
        r"you already hold seat (?P<seat0>\d+) in this room",
        N_("You already hold seat %(n)s in this room."),
    ),
    (r"seat (?P<seat0>\d+) is taken", N_("Seat %(n)s is taken.")),
    (r"seat (?P<seat0>\d+) is not yours", N_("Seat %(n)s is not yours.")),
    (r"you do not hold a seat at this table", N_("You do not hold a seat at this table.")),
    (
        r"only the room's creator or a seated player may seat a bot",
        N_("Only the room's creator or a seated player may seat a bot."),
    ),
    (
        r"only the room's creator or a seated player may start the game",
        N_("Only the room's creator or a seated player may start the game."),
    ),
    (r"there is no room (?P<n>\d+)", N_("There is no room %(n)s.")),
    # the request guard (app/accounts/guard.py)
    (r"not found: that number is out of range", N_("Not found: that number is out of range.")),
    (
        r"the request body is larger than (?P<n>\d+) bytes",
        N_("The request is too large (more than %(n)s bytes)."),
    ),
    (
        r"too many log-in attempts: try again in (?P<n>\d+) s",
        N_("Too many log-in attempts: try again in %(n)s s."),
    ),
    (
        r"too many new sessions from your address: try again in (?P<n>\d+) s",
        N_("Too many new sessions from your address: try again in %(n)s s."),
    ),
    (
        r"too many moves at once: try again in (?P<n>\d+) s",
        N_("Too many moves at once: try again in %(n)s s."),
    ),
    (
        r"too many new rooms: try again in (?P<n>\d+) s",
        N_("Too many new rooms: try again in %(n)s s."),
    ),
    (
        r"too many deal replays at once: try again in (?P<n>\d+) s",
        N_("Too many deal replays at once: try again in %(n)s s."),
    ),
    (
        r"too many hints at once: try again in (?P<n>\d+) s",
        N_("Too many hints at once: try again in %(n)s s."),
    ),
    # the records, replays and checks (app/records/service.py, verify.py) and championships
    (r"there is no game (?P<n>\d+)", N_("There is no match %(n)s.")),
    (r"there is no tournament (?P<n>\d+)", N_("There is no tournament %(n)s.")),
    (
        r"deal (?P<n>\d+) is still being played: its replay opens when it ends",
        N_("Deal %(n)s is still being played: its replay opens when it ends."),
    ),
    (
        r"(?P<id>'[^']*'|\"[^\"]*\") is not a deal id; .*",
        N_("%(id)s is not a deal number; one looks like 12-3 (match 12, deal 3)."),
    ),
    (r"room (?P<n>\d+) has no game yet", N_("Room %(n)s has no game yet.")),
    # "replay my deal" (app/records/replay_mine.py)
    (
        r"only a seated player may replay a deal with the bot, from their own seat",
        N_("Only a seated player may replay a deal with the bot, from their own seat."),
    ),
    (r"you may replay only your own seat .*", N_("You may replay only your own seat.")),
    (
        r"deal (?P<n>\d+) is still being played: the bot can replay it once it ends",
        N_("Deal %(n)s is still being played: the bot can replay it once it ends."),
    ),
    (r"game (?P<g>\d+) has no deal (?P<n>\d+)", N_("This match has no deal %(n)s.")),
    (
        r"this action is not one of your legal actions now",
        N_("That is not one of your possible moves now."),
    ),
    # accounts (app/accounts/service.py, guard.py): log in, register, rate limits
    (r"wrong username or password", N_("Wrong username or password.")),
    (r"the username (?P<name>\S+) is taken", N_("The username %(name)s is taken.")),
    (r"this guest has already registered", N_("This guest has already registered.")),
    (
        r"a nickname (?:has|is a text of) 1 to 24 characters",
        N_("A nickname has 1 to 24 characters."),
    ),
    (
        r"a nickname may not contain control characters",
        N_("A nickname may not contain control characters."),
    ),
    (
        r"a nickname may not look like a bot's name",
        N_("A nickname may not look like a bot's name."),
    ),
    (
        r"creating a tournament needs a registered account.*",
        N_("Organising a championship needs an account; you keep your nickname and your seats."),
    ),
    (
        r"a password has (?P<a>\d+) to (?P<b>\d+) characters",
        N_("A password has %(a)s to %(b)s characters."),
    ),
    (
        r"a username has 3 to 32 characters: letters a-z, digits, '\.', '_' or '-', starting with a letter or a digit",
        N_(
            "A username has 3 to 32 characters: letters a-z, digits, '.', '_' or '-', starting with a letter or a digit."
        ),
    ),
    (r"the two passwords differ", N_("The two passwords differ.")),
    (
        r"you are already signed in as (?P<name>\S+); log out first",
        N_("You are already signed in as %(name)s; log out first."),
    ),
    (r"too many log-in attempts.*", N_("Too many log-in attempts; wait a little and try again.")),
    (
        r"too many failed log-ins for this username.*",
        N_("Too many failed log-ins for this username; wait a few minutes and try again."),
    ),
    (
        r"too many new sessions from your address.*",
        N_("Too many new sessions from your address; wait a little."),
    ),
    (r"too many moves at once.*", N_("Too many moves at once; wait a moment.")),
    (r"too many deal replays at once.*", N_("Too many deal replays at once; wait a minute.")),
    (r"too many hints at once.*", N_("Too many hints at once; wait a minute.")),
    # the pages themselves
    (r"Choose a nickname first\.", N_("Choose a nickname first.")),
    (
        r"That move could not be read\. Reload the page\.",
        N_("That move could not be read. Reload the page."),
    ),
    (
        r"This form has expired or came from another site\. Reload the page and try again\.",
        N_("This form has expired or came from another site. Reload the page and try again."),
    ),
    # the engine (app/rules): obligations of play
    (rf"you must follow suit in (?P<suit>{_SUIT})", N_("You must follow suit in %(suit)s")),
    (r"you cannot follow suit, so you must trump", N_("You cannot follow suit, so you must trump")),
    (r"you must over-trump", N_("You must over-trump")),
    (
        r"you cannot over-trump, but you must still trump",
        N_("You cannot over-trump, but you must still trump"),
    ),
    (
        rf"you must beat the opponents' (?P<card>{_CARD})",
        N_("You must beat the opponents' %(card)s"),
    ),
    (
        rf"you cannot follow (?P<suit>{_SUIT}), so you must over-trump the opponents' (?P<card>{_CARD})",
        N_("You cannot follow %(suit)s, so you must over-trump the opponents' %(card)s"),
    ),
    (
        rf"you cannot follow (?P<suit>{_SUIT}), so you must trump to beat the opponents' (?P<card>{_CARD})",
        N_("You cannot follow %(suit)s, so you must trump to beat the opponents' %(card)s"),
    ),
    (
        r"declare your combinations \(or none\) before your first card",
        N_("Declare your combinations (or none) before your first card."),
    ),
    (r"during the auction you take or pass", N_("During the auction you take or pass.")),
    (
        r"in the first round you can only take the turned card's suit",
        N_("In the first round you can only take the turned card's suit."),
    ),
    (r"there is no bid to double yet", N_("There is no bid to double yet.")),
    (r"you can double only the other side's bid", N_("You can double only the other side's bid.")),
    (r"this bid is already doubled", N_("This bid is already doubled.")),
    # a paper deal's summary checked by the engine (app/rules/scoring.py), "deal N: " before it
    (
        r"card points must add up to (?P<total>\d+), not (?P<sum>\d+)",
        N_("Card points must add up to %(total)s, not %(sum)s."),
    ),
    (
        r"the (?P<cards>\d+) cards played hold (?P<low>\d+) to (?P<high>\d+) card points, not (?P<sum>\d+)",
        N_("The %(cards)s cards played hold %(low)s to %(high)s card points, not %(sum)s."),
    ),
    (
        r"1 trick holds at most (?P<cap>\d+) card points, not (?P<cp>\d+)",
        N_("1 trick holds at most %(cap)s card points, not %(cp)s."),
    ),
    (
        r"(?P<n>\d+) tricks hold at most (?P<cap>\d+) card points, not (?P<cp>\d+)",
        N_("%(n)s tricks hold at most %(cap)s card points, not %(cp)s."),
    ),
    (
        r"tricks must be two whole numbers adding up to (?P<n>\d+)",
        N_("The tricks must be two whole numbers adding up to %(n)s."),
    ),
    (r"card_points must be two whole numbers", N_("Card points must be two whole numbers.")),
    (r"a run has 3 to 8 cards", N_("A run has 3 to 8 cards.")),
    (
        r"a run of (?P<len>\d+) cannot have (?P<top>\S+) as its top card",
        N_("A run of %(len)s cannot have %(top)s as its top card."),
    ),
    # the championships' results (app/tournaments/results.py, config.check_final)
    (r"a correction needs a reason", N_("A correction needs a reason.")),
    (
        r"the winner is the team with the higher score",
        N_("The winner is the team with the higher score."),
    ),
    (
        r"a knockout match cannot end level: say which team won \(winner\)",
        N_("A knockout match cannot end level: say which team won."),
    ),
    (
        r"a score is at most (?P<cap>\d+) in this tournament \(scores are recorded up to (?P=cap)\)",
        N_("A score is at most %(cap)s in this tournament (scores are recorded up to %(cap)s)."),
    ),
    (
        r"only one pair can reach (?P<n>\d+): in Botifarra one pair scores per hand and the game ends at the target",
        N_(
            "Only one pair can reach %(n)s: in Botifarra one pair scores per hand and the game ends at the target."
        ),
    ),
    (
        r"a match to (?P<target>\d+) points ends when a team reaches (?P<reach>\d+): neither score does",
        N_("A match to %(target)s points ends when a team reaches %(reach)s: neither score does."),
    ),
    (
        r"a match to (?P<target>\d+) points cannot end level: with equal scores over the target another deal is played",
        N_(
            "A match to %(target)s points cannot end level: with equal scores over the target another deal is played."
        ),
    ),
    # a room's options (app/rules/core.validate_options, app/rooms/rendering.form_options)
    (
        r"option (?P<option>\w+) must be a whole number from (?P<lo>-?\d+) to (?P<hi>\d+)",
        N_("%(option)s: a whole number from %(lo)s to %(hi)s."),
    ),
    (
        r"option (?P<option>\w+) must be one of (?P<choices>[\w, -]+)",
        N_("%(option)s: one of %(choices)s."),
    ),
    (r"option (?P<option>\w+) must be true or false", N_("%(option)s: yes or no.")),
    (r"clock_seconds is 0 \(no clock\) or .*", N_("Move clock: off, or a number of seconds.")),
    (
        r"(?P<label>[^:]+): (?P<raw>'.*') is not a whole number",
        N_("%(label)s: %(raw)s is not a whole number."),
    ),
]
_HOLD = re.compile(rf"^(?P<reason>.+): you hold the (?P<card>{_CARD})$")
_DEAL = re.compile(r"^[Dd]eal (?P<n>\d+): (?P<reason>.+?)\.?$")
_COMPILED: list[tuple[re.Pattern[str], str]] = [(re.compile(rf"^{p}$"), m) for p, m in PATTERNS]


def _card_code(name: str) -> str | None:
    rank, _of, suit = name.partition(" of ")
    letter = _SUITS.get(suit)
    return f"{rank}{letter}" if letter else None


def _option_label(name: str) -> str:
    """The translated label of the engine option ``name`` ("target" -> "Match to"), else ``name``."""
    for game in rules.GAMES.values():
        for o in game.options_schema:
            if o["name"] == name and o.get("label"):
                return _(str(o["label"]))
    return name


def _localise(
    key: str, value: str, card_name: Callable[[str], str], suit_name: Callable[[str], str]
) -> str:
    if key == "option":
        return _option_label(value)
    if key == "label":
        return _(value)
    if key == "card":
        code = _card_code(value)
        return card_name(code) if code else value
    if key == "suit" and value in _SUITS:
        return suit_name(_SUITS[value])
    return value


def _one(message: str) -> str | None:
    for pattern, msgid in _COMPILED:
        m = pattern.match(message)
        if m:
            values = {
                k: _localise(k, v, cards.card_name, cards.suit_name)
                for k, v in m.groupdict().items()
            }
            if "seat0" in values:  # the API counts seats from 0, the pages from 1
                values["n"] = str(int(values.pop("seat0")) + 1)
            return _(msgid) % values
    return None


def _plain(text: str) -> str:
    """ "Wrong username or password." -> "wrong username or password" (the form pages
    make sentences of the service's messages)."""
    text = text[:-1] if text.endswith(".") else text
    return text[:1].lower() + text[1:]


def translate_error(message: str) -> str:
    """``message`` (a service or engine refusal in English) in the viewer's language."""
    text = str(message or "").strip()
    found = _one(text) or _one(_plain(text))
    if found is not None:
        return found
    m = _HOLD.match(text)
    if m:
        reason = _one(m.group("reason"))
        if reason is not None:
            card = _card_code(m.group("card"))
            hold = _("you hold the %(card)s") % {
                "card": cards.card_name(card) if card else m.group("card")
            }
            return f"{reason}: {hold}"
    m = _DEAL.match(text)
    if m:  # a championship's paper deal: "deal 3: <the engine's reason>"
        reason = _one(m.group("reason"))
        if reason is not None:
            return _("Deal %(n)s") % {"n": m.group("n")} + ": " + reason[:1].lower() + reason[1:]
    return text
