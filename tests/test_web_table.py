"""The table page in a real browser (headless Chromium driven by Playwright), against bots: a
round played with the keyboard alone, every move said to a screen reader and logged, the tab's
title on the player's turn and the game's score between her turns, the ends named by the pips
they show (never left or right), a log that reads the same after a reload, numerals on every
tile when asked, the hand whole on a phone's screen with targets large enough to hit, the way
out of a match under way in the page's own dialog, and motion only for who has not asked for
less."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
import test_web_boards as boards

sync_api = pytest.importorskip("playwright.sync_api")

#: the club and the browser of the boards' tests (fixtures), and how they seat a guest there
server, browser, open_table = boards.server, boards.browser, boards.open_table

#: the page's state, read in one go: its version, the hand, whether a tile of it has the focus
#: (and which), the sockets lit up, the round's result
LOOK = """() => {
  const hand = document.getElementById("hand");
  const focus = document.activeElement;
  return {
    v: Number(document.querySelector(".felt")?.dataset.v || 0),
    tiles: hand.querySelectorAll("button.tile").length,
    playable: hand.querySelectorAll("button.tile.playable").length,
    inHand: hand.contains(focus),
    focusPlayable: hand.contains(focus) && focus.classList.contains("playable"),
    selected: hand.querySelectorAll("button.tile.selected").length,
    ended: document.getElementById("scoretable") !== null,
    title: document.title,
  };
}"""


#: where each button of the table is on the screen: the hand's tiles, the moves, the bar's
BOXES = """() => [...document.querySelectorAll(
    "#hand button.tile, .felt .actions button, .table-head button")].map((b) => {
  const r = b.getBoundingClientRect();
  return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height };
})"""


#: the move clock: on the plate of the seat to move (hers), the node it was the first time
CLOCK = """() => {
  const clock = document.getElementById("timer");
  window.firstClock = window.firstClock || clock;
  return { mine: Boolean(clock.closest(".player.me.turn")), same: clock === window.firstClock,
    text: clock.textContent };
}"""


def _watch(page: Any) -> list[str]:
    """The page's script errors and console errors, as they come."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on(
        "console",
        lambda m: (
            m.type == "error"
            and "favicon" not in m.location.get("url", "")
            and errors.append(m.text)
        ),
    )
    return errors


