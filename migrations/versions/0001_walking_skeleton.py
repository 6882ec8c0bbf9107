"""walking skeleton: users, rooms, seats, games, moves, deals

Revision ID: 0001_walking_skeleton
Revises:
Create Date: 2026-11-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001_walking_skeleton"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("nickname", sa.String(24), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "rooms",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column(
            "created_by",
            sa.Integer(),
            sa.ForeignKey("users.id", name="fk_rooms_created_by_users", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("created_at", TZ, nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_rooms_status", "rooms", ["status"])
    op.create_table(
        "seats",
        sa.Column(
            "room_id",
            sa.Integer(),
            sa.ForeignKey("rooms.id", name="fk_seats_room_id_rooms", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", name="fk_seats_user_id_users", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("stand_in", sa.Boolean(), nullable=False),
        sa.UniqueConstraint("room_id", "user_id", name="uq_seats_room_user"),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "room_id",
            sa.Integer(),
            sa.ForeignKey("rooms.id", name="fk_games_room_id_rooms", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("dealer", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_games_room_id", "games", ["room_id"])
    op.create_table(
        "moves",
        sa.Column(
            "game_id",
            sa.Integer(),
            sa.ForeignKey("games.id", name="fk_moves_game_id_games", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("actor", sa.String(16), nullable=False),
        sa.Column("at", TZ, nullable=False),
    )
    op.create_table(
        "deals",
        sa.Column(
            "game_id",
            sa.Integer(),
            sa.ForeignKey("games.id", name="fk_deals_game_id_games", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("deal_no", sa.Integer(), primary_key=True),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("salt", sa.String(64), nullable=False),
        sa.Column("deck", sa.Text(), nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("deals")
    op.drop_table("moves")
    op.drop_index("ix_games_room_id", table_name="games")
    op.drop_table("games")
    op.drop_table("seats")
    op.drop_index("ix_rooms_status", table_name="rooms")
    op.drop_table("rooms")
    op.drop_table("users")
