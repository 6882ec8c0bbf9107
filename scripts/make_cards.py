"""Draw Tapet's own card art as SVG files under static/cards/.

Run from the repository root (the output is committed, so this only needs to
run again when the drawing changes):

    uv run python scripts/make_cards.py

It writes, named by card code (see DESIGN.md "Cards have a short code"):

* ``static/cards/es/<number><suit>.svg``: the Spanish 48-card deck, numbers
  1-12, suits ``o`` oros (gold coin), ``c`` copes (cup), ``e`` espases
  (sword), ``b`` bastos (club), in their traditional colours;
* ``static/cards/fr/<rank><suit>.svg``: the French 32-card deck, ranks
  ``7 8 9 T J Q K A``, suits ``S H D C``, two colours;
* ``static/cards/fr4/...``: the same with four colours (spades black, hearts
  red, diamonds blue, clubs green);
* ``static/cards/fr-fr/`` and ``fr4-fr/``: the Jacks, Queens and Kings again with the
  indices French cards print, V (valet), D (dame), R (roi) (``INDEX_LETTERS``); the
  pages draw them for French readers (app/web/cards.py ``card_image``);
* ``back.svg`` in each folder: the card back;
* ``suit/<suit>.svg`` (and ``suit4/`` for four-colour French): suit icons.

Every face has a big corner index (number and suit) at top left, repeated
upside down at bottom right, so that an overlapping hand on a phone still
shows what each card is; the middle holds the pips or a simple figure.
"""

from __future__ import annotations

from pathlib import Path

W, H = 240, 336  # 5:7, the shape of a real card
ROOT = Path(__file__).resolve().parent.parent / "static" / "cards"

# --- suit shapes, each drawn in a 100 x 100 box -------------------------------

SPANISH = {
    "o": ("#d9a400", "#7a5a00"),  # oros: ochre/gold
    "c": ("#c8102e", "#6e0818"),  # copes: red
    "e": ("#1d5fbf", "#0d2f66"),  # espases: blue
    "b": ("#2e8b3e", "#174a20"),  # bastos: green
}
FRENCH2 = {"S": "#111111", "H": "#c8102e", "D": "#c8102e", "C": "#111111"}
FRENCH4 = {"S": "#111111", "H": "#c8102e", "D": "#1d5fbf", "C": "#2e8b3e"}


def oros(fill: str, dark: str) -> str:
    """A gold coin: a disc with a rim and a small flower in the middle."""
    petals = "".join(
        f'<ellipse cx="50" cy="34" rx="6" ry="12" fill="{dark}" transform="rotate({a} 50 50)"/>'
        for a in range(0, 360, 45)
    )
    return (
        f'<circle cx="50" cy="50" r="46" fill="{fill}" stroke="{dark}" stroke-width="5"/>'
        f'<circle cx="50" cy="50" r="32" fill="none" stroke="{dark}" stroke-width="3"/>'
        f"{petals}"
        f'<circle cx="50" cy="50" r="7" fill="{fill}" stroke="{dark}" stroke-width="3"/>'
    )


def copes(fill: str, dark: str) -> str:
    """A cup: a wide bowl on a stem and a foot."""
    return (
        f'<path d="M12 10 H88 C88 44 72 58 57 61 V74 C57 80 72 83 76 94 H24 '
        f'C28 83 43 80 43 74 V61 C28 58 12 44 12 10 Z" fill="{fill}" stroke="{dark}" '
        f'stroke-width="4" stroke-linejoin="round"/>'
        f'<ellipse cx="50" cy="11" rx="38" ry="7" fill="{dark}"/>'
        f'<rect x="38" y="66" width="24" height="6" rx="3" fill="{dark}"/>'
    )


def espases(fill: str, dark: str) -> str:
    """A sword, point up: blade, cross-guard, grip and pommel."""
    return (
        f'<path d="M50 1 L60 16 V64 H40 V16 Z" fill="{fill}" stroke="{dark}" '
        f'stroke-width="3" stroke-linejoin="round"/>'
        f'<line x1="50" y1="12" x2="50" y2="60" stroke="{dark}" stroke-width="3"/>'
        f'<rect x="18" y="63" width="64" height="10" rx="5" fill="{dark}"/>'
        f'<rect x="44" y="73" width="12" height="17" fill="{fill}" stroke="{dark}" stroke-width="3"/>'
        f'<circle cx="50" cy="93" r="6" fill="{dark}"/>'
    )


