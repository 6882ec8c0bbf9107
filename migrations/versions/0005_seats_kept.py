"""seats kept for the person who left; spectators who see the hands one deal late

Revision ID: 0005_seats_kept
Revises: 0004_leases
Create Date: 2026-12-01

* ``seats``: ``away`` (the seat's person left a running game: a stand-in bot plays it,
  the seat is kept for that person, nobody else may take it);
* ``rooms``: ``spectators_see_hands`` (room option, off by default: spectators see all
  hands of a deal once the next deal runs; docs/server.md).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_seats_kept"
down_revision: str | None = "0004_leases"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("away", sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(
            sa.Column("spectators_see_hands", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("spectators_see_hands")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("away")
