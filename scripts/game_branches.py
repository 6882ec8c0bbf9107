"""Count the places outside ``app/rules`` that branch on a game id (docs/engine-face.md, "Adding a game").

Python files are read with :mod:`ast` (not grep), so comments, docstrings and
strings that merely mention a game do not count. A *game branch* is one of:

* a comparison (``==``, ``!=``, ``in``, ``not in``) where one side names a game
  (``game``, ``game_id``, ``state.game``, ``view.get("game")``, ``view["game"]``)
  and the other side is a string literal, a tuple/list/set of them, or an
  upper-case module constant other than the registry ``GAMES``
  (``game in CATALAN_GAMES``);
* a ``match`` case on a literal game id;
* a dict literal keyed by game ids (all its keys are game ids, or a key is a
  tuple starting with one): a per-game lookup table;
* ``GAMES["bolot"]`` or ``game("bolot")``: a ruleset picked by a literal id.

"bolot", "belote" and "botifarra" are also action flags and contract keys
(``contract["botifarra"]``, ``kind == "belote"``); those are not game branches
and are not counted.

Jinja templates (``templates/**/*.html``) cannot be parsed by :mod:`ast`; for
them the script counts, by regular expression, ``game ==``/``!=``/``in``
comparisons with a string literal, and counts them on a separate line.

The one per-game table of the presentation layer, ``app/table/labels.py``, is
allowed to be keyed by game id: it is reported but not added to the total.

    uv run python scripts/game_branches.py            # per-file counts and the total
    uv run python scripts/game_branches.py --verbose  # every branch with its line

The game ids are read from the rules modules' ``RULESETS`` without importing
the project (a plain ``id = "..."`` class attribute), so the script also runs
on an old checkout.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Files keyed by game id by design: the presentation layer's one per-game table.
ALLOWED = {"app/table/labels.py"}
GAME_NAMES = {"game", "game_id"}
TEMPLATE_BRANCH = re.compile(r"""\bgame\s*(==|!=|\bnot in\b|\bin\b)\s*["'(\[]""")


def game_ids(root: Path = ROOT) -> set[str]:
    """The game ids set as ``id = "..."`` class attributes in app/rules/*.py."""
    ids: set[str] = set()
    for path in sorted((root / "app" / "rules").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                for stmt in node.body:
                    if (
                        isinstance(stmt, ast.Assign)
                        and any(isinstance(t, ast.Name) and t.id == "id" for t in stmt.targets)
                        and isinstance(stmt.value, ast.Constant)
                        and isinstance(stmt.value.value, str)
                        and stmt.value.value
                    ):
                        ids.add(stmt.value.value)
    return ids


def _is_gameish(node: ast.AST) -> bool:
    """``game``, ``game_id``, ``x.game``, ``x.get("game")`` or ``x["game"]``."""
    if isinstance(node, ast.Name):
        return node.id in GAME_NAMES
    if isinstance(node, ast.Attribute):
        return node.attr in GAME_NAMES
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
        return node.func.attr == "get" and _strings(node.args[0]) in (["game"], ["game_id"])
    if isinstance(node, ast.Subscript):
        return _strings(node.slice) in (["game"], ["game_id"])
    return False


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _strings(node: ast.AST) -> list[str] | None:
    """The string literals of ``node`` (a constant or a tuple/list/set of them), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and node.elts:
        out = [
            e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
        ]
        return out if len(out) == len(node.elts) else None
    return None


def _game_side(node: ast.AST) -> bool:
    """What a game id is compared with in a branch: string literals, or a module constant
    naming a set of games (``CATALAN_GAMES``); the engine's registry ``GAMES`` (a validity
    check) is not one, nor is another game (``Move.game_id == game.id`` in a query)."""
    name = _name(node)
    return _strings(node) is not None or (name is not None and name.isupper() and name != "GAMES")


def branches(source: str, ids: set[str]) -> list[tuple[int, str]]:
    """The game branches of one Python source: ``(line, kind)`` pairs, in line order."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            for op, left, right in zip(node.ops, sides, sides[1:], strict=False):
                if not isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn)):
                    continue
                if (_is_gameish(left) and _game_side(right)) or (
                    _is_gameish(right) and _strings(left) is not None
                ):
                    found.append((node.lineno, "compare"))
                    break
        elif isinstance(node, ast.match_case):
            if isinstance(node.pattern, (ast.MatchValue, ast.MatchOr)):
                values = [p.value for p in ast.walk(node.pattern) if isinstance(p, ast.MatchValue)]
                if any(set(_strings(v) or ()) & ids for v in values):
                    found.append((node.pattern.lineno, "match case"))
        elif isinstance(node, ast.Dict):
            keys = [_strings(k) if k is not None else None for k in node.keys]
            all_ids = bool(keys) and all(
                k is not None and len(k) == 1 and k[0] in ids for k in keys
            )
            tuple_ids = any(
                isinstance(k, ast.Tuple) and k.elts and (_strings(k.elts[0]) or [None])[0] in ids
                for k in node.keys
            )
            if all_ids or tuple_ids:
                found.append((node.lineno, "dict keyed by game"))
        elif isinstance(node, ast.Subscript):
            if _name(node.value) == "GAMES" and (_strings(node.slice) or [None])[0] in ids:
                found.append((node.lineno, "GAMES[literal id]"))
        elif isinstance(node, ast.Call):
            if (
                _name(node.func) == "game"
                and node.args
                and (_strings(node.args[0]) or [None])[0] in ids
            ):
                found.append((node.lineno, "game(literal id)"))
    return sorted(found)


def scan(root: Path = ROOT) -> tuple[dict[str, list[tuple[int, str]]], dict[str, list[int]]]:
    """Per-file branches of app/ (outside app/rules) and per-template branch lines."""
    ids = game_ids(root)
    py: dict[str, list[tuple[int, str]]] = {}
    for path in sorted((root / "app").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith("app/rules/"):
            continue
        found = branches(path.read_text(encoding="utf-8"), ids)
        if found:
            py[rel] = found
    html: dict[str, list[int]] = {}
    for path in sorted((root / "templates").rglob("*.html")):
        rel = path.relative_to(root).as_posix()
        lines = [
            n
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            for _ in TEMPLATE_BRANCH.finditer(line)
        ]
        if lines:
            html[rel] = lines
    return py, html


def main(argv: list[str] | None = None) -> int:
    """Print the per-file counts and the totals; the exit status is 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--verbose", "-v", action="store_true", help="list every branch")
    args = parser.parse_args(argv)
    py, html = scan()
    total = allowed = 0
    for rel, found in py.items():
        tag = "  (the per-game table: not counted)" if rel in ALLOWED else ""
        print(f"{len(found):4d}  {rel}{tag}")
        if args.verbose:
            for line, kind in found:
                print(f"        {rel}:{line}  {kind}")
        if rel in ALLOWED:
            allowed += len(found)
        else:
            total += len(found)
    for rel, lines in html.items():
        print(f"{len(lines):4d}  {rel}")
        if args.verbose:
            for line in lines:
                print(f"        {rel}:{line}  template compare")
    templates = sum(len(v) for v in html.values())
    print(f"total: {total} in Python outside app/rules, {templates} in templates", end="")
    print(f" ({allowed} in {', '.join(sorted(ALLOWED))}, allowed)" if allowed else "")
    return 0


if __name__ == "__main__":
    sys.exit(main())
