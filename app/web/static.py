"""The site's static files (``/static``): compressed, cached, with versioned URLs.

Before (issue 16 §3) the table page cost 19 requests and 193 KB uncompressed on every
visit: no ``Cache-Control``, no compression. Now:

* **Compressed** by Starlette's ``GZipMiddleware`` around the files (a well-kept piece
  of the framework we already use; text only: ``gzip`` pays nothing on the PNG icons,
  which are a small part): ``tapet.css`` goes from 52 KB to about 13 KB.
* **Versioned**: the pages name their style sheets and scripts with ``static_url``,
  ``/static/css/tapet.css?v=<fingerprint>`` (the first 12 hex digits of the file's
  SHA-256). A request whose ``v`` is the file's current fingerprint is cached for a
  year as ``immutable``: a new version of the file has a new URL, so a deploy is seen at
  once. Anything else (the card faces named by app/web/cards.py, the icons, an old
  ``v``) is cached for an hour, then revalidated with its ``ETag`` (a 304 costs no body).
"""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path

from starlette.datastructures import QueryParams
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Scope

STATIC_DIR = Path(__file__).resolve().parent.parent.parent / "static"
#: ``Cache-Control`` of a versioned URL whose version is current, and of anything else.
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "public, max-age=3600"
#: Bytes below which a file is sent as it is (gzip's header would eat the gain).
GZIP_MIN = 500


@lru_cache(maxsize=1024)
def _fingerprint(path: str, mtime_ns: int, size: int) -> str:
    digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    return digest[:12]


def fingerprint(path: Path) -> str:
    """The first 12 hex digits of the SHA-256 of the file at ``path``, computed again
    only when its modification time or size changes. Raises OSError (no such file)."""
    stat = path.stat()
    return _fingerprint(str(path), stat.st_mtime_ns, stat.st_size)


def static_url(name: str) -> str:
    """``/static/<name>?v=<fingerprint>`` for a file of ``static/`` (e.g. ``css/tapet.css``),
    the URL the pages use so that the file may be cached for a year. Raises ValueError
    for a name outside ``static/`` and OSError for a missing file (a typo in a template
    fails the page's test, not a visitor's cache)."""
    path = (STATIC_DIR / name).resolve()
    if STATIC_DIR not in path.parents:
        raise ValueError(f"{name!r} is not a file of static/")
    return f"/static/{name}?v={fingerprint(path)}"


class CachedStaticFiles(StaticFiles):
    """``StaticFiles`` that says how long a browser may keep each answer (module docstring)."""

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        """The file's answer (a 304 when the browser's copy is current), with
        ``Cache-Control``: a year for the current version's URL, else an hour."""
        response = super().file_response(full_path, stat_result, scope, status_code)
        version = QueryParams(scope.get("query_string", b"").decode("latin-1")).get("v")
        current = _fingerprint(str(full_path), stat_result.st_mtime_ns, stat_result.st_size)
        response.headers["Cache-Control"] = IMMUTABLE if version == current else REVALIDATE
        return response


def static_app(directory: Path = STATIC_DIR) -> ASGIApp:
    """The ``/static`` mount: the files of ``directory``, cached and gzip-compressed."""
    return GZipMiddleware(CachedStaticFiles(directory=str(directory), check_dir=False), GZIP_MIN)
