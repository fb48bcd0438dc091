"""The boards are drawn large enough to read, in every family, at mid-round, on a desktop
(1280 x 800) and a phone (360 x 740): the table, the replay and the rules' diagrams. The
smallest half tile drawn on a board is at least :data:`U_MIN` px and the smallest word or
number at least :data:`FONT_MIN` px; a board that cannot fit its area at that size scrolls
within it, never the page sideways."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

import test_web_boards as boards  # noqa: E402
from test_web_boards import my_turn, open_table, upload  # noqa: E402

import bazar  # noqa: E402

#: the smallest half tile (u) a board may draw, in CSS px
U_MIN = 18
#: the smallest text a board may draw, in CSS px
FONT_MIN = 11

#: a game of each family (those tools/screenshots.py shows), its players and a mid-round ply
GAMES = {
    "kozel": (4, 12),
    "draw": (2, 15),
    "fives": (2, 10),
    "telephone": (4, 14),
    "mexican-train": (4, 60),
    "chicken-foot": (4, 33),
    "kolbasa": (2, 40),
    "texas-42": (4, 15),
    "poker": (4, 3),
}
VIEWPORTS = {"desktop": (1280, 800), "phone": (360, 740)}


#: the club and the browser of the boards' tests (fixtures)
server, browser = boards.server, boards.browser


def new_page(browser: Any, size: str, locale: str = "en-US") -> Any:
    width, height = VIEWPORTS[size]
    context = browser.new_context(
        viewport={"width": width, "height": height}, locale=locale, reduced_motion="reduce"
    )
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def match_at(game: str) -> tuple[bazar.Match, int]:
    players, plies = GAMES[game]
    match = bazar.Match(bazar.rules(game, players=players), seed=5)
    rng = random.Random(5)
    for _ in range(plies):
        assert not match.round.is_over(), f"{game}: the round ended before {plies} moves"
        match.round.push(rng.choice(match.round.legal_moves()))
    return match, plies


#: what a board draws, as it reaches the eye: the smallest half tile (its side times the
#: scale it is drawn at, so that a tile turned 45° counts as one lying straight) and the
#: smallest text, in CSS px
MEASURE = """(sel) => {
    const svg = document.querySelector(sel);
    const scale = (node) => { const m = node.getScreenCTM(); return Math.hypot(m.a, m.b); };
    const us = [...svg.querySelectorAll("g.tile rect.face")].map((r) =>
        Math.min(r.width.baseVal.value, r.height.baseVal.value) * scale(r));
    const fonts = [...svg.querySelectorAll("text")]
        .filter((n) => !n.classList.contains("digit") && n.textContent.trim()
            && getComputedStyle(n).display !== "none")
        .map((n) => ({ text: n.textContent,
            px: parseFloat(getComputedStyle(n).fontSize) * scale(n) }));
    fonts.sort((a, b) => a.px - b.px);
    const page = document.documentElement;
    return { u: Math.min(...us), tiles: us.length, font: fonts[0] || null,
        sideways: page.scrollWidth - page.clientWidth };
}"""


def check(drawn: dict[str, Any], where: str) -> None:
    assert drawn["tiles"] > 0, where
    # (less a rounding: the area's width is read in whole px)
    assert drawn["u"] >= U_MIN - 0.05, (where, drawn)
    if drawn["font"]:
        assert drawn["font"]["px"] >= FONT_MIN - 0.05, (where, drawn)
    assert drawn["sideways"] <= 0, (where, drawn)


@pytest.mark.parametrize("size", list(VIEWPORTS))
@pytest.mark.parametrize("game", list(GAMES))
def test_a_table_draws_its_mid_round_board_large_enough_to_read(
    server: str, browser: Any, game: str, size: str
) -> None:
    """The table's board at mid-round, drawn as the table draws it (drawBoard into the
    table's own svg, at the width and height of its area), once the seat is to move."""
    match, plies = match_at(game)
    record_id = upload(server, match)
    page = new_page(browser, size)
    try:
        views = open_table(page, server, game, GAMES[game][0])
        my_turn(page, views)
        drawn = page.evaluate(
            """async ([id, ply]) => {
            const { drawBoard } = await import("/static/board.js");
            const { boardWidth } = await import("/static/words.js");
            const pos = await fetch(`/api/records/${id}/position?ply=${ply}`).then((r) => r.json());
            const svg = document.querySelector("svg#board");
            const box = svg.parentElement;
            drawBoard(svg, pos.view, { width: boardWidth(box), height: box.clientHeight });
            return (MEASURE)("svg#board");
        }""".replace("MEASURE", MEASURE),
            [record_id, plies],
        )
        check(drawn, f"{game} table {size}")
        assert not page.errors
    finally:
        page.context.close()


@pytest.mark.parametrize("size", list(VIEWPORTS))
@pytest.mark.parametrize("game", list(GAMES))
def test_a_replay_draws_its_mid_round_board_large_enough_to_read(
    server: str, browser: Any, game: str, size: str
) -> None:
    match, plies = match_at(game)
    page = new_page(browser, size)
    try:
        page.goto(f"{server}/replay/{upload(server, match)}?ply={plies}")
        page.wait_for_selector(f".felt[data-ply='{plies}']")
        check(page.evaluate(f"({MEASURE})('svg#board')"), f"{game} replay {size}")
        assert not page.errors
    finally:
        page.context.close()


@pytest.mark.parametrize("size", list(VIEWPORTS))
@pytest.mark.parametrize("game", [g for g in GAMES if g != "poker"])
def test_a_rules_diagram_is_drawn_large_enough_to_read(
    server: str, browser: Any, game: str, size: str
) -> None:
    page = new_page(browser, size)
    try:
        page.goto(f"{server}/rules/{game}")
        page.wait_for_selector(".rules-diagram svg.board g.layout g.tile")
        check(page.evaluate(f"({MEASURE})('.rules-diagram svg.board')"), f"{game} rules {size}")
        assert not page.errors
    finally:
        page.context.close()
