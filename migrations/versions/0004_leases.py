"""leases: which server process drives which rooms

Revision ID: 0004_leases
Revises: 0003_accounts
Create Date: 2026-12-01

* ``leases``: ``name`` ("shard:N" or "worker:<holder>"), ``holder`` (a server
  process), ``expires_ms`` (wall-clock milliseconds). See app/realtime/lease.py.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_leases"
down_revision: str | None = "0003_accounts"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("name", sa.String(96), primary_key=True),
        sa.Column("holder", sa.String(96), nullable=False),
        sa.Column("expires_ms", sa.BigInteger(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("leases")
