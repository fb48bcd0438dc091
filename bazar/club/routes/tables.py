"""The games on offer and the tables: creating one, seeing it, joining, bots, leaving, a
rematch."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.routing import BaseRoute, Route

from bazar import i18n
from bazar.club import protocol
from bazar.club.storage import User
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
            Route("/api/online", api(self.online)),
            Route("/api/tables", api(self.create), methods=["POST"]),
            Route("/api/tables/{table_id}", api(self.table)),
            Route("/api/tables/{table_id}/join", api(self.join), methods=["POST"]),
            Route("/api/tables/{table_id}/bots", api(self.bots), methods=["POST"]),
            Route("/api/tables/{table_id}/leave", api(self.leave), methods=["POST"]),
            Route("/api/tables/{table_id}/rematch", api(self.rematch), methods=["POST"]),
            Route("/api/tables/{table_id}/review", api(self.review), methods=["POST"]),
            Route("/api/tables/{table_id}/hint", api(self.hint), methods=["POST"]),
        ]

    async def on_table(self, request: Request, do: str, user: User | None, **args: Any) -> Any:
        """Do ``do`` at the request's table, in whichever process runs it."""
        who = None if user is None else {"id": user.id, "name": user.name, "guest": user.guest}
        return await self.club.on_table(request.path_params["table_id"], do, who, args)

    async def games(self, request: Request) -> Any:
        """The games on offer, each with its name and a line on it in the page's ``lang``
        (English unless ``ru``), the lobby's group it is shown in, how many may play, its
        default options and its capabilities; the club's default game; the bot levels
        weakest first."""
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
                    "capabilities": rules.capabilities().to_json(),
                }
            )
        levels = sorted(protocol.LEVELS, key=lambda level: list(i18n.LEVELS).index(level))
        return {
            "games": out,
            "default_game": protocol.DEFAULT_GAME,
            "move_times": self.settings.move_times,
            "levels": levels,
        }

    async def tables(self, request: Request) -> Any:
        return {"tables": await self.club.listing()}

    async def online(self, request: Request) -> Any:
        """How many players are online (a table's socket open), on every process of the
        club."""
        return {"players": await self.club.online()}

    async def create(self, request: Request) -> Any:
        user = await self.need_user(request)
        table = await self.club.create(user, await self.body(request, protocol.TableForm))
        return {"table": table.info(), "invite": table.row.invite}

    async def play_now(self, request: Request) -> Any:
        user = await self.need_user(request)
        data = await self.body(request, protocol.PlayNow)
        table, seat = await self.club.play_now(user, data)
        return {"table": table, "seat": seat}

    async def table(self, request: Request) -> Any:
        user = await self.user_of(request)
        return {"table": await self.on_table(request, "info", user)}

    async def join(self, request: Request) -> Any:
        user = await self.need_user(request)
        data = await self.body(request, protocol.Join)
        joined = await self.on_table(request, "join", user, seat=data.seat, invite=data.invite)
        return {"seat": joined["seat"]}

    async def bots(self, request: Request) -> Any:
        user = await self.need_user(request)
        data = await self.body(request, protocol.Bots)
        return await self.on_table(request, "bots", user, level=data.level)

    async def leave(self, request: Request) -> Any:
        return await self.on_table(request, "leave", await self.need_user(request))

    async def rematch(self, request: Request) -> Any:
        return await self.on_table(request, "rematch", await self.need_user(request))

    async def review(self, request: Request) -> Any:
        """The coach's grades of the asker's moves in a finished round of his table: asked
        for and polled (``state``: ``queued``, ``running`` or ``done`` with ``analysis``)."""
        user = await self.need_user(request)
        data = await self.body(request, protocol.Review)
        return await self.on_table(request, "review", user, round=data.round)

    async def hint(self, request: Request) -> Any:
        """The coach's best move for the asker, whose turn it is at a casual table of bots,
        and why."""
        return await self.on_table(request, "hint", await self.need_user(request))


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
