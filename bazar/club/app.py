"""The ASGI app: pages, the JSON API and the table websockets (Starlette).

``create_app(db_url)`` builds one club on one database; ``bazar serve`` runs it with uvicorn.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from bazar import i18n
from bazar.core import record
from bazar.core.errors import BadRecord
from bazar.core.rules import VARIANTS
from bazar.core.rules import rules as make_rules

from . import auth, protocol
from .club import Club
from .errors import ServerError, refusal_code
from .fairness import deals, verify
from .guard import Guard, refusal
from .protocol import B
from .settings import Settings
from .storage import RecordRow, Storage, User, stored
from .table import Client, TableError

__all__ = ["MAX_MESSAGE", "create_app"]

WEB = Path(__file__).resolve().parent.parent / "web"
#: the largest websocket message a client may send by default (bytes; see Settings)
MAX_MESSAGE = Settings.model_fields["max_message"].default
#: the close code and reason of a socket that sends far more than Settings.messages_per_s
TOO_MANY = (4029, "too many messages")
#: how long a dropped socket's close frame may wait to be written (seconds)
CLOSE_TIMEOUT_S = 10.0


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
    accounts = auth.Accounts(storage, settings)
    secret = secret or os.environ.get("BAZAR_SECRET") or storage.secret()
    # behind HTTPS, the session cookie must never travel in clear
    https_only = https_only or os.environ.get("BAZAR_SECURE_COOKIES") == "1"

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        club.resume()
        yield
        await club.close()
        accounts.close()
        storage.close()

    async def user_of(request: Request | WebSocket) -> User | None:
        return await accounts.current(request.session)

    def address(request: Request) -> str:
        return request.client.host if request.client is not None else "?"

    async def need_user(request: Request) -> User:
        user = await user_of(request)
        if user is None:
            raise ServerError("login_first", 401)
        return user

    async def body(request: Request, model: type[B]) -> B:
        raw = await received(request, settings.max_body, refusal_code("too_large"))
        return protocol.read(model, raw, move_times=settings.move_times)

    def api(handler: Any) -> Any:
        async def endpoint(request: Request) -> Response:
            try:
                result = await handler(request)
            except ServerError as error:
                return refusal(error)
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
        return {"user": me(await user_of(request))}

    async def guest(request: Request) -> Any:
        data = await body(request, protocol.Guest)
        club.admit_guest(address(request))
        user = await accounts.guest(data.name)
        await accounts.start(request.session, user)
        return {"user": me(user)}

    async def register(request: Request) -> Any:
        data = await body(request, protocol.Register)
        user = await accounts.register(data.name, data.password)
        await accounts.start(request.session, user)
        return {"user": me(user)}

    async def login(request: Request) -> Any:
        data = await body(request, protocol.Login)
        user = await accounts.login(data.name, data.password, address(request))
        await accounts.start(request.session, user)
        return {"user": me(user)}

    async def logout(request: Request) -> Any:
        await accounts.end(request.session)
        return {"user": None}

    async def password(request: Request) -> Any:
        """A new password: every session of the player ends, and this browser has a new one."""
        user = await need_user(request)
        data = await body(request, protocol.Password)
        await accounts.change_password(user, data.old, data.new, address(request))
        await accounts.start(request.session, user)
        return {"user": me(user)}

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
        return {"games": out, "move_times": settings.move_times, "levels": protocol.LEVELS}

    async def tables(request: Request) -> Any:
        return {"tables": club.open_tables()}

    async def create(request: Request) -> Any:
        user = await need_user(request)
        table = await club.create(user, await body(request, protocol.TableForm))
        return {"table": table.info(), "invite": table.row.invite}

    def table_of(request: Request) -> Any:
        return club.table(request.path_params["table_id"])

    async def table_get(request: Request) -> Any:
        table = table_of(request)
        user = await user_of(request)
        info = table.info()
        if user is not None:
            info["your_seat"] = table.seat_of(user.id)
            if table.row.owner == user.id:
                info["invite"] = table.row.invite
        return {"table": info}

    async def join(request: Request) -> Any:
        user = await need_user(request)
        data = await body(request, protocol.Join)
        seat = await club.join(table_of(request), user, data.seat, data.invite)
        return {"seat": seat}

    async def bots(request: Request) -> Any:
        user = await need_user(request)
        data = await body(request, protocol.Bots)
        await club.add_bots(table_of(request), user, data.level)
        return {"table": table_of(request).info()}

    async def leave(request: Request) -> Any:
        await club.leave(table_of(request), await need_user(request))
        return {"ok": True}

    async def rematch(request: Request) -> Any:
        new = await club.rematch(table_of(request), await need_user(request))
        return {"table": new.info()}

    # history, records, ratings

    async def history(request: Request) -> Any:
        return {
            "records": [
                {
                    "id": r.id,
                    "game": r.game,
                    "players": r.players,
                    "summary": _shown(r.summary),
                    "created": r.created,
                    "uploaded": r.uploaded,
                }
                for r in storage.records()
            ]
        }

    def record_of(request: Request) -> RecordRow:
        row = storage.record(request.path_params["record_id"])
        if row is None:
            raise ServerError("no_record", 404)
        return row

    async def record_get(request: Request) -> Any:
        row = record_of(request)
        if request.query_params.get("download"):
            return PlainTextResponse(
                row.text,
                media_type="application/json",
                headers={"Content-Disposition": f'attachment; filename="bazar-{row.id}.json"'},
            )
        return await run_in_threadpool(_record, row)

    async def record_position(request: Request) -> Any:
        """The spectators' view of a stored match after ``ply`` moves (the replay page)."""
        return await run_in_threadpool(
            _position, record_of(request), request.query_params.get("ply")
        )

    async def record_upload(request: Request) -> Any:
        raw = await received(request, settings.max_record, refusal_code("record_too_large"))
        row = await run_in_threadpool(_uploaded, raw, settings)
        await stored(settings, storage.add_record, row)
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
            user = await user_of(ws)
        except ServerError as error:
            await ws.send_json({"type": "error", **error.to_json()})
            # no such table; else a database too busy to upgrade an old cookie (come again)
            await ws.close(code=4404 if isinstance(error, TableError) else 1013)
            return
        client = Client(
            seat=None if user is None else table.seat_of(user.id), limit=settings.outbox
        )
        table.attach(client)
        # the socket lives while it reads, writes and is not dropped: whichever ends first
        tasks = [
            asyncio.create_task(_listen(ws, table, client, user)),
            asyncio.create_task(_write(ws, client)),
            asyncio.create_task(client.dropped.wait()),
        ]
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            table.detach(client)
            for task in tasks:
                task.cancel()
            # wait, not gather: gather would raise their cancellation as if it were this one's
            await asyncio.wait(tasks)
        for task in done:
            task.result()
        if client.closing is not None:
            await _close(ws, *client.closing)

    async def _listen(ws: WebSocket, table: Any, client: Client, user: User | None) -> None:
        bucket = Bucket(settings.messages_per_s, settings.message_burst)
        held_back = False
        with contextlib.suppress(WebSocketDisconnect):
            while client.closing is None:
                # the writer takes what the last message earned before the next is read: a
                # client that sends many at once has not stopped reading
                await asyncio.sleep(0)
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    return
                left = bucket.take()
                if left < -settings.message_burst:
                    client.drop(*TOO_MANY)
                    return
                if left < 0:
                    # told once; what it sends while held back is dropped unread
                    if not held_back:
                        client.refuse(ServerError("too_fast", rate=settings.messages_per_s))
                    held_back = True
                    continue
                held_back = False
                text = message.get("text")
                if text is None:
                    client.refuse(ServerError("text_frames"))
                    continue
                _read(table, client, text, user)

    def _read(table: Any, client: Client, text: str, user: User | None) -> None:
        if len(text) > settings.max_message:
            client.refuse(ServerError("message_too_large", limit=settings.max_message))
            return
        try:
            message = protocol.read_message(text)
        except ServerError as error:
            client.refuse(error)
            return
        match message:
            case protocol.HelloMessage(v=since):
                # the seat may have been taken since the socket opened
                client.seat = None if user is None else table.seat_of(user.id)
                table.hello(client, since)
            case _ if not client.listening:
                # what it would act on is in the sync it has not asked for yet
                client.refuse(ServerError("hello_first"))
            case protocol.MoveMessage(move=move, v=v):
                table.submit(client, move, v)
            case protocol.BackMessage():
                table.take_back(client)
            case protocol.PingMessage():
                client.send({"type": "pong"})

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
        Route("/i18n/{lang}.json", texts),
        Route("/api/session", api(session_get)),
        Route("/api/guest", api(guest), methods=["POST"]),
        Route("/api/register", api(register), methods=["POST"]),
        Route("/api/login", api(login), methods=["POST"]),
        Route("/api/logout", api(logout), methods=["POST"]),
        Route("/api/password", api(password), methods=["POST"]),
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
            Middleware(Guard, allowed=settings.allowed_origins),
            Middleware(
                SessionMiddleware,
                secret_key=secret,
                https_only=https_only,
                same_site="lax",
                session_cookie="bazar",
            ),
        ],
        lifespan=lifespan,
    )
    app.state.club = club
    app.state.storage = storage
    app.state.accounts = accounts
    app.state.settings = settings
    return app


