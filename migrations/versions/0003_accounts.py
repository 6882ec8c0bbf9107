"""accounts and clocks: usernames, password hashes, session versions; room move clocks

Revision ID: 0003_accounts
Revises: 0002_tournaments
Create Date: 2026-11-30

* ``users``: ``username`` (unique, lower-case; NULL for guests), ``password_hash``
  (argon2, NULL for guests), ``session_version`` (bumped by log-out: older tokens die);
* ``rooms``: ``clock_seconds`` (NULL: no move clock), ``max_timeouts`` (timeouts in a row
  before a stand-in bot plays for the seat until its person returns);
* ``seats``: ``timeouts`` (the seat's timeouts in a row).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_accounts"
down_revision: str | None = "0002_tournaments"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("username", sa.String(32), nullable=True))
        batch.add_column(sa.Column("password_hash", sa.String(255), nullable=True))
        batch.add_column(sa.Column("session_version", sa.Integer(), nullable=False, server_default="0"))
        batch.create_unique_constraint("uq_users_username", ["username"])
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("clock_seconds", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("max_timeouts", sa.Integer(), nullable=False, server_default="2"))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("timeouts", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("timeouts")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("max_timeouts")
        batch.drop_column("clock_seconds")
    with op.batch_alter_table("users") as batch:
        batch.drop_constraint("uq_users_username", type_="unique")
        batch.drop_column("session_version")
        batch.drop_column("password_hash")
        batch.drop_column("username")
