"""The colours of static/css/tapet.css meet WCAG 2.1 AA (4.5:1 for text, 3:1 for
large text and the focus and turn indicators)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CSS = (Path(__file__).resolve().parents[2] / "static" / "css" / "tapet.css").read_text()


def palette() -> dict[str, str]:
    """The custom properties of :root that are colours."""
    root = CSS[CSS.index(":root {") : CSS.index("}", CSS.index(":root {"))]
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", root))


def luminance(hex_colour: str) -> float:
    rgb = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def ratio(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


P = palette()
WHITE, FELT_LIGHT = "#ffffff", "#12804f"
# (foreground, background, minimum, where)
PAIRS = [
    (P["ink"], P["paper"], 4.5, "text on panels"),
    (P["muted"], P["paper"], 4.5, "muted text on panels"),
    ("#0b57d0", P["paper"], 4.5, "links on panels"),
    (WHITE, P["felt"], 4.5, "text on the felt"),
    (WHITE, FELT_LIGHT, 4.5, "text on the lit middle of the felt"),
    (P["accent"], P["felt-dark"], 4.5, "turn label and 'your turn' on the dark felt"),
    (P["accent"], P["felt"], 3.0, "turn indicator ring on the felt (non-text)"),
    (P["accent-ink"], P["accent"], 4.5, "buttons and chips in the accent colour"),
    (WHITE, "#14532d", 4.5, "primary buttons"),
    (P["ink"], "#f4f4f4", 4.5, "plain buttons"),
    ("#e8f3ec", "#06261a", 4.5, "header links"),
    ("#9db5a8", "#06261a", 4.5, "room number in the header"),
    ("#cfe3d8", P["felt-dark"], 4.5, "breakdown headings on the felt"),
    ("#7f1d1d", "#fecaca", 4.5, "contra chips and buttons"),
    ("#7f1d1d", "#fee2e2", 4.5, "the clock running low"),
    (P["danger"], WHITE, 4.5, "failed headline"),
    (P["ok"], WHITE, 4.5, "made headline"),
    ("#3b2c00", "#fde68a", 4.5, "belote badge"),
    (P["team0"], P["paper"], 3.0, "team 0 underline (non-text)"),
    (P["team1"], P["paper"], 3.0, "team 1 underline (non-text)"),
    (P["ink"], "#ffe58a", 4.5, "marked options on the rules page"),
]


def test_the_palette_is_read() -> None:
    assert {"ink", "paper", "felt", "accent", "muted"} <= set(P)


@pytest.mark.parametrize(("fg", "bg", "minimum", "where"), PAIRS, ids=[p[3] for p in PAIRS])
def test_contrast(fg: str, bg: str, minimum: float, where: str) -> None:
    assert ratio(fg, bg) >= minimum, f"{where}: {fg} on {bg} is {ratio(fg, bg):.2f}:1"
