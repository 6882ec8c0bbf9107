"""Static files: versioned URLs cached for a year, the rest for an hour, text gzipped
(app/web/static.py)."""

from __future__ import annotations

import gzip
import hashlib
import re

import httpx
import pytest

from app.web.static import STATIC_DIR, static_url


def test_a_static_url_carries_the_files_fingerprint() -> None:
    want = hashlib.sha256((STATIC_DIR / "css/tapet.css").read_bytes()).hexdigest()[:12]
    assert static_url("css/tapet.css") == f"/static/css/tapet.css?v={want}"


def test_a_name_outside_static_or_missing_is_refused() -> None:
    with pytest.raises(ValueError):
        static_url("../app/main.py")
    with pytest.raises(OSError):
        static_url("css/nothing-here.css")


async def test_the_current_version_is_immutable_anything_else_revalidates(
    client: httpx.AsyncClient,
) -> None:
    current = await client.get(static_url("js/tapet.js"))
    assert current.status_code == 200
    assert current.headers["cache-control"] == "public, max-age=31536000, immutable"
    for url in ("/static/js/tapet.js", "/static/js/tapet.js?v=000000000000"):
        other = await client.get(url)
        assert other.status_code == 200 and other.headers["cache-control"] == "public, max-age=3600"
    again = await client.get(
        "/static/js/tapet.js", headers={"If-None-Match": current.headers["etag"]}
    )
    assert again.status_code == 304 and again.content == b""


async def test_text_is_gzipped_when_the_browser_accepts_it(client: httpx.AsyncClient) -> None:
    raw = (STATIC_DIR / "css/tapet.css").read_bytes()
    answer = await client.get("/static/css/tapet.css", headers={"Accept-Encoding": "gzip"})
    assert answer.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in answer.headers["vary"].lower()
    assert int(answer.headers["content-length"]) < len(raw) / 3  # a style sheet compresses well
    assert answer.content == raw  # httpx decodes it: the same file
    plain = await client.get("/static/css/tapet.css", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == raw
    assert gzip.compress(raw)  # (the standard library's gzip: the same format)


async def test_every_page_names_its_style_and_scripts_by_version(
    client: httpx.AsyncClient,
) -> None:
    page = (await client.get("/")).text
    named = re.findall(r'(?:src|href)="(/static/(?:css|js|vendor)/[^"]+)"', page)
    assert named and all(re.search(r"\?v=[0-9a-f]{12}$", url) for url in named), named
