"""The table in a real browser: headless Chromium (Debian's, launched by path) driven by
Playwright creates a Kozel table with three bots and plays a whole round by clicking, and
shows a player who goes away and the bot that takes his seat."""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path

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


@contextlib.contextmanager
def chromium() -> Iterator[sync_api.Browser]:
    """The system Chromium, headless, closed however the test ends."""
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    options = dict(getattr(request, "param", {}))
    # the next round at once unless a test says otherwise: the pause between rounds has its
    # tests (test_web_result.py)
    settings = options.pop("settings", Settings())
    if "round_pause_s" not in settings.model_fields_set:
        settings = settings.model_copy(update={"round_pause_s": 0})
    app = create_app(
        f"sqlite:///{tmp_path / 'club.sqlite3'}",
        secret="browser",
        bot_delay=0.02,
        settings=settings,
        **options,
    )
    with served(app) as url:
        yield url


@pytest.mark.parametrize("server", [{"settings": Settings(round_pause_s=30)}], indirect=True)
def test_a_round_of_kozel_against_three_bots_is_played_by_clicking(server: str) -> None:
    with chromium() as browser:
        errors: list[str] = []
        page = _guest(browser, server, "Masha", errors)
        page.select_option("select[name=game]", "kozel")
        page.select_option("select[name=players]", "4")
        page.select_option("select[name=level]", "random")
        page.click("#create button")
        page.wait_for_selector("#hand button.tile", timeout=15_000)
        clicks = 0
        deadline = time.monotonic() + 120
        while page.locator("#scoretable").count() == 0:
            assert time.monotonic() < deadline, "the round did not end"
            playable = page.locator("#hand button.tile.playable")
            if playable.count():
                playable.first.click()
                clicks += 1
                ends = page.locator("svg#board g.end")
                if ends.count():
                    ends.first.click()
            page.wait_for_timeout(60)
        table = page.locator("#scoretable")
        assert table.locator("thead th[scope=col]").count() == 4
        assert "Masha" in table.inner_text()
        assert clicks > 0
        assert "hash matches" in page.locator("#fair").text_content()
        assert not errors


@pytest.mark.parametrize("server", [{"grace_s": 2.0}], indirect=True)
def test_a_player_who_goes_away_is_announced_then_replaced_by_a_bot(server: str) -> None:
    httpx = pytest.importorskip("httpx")
    client = pytest.importorskip("websockets.sync.client")
    expect = sync_api.expect
    with chromium() as browser:
        errors: list[str] = []
        page = _guest(browser, server, "Masha", errors)
        page.select_option("select[name=game]", "kozel")
        page.select_option("select[name=players]", "2")
        page.uncheck("input[name=bots]")
        page.click("#create button")
        page.wait_for_url("**/table/*")
        tid = page.url.split("/table/")[1].split("?")[0]
        # her page hears the table once its hello is answered (the sync keeps a version)
        page.wait_for_function(
            "(key) => sessionStorage.getItem(key) !== null", arg=f"bazar.v.{tid}"
        )
        with httpx.Client(base_url=server) as alex:
            alex.post("/api/guest", json={"name": "Alex"})
            assert alex.post(f"/api/tables/{tid}/join", json={}).status_code == 200
            cookie = {"cookie": f"bazar={alex.cookies['bazar']}"}
        url = server.replace("http", "ws") + f"/ws/{tid}"
        notice = page.locator("#notice")
        with client.connect(url, additional_headers=cookie) as ws:
            ws.send(json.dumps({"type": "hello", "v": 0}))
            expect(notice).to_have_text("Alex is back", timeout=10_000)
        expect(notice).to_have_text("Alex disconnected: waiting 2 s for a return")
        expect(notice).to_have_text("Alex is replaced by a bot", timeout=10_000)
        assert "Alex (bot)" in page.locator(".players").inner_text()
        assert not errors


