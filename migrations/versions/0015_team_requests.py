"""players register their teams: team_requests

Revision ID: 0015_team_requests
Revises: 0014_queue_entries
Create Date: 2026-12-02

One row per team a player asks to enter (app/tournaments/models.py ``TeamRequest``),
pending until an organiser approves or declines it. Two partial unique indexes keep one
open request per requester and per partner in a tournament (``WHERE status =
'pending'``, which SQLite and PostgreSQL both read). A new table only: nothing else is
touched (no batch copy).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015_team_requests"
down_revision: str | None = "0014_queue_entries"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OPEN = sa.text("status = 'pending'")


def upgrade() -> None:
    op.create_table(
        "team_requests",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "tournament_id",
            sa.Integer(),
            sa.ForeignKey(
                "tournaments.id", ondelete="CASCADE", name="fk_team_requests_tournament_id"
            ),
            nullable=False,
        ),
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE", name="fk_team_requests_user_id"),
            nullable=False,
        ),
        sa.Column(
            "partner_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE", name="fk_team_requests_partner_id"),
            nullable=True,
        ),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column(
            "club_id",
            sa.Integer(),
            sa.ForeignKey("clubs.id", ondelete="SET NULL", name="fk_team_requests_club_id"),
            nullable=True,
        ),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column(
            "team_id",
            sa.Integer(),
            sa.ForeignKey("teams.id", ondelete="SET NULL", name="fk_team_requests_team_id"),
            nullable=True,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column(
            "decided_by",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="SET NULL", name="fk_team_requests_decided_by"),
            nullable=True,
        ),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_team_requests_tournament_id", "team_requests", ["tournament_id"])
    op.create_index(
        "uq_team_requests_open_user",
        "team_requests",
        ["tournament_id", "user_id"],
        unique=True,
        sqlite_where=OPEN,
        postgresql_where=OPEN,
    )
    op.create_index(
        "uq_team_requests_open_partner",
        "team_requests",
        ["tournament_id", "partner_id"],
        unique=True,
        sqlite_where=OPEN,
        postgresql_where=OPEN,
    )


def downgrade() -> None:
    op.drop_index("uq_team_requests_open_partner", table_name="team_requests")
    op.drop_index("uq_team_requests_open_user", table_name="team_requests")
    op.drop_index("ix_team_requests_tournament_id", table_name="team_requests")
    op.drop_table("team_requests")
