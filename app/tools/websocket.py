"""uvicorn's WebSocket protocol (websockets' sans-I/O one) with a cheaper compression.

Every socket compresses its own messages (permessage-deflate keeps a window per
connection, so a view encoded once per audience is still compressed once per socket).
At zlib's default level (6) that compression was the server's largest single cost a
move: 9% of its CPU at 60 tables flat out (``scripts/profile_moves.py --cprofile``).
Level 1 compresses a view about twice as fast, its output some 5-10% larger (a view is
a few hundred bytes compressed). Window and memory as uvicorn sets them. ``tapet serve``
passes it to uvicorn as ``ws=``; without ``--ws-per-message-deflate`` it changes nothing.
"""

from __future__ import annotations

import logging
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol

LEVEL = 1  # zlib's compression level for the sockets' messages


class QuickDeflateProtocol(WebSocketsSansIOProtocol):
    """``WebSocketsSansIOProtocol`` whose permessage-deflate compresses at ``LEVEL``. Same
    constructor."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:
            self.conn = ServerProtocol(
                extensions=[
                    ServerPerMessageDeflateFactory(
                        server_max_window_bits=12,
                        client_max_window_bits=12,
                        compress_settings={"memLevel": 5, "level": LEVEL},
                    )
                ],
                max_size=self.config.ws_max_size,
                logger=logging.getLogger("uvicorn.error"),
            )