@pytest.mark.parametrize("server", [{"grace_s": 0.5}], indirect=True)
def test_a_rated_match_ended_by_a_player_gone_says_he_left_the_table(server: str) -> None:
    httpx = pytest.importorskip("httpx")
    with sync_api.sync_playwright() as p, httpx.Client(base_url=server) as masha:
        masha.post("/api/register", json={"name": "Masha", "password": "password-1"})
        tid = masha.post("/api/tables", json={"game": "kozel", "players": 2, "rated": True})
        tid = tid.json()["table"]["id"]
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            context = browser.new_context(viewport={"width": 900, "height": 900}, locale="en-US")
            context.add_cookies([{"name": "bazar", "value": masha.cookies["bazar"], "url": server}])
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            with page.expect_websocket() as opened:
                page.goto(f"{server}/table/{tid}")
            # Masha's page is at the table (its socket has had the table's first word)
            opened.value.wait_for_event("framereceived")
            with httpx.Client(base_url=server) as alex:
                alex.post("/api/register", json={"name": "Alex", "password": "password-2"})
                # Alex sits down and never opens the table
                assert alex.post(f"/api/tables/{tid}/join", json={}).status_code == 200
            result = page.locator("#result")
            sync_api.expect(result).to_contain_text("Alex left the table", timeout=10_000)
            assert "ran out of time" not in result.inner_text()
            # an interrupted match has no result: no empty "Winners:" line
            assert "Winners" not in result.inner_text() and "Nobody won" not in result.inner_text()
            assert not errors
        finally:
            browser.close()


@pytest.mark.parametrize("server", [{"grace_s": 0.5}], indirect=True)
def test_a_rematch_waits_for_the_other_player_to_accept_it(server: str) -> None:
    httpx = pytest.importorskip("httpx")
    with (
        sync_api.sync_playwright() as p,
        httpx.Client(base_url=server) as masha,
        httpx.Client(base_url=server) as alex,
    ):
        masha.post("/api/register", json={"name": "Masha", "password": "password-1"})
        alex.post("/api/register", json={"name": "Alex", "password": "password-2"})
        tid = masha.post("/api/tables", json={"game": "kozel", "players": 2, "rated": True})
        tid = tid.json()["table"]["id"]
        # they sit down and go away: the grace ends the rated match
        assert alex.post(f"/api/tables/{tid}/join", json={}).status_code == 200
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            pages = []
            errors: list[str] = []
            for person in (masha, alex):
                context = browser.new_context(
                    viewport={"width": 900, "height": 900}, locale="en-US"
                )
                cookie = {"name": "bazar", "value": person.cookies["bazar"], "url": server}
                context.add_cookies([cookie])
                page = context.new_page()
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.goto(f"{server}/table/{tid}")
                sync_api.expect(page.locator("#rematch")).to_have_text("Rematch", timeout=10_000)
                pages.append(page)
            mine, his = pages
            mine.click("#rematch")
            mine.wait_for_url(re.compile(r"/table/(?!" + re.escape(tid) + r"$)"))
            new = mine.url.rsplit("/", 1)[-1]
            # Masha waits at the new table, Alex's seat kept for him; he is asked
            sync_api.expect(mine.locator("main")).to_contain_text("kept for Alex")
            assert masha.get(f"/api/tables/{new}").json()["table"]["status"] == "open"
            sync_api.expect(his.locator("#notice")).to_have_text("Masha asks for a rematch")
            sync_api.expect(his.locator("#rematch")).to_have_text("Accept the rematch")
            his.click("#rematch")
            his.wait_for_url(f"{server}/table/{new}")
            info = alex.get(f"/api/tables/{new}").json()["table"]
            assert info["status"] == "playing" and info["your_seat"] is not None
            assert not errors
        finally:
            browser.close()


