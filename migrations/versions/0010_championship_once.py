"""championship requests once: request keys, one team per player, team names, one room per table

Revision ID: 0009_championship_once
Revises: 0008_room_creation_key
Create Date: 2026-12-02

* ``tournament_requests``: the key of a state-changing championship request (a form's
  one-time ``creation_key``, the API's ``Idempotency-Key``; the key is the primary key)
  with its first answer: the same request sent again changes nothing (a double tap on
  "Add deal" recorded the deal twice; two "Publish round" made two sets of rooms).
* ``tournament_players``: one row per (tournament, account), its team: a player is in
  one team of a tournament, even when two registrations race.
* ``teams.name_key``: the name casefolded, unique per tournament (two teams were
  registered with one name at the same moment). Existing rows are filled in; a name
  already taken twice keeps its later copies apart with their id.
* ``tournament_tables.room_id``: unique (one room per table).

Unique indexes, not constraints: adding a constraint on SQLite copies the table, and
dropping the old copy runs the ON DELETE CASCADE of the tables that refer to it.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_championship_once"
down_revision: str | None = "0009_skip_empty_declaration"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "tournament_requests",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", name="fk_tournament_requests_user_id_users", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("outcome", sa.JSON(), nullable=True),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.create_table(
        "tournament_players",
        sa.Column(
            "tournament_id",
            sa.Integer(),
            sa.ForeignKey(
                "tournaments.id", name="fk_tournament_players_tournament_id_tournaments", ondelete="CASCADE"
            ),
            primary_key=True,
        ),
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", name="fk_tournament_players_user_id_users", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "team_id",
            sa.Integer(),
            sa.ForeignKey("teams.id", name="fk_tournament_players_team_id_teams", ondelete="CASCADE"),
            nullable=False,
        ),
    )
    op.create_index("ix_tournament_players_team_id", "tournament_players", ["team_id"])
    # No batch copy of teams or tournament_tables on SQLite: its DROP of the old table
    # would run their ON DELETE CASCADE (tables, deals, players) with foreign keys on.
    # A plain ADD COLUMN (NOT NULL needs a default there) and unique indexes instead.
    op.add_column("teams", sa.Column("name_key", sa.String(80), nullable=False, server_default=""))
    conn = op.get_bind()
    teams = sa.table(
        "teams",
        sa.column("id", sa.Integer()),
        sa.column("tournament_id", sa.Integer()),
        sa.column("name", sa.String()),
        sa.column("name_key", sa.String()),
        sa.column("user1_id", sa.Integer()),
        sa.column("user2_id", sa.Integer()),
    )
    players = sa.table(
        "tournament_players",
        sa.column("tournament_id", sa.Integer()),
        sa.column("user_id", sa.Integer()),
        sa.column("team_id", sa.Integer()),
    )
    seen: set[tuple[int, str]] = set()
    entered: set[tuple[int, int]] = set()
    rows = conn.execute(
        sa.select(teams.c.id, teams.c.tournament_id, teams.c.name, teams.c.user1_id, teams.c.user2_id)
        .order_by(teams.c.id)
    ).all()
    for team_id, tournament_id, name, user1, user2 in rows:
        key = name.casefold()[:80]
        if (tournament_id, key) in seen:
            key = f"{key[:70]}#{team_id}"
        seen.add((tournament_id, key))
        conn.execute(sa.update(teams).where(teams.c.id == team_id).values(name_key=key))
        for user_id in (user1, user2):
            if user_id and (tournament_id, user_id) not in entered:
                entered.add((tournament_id, user_id))
                conn.execute(
                    sa.insert(players).values(tournament_id=tournament_id, user_id=user_id, team_id=team_id)
                )
    op.create_index("uq_teams_tournament_name_key", "teams", ["tournament_id", "name_key"], unique=True)
    op.create_index("uq_tournament_tables_room_id", "tournament_tables", ["room_id"], unique=True)


def downgrade() -> None:
    op.drop_index("uq_tournament_tables_room_id", table_name="tournament_tables")
    op.drop_index("uq_teams_tournament_name_key", table_name="teams")
    op.drop_column("teams", "name_key")  # SQLite 3.35+: a plain DROP COLUMN, no table copy
    op.drop_index("ix_tournament_players_team_id", table_name="tournament_players")
    op.drop_table("tournament_players")
    op.drop_table("tournament_requests")
