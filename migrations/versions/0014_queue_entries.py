"""the quick-play queue: queue_entries

Revision ID: 0014_queue_entries
Revises: 0011
Create Date: 2026-12-02

One row per waiting person (app/rooms/models.py ``QueueEntry``): ``user_id`` unique (a
person is in at most one entry), ``(partner_code, slot)`` unique (a partner entry holds
two people). A new table only: nothing else is touched, so it chains after any revision.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014_queue_entries"
# The lead re-chains this after 0012/0013 at merge (the file is self-contained).
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "queue_entries",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE", name="fk_queue_entries_user_id_users"),
            nullable=False,
        ),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("preset", sa.String(32), nullable=False, server_default=""),
        sa.Column("partner_code", sa.String(16), nullable=True),
        sa.Column("slot", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("wait_seconds", sa.Integer(), nullable=False, server_default="30"),
        sa.Column("bot", sa.String(32), nullable=False, server_default="heuristic"),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column(
            "room_id",
            sa.Integer(),
            sa.ForeignKey("rooms.id", ondelete="SET NULL", name="fk_queue_entries_room_id_rooms"),
            nullable=True,
        ),
        sa.UniqueConstraint("user_id", name="uq_queue_entries_user"),
        sa.UniqueConstraint("partner_code", "slot", name="uq_queue_entries_partner_slot"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_queue_entries_pool", "queue_entries", ["game", "preset"])


def downgrade() -> None:
    op.drop_index("ix_queue_entries_pool", table_name="queue_entries")
    op.drop_table("queue_entries")