#: how many moves a table page offers its player: playable tiles and buttons, but not a lone
#: draw or pass, which the table makes by itself at once (its button shows for a moment)
CHOICES = """(() => {
  const buttons = [...document.querySelectorAll(".felt .actions button")].map((b) => b.textContent);
  const forced = buttons.length === 1 && ["Draw", "Pass"].includes(buttons[0]);
  return document.querySelectorAll("#hand button.tile.playable").length
    + (forced ? 0 : buttons.length);
})()"""

#: what a table page shows, read in one go: its version (the last event it has), the layout,
#: what it offers to click, the status line, the last round's score table and the result
SNAPSHOT = """(key) => {
  const all = (selector) => [...document.querySelectorAll(selector)];
  const table = document.getElementById("scoretable");
  return {
    v: Number(sessionStorage.getItem(key) || 0),
    layout: all("svg#board g.layout g.tile").map((g) => g.dataset.tile),
    playable: all("#hand button.tile.playable").length,
    buttons: all(".felt .actions button").length,
    choices: CHOICES,
    status: all(".felt .status span").map((s) => s.textContent),
    // each page runs the move clock on its own timer: its tenths are not the table's state
    players: all(".felt .players .player").map((p) => {
      const plate = p.cloneNode(true);
      plate.querySelectorAll(".clock").forEach((c) => c.remove());
      return plate.textContent;
    }),
    scores: table ? table.innerText : null,
    result: document.getElementById("result").innerText,
    error: all(".felt .actions .error").map((e) => e.textContent).join(" "),
  };
}""".replace("CHOICES", CHOICES)

#: the page offers a move, or the match is over
MOVE_OR_END = """() => CHOICES > 0
  || document.getElementById("result").innerText.includes("Match over")""".replace(
    "CHOICES", CHOICES
)

#: the page has had an event since version v, or has been told its move was refused
MOVED = """([key, v]) => Number(sessionStorage.getItem(key) || 0) > v
  || document.querySelector(".felt .actions .error")"""


def _guest(
    browser: sync_api.Browser, server: str, name: str, errors: list[str], script: str = ""
) -> sync_api.Page:
    """A browser of its own (its own cookies) in the lobby, logged in as the guest ``name``
    (``script`` runs in each of its pages before the page's own)."""
    context = browser.new_context(viewport={"width": 900, "height": 900}, locale="en-US")
    if script:
        context.add_init_script(script)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(f"{name}: {e}"))
    page.goto(server + "/")
    page.fill("input[name=name]", name)
    # the lobby is drawn anew once the guest is in: wait for his login itself
    with page.expect_response(lambda r: r.url.endswith("/api/guest") and r.ok):
        page.click("#guest")
    page.wait_for_selector("#create button:not([disabled])")
    return page


def _make_a_move(page: sync_api.Page, key: str) -> None:
    """Play this page's move by clicking: its first playable tile (on the first end lit up,
    where the tile fits more than one), else the first button (a draw or a pass); then wait
    for the table to take it."""
    v = page.evaluate("(key) => Number(sessionStorage.getItem(key) || 0)", key)
    tiles = page.locator("#hand button.tile.playable")
    if tiles.count():
        tiles.first.click()
        ends = page.locator("svg#board g.end")
        variants = page.locator(".felt .actions button.secondary")
        if ends.count():
            ends.first.click()
        elif variants.count():
            variants.first.click()
    else:
        page.locator(".felt .actions button").first.click()
    page.wait_for_function(MOVED, arg=[key, v], timeout=10_000)
    refused = page.locator(".felt .actions .error")
    assert not refused.count(), refused.inner_text()


