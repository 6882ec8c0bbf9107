"""Names and pictures of cards, suits, declarations and actions, for the pages.

Everything here is presentation: it reads card codes and action objects (see
docs/engine-face.md) and returns strings a player can read, or the URL of our
card art. It never decides what is legal; the view's ``legal_actions`` does.

Card codes: Spanish ``<number><suit>`` (suits ``o c e b``), French
``<rank><suit>`` (ranks ``7 8 9 T J Q K A``, suits ``S H D C``).
"""

from __future__ import annotations

from typing import Any

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

# Games whose table talk is Catalan (Bolot of Sagunt, Botifarra).
CATALAN_GAMES = {"bolot", "botifarra"}

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
    """The rank as printed on the card index: "T" -> "10", "12" -> "12", "J" -> "J"."""
    return FRENCH_SHORT.get(rank, rank)


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


def deck_folder(game: str | None, card: str | None = None, four_colour: bool = False) -> str:
    """The folder of our art for a game's deck: "es", "fr" or "fr4"."""
    if card is not None:
        spanish = is_spanish(card)
    else:
        spanish = game in CATALAN_GAMES
    if spanish:
        return "es"
    return "fr4" if four_colour else "fr"


def card_image(card: str, four_colour: bool = False) -> str:
    """URL of a card face: "/static/cards/es/10e.svg"."""
    return f"/static/cards/{deck_folder(None, card, four_colour)}/{card}.svg"


def back_image(game: str | None) -> str:
    """URL of the card back used for a game's deck."""
    return f"/static/cards/{deck_folder(game)}/back.svg"


def suit_image(suit: str, four_colour: bool = False) -> str:
    """URL of a small suit icon ("/static/cards/suit/c.svg")."""
    folder = "suit4" if four_colour and suit in FRENCH_SUITS else "suit"
    return f"/static/cards/{folder}/{suit}.svg"


# --- declarations ------------------------------------------------------------------


def _run_name(game: str, length: int) -> str:
    """Name of a run by its length (rules/bolot.md §5, rules/belote.md §5, rules/bridge-belote.md §5)."""
    if game in CATALAN_GAMES:
        return {3: _("Tercera"), 4: _("Cinquanta")}.get(length, _("Cent"))
    if game == "bridge-belote":  # rules/bridge-belote.md §5: tierce, quarte, quint
        return {3: _("Tierce"), 4: _("Quarte")}.get(length, _("Quint"))
    return {3: _("Tierce"), 4: _("Cinquante")}.get(length, _("Cent"))


def _four_name(game: str, rank: str) -> str:
    """Name of a four of a kind (rules/bolot.md §5)."""
    if game in CATALAN_GAMES:
        return {"10": _("Dos-cents"), "9": _("Cent cinquanta")}.get(rank, _("Cent"))
    return _("Carré")


def _plural_rank(rank: str) -> str:
    plural = {"J": N_("Jacks"), "Q": N_("Queens"), "K": N_("Kings"), "A": N_("Aces")}.get(rank)
    if plural:
        return _(plural)
    return _("%(rank)ss") % {"rank": rank_label(rank)}


def declaration_label(game: str, combo: dict[str, Any]) -> str:
    """One declared combination, full or as its public kind.

    Full items name the cards: ``{"kind": "sequence", "length": 3, "top": "9",
    "suit": "c"}`` -> "Tercera 9 de copes"; ``{"kind": "four", "rank": "10"}``
    -> "Dos-cents (four 10s)". Public kinds, before the cards are shown
    (docs/engine-face.md), carry only the kind: ``{"kind": "sequence",
    "length": 4}`` -> "Cinquanta", ``{"kind": "four"}`` -> "Four of a kind".
    Belote/bolot items (``{"kind": "belote"}``) -> "Bolot"/"Belote".
    """
    kind = combo.get("kind")
    if kind == "sequence":
        name = _run_name(game, int(combo.get("length", 3)))
        top, suit = combo.get("top"), combo.get("suit")
        if top is None or suit is None:
            return name
        values = {
            "name": name,
            "rank": rank_label(str(top)),
            "suit": suit_name(str(suit)),
            "of_suit": of_suit(str(suit)),
        }
        if game in CATALAN_GAMES:
            return _("%(name)s %(rank)s de %(suit)s") % values
        top_name = FRENCH_RANKS.get(str(top), str(top))
        values["rank"] = _(top_name) if not top_name.isdigit() else top_name
        return _("%(name)s to the %(rank)s %(of_suit)s") % values
    if kind == "four":
        rank = combo.get("rank")
        if rank is None:
            return _("Four of a kind")
        return _("%(name)s (four %(ranks)s)") % {
            "name": _four_name(game, str(rank)),
            "ranks": _plural_rank(str(rank)),
        }
    if kind in ("belote", "bolot"):
        return belote_word(game)
    return str(kind or _("declaration"))


def declare_label(game: str, action: dict[str, Any]) -> str:
    """Label of a whole ``declare`` action: its combinations, or "No declarations"."""
    combos = action.get("combinations") or []
    if not combos:
        return _("No declarations")
    return " + ".join(declaration_label(game, c) for c in combos)


def declaration_value(game: str, combo: dict[str, Any]) -> int:
    """About what a declared combination is worth, only to offer the best choice first.

    Runs: 3 cards 20, 4 cards 50, 5 or more 100; fours: Jacks 200, 9s 150, the
    others 100 (in Bolot the 10s 200 and the 9s 150). The engine scores; this
    only orders the buttons."""
    kind = combo.get("kind")
    if kind == "sequence":
        return {3: 20, 4: 50}.get(int(combo.get("length", 3)), 100)
    if kind == "four":
        rank = str(combo.get("rank"))
        if game in CATALAN_GAMES:
            return {"10": 200, "9": 150}.get(rank, 100)
        return {"J": 200, "9": 150}.get(rank, 100)
    return 0


