"""Deadlines for a request's headers and body: uvicorn's HTTP protocols with slow clients cut off.

uvicorn times out an idle keep-alive connection (``timeout_keep_alive``) but not a
client that sends its request headers a byte at a time: 800 such connections (one
byte every 5 s) all stayed open for 40 s and more (issue 20, "slowloris").
``--h11-max-incomplete-event-size`` bounds how *much* a client may send before its
headers end, not how *long* it may take, so it does not help here.

``HeaderDeadlineHttpToolsProtocol`` (and ``HeaderDeadlineH11Protocol``, the same on
the pure-Python h11) closes a connection whose request line and headers have
not all arrived ``HEADER_TIMEOUT`` seconds after it opened or after its last response
(a keep-alive connection's next request), and one whose request body has not all
arrived ``BODY_TIMEOUT`` seconds after its headers (the same attack a byte of body at a
time: 50 such connections were all still open after 30 s; bodies are small, at most
``TAPET_MAX_BODY``). ``tapet serve`` passes the httptools one to uvicorn as ``http=``
(httptools parses in C: h11's parsing was about a tenth of a move's CPU); WebSockets
upgrade after their headers, so sockets are unaffected.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HEADER_TIMEOUT = 10.0  # seconds for a request line and its headers
#: Bytes a request line and its headers may take (h11's own default bound, which
#: httptools does not have: it took 300 KB of headers): more is answered 431 and closed.
MAX_HEADER_BYTES = 16 * 1024
TOO_LARGE = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: text/plain\r\n"
    b"content-length: 33\r\nconnection: close\r\n\r\nthe request's headers are too big"
)
BODY_TIMEOUT = 30.0  # seconds for a request's body, from its headers


class _Deadlines:
    """The deadlines' clocks, shared by both protocols (put before uvicorn's class)."""

    header_timeout = HEADER_TIMEOUT
    body_timeout = BODY_TIMEOUT
    loop: asyncio.AbstractEventLoop
    transport: asyncio.Transport

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_deadline: asyncio.TimerHandle | None = None
        self._body_deadline: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        self._disarm()
        self._header_deadline = self.loop.call_later(self.header_timeout, self._too_slow)

    def _arm_body(self) -> None:
        if self._body_deadline is None and not self.transport.is_closing():
            self._body_deadline = self.loop.call_later(self.body_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._header_deadline is not None:
            self._header_deadline.cancel()
            self._header_deadline = None

    def _disarm_body(self) -> None:
        if self._body_deadline is not None:
            self._body_deadline.cancel()
            self._body_deadline = None

    def _too_slow(self) -> None:
        self._header_deadline = None
        self._body_deadline = None
        if not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Start the deadline of the first request's headers."""
        super().connection_made(transport)  # type: ignore[misc]
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        """Forget the deadlines."""
        self._disarm()
        self._disarm_body()
        super().connection_lost(exc)  # type: ignore[misc]

    def on_response_complete(self) -> None:
        """As uvicorn does; the next request's headers get a deadline of their own."""
        super().on_response_complete()  # type: ignore[misc]
        self._disarm_body()
        if not self.transport.is_closing():
            self._arm()


class HeaderDeadlineHttpToolsProtocol(_Deadlines, HttpToolsProtocol):
    """uvicorn's httptools protocol; a request's headers must arrive within
    ``header_timeout`` seconds and its body within ``body_timeout`` (module docstring),
    and take at most ``MAX_HEADER_BYTES`` (431 and closed beyond). Same constructor as
    ``HttpToolsProtocol``."""

    max_header_bytes = MAX_HEADER_BYTES
    _header_bytes = 0

    def _arm(self) -> None:
        super()._arm()
        self._header_bytes = 0

    def data_received(self, data: bytes) -> None:
        """As uvicorn does; while a request's headers are not all in, their bytes are
        counted, and a request whose headers go past ``max_header_bytes`` is refused."""
        cycle = self.cycle
        if self._header_deadline is not None and (cycle is None or not cycle.more_body):
            # a request's headers are coming (not the rest of a body answered early: a
            # 413 is sent before the body has all arrived, and the parser still reads it)
            end = data.find(b"\r\n\r\n")
            self._header_bytes += len(data) if end < 0 else end + 4
            if self._header_bytes > self.max_header_bytes:
                self._disarm()
                self.transport.write(TOO_LARGE)
                self.transport.close()
                return
        super().data_received(data)

    def on_headers_complete(self) -> None:
        """As uvicorn does; the headers' clock stops and the body's starts (stopped again
        by ``on_message_complete``, at once for a request without a body)."""
        super().on_headers_complete()
        self._disarm()
        self._arm_body()

    def on_message_complete(self) -> None:
        """As uvicorn does; the whole body is in: its clock stops."""
        super().on_message_complete()
        self._disarm_body()

    def handle_websocket_upgrade(self) -> None:
        """As uvicorn does; the socket now owns the transport, so the clocks stop."""
        self._disarm()
        self._disarm_body()
        super().handle_websocket_upgrade()


class HeaderDeadlineH11Protocol(_Deadlines, H11Protocol):
    """The same deadlines on uvicorn's pure-Python h11 protocol. Same constructor as
    ``H11Protocol``."""

    def handle_events(self) -> None:
        """As uvicorn does; a request whose headers are in (a new cycle) stops the headers'
        clock and starts the body's while more of its body is to come; the whole body in
        stops that one."""
        before = self.cycle
        super().handle_events()
        if self.cycle is not before:
            self._disarm()
        cycle = self.cycle
        if cycle is None or not cycle.more_body:
            self._disarm_body()
        else:
            self._arm_body()

    def handle_websocket_upgrade(self, event: Any) -> None:
        """As uvicorn does; the socket now owns the transport, so the headers' clock stops
        (it cut every WebSocket 10 s after it opened)."""
        self._disarm()
        self._disarm_body()
        super().handle_websocket_upgrade(event)