async def texts(request: Request) -> Response:
    """The web page's texts in one language, from the catalogue (:func:`bazar.i18n.web`)."""
    lang = request.path_params["lang"]
    if lang not in i18n.LANGS:
        return PlainTextResponse(f"no texts in {lang!r}", 404)
    return JSONResponse(i18n.web(lang), headers={"Cache-Control": "public, max-age=3600"})


async def _write(ws: WebSocket, client: Client) -> None:
    # a client that went away ends its writer quietly; the reader sees the disconnect
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        while True:
            await ws.send_json(await client.next())


async def _close(ws: WebSocket, code: int, reason: str) -> None:
    """Close a socket the club drops; one that does not read may never take the close frame,
    and is left to the server to hang up."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError, TimeoutError):
        await asyncio.wait_for(ws.close(code, reason), CLOSE_TIMEOUT_S)


@dataclass
class Bucket:
    """A token bucket: ``burst`` messages at once, then ``rate`` a second. Each message takes
    a token, refused or not, so one that keeps sending while held back sinks below zero and
    one that pauses comes back.

    >>> bucket = Bucket(rate=1.0, burst=2.0, at=0.0)
    >>> [bucket.take(now=0.0) for _ in range(4)]
    [1.0, 0.0, -1.0, -2.0]
    >>> bucket.take(now=3.0)
    0.0
    """

    rate: float
    burst: float
    at: float = field(default_factory=time.monotonic)
    tokens: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = self.burst

    def take(self, now: float | None = None) -> float:
        """Take a token for one message: the tokens left (below zero: over the rate)."""
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate) - 1
        self.at = now
        return self.tokens


async def received(request: Request, limit: int, code: str) -> bytes:
    """The body of ``request``, refused (413, ``code``) once it is over ``limit`` bytes: by
    its Content-Length before any of it is read, else as soon as what streamed in is more."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and (len(declared) > 18 or int(declared) > limit):
        raise ServerError(code, 413, limit=limit)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ServerError(code, 413, limit=limit)
        chunks.append(chunk)
    return b"".join(chunks)


