"""``/api/health``: whether this process serves, which one it is, and how many tables it runs:
what a load balancer checks before it sends a client here, and how one tells the club's
processes apart behind it."""

from __future__ import annotations

import os
from typing import Any

from starlette.requests import Request
from starlette.routing import BaseRoute, Route

from .http import RouteGroup, api


class HealthRoutes(RouteGroup):
    """``/api/health``."""

    def routes(self) -> list[BaseRoute]:
        return [Route("/api/health", api(self.health))]

    async def health(self, request: Request) -> Any:
        """This process's node name, its pid and the live tables it runs; it answers without
        the database, so a slow database never takes a serving process out of the balance."""
        return {
            "ok": True,
            "node": self.club.node,
            "pid": os.getpid(),
            "tables": len(self.club.tables),
        }
