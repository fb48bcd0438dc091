"""The rules of every game, for the web's rules pages: the families and their variants
(``/api/rules``), and one variant's how-to-play text, its options in words and a position
from a bots' game to draw (``/api/rules/{game}``)."""

from __future__ import annotations

import functools
from typing import Any

from markdown_it import MarkdownIt
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.routing import BaseRoute, Route

from bazar import bots, i18n
from bazar.club.errors import ServerError
from bazar.core.match import Match
from bazar.core.play import play
from bazar.core.rules import VARIANTS
from bazar.core.rules import rules as make_rules
from bazar.core.rules import variant as find_variant
from bazar.i18n import guide

from .http import api

#: the deal of every diagram: the same position each time a page is shown
SEED = 15

#: the texts are the package's own; raw HTML in them is not passed through
_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")


def routes() -> list[BaseRoute]:
    return [
        Route("/api/rules", api(index)),
        Route("/api/rules/{game}", api(game_rules)),
    ]


def _lang(request: Request) -> str:
    return "ru" if request.query_params.get("lang") == "ru" else "en"


async def index(request: Request) -> Any:
    """Every family, in the registry's order: its heading and its variants, named and
    described in the language asked."""
    lang = _lang(request)
    return {
        "families": [
            {
                "family": name,
                "heading": _heading(name, lang),
                "variants": [_variant(v, lang) for v in variants],
            }
            for name, variants in guide.families().items()
        ]
    }


async def game_rules(request: Request) -> Any:
    """One variant: its family's how-to-play text (HTML), its default rules in words and
    their capabilities, the other variants of its family, and a position from the middle of
    a bots' round."""
    asked = request.path_params["game"]
    try:
        name = find_variant(asked).name
    except ValueError:
        raise ServerError("unknown_game", 404, game=asked, games=", ".join(VARIANTS)) from None
    lang = _lang(request)
    rules = make_rules(name)
    family = guide.family(name)
    return {
        **_variant(name, lang),
        "family": family,
        "heading": _heading(family, lang),
        "html": _MARKDOWN.render(guide.how_to_play(name, lang)),
        "players_default": rules.players,
        "capabilities": rules.capabilities().to_json(),
        "options": [
            {"name": r.name, "meaning": r.meaning, "value": r.said, "by_players": r.by_players}
            for r in guide.option_rows(rules, lang)
        ],
        "siblings": [_variant(v, lang) for v in guide.families()[family] if v != name],
        "diagram": await run_in_threadpool(diagram, name),
    }


def _heading(family: str, lang: str) -> str:
    """A family's name: the first heading of its text."""
    first = guide.how_to_play(guide.families()[family][0], lang).splitlines()[0]
    return first.lstrip("# ").strip()


def _variant(name: str, lang: str) -> dict[str, Any]:
    low, high = find_variant(name).players
    return {
        "name": name,
        "title": i18n.title(name, lang),
        "description": i18n.description(name, lang),
        "players": [low, high],
    }


@functools.cache
def diagram(name: str) -> dict[str, Any]:
    """The spectators' view of the first round of a seeded game between greedy bots, two thirds
    through its moves: a real position of the game, the same every time."""
    rules = make_rules(name)
    seats = [bots.make("greedy", seed=SEED + s) for s in range(rules.players)]
    # the one seat loop plays the match; its first round is dealt again and played to there
    played = Match(rules, seed=SEED)
    play(played, seats)
    moves = played.rounds[0].moves
    shown = Match(rules, seed=SEED).round
    for move in moves[: max(1, len(moves) * 2 // 3)]:
        shown.push(move)
    return {
        "view": shown.view(None).to_json(),
        "moves": len(shown.moves),
        # a bots' game hides nothing: the page may show every hand
        "hands": [[str(t) for t in hand] for hand in shown.hands],
    }
