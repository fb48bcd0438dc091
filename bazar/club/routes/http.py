"""What every group of routes shares: the club's services, who is asking, and a request's
body read within its limit."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.websockets import WebSocket

from bazar.club import auth, protocol
from bazar.club.club import Club
from bazar.club.errors import ServerError, refusal_code
from bazar.club.guard import refusal
from bazar.club.protocol import B
from bazar.club.routing import Windows
from bazar.club.settings import Settings
from bazar.club.storage import Stores, User


@dataclass(frozen=True)
class Services:
    """What the routes act on: the live tables, the database, the accounts, the limits."""

    club: Club
    storage: Stores
    accounts: auth.Accounts
    settings: Settings

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        """The club resumes its tables when the app starts, and closes when it stops."""
        await self.club.start()
        if self.club.router is not None:
            # the wrong passwords are counted by every process alike
            settings = self.settings
            self.accounts.shared = Windows(
                self.club.router.bus.redis, "logins", settings.login_tries, settings.login_window_s
            )
        yield
        await self.club.close()
        self.accounts.close()
        self.storage.close()


class RouteGroup:
    """A group of routes on the club's services, with the helpers its handlers share."""

    def __init__(self, services: Services) -> None:
        self.club = services.club
        self.storage = services.storage
        self.accounts = services.accounts
        self.settings = services.settings

    async def user_of(self, request: Request | WebSocket) -> User | None:
        """The player whose session this is, or None."""
        return await self.accounts.current(request.session)

    def me(self, user: User | None) -> dict[str, Any] | None:
        """A player as the API shows him to himself (his Kozel points read with him)."""
        if user is None:
            return None
        return {
            "id": user.id,
            "name": user.name,
            "guest": user.guest,
            "kozel_rating": self.storage.ratings.points(user.id),
        }

    async def need_user(self, request: Request) -> User:
        """The player whose session this is; refused (401) without one."""
        user = await self.user_of(request)
        if user is None:
            raise ServerError("login_first", 401)
        return user

    async def body(self, request: Request, model: type[B]) -> B:
        """The request's JSON body, read within the club's limit, as ``model``."""
        raw = await received(request, self.settings.max_body, refusal_code("too_large"))
        return protocol.read(model, raw, move_times=self.settings.move_times)


def api(handler: Callable[[Request], Awaitable[Any]]) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint of the JSON API: what ``handler`` returns as JSON, a refusal as its code."""

    async def endpoint(request: Request) -> Response:
        try:
            result = await handler(request)
        except ServerError as error:
            return refusal(error)
        return result if isinstance(result, Response) else JSONResponse(result)

    return endpoint


def address(request: Request) -> str:
    """The client's address, or "?"."""
    return request.client.host if request.client is not None else "?"


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
