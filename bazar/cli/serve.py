"""``bazar serve``: the club server, with uvicorn (the ``server`` extra)."""

from __future__ import annotations

from typing import Annotated

import typer

from bazar import i18n
from bazar.i18n import t

from .app import bad_input, fail, guess_lang, h
from .db import refuse_database


def serve_command(
    host: Annotated[str, typer.Option("--host", help=h("help.host"))] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help=h("help.port"))] = 8000,
    db: Annotated[str | None, typer.Option("--db", help=h("help.db"))] = None,
    grace: Annotated[
        float | None,
        typer.Option("--grace", min=0, metavar="SECONDS", help=h("help.grace")),
    ] = None,
    rematch_window: Annotated[
        float,
        typer.Option("--rematch-window", min=0, metavar="SECONDS", help=h("help.rematch_window")),
    ] = 120.0,
) -> None:
    lang = guess_lang(None)
    with bad_input(lang):
        if not 1 <= port <= 65535:
            # else uvicorn fails after the address is printed, or listens on another port
            raise i18n.Message("error.port", port=port)
    try:
        import uvicorn

        from bazar.club import create_app
        from bazar.club.migrations import Unmigrated
        from bazar.club.storage import default_db_url, engine_url
    except ImportError as error:
        fail(t("error.server_extra", lang, missing=error.name or error))
    from sqlalchemy.exc import SQLAlchemyError

    url = db or default_db_url()
    shown = url
    from pydantic import ValidationError

    from bazar.club.settings import Settings

    try:
        settings = Settings()
    except ValidationError as error:
        # a BAZAR_* limit of the environment that is no such value: say which, and why
        said = "; ".join(
            f"BAZAR_{'.'.join(map(str, e['loc'])).upper()}: {e['msg']}" for e in error.errors()
        )
        fail(t("error.settings", lang, reason=said))
    try:
        shown = engine_url(url).render_as_string(hide_password=True)
        club = create_app(url, grace_s=grace, rematch_window_s=rematch_window, settings=settings)
    except (SQLAlchemyError, ImportError, OSError, Unmigrated) as error:
        # a malformed URL, a driver not installed, a server that does not answer, a schema
        # behind with BAZAR_DB_UPGRADE=0
        refuse_database(error, shown, lang)
    print(t("serve.listening", lang, host=host, port=port, url=shown), flush=True)
    uvicorn.run(club, host=host, port=port, ws_max_size=65536, log_level="warning")