def test_a_round_of_kozel_is_played_with_the_keyboard_alone(server: str, browser: Any) -> None:
    """Tab reaches the hand, the arrows find a playable tile, Enter picks it and (where it fits
    two ends) Enter plays it on the end the arrows chose; the pointer is never used. Each move
    of the bots is said in words in the polite live region and written in the log; the tab's
    title says when it is her move."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    page = context.new_page()
    errors = _watch(page)
    views = open_table(page, server, "kozel", 4)
    page.wait_for_selector("#hand button.tile", timeout=15_000)
    plays = titles = 0
    said: set[str] = set()
    deadline = time.monotonic() + 90
    while True:
        assert time.monotonic() < deadline, "the round did not end"
        look = page.evaluate(LOOK)
        said.add(page.locator("#announce").text_content() or "")
        if look["ended"]:
            break
        view = views[-1] if views else None
        mine = view and view["turn"] == view["seat"] and view["legal"] and look["v"] >= view["v"]
        if not mine or not look["playable"]:
            page.wait_for_timeout(40)
            continue
        titles += look["title"] == "● Your turn · bazar"
        # her clock on her plate, the same node all round (its text is never rebuilt away)
        clock = page.evaluate(CLOCK)
        assert clock["mine"] and clock["same"] and clock["text"][-1].isdigit(), clock
        for _ in range(30):
            if page.evaluate(LOOK)["inHand"]:
                break
            page.keyboard.press("Tab")
        for _ in range(look["tiles"]):
            if page.evaluate(LOOK)["focusPlayable"]:
                break
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
        if page.evaluate(LOOK)["selected"]:
            # a tile that fits both ends: the arrow picks the other, Enter plays it
            page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
        page.wait_for_function(
            "(v) => Number(document.querySelector('.felt').dataset.v) > v",
            arg=look["v"],
            timeout=10_000,
        )
        plays += 1
    assert plays > 0 and titles == plays
    # the bots' moves in words ("random bot 2: six–four, left"), never in digits
    spoken = [s for s in said if ": " in s]
    assert spoken and not any(c.isdigit() for s in spoken for c in s.split(": ", 1)[1]), spoken
    log = page.locator(".log li").all_inner_texts()
    assert log[0] == "Round 1" and sum(": " in line for line in log) >= plays
    assert page.locator("#fair summary").inner_text().startswith("Verify the deals")
    assert not errors
    context.close()


@pytest.mark.parametrize(
    ("game", "players", "lang"),
    [("kozel", 4, "ru"), ("mexican-train", 4, "en"), ("fives", 2, "ru")],
)
def test_the_hand_is_whole_on_a_phone_s_screen(
    server: str, browser: Any, game: str, players: int, lang: str
) -> None:
    """At 360×740 the whole hand (a Mexican Train hand of 15 tiles too) is inside the screen
    without scrolling, nothing scrolls sideways, and every tile and button of the table is a
    target at least 44 px high."""
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, locale="ru-RU" if lang == "ru" else "en-US"
    )
    page = context.new_page()
    errors = _watch(page)
    views = open_table(page, server, game, players)
    page.wait_for_selector("#hand button.tile", timeout=15_000)
    deadline = time.monotonic() + 20
    while not (views and views[-1]["turn"] == views[-1]["seat"] and views[-1]["legal"]):
        assert time.monotonic() < deadline, "her turn never came"
        page.wait_for_timeout(50)
    page.wait_for_function(
        "(v) => Number(document.querySelector('.felt').dataset.v) >= v", arg=views[-1]["v"]
    )
    boxes = page.evaluate(BOXES)
    tiles = page.locator("#hand button.tile").count()
    assert tiles == len(views[-1]["hand"]) >= 5
    for box in boxes:
        assert box["height"] >= 44, box
        assert box["top"] >= 0 and box["bottom"] <= 740 and box["left"] >= 0 and box["right"] <= 360
    assert page.evaluate("scrollY") == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert not errors
    context.close()


#: the two screens and languages the table's words are checked on
SCREENS = [
    pytest.param((1280, 800), "en", id="desktop-en"),
    pytest.param((360, 740), "ru", id="phone-ru"),
]

#: the page's words in each language, as the tests below read them
WORDS = {
    "en": {"on": "on", "end": "end", "or": "or", "yourMove": "Your move: play on ", "bot": "bot"},
    "ru": {
        "on": "на",
        "end": "конец",
        "or": "или",
        "yourMove": "Ваш ход: играйте на ",
        "bot": "бот",
    },
}


def _context(browser: Any, screen: tuple[int, int], lang: str, **more: Any) -> Any:
    width, height = screen
    return browser.new_context(
        viewport={"width": width, "height": height},
        locale="ru-RU" if lang == "ru" else "en-US",
        **more,
    )


def _pip_name(ends: dict[str, int], end: str, lang: str) -> str:
    """An end of a line or a cross as the page names it: its pip, and its number among the
    ends that show the same pip ("4 (end 2)")."""
    same = [e for e in ends if ends[e] == ends[end]]
    if len(same) == 1:
        return str(ends[end])
    return f"{ends[end]} ({WORDS[lang]['end']} {same.index(end) + 1})"


def _play(page: Any, view: dict[str, Any]) -> None:
    """Her move, by clicking: a tile where one fits (on its first end), else the draw or the
    pass (a lone one the table makes for her); then wait for the page to hear of it."""
    tiles = page.locator("#hand button.tile.playable")
    if tiles.count():
        tiles.first.click()
        if page.locator("svg#board g.end").count():
            page.locator("svg#board g.end").first.click()
    elif view["legal"] not in (["draw"], ["pass"]):
        page.locator(".felt .actions button").first.click()
    page.wait_for_function(
        "(v) => Number(document.querySelector('.felt').dataset.v) > v", arg=view["v"]
    )


#: the move log's lines, as written (the side column is hidden on a phone: its text is read)
LOG = "() => [...document.querySelectorAll('.log li')].map((li) => li.textContent)"


@pytest.mark.parametrize(("screen", "lang"), SCREENS)
def test_the_move_log_reads_the_same_after_a_reload(
    server: str, browser: Any, screen: tuple[int, int], lang: str
) -> None:
    """The log is told from the table's events alone: reopened, the page writes each move as
    it did live, a tile and the pip of the end it was laid on ("2|1 on 1"), never "left" or
    "right", which the snake's turns contradict."""
    context = _context(browser, screen, lang)
    page = context.new_page()
    errors = _watch(page)
    views = open_table(page, server, "kozel", 4)
    on = WORDS[lang]["on"]
    laid = re.compile(rf": \d+\|\d+ {on} \d+( \({WORDS[lang]['end']} \d\))?$")
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "too few tiles were laid on an end"
        view = boards.my_turn(page, views)
        before = page.evaluate(LOG)
        if sum(bool(laid.search(line)) for line in before) >= 3:
            break
        _play(page, view)
    text = "\n".join(before)
    for side in ("left", "right", "слева", "справа", "→"):
        assert side not in text, before
    page.reload()
    page.wait_for_function(
        "(v) => Number(document.querySelector('.felt')?.dataset.v) >= v", arg=view["v"]
    )
    after = page.evaluate(LOG)
    # (a lone draw or pass made for her may have let the bots move on since)
    assert after[: len(before)] == before
    assert not errors
    context.close()