def test_a_whole_kozel_match_against_bots_is_played_by_clicking(server: str) -> None:
    with chromium() as browser:
        errors: list[str] = []
        page = _guest(browser, server, "Masha", errors)
        games = page.request.get(server + "/api/games").json()["games"]
        # the preset's losing mark (101): a match of some ten rounds against random bots
        limit = next(g for g in games if g["name"] == "kozel")["options"]["limit"]
        page.select_option("select[name=game]", "kozel")
        page.select_option("select[name=players]", "4")
        page.select_option("select[name=level]", "random")
        page.click("#create button")
        page.wait_for_url("**/table/*")
        tid = page.url.split("/table/")[1].split("?")[0]
        key = f"bazar.v.{tid}"
        page.wait_for_selector("#hand button.tile", timeout=15_000)
        clicks = 0
        deadline = time.monotonic() + 60
        while True:
            assert time.monotonic() < deadline, "the match did not end"
            page.wait_for_function(MOVE_OR_END, timeout=15_000)
            if "Match over" in page.locator("#result").inner_text():
                break
            _make_a_move(page, key)
            clicks += 1
        record = page.request.get(f"{server}/api/records/{tid}").json()
        scores = record["summary"]["scores"]["scores"]
        rounds = record["summary"]["rounds"]
        # the players as the table names them: the bots by their level ("Bot 2 · Novice")
        names = [f"Bot {s + 1} · Novice" if s else name for s, name in enumerate(record["players"])]
        goats = [s for s, points in enumerate(scores) if points >= limit]
        assert goats and names[0] == "Masha"
        assert rounds > 1 and clicks >= rounds
        result = page.locator("#result")
        text = result.inner_text()
        winners = [names[s] for s in record["summary"]["winners"]]
        assert f"Winners: {', '.join(winners)}" in text
        assert not {names[s] for s in goats} & set(winners)
        assert f"Goat: {', '.join(names[s] for s in goats)}" in text
        # the final score table: the last round's totals, the goat's at or over the limit
        table = result.locator("#scoretable")
        assert table.locator("thead th[scope=col]").all_inner_texts() == names
        totals = table.locator("tr.rule td").all_inner_texts()
        for s in goats:
            assert totals[s] == str(scores[s])
        assert f"Round {rounds} · " in text
        # every round's deal was committed to and then shown to be the one dealt
        fair = page.locator("#fair").text_content()
        assert fair.count("hash matches") == rounds
        assert "MISMATCH" not in fair
        # the match is in the club's history, with its replay
        # (at 900 px the bar's five pages are folded into its menu)
        if page.locator("#menu").is_visible():
            page.click("#menu")
        page.click("header a[href='/history']")
        # among her own matches, and among everyone's
        sync_api.expect(page.locator(f"#mine a[href='/replay/{tid}']")).to_have_count(1)
        row = page.locator("#all tr", has=page.locator(f"a[href='/replay/{tid}']"))
        sync_api.expect(row).to_contain_text("Kozel")  # the game by its name, not its id
        sync_api.expect(row).to_contain_text("Masha")
        assert not errors


def test_two_friends_play_kozel_from_two_browsers(server: str) -> None:
    with chromium() as browser:
        errors: list[str] = []
        masha = _guest(browser, server, "Masha", errors)
        masha.select_option("select[name=game]", "kozel")
        masha.select_option("select[name=players]", "2")
        masha.uncheck("input[name=bots]")
        masha.click("#create button")
        masha.wait_for_url("**/table/*")
        tid = masha.url.split("/table/")[1].split("?")[0]
        key = f"bazar.v.{tid}"
        masha.wait_for_selector("text=Waiting for players")
        # the friend finds the table in the lobby and takes the free seat
        alex = _guest(browser, server, "Alex", errors)
        alex.click(f"a[href='/table/{tid}']")
        alex.click("button:has-text('Join · seat 2')")
        pages = {"Masha": masha, "Alex": alex}
        for page in pages.values():
            page.wait_for_selector("#hand button.tile", timeout=15_000)
        moves = dict.fromkeys(pages, 0)
        deadline = time.monotonic() + 45
        while True:
            assert time.monotonic() < deadline, "the round did not end"
            seen = {name: page.evaluate(SNAPSHOT, key) for name, page in pages.items()}
            a, b = seen.values()
            if a["v"] != b["v"]:
                masha.wait_for_timeout(30)  # an event on its way to one of them
                continue
            # at the same version both see the same table
            assert a["layout"] == b["layout"]
            assert a["players"] == b["players"]
            if a["scores"] is not None and b["scores"] is not None:
                break
            movers = [name for name, s in seen.items() if s["choices"]]
            if not movers:
                masha.wait_for_timeout(30)  # a draw the table makes by itself
                continue
            assert len(movers) == 1, seen
            (mover,) = movers
            (waiter,) = set(pages) - {mover}
            # "Your move: play on 4 or 3"
            assert any(s.startswith("Your move") for s in seen[mover]["status"]), seen[mover]
            # the other page says whose move it is and offers nothing to play
            assert f"Move: {mover}" in seen[waiter]["status"]
            assert seen[waiter]["playable"] == 0 and seen[waiter]["buttons"] == 0
            assert pages[waiter].locator("#hand button.tile.playable").count() == 0
            _make_a_move(pages[mover], key)
            moves[mover] += 1
        assert all(n > 0 for n in moves.values()), moves
        # the round's end: the same scores on both pages, under both names
        assert a["scores"] == b["scores"]
        assert "Masha" in a["scores"] and "Alex" in a["scores"]
        assert not a["error"] and not b["error"]
        assert not errors