def bastos(fill: str, dark: str) -> str:
    """A club (a knotty cudgel), thick end up, slightly leaning."""
    knots = "".join(
        f'<circle cx="{x}" cy="{y}" r="{r}" fill="{fill}" stroke="{dark}" stroke-width="3"/>'
        for x, y, r in ((35, 30, 7), (65, 22, 6), (37, 58, 6), (62, 48, 6), (58, 74, 5))
    )
    return (
        '<g transform="rotate(-14 50 50)">'
        f'<path d="M43 97 L35 42 C31 18 38 3 51 3 C64 3 71 18 66 42 L57 97 Z" '
        f'fill="{fill}" stroke="{dark}" stroke-width="4" stroke-linejoin="round"/>'
        f"{knots}"
        f'<path d="M45 90 H55" stroke="{dark}" stroke-width="3"/>'
        "</g>"
    )


def heart(fill: str) -> str:
    """The French heart."""
    return (
        f'<path d="M50 92 C22 68 2 50 2 29 C2 13 14 3 28 3 C39 3 46 10 50 19 '
        f'C54 10 61 3 72 3 C86 3 98 13 98 29 C98 50 78 68 50 92 Z" fill="{fill}"/>'
    )


def diamond(fill: str) -> str:
    """The French diamond."""
    return f'<path d="M50 2 L86 50 L50 98 L14 50 Z" fill="{fill}"/>'


def spade(fill: str) -> str:
    """The French spade: an upside-down heart on a stem."""
    return (
        f'<path d="M50 3 C40 24 2 42 2 64 C2 79 13 87 26 87 C36 87 43 82 47 75 '
        f"C46 86 42 93 33 98 H67 C58 93 54 86 53 75 C57 82 64 87 74 87 "
        f'C87 87 98 79 98 64 C98 42 60 24 50 3 Z" fill="{fill}"/>'
    )


def club(fill: str) -> str:
    """The French club: three leaves on a stem."""
    return (
        f'<circle cx="50" cy="27" r="22" fill="{fill}"/>'
        f'<circle cx="25" cy="60" r="22" fill="{fill}"/>'
        f'<circle cx="75" cy="60" r="22" fill="{fill}"/>'
        f'<path d="M45 50 C45 78 40 90 31 98 H69 C60 90 55 78 55 50 Z" fill="{fill}"/>'
    )


def suit_shape(suit: str, four_colour: bool = False) -> str:
    """The suit drawn in a 100 x 100 box, for a Spanish or French suit letter."""
    if suit in SPANISH:
        fill, dark = SPANISH[suit]
        return {"o": oros, "c": copes, "e": espases, "b": bastos}[suit](fill, dark)
    colour = (FRENCH4 if four_colour else FRENCH2)[suit]
    return {"H": heart, "D": diamond, "S": spade, "C": club}[suit](colour)


def ink(suit: str, four_colour: bool) -> str:
    """The colour of a suit's index text."""
    if suit in SPANISH:
        return SPANISH[suit][1] if suit == "o" else SPANISH[suit][0]
    return (FRENCH4 if four_colour else FRENCH2)[suit]


def place(shape: str, cx: float, cy: float, size: float, flip: bool = False) -> str:
    """Put a 100 x 100 shape centred at (cx, cy), ``size`` wide, optionally upside down."""
    s = size / 100
    rot = f" rotate(180 {cx} {cy})" if flip else ""
    return f'<g transform="{rot.strip()} translate({cx - size / 2} {cy - size / 2}) scale({s})">{shape}</g>'


# --- layouts -------------------------------------------------------------------

