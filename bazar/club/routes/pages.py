"""The pages: every address of the web client is its one page, and its static files."""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

WEB = Path(__file__).resolve().parent.parent.parent / "web"


async def page(request: Request) -> Response:
    return FileResponse(WEB / "index.html")


def routes() -> list[BaseRoute]:
    return [
        Route("/", page),
        Route("/table/{table_id}", page),
        Route("/history", page),
        Route("/replay/{record_id}", page),
        Route("/profile/{name}", page),
        Route("/leaderboard", page),
        Mount("/static", StaticFiles(directory=WEB), name="static"),
    ]