def test_the_russian_page_says_the_servers_refusals_in_russian(server: str) -> None:
    """The server's refusals arrive in English with a code; the Russian page shows the
    Russian text of the code, and the form offers no rated game it would refuse."""
    expect = sync_api.expect
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 900, "height": 900}, locale="ru-RU")
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server + "/")
        page.fill("input[name=name]", "$$$")
        page.click("#guest")
        error = page.locator("section .error").first
        expect(error).to_have_text("Имя — от 1 до 24 букв, цифр, пробелов, точек или дефисов")
        page.fill("input[name=name]", "Маша")
        # the lobby is drawn anew once the guest is in: wait for his login itself
        with page.expect_response(lambda r: r.url.endswith("/api/guest") and r.ok):
            page.click("#guest")
        page.wait_for_selector("#create button:not([disabled])")
        rated = page.locator("input[name=rated]")
        expect(rated).to_be_disabled()
        expect(page.locator("#rated-why")).to_contain_text("Гости играют без рейтинга")
        page.select_option("select[name=game]", "kozel")
        # the form offers only the game's own numbers of players: a page that sends another
        # (an old page, a hand-made request) hears why not
        page.eval_on_selector("select[name=players]", "s => s.append(new Option('6', '6'))")
        page.select_option("select[name=players]", "6")
        page.click("#create button")
        expect(page.locator("#create + .error")).to_have_text(
            "в kozel играют от 2 до 4 игроков, не 6"
        )
        assert not errors


def _table_page(
    browser: sync_api.Browser, server: str, errors: list[str], script: str = "", **form: object
) -> tuple[sync_api.Page, str]:
    """Masha's page at a table made by ``form`` (a test's club may offer quicker clocks than
    the form's 15 s and more), and its version key."""
    page = _guest(browser, server, "Masha", errors, script)
    made = page.request.post(server + "/api/tables", data=form)
    assert made.ok, made.text()
    tid = made.json()["table"]["id"]
    page.goto(f"{server}/table/{tid}")
    page.wait_for_selector("#hand button.tile", timeout=15_000)
    return page, f"bazar.v.{tid}"


@pytest.mark.parametrize("server", [{"settings": Settings(move_times=(3, 30))}], indirect=True)
def test_a_player_whose_time_ran_out_sees_the_bot_and_takes_his_seat_back(server: str) -> None:
    with chromium() as browser:
        errors: list[str] = []
        form = {"game": "kozel", "players": 2, "bots": "greedy", "move_time_s": 3}
        page, key = _table_page(browser, server, errors, **form)
        standin = page.locator("#standin")
        sync_api.expect(standin).to_contain_text(
            "Your time ran out: a bot is playing for you.", timeout=20_000
        )
        # nothing of hers to play while the bot plays: no "your move", no lit tile
        status = page.locator(".felt .status").inner_text()
        assert "Your move" not in status
        assert page.locator("#hand button.tile.playable").count() == 0
        assert page.locator(".felt .actions button").count() == 0
        sync_api.expect(page.locator("#takeback")).to_have_text("Take my seat back")
        page.click("#takeback")
        # her seat is hers again at her turn: a move to choose, and the bot's word gone
        page.wait_for_function(MOVE_OR_END, timeout=15_000)
        sync_api.expect(standin).to_be_hidden()
        assert "Your move" in page.locator(".felt .status").inner_text()
        _make_a_move(page, key)
        assert not errors


