"""a guest's creation key: one guest per form, however often a new visitor sends it

Revision ID: 0020_guest_creation_key
Revises: 0019_social
Create Date: 2026-12-06

* ``users.creation_key`` (nullable, unique): the one-time key of the form that made the
  guest ("play now", "join the queue", a partner's invitation). A new visitor's double
  tap sends the form twice before the first answer sets the session cookie; the second
  request signs in the guest the first one made instead of being refused with "someone
  playing now is called ..." about the visitor's own name while that guest waits in the
  queue alone (app/accounts/service.py ``guest_of_form``).

A plain ADD COLUMN and a unique index, no batch copy (as 0008 for rooms).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0020_guest_creation_key"
down_revision: str | None = "0019_social"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("users", sa.Column("creation_key", sa.String(length=64), nullable=True))
    op.create_index("uq_users_creation_key", "users", ["creation_key"], unique=True)


def downgrade() -> None:
    op.drop_index("uq_users_creation_key", table_name="users")
    op.drop_column("users", "creation_key")  # SQLite 3.35+: a plain DROP COLUMN
