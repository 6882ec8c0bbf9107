"""Slow headers are cut off (issue 20, "slowloris"): connections that send their request
headers a byte at a time are closed at the header deadline, while a normal request on the
same server is answered. Loopback only, bounded: 40 connections for at most a few seconds."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator

import httpx
import pytest
import uvicorn
import websockets

from app.core.settings import Settings
from app.main import create_app
from app.tools.slowheaders import HeaderDeadlineH11Protocol, HeaderDeadlineHttpToolsProtocol
from tests.conftest import empty_tables

SLOW = 40
DEADLINE = 0.8
#: How long a slow client keeps trickling before it counts the connection as left open. Without
#: the deadline a trickle of 1,000 bytes at 0.1 s lasts 100 s; with it every connection closes
#: at 0.8 s on a quiet machine. The margin is for a loaded one: once the 40 connections were
#: all closed together at 2.8 s (the event loop starved by the parallel test run).
GIVE_UP = DEADLINE + 5


class QuickDeadline(HeaderDeadlineHttpToolsProtocol):
    header_timeout = DEADLINE
    body_timeout = DEADLINE


class QuickDeadlineH11(HeaderDeadlineH11Protocol):
    header_timeout = DEADLINE
    body_timeout = DEADLINE


@contextlib.asynccontextmanager
async def _serving(settings: Settings, protocol: type) -> AsyncIterator[tuple[str, int]]:
    """The app on a loopback uvicorn server with ``protocol``: ``(host, port)``."""
    await empty_tables(settings.db_url())
    config = uvicorn.Config(
        create_app(settings), host="127.0.0.1", port=0, log_level="warning", http=protocol
    )
    server = uvicorn.Server(config)
    server.capture_signals = contextlib.nullcontext  # type: ignore[method-assign]
    task = asyncio.create_task(server.serve())
    for _ in range(500):
        if server.started or task.done():
            break
        await asyncio.sleep(0.01)
    assert server.started
    try:
        yield "127.0.0.1", server.servers[0].sockets[0].getsockname()[1]
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 10)


@pytest.fixture(params=[QuickDeadline, QuickDeadlineH11], ids=["httptools", "h11"])
async def guarded_server(
    settings: Settings, request: pytest.FixtureRequest
) -> AsyncIterator[tuple[str, int]]:
    async with _serving(settings, request.param) as address:
        yield address


SLOW_HEADERS = (b"GET / HTTP/1.1\r\nHost: x\r\n", b"X-Slow: " + b"a" * 1000)
SLOW_BODY = (
    b"POST /api/session HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
    b"content-length: 60000\r\n\r\n",
    b'{"nickname": "' + b"a" * 2000,
)


async def _slow_client(
    host: str, port: int, give_up: float, what: tuple[bytes, bytes] = SLOW_HEADERS
) -> float | None:
    """Send ``what[0]``, then ``what[1]`` a byte every 0.1 s; the seconds until the server
    closed, or None."""
    reader, writer = await asyncio.open_connection(host, port)
    started = time.monotonic()
    try:
        writer.write(what[0])
        for byte in what[1]:
            if reader.at_eof() or writer.is_closing():
                break
            writer.write(bytes([byte]))
            with contextlib.suppress(TimeoutError):
                if await asyncio.wait_for(reader.read(1), 0.1) == b"":
                    return time.monotonic() - started
            if time.monotonic() - started > give_up:
                return None
        return time.monotonic() - started
    except (ConnectionError, OSError):
        return time.monotonic() - started
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()


async def test_slow_headers_are_cut_off(guarded_server: tuple[str, int]) -> None:
    host, port = guarded_server
    slow = [asyncio.create_task(_slow_client(host, port, give_up=GIVE_UP)) for _ in range(SLOW)]
    await asyncio.sleep(0.2)
    async with httpx.AsyncClient(base_url=f"http://{host}:{port}") as http:
        assert (await http.get("/api/rooms")).status_code == 200  # others are still served
    closed_after = await asyncio.gather(*slow)
    assert all(t is not None for t in closed_after), closed_after  # closed before GIVE_UP


async def test_slow_bodies_are_cut_off(guarded_server: tuple[str, int]) -> None:
    """The same attack a byte of body at a time (headers complete, Content-Length 60000)."""
    host, port = guarded_server
    slow = [asyncio.create_task(_slow_client(host, port, GIVE_UP, SLOW_BODY)) for _ in range(20)]
    await asyncio.sleep(0.2)
    async with httpx.AsyncClient(base_url=f"http://{host}:{port}") as http:
        made = await http.post("/api/session", json={"nickname": "Quick"})
        assert made.status_code == 200  # a whole body in time is served
    closed_after = await asyncio.gather(*slow)
    assert all(t is not None for t in closed_after), closed_after  # closed before GIVE_UP


async def test_a_keep_alive_connection_serves_several_requests(
    guarded_server: tuple[str, int],
) -> None:
    host, port = guarded_server
    async with httpx.AsyncClient(base_url=f"http://{host}:{port}") as http:
        for _ in range(3):
            assert (await http.get("/api/rooms")).status_code == 200
            await asyncio.sleep(DEADLINE / 2)


async def test_a_websocket_outlives_the_header_deadline(guarded_server: tuple[str, int]) -> None:
    """The deadline is the headers' only: a socket upgraded from the request stays open (it
    was cut at the deadline, every socket of `tapet serve` 10 s after it opened)."""
    host, port = guarded_server
    async with httpx.AsyncClient(base_url=f"http://{host}:{port}") as client:
        token = (await client.post("/api/session", json={"nickname": "Ona"})).json()["token"]
        room = (
            await client.post(
                "/api/rooms", json={"game": "bolot"}, headers={"authorization": f"Bearer {token}"}
            )
        ).json()["id"]
    async with websockets.connect(f"ws://{host}:{port}/api/rooms/{room}/ws?token={token}") as ws:
        first = json.loads(await ws.recv())
        assert first["type"] == "view"
        await asyncio.sleep(DEADLINE * 3)
        pong = await ws.ping()
        await asyncio.wait_for(pong, 2)  # still open, still answering


async def _status_of(host: str, port: int, header_bytes: int) -> bytes:
    """The status line answered to a request with one header of ``header_bytes`` bytes;
    ``b"reset"`` when the server closed the connection before the client read it (the
    rest of a refused request still unread on the server's side makes its close a reset)."""
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * header_bytes)
        writer.write(b"\r\n\r\n")
        return (await asyncio.wait_for(reader.readline(), 5)).strip() or b"reset"
    except ConnectionResetError:
        return b"reset"
    finally:
        writer.close()


