"""The per-game words and panels of the pages: the one table keyed by game id.

What a game *is* (its pack, players, auction or trump choice, declarations, the shape
of its deal summary, how a match ends) is its ruleset's (app/rules, ``rules.GAMES``).
What a page *says* about it lives here, once: the words its players use at the table
("Vaig", "Bolot", "Belot", "llocs"), the score sheet's layout, the table's own panel
and its rules text. Adding a game adds one :class:`GameLabels` entry to ``LABELS``; a
game without one is shown with ``DEFAULT`` (the French Belote words).

The texts are msgids marked with ``N_`` (babel.cfg lists this module) and translated
where they are shown. The functions below turn actions and declarations into the
viewer's language (the card and suit names come from app/web/cards.py).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from app import rules
from app.web import cards, i18n
from app.web.i18n import N_, _


@dataclass(frozen=True)
class GameLabels:
    """A game's words and presentation (msgids; empty string: nothing to say).

    ``catalan``: the table talk is Catalan (runs "Tercera", fours "Dos-cents", "Contrar",
    "mà"; rules/bolot.md §4-5, rules/botifarra.md). ``belote``/``rebelote``: what a player
    says with the trump King and Queen (rules/bridge-belote.md §5: "Belot", once).
    ``runs``: the names of runs of 3, 4 and 5+ cards. ``take``/``take_suit``/
    ``take_turned``/``pass_``: the auction buttons (``take_turned`` names the turned
    card's suit in round 1). ``failed_note``/``failed_headline``: a failed contract on the
    sheet and in the deal's result ("dedans", "llocs": rules/bolot.md §10).
    ``last_trick``: the last-trick row of a deal's result. ``taker_chip``: the taker's tag.
    ``carried_row``/``carried_note``: points held or hanging over to the next deal.
    ``choices``: a choice option's words in this game, ``(option, value) -> msgid``.
    ``panel``/``panel_phases``: the table's own panel (app/table/panels.py ``PANELS``) and
    the phases it shows in. ``sheet``: the score sheet's layout (``"belote"``, ``"bridge"``,
    ``"botifarra"``, ``"players"``: a column per player, Belote for three). ``beat_defenders``: the takers must score more than the defenders
    (no fixed "needed": rules/belote.md §7). ``always_multiplier``: the contract always
    shows its multiplier. ``rules_doc``: the folder of the rules text (templates/rules).
    """

    catalan: bool = False
    belote: str = N_("Belote")
    rebelote: str = N_("Rebelote")
    runs: tuple[str, str, str] = (N_("Tierce"), N_("Cinquante"), N_("Cent"))
    take: str = N_("Take")
    take_suit: str = N_("Take %(suit)s")
    take_turned: str = N_("Take %(suit)s")
    pass_: str = N_("Pass")  # "Passo" in the Catalan catalogue
    failed_note: str = ""
    failed_headline: str = N_("%(taker)s failed: dedans, all %(in_play)s points to %(other)s.")
    last_trick: str = N_("Last trick (dix de der)")
    taker_chip: str = N_("taker")
    carried_row: str = N_("Held (litige)")
    carried_note: str = N_("%(n)s held")
    choices: dict[tuple[str, str], str] = field(default_factory=dict)
    panel: str | None = None
    panel_phases: tuple[str, ...] = ("auction",)
    sheet: str = "belote"
    beat_defenders: bool = False
    always_multiplier: bool = False
    rules_doc: str | None = None
    #: The contract is a number of points (or capot) with a coinche level: the table
    #: names it ("110 · Coinche", rules/contree.md §4).
    bid_points: bool = False
    #: The message context of the game's own words for the match and the deal (Bolot:
    #: *joc* and *partida*, rules/bolot.md §1; app/table/game_words.py), or None: the
    #: catalogue's plain words (Botifarra's *partida* and *mà*).
    words: str | None = None


#: A game without an entry: the French Belote words, no panel, no rules text.
DEFAULT = GameLabels()

_BELOTE = GameLabels(failed_note=N_("dedans"), beat_defenders=True, rules_doc="belote")

#: game id -> its labels (one entry per game of ``rules.GAMES``).
LABELS: dict[str, GameLabels] = {
    "bolot": GameLabels(
        catalan=True,
        belote=N_("Bolot"),
        rebelote=N_("Rebolot"),
        runs=(N_("Tercera"), N_("Cinquanta"), N_("Cent")),
        take=N_("Vaig"),
        take_suit=N_("Vaig a %(suit)s"),
        take_turned=N_("Vaig (%(suit)s)"),
        pass_=N_("No vaig"),
        failed_note=N_("llocs"),
        failed_headline=N_("%(taker)s failed: llocs, all %(in_play)s points to the defenders."),
        last_trick=N_("Last trick (últimes)"),
        taker_chip=N_("goes"),
        # Bolot's own words (rules/bolot.md §10): a failed contract is "llocs" there
        choices={("tie_rule", "fail"): N_("the takers are llocs: the defenders score everything")},
        rules_doc="bolot",
        words="bolot",
    ),
    "belote": _BELOTE,
    "belote-2p": GameLabels(
        failed_note="",
        beat_defenders=True,
        panel="belote_2p_stock",
        panel_phases=("auction", "play"),
        # its own page: only 18 of the 32 cards are played (rules/belote.md §2-§3, 2p)
        rules_doc="belote-2p",
    ),
    "belote-3p": GameLabels(
        failed_note=N_("dedans"),
        failed_headline=N_("%(taker)s failed: dedans, all %(in_play)s points to the defenders."),
        beat_defenders=True,
        sheet="players",
        # the stock and the retourne (with 32 cards it stays face up all deal: §3)
        panel="belote_2p_stock",
        panel_phases=("auction", "play"),
        choices={
            ("deal", "24"): N_("24 cards (9 to ace), eight each"),
            ("deal", "32"): N_("32 cards, nine each"),
        },
        rules_doc="belote-3p",
    ),
    "bridge-belote": GameLabels(
        belote=N_("Belot"),
        rebelote=N_("Belot"),  # said once for the pair (rules/bridge-belote.md §5)
        runs=(N_("Tierce"), N_("Quarte"), N_("Quint")),
        carried_row=N_("Hanging"),
        carried_note=N_("%(n)s hang"),
        panel="bridge_bidding",
        sheet="bridge",
        rules_doc="bridge-belote",
    ),
    "botifarra": GameLabels(
        catalan=True,
        belote=N_("Bolot"),
        rebelote=N_("Rebolot"),
        runs=(N_("Tercera"), N_("Cinquanta"), N_("Cent")),
        last_trick=N_("Last trick"),
        panel="botifarra_choice",
        sheet="botifarra",
        always_multiplier=True,
        rules_doc="botifarra",
    ),
    "contree": GameLabels(
        failed_note=N_("dedans"),
        failed_headline=N_("%(taker)s failed: dedans, the deal goes to %(other)s."),
        panel="contree_bidding",
        bid_points=True,
        rules_doc="contree",
        # rules/contree.md §10: the words of its choice options
        choices={
            ("preset", "ffb"): N_("FFB contrée (2016)"),
            ("preset", "coinche"): N_("Coinche (with declarations)"),
            ("preset", "colver"): N_("colver (engine)"),
            ("win_rule", "reach"): N_("reaching the target"),
            ("win_rule", "exceed"): N_("passing the target"),
            ("capot_scoring", "flat"): N_("flat: 500 (×2, ×4 coinched)"),
            ("capot_scoring", "contract"): N_("as a contract of its value"),
            ("multiplier_on", "base_and_contract"): N_("the base and the contract"),
            ("multiplier_on", "contract"): N_("the contract only"),
            ("belote_rule", "winner"): N_("goes to the winner of the deal (prenable)"),
            ("belote_rule", "holder"): N_("is always kept by its holder (imprenable)"),
            ("declaration_tie", "eldest"): N_("the first declared from the eldest hand wins"),
            ("declaration_tie", "cancel"): N_("cancel every declaration"),
            ("rounding", "half_up"): N_("to the nearest ten, 5 up"),
            ("rounding", "six_up"): N_("to the nearest ten, 6 up"),
            ("rounding", "none"): N_("none"),
        },
    ),
}


def of(game: str | None) -> GameLabels:
    """The labels of ``game`` (``DEFAULT`` for an unknown game or None)."""
    return LABELS.get(game or "", DEFAULT)


def sides(game: str | None) -> int:
    """The scoring sides of ``game``: 2 pairs, or the players each for himself (2 or 3:
    the ruleset's ``sides``); 2 for an unknown game."""
    ruleset = rules.GAMES.get(game or "")
    return ruleset.sides if ruleset else 2


def trump_chosen(game: str | None) -> bool:
    """True when the game has no bidding: trumps are chosen (rules/botifarra.md §4)."""
    ruleset = rules.GAMES.get(game or "")
    return bool(ruleset and ruleset.trump_chosen)


# --- declarations ------------------------------------------------------------------


def _run_name(game: str, length: int) -> str:
    """Name of a run by its length (rules/bolot.md §5, rules/belote.md §5, rules/bridge-belote.md §5)."""
    return _(of(game).runs[{3: 0, 4: 1}.get(length, 2)])


def _four_name(game: str, rank: str) -> str:
    """Name of a four of a kind (rules/bolot.md §5)."""
    if of(game).catalan:
        return {"10": _("Dos-cents"), "9": _("Cent cinquanta")}.get(rank, _("Cent"))
    return _("Carré")


def _plural_rank(rank: str) -> str:
    plural = {"J": N_("Jacks"), "Q": N_("Queens"), "K": N_("Kings"), "A": N_("Aces")}.get(rank)
    if plural:
        return _(plural)
    return _("%(rank)ss") % {"rank": cards.rank_label(rank)}


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
            "rank": cards.rank_label(str(top)),
            "suit": cards.suit_name(str(suit)),
            "of_suit": cards.of_suit(str(suit)),
        }
        if of(game).catalan:
            return _("%(name)s %(rank)s de %(suit)s") % values
        top_name = cards.FRENCH_RANKS.get(str(top), str(top))
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
        if of(game).catalan:
            return {"10": 200, "9": 150}.get(rank, 100)
        return {"J": 200, "9": 150}.get(rank, 100)
    return 0


