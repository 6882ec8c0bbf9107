"""The chat's use cases (issue 18 §2, §5), one transaction each: post, read, mute,
block, report, hide. Rules (docs/chat.md):

* who writes where: a person seated at the room writes in the ``table`` channel, anyone
  else (signed in, even as a guest) in the ``spectators`` channel; the channel comes from
  the seats, never from the request, so a spectator can never post at the table;
* who reads what: everyone reads the table chat; the spectators' chat reaches the
  seated players only once the room's match is over; hidden messages reach nobody; the
  messages of a person the reader muted or blocked never reach that reader;
* limits: ``MAX_LENGTH`` characters, ``RATE_COUNT`` messages in ``RATE_SECONDS`` per
  person (counted in the database, so across workers); a room whose ``chat`` is off (a
  championship's setting) refuses every message;
* a repeated post (same ``client_id`` from the same person) returns the first message and
  stores nothing new (``(user_id, client_id)`` is unique: a double tap, a retry, a race).
"""

from __future__ import annotations

import re
import secrets
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app import realtime
from app.accounts.models import User
from app.chat.blocks import blocked_by
from app.chat.models import ChatMessage, ChatMute, ChatReport, UserBlock
from app.core.db import lock_key, utcnow
from app.core.errors import Conflict, Forbidden, NotFound, TooManyRequests, Unprocessable
from app.core.hooks import HOOKS
from app.core.settings import get_settings
from app.rooms.models import Game, Room, Seat
from app.web.i18n import N_

MAX_LENGTH = 300
#: Lines a message keeps (``clean_text``): a short chat message, never a tall block.
MAX_LINES = 5
RATE_COUNT = 5
RATE_SECONDS = 10
#: How many messages a room's chat shows (the newest).
SHOWN = 100
#: the data of a chat event: the sockets send the chat, the room is kept as it is
CHAT_EVENT = {"kind": "chat"}
#: Quick reactions: key -> English text (translated for each reader when shown).
REACTIONS: dict[str, str] = {
    "well_played": N_("Well played"),
    "oops": N_("Oops"),
    "thanks": N_("Thanks"),
    "good_luck": N_("Good luck"),
    "sorry": N_("Sorry"),
    "good_game": N_("Good game"),
}
CLIENT_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_CONTROL = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]"
)  # C0 but the line feed, C1 (NEL too), zero-width and direction-changing characters
#: Line and paragraph separators: line feeds, so that ``_few_lines`` counts them.
_SEPARATORS = str.maketrans({"\u2028": "\n", "\u2029": "\n"})

# The refusals (English msgids: the pages show them translated, app/web/errors.message_for)
CHAT_OFF = N_("Chat is switched off at this table.")
EMPTY = N_("Write a message or choose a reaction.")
TOO_LONG = N_("A message has at most 300 characters.")
TOO_FAST = N_("You are writing too fast: wait a few seconds.")
BAD_REACTION = N_("There is no such reaction.")
BAD_CLIENT_ID = N_("The message's id has 1 to 64 letters, digits, '-' or '_'.")
NOT_YOURS = N_("That message id was used for another room.")
NO_MESSAGE = N_("There is no such message.")
NO_PERSON = N_("There is no such person.")
NOT_YOURSELF = N_("You cannot do that to yourself.")
NOT_MODERATOR = N_("Only the site's admins or the championship's organisers can hide a message.")
REASON_TOO_LONG = N_("A reason has at most 300 characters.")


def clean_text(raw: object) -> str:
    """``raw`` as a message: control and direction-changing characters removed, spaces
    trimmed, at most ``MAX_LINES`` lines (``_few_lines``). Raises Unprocessable when it
    is not text or too long (``MAX_LENGTH``)."""
    if raw is None:
        return ""
    if not isinstance(raw, str):
        raise Unprocessable(EMPTY, "chat_empty")
    text = _CONTROL.sub("", raw.translate(_SEPARATORS)).strip()
    if len(text) > MAX_LENGTH:
        raise Unprocessable(TOO_LONG, "chat_too_long", limit=MAX_LENGTH)
    return _few_lines(text)


def _few_lines(text: str) -> str:
    """``text`` with at most ``MAX_LINES`` lines and no two blank lines in a row: the
    lines past the limit are joined to the last one by spaces (a fresh tester's message of
    100 line breaks stood as a tall empty block in everyone's chat)."""
    lines: list[str] = []
    for line in (part.rstrip() for part in text.split("\n")):
        if line or (lines and lines[-1]):
            lines.append(line)
    if len(lines) > MAX_LINES:
        lines[MAX_LINES - 1 :] = [" ".join(line.strip() for line in lines[MAX_LINES - 1 :] if line)]
    return "\n".join(lines)


