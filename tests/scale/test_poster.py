"""``tapet load``'s move poster (app/tools/load.py ``Poster``): a plain HTTP/1.1 client
that reads answers by their length or in chunks, keeps connections alive, and sends a
request once more on a new connection when a kept one was closed under it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from app.tools.load import Poster


class _Server:
    """A loopback HTTP server answering each request with the next of ``answers``
    (raw bytes) and recording the requests and the connections they came on."""

    def __init__(self, answers: list[bytes], close_after_first: bool = False) -> None:
        self.answers, self.close_after_first = answers, close_after_first
        self.requests: list[tuple[int, bytes]] = []
        self.connections = 0
        self.port = 0

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        number = self.connections
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(
                    int(line.split(b":")[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length:")
                )
                body = await reader.readexactly(length)
                self.requests.append((number, head + body))
                writer.write(self.answers.pop(0))
                await writer.drain()
                if self.close_after_first:
                    writer.close()  # what uvicorn does to a connection idle past its timeout
                    return
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()


@pytest.fixture
async def serve() -> AsyncIterator[object]:
    servers: list[asyncio.Server] = []

    async def start(fake: _Server) -> Poster:
        server = await asyncio.start_server(fake._handle, "127.0.0.1", 0)
        servers.append(server)
        fake.port = server.sockets[0].getsockname()[1]
        return Poster(f"http://127.0.0.1:{fake.port}")

    yield start
    for server in servers:
        server.close()


OK = b'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\n\r\n{"seq": 12}'
CHUNKED = (
    b"HTTP/1.1 409 Conflict\r\ntransfer-encoding: chunked\r\n\r\n4\r\nstal\r\n1\r\ne\r\n0\r\n\r\n"
)


async def test_answers_by_length_and_in_chunks_on_one_kept_connection(serve) -> None:  # type: ignore[no-untyped-def]
    fake = _Server([OK, CHUNKED])
    poster = await serve(fake)
    assert await poster.post("/api/rooms/7/moves", b'{"seq": 11}', "tok") == (200, b'{"seq": 12}')
    assert await poster.post("/api/rooms/7/moves", b'{"seq": 12}', "tok") == (409, b"stale")
    assert fake.connections == 1
    first = fake.requests[0][1]
    assert first.startswith(b"POST /api/rooms/7/moves HTTP/1.1\r\n")
    assert b"\r\nauthorization: Bearer tok\r\n" in first and first.endswith(b'\r\n\r\n{"seq": 11}')
    poster.close()


async def test_a_kept_connection_closed_under_it_is_replaced_and_the_request_sent_again(
    serve,  # type: ignore[no-untyped-def]
) -> None:
    fake = _Server([OK, OK], close_after_first=True)
    poster = await serve(fake)
    assert (await poster.post("/m", b"{}", "a"))[0] == 200
    await asyncio.sleep(0.05)  # the server has closed the kept connection
    assert (await poster.post("/m", b"{}", "a"))[0] == 200
    assert [number for number, _request in fake.requests] == [1, 2]
    poster.close()
