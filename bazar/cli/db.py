"""``bazar db upgrade | current``: the club's database brought to the newest schema, or asked
which revision it is at, for a deployment that migrates as a step of its own before it starts
the club's processes (``BAZAR_DB_UPGRADE=0``: a process then refuses a database behind)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, NoReturn, TypeAlias

import typer

from bazar.i18n import N_, t

from .app import Command, Group, fail, guess_lang, h

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

db_app = typer.Typer(cls=Group, help=h("help.db_app"), no_args_is_help=True, add_completion=False)

Db: TypeAlias = Annotated[
    str | None, typer.Option("--db", envvar="BAZAR_DB_URL", help=h("help.db"), show_envvar=False)
]


@db_app.command("upgrade", cls=Command, help=h("help.db_upgrade"))
def upgrade_command(db: Db = None) -> None:
    lang = guess_lang(None)
    with opened(db, lang) as (engine, shown):
        from bazar.club import migrations

        was = migrations.upgrade(engine)
        newest = migrations.head()
    if was == newest:
        print(t("db.at_newest", lang, url=shown, revision=newest))
    else:
        print(t("db.upgraded", lang, url=shown, was=was or t("db.none", lang), revision=newest))


@db_app.command("current", cls=Command, help=h("help.db_current"))
def current_command(db: Db = None) -> None:
    lang = guess_lang(None)
    with opened(db, lang) as (engine, shown):
        from bazar.club import migrations

        at = migrations.revision(engine)
        newest = migrations.head()
    key = N_("db.at_newest") if at == newest else N_("db.behind")
    print(t(key, lang, url=shown, revision=at or t("db.none", lang), newest=newest))


@contextmanager
def opened(db: str | None, lang: str) -> Iterator[tuple[Engine, str]]:
    """An engine on the database ``db`` (else the default SQLite file) and its URL as it may
    be shown (no password); whatever goes wrong with it ends the command in one line."""
    shown = db or ""
    try:
        from sqlalchemy import create_engine
        from sqlalchemy.pool import NullPool

        from bazar.club.migrations import Unmigrated
        from bazar.club.storage import default_db_url, engine_url
    except ImportError as error:
        fail(t("error.server_extra", lang, missing=error.name or error))
    from sqlalchemy.exc import SQLAlchemyError

    try:
        url = engine_url(db or default_db_url())
        shown = url.render_as_string(hide_password=True)
        engine = create_engine(url, poolclass=NullPool)
        try:
            yield engine, shown
        finally:
            engine.dispose()
    except (SQLAlchemyError, ImportError, OSError, Unmigrated) as error:
        refuse_database(error, shown, lang)


def refuse_database(error: Exception, shown: str, lang: str) -> NoReturn:
    """End the command with what is wrong with the database ``shown``: a schema this bazar
    cannot use as it is, a URL that names no database, or the driver's own words (a server
    that does not answer, a refused password), which have no Russian."""
    from sqlalchemy.exc import ArgumentError

    from bazar.club.migrations import Unmigrated

    if isinstance(error, Unmigrated):
        at = error.at or t("db.none", lang)
        key = N_("error.db_behind") if error.known else N_("error.db_ahead")
        fail(t(key, lang, url=shown, revision=at, newest=error.newest))
    if isinstance(error, ArgumentError):
        fail(t("error.db_url", lang, url=shown))
    # the driver's error, without SQLAlchemy's wrapping of it
    said = str(getattr(error, "orig", None) or error).strip()
    reason = said.splitlines()[0] if said else type(error).__name__
    fail(t("error.database", lang, url=shown, reason=reason))
