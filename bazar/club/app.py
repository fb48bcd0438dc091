"""The ASGI app: pages, the JSON API and the table websockets (Starlette).

``create_app(db_url)`` builds one club on one database; ``bazar serve`` runs it with uvicorn.
The routes are in :mod:`bazar.club.routes`, a module per group.
"""

from __future__ import annotations

import os

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware

from . import auth
from .club import Club
from .guard import Guard
from .routes import Services, pages, routes
from .settings import Settings
from .storage import Storage

__all__ = ["MAX_MESSAGE", "create_app"]

#: the largest websocket message a client may send by default (bytes; see Settings)
MAX_MESSAGE = Settings.model_fields["max_message"].default


def create_app(
    db_url: str,
    *,
    secret: str | None = None,
    bot_delay: float = 0.5,
    grace_s: float | None = None,
    rematch_window_s: float = 120.0,
    https_only: bool = False,
    settings: Settings | None = None,
) -> Starlette:
    """The club on ``db_url``. ``secret`` signs the session cookies (else ``BAZAR_SECRET``,
    else one the database keeps); ``bot_delay`` is how long a bot waits before its move;
    ``grace_s`` how long a player may be away before a bot takes the seat or, rated, the
    match ends (else ``BAZAR_GRACE_S``, else 60); ``rematch_window_s`` how long a finished
    table waits in memory for a rematch; ``settings`` the club's limits (else read from the
    ``BAZAR_*`` environment, see :class:`~bazar.club.settings.Settings`)."""
    settings = settings or Settings()
    storage = Storage(
        db_url,
        busy_timeout_s=settings.db_busy_timeout_s,
        pool_size=settings.db_pool_size,
        max_overflow=settings.db_max_overflow,
        upgrade=settings.db_upgrade,
    )
    if grace_s is None:
        grace_s = float(os.environ.get("BAZAR_GRACE_S", 60))
    club = Club(
        storage,
        bot_delay=bot_delay,
        grace_s=grace_s,
        rematch_window_s=rematch_window_s,
        settings=settings,
    )
    accounts = auth.Accounts(storage.accounts, settings)
    services = Services(club=club, storage=storage, accounts=accounts, settings=settings)
    secret = secret or os.environ.get("BAZAR_SECRET") or storage.accounts.secret()
    # behind HTTPS, the session cookie must never travel in clear
    https_only = https_only or os.environ.get("BAZAR_SECURE_COOKIES") == "1"
    app = Starlette(
        routes=routes(services),
        middleware=[
            Middleware(Guard, allowed=settings.allowed_origins),
            Middleware(
                SessionMiddleware,
                secret_key=secret,
                https_only=https_only,
                same_site="lax",
                session_cookie="bazar",
            ),
        ],
        lifespan=services.lifespan,
        exception_handlers={404: pages.not_found},
    )
    app.state.club = club
    app.state.storage = storage
    app.state.accounts = accounts
    app.state.settings = settings
    return app


def from_environment() -> Starlette:
    """The club of the ``BAZAR_*`` environment (:class:`~bazar.club.settings.Settings`: its
    database, its Redis server, its rematch window and limits; ``BAZAR_GRACE_S``): uvicorn
    starts each worker process of ``bazar serve --workers N`` from this factory's import
    path, not from an app object, so the parent hands its options over in the environment."""
    from .storage import default_db_url

    settings = Settings()
    return create_app(
        settings.db_url or default_db_url(),
        rematch_window_s=settings.rematch_window_s,
        settings=settings,
    )
