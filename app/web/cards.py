"""Names and pictures of cards, suits, declarations and actions, for the pages.

Everything here is presentation: it reads card codes (see docs/engine-face.md) and
returns strings a player can read, or the URL of our card art. It never decides what
is legal; the view's ``legal_actions`` does. The words that differ by game (action
buttons, declarations, "Bolot"/"Belote") are in app/table/labels.py.

Card codes: Spanish ``<number><suit>`` (suits ``o c e b``), French
``<rank><suit>`` (ranks ``7 8 9 T J Q K A``, suits ``S H D C``).
"""

from __future__ import annotations

from typing import Any

from app import rules
from app.web import i18n
from app.web.i18n import N_, _

SPANISH_SUITS = {"o": N_("oros"), "c": N_("copes"), "e": N_("espases"), "b": N_("bastos")}
FRENCH_SUITS = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")}
SUIT_NAMES = {**SPANISH_SUITS, **FRENCH_SUITS}
# "of <suit>" as a unit, so languages can elide or drop the preposition (Catalan "d'oros").
OF_SUIT = {
    "o": N_("of oros"),
    "c": N_("of copes"),
    "e": N_("of espases"),
    "b": N_("of bastos"),
    "S": N_("of spades"),
    "H": N_("of hearts"),
    "D": N_("of diamonds"),
    "C": N_("of clubs"),
}

# "of <suit>" as Catalan players say it, "de" elided before a vowel ("As d'espases"): the
# English page keeps the Catalan names of the Spanish cards.
CATALAN_OF_SUIT = {"o": "d'oros", "c": "de copes", "e": "d'espases", "b": "de bastos"}

# Long names of the Spanish numbers (rules/bolot.md §2, rules/botifarra.md).
SPANISH_NAMES = {"1": N_("As"), "10": N_("Sota"), "11": N_("Cavall"), "12": N_("Rei")}
FRENCH_RANKS = {
    "7": "7",
    "8": "8",
    "9": "9",
    "T": "10",
    "J": N_("Jack"),
    "Q": N_("Queen"),
    "K": N_("King"),
    "A": N_("Ace"),
}
FRENCH_SHORT = {"T": "10"}
#: The index letters a language's own French-suited cards print instead of J, Q, K: French
#: cards say V (valet), D (dame), R (roi); the Ace is A (as) everywhere. Only what is shown
#: changes: the card codes ("KH", "QH", "JH") stay the same in the API and the pages' data.
INDEX_LETTERS = {"fr": {"J": "V", "Q": "D", "K": "R"}}

# Bridge-Belote contracts (rules/bridge-belote.md §4).
CONTRACT_NAMES = {
    "C": N_("Clubs"),
    "D": N_("Diamonds"),
    "H": N_("Hearts"),
    "S": N_("Spades"),
    "NT": N_("No trumps"),
    "AT": N_("All trumps"),
}


def contract_name(bid: Any) -> str:
    """A Bridge-Belote contract in the viewer's language: "NT" -> "No trumps"."""
    name = CONTRACT_NAMES.get(str(bid))
    return _(name) if name else str(bid)


def is_spanish(card: str) -> bool:
    """True for a Spanish card code ("10e"), False for a French one ("TS")."""
    return card[-1] in SPANISH_SUITS


def suit_of(card: str) -> str:
    """The suit letter of a card code: the last character."""
    return card[-1]


def rank_of(card: str) -> str:
    """The rank part of a card code ("10e" -> "10", "TS" -> "T")."""
    return card[:-1]


def suit_name(suit: str) -> str:
    """ "c" -> "copes", "S" -> "spades" (in the viewer's language); unknown letters come
    back unchanged."""
    name = SUIT_NAMES.get(suit)
    return _(name) if name else suit


def of_suit(suit: str) -> str:
    """ "c" -> "of copes" (Catalan "de copes", "d'oros")."""
    phrase = OF_SUIT.get(suit)
    return _(phrase) if phrase else suit


