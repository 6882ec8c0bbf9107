"""friends and presence: follows, users.seen_at, users.presence_hidden

Revision ID: 0019_social
Revises: 0018_chat
Create Date: 2026-12-02

Issue 18 §3, §5 (app/social, docs/social.md):
* ``follows`` (follower_id, followed_id) primary key: one row per pair, however often
  someone taps Follow; an index on ``followed_id`` (who follows me, cascades).
* ``users.seen_at`` (NULL: never seen since this migration): the last time some worker
  saw the person, read by every worker for "online now".
* ``users.presence_hidden`` (false): the person hid their online status.

Plain CREATE TABLE / ADD COLUMN / CREATE INDEX only, no batch copy. The contract of
issue 18 chains it after 0014_queue_entries and the merge re-chains it; on this branch
the head is 0015_team_requests, so it follows that (one head: ``migrate`` upgrades to
"head"). It touches nothing 0015-0018 create, so it chains after any of them.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019_social"
down_revision: str | None = "0018_chat"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "follows",
        sa.Column(
            "follower_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE", name="fk_follows_follower_id"),
            primary_key=True,
        ),
        sa.Column(
            "followed_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE", name="fk_follows_followed_id"),
            primary_key=True,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_follows_followed_id", "follows", ["followed_id"])
    op.add_column("users", sa.Column("seen_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column(
        "users",
        sa.Column("presence_hidden", sa.Boolean(), nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    op.drop_column("users", "presence_hidden")  # SQLite 3.35+: no table copy
    op.drop_column("users", "seen_at")
    op.drop_index("ix_follows_followed_id", table_name="follows")
    op.drop_table("follows")
