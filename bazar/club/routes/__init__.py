"""The club's routes, a module per group: the pages, the accounts, the tables, the records,
the games' rules, the tournaments, the websocket of a table, and the process's health; what
their handlers share is in :mod:`.http`."""

from __future__ import annotations

from starlette.routing import BaseRoute

from . import pages, rules
from .accounts import AccountRoutes
from .health import HealthRoutes
from .http import Services
from .records import RecordRoutes
from .tables import TableRoutes
from .tournaments import TournamentRoutes
from .websocket import SocketRoutes


def routes(services: Services) -> list[BaseRoute]:
    """Every route of the club on ``services``."""
    return [
        *pages.routes(),
        *AccountRoutes(services).routes(),
        *TableRoutes(services).routes(),
        *RecordRoutes(services).routes(),
        *rules.routes(),
        *TournamentRoutes(services).routes(),
        *SocketRoutes(services).routes(),
        *HealthRoutes(services).routes(),
    ]


__all__ = ["Services", "routes"]
