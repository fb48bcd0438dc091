"""Every family's board drawn in SVG, in a real browser: headless Chromium (Debian's, launched
by path) driven by Playwright. The replay page draws known positions of stored matches, with
every hand; the table page draws the live board against bots and lights up the ends a tile
fits."""

from __future__ import annotations

import itertools
import json
import math
import random
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")


from server_helpers import served  # noqa: E402

import bazar  # noqa: E402
from bazar.club import create_app  # noqa: E402
from bazar.club.settings import Settings  # noqa: E402
from bazar.core import record  # noqa: E402
from bazar.core.board import Board  # noqa: E402

ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

#: a game of each family, and how many moves into its first round the replay is looked at
FAMILIES = {
    "line": ("kozel", 9),
    "cross": ("fives", 14),
    "trains": ("mexican-train", 16),
    "tree": ("chicken-foot", 20),
    "kolbasa": ("kolbasa", 12),
    "poker": ("poker", 2),
    "trick": ("texas-42", 11),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("club") / "club.sqlite3"
    # one browser makes a guest and a table for each board: no quota of a public club; the
    # boards are looked at mid-round, no table waits between rounds
    roomy = Settings(guests_per_address=10_000, open_tables_per_user=10_000, round_pause_s=0)
    app = create_app(f"sqlite:///{db}", secret="boards", bot_delay=0.01, settings=roomy)
    with served(app) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page; the test fails on any script error or console error it reports."""
    # reduced motion: the last tile does not slide in, so its box is where it lies
    context = browser.new_context(
        viewport={"width": 900, "height": 900}, locale="en-US", reduced_motion="reduce"
    )
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on(
        "console",
        lambda m: (
            m.type == "error"
            and "favicon" not in m.location.get("url", "")
            and page.errors.append(m.text)
        ),
    )
    yield page
    errors = page.errors
    context.close()
    assert not errors


def laid(board: dict[str, Any]) -> int:
    """How many tiles a view's board (its JSON form) holds, whatever its kind."""
    return len(Board.from_json(board).tiles())


def played(game: str, plies: int, seed: int = 5) -> bazar.Match:
    """A match of ``game`` whose first round has had ``plies`` random moves (fixed seeds)."""
    match = bazar.Match(bazar.rules(game), seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        assert not match.round.is_over(), f"{game}: the round ended before {plies} moves"
        match.round.push(rng.choice(match.round.legal_moves()))
    return match


def upload(server: str, match: bazar.Match) -> str:
    request = urllib.request.Request(
        server + "/api/records",
        data=record.dumps(match).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request) as response:
        return str(json.loads(response.read())["id"])


def face(page: Any, tile: str) -> dict[str, float]:
    """The box of a laid tile's face on the page (without the last move's outline)."""
    box = page.locator(f"svg#board g.layout g.tile[data-tile='{tile}'] rect.face").bounding_box()
    assert box is not None, f"{tile} is not on the board"
    return {"x": box["x"], "y": box["y"], "w": box["width"], "h": box["height"]}


def tiles_in(page: Any, part: str) -> int:
    return int(page.locator(f"svg#board g.{part} g.tile").count())


@pytest.mark.parametrize("family", list(FAMILIES))
def test_the_replay_draws_the_board_and_every_hand(server: str, page: Any, family: str) -> None:
    game, plies = FAMILIES[family]
    match = played(game, plies)
    rnd = match.round
    board = match.view(None).to_json()["board"]
    hands = sum(len(h) for h in rnd.hands)
    record_id = upload(server, match)
    page.goto(f"{server}/replay/{record_id}?ply={plies}")
    page.wait_for_selector(f".felt[data-ply='{plies}']")
    assert page.locator("svg#board").get_attribute("data-kind") == board["kind"] == family
    assert tiles_in(page, "layout") == laid(board)
    assert tiles_in(page, "seats") == hands
    assert page.locator("svg#board g.seats g.tile.back").count() == 0
    # a step back shows the position before the last move
    page.click("#replay-prev")
    page.wait_for_selector(f".felt[data-ply='{plies - 1}']")
    before = played(game, plies - 1)
    assert tiles_in(page, "layout") == laid(before.view(None).to_json()["board"])
    # the keys step too: right comes back, Home goes to the start
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(f".felt[data-ply='{plies}']")
    page.keyboard.press("Home")
    page.wait_for_selector(".felt[data-ply='0']")


def test_a_cross_shows_the_spinner_across_and_its_arms(server: str, page: Any) -> None:
    rnd = bazar.Round(
        bazar.rules("domino-five"),
        hands=[["5-5", "3-5", "6-1", "2-2"], ["5-0", "0-2", "5-1", "4-4"]],
        bazar=[],
        leader=0,
    )
    match = bazar.Match(bazar.rules("domino-five"), seed=1)
    data = json.loads(record.dumps(match))
    data.pop("seed", None)  # a deal of our own, not the seed's
    moves = ["5-5", "5-0:L", "3-5:R", "0-2:L", "2-2:L", "5-1:S"]
    match = record.from_data(
        {**data, "rounds": [{"number": 1, "deal": rnd.deal(), "moves": moves}]}
    )
    board = match.view(None).to_json()["board"]
    assert board == {
        "kind": "cross",
        "line": ["2|2", "2|0", "0|5", "5|5", "5|3"],
        "spinner": 5,
        "U": ["5|1"],
        "D": [],
        "closed": [],
    }
    page.goto(f"{server}/replay/{upload(server, match)}?ply=6")
    page.wait_for_selector(".felt[data-ply='6']")
    spinner, up, left = (face(page, tile) for tile in ("5|5", "5|1", "0|5"))
    assert spinner["h"] > spinner["w"]  # the spinner lies across the line
    assert up["y"] + up["h"] <= spinner["y"] + 1 and up["h"] > up["w"]
    assert left["x"] + left["w"] <= spinner["x"] + 1


def test_a_closed_double_lies_face_down_and_an_open_one_face_up(server: str, page: Any) -> None:
    rules = bazar.rules("osel", players=2)
    rnd = bazar.Round(rules, hands=[["5-2", "1-0", "2-3"], ["2-2", "5-5", "4-3"]], leader=0)
    match = bazar.Match(rules, seed=1)
    data = json.loads(record.dumps(match))
    data.pop("seed", None)  # a deal of our own, not the seed's
    moves = ["5-2", "close 5-5:L", "2-2:R"]
    match = record.from_data(
        {**data, "rounds": [{"number": 1, "deal": rnd.deal(), "moves": moves}]}
    )
    board = match.view(None).to_json()["board"]
    assert board["line"] == ["5|5", "5|2", "2|2"] and board["closed"] == ["5-5"]
    page.goto(f"{server}/replay/{upload(server, match)}?ply=3")
    page.wait_for_selector(".felt[data-ply='3']")
    closed = page.locator("svg#board g.layout g.tile.closed")
    assert closed.count() == 1 and closed.get_attribute("data-tile") == "#5|5#"
    assert page.locator("svg#board g.layout g.tile[data-tile='2|2']").count() == 1


def phone(browser: Any, locale: str = "ru-RU") -> Any:
    """A page the size of a phone (360 x 740) that fails the test on any script error."""
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, locale=locale, reduced_motion="reduce"
    )
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def faces(page: Any) -> list[dict[str, Any]]:
    """Every tile laid on the board: its text and the box of its face on the page."""
    return list(
        page.evaluate(
            """() => [...document.querySelectorAll("svg#board g.layout g.tile")].map((g) => {
            const r = g.querySelector("rect.face").getBoundingClientRect();
            return { tile: g.dataset.tile, x: r.x, y: r.y, w: r.width, h: r.height };
        })"""
        )
    )


def overlap(a: dict[str, Any], b: dict[str, Any]) -> float:
    """The area two boxes share."""
    w = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
    h = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
    return max(0.0, w) * max(0.0, h)


def is_double(text: str) -> bool:
    a, b = text.strip("#").split("|")
    return a == b


@pytest.mark.parametrize("family", list(FAMILIES))
def test_a_phone_never_scrolls_sideways(server: str, browser: Any, family: str) -> None:
    """At 360 px every family's board is drawn within the page: it shrinks, never scrolls
    the page sideways (a board whose tiles would shrink below 18 px pans in its own area)."""
    game, plies = FAMILIES[family]
    page = phone(browser)
    try:
        page.goto(f"{server}/replay/{upload(server, played(game, plies))}?ply={plies}")
        page.wait_for_selector(f".felt[data-ply='{plies}']")
        width = page.evaluate("document.documentElement.clientWidth")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        area = page.locator(".board-wrap").bounding_box()
        assert area["x"] >= 0 and area["x"] + area["width"] <= width
        board = page.locator("svg#board").bounding_box()
        if board["width"] > area["width"] + 0.5:
            assert min(min(f["w"], f["h"]) for f in faces(page)) < 18.05
            assert page.evaluate(
                "(e) => e.scrollWidth > e.clientWidth", page.query_selector(".board-wrap")
            )
        else:
            assert board["x"] >= 0 and board["x"] + board["width"] <= width
        for f in faces(page):
            assert board["x"] <= f["x"] and f["x"] + f["w"] <= board["x"] + board["width"] + 0.5
        assert not page.errors
    finally:
        page.context.close()


def test_a_long_line_snakes_round_the_edges_of_a_phone(server: str, browser: Any) -> None:
    """22 tiles of Kozel at 360 px: the line turns at the margins (a corner tile stands),
    every double lies across it, no two tiles overlap, and it all fits the width."""
    match = played("kozel", 24, seed=1)
    line = match.view(None).to_json()["board"]["line"]
    assert len(line) >= 20
    page = phone(browser, "en-US")
    try:
        page.goto(f"{server}/replay/{upload(server, match)}?ply=24")
        page.wait_for_selector(".felt[data-ply='24']")
        laid = faces(page)
        assert sorted(f["tile"] for f in laid) == sorted(line)
        board = page.locator("svg#board").bounding_box()
        assert board["width"] <= 360
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        for f in laid:
            assert board["x"] <= f["x"] and f["x"] + f["w"] <= board["x"] + board["width"] + 0.5
        # doubles stand across the line; a tile that is no double and stands is a corner
        doubles = [f for f in laid if is_double(f["tile"])]
        assert doubles and all(f["h"] > f["w"] for f in doubles)
        corners = [f for f in laid if not is_double(f["tile"]) and f["h"] > f["w"]]
        assert len(corners) >= 2
        rows = {round(f["y"] + f["h"] / 2) for f in laid if f["w"] > f["h"]}
        assert len(rows) >= 3
        for i, a in enumerate(laid):
            for b in laid[i + 1 :]:
                assert overlap(a, b) < 1, (a, b)
        # neighbours in the line touch: each tile's face is next to the one before it
        by_tile = {f["tile"]: f for f in laid}
        for a, b in itertools.pairwise(line):
            fa, fb = by_tile[a], by_tile[b]
            gap_x = max(fa["x"], fb["x"]) - min(fa["x"] + fa["w"], fb["x"] + fb["w"])
            gap_y = max(fa["y"], fb["y"]) - min(fa["y"] + fa["h"], fb["y"] + fb["h"])
            assert max(gap_x, gap_y) < 4, (a, b)
        assert not page.errors
    finally:
        page.context.close()


def halves(tile: str) -> tuple[int, int]:
    """The numbers of a tile as the board writes it ("12|4", the engine "12-12")."""
    a, b = tile.replace("-", "|").split("|")
    return int(a), int(b)


def test_a_board_fits_the_width_and_height_it_is_given(server: str, page: Any) -> None:
    """drawBoard(svg, view, {width, height}): the 22-tile line shrinks to fit a box a phone
    gives it (never wider, never taller), and grows where it is given room."""
    match = played("kozel", 24, seed=1)
    record_id = upload(server, match)
    page.goto(f"{server}/replay/{record_id}?ply=24")
    page.wait_for_selector(".felt[data-ply='24']")
    drawn = page.evaluate(
        """async (id) => {
        const { drawBoard } = await import("/static/board.js");
        const pos = await fetch(`/api/records/${id}/position?ply=24`).then((r) => r.json());
        const out = [];
        for (const [width, height] of [[320, 260], [320, 600], [1000, 400]]) {
            const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
            svg.setAttribute("class", "board");
            svg.style.width = `${width}px`;
            document.body.append(svg);
            drawBoard(svg, pos.view, { width, height });
            const frame = svg.getBoundingClientRect();
            const box = svg.querySelector("g.layout").getBoundingClientRect();
            const face = svg.querySelector("g.layout rect.face");
            const u = Math.min(...["width", "height"].map((k) => Number(face.getAttribute(k))));
            const vb = svg.viewBox.baseVal;
            out.push({ width, height, vb: [vb.width, vb.height], u,
                left: box.left - frame.left, top: box.top - frame.top,
                right: box.right - frame.left, bottom: box.bottom - frame.top });
            svg.remove();
        }
        return out;
    }""",
        record_id,
    )
    for d in drawn:
        assert d["vb"] == [d["width"], d["height"]], d
        assert d["left"] >= 0 and d["right"] <= d["width"] and d["top"] >= 0, d
        assert d["bottom"] <= d["height"], d
        assert 14 <= d["u"] <= 40, d
    small, tall, wide = drawn
    assert tall["u"] > small["u"] and wide["u"] > small["u"]


def test_no_two_tiles_overlap_whatever_the_board_and_its_size(server: str, page: Any) -> None:
    """Lines, crosses, sausages, trains and trees from random play, drawn at phone and desktop
    sizes, with and without a height: every tile inside the board, none over another (a
    tile turned 45° by its corners), and the board no wider than it was given unless its
    tiles are at their smallest."""
    views = []
    for game in ("kozel", "fives", "telephone", "osel", "kolbasa", "mexican-train", "chicken-foot"):
        for seed in range(1, 4):
            match = bazar.Match(bazar.rules(game), seed=seed)
            rng = random.Random(seed)
            for ply in range(1, 120):
                if match.round.is_over():
                    break
                match.round.push(rng.choice(match.round.legal_moves()))
                if ply % 4 == 0 and not match.round.is_over():
                    views.append(match.view(None).to_json())
    page.goto(server + "/history")
    bad = page.evaluate(
        """async (views) => {
        const { drawBoard } = await import("/static/board.js");
        const bad = [];
        for (const view of views) for (const [width, height] of [[300, null], [320, 500],
            [360, 300], [720, null], [720, 400]]) {
            const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
            svg.style.width = `${width}px`;
            document.body.append(svg);
            drawBoard(svg, view, { width, height, last: null });
            const frame = svg.getBoundingClientRect();
            // a board is drawn wider than it was given (its area pans) only where its tiles
            // would otherwise shrink below 18 px, which a tree's branches, going every way,
            // or a long cross in a narrow area may need
            const u = Math.min(...[...svg.querySelectorAll("g.layout rect.face")]
                .map((r) => Math.min(r.width.baseVal.value, r.height.baseVal.value)));
            const where = `${view.rules.name} ${width}x${height}`;
            if (frame.width > width + 0.5 && u > 18.01) bad.push(`wider ${where}`);
            // each face's corners on the page (a Chicken Foot toe lies at 45°)
            const quads = [...svg.querySelectorAll("g.layout rect.face")].map((r) => {
                const m = r.getScreenCTM();
                const [x, y, w, h] = ["x", "y", "width", "height"].map((k) => r[k].baseVal.value);
                return [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]
                    .map(([px, py]) => [m.a * px + m.c * py + m.e, m.b * px + m.d * py + m.f]);
            });
            // two convex quads overlap (by more than half a px) unless some edge's normal
            // separates them
            const apart = (p, q) => [p, q].some((poly) => poly.some(([x0, y0], k) => {
                const [x1, y1] = poly[(k + 1) % 4];
                const n = [y0 - y1, x1 - x0], len = Math.hypot(...n);
                const on = (pts) => pts.map(([x, y]) => (x * n[0] + y * n[1]) / len);
                const a = on(p), b = on(q);
                const shared = Math.min(Math.max(...a), Math.max(...b))
                    - Math.max(Math.min(...a), Math.min(...b));
                return shared < 0.5;
            }));
            for (const [i, a] of quads.entries()) {
                const out = a.some(([x]) => x < frame.left - 0.5 || x > frame.right + 0.5);
                if (out) bad.push(`wide ${where}`);
                for (const b of quads.slice(i + 1)) {
                    if (!apart(a, b)) bad.push(`${where} ${view.board.kind}`);
                }
            }
            svg.remove();
        }
        return bad;
    }""",
        views,
    )
    assert len(views) > 100 and not bad, bad[:10]


def pips_of(page: Any) -> list[dict[str, Any]]:
    """Each laid tile face up: its text, how many pips and how many numerals it shows."""
    return list(
        page.evaluate(
            """() => [...document.querySelectorAll("svg#board g.layout g.tile:not(.closed)")]
            .map((g) => ({ tile: g.dataset.tile, pips: g.querySelectorAll("circle.pip").length,
                digits: [...g.querySelectorAll("text.digit")].map((t) => t.textContent) }))"""
        )
    )


def test_tiles_past_six_show_pips_and_numerals_only_when_asked(server: str, page: Any) -> None:
    """Double-12 tiles carry as many pips as their number (the 3x4 grid for 10 to 12);
    the player who asks for numerals (localStorage "bazar.digits") gets them instead."""
    match = played("mexican-train", 16)
    page.goto(f"{server}/replay/{upload(server, match)}?ply=16")
    page.wait_for_selector(".felt[data-ply='16']")
    tiles = pips_of(page)
    high = [t for t in tiles if max(halves(t["tile"])) > 6]
    assert high, tiles
    for t in tiles:
        a, b = halves(t["tile"])
        assert t["pips"] == a + b and not t["digits"], t
    page.evaluate("localStorage.setItem('bazar.digits', '1')")
    page.reload()
    page.wait_for_selector(".felt[data-ply='16']")
    for t in pips_of(page):
        a, b = halves(t["tile"])
        # a blank half says 0 too
        assert t["pips"] == 0 and t["digits"] == [str(a), str(b)], t


def test_the_cross_grows_four_arms_from_its_spinner_and_counts_its_ends(
    server: str, page: Any
) -> None:
    """A Fives cross with every arm laid: the spinner stands in the middle, the line's arms
    left and right of it, U above and D below; under it the count the game scores."""
    match = played("fives", 12, seed=2)
    board = match.view(None).to_json()["board"]
    spinner = f"{board['spinner']}|{board['spinner']}"
    centre = board["line"].index(spinner)
    assert 0 < centre < len(board["line"]) - 1 and board["U"] and board["D"]
    page.goto(f"{server}/replay/{upload(server, match)}?ply=12")
    page.wait_for_selector(".felt[data-ply='12']")
    s = face(page, spinner)
    assert s["h"] > s["w"]
    left, right = face(page, board["line"][centre - 1]), face(page, board["line"][centre + 1])
    up, down = face(page, board["U"][0]), face(page, board["D"][0])
    assert left["x"] + left["w"] <= s["x"] + 1 and right["x"] >= s["x"] + s["w"] - 1
    assert up["y"] + up["h"] <= s["y"] + 1 and down["y"] >= s["y"] + s["h"] - 1
    laid = faces(page)
    for i, a in enumerate(laid):
        for b in laid[i + 1 :]:
            assert overlap(a, b) < 1, (a, b)
    count = page.locator("#ends-count").text_content() or ""
    assert count.endswith(f"= {match.round.count()}"), count


def test_the_count_under_a_cross_is_the_one_the_game_scores(server: str, page: Any) -> None:
    """Fives, Muggins and Telephone from random play: the sum of the ends written under the
    board is the engine's count (a double at an end counting both halves, a spinner with at
    most one covered arm both its halves)."""
    cases = []
    for game in ("fives", "muggins", "telephone"):
        for seed in range(1, 6):
            match = bazar.Match(bazar.rules(game), seed=seed)
            rng = random.Random(seed)
            while not match.round.is_over() and len(match.round.history()) < 60:
                match.round.push(rng.choice(match.round.legal_moves()))
                if not match.round.is_over():
                    cases.append([match.view(None).to_json(), match.round.count()])
    page.goto(server + "/history")
    written = page.evaluate(
        """async (cases) => {
        const { drawBoard } = await import("/static/board.js");
        const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
        document.body.append(svg);
        return cases.map(([view]) => {
            drawBoard(svg, view, { width: 500 });
            const text = svg.querySelector("#ends-count")?.textContent;
            return text === undefined ? null : Number(text.split("= ")[1]);
        });
    }""",
        cases,
    )
    assert len(cases) > 100
    assert written == [count for _, count in cases]


def test_points_scored_by_a_move_rise_from_its_tile(server: str, page: Any) -> None:
    """Fives: the move that makes the ends count 5 shows "+5" over the tile it laid; the
    next move, which scores nothing, shows none."""
    match = played("fives", 4, seed=2)
    assert [list(e) for e in match.view(None).to_json()["extra"]["scoring"]] == [[1, 5]]
    page.goto(f"{server}/replay/{upload(server, match)}?ply=2")
    page.wait_for_selector(".felt[data-ply='2']")
    assert page.locator("svg#board #gain").count() == 0
    page.click("#replay-next")
    page.wait_for_selector(".felt[data-ply='3']")
    assert page.locator("svg#board #gain").text_content() == "+5"
    page.click("#replay-next")
    page.wait_for_selector(".felt[data-ply='4']")
    assert page.locator("svg#board #gain").count() == 0


def centre(box: dict[str, float]) -> tuple[float, float]:
    return (box["x"] + box["w"] / 2, box["y"] + box["h"] / 2)


def bearing(origin: tuple[float, float], to: tuple[float, float]) -> float:
    """The direction from one point of the page to another, in degrees (0 east, 90 south)."""
    return math.degrees(math.atan2(to[1] - origin[1], to[0] - origin[0])) % 360


def apart(a: float, b: float) -> float:
    """How far two directions are apart, in degrees (0 to 180)."""
    return abs((a - b + 180) % 360 - 180)


def branch_tiles(page: Any, branch: str) -> list[dict[str, float]]:
    """The faces of a Chicken Foot branch's tiles, from the one nearest its start."""
    return list(
        page.evaluate(
            """(id) => [...document.querySelectorAll(
                `svg#board g.branch[data-end="${id}"] g.tile rect.face`)].map((r) => {
                const b = r.getBoundingClientRect();
                return { x: b.x, y: b.y, w: b.width, h: b.height };
            })""",
            branch,
        )
    )


def test_chicken_foot_is_drawn_as_laid_from_its_engine(server: str, page: Any) -> None:
    """Mid-round, 4 players: the engine in the middle, its four arms going out from it in
    four directions (east, west, north and south of it), each double's three toes fanning
    from it each its own way, never rows of a list; the branches named in words for a
    screen reader ("branch 2", "6|6 · toe 1"), none by its id ("2.1")."""
    match = bazar.Match(bazar.rules("chicken-foot", players=4), seed=5)
    rng = random.Random(5)
    for _ in range(33):
        match.round.push(rng.choice(match.round.legal_moves()))
    branches = match.view(None).to_json()["board"]["branches"]
    assert branches["2"][-1] == "6|6" and {"2.1", "2.2", "2.3"} <= set(branches)
    page.goto(f"{server}/replay/{upload(server, match)}?ply=33")
    page.wait_for_selector(".felt[data-ply='33']")
    engine = centre(face(page, "9-9"))
    arms = [bearing(engine, centre(branch_tiles(page, str(k))[0])) for k in (1, 2, 3, 4)]
    for i, a in enumerate(arms):
        for b in arms[i + 1 :]:
            assert apart(a, b) >= 80, arms  # four ways out of the engine
    # an arm each side of the engine, one above and one under it
    assert sorted(round(a / 90) % 4 for a in arms) == [0, 1, 2, 3], arms
    # the toes of 6|6 fan from it: each starts by it and goes its own way (a chain that meets
    # the margin of the board turns there, so the angles are not always 45° apart)
    six = face(page, "6|6")
    double, u = centre(six), min(six["w"], six["h"])
    firsts = [centre(branch_tiles(page, f"2.{k}")[0]) for k in (1, 2, 3)]
    assert all(math.dist(double, f) < 4.5 * u for f in firsts), (double, firsts, u)
    toes = [bearing(double, f) for f in firsts]
    assert min(apart(a, b) for a, b in itertools.combinations(toes, 2)) >= 30, toes
    # not rows of a list: the three toes do not lie one under another
    assert len({round(f[0] / u) for f in firsts}) > 1 and len({round(f[1] / u) for f in firsts}) > 1
    # the words stay: each branch a group named for a screen reader, no raw path shown
    labels = page.locator("svg#board g.branch").evaluate_all(
        "(gs) => gs.map((g) => g.getAttribute('aria-label'))"
    )
    assert "branch 2" in labels and "6|6 · toe 1" in labels, labels
    assert not any(label.strip() in ("1", "2.1", "2", "3", "4") for label in labels)
    assert page.locator("svg#board g.lane").count() == 0


def test_a_new_chicken_foot_shows_three_toe_slots_fanning_from_its_double(
    server: str, page: Any
) -> None:
    """A double just laid on a branch shows a slot for each of its three toes, straight on
    and at 45° either side; its first toe, once played, takes the straight one."""
    match = played("chicken-foot", 10, seed=1)
    assert match.view(None).to_json()["board"]["branches"]["1"][-1] == "4|4"
    page.goto(f"{server}/replay/{upload(server, match)}?ply=10")
    page.wait_for_selector(".felt[data-ply='10']")
    double = centre(face(page, "4|4"))
    engine = centre(face(page, match.view(None).to_json()["board"]["engine"]))
    arm = bearing(engine, double)
    slots = page.locator("svg#board g.branch[data-end='1'] g.toe circle")
    assert slots.count() == 3
    turns = set()
    for i in range(3):
        box = slots.nth(i).bounding_box()
        way = bearing(double, (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2))
        turns.add(round(((way - arm + 180) % 360 - 180) / 45))
    assert turns == {-1, 0, 1}
    page.goto(f"{server}/replay/{upload(server, played('chicken-foot', 13, seed=1))}?ply=13")
    page.wait_for_selector(".felt[data-ply='13']")
    assert page.locator("svg#board g.branch[data-end='1'] g.toe").count() == 2
    assert page.locator("svg#board g.branch[data-end='1.1'] g.tile").count() == 1
    labels = page.locator("svg#board g.branch").evaluate_all(
        "(gs) => gs.map((g) => g.getAttribute('aria-label'))"
    )
    assert "4|4 · toe 1" in labels and "branch 1" in labels


def test_a_double_left_open_glows_and_a_banner_says_to_cover_it(server: str, page: Any) -> None:
    """Mexican Train: a double that must be covered first glows amber at the end of its
    train, and a banner over the trains says which."""
    match = played("mexican-train", 21, seed=1)
    view = match.view(None).to_json()
    assert view["extra"]["unsatisfied"] == ["M"] and view["board"]["trains"]["M"][-1] == "11|11"
    page.goto(f"{server}/replay/{upload(server, match)}?ply=21")
    page.wait_for_selector(".felt[data-ply='21']")
    assert page.locator("svg#board #banner").text_content() == "Cover 11|11 first"
    glowing = page.locator("svg#board g.tile.unsatisfied")
    assert glowing.count() == 1 and glowing.get_attribute("data-tile") == "11|11"
    assert page.locator("svg#board g.lane[data-end='M'] g.tile.unsatisfied").count() == 1
    # the Mexican train is open to all: its lane carries the train's icon
    assert page.locator("svg#board g.lane[data-end='M'] g.train-icon").count() == 1


def test_the_last_move_s_tile_is_outlined(server: str, page: Any) -> None:
    """The tile the last move laid keeps an outline; a step back moves it to the one before."""
    match = played("kozel", 9)
    moves = [str(m) for _, m, _ in match.round.history()]
    page.goto(f"{server}/replay/{upload(server, match)}?ply=9")
    page.wait_for_selector(".felt[data-ply='9']")
    for ply in (9, 8):
        page.wait_for_selector(f".felt[data-ply='{ply}']")
        laid = [m.split(":")[0] for m in moves[:ply] if m not in ("draw", "pass")]
        marked = page.locator("svg#board g.tile.last")
        assert marked.count() == 1 and marked.locator("rect.outline").count() == 1
        a, b = marked.get_attribute("data-tile").split("|")
        assert {laid[-1], laid[-1][::-1]} & {f"{a}-{b}"}
        page.click("#replay-prev")


# ---- live tables against bots ------------------------------------------------------------


def open_table(page: Any, server: str, game: str, players: int) -> list[dict[str, Any]]:
    """Seat a guest at a new table of ``game`` with random bots; return the views it gets
    (each with the version of the message that brought it, as ``"v"``)."""
    views: list[dict[str, Any]] = []

    def frame(payload: Any) -> None:
        data = json.loads(payload)
        if data.get("view") and "v" in data:
            views.append({**data["view"], "v": data["v"]})

    page.on("websocket", lambda ws: ws.on("framereceived", frame))
    page.goto(server + "/history")
    made = page.evaluate(
        """async ([game, players]) => {
        const post = (path, body) => fetch(path, { method: "POST",
            headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
            .then((r) => r.json());
        await post("/api/guest", { name: "Masha" });
        return post("/api/tables", { game, players, bots: "random", move_time_s: 60 });
    }""",
        [game, players],
    )
    page.goto(f"{server}/table/{made['table']['id']}")
    return views


def my_turn(page: Any, views: list[dict[str, Any]]) -> dict[str, Any]:
    """Wait until the seat is to move and the page has drawn that view."""
    deadline = time.monotonic() + 20
    while True:
        assert time.monotonic() < deadline, "the seat was never to move"
        view = views[-1] if views else None
        if view and view["legal"] and view["turn"] == view["seat"]:
            # the page has drawn this version, and nothing newer came meanwhile
            page.wait_for_function(
                "(v) => Number(document.querySelector('.felt')?.dataset.v) >= v", arg=view["v"]
            )
            if views[-1] is view:
                return view
        page.wait_for_timeout(50)


@pytest.mark.parametrize(
    ("game", "players"),
    [
        ("fives", 2),
        ("mexican-train", 4),
        ("chicken-foot", 4),
        ("kolbasa", 2),
        ("poker", 4),
        ("texas-42", 4),
        ("kozel", 4),
    ],
)
def test_the_table_draws_the_live_board(server: str, page: Any, game: str, players: int) -> None:
    views = open_table(page, server, game, players)
    view = my_turn(page, views)
    assert tiles_in(page, "layout") == laid(view["board"])
    seat, sizes = view["seat"], view["hand_sizes"]
    hidden = [n for s, n in enumerate(sizes) if s != seat or view["hand"] is None]
    if game in ("kolbasa", "poker", "texas-42"):
        # the other seats' tiles lie face down (the mover's front tile in Kolbasa is turned over)
        front = 1 if game == "kolbasa" and view["extra"]["front"] else 0
        if game == "kolbasa":
            # a face-down Kolbasa row is a stack that says how many tiles it holds
            counts = page.locator("svg#board g.seats g.stack").evaluate_all(
                "(stacks) => stacks.map((s) => Number(s.dataset.count))"
            )
            assert sum(counts) == sum(hidden) - front
        else:
            assert page.locator("svg#board g.seats g.tile.back").count() == sum(hidden)
        # and it is there, not in a hand, that the Kolbasa player picks it
        picks = 1 if front and any(m != "pass" for m in view["legal"]) else 0
        assert page.locator("svg#board g.seats g.tile.playable").count() == picks
    else:
        assert page.locator("svg#board g.seats").count() == 0
    assert page.locator("#hand button.tile").count() == len(view["hand"] or [])


@pytest.mark.parametrize("game", ["mexican-train", "chicken-foot", "fives"])
def test_a_chosen_tile_lights_up_the_ends_it_fits(server: str, page: Any, game: str) -> None:
    views = open_table(page, server, game, 4 if game != "fives" else 2)
    deadline = time.monotonic() + 30
    while True:
        assert time.monotonic() < deadline, "no tile fitting two ends came to the hand"
        view = my_turn(page, views)
        by_tile: dict[str, list[str]] = {}
        for move in view["legal"]:
            if ":" in move:
                by_tile.setdefault(move.split(":")[0], []).append(move)
        many = [t for t, moves in by_tile.items() if len(moves) > 1]
        if many:
            break
        page.locator("#hand button.tile.playable, .actions button").first.click()
        page.wait_for_timeout(150)
    tile = many[0]
    page.click(f"#hand button.tile[data-tile='{tile}']")
    ends = page.locator("svg#board g.end")
    assert ends.count() == len(by_tile[tile])
    # each socket shows the number it needs and takes a tap 44 px across
    for i in range(ends.count()):
        end = ends.nth(i)
        assert end.locator("text").first.text_content() == str(
            view["ends"][end.get_attribute("data-end")]
        )
        hit = end.locator("circle.hit").bounding_box()
        assert hit["width"] >= 43.5 and hit["height"] >= 43.5
    if game == "mexican-train":  # a train's lane lights up; a tree's branches have sockets
        assert page.locator("svg#board g.lane.target").count() == len(by_tile[tile])
    count = len(views)
    if game == "chicken-foot":
        # a socket is a button for the keyboard too: Tab to it, Enter plays
        needed = view["ends"][ends.first.get_attribute("data-end")]
        assert ends.first.get_attribute("tabindex") == "0"
        # the table names it by the whole move ("7-4 → branch 1 (4)"), the number it needs last
        assert ends.first.get_attribute("aria-label").endswith(f"({needed})")
        ends.first.focus()
        page.keyboard.press("Enter")
    else:
        ends.first.click()
    deadline = time.monotonic() + 10
    while len(views) == count:
        assert time.monotonic() < deadline, "the move was not sent"
        page.wait_for_timeout(50)
    assert tile not in (views[-1]["hand"] or [])


def test_the_trains_are_named_by_their_players(server: str, page: Any) -> None:
    """Each seat's train is labelled with its player's name, the Mexican train by its name;
    the viewer's own train runs at the bottom, next to his hand."""
    views = open_table(page, server, "mexican-train", 4)
    view = my_turn(page, views)
    table = page.evaluate(
        "(id) => fetch(`/api/tables/${id}`).then((r) => r.json())", page.url.split("/")[-1]
    )
    # as the table names them: a bot by its level ("Bot 2 · Novice")
    seats = [
        f"Bot {i + 1} · Novice" if s["bot"] else s["name"]
        for i, s in enumerate(table["table"]["seats"])
    ]
    lanes = page.locator("svg#board g.lane")
    ends = [lanes.nth(i).get_attribute("data-end") for i in range(lanes.count())]
    names = page.locator("svg#board g.lane .lane-name").all_text_contents()
    assert sorted(ends) == sorted([*map(str, range(4)), "M"])
    for end, name in zip(ends, names, strict=True):
        assert name == ("Mexican train" if end == "M" else seats[int(end)])
    assert ends[-1] == str(view["seat"])


@pytest.mark.parametrize("game", ["kozel-team", "texas-42"])
def test_partners_show_their_side_s_score(server: str, page: Any, game: str) -> None:
    """A team game's ledger keeps one score per side; each seat's badge shows its side's
    (partners opposite: 0+2, 1+3), never the raw list."""
    views = open_table(page, server, game, 4)
    view = my_turn(page, views)
    sides = view["scores"]["scores"]
    assert len(sides) == 2
    badges = page.locator("div.players .badge").all_text_contents()
    assert len(badges) == 4 and not any("[" in b for b in badges), badges
    assert badges[0] == badges[2] and badges[1] == badges[3]


# ---- the running score -------------------------------------------------------------------

#: a game of each way of keeping the score, and its players: the line's points, Kozel's
#: accounts (one per side in team Kozel, plain totals for beginners, on a cross in Osyol), Sea
#: Kozel's single record, points scored during play in Fives, the trains' penalty pips,
#: Kolbasa's wins, poker's chips, Texas 42's side points
SCORED = [
    ("block", 2),
    ("kozel", 4),
    ("kozel-team", 4),
    ("kozel-beginner", 2),
    ("osel", 4),
    ("sea-kozel", 4),
    ("fives", 2),
    ("mexican-train", 4),
    ("chicken-foot", 4),
    ("kolbasa", 2),
    ("poker", 4),
    ("texas-42", 4),
]


def badge_of(ledger: dict[str, Any], seat: int) -> tuple[str, str]:
    """A seat's badge, text and class, as the ledger says it should read: an open Kozel account
    shows its total in red, remembered points "+r" in yellow (online-club.md §4.1); every other
    score, an unopened account's 0 included, as it stands (its side's in a team game)."""
    side = seat % len(ledger["scores"])
    if ledger["opened"][side]:
        return str(ledger["scores"][side]), "badge red"
    if ledger["remembered"][side]:
        return f"+{ledger['remembered'][side]}", "badge yellow"
    return str(ledger["scores"][side]), "badge"


def signed(points: int) -> str:
    return f"+{points}" if points > 0 else str(points)


def result_of(
    rules: bazar.Rules, before: dict[str, Any], end: dict[str, Any], accounts: bool
) -> list[list[str]]:
    """The round result's rows, a column a side (a player, or a team): the badges before, the
    points scored during play where the game scores them on a cross (All Fives), what the
    round gave (where the game keeps accounts the award, 0 for remembered points wiped, and
    what became of it; else the change, a loss negative, less the points of play), the badges
    after."""
    after = end["after"]
    sides = range(len(after["scores"]))
    rows = [[badge_of(before, s)[0] for s in sides]]
    in_play = [0 for _ in sides]
    if rules.variant.family == "cross" and end["outcome"]["scoring"]:
        for seat, points in end["outcome"]["scoring"]:
            in_play[seat % len(in_play)] += points
        rows.append([signed(p) for p in in_play])
    gave = []
    for s in sides:
        if accounts:
            award = sum(after[k][s] - before[k][s] for k in ("scores", "remembered"))
            note = ""
            if after["opened"][s] and not before["opened"][s]:
                note = " opened"
            elif not after["opened"][s] and award > 0:
                note = " remembered"
            elif award < 0:
                note = " lost"
            gave.append(signed(max(0, award)) + note)
        else:
            gave.append(signed(after["scores"][s] - before["scores"][s] - in_play[s]))
    return [*rows, gave, [badge_of(after, s)[0] for s in sides]]


def shows(page: Any, badges: list[tuple[str, str]], result: list[list[str]] | None) -> None:
    """Wait for the page to draw these badges and this round result (what it was sent)."""
    expect = sync_api.expect
    cells = page.locator("div.players .badge")
    expect(cells).to_have_text([text for text, _ in badges])
    expect(cells).to_have_class([kind for _, kind in badges])
    for i, row in enumerate(result or []):
        expect(page.locator(f"#scoretable tbody tr:nth-child({i + 1}) td")).to_have_text(row)


@pytest.mark.parametrize(("game", "players"), SCORED)
def test_the_badges_and_the_round_result_show_each_game_s_running_score(
    server: str, page: Any, game: str, players: int
) -> None:
    """Masha plays random moves over a socket of her own. Whenever the table waits for her, and
    at the end, the page's badges show the ledger's running score and the round result the
    last round's; until a score has changed (during play too where points are scored in play)
    and a round has ended. A match can end before that (Sea Kozel's 0-0 finish in the first
    round wins it with nothing scored): then she plays at a new table."""
    rng = random.Random(7)
    for _ in range(5):
        if scores_are_shown(server, page, game, players, rng):
            return
    raise AssertionError(f"five {game} matches ended before a score changed")


def scores_are_shown(server: str, page: Any, game: str, players: int, rng: random.Random) -> bool:
    """One match of the test above, the page checked at every turn of Masha's; whether a
    score changed (in play, where the game scores in play) and a round ended before its end."""
    from server_helpers import events_of, is_forced
    from websockets.sync.client import connect

    open_table(page, server, game, players)
    url = server.replace("http", "ws") + "/ws/" + page.url.split("/table/")[1]
    cookie = next(c["value"] for c in page.context.cookies() if c["name"] == "bazar")
    rules = bazar.rules(game, players=players)
    options = rules.options()
    accounts = "open_threshold" in options and "single_record" not in options
    start = bazar.Ledger.new(rules).public()
    # the score each round was dealt with: the last one's after, whatever the server says
    dealt = {1: start}
    begun: set[int] = set()
    last: dict[str, Any] | None = None
    view: dict[str, Any] = {}
    number = v = 0
    moved_v = -1  # the version Masha last moved on: she moves once on each
    ended = changed = changed_in_play = seen = False
    deadline = time.monotonic() + 90
    with connect(url, additional_headers={"cookie": f"bazar={cookie}"}) as ws:
        ws.send(json.dumps({"type": "hello", "v": 0}))
        while True:
            assert time.monotonic() < deadline, "no score changed"
            message = json.loads(ws.recv(timeout=30))
            for event in events_of(message):
                if event["t"] == "round_start":
                    begun.add(event["number"])
                elif event["t"] == "round_end":
                    last = event
                    dealt[event["number"] + 1] = event["after"]
                    # the result is on the page until the next round's first move
                    seen = False
                elif event["t"] == "move":
                    seen = True
                ended = ended or event["t"] == "match_end"
            # only a message with a view of its own says where the table is now: one without
            # (a notice) leaves the last view behind, and the page may already be past it
            fresh = bool(message.get("view"))
            if fresh:
                view = message["view"]
                number, v = message.get("round", number), message.get("v", v)
            mine = view["legal"] and view["turn"] == view["seat"] and not is_forced(view)
            # a move's events come one after another: its round's end and the next deal too
            whole = number in begun and number in dealt
            if not (ended or (fresh and mine and whole and v != moved_v)):
                continue
            scores = view["scores"]
            result = None
            if last is not None and not seen:
                result = result_of(rules, dealt[last["number"]], last, accounts)
            shows(page, [badge_of(scores, s) for s in range(players)], result)
            counts = ("scores", "remembered")
            changed = changed or any(scores[k] != start[k] for k in counts)
            if not ended and any(scores[k] != dealt[number][k] for k in counts):
                changed_in_play = True
            in_play = changed_in_play or rules.variant.score is None
            if ended or (changed and last is not None and in_play):
                break
            ws.send(json.dumps({"type": "move", "move": rng.choice(view["legal"]), "v": v}))
            moved_v = v
    return changed and last is not None and in_play
