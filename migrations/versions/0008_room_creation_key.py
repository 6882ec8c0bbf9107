"""a room's creation key: one room per creation request, however often it is sent

Revision ID: 0008_room_creation_key
Revises: 0007_auth_sessions
Create Date: 2026-12-02

* ``rooms``: ``creation_key`` (nullable, unique): the key of the request that created
  the room (the lobby form's hidden field, the API's ``Idempotency-Key`` header); a second
  request with the same key gets the same room (a double tap made two rooms).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_room_creation_key"
down_revision: str | None = "0007_auth_sessions"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # No batch copy of rooms on SQLite: its DROP of the old table runs the ON DELETE
    # CASCADE of seats, games and moves (foreign keys are on). A plain ADD COLUMN and a
    # unique index instead.
    op.add_column("rooms", sa.Column("creation_key", sa.String(length=64), nullable=True))
    op.create_index("uq_rooms_creation_key", "rooms", ["creation_key"], unique=True)


def downgrade() -> None:
    op.drop_index("uq_rooms_creation_key", table_name="rooms")
    op.drop_column("rooms", "creation_key")  # SQLite 3.35+: a plain DROP COLUMN
