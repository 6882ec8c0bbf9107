"""a room may skip the declaration prompt whose only answer is "no declarations"

Revision ID: 0009_skip_empty_declaration
Revises: 0008_room_creation_key
Create Date: 2026-12-02

* ``rooms``: ``skip_empty_declaration`` (boolean, default true): the table does not ask a
  seat to declare when "no declarations" is all it may declare; its first card stands
  for that declaration, stored with the card as the seat's two moves
  (docs/server.md "Declarations").
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009_skip_empty_declaration"
down_revision: str | None = "0008_room_creation_key"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A plain ADD COLUMN, never a batch copy of rooms (on SQLite its DROP would run the
    # ON DELETE CASCADE of seats, games and moves).
    op.add_column(
        "rooms",
        sa.Column("skip_empty_declaration", sa.Boolean(), nullable=False, server_default=sa.true()),
    )


def downgrade() -> None:
    op.drop_column("rooms", "skip_empty_declaration")  # SQLite 3.35+: no table copy
