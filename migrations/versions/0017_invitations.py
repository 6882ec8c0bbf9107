"""invitations: a room's code, private rooms, offered seats

Revision ID: 0017_invitations
Revises: 0015_team_requests
Create Date: 2026-12-02

* ``rooms.invite_code``: the 6-character code of the room's invitation (unique index;
  NULL for rooms made before: one is given when the share panel is first shown).
* ``rooms.private``: not listed, reached only by its link or code (false for older rooms).
* ``rooms.spectators_open``: a private room its owner opened to spectators.
* ``seats.offered``: the owner offers this empty (or bot's) seat to whoever opens the
  invitation (docs/invitations.md).

Plain ADD COLUMN / CREATE INDEX only, no batch copy (0008/0009: a copy of ``rooms`` on
SQLite cascades the delete to seats, games and moves).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017_invitations"
# The lead re-chains this after 0015/0016 at merge (the file is self-contained).
down_revision: str | None = "0015_team_requests"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("invite_code", sa.String(8), nullable=True))
    op.add_column(
        "rooms", sa.Column("private", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column(
        "rooms",
        sa.Column("spectators_open", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.add_column(
        "seats", sa.Column("offered", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.create_index("uq_rooms_invite_code", "rooms", ["invite_code"], unique=True)


def downgrade() -> None:
    op.drop_index("uq_rooms_invite_code", table_name="rooms")
    # SQLite 3.35+: a plain DROP COLUMN (no table copy)
    op.drop_column("seats", "offered")
    op.drop_column("rooms", "spectators_open")
    op.drop_column("rooms", "private")
    op.drop_column("rooms", "invite_code")