#: the sockets lit up for the chosen tile: each one's end, the number it shows, its badge
#: where other ends show the same number, and its name for a screen reader
SOCKETS = """() => [...document.querySelectorAll("svg#board g.end")].map((g) => ({
  end: g.dataset.end, shown: g.querySelector("text").textContent,
  tie: g.querySelector("g.tie text")?.textContent ?? null, label: g.getAttribute("aria-label"),
}))"""


@pytest.mark.parametrize(("screen", "lang"), SCREENS)
def test_the_ends_are_named_by_the_pips_they_show(
    server: str, browser: Any, screen: tuple[int, int], lang: str
) -> None:
    """On All Fives' cross the status line offers the ends by their pips ("Your move: play on
    6 or 1"); a tile that fits several ends lights a socket on each, which shows the pip it
    needs, a badge with its number where other ends show the same pip, and says the move in
    the same words as its button ("6|4 on 6 (end 2)"); the hand's tiles name their ends so
    too. No end is called left, right, up or down."""
    context = _context(browser, screen, lang)
    page = context.new_page()
    errors = _watch(page)
    views = open_table(page, server, "fives", 2)
    words = WORDS[lang]
    offered = chosen = 0
    deadline = time.monotonic() + 90
    while not (offered and chosen):
        assert time.monotonic() < deadline, "no tile fitting several ends came to the hand"
        view = boards.my_turn(page, views)
        ends = view["ends"]
        by_tile: dict[str, list[str]] = {}
        for move in view["legal"]:
            if ":" in move:
                by_tile.setdefault(move.split(":")[0], []).append(move.split(":")[1])
        status = page.locator(".felt .status .mine").text_content() or ""
        if by_tile:
            pips = list(dict.fromkeys(str(ends[e]) for m in by_tile.values() for e in m))
            expected = (
                pips[0]
                if len(pips) == 1
                else (
                    ", ".join(pips[:-1])
                    + ("," if len(pips) > 2 and lang == "en" else "")
                    + f" {words['or']} {pips[-1]}"
                )
            )
            assert status == words["yourMove"] + expected, (status, view["legal"], ends)
            offered += 1
            for tile, on in by_tile.items():
                label = page.locator(f"#hand button.tile[data-tile='{tile}']").get_attribute(
                    "aria-label"
                )
                assert label.endswith(", ".join(_pip_name(ends, e, lang) for e in on)), label
        many = [t for t, on in by_tile.items() if len(on) > 1]
        if many:
            tile = many[0]
            page.click(f"#hand button.tile[data-tile='{tile}']")
            sockets = page.evaluate(SOCKETS)
            buttons = page.locator(".felt .actions button.secondary").all_inner_texts()
            assert sorted(s["end"] for s in sockets) == sorted(by_tile[tile])
            shown = tile.replace("-", "|")
            for socket in sockets:
                end = socket["end"]
                same = [e for e in ends if ends[e] == ends[end]]
                assert socket["shown"] == str(ends[end])
                assert socket["tie"] == (None if len(same) == 1 else str(same.index(end) + 1))
                assert socket["label"] == f"{shown} {words['on']} {_pip_name(ends, end, lang)}"
                assert socket["label"] in buttons, (socket, buttons)
            chosen += 1
            page.locator("svg#board g.end").first.click()
            page.wait_for_function(
                "(v) => Number(document.querySelector('.felt').dataset.v) > v", arg=view["v"]
            )
        else:
            _play(page, view)
    said = page.evaluate("() => document.body.innerText")
    for side in ("left", "right", "слева", "справа", "вверх", "вниз"):
        assert side not in said.lower(), side
    assert not errors
    context.close()


