"""sessions stored: one row a sign-in, so tokens expire, are listed and revoked one by one

Revision ID: 0007_auth_sessions
Revises: 0006_room_match
Create Date: 2026-12-02

* ``auth_sessions``: ``id`` (random, carried by the signed token), ``user_id``,
  ``created_at``, ``expires_at``, ``revoked_at`` (NULL while live), ``agent``
  (app/accounts/service.py). Tokens issued before (without an id) still count until the
  user's next log-out or ``TAPET_SESSION_DAYS`` after they were issued.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_auth_sessions"
down_revision: str | None = "0006_room_match"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "auth_sessions",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", name="fk_auth_sessions_user", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("agent", sa.String(120), nullable=False, server_default=""),
    )
    with op.batch_alter_table("auth_sessions") as batch:
        batch.create_index("ix_auth_sessions_user_id", ["user_id"])


def downgrade() -> None:
    with op.batch_alter_table("auth_sessions") as batch:
        batch.drop_index("ix_auth_sessions_user_id")
    op.drop_table("auth_sessions")
