"""The club server: an ASGI app (Starlette), its database (SQLAlchemy), one actor per live
table. Install with ``pip install 'bazar[server]'``; run with ``bazar serve``.

Importing this package loads nothing heavy; :func:`create_app` imports the server's
dependencies when called.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def create_app(db_url: str, **options: Any) -> Any:
    """The club's ASGI app on the database ``db_url`` (see :func:`bazar.club.app.create_app`)."""
    from .app import create_app as create

    return create(db_url, **options)
