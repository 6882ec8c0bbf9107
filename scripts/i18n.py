"""Catalogue maintenance (docs/i18n.md).

    uv run python scripts/i18n.py extract   # templates + labelled Python -> app/web/locale/messages.pot
    uv run python scripts/i18n.py update    # merge the .pot into every language's messages.po
    uv run python scripts/i18n.py missing   # list msgids without a translation, per language

The .po files are the source; they are compiled in memory at start-up (app/web/i18n.py),
so there is no .mo to keep up to date.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "app" / "web" / "locale"
POT = LOCALE / "messages.pot"
LANGS = ("ca", "es", "bg", "fr", "pt")


def extract() -> None:
    """Extract every marked text into the template catalogue."""
    subprocess.run(
        ["pybabel", "extract", "-F", "babel.cfg", "-k", "N_", "-k", "NP_:1c,2", "-k", "NNP_:1c,2,3", "--no-location", "--sort-output",
         "--omit-header", "-o", str(POT), "."],
        cwd=ROOT, check=True,
    )


def update() -> None:
    """Merge the template into each language (new msgids arrive empty)."""
    for lang in LANGS:
        po = LOCALE / lang / "LC_MESSAGES" / "messages.po"
        cmd = "update" if po.exists() else "init"
        args = ["pybabel", cmd, "-i", str(POT), "-d", str(LOCALE), "-l", lang, "--no-wrap"]
        if cmd == "update":
            args += ["--no-fuzzy-matching", "--ignore-obsolete"]
        subprocess.run(args, cwd=ROOT, check=True)


def missing() -> int:
    """Print the untranslated msgids; returns how many."""
    from babel.messages.pofile import read_po

    count = 0
    for lang in LANGS:
        with (LOCALE / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
            catalog = read_po(f)
        for m in catalog:
            if m.context:  # a game's own wording is optional: the plain one stands in
                continue
            if m.id and (not m.string or (isinstance(m.string, tuple) and not all(m.string))):
                print(f"{lang}: {m.id!r}")
                count += 1
    return count


if __name__ == "__main__":
    action = sys.argv[1] if len(sys.argv) > 1 else "missing"
    if action == "extract":
        extract()
    elif action == "update":
        update()
    else:
        sys.exit(1 if missing() else 0)
