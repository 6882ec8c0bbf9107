"""a championship's match definition on its online room

Revision ID: 0006_room_match
Revises: 0005_seats_kept
Create Date: 2026-12-01

* ``rooms``: ``match`` (JSON, null for a match to the game's target): a championship's
  match of a fixed number of deals (``{"kind": "deals", "deals": N}``) or a time limit
  (``{"kind": "time", "minutes": M}``), so that the table tells its players how long the
  match is (the championship stops it, app/tournaments/results.py).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_room_match"
down_revision: str | None = "0005_seats_kept"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("match", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("match")