def _uploaded(raw: bytes, settings: Settings) -> RecordRow:
    """The row of an uploaded record: replayed (within the settings' rounds and moves) and
    its deals verified once, here, so that showing it never replays it."""
    try:
        match = record.loads(
            raw.decode("utf-8", "replace"),
            max_rounds=settings.record_rounds,
            max_moves=settings.record_moves,
        )
        out = protocol.out_of_bounds(match.rules.options(), settings)
        if out is not None:
            name, low, high = out
            value = match.rules.options()[name]
            raise BadRecord(
                f"record rules: option {name} takes a number from {low} to {high}; not {value}"
            )
    except BadRecord as error:
        raise ServerError.passing_on("bad_record", error) from None
    result = match.result()
    return RecordRow(
        id=secrets.token_urlsafe(8),
        table_id=None,
        game=match.rules.name,
        players=[f"seat {i}" for i in range(match.rules.players)],
        text=record.dumps(match),
        summary={
            "scores": match.ledger.public(),
            "rounds": len(match.rounds),
            "winners": list(result.winners) if result else [],
            "deals": deals(match),
        },
        uploaded=True,
    )


def _shown(summary: dict[str, Any]) -> dict[str, Any]:
    # the deals are shown with the record itself, not in every list of records
    return {k: v for k, v in summary.items() if k != "deals"}


def _record(row: RecordRow) -> dict[str, Any]:
    kept = row.summary.get("deals")
    return {
        "id": row.id,
        "game": row.game,
        "players": row.players,
        "summary": _shown(row.summary),
        "record": json.loads(row.text),
        # a record stored before its deals were kept is verified as it is shown
        "deals": kept if kept is not None else verify(row.text),
    }


def _position(row: RecordRow, asked: str | None) -> dict[str, Any]:
    data = json.loads(row.text)
    plies = sum(len(r["moves"]) for r in data["rounds"])
    try:
        ply = max(0, min(int(asked if asked is not None else plies), plies))
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
