"""The chat over the room sockets (registered as a socket feed: app/core/hooks.py).

After each view a room socket sends, ``feed`` adds the chat as that socket's viewer
receives it, when it changed since the socket last sent it:

* the room's messages are read once per room event in this process (shared by every
  socket: ``fanout.ViewCache.shared``), with the room's ``chat`` switch;
* each socket filters them for its viewer (``service.visible``): the viewer's seat comes
  from the view the socket just sent (the same data its hand was projected from), the
  match's end from its status, the people the viewer muted or blocked from one small
  query, made only when the room's chat changed;
* the API socket gets ``{"type": "chat", "chat": on, "channel": ..., "messages": [...]}``
  (text as sent: JSON strings, the client escapes); the page socket gets the chat's
  HTML (``templates/chat/_body.html``, autoescaped) as an hx-swap-oob fragment.
"""

from __future__ import annotations

import secrets
from typing import Any

from app import realtime
from app.accounts.models import User
from app.chat import service
from app.rooms import fanout
from app.rooms.fanout import encode
from app.rooms.models import Room
from app.web.templating import templates


async def _room_chat(maker: Any, room_id: int) -> tuple[bool, list[dict[str, Any]]]:
    async with maker() as db:
        room = await db.get(Room, room_id)
        on = bool(room.chat) if room is not None else False
        return on, await service.room_messages(db, room_id)


async def feed(
    maker: Any,
    room_id: int,
    user: User | None,
    view: dict[str, Any],
    kind: str,
    state: dict[str, Any],
) -> list[str]:
    """The chat texts to send after ``view`` on a socket of ``user`` (``kind`` "json" or
    "html"); ``[]`` when nothing changed for it since the last call with ``state``."""
    on, messages = await fanout.views_of(realtime.current()).shared(
        room_id, "chat", lambda: _room_chat(maker, room_id)
    )
    seated = view.get("my_seat") is not None
    over = view.get("status") == "finished"
    fingerprint = (on, seated, over, tuple(m["id"] for m in messages))
    if state.get("fingerprint") == fingerprint:
        return []
    state["fingerprint"] = fingerprint
    uid = user.id if user is not None else None
    if uid is not None:
        async with maker() as db:
            state["silenced"] = await service.silenced_by(db, uid)
            if "moderator" not in state:
                state["moderator"] = await service.may_hide(db, user, room_id)
    shown = service.visible(messages, seated, over, state.get("silenced", set()))
    channel = "table" if seated else "spectators"
    if kind == "json":
        return [
            encode(
                {
                    "type": "chat",
                    "room_id": room_id,
                    "chat": on,
                    "channel": channel,
                    "messages": shown,
                }
            )
        ]
    if state.get("body_sent"):  # only the messages: the form (a draft being typed) stays
        return [render_log(room_id, user, shown, channel, state)]
    state["body_sent"] = True
    return [
        render_body(
            room_id,
            user,
            on,
            channel,
            shown,
            str(state.get("token", "")),
            bool(state.get("moderator")),
            oob=True,
        )
    ]


def render_log(
    room_id: int,
    user: User | None,
    messages: list[dict[str, Any]],
    channel: str,
    state: dict[str, Any],
) -> str:
    """The chat's messages alone (``#chat-log``) as an hx-swap-oob fragment."""
    return templates.get_template("chat/_log.html").render(
        room_id=room_id,
        user=user,
        channel=channel,
        messages=messages,
        csrf_token=str(state.get("token", "")),
        moderator=bool(state.get("moderator")),
        log_oob=True,
        reactions=service.REACTIONS,
        max_length=service.MAX_LENGTH,
    )


def render_body(
    room_id: int,
    user: User | None,
    on: bool,
    channel: str,
    messages: list[dict[str, Any]],
    token: str,
    moderator: bool,
    oob: bool = False,
    error: str = "",
    draft: str = "",
) -> str:
    """The chat panel's body (``#chat-body``): the messages, the reactions and the form,
    in the current language; ``oob``: as an hx-swap-oob fragment of the page socket."""
    return templates.get_template("chat/_body.html").render(
        room_id=room_id,
        user=user,
        chat_on=on,
        channel=channel,
        messages=messages,
        csrf_token=token,
        moderator=moderator,
        oob=oob,
        error=error,
        draft=draft,
        client_id=secrets.token_hex(12),
        reactions=service.REACTIONS,
        max_length=service.MAX_LENGTH,
    )
