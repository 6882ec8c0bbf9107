"""How the chat hooks into rooms, registered once at start-up by ``app.main``:

* a socket feed: both room sockets send the chat after each view (app/chat/delivery.py);
* quick play's avoid hook: people either of whom blocked the other are never seated at
  one table (``app.rooms.queue.AVOID``, app/chat/blocks.py);
* the social block list: a blocked pair cannot follow each other, and neither is listed
  to the other on the Following page (``app.social.service.BLOCKS``).
"""

from __future__ import annotations

from app.chat import blocks, delivery
from app.core.hooks import Hooks
from app.rooms import queue
from app.social import service as social


def install(hooks: Hooks) -> None:
    """Register the chat's socket feed, quick play's block check and the social block
    list (idempotent)."""
    hooks.add_socket_feed(delivery.feed)
    queue.add_avoid(blocks.blocked_pairs)
    if blocks.blocked_pairs not in social.BLOCKS:
        social.BLOCKS.append(blocks.blocked_pairs)
