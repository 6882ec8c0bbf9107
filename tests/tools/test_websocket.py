"""The sockets' compression (app/tools/websocket.py): messages under ``COMPRESS_FROM`` bytes
go as they are (RSV1 unset, RFC 7692 §6), larger ones compressed, and a client's decoder
reads both from the same connection."""

from __future__ import annotations

import json

from websockets.extensions.permessage_deflate import (
    ClientPerMessageDeflateFactory,
    PerMessageDeflate,
)
from websockets.frames import Frame, Opcode

from app.tools.websocket import COMPRESS_FROM, LargeOnlyDeflate, LargeOnlyDeflateFactory


def _pair() -> tuple[PerMessageDeflate, PerMessageDeflate]:
    """The server's and the client's extension, negotiated as a browser offers it."""
    client_factory = ClientPerMessageDeflateFactory(client_max_window_bits=True)
    offer = client_factory.get_request_params()
    server_factory = LargeOnlyDeflateFactory(server_max_window_bits=12, client_max_window_bits=12)
    answer, server = server_factory.process_request_params(offer, [])
    client = client_factory.process_response_params(answer, [])
    return server, client


def test_the_negotiated_extension_compresses_large_messages_only() -> None:
    server, client = _pair()
    assert isinstance(server, LargeOnlyDeflate)
    view = json.dumps({"type": "view", "hand": ["7o"] * 100}).encode()
    assert len(view) < COMPRESS_FROM
    big = json.dumps({"type": "moves", "moves": [{"seq": i, "card": "Ao"} for i in range(600)]})
    assert len(big) >= COMPRESS_FROM

    small_out = server.encode(Frame(Opcode.TEXT, view))
    assert small_out.rsv1 is False and small_out.data == view  # as it was
    big_out = server.encode(Frame(Opcode.TEXT, big.encode()))
    assert big_out.rsv1 is True and len(big_out.data) < len(big) // 4
    again = server.encode(Frame(Opcode.TEXT, view))  # after a compressed one: still plain

    # the client reads all three in order, its window intact
    assert client.decode(small_out).data == view
    assert client.decode(big_out).data == big.encode()
    assert client.decode(again).data == view
    assert client.decode(server.encode(Frame(Opcode.TEXT, big.encode()))).data == big.encode()


def test_control_frames_and_fragments_are_left_to_websockets() -> None:
    server, _ = _pair()
    ping = Frame(Opcode.PING, b"x")
    assert server.encode(ping) is ping
    first = server.encode(Frame(Opcode.TEXT, b"a" * 10, fin=False))
    assert first.rsv1 is True  # a fragmented message is compressed as websockets does
