"""chat: chat_messages, chat_reports, chat_mutes, user_blocks; rooms.chat

Revision ID: 0018_chat
Revises: 0017_invitations
Create Date: 2026-12-02

New tables only, and one ADD COLUMN (``rooms.chat``, true by default: a championship
switches its tables' chat off). Nothing else is touched, so it chains after any revision
(the lead re-chains it at merge; contract: after 0014_queue_entries).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018_chat"
down_revision: str | None = "0017_invitations"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _user(table: str, column: str, pk: bool = False) -> sa.Column:
    return sa.Column(
        column,
        sa.Integer(),
        sa.ForeignKey("users.id", ondelete="CASCADE", name=f"fk_{table}_{column}_users"),
        nullable=False,
        primary_key=pk,
    )


def upgrade() -> None:
    op.add_column(
        "rooms", sa.Column("chat", sa.Boolean(), nullable=False, server_default=sa.true())
    )
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "room_id",
            sa.Integer(),
            sa.ForeignKey("rooms.id", ondelete="CASCADE", name="fk_chat_messages_room_id_rooms"),
            nullable=False,
        ),
        sa.Column(
            "game_id",
            sa.Integer(),
            sa.ForeignKey("games.id", ondelete="SET NULL", name="fk_chat_messages_game_id_games"),
            nullable=True,
        ),
        _user("chat_messages", "user_id"),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("text", sa.String(400), nullable=True),
        sa.Column("reaction", sa.String(32), nullable=True),
        sa.Column("client_id", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("hidden_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("hidden_by", sa.Integer(), nullable=True),
        sa.UniqueConstraint("user_id", "client_id", name="uq_chat_messages_client"),
    )
    op.create_index("ix_chat_messages_room_id_id", "chat_messages", ["room_id", "id"])
    op.create_index("ix_chat_messages_game_id", "chat_messages", ["game_id"])
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "message_id",
            sa.Integer(),
            sa.ForeignKey(
                "chat_messages.id", ondelete="CASCADE", name="fk_chat_reports_message_id"
            ),
            nullable=False,
        ),
        _user("chat_reports", "user_id"),
        sa.Column("reason", sa.String(400), nullable=False, server_default=""),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("message_id", "user_id", name="uq_chat_reports_once"),
    )
    op.create_index("ix_chat_reports_message_id", "chat_reports", ["message_id"])
    op.create_table(
        "chat_mutes",
        _user("chat_mutes", "user_id", pk=True),
        _user("chat_mutes", "muted_id", pk=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "user_blocks",
        _user("user_blocks", "user_id", pk=True),
        _user("user_blocks", "blocked_id", pk=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_user_blocks_blocked_id", "user_blocks", ["blocked_id"])


def downgrade() -> None:
    op.drop_index("ix_user_blocks_blocked_id", table_name="user_blocks")
    op.drop_table("user_blocks")
    op.drop_table("chat_mutes")
    op.drop_index("ix_chat_reports_message_id", table_name="chat_reports")
    op.drop_table("chat_reports")
    op.drop_index("ix_chat_messages_game_id", table_name="chat_messages")
    op.drop_index("ix_chat_messages_room_id_id", table_name="chat_messages")
    op.drop_table("chat_messages")
    op.drop_column("rooms", "chat")
