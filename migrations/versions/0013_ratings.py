"""ratings: the seats of each ended match, a rating per person and game, rated rooms, hidden profiles

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02

* ``match_players``: one row per seat of an ended match (``(game_id, seat)`` unique: the
  match-end listener inserts each once), with its side, result, points, deals and the
  rating before and after (app/records/models.py, docs/ratings.md).
* ``ratings``: openskill's mu and sigma of a person in one game id (``(user_id, game)``
  unique), with the rated matches and wins.
* ``rooms.rated`` (false for the rooms made before: they are casual) and
  ``users.profile_hidden`` (false: player pages are public by default).

Plain ADD COLUMN only, no batch copy (0008/0009: a copy of ``rooms`` on SQLite cascades
the delete to seats, games and moves).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "match_players",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "game_id",
            sa.Integer(),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True
        ),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("bot_version", sa.Integer(), nullable=True),
        sa.Column("nickname", sa.String(32), nullable=False),
        sa.Column("side", sa.Integer(), nullable=False),
        sa.Column("result", sa.String(8), nullable=True),
        sa.Column("counted_loss", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("mu_before", sa.Float(), nullable=True),
        sa.Column("sigma_before", sa.Float(), nullable=True),
        sa.Column("ordinal_before", sa.Float(), nullable=True),
        sa.Column("mu_after", sa.Float(), nullable=True),
        sa.Column("sigma_after", sa.Float(), nullable=True),
        sa.Column("ordinal_after", sa.Float(), nullable=True),
        sa.Column("end_reason", sa.String(16), nullable=True),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "seat", name="uq_match_players_game_seat"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_match_players_game_id", "match_players", ["game_id"])
    op.create_index("ix_match_players_user", "match_players", ["user_id", "ended_at"])
    op.create_table(
        "ratings",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("wins", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("user_id", "game", name="uq_ratings_user_game"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_ratings_game", "ratings", ["game"])
    op.add_column(
        "rooms", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column(
        "users",
        sa.Column("profile_hidden", sa.Boolean(), nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    op.drop_column("users", "profile_hidden")  # SQLite 3.35+: no table copy
    op.drop_column("rooms", "rated")
    op.drop_index("ix_ratings_game", table_name="ratings")
    op.drop_table("ratings")
    op.drop_index("ix_match_players_user", table_name="match_players")
    op.drop_index("ix_match_players_game_id", table_name="match_players")
    op.drop_table("match_players")
