"""Alembic's environment for the club: it runs on the connection that
:func:`bazar.club.migrations.upgrade` opened and locked (in its transaction), and compares
against the club's models (:class:`bazar.club.storage.Base`)."""

from __future__ import annotations

from alembic import context

from bazar.club.storage import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("the club's migrations run through bazar.club.migrations (bazar db upgrade)")
# batch mode: SQLite changes most of a table's columns and constraints only by copying it
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
