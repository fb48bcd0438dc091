"""The tournaments: the list, creating one, entering and leaving it, its organiser's bots and
start, its file (export and import); and its websocket, which sends the tournament as it
stands on connect and at each change."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from bazar.club import protocol
from bazar.club.errors import ServerError, refusal_code
from bazar.club.lobby import Watcher

from .http import RouteGroup, api, received

#: seconds between two reads of a watched tournament from the database: one run by another
#: process changes there (this process's own changes are sent at once)
REREAD_S = 2.0


class TournamentRoutes(RouteGroup):
    """``/api/tournaments/...`` and ``/ws/tournaments/{id}``."""

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/tournaments", api(self.listing)),
            Route("/api/tournaments", api(self.create), methods=["POST"]),
            Route("/api/tournaments/import", api(self.import_file), methods=["POST"]),
            Route("/api/tournaments/{tournament_id}", api(self.tournament)),
            Route("/api/tournaments/{tournament_id}/export", api(self.export)),
            Route("/api/tournaments/{tournament_id}/join", api(self.join), methods=["POST"]),
            Route(
                "/api/tournaments/{tournament_id}/withdraw", api(self.withdraw), methods=["POST"]
            ),
            Route("/api/tournaments/{tournament_id}/bots", api(self.bots), methods=["POST"]),
            Route("/api/tournaments/{tournament_id}/start", api(self.start), methods=["POST"]),
            WebSocketRoute("/ws/tournaments/{tournament_id}", self.socket),
        ]

    async def listing(self, request: Request) -> Any:
        return {"tournaments": await self.club.tournaments.listing()}

    async def create(self, request: Request) -> Any:
        user = await self.need_user(request)
        form = await self.body(request, protocol.TournamentForm)
        row = await self.club.tournaments.create(user, form)
        tournament = await self.club.tournaments.info(row.id, user)
        return JSONResponse({"tournament": tournament}, status_code=201)

    async def tournament(self, request: Request) -> Any:
        user = await self.user_of(request)
        tid = request.path_params["tournament_id"]
        return {"tournament": await self.club.tournaments.info(tid, user)}

    async def join(self, request: Request) -> Any:
        user = await self.need_user(request)
        data = await self.body(request, protocol.TournamentJoin)
        tid = request.path_params["tournament_id"]
        entry = await self.club.tournaments.join(tid, user, data.partner, data.invite)
        return {"entry": entry, "tournament": await self.club.tournaments.info(tid, user)}

    async def withdraw(self, request: Request) -> Any:
        user = await self.need_user(request)
        tid = request.path_params["tournament_id"]
        await self.club.tournaments.withdraw(tid, user)
        return {"tournament": await self.club.tournaments.info(tid, user)}

    async def bots(self, request: Request) -> Any:
        user = await self.need_user(request)
        data = await self.body(request, protocol.TournamentBots)
        tid = request.path_params["tournament_id"]
        await self.club.tournaments.bots(tid, user, data.level, data.count)
        return {"tournament": await self.club.tournaments.info(tid, user)}

    async def start(self, request: Request) -> Any:
        user = await self.need_user(request)
        tid = request.path_params["tournament_id"]
        await self.club.tournaments.start(tid, user)
        return {"tournament": await self.club.tournaments.info(tid, user)}

    async def export(self, request: Request) -> Any:
        tid = request.path_params["tournament_id"]
        text = await self.club.tournaments.export(tid)
        return Response(
            text,
            media_type="application/json",
            headers={"content-disposition": f'attachment; filename="tournament-{tid}.json"'},
        )

    async def import_file(self, request: Request) -> Any:
        """A tournament's file stored as a finished tournament (its records replayed and
        checked, as an uploaded record's are)."""
        user = await self.need_user(request)
        # a file holds every match's record: as many of them as a record's limit
        limit = self.settings.max_record * 16
        raw = await received(request, limit, refusal_code("record_too_large"))
        try:
            text = raw.decode()
        except UnicodeDecodeError:
            raise ServerError("tournament_file", reason="not UTF-8", reason_ru="не UTF-8") from None
        row = await self.club.tournaments.import_file(user, text)
        tournament = await self.club.tournaments.info(row.id, user)
        return JSONResponse({"tournament": tournament}, status_code=201)

    async def socket(self, ws: WebSocket) -> None:
        """The tournament as it stands, now and at each change, until the page goes."""
        await ws.accept()
        tid = ws.path_params["tournament_id"]
        tournaments = self.club.tournaments
        try:
            user = await self.user_of(ws)
            first = await tournaments.message(tid, user)
        except ServerError as error:
            await ws.send_json({"type": "error", **error.to_json()})
            await ws.close(code=4404 if error.status == 404 else 1013)
            return
        watcher = Watcher()
        watcher.put(first)
        watching = tournaments.watchers.setdefault(tid, {})
        watching[watcher] = user
        tasks = [
            asyncio.create_task(_hear(ws)),
            asyncio.create_task(_write(ws, watcher)),
            asyncio.create_task(self._reread(tid, watcher, user)),
        ]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            watching.pop(watcher, None)
            if not watching:
                tournaments.watchers.pop(tid, None)
            for task in tasks:
                task.cancel()
            await asyncio.wait(tasks)

    async def _reread(self, tid: str, watcher: Watcher, user: Any) -> None:
        """Read the tournament again now and then: another process may run it (a watcher
        is sent only what changed)."""
        while True:
            await asyncio.sleep(REREAD_S)
            with contextlib.suppress(ServerError):
                watcher.put(await self.club.tournaments.message(tid, user))


async def _hear(ws: WebSocket) -> None:
    """Read the socket until it closes (what a page sends here means nothing)."""
    with contextlib.suppress(WebSocketDisconnect):
        while (await ws.receive())["type"] != "websocket.disconnect":
            pass


async def _write(ws: WebSocket, watcher: Watcher) -> None:
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        while True:
            await ws.send_json(await watcher.next())
