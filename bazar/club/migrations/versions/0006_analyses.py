"""The coach's analyses of the records: the ``analyses`` table, an analysis a row, kept by the
record, the seats it grades, its deals and the coach's version.

Revision 0006, after 0005.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("record_id", sa.String(16), sa.ForeignKey("records.id"), primary_key=True),
        sa.Column("seats", sa.String(40), primary_key=True),
        sa.Column("deals", sa.Integer(), primary_key=True),
        sa.Column("version", sa.Integer(), primary_key=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("analyses")