# The engine's game names and option labels (app/rules options_schema), marked for the
# catalogues; pages show them through option_text().
ENGINE_TEXTS = (
    N_("Bolot"),
    N_("Belote"),
    N_("Belote for two"),
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
    N_("Rules of play (western: follow and beat; eastern: also play your lowest)"),
    N_("Eastern: the second player may play a counting card even when he follows suit"),
    N_("Sant Vicenç allowed on botifarra"),
    N_("Doubling scale (contrar, recontrar, Sant Vicenç)"),
    N_("Tournament: the game ends after this many hands"),
    N_("Tournament: highest score recorded for standings"),
)


def option_text(text: Any) -> str:
    """An engine text (game name, option label) in the viewer's language."""
    return _(str(text)) if text else ""


# Readable words for the values of "choice" options (rooms form, room page).
CHOICE_LABELS: dict[tuple[str | None, ...], str] = {
    ("tie_rule", "fail"): N_("the takers fail (dedans)"),
    # Bolot's own words (rules/bolot.md §10): a failed contract is "llocs" there
    ("bolot", "tie_rule", "fail"): N_("the takers are llocs: the defenders score everything"),
    ("tie_rule", "half"): N_("the defenders score their own points, the takers nothing"),
    ("tie_rule", "litige"): N_("litige: the takers' points are held"),
    ("variant", "western"): N_("western (follow and beat)"),
    ("variant", "eastern"): N_("eastern (also play your lowest)"),
    ("doubling_scale", "2-4-8"): "×2, ×4, ×8",
    ("doubling_scale", "2-3-4"): "×2, ×3, ×4",
}


def choice_label(option: str, value: Any, game: str | None = None) -> str:
    """The words for one value of a choice option, the game's own words first:
    ("tie_rule", "fail") -> "the takers fail (dedans)"; with game "bolot", "... llocs ..."."""
    label = CHOICE_LABELS.get((game, option, str(value))) or CHOICE_LABELS.get((option, str(value)))
    return _(label) if label else str(value)


# --- actions -----------------------------------------------------------------------


def belote_word(game: str) -> str:
    """What a player says with the first of the trump King/Queen (Rei/Cavall): "Bolot",
    "Belot" in Bridge-Belote (rules/bridge-belote.md §5), else "Belote"."""
    if game == "bridge-belote":
        return _("Belot")
    return _("Bolot") if game in CATALAN_GAMES else _("Belote")


def action_label(game: str, action: dict[str, Any]) -> str:  # noqa: C901 - one branch per type
    """A button label for any action in ``legal_actions``, in the viewer's language.

    Bolot: take -> "Vaig", take with a suit -> "Vaig a copes", pass -> "No vaig"
    (rules/bolot.md §4). Others by type: bid, double, redouble, trump,
    botifarra, delegate, sant_vicenc, exchange, claim, declare, play. An
    unknown type is shown by its name, so a new game still gets a button.
    """
    kind = action.get("type")
    catalan = game in CATALAN_GAMES
    suit = action.get("suit")
    if kind == "take":
        if game == "bolot":
            return _("Vaig a %(suit)s") % {"suit": suit_name(suit)} if suit else _("Vaig")
        return _("Take %(suit)s") % {"suit": suit_name(suit)} if suit else _("Take")
    if kind == "pass":
        if game == "bolot":
            return _("No vaig")
        return _("Pass")  # "Passo" in the Catalan catalogue
    if kind == "bid":
        return contract_name(action.get("contract"))
    if kind == "double":
        return _("Contrar") if catalan else _("Contra")
    if kind == "redouble":
        return _("Recontrar") if catalan else _("Recontra")
    if kind == "sant_vicenc":
        return _("Sant Vicenç")
    if kind == "trump":
        name = suit_name(str(suit))
        return name[:1].upper() + name[1:]
    if kind == "botifarra":
        return _("Botifarra (no trumps)")
    if kind == "delegate":
        return _("Delegate")
    if kind == "exchange":
        return _("Swap my 7 for the turned card") if action.get("swap") else _("Keep my 7")
    if kind == "claim":
        return _("Claim: I'm done")
    if kind == "declare":
        return declare_label(game, action)
    if kind == "play":
        card = card_name(str(action.get("card")))
        if action.get("bolot") or action.get("belote"):
            return _("Play the %(card)s and say %(word)s") % {
                "card": card,
                "word": belote_word(game),
            }
        return _("Play the %(card)s") % {"card": card}
    return str(kind).replace("_", " ").capitalize()


def action_suit(action: dict[str, Any]) -> str | None:
    """The suit an action names (a round-2 take, a trump choice, a suit bid), if any."""
    suit = action.get("suit")
    if suit is None and action.get("type") == "bid" and action.get("contract") in FRENCH_SUITS:
        suit = action["contract"]
    return str(suit) if suit else None


def seat_word(game: str, seat: int, dealer: int | None, players: int) -> str | None:
    """A short role tag for a seat: "dealer" or the eldest hand ("mà" in Catalan games)."""
    if dealer is None:
        return None
    if seat == dealer:
        return _("dealer")
    if seat == (dealer + 1) % players:
        return _("mà") if game in CATALAN_GAMES else _("eldest")
    return None