#: every title the tab is given, as it is given
TITLES = """
window.titles = [];
addEventListener("DOMContentLoaded", () => {
  const seen = new MutationObserver(() => window.titles.push(document.title));
  const all = { childList: true, characterData: true, subtree: true };
  seen.observe(document.querySelector("title"), all);
});
"""


@pytest.mark.parametrize(("screen", "lang"), SCREENS)
def test_the_tab_title_names_the_game_and_the_score_between_turns(
    server: str, browser: Any, screen: tuple[int, int], lang: str
) -> None:
    """While another seat is to move, the tab says the game and its score ("Kozel · 0–0 ·
    bazar"), never the club's name alone; on her move, that it is hers."""
    context = _context(browser, screen, lang)
    context.add_init_script(TITLES)
    page = context.new_page()
    errors = _watch(page)
    views = open_table(page, server, "kozel", 2)
    games = page.request.get(f"{server}/api/games?lang={lang}").json()["games"]
    game = next(g["title"] for g in games if g["name"] == "kozel")
    site = "базар" if lang == "ru" else "bazar"
    yours = "● Ваш ход · базар" if lang == "ru" else "● Your turn · bazar"
    for _ in range(3):
        _play(page, boards.my_turn(page, views))
    boards.my_turn(page, views)
    assert page.title() == yours
    titles = page.evaluate("window.titles")
    # from the table's first drawing on (before it, the page's own "Table · bazar")
    drawn = titles[next(i for i, t in enumerate(titles) if t.startswith(game) or t == yours) :]
    scores = {" · ".join([game, "–".join(map(str, v["scores"]["scores"])), site]) for v in views}
    between = [t for t in drawn if t != yours]
    assert between and set(between) <= scores, (titles, scores)
    assert not errors
    context.close()


#: what each tile drawn on the page shows: its numerals (none: pips) and its pips, for the
#: hand's buttons and the board's tiles
TILES = """() => [...document.querySelectorAll("#hand button.tile, svg#board g.layout g.tile")]
  .filter((n) => !n.matches("g.back")).map((n) => ({
    tile: n.dataset.tile,
    digits: [...n.querySelectorAll("text.digit")].map((d) => d.textContent),
    pips: n.querySelectorAll("circle.pip").length,
  }))"""


@pytest.mark.parametrize(("screen", "lang"), SCREENS)
def test_numerals_replace_the_pips_on_every_tile(
    server: str, browser: Any, screen: tuple[int, int], lang: str
) -> None:
    """The bar's "1|2" puts numerals on every tile the page draws, the hand's as the
    board's, a blank as "0"; pressed again, the pips come back."""
    context = _context(browser, screen, lang, reduced_motion="reduce")
    page = context.new_page()
    errors = _watch(page)
    views = open_table(page, server, "kozel", 4)
    deadline = time.monotonic() + 30
    while not page.locator("svg#board g.layout g.tile").count():
        assert time.monotonic() < deadline, "no tile was laid"
        _play(page, boards.my_turn(page, views))
    page.click("#digits")
    assert page.get_attribute("#digits", "aria-pressed") == "true"
    tiles = page.evaluate(TILES)
    assert any(t["tile"] in (views[-1]["hand"] or []) for t in tiles)
    for t in tiles:
        a, b = t["tile"].strip("#").replace("|", "-").split("-")
        # (a tile on the board shows its halves the way it lies)
        assert sorted(t["digits"]) == sorted([a, b]) and t["pips"] == 0, t
    # a blank half is "0" wherever a tile is drawn (a tile with a blank may not be dealt her)
    blank = page.evaluate(
        """async () => {
        const { tileSvg } = await import("/static/tiles.js");
        return [...tileSvg(0, 5).querySelectorAll("text.digit")].map((d) => d.textContent);
    }"""
    )
    assert blank == ["0", "5"]
    page.click("#digits")
    for t in page.evaluate(TILES):
        assert t["digits"] == [], t
    assert not errors
    context.close()


