"""The baseline: the club's tables as ``create_all`` made them before the club had
migrations (users, names, sessions, tables, moves, records, played, ratings, settings).

A database such an older club made has some of them already (an older one lacks ``played``,
older still ``names`` and ``sessions``, the oldest ``settings``): each table it has is left as
it is, with its rows. (The oldest SQLite files declare ``tables.seed`` INTEGER, not BIGINT:
SQLite holds the same 64-bit numbers in either.)

Revision 0001, the first.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    present = set(sa.inspect(op.get_bind()).get_table_names())

    def table(name: str, *columns: sa.schema.SchemaItem, index: str = "") -> None:
        """``name``'s table, and its index of ``index``, unless the database has it."""
        if name in present:
            return
        op.create_table(name, *columns)
        if index:
            op.create_index(f"ix_{name}_{index}", name, [index])

    table(
        "users",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("guest", sa.Boolean(), nullable=False),
        sa.Column("kozel_rating", sa.Integer(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        index="name",
    )
    table(
        "names",
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        index="user_id",
    )
    table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("last_seen", sa.Float(), nullable=False),
        sa.Column("revoked", sa.Boolean(), nullable=False),
        index="user_id",
    )
    table(
        "tables",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("owner", sa.Integer(), nullable=False),
        sa.Column("move_time_s", sa.Integer(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("access", sa.String(20), nullable=False),
        sa.Column("invite", sa.String(40), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("ending", sa.JSON(), nullable=True),
        sa.Column("created", sa.Float(), nullable=False),
    )
    table(
        "moves",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("n", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("move", sa.String(40), nullable=False),
    )
    table(
        "records",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("table_id", sa.String(16), nullable=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("summary", sa.JSON(), nullable=False),
        sa.Column("uploaded", sa.Boolean(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
    )
    table(
        "played",
        sa.Column("record_id", sa.String(16), sa.ForeignKey("records.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=True),
        sa.Column("created", sa.Float(), nullable=False),
        index="user_id",
    )
    table(
        "ratings",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
    )
    table(
        "settings",
        sa.Column("key", sa.String(40), primary_key=True),
        sa.Column("value", sa.Text(), nullable=False),
    )
