"""Card codes, decks and the per-game tables of ranks and points.

A card is a short string: French ``<rank><suit>`` with ranks ``7 8 9 T J Q K A``
and suits ``S H D C`` ("JH", "TS"); Spanish ``<number><suit>`` with numbers
``1 3 7 8 9 10 11 12`` (and ``2 4 5 6`` in the 48-card deck) and suits
``o c e b`` ("1o", "10e"). The suit is always the last character.

A :class:`CardTable` holds what a game needs to compare and count cards: the
trump and plain orders, the points, and the sequence order used by
declarations. Everything here is plain data, built once at import.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SPANISH_SUITS = ("o", "c", "e", "b")
FRENCH_SUITS = ("S", "H", "D", "C")

SUIT_NAMES = {
    "o": "oros",
    "c": "copes",
    "e": "espases",
    "b": "bastos",
    "S": "spades",
    "H": "hearts",
    "D": "diamonds",
    "C": "clubs",
}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

RANK_NAMES = {
    # Spanish
    "1": "As",
    "2": "2",
    "3": "3",
    "4": "4",
    "5": "5",
    "6": "6",
    "7": "7",
    "8": "8",
    "9": "9",
    "10": "Sota",
    "11": "Cavall",
    "12": "Rei",
    # French
    "T": "10",
    "J": "Jack",
    "Q": "Queen",
    "K": "King",
    "A": "Ace",
}


def suit_of(card: str) -> str:
    """The suit letter of a card code ("10e" -> "e", "JH" -> "H")."""
    return card[-1]


def rank_of(card: str) -> str:
    """The rank part of a card code ("10e" -> "10", "JH" -> "J")."""
    return card[:-1]


def card_name(card: str) -> str:
    """A readable English name: "10e" -> "10 of espases", "JH" -> "J of hearts".

    Ranks keep their short form so that players of every language recognise
    them in error messages; the pages give the long names.
    """
    return f"{rank_of(card)} of {SUIT_NAMES[suit_of(card)]}"


@dataclass(frozen=True)
class CardTable:
    """Ranks and points of one deck under one game's rules.

    ``ranks`` are listed in deck order; ``trump_order``/``plain_order`` high to
    low; ``trump_points``/``plain_points`` map rank -> card points;
    ``sequence_order`` low to high for runs (empty when the game has none).
    Derived lookups (``trump_power``, ``plain_power``, ``seq_index``, ``seq_bits``) are filled
    in ``__post_init__``: a higher power beats a lower one.
    """

    suits: tuple[str, ...]
    ranks: tuple[str, ...]
    trump_order: tuple[str, ...]
    plain_order: tuple[str, ...]
    trump_points: dict[str, int]
    plain_points: dict[str, int]
    sequence_order: tuple[str, ...] = ()
    trump_power: dict[str, int] = field(init=False)
    plain_power: dict[str, int] = field(init=False)
    seq_index: dict[str, int] = field(init=False)
    deck: tuple[str, ...] = field(init=False)
    #: card -> one bit for its place in its suit's ``sequence_order``, each suit's bits
    #: apart from the next suit's by a zero bit: cards in a row are bits in a row.
    seq_bits: dict[str, int] = field(init=False)
    #: rank -> the ``seq_bits`` of its cards in every suit (a four of a kind held: all set).
    rank_bits: dict[str, int] = field(init=False)

    def __post_init__(self) -> None:
        n = len(self.ranks)
        object.__setattr__(self, "trump_power", {r: n - i for i, r in enumerate(self.trump_order)})
        object.__setattr__(self, "plain_power", {r: n - i for i, r in enumerate(self.plain_order)})
        object.__setattr__(self, "seq_index", {r: i for i, r in enumerate(self.sequence_order)})
        object.__setattr__(self, "deck", tuple(r + s for s in self.suits for r in self.ranks))
        width = len(self.sequence_order) + 1
        bits = {
            r + s: 1 << (k * width + i)
            for k, s in enumerate(self.suits)
            for i, r in enumerate(self.sequence_order)
        }
        object.__setattr__(self, "seq_bits", bits)
        rank_bits = dict.fromkeys(self.sequence_order, 0)
        for card, bit in bits.items():
            rank_bits[card[:-1]] |= bit
        object.__setattr__(self, "rank_bits", rank_bits)

    def points(self, card: str, trump: str | None) -> int:
        """Card points of ``card`` when ``trump`` is the trump suit (None: no trumps)."""
        r = rank_of(card)
        return self.trump_points[r] if suit_of(card) == trump else self.plain_points[r]

    def suit_total(self, trump: bool) -> int:
        """Points of one whole suit, as trumps or as a plain suit."""
        table = self.trump_points if trump else self.plain_points
        return sum(table[r] for r in self.ranks)

    def sort_key(self, card: str, trump: str | None) -> tuple[int, int]:
        """Sort key for showing a hand: suits grouped in deck order, high cards first."""
        s = suit_of(card)
        power = self.trump_power if s == trump else self.plain_power
        return (self.suits.index(s), -power[rank_of(card)])


#: The French 32-card deck under Belote-family rules: the same ranks, points and
#: run order in French Belote and Bridge-Belote (rules/belote.md §2,
#: rules/bridge-belote.md §2). Trump J 20, 9 14; plain J 2, 9 0; A 11, T 10, K 4, Q 3.
FRENCH_BELOTE = CardTable(
    suits=FRENCH_SUITS,
    ranks=("7", "8", "9", "T", "J", "Q", "K", "A"),
    trump_order=("J", "9", "A", "T", "K", "Q", "8", "7"),
    plain_order=("A", "T", "K", "Q", "J", "9", "8", "7"),
    trump_points={"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0},
    plain_points={"J": 2, "9": 0, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0},
    sequence_order=("7", "8", "9", "T", "J", "Q", "K", "A"),
)