@pytest.mark.parametrize(("screen", "lang"), SCREENS)
def test_leave_asks_in_the_page_s_own_dialog(
    server: str, browser: Any, screen: tuple[int, int], lang: str
) -> None:
    """Leave asks first, in the page's own modal dialog (never the browser's confirm): the
    focus on Stay, Esc keeps her seat; once she says Leave a bot has her seat and she is in
    the lobby."""
    context = _context(browser, screen, lang)
    page = context.new_page()
    errors = _watch(page)
    open_table(page, server, "kozel", 2)
    page.wait_for_selector("#hand button.tile", timeout=15_000)
    tid = page.url.rsplit("/", 1)[1]
    native: list[str] = []
    page.on("dialog", lambda d: (native.append(d.message), d.dismiss()))
    page.click("#leave")
    asked = page.locator("dialog#leave-ask[open]")
    sync_api.expect(asked).to_be_visible()
    assert WORDS[lang]["bot"] in asked.inner_text()
    assert page.evaluate("() => document.activeElement.id") == "leave-stay"
    page.keyboard.press("Escape")
    sync_api.expect(asked).to_have_count(0)
    assert "/table/" in page.url
    assert page.evaluate("() => document.activeElement.id") == "leave"
    page.click("#leave")
    page.click("#leave-yes")
    page.wait_for_url(server + "/")
    deadline = time.monotonic() + 10
    while not page.request.get(f"{server}/api/tables/{tid}").json()["table"]["seats"][0]["bot"]:
        assert time.monotonic() < deadline, "no bot took her seat"
        time.sleep(0.05)
    assert native == []
    assert not errors
    context.close()


#: every animation that moves something, as the page runs it: script animations as they are
#: started, CSS ones sampled every 20 ms
MOVES_WATCH = """
window.moved = [];
const moves = (frames) => frames.some((f) => "transform" in f || "translate" in f);
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  if (Array.isArray(frames) && moves(frames)) window.moved.push(this.getAttribute("class"));
  return animate.call(this, frames, options);
};
setInterval(() => {
  for (const a of document.getAnimations()) {
    if (a.effect && moves(a.effect.getKeyframes())) window.moved.push(a.animationName || "?");
  }
}, 20);
"""


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_nothing_slides_under_reduced_motion(server: str, browser: Any, motion: str) -> None:
    """The tiles laid slide in from their seats, a drawn or dealt tile drops into the hand, a
    pass shakes its plate: unless the player's system asks for less motion, when nothing
    moves at all (the outlines stay)."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, locale="en-US", reduced_motion=motion
    )
    context.add_init_script(MOVES_WATCH)
    page = context.new_page()
    errors = _watch(page)
    open_table(page, server, "kozel", 4)
    deadline = time.monotonic() + 15
    while not page.locator("svg#board g.tile.last").count():
        assert time.monotonic() < deadline, "no tile was laid"
        # she may lead: her tile then comes first
        playable = page.locator("#hand button.tile.playable")
        if playable.count():
            playable.first.click()
        page.wait_for_timeout(50)
    page.wait_for_timeout(300)
    moved = page.evaluate("window.moved")
    assert (moved == []) == (motion == "reduce"), moved
    assert not errors
    context.close()


@pytest.mark.parametrize(("screen", "lang"), SCREENS)
def test_kolbasa_s_stop_beside_a_cut_says_it_declines_the_cut(
    server: str, browser: Any, screen: tuple[int, int], lang: str
) -> None:
    """Kolbasa's cut is the player's choice: where a cut is legal, the move that sends the tile
    back is offered as "Don't cut" («Не резать»), and as the plain stop where none is."""
    context = _context(browser, screen, lang)
    page = context.new_page()
    page.goto(server + "/")
    said = page.evaluate(
        """async () => {
          const i18n = await import("/static/i18n.js");
          await i18n.loadTexts();
          const { moveText } = await import("/static/words.js");
          const cutting = { legal: ["cut 5-3:1", "cut 5-3:2", "stop"], ends: {} };
          const stuck = { legal: ["stop"], ends: {} };
          return [moveText(cutting, "stop", "Olga"), moveText(stuck, "stop", "Olga")];
        }"""
    )
    assert said == {"en": ["Don't cut", "Stop"], "ru": ["Не резать", "Закончить ход"]}[lang]
    context.close()