#: The games' own words that stay in every language, each with the language it comes from
#: and its explanation (house rule: "Where a game has its own word, keep it, explained
#: once"): ``msgid -> (key, language of the word, short gloss, full explanation)``. The key
#: names the word for the page's "explained once" memory (static/js/tapet.js).
GLOSSES: dict[str, tuple[str, str, str, str]] = {
    "Vaig": ("vaig", "ca", N_("take"), N_("Vaig (Catalan, “I go”): you take the trump")),
    "Vaig a %(suit)s": (
        "vaig",
        "ca",
        N_("take"),
        N_("Vaig (Catalan, “I go”): you take the trump"),
    ),
    "Vaig (%(suit)s)": (
        "vaig",
        "ca",
        N_("take"),
        N_("Vaig (Catalan, “I go”): you take the trump"),
    ),
    "No vaig": ("novaig", "ca", N_("pass"), N_("No vaig (Catalan, “I don't go”): you pass")),
    "mà": ("ma", "ca", N_("eldest"), N_("mà (Catalan, “hand”): the eldest hand, who leads first")),
    "llocs": (
        "llocs",
        "ca",
        N_("failed"),
        N_("llocs: the takers failed; every point of the deal goes to the defenders"),
    ),
    "dedans": (
        "dedans",
        "fr",
        N_("failed"),
        N_("dedans (French, “inside”): the takers failed; every point goes to the defenders"),
    ),
    "inside": (
        "inside",
        "bg",
        N_("failed"),
        N_("inside: the declarers failed; the whole deal goes to the defenders"),
    ),
}