def rank_label(rank: str) -> str:
    """The rank as printed on the card index in the viewer's language: "T" -> "10",
    "12" -> "12", "J" -> "J" ("V" in French, whose cards print V, D, R: INDEX_LETTERS)."""
    return FRENCH_SHORT.get(rank) or INDEX_LETTERS.get(i18n.current(), {}).get(rank, rank)


def card_name(card: str) -> str:
    """A short spoken name, the one used in aria-labels: "10 of copes", "Jack of hearts"."""
    rank, suit = rank_of(card), suit_of(card)
    if not is_spanish(card):
        rank = FRENCH_RANKS.get(rank, rank)
        rank = _(rank) if not rank.isdigit() else rank
    return _("%(rank)s %(of_suit)s") % {"rank": rank, "of_suit": of_suit(suit)}


def card_long_name(card: str) -> str:
    """The name players say: "Sota de copes (10)", "Cavall d'oros (11)", "3 of bastos",
    "Ace of spades"."""
    rank, suit = rank_of(card), suit_of(card)
    if is_spanish(card):
        name = SPANISH_NAMES.get(rank)
        if name:
            # English keeps the words players say in Catalan: "Sota de copes (10)",
            # "Cavall d'oros (11)"; other languages use their own "of <suit>".
            return _("%(rank)s %(catalan_of_suit)s (%(number)s)") % {
                "rank": _(name),
                "suit": suit_name(suit),
                "catalan_of_suit": CATALAN_OF_SUIT[suit],
                "of_suit": of_suit(suit),
                "number": rank,
            }
        return card_name(card)
    return card_name(card)


def spanish_deck(game: str | None) -> bool:
    """True when ``game`` is played with the Spanish (Catalan) pack: its ruleset's
    ``deck_family`` (rules/bolot.md §2, rules/botifarra.md §2); False for an unknown game."""
    ruleset = rules.GAMES.get(game or "")
    return ruleset is not None and ruleset.deck_family == "spanish"


def deck_folder(game: str | None, card: str | None = None, four_colour: bool = False) -> str:
    """The folder of our art for a game's deck: "es", "fr" or "fr4"."""
    if card is not None:
        spanish = is_spanish(card)
    else:
        spanish = spanish_deck(game)
    if spanish:
        return "es"
    return "fr4" if four_colour else "fr"


def card_image(card: str, four_colour: bool = False) -> str:
    """URL of a card face: "/static/cards/es/10e.svg". A French court card drawn for a
    reader whose cards print other index letters (INDEX_LETTERS) comes from that
    language's folder: "/static/cards/fr-fr/KH.svg" shows R; the file keeps the code."""
    folder = deck_folder(None, card, four_colour)
    lang = i18n.current()
    if not is_spanish(card) and rank_of(card) in INDEX_LETTERS.get(lang, {}):
        folder = f"{folder}-{lang}"
    return f"/static/cards/{folder}/{card}.svg"


def back_image(game: str | None) -> str:
    """URL of the card back used for a game's deck."""
    return f"/static/cards/{deck_folder(game)}/back.svg"


def suit_image(suit: str, four_colour: bool = False) -> str:
    """URL of a small suit icon ("/static/cards/suit/c.svg")."""
    folder = "suit4" if four_colour and suit in FRENCH_SUITS else "suit"
    return f"/static/cards/{folder}/{suit}.svg"


# --- declarations ------------------------------------------------------------------


