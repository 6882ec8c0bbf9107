"""Security headers on every response (app/web/headers.py), and pages that work under the
Content-Security-Policy: no inline script, no inline event handler, scripts from /static."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from app.web.static import static_url
from tests.conftest import Guest

ROOT = Path(__file__).resolve().parents[2]
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I)
INLINE_HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)
JS_URL = re.compile(r"""(href|src|action)\s*=\s*["']?\s*javascript:""", re.I)


def _directives(csp: str) -> dict[str, list[str]]:
    out = {}
    for part in csp.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


def _check_headers(response: httpx.Response) -> None:
    h = response.headers
    where = f"{response.request.method} {response.request.url.path} ({response.status_code})"
    assert h.get("x-frame-options") == "DENY", where
    assert h.get("x-content-type-options") == "nosniff", where
    assert h.get("referrer-policy") == "same-origin", where
    csp = _directives(h.get("content-security-policy", ""))
    assert csp.get("frame-ancestors") == ["'none'"], where
    if not response.request.url.path.startswith(("/docs", "/redoc")):
        assert csp.get("script-src") == ["'self'"], (
            where
        )  # no inline script, no eval, no other host
        assert csp.get("object-src") == ["'none'"] and csp.get("base-uri") == ["'self'"], where
        assert "'self'" in csp.get("connect-src", []), where


async def test_every_kind_of_response_carries_the_headers(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    host = await guest("Host")
    room = (await client.post("/api/rooms", json={"game": "bolot"}, headers=host)).json()["id"]
    responses = [
        await client.get("/"),
        await client.get("/rooms/list"),
        await client.get(f"/rooms/{room}"),
        await client.get(f"/rooms/{room}", headers=host),
        await client.get("/tournaments"),
        await client.get("/login"),
        await client.get("/register"),
        await client.get("/rules"),
        await client.get("/api/rooms"),
        await client.get(f"/api/rooms/{room}/view"),
        await client.get("/api/rooms/99999"),  # 404
        await client.get("/static/js/tapet.js"),
        await client.get("/static/vendor/htmx.min.js"),
        await client.get("/openapi.json"),
        await client.get("/docs"),
        await client.post("/api/rooms", json={"game": "bolot"}),  # 401
        await client.post(
            "/api/rooms",
            content=b"x" * 70_000,
            headers={"content-type": "application/json", **host},
        ),  # 413 (guard)
        await client.get("/api/rooms/99999999999"),  # 404 (guard)
    ]
    assert (
        responses[0].status_code == 200
        and responses[-3].status_code == 401
        and responses[-2].status_code == 413
    )
    for response in responses:
        _check_headers(response)


async def test_the_docs_get_their_own_policy_and_pages_the_strict_one(
    client: httpx.AsyncClient,
) -> None:
    answer = await client.get("/docs")
    docs = _directives(answer.headers["content-security-policy"])
    assert "'unsafe-inline'" in docs["script-src"]  # Swagger UI's start-up script
    # Swagger UI comes from this server (a club's server may be offline), not a CDN
    assert "/docs-assets/swagger-ui-bundle.js" in answer.text and "cdn.jsdelivr" not in answer.text
    assert (await client.get("/docs-assets/swagger-ui-bundle.js")).status_code == 200
    assert "/docs-assets/redoc.standalone.js" in (await client.get("/redoc")).text
    page = _directives((await client.get("/")).headers["content-security-policy"])
    assert "https://cdn.jsdelivr.net" not in " ".join(sum(page.values(), []))
    # the page socket's origin is this host
    assert "ws://testserver" in page["connect-src"] and "wss://testserver" in page["connect-src"]
    odd = (await client.get("/", headers={"host": "evil.example;script-src *"})).headers[
        "content-security-policy"
    ]
    assert "script-src *" not in odd and _directives(odd)["script-src"] == ["'self'"]


async def test_pages_have_no_inline_script_or_handler(
    client: httpx.AsyncClient, guest: Guest
) -> None:
    host = await guest("Host")
    room = (await client.post("/api/rooms", json={"game": "bolot"}, headers=host)).json()["id"]
    for path in (
        "/",
        f"/rooms/{room}",
        "/tournaments",
        "/login",
        "/register",
        "/rules",
        "/rules/bolot",
    ):
        for headers in ({}, host):
            html = (await client.get(path, headers=headers)).text
            assert not INLINE_SCRIPT.search(html), path
            assert not INLINE_HANDLER.search(html), (path, INLINE_HANDLER.search(html))
            assert not JS_URL.search(html), path
    # and no template anywhere has one (pages not reached above: print sheets, records...)
    for template in sorted((ROOT / "templates").rglob("*.html")):
        text = template.read_text()
        assert not INLINE_SCRIPT.search(text), template
        assert not INLINE_HANDLER.search(text), template
        assert not JS_URL.search(text), template
    # every script the templates load is one of ours
    sources = set()
    for template in (ROOT / "templates").rglob("*.html"):
        for src in re.findall(r'<script[^>]*\bsrc="([^"]+)"', template.read_text()):
            versioned = re.fullmatch(r"\{\{ static_url\('([^']+)'\) \}\}", src)
            sources.add(static_url(versioned.group(1)) if versioned else src)  # app/web/static.py
    assert sources and all(s.startswith("/static/") for s in sources), sources
    for source in sources:
        assert (await client.get(source)).status_code == 200, source