async def channel_of(db: AsyncSession, room_id: int, user_id: int | None) -> str:
    """``table`` when ``user_id`` holds a seat of ``room_id``, else ``spectators``."""
    if user_id is None:
        return "spectators"
    seated = await db.scalar(
        select(Seat.seat).where(Seat.room_id == room_id, Seat.user_id == user_id).limit(1)
    )
    return "table" if seated is not None else "spectators"


async def _room(db: AsyncSession, room_id: int) -> Room:
    room = await db.get(Room, room_id)
    if room is None:
        raise NotFound(f"there is no room {room_id}", "no_room", n=room_id)
    return room


async def post(
    db: AsyncSession,
    room_id: int,
    user: User,
    text: object = None,
    reaction: object = None,
    client_id: object = None,
) -> dict[str, Any]:
    """Post ``text`` (or the quick ``reaction`` key) in ``room_id`` as ``user``, in the
    channel the seats give (module docstring); returns the message (``message_dict``).
    ``client_id``: the client's id for this message; the same id again returns the first
    message (a double tap posts once). Raises NotFound (room), Forbidden (chat off),
    Unprocessable (empty, too long, unknown reaction, bad id, an id used in another room),
    TooManyRequests (``RATE_COUNT`` in ``RATE_SECONDS``)."""
    room = await _room(db, room_id)
    uid = user.id  # read before a rollback expires ``user``
    if client_id in (None, ""):
        client_id = secrets.token_hex(12)
    if not isinstance(client_id, str) or not CLIENT_ID.fullmatch(client_id):
        raise Unprocessable(BAD_CLIENT_ID, "chat_client_id")
    first = await _by_client(db, uid, client_id)
    if first is not None:
        if first.room_id != room_id:
            raise Conflict(NOT_YOURS, "chat_client_id_used")
        return await _dict(db, first)
    if not room.chat:
        raise Forbidden(CHAT_OFF, "chat_off")
    body = clean_text(text)
    key: str | None = None
    if reaction not in (None, ""):
        if not isinstance(reaction, str) or reaction not in REACTIONS:
            raise Unprocessable(BAD_REACTION, "chat_reaction")
        key, body = reaction, ""
    if not body and key is None:
        raise Unprocessable(EMPTY, "chat_empty")
    game_id = await db.scalar(
        select(Game.id).where(Game.room_id == room_id).order_by(Game.id.desc()).limit(1)
    )
    message = ChatMessage(
        room_id=room_id,
        game_id=game_id,
        user_id=uid,
        channel=await channel_of(db, room_id, uid),
        text=body or None,
        reaction=key,
        client_id=client_id,
    )
    # the limit is counted after this message is written, under a lock on the person: a
    # burst of posts at once is counted one after the other, never all before any writes
    await lock_key(db, f"chat:{uid}")
    db.add(message)
    try:
        await db.flush()
    except IntegrityError:  # the same client id, a moment ago (a race)
        await db.rollback()
        first = await _by_client(db, uid, client_id)
        if first is None or first.room_id != room_id:
            raise Conflict(NOT_YOURS, "chat_client_id_used") from None
        return await _dict(db, first)
    since = utcnow() - timedelta(seconds=RATE_SECONDS)
    recent = await db.scalar(
        select(func.count())
        .select_from(ChatMessage)
        .where(ChatMessage.user_id == uid, ChatMessage.created_at >= since)
    )
    if (recent or 0) > RATE_COUNT:  # this message counted
        await db.rollback()
        raise TooManyRequests(TOO_FAST, RATE_SECONDS, "chat_too_fast")
    await db.commit()
    # the sockets send the chat (delivery.py); the room itself did not change (rooms/live.py)
    await realtime.current().publish(room_id, 0, CHAT_EVENT)
    return await _dict(db, message)


async def _by_client(db: AsyncSession, user_id: int, client_id: str) -> ChatMessage | None:
    return await db.scalar(
        select(ChatMessage).where(
            ChatMessage.user_id == user_id, ChatMessage.client_id == client_id
        )
    )


async def _dict(db: AsyncSession, message: ChatMessage) -> dict[str, Any]:
    nickname = await db.scalar(select(User.nickname).where(User.id == message.user_id))
    return message_dict(message, nickname or "?")


