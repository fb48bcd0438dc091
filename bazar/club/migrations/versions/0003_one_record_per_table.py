"""A table has one record: the database refuses a second (a unique index on
``records.table_id``; the records of uploaded matches name no table, and are many).

The club has always stored a table's record under the table's own id, so no database holds
two already.

Revision 0003, after 0002.
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # an index, not a constraint: SQLite makes one in place, with no copy of the table
    op.create_index("ix_records_table_id", "records", ["table_id"], unique=True)