def test_the_form_offers_no_rated_game_with_bots(server: str) -> None:
    expect = sync_api.expect
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 900, "height": 900}, locale="en-US")
        page.goto(server + "/")
        inputs = page.locator("form.grid").nth(1).locator("input")
        inputs.nth(0).fill("Olya")
        inputs.nth(1).fill("password-1")
        page.get_by_role("button", name="Register").click()
        page.wait_for_selector("#create button:not([disabled])")
        rated, bots = page.locator("input[name=rated]"), page.locator("input[name=bots]")
        expect(rated).to_be_disabled()
        expect(page.locator("#rated-why")).to_have_text(
            "A rated game has no bots: ratings are between registered players"
        )
        bots.uncheck()
        expect(rated).to_be_enabled()
        expect(page.locator("#rated-why")).to_have_text("")
        rated.check()
        bots.check()
        expect(rated).not_to_be_checked()


#: every message the page's socket receives, in order (what the page does with them aside)
RECEIVED = """(() => {
  window.received = [];
  const Socket = window.WebSocket;
  window.WebSocket = function (...args) {
    const socket = new Socket(...args);
    socket.addEventListener("message", (m) => window.received.push(JSON.parse(m.data)));
    const send = socket.send.bind(socket);
    // a page told to send its moves twice: the copy is refused
    socket.send = (data) => {
      send(data);
      if (window.sendTwice && JSON.parse(data).type === "move") send(data);
    };
    return socket;
  };
})();"""

#: the page has applied an event that came after the first refusal it received
AFTER_REFUSAL = """(key) => {
  const i = window.received.findIndex((m) => m.type === "error");
  const v = Number(sessionStorage.getItem(key) || 0);
  return i >= 0 && window.received.slice(i + 1).some((m) => m.type === "event" && m.v <= v);
}"""


def test_a_refused_move_stays_on_the_page_until_the_player_acts_again(server: str) -> None:
    with chromium() as browser:
        errors: list[str] = []
        form = {"game": "kozel", "players": 4, "bots": "random"}
        page, key = _table_page(browser, server, errors, RECEIVED, **form)
        # her first move of the match (it cannot end a round), sent twice
        page.wait_for_function(MOVE_OR_END, timeout=15_000)
        page.evaluate("window.sendTwice = true")
        tiles = page.locator("#hand button.tile.playable")
        if tiles.count():
            tiles.first.click()
            ends = page.locator("svg#board g.end")
            if ends.count():
                ends.first.click()
        else:
            page.locator(".felt .actions button").first.click()
        page.evaluate("window.sendTwice = false")
        # the bots answered after the copy was refused ("not your turn", or "stale" if
        # they all passed): the refusal is still shown
        page.wait_for_function(AFTER_REFUSAL, arg=key, timeout=15_000)
        refused = page.locator(".felt .actions .error")
        sync_api.expect(refused).to_contain_text(re.compile("Not your turn|The table moved on"))
        # ... until she acts again
        page.wait_for_function(MOVE_OR_END, timeout=15_000)
        if "Match over" not in page.locator("#result").inner_text():
            _make_a_move(page, key)
            assert refused.count() == 0
        assert not errors


