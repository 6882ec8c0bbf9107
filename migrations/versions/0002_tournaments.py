"""tournaments: clubs, tournaments, organisers, teams, rounds, tables, paper deals, audit

Revision ID: 0002_tournaments
Revises: 0001_walking_skeleton
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002_tournaments"
down_revision: str | None = "0001_walking_skeleton"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TZ = sa.DateTime(timezone=True)


def _fk(table: str, column: str, target: str, ondelete: str) -> sa.ForeignKey:
    ref_table = target.split(".")[0]
    return sa.ForeignKey(target, name=f"fk_{table}_{column}_{ref_table}", ondelete=ondelete)


def _user(table: str, column: str, ondelete: str = "SET NULL", nullable: bool = True) -> sa.Column:
    return sa.Column(column, sa.Integer(), _fk(table, column, "users.id", ondelete), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("town", sa.String(80), nullable=False),
        _user("clubs", "created_by"),
        sa.Column("created_at", TZ, nullable=False),
        sa.UniqueConstraint("name", "town", name="uq_clubs_name_town"),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("format", sa.String(24), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("venue", sa.String(120), nullable=False),
        _user("tournaments", "created_by"),
        sa.Column("created_at", TZ, nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_organisers",
        sa.Column("tournament_id", sa.Integer(),
                  _fk("tournament_organisers", "tournament_id", "tournaments.id", "CASCADE"),
                  primary_key=True),
        sa.Column("user_id", sa.Integer(),
                  _fk("tournament_organisers", "user_id", "users.id", "CASCADE"), primary_key=True),
        sa.Column("role", sa.String(8), nullable=False),
        sa.Column("added_at", TZ, nullable=False),
    )
    op.create_table(
        "teams",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.Integer(), _fk("teams", "tournament_id", "tournaments.id", "CASCADE"),
                  nullable=False),
        sa.Column("club_id", sa.Integer(), _fk("teams", "club_id", "clubs.id", "SET NULL"), nullable=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("player1", sa.String(40), nullable=False),
        sa.Column("player2", sa.String(40), nullable=False),
        _user("teams", "user1_id"),
        _user("teams", "user2_id"),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("group_no", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("late", sa.Boolean(), nullable=False),
        sa.Column("withdrawn_after", sa.Integer(), nullable=True),
        sa.Column("created_at", TZ, nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_teams_tournament_id", "teams", ["tournament_id"])
    op.create_table(
        "tournament_rounds",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.Integer(),
                  _fk("tournament_rounds", "tournament_id", "tournaments.id", "CASCADE"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("stage", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("published_at", TZ, nullable=True),
        sa.Column("closed_at", TZ, nullable=True),
        sa.UniqueConstraint("tournament_id", "number", name="uq_rounds_tournament_number"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_tournament_rounds_tournament_id", "tournament_rounds", ["tournament_id"])
    op.create_table(
        "tournament_tables",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("round_id", sa.Integer(),
                  _fk("tournament_tables", "round_id", "tournament_rounds.id", "CASCADE"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("home_id", sa.Integer(), _fk("tournament_tables", "home_id", "teams.id", "CASCADE"),
                  nullable=False),
        sa.Column("away_id", sa.Integer(), _fk("tournament_tables", "away_id", "teams.id", "CASCADE"),
                  nullable=True),
        sa.Column("mode", sa.String(8), nullable=False),
        sa.Column("room_id", sa.Integer(), _fk("tournament_tables", "room_id", "rooms.id", "SET NULL"),
                  nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("home_score", sa.Integer(), nullable=True),
        sa.Column("away_score", sa.Integer(), nullable=True),
        sa.Column("winner_id", sa.Integer(), _fk("tournament_tables", "winner_id", "teams.id", "SET NULL"),
                  nullable=True),
        sa.Column("forfeit", sa.Boolean(), nullable=False),
        sa.Column("started_at", TZ, nullable=True),
        sa.Column("finished_at", TZ, nullable=True),
        sa.UniqueConstraint("round_id", "number", name="uq_tables_round_number"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_tournament_tables_round_id", "tournament_tables", ["round_id"])
    op.create_table(
        "tournament_deals",
        sa.Column("table_id", sa.Integer(),
                  _fk("tournament_deals", "table_id", "tournament_tables.id", "CASCADE"), primary_key=True),
        sa.Column("deal_no", sa.Integer(), primary_key=True),
        sa.Column("summary", sa.JSON(), nullable=False),
        sa.Column("home_points", sa.Integer(), nullable=False),
        sa.Column("away_points", sa.Integer(), nullable=False),
        _user("tournament_deals", "entered_by"),
        sa.Column("entered_at", TZ, nullable=False),
    )
    op.create_table(
        "tournament_audit",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.Integer(),
                  _fk("tournament_audit", "tournament_id", "tournaments.id", "CASCADE"), nullable=False),
        _user("tournament_audit", "user_id"),
        sa.Column("at", TZ, nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("subject", sa.String(80), nullable=False),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_tournament_audit_tournament_id", "tournament_audit", ["tournament_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_audit_tournament_id", table_name="tournament_audit")
    op.drop_table("tournament_audit")
    op.drop_table("tournament_deals")
    op.drop_index("ix_tournament_tables_round_id", table_name="tournament_tables")
    op.drop_table("tournament_tables")
    op.drop_index("ix_tournament_rounds_tournament_id", table_name="tournament_rounds")
    op.drop_table("tournament_rounds")
    op.drop_index("ix_teams_tournament_id", table_name="teams")
    op.drop_table("teams")
    op.drop_table("tournament_organisers")
    op.drop_index("ix_tournaments_status", table_name="tournaments")
    op.drop_table("tournaments")
    op.drop_table("clubs")