# The engine's game names and option labels (app/rules options_schema), marked for the
# catalogues; pages show them through option_text().
ENGINE_TEXTS = (
    N_("Bolot"),
    N_("Belote"),
    N_("Belote for two"),
    N_("Belote for three"),
    N_("Cards in the deck (32: nine each, the turned card stays on the table)"),
    N_("The taker must score more than each opponent"),
    N_("Declarations (runs and carrés) are played"),
    N_("A player who took no trick keeps his declarations"),
    N_("Bridge-Belote"),
    N_("Botifarra"),
    N_("Match to"),
    N_("Game to"),
    N_("Takers exactly on half the points"),
    N_("Round 2 must name another suit than the turned card's"),
    N_("A capoted pair keeps its declarations"),
    N_("A tie between takers and defenders"),
    N_("Unable to over-trump an opponent, you must still trump"),
    N_("A team that took no trick keeps its declarations"),
    N_("A run of all 8 cards of a suit is worth 120 (quinte + tierce)"),
    N_("The holder of the 7 of trumps may exchange it for the turned card"),
    N_('"I\'m done": a player may claim he has reached the target'),
    N_("After a contra nobody may bid again (Burgas)"),
    N_("A recontra ends the auction"),
    N_("A four of a kind cancels the other side's runs of 5 or more"),
    N_("A run of 8 is worth 120"),
    N_("Contra and recontra multiply a capot deal"),
    N_("No exit on a capot: the match cannot end on a capot deal"),
    N_(
        "2001 program: runs and fours are one contest; "
        "the team with the best declaration scores all of its own"
    ),
    N_("2001 program: on a made contract, a side that took any points writes at least 1"),
    N_("Rules of play (western: follow and beat; eastern: also play your lowest)"),
    N_("Eastern: the second player may play a counting card even when he follows suit"),
    N_("Sant Vicenç allowed on botifarra"),
    N_("Doubling scale (contrar, recontrar, Sant Vicenç)"),
    N_("Tournament: the game ends after this many hands"),
    N_("Tournament: highest score recorded for standings"),
    N_("Belote contrée"),
    N_("Rules preset"),
    N_("The match is won by reaching the target, or only by passing it"),
    N_("Highest numeric bid"),
    N_("A bid of 80 needs 82 points"),
    N_("Value of a capot bid"),
    N_("A capot bid scores flat (500, 1000, 2000) or as a contract"),
    N_("Trick points of a team that takes every trick"),
    N_("A capot may be coinched"),
    N_("Allow the générale (the bidder alone takes every trick)"),
    N_("Value of a générale"),
    N_("After a coinche nobody may bid again"),
    N_("A surcoinche multiplies by"),
    N_("Coinche and surcoinche multiply"),
    N_("Points of the defenders' base on a failed contract"),
    N_("Belote of failed takers"),
    N_("The belote counts toward the contract"),
    N_("The takers must also score more than the defenders"),
    N_("Declarations (tierce, quarte, quinte, carré)"),
    N_("Declarations count toward the contract"),
    N_("Two equal best runs"),
    N_("Rounding of trick points"),
)


def option_text(text: Any) -> str:
    """An engine text (game name, option label) in the viewer's language."""
    return _(str(text)) if text else ""


# Readable words for the values of "choice" options (rooms form, room page); a game's own
# words for a value are in app/table/labels.py (``choice_label``).
CHOICE_LABELS: dict[tuple[str | None, ...], str] = {
    ("tie_rule", "fail"): N_("the takers fail (dedans)"),
    ("tie_rule", "half"): N_("the defenders score their own points, the takers nothing"),
    ("tie_rule", "litige"): N_("litige: the takers' points are held"),
    ("variant", "western"): N_("western (follow and beat)"),
    ("variant", "eastern"): N_("eastern (also play your lowest)"),
    ("doubling_scale", "2-4-8"): "×2, ×4, ×8",
    ("doubling_scale", "2-3-4"): "×2, ×3, ×4",
}


# --- actions -----------------------------------------------------------------------


def action_suit(action: dict[str, Any]) -> str | None:
    """The suit an action names (a round-2 take, a trump choice, a suit bid), if any."""
    suit = action.get("suit")
    if suit is None and action.get("type") == "bid" and action.get("contract") in FRENCH_SUITS:
        suit = action["contract"]
    return str(suit) if suit else None
