"""The pages: every address of the web client is its one page, its static files, and its
texts in either language. An address the club has none for is the page too, with a 404: the
page says "not found" in the player's language and offers the way back."""

from __future__ import annotations

from pathlib import Path

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from bazar import i18n

WEB = Path(__file__).resolve().parent.parent.parent / "web"


async def page(request: Request) -> Response:
    return FileResponse(WEB / "index.html")


async def not_found(request: Request, exc: Exception) -> Response:
    """The app's answer to a 404: the page, still saying 404, where a browser asked for an
    address the club has no route for; the API's and the files' addresses keep the plain
    answer."""
    assert isinstance(exc, HTTPException)
    path = request.url.path
    if request.method in ("GET", "HEAD") and not path.startswith(("/api/", "/static/", "/i18n/")):
        return FileResponse(WEB / "index.html", status_code=404)
    return PlainTextResponse(exc.detail, exc.status_code, headers=exc.headers)


async def texts(request: Request) -> Response:
    """The web page's texts in one language, from the catalogue (:func:`bazar.i18n.web`)."""
    lang = request.path_params["lang"]
    if lang not in i18n.LANGS:
        return PlainTextResponse(f"no texts in {lang!r}", 404)
    return JSONResponse(i18n.web(lang), headers={"Cache-Control": "public, max-age=3600"})


def routes() -> list[BaseRoute]:
    return [
        Route("/", page),
        Route("/table/{table_id}", page),
        Route("/tournaments", page),
        Route("/tournament/{tournament_id}", page),
        Route("/history", page),
        Route("/replay/{record_id}", page),
        Route("/profile/{name}", page),
        Route("/leaderboard", page),
        Route("/rules", page),
        Route("/rules/{game}", page),
        Mount("/static", StaticFiles(directory=WEB), name="static"),
        Route("/i18n/{lang}.json", texts),
    ]