def message_dict(message: ChatMessage, nickname: str) -> dict[str, Any]:
    """``{id, room_id, game_id, channel, user_id, nickname, text, reaction, at}``: a
    message as the API and the sockets give it (``text`` None for a reaction; the
    reader's page translates ``reaction``, the API gives its key)."""
    return {
        "id": message.id,
        "room_id": message.room_id,
        "game_id": message.game_id,
        "channel": message.channel,
        "user_id": message.user_id,
        "nickname": nickname,
        "text": message.text,
        "reaction": message.reaction,
        "at": message.created_at.isoformat() if message.created_at else None,
    }


async def room_messages(db: AsyncSession, room_id: int) -> list[dict[str, Any]]:
    """The newest ``SHOWN`` messages of ``room_id`` that are not hidden, oldest first,
    for every reader (filter them with ``visible``)."""
    rows = (
        await db.execute(
            select(ChatMessage, User.nickname)
            .join(User, User.id == ChatMessage.user_id)
            .where(ChatMessage.room_id == room_id, ChatMessage.hidden_at.is_(None))
            .order_by(ChatMessage.id.desc())
            .limit(SHOWN)
        )
    ).all()
    return [message_dict(m, nick) for m, nick in reversed(rows)]


async def silenced_by(db: AsyncSession, user_id: int | None) -> set[int]:
    """The people whose messages ``user_id`` never receives: those they muted or blocked."""
    if user_id is None:
        return set()
    muted = set(await db.scalars(select(ChatMute.muted_id).where(ChatMute.user_id == user_id)))
    return muted | await blocked_by(db, user_id)


def visible(
    messages: list[dict[str, Any]], seated: bool, over: bool, silenced: set[int]
) -> list[dict[str, Any]]:
    """The messages a reader receives: a seated reader (``seated``) gets the spectators'
    messages only when the match is ``over``; nobody gets those of ``silenced`` people."""
    return [
        m
        for m in messages
        if m["user_id"] not in silenced and (m["channel"] == "table" or not seated or over)
    ]


async def read(db: AsyncSession, room_id: int, user: User | None) -> dict[str, Any]:
    """``{room_id, chat (on/off), channel (where the reader writes), messages}``: the chat
    of ``room_id`` as ``user`` receives it (None: an anonymous spectator). Raises NotFound."""
    room = await _room(db, room_id)
    uid = user.id if user else None
    channel = await channel_of(db, room_id, uid)
    messages = visible(
        await room_messages(db, room_id),
        channel == "table",
        room.status == "finished",
        await silenced_by(db, uid),
    )
    return {"room_id": room_id, "chat": room.chat, "channel": channel, "messages": messages}


async def game_messages(db: AsyncSession, game_id: int, user: User | None) -> list[dict[str, Any]]:
    """A match's chat for its record page (both channels, the match being over), without
    hidden messages or those of people ``user`` muted or blocked."""
    rows = (
        await db.execute(
            select(ChatMessage, User.nickname)
            .join(User, User.id == ChatMessage.user_id)
            .where(ChatMessage.game_id == game_id, ChatMessage.hidden_at.is_(None))
            .order_by(ChatMessage.id)
        )
    ).all()
    messages = [message_dict(m, nick) for m, nick in rows]
    return visible(messages, False, True, await silenced_by(db, user.id if user else None))


async def _person(db: AsyncSession, me: User, other_id: object) -> int:
    if not isinstance(other_id, int) or isinstance(other_id, bool):
        raise NotFound(NO_PERSON, "chat_no_person")
    if other_id == me.id:
        raise Unprocessable(NOT_YOURSELF, "chat_yourself")
    if await db.get(User, other_id) is None:
        raise NotFound(NO_PERSON, "chat_no_person")
    return other_id


async def set_mute(db: AsyncSession, me: User, other_id: object, on: bool) -> bool:
    """Mute (``on``) or unmute ``other_id`` for ``me``; idempotent (muting twice keeps one
    row). Returns ``on``. Raises NotFound (nobody), Unprocessable (oneself)."""
    other = await _person(db, me, other_id)
    if on:
        await _insert_once(db, ChatMute(user_id=me.id, muted_id=other))
    else:
        await db.execute(
            delete(ChatMute).where(ChatMute.user_id == me.id, ChatMute.muted_id == other)
        )
        await db.commit()
    return on


async def set_block(db: AsyncSession, me: User, other_id: object, on: bool) -> bool:
    """Block (``on``) or unblock ``other_id``; idempotent. Returns ``on``. Raises
    NotFound (nobody), Unprocessable (oneself)."""
    other = await _person(db, me, other_id)
    if on:
        await _insert_once(db, UserBlock(user_id=me.id, blocked_id=other))
    else:
        await db.execute(
            delete(UserBlock).where(UserBlock.user_id == me.id, UserBlock.blocked_id == other)
        )
        await db.commit()
    return on


