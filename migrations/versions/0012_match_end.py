"""the end of a match: who sat, why and when it ended, who left; rematches; presence

Revision ID: 0012
Revises: 0011_three_player_tables
Create Date: 2026-12-02

``games``: ``seated`` (the seats as the match started), ``end_reason`` (played | resigned
| abandoned | stopped), ``ended_at``, ``resigned_seat`` and ``left`` (user ids who left
mid-match; ``[]``) — /work CONTRACT between the branches aftermatch and ratings.
``rooms``: ``rematch_of`` (the finished room this one is the rematch of; unique, so one
rematch room per finished room) and ``seen_at`` (the last time someone was connected to
the table, docs/presence.md). ``rematch_votes``: who accepted or declined a rematch.
Plain ADD COLUMN only, no batch copy (0008/0009: a copy of ``rooms`` on SQLite cascades
the delete to seats, games and moves).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011_three_player_tables"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("games", sa.Column("seated", sa.JSON(), nullable=True))
    op.add_column("games", sa.Column("end_reason", sa.String(16), nullable=True))
    op.add_column("games", sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("games", sa.Column("resigned_seat", sa.Integer(), nullable=True))
    op.add_column(
        "games", sa.Column("left", sa.JSON(), nullable=False, server_default=sa.text("'[]'"))
    )
    op.add_column("rooms", sa.Column("rematch_of", sa.Integer(), nullable=True))
    op.create_index("uq_rooms_rematch_of", "rooms", ["rematch_of"], unique=True)
    op.add_column("rooms", sa.Column("seen_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "rematch_votes",
        sa.Column(
            "room_id",
            sa.Integer(),
            sa.ForeignKey("rooms.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("accept", sa.Boolean(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rematch_votes")
    op.drop_column("rooms", "seen_at")
    op.drop_index("uq_rooms_rematch_of", table_name="rooms")
    op.drop_column("rooms", "rematch_of")
    op.drop_column("games", "left")
    op.drop_column("games", "resigned_seat")
    op.drop_column("games", "ended_at")
    op.drop_column("games", "end_reason")
    op.drop_column("games", "seated")