async def test_huge_headers_are_refused(guarded_server: tuple[str, int]) -> None:
    """Headers are bounded: the httptools protocol refuses more than MAX_HEADER_BYTES
    (16 KB) with 431; h11 refuses an unfinished header block past 16 KB with 400 (a
    bigger block read at once passes it). Either way, 300 KB of headers is refused."""
    host, port = guarded_server
    assert await _status_of(host, port, 8_000) == b"HTTP/1.1 200 OK"
    for size in (300_000,):
        assert await _status_of(host, port, size) in (
            b"HTTP/1.1 431 Request Header Fields Too Large",
            b"HTTP/1.1 400 Bad Request",
            b"reset",
        )


async def test_the_httptools_protocol_refuses_a_header_block_past_16_kb(
    settings: Settings,
) -> None:
    """MAX_HEADER_BYTES counts the header block's bytes however they arrive: 20 KB read
    at once is refused too (h11 let that pass)."""
    async with _serving(settings, QuickDeadline) as (host, port):
        assert await _status_of(host, port, 16_000) == b"HTTP/1.1 200 OK"
        assert await _status_of(host, port, 20_000) in (
            b"HTTP/1.1 431 Request Header Fields Too Large",
            b"reset",
        )


async def test_a_body_refused_early_is_not_counted_as_the_next_requests_headers(
    guarded_server: tuple[str, int],
) -> None:
    """A body over TAPET_MAX_BODY is answered 413 before it has all arrived; the rest of
    it is still the body (not the next request's headers), so the next request on the
    connection is served (the httptools protocol answered it 431 and closed)."""
    host, port = guarded_server
    size = 100_000
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(
            b"POST /api/session HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
            + f"content-length: {size}\r\n\r\n".encode()
            + b"x" * 1000
        )
        refused = (await asyncio.wait_for(reader.readline(), 5)).strip()
        assert refused.startswith(b"HTTP/1.1 413"), refused
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
        length = next(
            int(line.split(b":")[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        )
        await reader.readexactly(length)
        writer.write(b"x" * (size - 1000))  # the rest of the refused body, after its answer
        writer.write(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
        served = (await asyncio.wait_for(reader.readline(), 5)).strip()
        assert served == b"HTTP/1.1 200 OK", served
    finally:
        writer.close()
