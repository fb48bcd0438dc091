"""The ASGI app: pages, the JSON API and the table websockets (Starlette).

``create_app(db_url)`` builds one club on one database; ``bazar serve`` runs it with uvicorn.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import record
from ..errors import BadRecord
from ..rules import VARIANTS
from ..rules import rules as make_rules
from . import auth
from .club import LEVELS, MOVE_TIMES, Club
from .errors import ServerError
from .fairness import verify
from .settings import Settings
from .storage import RecordRow, Storage, User
from .table import CLOSE, Client, TableError

__all__ = ["MAX_MESSAGE", "create_app"]

WEB = Path(__file__).resolve().parent.parent / "web"
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
    ``BAZAR_*`` environment, see :class:`~bazar.server.settings.Settings`)."""
    settings = settings or Settings()
    storage = Storage(db_url, busy_timeout_s=settings.db_busy_timeout_s)
    if grace_s is None:
        grace_s = float(os.environ.get("BAZAR_GRACE_S", 60))
    club = Club(
        storage,
        bot_delay=bot_delay,
        grace_s=grace_s,
        rematch_window_s=rematch_window_s,
        settings=settings,
    )
    secret = secret or os.environ.get("BAZAR_SECRET") or storage.secret()
    # behind HTTPS, the session cookie must never travel in clear
    https_only = https_only or os.environ.get("BAZAR_SECURE_COOKIES") == "1"

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        club.resume()
        yield
        await club.close()
        storage.close()

    def user_of(request: Request | WebSocket) -> User | None:
        return auth.current_user(storage, request.session)

    def need_user(request: Request) -> User:
        user = user_of(request)
        if user is None:
            raise ServerError("login_first", 401)
        return user

    async def body(request: Request, limit: int = settings.max_body) -> Any:
        raw = await request.body()
        if len(raw) > limit:
            raise ServerError("too_large", 413, limit=limit)
        try:
            return json.loads(raw or b"{}")
        except json.JSONDecodeError:
            raise ServerError("not_json") from None

    def api(handler: Any) -> Any:
        async def endpoint(request: Request) -> Response:
            try:
                result = await handler(request)
            except ServerError as error:
                # "error" is the English; "code" and "params" let the page say it its way
                refusal = error.to_json()
                refusal["error"] = refusal.pop("message")
                return JSONResponse(refusal, status_code=error.status)
            return result if isinstance(result, Response) else JSONResponse(result)

        return endpoint

    def me(user: User | None) -> dict[str, Any] | None:
        if user is None:
            return None
        return {
            "id": user.id,
            "name": user.name,
            "guest": user.guest,
            "kozel_rating": user.kozel_rating,
        }

    # accounts

    async def session_get(request: Request) -> Any:
        return {"user": me(user_of(request))}

    async def guest(request: Request) -> Any:
        data = await body(request)
        user = auth.guest(storage, data.get("name") if isinstance(data, dict) else None)
        request.session["user"] = user.id
        return {"user": me(user)}

    async def register(request: Request) -> Any:
        data = await body(request)
        if not isinstance(data, dict):
            raise ServerError("not_login")
        user = auth.register(storage, data.get("name"), data.get("password"))
        request.session["user"] = user.id
        return {"user": me(user)}

    async def login(request: Request) -> Any:
        data = await body(request)
        if not isinstance(data, dict):
            raise ServerError("not_login")
        user = auth.login(storage, data.get("name"), data.get("password"))
        request.session["user"] = user.id
        return {"user": me(user)}

    async def logout(request: Request) -> Any:
        request.session.clear()
        return {"user": None}

    # games and tables

    async def games(request: Request) -> Any:
        out = []
        for name, text in VARIANTS.items():
            rules = make_rules(name)
            out.append(
                {
                    "name": name,
                    "description": text,
                    "players": rules.players,
                    "options": rules.options(),
                }
            )
        return {"games": out, "move_times": MOVE_TIMES, "levels": LEVELS}

    async def tables(request: Request) -> Any:
        return {"tables": club.open_tables()}

    async def create(request: Request) -> Any:
        user = need_user(request)
        table = club.create(user, await body(request))
        return {"table": table.info(), "invite": table.row.invite}

    def table_of(request: Request) -> Any:
        return club.table(request.path_params["table_id"])

    async def table_get(request: Request) -> Any:
        table = table_of(request)
        user = user_of(request)
        info = table.info()
        if user is not None:
            info["your_seat"] = table.seat_of(user.id)
            if table.row.owner == user.id:
                info["invite"] = table.row.invite
        return {"table": info}

    async def join(request: Request) -> Any:
        user = need_user(request)
        data = await body(request)
        data = data if isinstance(data, dict) else {}
        seat = club.join(table_of(request), user, data.get("seat"), data.get("invite"))
        return {"seat": seat}

    async def bots(request: Request) -> Any:
        user = need_user(request)
        data = await body(request)
        level = data.get("level", "greedy") if isinstance(data, dict) else None
        club.add_bots(table_of(request), user, level)
        return {"table": table_of(request).info()}

    async def leave(request: Request) -> Any:
        club.leave(table_of(request), need_user(request))
        return {"ok": True}

    async def rematch(request: Request) -> Any:
        new = club.rematch(table_of(request), need_user(request))
        return {"table": new.info()}

    # history, records, ratings

    async def history(request: Request) -> Any:
        return {
            "records": [
                {
                    "id": r.id,
                    "game": r.game,
                    "players": r.players,
                    "summary": r.summary,
                    "created": r.created,
                    "uploaded": r.uploaded,
                }
                for r in storage.records()
            ]
        }

    async def record_get(request: Request) -> Any:
        row = storage.record(request.path_params["record_id"])
        if row is None:
            raise ServerError("no_record", 404)
        if request.query_params.get("download"):
            return PlainTextResponse(
                row.text,
                media_type="application/json",
                headers={"Content-Disposition": f'attachment; filename="bazar-{row.id}.json"'},
            )
        return {
            "id": row.id,
            "game": row.game,
            "players": row.players,
            "summary": row.summary,
            "record": json.loads(row.text),
            "deals": verify(row.text),
        }

    async def record_position(request: Request) -> Any:
        """The spectators' view of a stored match after ``ply`` moves (the replay page)."""
        row = storage.record(request.path_params["record_id"])
        if row is None:
            raise ServerError("no_record", 404)
        data = json.loads(row.text)
        plies = sum(len(r["moves"]) for r in data["rounds"])
        try:
            ply = max(0, min(int(request.query_params.get("ply", plies)), plies))
        except ValueError:
            raise ServerError("ply_form") from None
        left, rounds = ply, []
        for entry in data["rounds"]:
            rounds.append({**entry, "moves": entry["moves"][:left]})
            left -= len(rounds[-1]["moves"])
            if left <= 0 and len(rounds[-1]["moves"]) < len(entry["moves"]):
                break
        match = record.from_data({**data, "rounds": rounds})
        moves = [m for r in data["rounds"] for m in r["moves"]]
        rnd = match.round
        return {
            "ply": ply,
            "plies": plies,
            "round": rnd.number,
            "view": match.view(None).to_json(),
            "deal": rnd.deal(),
            # a stored match is over: every hand may be shown as it stands
            "hands": [[str(t) for t in hand] for hand in rnd.hands],
            "last": moves[ply - 1] if ply else None,
        }

    async def record_upload(request: Request) -> Any:
        raw = await request.body()
        if len(raw) > settings.max_record:
            raise ServerError("record_too_large", 413, limit=settings.max_record)
        try:
            match = record.loads(raw.decode("utf-8", "replace"))
        except BadRecord as error:
            raise ServerError.passing_on("bad_record", error) from None
        text = record.dumps(match)
        result = match.result()
        row = RecordRow(
            id=secrets.token_urlsafe(8),
            table_id=None,
            game=match.rules.name,
            players=[f"seat {i}" for i in range(match.rules.players)],
            text=text,
            summary={
                "scores": match.ledger.public(),
                "rounds": len(match.rounds),
                "winners": list(result.winners) if result else [],
            },
            uploaded=True,
        )
        storage.add_record(row)
        return {"id": row.id}

    async def leaderboard(request: Request) -> Any:
        game = request.query_params.get("game", "kozel")
        return {
            "game": game,
            "skill": [
                {"name": u.name, "rating": round(r.mu - 3 * r.sigma, 2), "games": r.games}
                for u, r in storage.leaderboard(game)
            ],
            "kozel": [
                {"name": u.name, "rating": u.kozel_rating} for u in storage.kozel_leaderboard()
            ],
        }

    async def profile(request: Request) -> Any:
        user = storage.registered(request.path_params["name"])
        if user is None:
            raise ServerError("no_player", 404)
        return {
            "user": me(user),
            "ratings": [
                {
                    "game": r.game,
                    "rating": round(r.mu - 3 * r.sigma, 2),
                    "mu": round(r.mu, 2),
                    "sigma": round(r.sigma, 2),
                    "games": r.games,
                }
                for r in storage.ratings_of(user.id)
            ],
        }

    # the websocket of a table

    async def table_socket(ws: WebSocket) -> None:
        await ws.accept()
        try:
            table = club.table(ws.path_params["table_id"])
        except TableError as error:
            await ws.send_json({"type": "error", **error.to_json()})
            await ws.close(code=4404)
            return
        user = user_of(ws)
        client = Client(seat=None if user is None else table.seat_of(user.id))
        table.attach(client)
        writer = asyncio.create_task(_write(ws, client))
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    client.refuse(ServerError("text_frames"))
                    continue
                _read(table, client, text, user)
        except WebSocketDisconnect:
            pass
        finally:
            table.detach(client)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await writer

    def _read(table: Any, client: Client, text: str, user: User | None) -> None:
        if len(text) > settings.max_message:
            client.refuse(ServerError("message_too_large", limit=settings.max_message))
            return
        try:
            message = json.loads(text)
        except json.JSONDecodeError:
            client.refuse(ServerError("message_form"))
            return
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "hello":
            since = message.get("v", 0)
            if not isinstance(since, int) or isinstance(since, bool):
                since = 0
            # the seat may have been taken since the socket opened
            client.seat = None if user is None else table.seat_of(user.id)
            table.hello(client, since)
        elif not client.listening:
            # what it would act on is in the sync it has not asked for yet
            client.refuse(ServerError("hello_first"))
        elif kind == "move":
            table.submit(client, message.get("move"), message.get("v"))
        elif kind == "back":
            table.take_back(client)
        elif kind == "ping":
            client.send({"type": "pong"})
        else:
            client.refuse(ServerError("unknown_message"))

    async def page(request: Request) -> Response:
        return FileResponse(WEB / "index.html")

    routes = [
        Route("/", page),
        Route("/table/{table_id}", page),
        Route("/history", page),
        Route("/replay/{record_id}", page),
        Route("/profile/{name}", page),
        Route("/leaderboard", page),
        Mount("/static", StaticFiles(directory=WEB), name="static"),
        Route("/api/session", api(session_get)),
        Route("/api/guest", api(guest), methods=["POST"]),
        Route("/api/register", api(register), methods=["POST"]),
        Route("/api/login", api(login), methods=["POST"]),
        Route("/api/logout", api(logout), methods=["POST"]),
        Route("/api/games", api(games)),
        Route("/api/tables", api(tables)),
        Route("/api/tables", api(create), methods=["POST"]),
        Route("/api/tables/{table_id}", api(table_get)),
        Route("/api/tables/{table_id}/join", api(join), methods=["POST"]),
        Route("/api/tables/{table_id}/bots", api(bots), methods=["POST"]),
        Route("/api/tables/{table_id}/leave", api(leave), methods=["POST"]),
        Route("/api/tables/{table_id}/rematch", api(rematch), methods=["POST"]),
        Route("/api/records", api(history)),
        Route("/api/records", api(record_upload), methods=["POST"]),
        Route("/api/records/{record_id}", api(record_get)),
        Route("/api/records/{record_id}/position", api(record_position)),
        Route("/api/leaderboard", api(leaderboard)),
        Route("/api/profile/{name}", api(profile)),
        WebSocketRoute("/ws/{table_id}", table_socket),
    ]
    app = Starlette(
        routes=routes,
        middleware=[
            Middleware(
                SessionMiddleware,
                secret_key=secret,
                https_only=https_only,
                same_site="lax",
                session_cookie="bazar",
            )
        ],
        lifespan=lifespan,
    )
    app.state.club = club
    app.state.storage = storage
    app.state.settings = settings
    return app


async def _write(ws: WebSocket, client: Client) -> None:
    # a client that went away ends its writer quietly; the reader sees the disconnect
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        while True:
            message = await client.outbox.get()
            if message is CLOSE:
                await ws.close(code=client.close_code or 1000)
                return
            await ws.send_json(message)