async def _insert_once(db: AsyncSession, row: Any) -> None:
    db.add(row)
    try:
        await db.commit()
    except IntegrityError:  # already there (a double tap, a race): nothing to do
        await db.rollback()


async def mutes_and_blocks(db: AsyncSession, me: User) -> dict[str, set[int]]:
    """``{"muted": ids, "blocked": ids}`` of ``me``."""
    muted = set(await db.scalars(select(ChatMute.muted_id).where(ChatMute.user_id == me.id)))
    return {"muted": muted, "blocked": await blocked_by(db, me.id)}


async def _message(db: AsyncSession, message_id: object) -> ChatMessage:
    if not isinstance(message_id, int) or isinstance(message_id, bool):
        raise NotFound(NO_MESSAGE, "chat_no_message")
    message = await db.get(ChatMessage, message_id)
    if message is None:
        raise NotFound(NO_MESSAGE, "chat_no_message")
    return message


async def report(db: AsyncSession, me: User, message_id: object, reason: object = "") -> bool:
    """Report a message for the site's admins, with ``reason`` (at most ``MAX_LENGTH``
    characters); once per person per message (a second report changes nothing). Returns
    True for a new report. Raises NotFound, Unprocessable (reason too long)."""
    me_id = me.id
    message = await _message(db, message_id)
    why = clean_text(reason) if isinstance(reason, str) else ""
    if len(why) > MAX_LENGTH:
        raise Unprocessable(REASON_TOO_LONG, "chat_reason_too_long")
    exists = await db.scalar(
        select(ChatReport.id).where(
            ChatReport.message_id == message.id, ChatReport.user_id == me_id
        )
    )
    if exists is not None:
        return False
    db.add(ChatReport(message_id=message.id, user_id=me_id, reason=why))
    try:
        await db.commit()
    except IntegrityError:
        await db.rollback()
        return False
    return True


def is_admin(user: User | None) -> bool:
    """True for an account named in ``TAPET_ADMINS`` (usernames, comma-separated)."""
    if user is None or user.kind != "account" or not user.username:
        return False
    names = {n.strip().lower() for n in get_settings().admins.split(",") if n.strip()}
    return user.username.lower() in names


async def may_hide(db: AsyncSession, me: User | None, room_id: int) -> bool:
    """True when ``me`` may hide messages of ``room_id``: a site admin, or an organiser
    the registered hooks name for it (a championship's table)."""
    if me is None:
        return False
    return is_admin(me) or me.id in await HOOKS.moderators_of(db, room_id)


async def hide(db: AsyncSession, me: User, message_id: object) -> int:
    """Hide a message for everyone (kept in the database, with who hid it and when);
    hiding it again changes nothing. Returns its room id. Raises NotFound, Forbidden."""
    message = await _message(db, message_id)
    room_id = message.room_id
    if not await may_hide(db, me, room_id):
        raise Forbidden(NOT_MODERATOR, "chat_not_moderator")
    if message.hidden_at is None:
        message.hidden_at = utcnow()
        message.hidden_by = me.id
        await db.commit()
        await realtime.current().publish(room_id, 0, CHAT_EVENT)
    return room_id


async def reports(db: AsyncSession) -> list[dict[str, Any]]:
    """Every report, newest first: ``{id, message (message_dict), hidden, by, reason, at}``
    (for the site's admins)."""
    reporter = select(User.id, User.nickname).subquery()
    rows = (
        await db.execute(
            select(ChatReport, ChatMessage, User.nickname, reporter.c.nickname)
            .join(ChatMessage, ChatMessage.id == ChatReport.message_id)
            .join(User, User.id == ChatMessage.user_id)
            .join(reporter, reporter.c.id == ChatReport.user_id)
            .order_by(ChatReport.id.desc())
        )
    ).all()
    return [
        {
            "id": r.id,
            "message": message_dict(m, author),
            "hidden": m.hidden_at is not None,
            "by": by,
            "reason": r.reason,
            "at": r.created_at.isoformat(),
        }
        for r, m, author, by in rows
    ]


REPORTED = N_("Thank you: the site's admins will read your report.")


async def room_of_message(db: AsyncSession, message_id: object) -> int:
    """The room of a message. Raises NotFound."""
    return (await _message(db, message_id)).room_id
