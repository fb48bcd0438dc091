"""Tournaments: the ``tournaments`` table (what the organiser asked for and the whole state
of the event) and the tournament a table's match belongs to (``tables.tournament``).

Revision 0004, after 0003.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("format", sa.String(20), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("duration_s", sa.Float(), nullable=True),
        sa.Column("teams", sa.Boolean(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("access", sa.String(20), nullable=False),
        sa.Column("invite", sa.String(40), nullable=False),
        sa.Column("owner", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("starts_at", sa.Float(), nullable=True),
        sa.Column("move_time_s", sa.Integer(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    # a nullable column: SQLite adds it in place, with no copy of the table
    op.add_column("tables", sa.Column("tournament", sa.String(16), nullable=True))
    op.create_index("ix_tables_tournament", "tables", ["tournament"])
