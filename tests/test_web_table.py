"""The table page in a real browser (headless Chromium driven by Playwright), against bots: a
round played with the keyboard alone, every move said to a screen reader and logged, the tab's
title on the player's turn, the hand whole on a phone's screen with targets large enough to
hit, the way out of a match under way, and motion only for who has not asked for less."""

from __future__ import annotations

import time
from typing import Any

import pytest
import test_web_boards as boards

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


def test_a_player_who_leaves_a_match_hands_her_seat_to_a_bot(server: str, browser: Any) -> None:
    """Leave asks first; once she says yes a bot has her seat and she is in the lobby."""
    context = browser.new_context(viewport={"width": 900, "height": 900}, locale="en-US")
    page = context.new_page()
    errors = _watch(page)
    open_table(page, server, "kozel", 2)
    page.wait_for_selector("#hand button.tile", timeout=15_000)
    tid = page.url.rsplit("/", 1)[1]
    asked: list[str] = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.click("#leave")
    assert asked and "bot" in asked[0] and "/table/" in page.url
    page.once("dialog", lambda d: d.accept())
    page.click("#leave")
    page.wait_for_url(server + "/")
    deadline = time.monotonic() + 10
    while not page.request.get(f"{server}/api/tables/{tid}").json()["table"]["seats"][0]["bot"]:
        assert time.monotonic() < deadline, "no bot took her seat"
        time.sleep(0.05)
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