def test_guests_are_marked_in_the_lobby_and_at_the_table_in_both_languages(server: str) -> None:
    expect = sync_api.expect
    with chromium() as browser:
        errors: list[str] = []
        masha = _guest(browser, server, "Masha", errors)
        expect(masha.locator("#me")).to_contain_text("Masha (guest)")
        masha.select_option("select[name=game]", "kozel")
        masha.select_option("select[name=players]", "2")
        masha.uncheck("input[name=bots]")
        masha.click("#create button")
        masha.wait_for_url("**/table/*")
        tid = masha.url.split("/table/")[1].split("?")[0]
        expect(masha.locator("span.player")).to_have_text("Masha (guest)")
        # a registered player, on a Russian page: the guest is marked, he is not
        context = browser.new_context(viewport={"width": 900, "height": 900}, locale="ru-RU")
        olya = context.new_page()
        olya.on("pageerror", lambda e: errors.append(f"Olya: {e}"))
        said = olya.request.post(
            f"{server}/api/register", data={"name": "Olya", "password": "password-1"}
        )
        assert said.ok, said.text()
        olya.goto(server + "/")
        row = olya.locator("tr", has=olya.locator(f"a[href='/table/{tid}']"))
        expect(row).to_contain_text("Masha (гость)")
        expect(olya.locator("#me")).to_have_text(re.compile(r"^Olya\s"))
        olya.goto(f"{server}/table/{tid}")
        expect(olya.locator("span.player")).to_have_text("Masha (гость)")
        assert not errors


def test_a_player_changes_his_password_on_his_profile(server: str) -> None:
    expect = sync_api.expect
    with chromium() as browser:
        errors: list[str] = []
        page = browser.new_page(viewport={"width": 900, "height": 900}, locale="ru-RU")
        page.on("pageerror", lambda e: errors.append(str(e)))
        said = page.request.post(
            f"{server}/api/register", data={"name": "Olya", "password": "password-1"}
        )
        assert said.ok, said.text()
        page.goto(f"{server}/profile/Olya")
        page.fill("#password input[name=old]", "password-9")
        page.fill("#password input[name=new]", "password-2")
        page.click("#password button")
        expect(page.locator("#password + p")).to_have_text("Неверный пароль")
        page.fill("#password input[name=old]", "password-1")
        page.click("#password button")
        expect(page.locator("#password + p")).to_contain_text("Пароль сменён")
        # still logged in here, and the new password is the one that opens the account
        assert page.request.get(f"{server}/api/session").json()["user"]["name"] == "Olya"
        login = {"name": "Olya", "password": "password-2"}
        assert page.request.post(f"{server}/api/login", data=login).ok
        assert not errors


# every violation of the page's Content-Security-Policy, kept where the test can read it
CSP_WATCH = """
window.violations = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.violations.push(`${e.violatedDirective} ${e.blockedURI}`));
"""


def test_the_pages_keep_to_their_content_security_policy(server: str) -> None:
    """Scripts, styles and the socket come from the club only, and no style is inline: the
    lobby, a live table and a replay draw with no violation reported."""
    with chromium() as browser:
        errors: list[str] = []
        form = {"game": "kozel", "players": 2, "bots": "random"}
        page, _ = _table_page(browser, server, errors, CSP_WATCH, **form)
        page.wait_for_selector("#standin", state="attached")
        assert page.evaluate("window.violations") == []
        match = bazar.Match(bazar.rules("kozel", players=2), seed=8)
        while not match.is_over():
            match.push(match.legal_moves()[0])
        made = page.request.post(
            server + "/api/records",
            data=bazar.record.dumps(match),
            headers={"content-type": "application/json"},
        )
        assert made.ok, made.text()
        page.goto(f"{server}/replay/{made.json()['id']}")
        page.wait_for_selector("input[type=range]")
        assert page.locator("input[type=range]").evaluate("e => e.style.width") == "100%"
        assert page.evaluate("window.violations") == []
        page.goto(server + "/")
        page.wait_for_selector("#create button:not([disabled])")
        assert page.evaluate("window.violations") == []
        assert errors == []
