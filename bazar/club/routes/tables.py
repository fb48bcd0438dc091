"""The games on offer and the tables: creating one, seeing it, joining, bots, leaving, a
rematch."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.routing import BaseRoute, Route

from bazar import i18n
from bazar.club import protocol
from bazar.club.table import Table
from bazar.core.rules import VARIANTS, variant
from bazar.core.rules import rules as make_rules
from bazar.games import shelf

from .http import RouteGroup, api


class TableRoutes(RouteGroup):
    """``/api/games`` and ``/api/tables/...``."""

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/games", api(self.games)),
            Route("/api/play-now", api(self.play_now), methods=["POST"]),
            Route("/api/tables", api(self.tables)),
            Route("/api/tables", api(self.create), methods=["POST"]),
            Route("/api/tables/{table_id}", api(self.table)),
            Route("/api/tables/{table_id}/join", api(self.join), methods=["POST"]),
            Route("/api/tables/{table_id}/bots", api(self.bots), methods=["POST"]),
            Route("/api/tables/{table_id}/leave", api(self.leave), methods=["POST"]),
            Route("/api/tables/{table_id}/rematch", api(self.rematch), methods=["POST"]),
        ]

    def table_of(self, request: Request) -> Table:
        return self.club.table(request.path_params["table_id"])

    async def games(self, request: Request) -> Any:
        """The games on offer, each with its name and a line on it in the page's ``lang``
        (English unless ``ru``), the lobby's group it is shown in, and how many may play;
        the bot levels weakest first."""
        lang = "ru" if request.query_params.get("lang") == "ru" else "en"
        out = []
        for name, text in VARIANTS.items():
            rules = make_rules(name)
            out.append(
                {
                    "name": name,
                    "description": text,
                    "title": i18n.title(name, lang),
                    "summary": summary(i18n.description(name, lang)),
                    "group": shelf(variant(name)),
                    "players": rules.players,
                    "players_range": list(variant(name).players),
                    "options": rules.options(),
                }
            )
        levels = sorted(protocol.LEVELS, key=lambda level: list(i18n.LEVELS).index(level))
        return {"games": out, "move_times": self.settings.move_times, "levels": levels}

    async def tables(self, request: Request) -> Any:
        return {"tables": self.club.open_tables()}

    async def create(self, request: Request) -> Any:
        user = await self.need_user(request)
        table = await self.club.create(user, await self.body(request, protocol.TableForm))
        return {"table": table.info(), "invite": table.row.invite}

    async def play_now(self, request: Request) -> Any:
        user = await self.need_user(request)
        data = await self.body(request, protocol.PlayNow)
        table, seat = await self.club.play_now(user, data)
        return {"table": table.info(), "seat": seat}

    async def table(self, request: Request) -> Any:
        table = self.table_of(request)
        user = await self.user_of(request)
        info = table.info()
        if user is not None:
            info["your_seat"] = table.seat_of(user.id)
            if table.row.owner == user.id:
                info["invite"] = table.row.invite
        return {"table": info}

    async def join(self, request: Request) -> Any:
        user = await self.need_user(request)
        data = await self.body(request, protocol.Join)
        seat = await self.club.join(self.table_of(request), user, data.seat, data.invite)
        return {"seat": seat}

    async def bots(self, request: Request) -> Any:
        user = await self.need_user(request)
        data = await self.body(request, protocol.Bots)
        await self.club.add_bots(self.table_of(request), user, data.level)
        return {"table": self.table_of(request).info()}

    async def leave(self, request: Request) -> Any:
        await self.club.leave(self.table_of(request), await self.need_user(request))
        return {"ok": True}

    async def rematch(self, request: Request) -> Any:
        new = await self.club.rematch(self.table_of(request), await self.need_user(request))
        return {"table": new.info()}


def summary(description: str) -> str:
    """A game's description without the name it starts with: the line under its name.

    >>> summary("Muggins: All Fives without a spinner")
    'All Fives without a spinner'
    >>> summary("Double-six")
    'Double-six'
    """
    _, colon, rest = description.partition(": ")
    said = rest if colon else description
    return said[:1].upper() + said[1:]