def gloss(msgid: str) -> dict[str, str] | None:
    """The explanation of a game's own word shown with ``msgid`` (one of ``GLOSSES``), in
    the viewer's language: ``{"key", "short", "title"}``; None for an ordinary word, in
    the word's own language (Catalan players know "Vaig"), or when the catalogue already
    says it in the viewer's words (French "Je prends (vaig)")."""
    entry = GLOSSES.get(msgid)
    if entry is None:
        return None
    key, own_language, short, title = entry
    if i18n.current() == own_language or _(msgid) != msgid:
        return None
    return {"key": key, "short": _(short), "title": _(title)}


def action_gloss(game: str, action: dict[str, Any], turned: bool = False) -> dict[str, str] | None:
    """:func:`gloss` of an action's label when it is the game's own word (Bolot's "Vaig",
    "No vaig": rules/bolot.md §4); ``turned``: the round-1 take naming the turned suit."""
    words = of(game)
    kind = action.get("type")
    if kind == "take":
        return gloss(
            words.take_turned if turned else words.take_suit if action.get("suit") else words.take
        )
    if kind == "pass":
        return gloss(words.pass_)
    return None


def choice_label(option: str, value: Any, game: str | None = None) -> str:
    """The words for one value of a choice option, the game's own words first:
    ("tie_rule", "fail") -> "the takers fail (dedans)"; with game "bolot", "... llocs ..."."""
    label = of(game).choices.get((option, str(value))) or cards.CHOICE_LABELS.get(
        (option, str(value))
    )
    return _(label) if label else str(value)


