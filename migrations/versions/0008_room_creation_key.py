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
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("creation_key", sa.String(length=64), nullable=True))
        batch.create_unique_constraint("uq_rooms_creation_key", ["creation_key"])


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_constraint("uq_rooms_creation_key", type_="unique")
        batch.drop_column("creation_key")
