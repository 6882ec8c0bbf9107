"""uvicorn's WebSocket protocol (websockets' sans-I/O one) with cheaper compression.

Every socket compresses its own messages (permessage-deflate keeps a window per
connection, so a view encoded once per audience is still compressed once per socket).
At zlib's default level (6) that compression was the server's largest single cost a
move: 9% of its CPU at 60 tables flat out (``scripts/profile_moves.py --cprofile``).
Level 1 compresses a view about twice as fast, its output some 5-10% larger. Even so
it stayed the largest single cost: 0.4 of 3.6 ms of server CPU a move at 100 tables
flat out on SQLite (the same run with the sockets' compression off: 3.2 ms;
docs/benchmarks.md, 4 December).

So only messages of ``COMPRESS_FROM`` bytes or more are compressed; smaller ones are
sent as they are (RFC 7692 §6: a message's RSV1 bit says whether it is compressed, and
every client reads both). A view is 1.3 to 4.5 KB of JSON (Bolot, 100 tables: 18,000
messages seen), a few KB a second at a busy table, which no phone network notices;
the compression is kept for what is large (a long move list caught up, a chat's
history). Window and memory as uvicorn sets them. ``tapet serve`` passes the protocol
to uvicorn as ``ws=``; without ``--ws-per-message-deflate`` it changes nothing.
"""

from __future__ import annotations

import logging
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import (
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.frames import Frame, Opcode
from websockets.server import ServerProtocol

LEVEL = 1  # zlib's compression level for the sockets' messages
COMPRESS_FROM = 8192  # bytes: smaller messages are sent uncompressed


class LargeOnlyDeflate(PerMessageDeflate):
    """permessage-deflate that leaves whole messages under ``COMPRESS_FROM`` bytes
    uncompressed (RSV1 unset); the rest, and every fragment, as websockets does."""

    def encode(self, frame: Frame) -> Frame:
        if (
            frame.fin
            and frame.opcode in (Opcode.TEXT, Opcode.BINARY)
            and len(frame.data) < COMPRESS_FROM
        ):
            return frame
        return super().encode(frame)


class LargeOnlyDeflateFactory(ServerPerMessageDeflateFactory):
    """The server's permessage-deflate negotiation, with ``LargeOnlyDeflate`` as the
    negotiated extension (same parameters)."""

    def process_request_params(self, params: Any, accepted_extensions: Any) -> Any:
        response, ext = super().process_request_params(params, accepted_extensions)
        return response, LargeOnlyDeflate(
            ext.remote_no_context_takeover,
            ext.local_no_context_takeover,
            ext.remote_max_window_bits,
            ext.local_max_window_bits,
            ext.compress_settings,
        )


class QuickDeflateProtocol(WebSocketsSansIOProtocol):
    """``WebSocketsSansIOProtocol`` whose permessage-deflate compresses at ``LEVEL`` the
    messages of ``COMPRESS_FROM`` bytes or more. Same constructor."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:
            self.conn = ServerProtocol(
                extensions=[
                    LargeOnlyDeflateFactory(
                        server_max_window_bits=12,
                        client_max_window_bits=12,
                        compress_settings={"memLevel": 5, "level": LEVEL},
                    )
                ],
                max_size=self.config.ws_max_size,
                logger=logging.getLogger("uvicorn.error"),
            )
