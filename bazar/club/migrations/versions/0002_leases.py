"""Many processes: the ``leases`` table (which process runs a table, until when) and a
rematch's kept seats (``tables.reserved``).

A club between the baseline and its first migration may have made either with
``create_all`` (the table; never the column, which ``create_all`` does not add): what the
database has is left as it is.

Revision 0002, after 0001.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    found = sa.inspect(op.get_bind())
    if not found.has_table("leases"):
        op.create_table(
            "leases",
            sa.Column("table_id", sa.String(16), primary_key=True),
            sa.Column("node", sa.String(64), nullable=False),
            sa.Column("expires", sa.Float(), nullable=False),
        )
        op.create_index("ix_leases_node", "leases", ["node"])
    if "reserved" not in {column["name"] for column in found.get_columns("tables")}:
        # a nullable column: SQLite adds it in place, with no copy of the table
        op.add_column("tables", sa.Column("reserved", sa.JSON(), nullable=True))
