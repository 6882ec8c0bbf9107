"""championship tables of three: a third player and score per table, a third deal column

Revision ID: 0011_three_player_tables
Revises: 0010_championship_once
Create Date: 2026-12-02

A championship of a game of three players each for himself (Belote for three) seats
three entrants (teams of one) at a table: ``tournament_tables.third_id`` and
``third_score`` (NULL at every table of two sides), and ``tournament_deals.third_points``
(NULL for two sides). ``third_id`` references the team with no ON DELETE action:
SQLAlchemy reads no ON DELETE of a column added by ALTER on SQLite, and a team is
only ever deleted with its tournament, whose rounds and tables go in the same
statement (the check is made at its end). Plain ADD COLUMN only, no batch copy: on SQLite the copy's DROP of
the old table runs the ON DELETE CASCADE of the tables that refer to it (0010).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011_three_player_tables"
down_revision: str | None = "0010_championship_once"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        # SQLite adds a column with its REFERENCES clause in place (a NULL default): no
        # table copy, where Alembic's add_column would want a batch copy for the key.
        # Not named: SQLite keeps no name of a column's own REFERENCES clause
        op.execute(
            "ALTER TABLE tournament_tables ADD COLUMN third_id INTEGER "
            "REFERENCES teams (id)"
        )
    else:
        op.add_column(
            "tournament_tables",
            sa.Column(
                "third_id",
                sa.Integer(),
                sa.ForeignKey("teams.id", name="fk_tournament_tables_third_id_teams"),
                nullable=True,
            ),
        )
    op.add_column("tournament_tables", sa.Column("third_score", sa.Integer(), nullable=True))
    op.add_column("tournament_deals", sa.Column("third_points", sa.Integer(), nullable=True))


def downgrade() -> None:
    # SQLite 3.35+: a plain DROP COLUMN, no table copy (a column with a foreign key cannot
    # be dropped there: the downgrade is for PostgreSQL)
    op.drop_column("tournament_deals", "third_points")
    op.drop_column("tournament_tables", "third_score")
    op.drop_column("tournament_tables", "third_id")
