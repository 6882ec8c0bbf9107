"""Names and pictures of cards, suits, declarations and actions, for the pages.

Everything here is presentation: it reads card codes and action objects (see
docs/engine-face.md) and returns strings a player can read, or the URL of our
card art. It never decides what is legal; the view's ``legal_actions`` does.

Card codes: Spanish ``<number><suit>`` (suits ``o c e b``), French
``<rank><suit>`` (ranks ``7 8 9 T J Q K A``, suits ``S H D C``).
"""

from __future__ import annotations

from typing import Any

SPANISH_SUITS = {"o": "oros", "c": "copes", "e": "espases", "b": "bastos"}
FRENCH_SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_NAMES = {**SPANISH_SUITS, **FRENCH_SUITS}

# Long names of the Spanish numbers (rules/bolot.md §2, rules/botifarra.md).
SPANISH_NAMES = {"1": "As", "10": "Sota", "11": "Cavall", "12": "Rei"}
FRENCH_RANKS = {
    "7": "7",
    "8": "8",
    "9": "9",
    "T": "10",
    "J": "Jack",
    "Q": "Queen",
    "K": "King",
    "A": "Ace",
}
FRENCH_SHORT = {"T": "10"}

# Games whose table talk is Catalan (Bolot of Sagunt, Botifarra).
CATALAN_GAMES = {"bolot", "botifarra"}

# Bridge-Belote contracts (rules/bridge-belote.md §4).
CONTRACT_NAMES = {
    "C": "Clubs",
    "D": "Diamonds",
    "H": "Hearts",
    "S": "Spades",
    "NT": "No trumps",
    "AT": "All trumps",
}


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
    """ "c" -> "copes", "S" -> "spades"; unknown letters come back unchanged."""
    return SUIT_NAMES.get(suit, suit)


def rank_label(rank: str) -> str:
    """The rank as printed on the card index: "T" -> "10", "12" -> "12", "J" -> "J"."""
    return FRENCH_SHORT.get(rank, rank)


def card_name(card: str) -> str:
    """A short spoken name, the one used in aria-labels: "10 of copes", "Jack of hearts"."""
    rank, suit = rank_of(card), suit_of(card)
    if is_spanish(card):
        return f"{rank} of {suit_name(suit)}"
    return f"{FRENCH_RANKS.get(rank, rank)} of {suit_name(suit)}"


def card_long_name(card: str) -> str:
    """The name players say: "Sota de copes (10)", "3 de bastos", "Ace of spades"."""
    rank, suit = rank_of(card), suit_of(card)
    if is_spanish(card):
        name = SPANISH_NAMES.get(rank)
        return f"{name} de {suit_name(suit)} ({rank})" if name else f"{rank} de {suit_name(suit)}"
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
    """Name of a run by its length (rules/bolot.md §5, rules/belote.md §5)."""
    if game in CATALAN_GAMES:
        return {3: "Tercera", 4: "Cinquanta"}.get(length, "Cent")
    return {3: "Tierce", 4: "Cinquante"}.get(length, "Cent")


def _four_name(game: str, rank: str) -> str:
    """Name of a four of a kind (rules/bolot.md §5)."""
    if game in CATALAN_GAMES:
        return {"10": "Dos-cents", "9": "Cent cinquanta"}.get(rank, "Cent")
    return "Carré"


def _plural_rank(rank: str) -> str:
    if rank in FRENCH_RANKS and not rank.isdigit():
        return FRENCH_RANKS[rank] + "s"
    return f"{rank}s"


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
        if game in CATALAN_GAMES:
            return f"{name} {rank_label(str(top))} de {suit_name(str(suit))}"
        return f"{name} to the {FRENCH_RANKS.get(str(top), top)} of {suit_name(str(suit))}"
    if kind == "four":
        rank = combo.get("rank")
        if rank is None:
            return "Four of a kind"
        return f"{_four_name(game, str(rank))} (four {_plural_rank(str(rank))})"
    if kind in ("belote", "bolot"):
        return "Bolot" if game in CATALAN_GAMES else "Belote"
    return str(kind or "declaration")


def declare_label(game: str, action: dict[str, Any]) -> str:
    """Label of a whole ``declare`` action: its combinations, or "No declarations"."""
    combos = action.get("combinations") or []
    if not combos:
        return "No declarations"
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


# Readable words for the values of "choice" options (rooms form, room page).
CHOICE_LABELS = {
    ("tie_rule", "fail"): "the takers fail (dedans)",
    ("tie_rule", "half"): "each side scores half",
    ("tie_rule", "litige"): "litige: the takers' points are held",
    ("variant", "western"): "western (follow and beat)",
    ("variant", "eastern"): "eastern (also play your lowest)",
    ("doubling_scale", "2-4-8"): "×2, ×4, ×8",
    ("doubling_scale", "2-3-4"): "×2, ×3, ×4",
}


def choice_label(option: str, value: Any) -> str:
    """The words for one value of a choice option: ("tie_rule", "fail") -> "the takers fail (dedans)"."""
    return CHOICE_LABELS.get((option, str(value)), str(value))


# --- actions -----------------------------------------------------------------------


def belote_word(game: str) -> str:
    """What a player says with the first of the trump King/Queen (Rei/Cavall)."""
    return "Bolot" if game in CATALAN_GAMES else "Belote"


def action_label(game: str, action: dict[str, Any]) -> str:
    """A button label for any action in ``legal_actions``.

    Bolot: take -> "Vaig", take with a suit -> "Vaig a copes", pass -> "No vaig"
    (rules/bolot.md §4). Others by type: bid, double, redouble, trump,
    botifarra, delegate, sant_vicenc, exchange, claim, declare, play. An
    unknown type is shown by its name, so a new game still gets a button.
    """
    kind = action.get("type")
    catalan = game in CATALAN_GAMES
    if kind == "take":
        suit = action.get("suit")
        if game == "bolot":
            return f"Vaig a {suit_name(suit)}" if suit else "Vaig"
        return f"Take {suit_name(suit)}" if suit else "Take"
    if kind == "pass":
        if game == "bolot":
            return "No vaig"
        return "Passo" if catalan else "Pass"
    if kind == "bid":
        return CONTRACT_NAMES.get(str(action.get("contract")), str(action.get("contract")))
    if kind == "double":
        return "Contrar" if catalan else "Contra"
    if kind == "redouble":
        return "Recontrar" if catalan else "Recontra"
    if kind == "sant_vicenc":
        return "Sant Vicenç"
    if kind == "trump":
        return suit_name(str(action.get("suit"))).capitalize()
    if kind == "botifarra":
        return "Botifarra (no trumps)"
    if kind == "delegate":
        return "Delegate"
    if kind == "exchange":
        return "Swap my 7 for the turned card" if action.get("swap") else "Keep my 7"
    if kind == "claim":
        return "Claim: I'm done"
    if kind == "declare":
        return declare_label(game, action)
    if kind == "play":
        text = f"Play the {card_name(str(action.get('card')))}"
        if action.get("bolot") or action.get("belote"):
            text += f" and say {belote_word(game)}"
        return text
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
        return "dealer"
    if seat == (dealer + 1) % players:
        return "mà" if game in CATALAN_GAMES else "eldest"
    return None
