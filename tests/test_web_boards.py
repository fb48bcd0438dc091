"""Every family's board drawn in SVG, in a real browser: headless Chromium (Debian's, launched
by path) driven by Playwright. The replay page draws known positions of stored matches, with
every hand; the table page draws the live board against bots and lights up the ends a tile
fits."""

from __future__ import annotations

import json
import random
import socket
import threading
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

import uvicorn  # noqa: E402

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
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    db = tmp_path_factory.mktemp("club") / "club.sqlite3"
    # one browser makes a guest and a table for each board: no quota of a public club; the
    # boards are looked at mid-round, no table waits between rounds
    roomy = Settings(guests_per_address=10_000, open_tables_per_user=10_000, round_pause_s=0)
    app = create_app(f"sqlite:///{db}", secret="boards", bot_delay=0.01, settings=roomy)
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page; the test fails on any script error or console error it reports."""
    context = browser.new_context(viewport={"width": 900, "height": 900}, locale="en-US")
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
    return dict(box)


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
    assert spinner["height"] > spinner["width"]  # the spinner lies across the line
    assert up["y"] + up["height"] <= spinner["y"] + 1 and up["height"] > up["width"]
    assert left["x"] + left["width"] <= spinner["x"] + 1


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


def test_a_phone_scrolls_the_board_rather_than_the_page(server: str, browser: Any) -> None:
    match = played("mexican-train", 16)
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="ru-RU")
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server}/replay/{upload(server, match)}?ply=16")
        page.wait_for_selector(".felt[data-ply='16']")
        assert page.evaluate("document.documentElement.scrollWidth") <= 361
        assert "Паровоз" in page.locator("svg#board").inner_html()
        assert not errors
    finally:
        context.close()


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
    if game != "fives":
        assert page.locator("svg#board g.lane.target").count() == len(by_tile[tile])
    count = len(views)
    ends.first.click()
    deadline = time.monotonic() + 10
    while len(views) == count:
        assert time.monotonic() < deadline, "the move was not sent"
        page.wait_for_timeout(50)
    assert tile not in (views[-1]["hand"] or [])


@pytest.mark.parametrize("game", ["kozel-team", "texas-42"])
def test_partners_show_their_side_s_score(server: str, page: Any, game: str) -> None:
    """A team game's ledger keeps one score per side; each seat's badge shows its side's
    (partners opposite: 0+2, 1+3), never the raw list."""
    views = open_table(page, server, game, 4)
    view = my_turn(page, views)
    sides = view["scores"]["scores"]
    assert len(sides) == 2
    badges = page.locator("div.players .badge").all_inner_texts()
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
                note = " account opened"
            elif not after["opened"][s] and award > 0:
                note = " remembered"
            elif award < 0:
                note = " remembered points lost"
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
            if message.get("view"):
                view = message["view"]
                number, v = message.get("round", number), message.get("v", v)
            mine = view["legal"] and view["turn"] == view["seat"] and not is_forced(view)
            # a move's events come one after another: its round's end and the next deal too
            whole = number in begun and number in dealt
            if not (ended or (mine and whole)):
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
    return changed and last is not None and in_play
