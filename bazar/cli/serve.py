"""``bazar serve``: the club server, with uvicorn (the ``server`` extra).

One process by default, on a SQLite file: nothing else to start. ``--workers N`` starts N
processes that share one port (uvicorn's own workers); they share the club's tables through
the Redis server of ``--redis``, so more than one is refused without it."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Annotated, Any

import typer

from bazar import i18n
from bazar.i18n import t

from .app import bad_input, fail, guess_lang, h
from .db import refuse_database

if TYPE_CHECKING:
    from bazar.club.settings import Settings


def serve_command(
    host: Annotated[str, typer.Option("--host", help=h("help.host"))] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help=h("help.port"))] = 8000,
    db: Annotated[str | None, typer.Option("--db", help=h("help.db"))] = None,
    redis: Annotated[
        str | None, typer.Option("--redis", metavar="URL", help=h("help.redis"))
    ] = None,
    workers: Annotated[
        int, typer.Option("--workers", min=1, metavar="N", help=h("help.workers"))
    ] = 1,
    grace: Annotated[
        float | None,
        typer.Option("--grace", min=0, metavar="SECONDS", help=h("help.grace")),
    ] = None,
    rematch_window: Annotated[
        float | None,
        typer.Option("--rematch-window", min=0, metavar="SECONDS", help=h("help.rematch_window")),
    ] = None,
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
        from bazar.club.storage import Storage, default_db_url, engine_url
    except ImportError as error:
        fail(t("error.server_extra", lang, missing=error.name or error))
    given = {"db_url": db, "redis_url": redis, "rematch_window_s": rematch_window}
    settings = _settings(lang, {name: value for name, value in given.items() if value is not None})
    with bad_input(lang):
        if workers > 1 and not settings.redis_url:
            raise i18n.Message("error.workers_redis", workers=workers)
    redis_shown = _reach_redis(settings.redis_url, lang) if settings.redis_url else None
    from sqlalchemy.exc import SQLAlchemyError

    url = settings.db_url or default_db_url()
    shown = url
    try:
        shown = engine_url(url).render_as_string(hide_password=True)
        if workers == 1:
            club: Any = create_app(
                url,
                grace_s=grace,
                rematch_window_s=settings.rematch_window_s,
                settings=settings,
            )
        else:
            # the database is opened (and brought up to date) once here, before the workers
            # start: what is wrong with it is said once, and they find it at the newest revision
            storage = Storage(
                url, busy_timeout_s=settings.db_busy_timeout_s, upgrade=settings.db_upgrade
            )
            storage.close()
    except (SQLAlchemyError, ImportError, OSError, Unmigrated) as error:
        # a malformed URL, a driver not installed, a server that does not answer, a schema
        # behind with BAZAR_DB_UPGRADE=0
        refuse_database(error, shown, lang)
    where = {"host": host, "port": port, "url": shown, "redis": redis_shown}
    options: dict[str, Any] = {"host": host, "port": port, "ws_max_size": 65536}
    if workers == 1:
        if redis_shown:
            print(t("serve.listening_redis", lang, **where), flush=True)
        else:
            print(t("serve.listening", lang, **where), flush=True)
        uvicorn.run(club, log_level="warning", **options)
        return
    # each worker builds its club from the environment (bazar.club.app.from_environment)
    os.environ.update(
        BAZAR_DB_URL=url,
        BAZAR_REDIS_URL=settings.redis_url,
        BAZAR_REMATCH_WINDOW_S=str(settings.rematch_window_s),
    )
    if grace is not None:
        os.environ["BAZAR_GRACE_S"] = str(grace)
    print(t("serve.listening_workers", lang, workers=workers, **where), flush=True)
    uvicorn.run(
        "bazar.club.app:from_environment",
        factory=True,
        workers=workers,
        log_level="warning",
        **options,
    )


def _settings(lang: str, given: dict[str, Any]) -> Settings:
    """The club's settings: the ``BAZAR_*`` environment, and over it what the command line
    ``given``; a limit of the environment that is no such value ends the command, saying
    which and why."""
    from pydantic import ValidationError

    from bazar.club.settings import Settings

    try:
        return Settings(**given)
    except ValidationError as error:
        said = "; ".join(
            f"BAZAR_{'.'.join(map(str, e['loc'])).upper()}: {e['msg']}" for e in error.errors()
        )
        fail(t("error.settings", lang, reason=said))


def _reach_redis(url: str, lang: str) -> str:
    """``url`` as it may be shown (no password), once its Redis server has answered a ping:
    a server that is not there is said here, not by every worker at its first table."""
    import redis
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        shown = make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        shown = url
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
        try:
            client.ping()
        finally:
            client.close()
    except (redis.RedisError, ValueError, OSError) as error:
        # redis-py's own words, which have no Russian
        said = str(error).strip()
        reason = said.splitlines()[0] if said else type(error).__name__
        fail(t("error.redis", lang, url=shown, reason=reason))
    return shown
