"""The session and the accounts: a guest, a registered player, logging in and out, a new
password."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.routing import BaseRoute, Route

from bazar.club import protocol

from .http import RouteGroup, address, api


class AccountRoutes(RouteGroup):
    """``/api/session``, ``/api/guest``, ``/api/register``, ``/api/login``, ``/api/logout``,
    ``/api/password``."""

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/session", api(self.session)),
            Route("/api/guest", api(self.guest), methods=["POST"]),
            Route("/api/register", api(self.register), methods=["POST"]),
            Route("/api/login", api(self.login), methods=["POST"]),
            Route("/api/logout", api(self.logout), methods=["POST"]),
            Route("/api/password", api(self.password), methods=["POST"]),
        ]

    async def session(self, request: Request) -> Any:
        return {"user": self.me(await self.user_of(request))}

    async def guest(self, request: Request) -> Any:
        data = await self.body(request, protocol.Guest)
        await self.club.admit_guest(address(request))
        user = await self.accounts.guest(data.name)
        await self.accounts.start(request.session, user)
        return {"user": self.me(user)}

    async def register(self, request: Request) -> Any:
        data = await self.body(request, protocol.Register)
        user = await self.accounts.register(data.name, data.password)
        await self.accounts.start(request.session, user)
        return {"user": self.me(user)}

    async def login(self, request: Request) -> Any:
        data = await self.body(request, protocol.Login)
        user = await self.accounts.login(data.name, data.password, address(request))
        await self.accounts.start(request.session, user)
        return {"user": self.me(user)}

    async def logout(self, request: Request) -> Any:
        await self.accounts.end(request.session)
        return {"user": None}

    async def password(self, request: Request) -> Any:
        """A new password: every session of the player ends, and this browser has a new one."""
        user = await self.need_user(request)
        data = await self.body(request, protocol.Password)
        await self.accounts.change_password(user, data.old, data.new, address(request))
        await self.accounts.start(request.session, user)
        return {"user": self.me(user)}