# --- actions -----------------------------------------------------------------------


def words_of(game: str | None) -> str | None:
    """The message context of ``game``'s own words (``"bolot"``), or None: the page of
    that game runs inside ``i18n.game_words(words_of(game))``."""
    return of(game).words


def belote_word(game: str) -> str:
    """What a player says with the first of the trump King/Queen (Rei/Cavall): "Bolot",
    "Belot" in Bridge-Belote (rules/bridge-belote.md §5), else "Belote"."""
    return _(of(game).belote)


def rebelote_word(game: str) -> str:
    """What a player says with the second of the trump King/Queen: "Rebolot", "Rebelote"
    (Bridge-Belote says "Belot" once, for the pair)."""
    return _(of(game).rebelote)


def action_label(game: str, action: dict[str, Any]) -> str:  # noqa: C901 - one branch per type
    """A button label for any action in ``legal_actions``, in the viewer's language.

    Bolot: take -> "Vaig", take with a suit -> "Vaig a copes", pass -> "No vaig"
    (rules/bolot.md §4). Others by type: bid, double, redouble, trump,
    botifarra, delegate, sant_vicenc, exchange, claim, declare, play. An
    unknown type is shown by its name, so a new game still gets a button.
    """
    kind = action.get("type")
    words = of(game)
    suit = action.get("suit")
    if kind == "take":
        return _(words.take_suit) % {"suit": cards.suit_name(suit)} if suit else _(words.take)
    if kind == "pass":
        return _(words.pass_)
    if kind == "bid" and "value" in action:  # a bid of points (rules/contree.md §4)
        return _("%(value)s %(suit)s") % {
            "value": bid_value_word(action["value"]),
            "suit": cards.suit_name(str(suit)),
        }
    if kind == "bid":
        return cards.contract_name(action.get("contract"))
    if kind == "coinche":
        return _("Coinche")
    if kind == "surcoinche":
        return _("Surcoinche")
    if kind == "double":
        return _("Contrar") if words.catalan else _("Contra")
    if kind == "redouble":
        return _("Recontrar") if words.catalan else _("Recontra")
    if kind == "sant_vicenc":
        return _("Sant Vicenç")
    if kind == "trump":
        name = cards.suit_name(str(suit))
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
        card = cards.card_name(str(action.get("card")))
        if action.get("bolot") or action.get("belote"):
            return _("Play the %(card)s and say %(word)s") % {
                "card": card,
                "word": belote_word(game),
            }
        return _("Play the %(card)s") % {"card": card}
    return str(kind).replace("_", " ").capitalize()


#: Suit signs for the short form of a call (a seat's bubble).
SUIT_SIGNS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


def call_label(game: str, action: dict[str, Any], options: dict[str, Any] | None = None) -> str:
    """A call as a seat's bubble shows it: short, "80 \u2663" for a bid of points
    (rules/contree.md §4); in a game of points a coinche is "×2" and a surcoinche
    "×4" or "×3" (option ``surcoinche_multiplier``, §7) so that it fits a phone's seat;
    otherwise as :func:`action_label`."""
    if action.get("type") == "bid" and "value" in action:
        sign = SUIT_SIGNS.get(str(action.get("suit")), str(action.get("suit")))
        return f"{bid_value_word(action['value'])} {sign}"
    if of(game).bid_points and action.get("type") == "coinche":
        return "×2"
    if of(game).bid_points and action.get("type") == "surcoinche":
        return f"×{(options or {}).get('surcoinche_multiplier') or 4}"
    return action_label(game, action)


def bid_value_word(value: Any) -> str:
    """A bid of points as said at the table: 110 -> "110", "capot" -> "Capot",
    "generale" -> "Générale" (rules/contree.md §4)."""
    if value == "capot":
        return _("Capot")
    if value == "generale":
        return _("Générale")
    return str(value)