# Pip positions: (column -1/0/1, row from -1 top to 1 bottom).
PIPS: dict[int, list[tuple[float, float]]] = {
    2: [(0, -1), (0, 1)],
    3: [(0, -1), (0, 0), (0, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
    7: [(-1, -1), (1, -1), (0, -0.5), (-1, 0), (1, 0), (-1, 1), (1, 1)],
    8: [(-1, -1), (1, -1), (0, -0.5), (-1, 0), (1, 0), (0, 0.5), (-1, 1), (1, 1)],
    9: [
        (-1, -1),
        (1, -1),
        (-1, -1 / 3),
        (1, -1 / 3),
        (0, 0),
        (-1, 1 / 3),
        (1, 1 / 3),
        (-1, 1),
        (1, 1),
    ],
    10: [
        (-1, -1),
        (1, -1),
        (0, -2 / 3),
        (-1, -1 / 3),
        (1, -1 / 3),
        (-1, 1 / 3),
        (1, 1 / 3),
        (0, 2 / 3),
        (-1, 1),
        (1, 1),
    ],
}
CX, CY = W / 2, H / 2  # the middle of the card
COL, ROW, PIP = 28, 102, 40  # pip spacing and size


def pips(n: int, shape: str, flip_lower: bool) -> str:
    """The pips of a number card, ``n`` copies of the suit shape."""
    if n == 1:
        return place(shape, CX, CY, 108)
    return "".join(
        place(shape, CX + c * COL, CY + r * ROW, PIP, flip=flip_lower and r > 0) for c, r in PIPS[n]
    )


def figure(kind: str, suit_svg: str, colour: str) -> str:
    """A simple court figure holding the suit: 'page' (Sota/Jack), 'rider'
    (Cavall), 'queen' or 'king', inside a tinted frame."""
    frame = (
        f'<rect x="70" y="40" width="100" height="256" rx="10" fill="{colour}" fill-opacity="0.10" '
        f'stroke="{colour}" stroke-width="3"/>'
    )
    head = '<circle cx="120" cy="98" r="17" fill="#f3d3b0" stroke="#333" stroke-width="3"/>'
    body = (
        f'<path d="M96 206 L102 126 Q120 114 138 126 L144 206 Z" fill="{colour}" '
        'stroke="#333" stroke-width="3" stroke-linejoin="round"/>'
    )
    legs = '<path d="M106 206 V262 M134 206 V262" stroke="#333" stroke-width="8" stroke-linecap="round"/>'
    hat = {
        "page": '<path d="M100 90 Q120 64 140 90 Z" fill="#333"/><path d="M140 84 l16 -10" stroke="#333" stroke-width="3"/>',
        "king": '<path d="M101 86 L101 64 L110 76 L120 60 L130 76 L139 64 L139 86 Z" fill="#e0b400" stroke="#6b5200" stroke-width="3"/>',
        "queen": '<path d="M104 86 L108 70 L120 78 L132 70 L136 86 Z" fill="#e0b400" stroke="#6b5200" stroke-width="3"/>'
        '<path d="M102 92 Q92 130 100 150 M138 92 Q148 130 140 150" stroke="#333" stroke-width="4" fill="none"/>',
        "rider": '<path d="M102 88 Q120 70 138 88 Z" fill="#333"/>',
    }[kind]
    if kind == "rider":
        # A horse under the rider: body, neck and head, four legs.
        horse = (
            '<path d="M84 196 Q84 182 100 180 H140 Q150 180 152 170 L148 148 Q150 138 160 140 '
            'L172 156 Q174 162 168 164 L160 160 L162 190 Q160 214 144 214 H98 Q84 214 84 196 Z" '
            'fill="#8a5a2b" stroke="#333" stroke-width="3" stroke-linejoin="round"/>'
            '<path d="M86 188 Q74 196 76 216" stroke="#333" stroke-width="5" fill="none"/>'
            '<path d="M94 210 V276 M110 212 V276 M136 212 V276 M150 208 V276" stroke="#333" '
            'stroke-width="7" stroke-linecap="round"/>'
        )
        rider = (
            f'<path d="M104 190 L108 132 Q120 122 132 132 L136 190 Z" fill="{colour}" stroke="#333" '
            'stroke-width="3"/>'
        )
        return (
            frame
            + horse
            + rider
            + head.replace('cy="98"', 'cy="104"')
            + hat.replace("Q120 70", "Q120 76")
            .replace("M102 88", "M102 94")
            .replace("138 88", "138 94")
            + place(suit_svg, 120, 160, 40)
        )
    return frame + legs + body + head + hat + place(suit_svg, 120, 168, 46)


def index(label: str, suit_svg: str, colour: str) -> str:
    """The big corner index (label over suit), top left and, rotated, bottom right."""
    size = 66 if len(label) == 1 else 58
    one = (
        f'<text x="40" y="66" font-family="Arial, Helvetica, sans-serif" font-weight="700" '
        f'font-size="{size}" text-anchor="middle" fill="{colour}" '
        f'letter-spacing="{-4 if len(label) > 1 else 0}">{label}</text>'
        + place(suit_svg, 40, 104, 50)
    )
    return one + f'<g transform="rotate(180 {W / 2} {H / 2})">{one}</g>'


def face(label: str, suit: str, middle: str, colour: str, four: bool = False) -> str:
    """A whole card face."""
    return svg(
        f'<rect x="2" y="2" width="{W - 4}" height="{H - 4}" rx="16" fill="#fffdf7" '
        'stroke="#444" stroke-width="3"/>' + index(label, suit_shape(suit, four), colour) + middle
    )


def back(colour: str = "#1f3f8f") -> str:
    """The card back: a lattice of diamonds in a frame, with a T medallion."""
    return svg(
        '<defs><pattern id="lat" width="24" height="24" patternUnits="userSpaceOnUse">'
        f'<rect width="24" height="24" fill="{colour}"/>'
        '<path d="M12 0 L24 12 L12 24 L0 12 Z" fill="none" stroke="#ffffff" stroke-opacity="0.35" stroke-width="2"/>'
        "</pattern></defs>"
        f'<rect x="2" y="2" width="{W - 4}" height="{H - 4}" rx="16" fill="#fffdf7" stroke="#444" stroke-width="3"/>'
        f'<rect x="16" y="16" width="{W - 32}" height="{H - 32}" rx="10" fill="url(#lat)"/>'
        f'<circle cx="{CX}" cy="{CY}" r="40" fill="#fffdf7" stroke="{colour}" stroke-width="6"/>'
        f'<text x="{CX}" y="{CY + 20}" font-family="Georgia, serif" font-weight="700" font-size="58" '
        f'text-anchor="middle" fill="{colour}">T</text>'
    )


def svg(body: str) -> str:
    """Wrap a drawing in the card's SVG root element."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}">'
        f"{body}</svg>\n"
    )


# --- decks ---------------------------------------------------------------------

SPANISH_COURTS = {10: "page", 11: "rider", 12: "king"}
FRENCH_COURTS = {"J": "page", "Q": "queen", "K": "king"}
FRENCH_PIPS = {"7": 7, "8": 8, "9": 9, "T": 10, "A": 1}


def spanish_card(number: int, suit: str) -> str:
    """One card of the Spanish deck (1-12)."""
    fill, _ = SPANISH[suit]
    shape = suit_shape(suit)
    if number in SPANISH_COURTS:
        middle = figure(SPANISH_COURTS[number], shape, fill)
    else:
        middle = pips(number, shape, flip_lower=False)
    return face(str(number), suit, middle, ink(suit, False))


#: The court cards' index letters in a language whose cards print their own: French
#: cards say V, D, R for valet, dame, roi (the Ace stays A, "as").
INDEX_LETTERS = {"fr": {"J": "V", "Q": "D", "K": "R"}}


def french_card(rank: str, suit: str, four: bool, letters: dict[str, str] | None = None) -> str:
    """One card of the French 32-card deck; ``letters`` replaces a rank's index."""
    colour = ink(suit, four)
    shape = suit_shape(suit, four)
    if rank in FRENCH_COURTS:
        middle = figure(FRENCH_COURTS[rank], shape, colour)
    else:
        middle = pips(FRENCH_PIPS[rank], shape, flip_lower=True)
    label = "10" if rank == "T" else (letters or {}).get(rank, rank)
    return face(label, suit, middle, colour, four)


def write(path: Path, text: str) -> None:
    """Write one file, creating its folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def main() -> None:
    """Write every deck and back under static/cards/."""
    for suit in "ocbe":
        for number in range(1, 13):
            write(ROOT / "es" / f"{number}{suit}.svg", spanish_card(number, suit))
    write(ROOT / "es" / "back.svg", back("#8f1f2f"))
    for folder, four in (("fr", False), ("fr4", True)):
        for suit in "SHDC":
            for rank in "789TJQKA":
                write(ROOT / folder / f"{rank}{suit}.svg", french_card(rank, suit, four))
        write(ROOT / folder / "back.svg", back())
        for lang, letters in INDEX_LETTERS.items():
            for suit in "SHDC":
                for rank in letters:
                    write(
                        ROOT / f"{folder}-{lang}" / f"{rank}{suit}.svg",
                        french_card(rank, suit, four, letters),
                    )
    # Small suit icons for labels (contract, bidding buttons): suit/<letter>.svg,
    # with the four-colour French suits in suit4/.
    for suit in "ocebSHDC":
        write(ROOT / "suit" / f"{suit}.svg", icon(suit_shape(suit)))
    for suit in "SHDC":
        write(ROOT / "suit4" / f"{suit}.svg", icon(suit_shape(suit, True)))


def icon(shape: str) -> str:
    """A suit shape alone, in a square SVG."""
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">{shape}</svg>\n'


if __name__ == "__main__":
    main()