def contract_words(game: str | None, contract: dict[str, Any] | None) -> tuple[str, str] | None:
    """A contract of points and its coinche level, for games with ``bid_points``:
    ``{"bid": 110, "coinche": 1}`` -> ("110", "Coinche"); the level is "" when not
    coinched; None for other games."""
    if not (contract and of(game).bid_points and contract.get("bid") is not None):
        return None
    level = {1: _("Coinche"), 2: _("Surcoinche")}.get(contract.get("coinche") or 0, "")
    return bid_value_word(contract["bid"]), level


def contract_call(game: str | None, contract: dict[str, Any] | None) -> str | None:
    """A contract of points as its bid is said, for games with ``bid_points``:
    ``{"bid": 110, "trump": "H"}`` -> "110 \u2665", ``{"bid": "capot", "trump": "S"}`` ->
    "Capot \u2660" (rules/contree.md §4); None for other games."""
    if not (contract and of(game).bid_points and contract.get("bid") is not None):
        return None
    trump = str(contract.get("trump"))
    return f"{bid_value_word(contract['bid'])} {SUIT_SIGNS.get(trump, trump)}"


def preset_changes(game: str | None, options: dict[str, Any] | None) -> list[tuple[str, str]]:
    """The options of ``options`` that differ from their rules preset's value (option
    ``preset``, rules/contree.md §10), in schema order: ``[(option label, value words)]``
    in the viewer's language; [] when they equal the preset (or the game has none). An
    option missing from ``options`` takes the preset's value."""
    ruleset = rules.GAMES.get(game or "")
    schema = ruleset.options_schema if ruleset else []
    names = {o["name"] for o in schema}
    if "preset" not in names:
        return []
    chosen = options or {}
    preset = chosen.get("preset") or next(o["default"] for o in schema if o["name"] == "preset")
    changes = []
    for o in schema:
        fixed = (o.get("presets") or {}).get(preset, o.get("default"))
        if o["name"] == "preset" or "presets" not in o or o["name"] not in chosen:
            continue
        value = chosen[o["name"]]
        if value != fixed:
            changes.append(
                (cards.option_text(o.get("label", o["name"])), _value_words(o, value, game))
            )
    return changes


def _value_words(option: dict[str, Any], value: Any, game: str | None) -> str:
    """An option value as words: yes/no, a choice's label, or the value."""
    if value is True:
        return _("yes")
    if value is False:
        return _("no")
    if option.get("type") == "choice":
        return choice_label(option["name"], value, game)
    return str(value)


def preset_words(game: str | None, options: dict[str, Any] | None) -> tuple[str, str] | None:
    """The rules preset of a game that has one (option ``preset``, rules/contree.md §10):
    ``(short name, its words)``, e.g. ("ffb", "FFB contrée (2016)"); when some options
    differ from the preset, ("ffb, modified", "FFB contrée (2016), modified: Rounding of
    trick points: none; ..."). None for a game without presets. A missing value is the
    schema's default."""
    ruleset = rules.GAMES.get(game or "")
    schema = {o["name"]: o for o in (ruleset.options_schema if ruleset else [])}
    if "preset" not in schema:
        return None
    value = (options or {}).get("preset") or schema["preset"]["default"]
    short, words = str(value), choice_label("preset", value, game)
    changes = preset_changes(game, options)
    if not changes:
        return short, words
    listed = "; ".join(f"{label}: {v}" for label, v in changes)
    return (
        _("%(preset)s, modified") % {"preset": short},
        _("%(preset)s, modified: %(changes)s") % {"preset": words, "changes": listed},
    )


def seat_word_gloss(game: str, seat: int, dealer: int | None, players: int) -> str | None:
    """The explanation of :func:`seat_word` when it is a game's own word ("mà"), for a title."""
    if dealer is None or seat != (dealer + 1) % players or not of(game).catalan:
        return None
    explained = gloss("mà")
    return explained["title"] if explained else None


def seat_word(game: str, seat: int, dealer: int | None, players: int) -> str | None:
    """A short role tag for a seat: "dealer" or the eldest hand ("mà" in Catalan games)."""
    if dealer is None:
        return None
    if seat == dealer:
        return _("dealer")
    if seat == (dealer + 1) % players:
        return _("mà") if of(game).catalan else _("eldest")
    return None


def guest_name() -> str:
    """A nickname offered to a new visitor on a form ("Guest 4821", in the page's language),
    so that one tap gets them a seat; they may type their own instead."""
    return _("Guest %(n)s") % {"n": 1000 + secrets.randbelow(9000)}
