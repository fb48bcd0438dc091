"""The end of a round in a real browser (bazar/web/result.js): the final position stays on the
board, every hand is turned face up, and a sheet over it says how the round ended and how the
points were counted in a table with labelled columns and rows; "Next round" (or the end of
the pause) goes on to the next round. Headless Chromium driven by Playwright, as in
test_server_browser.py."""

from __future__ import annotations

import contextlib
import json
import re
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
sync_api = pytest.importorskip("playwright.sync_api")

from server_helpers import served  # noqa: E402
from test_server_browser import chromium  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import screenshots  # noqa: E402  (its seat plays a match on a socket while the pages look on)

from bazar import i18n  # noqa: E402
from bazar.club import create_app  # noqa: E402
from bazar.club.settings import Settings  # noqa: E402
from bazar.core.rules import rules as make_rules  # noqa: E402
from bazar.core.scoring import hand_value  # noqa: E402
from bazar.core.tiles import Tile  # noqa: E402


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """A club whose tables pause ``request.param`` seconds between rounds (30 by default), or
    whose settings ``request.param`` gives (a dict: ``round_pause_s``, ``rematch_window_s``)."""
    param = getattr(request, "param", 30)
    given = param if isinstance(param, dict) else {"round_pause_s": param}
    window = given.pop("rematch_window_s", 120.0)
    settings = Settings(**given)
    app = create_app(
        f"sqlite:///{tmp_path / 'club.sqlite3'}",
        secret="result",
        bot_delay=0.01,
        settings=settings,
        rematch_window_s=window,
    )
    with served(app) as url:
        yield url


class Table:
    """A guest's page at a table of his with bots; the round_end events its socket heard."""

    def __init__(self, browser: Any, server: str, lang: str = "en", **form: Any) -> None:
        context = browser.new_context(viewport={"width": 1280, "height": 800}, locale=lang)
        context.add_init_script(f"localStorage.setItem('bazar.lang', '{lang}')")
        self.page = page = context.new_page()
        self.errors: list[str] = []
        self.ends: list[dict[str, Any]] = []
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("websocket", lambda ws: ws.on("framereceived", self._heard))
        page.goto(server + "/")
        r = page.request.post(server + "/api/guest", data={"name": "Masha"})
        assert r.ok, r.text()
        r = page.request.post(server + "/api/tables", data={"bots": "random", **form})
        assert r.ok, r.text()
        self.id = r.json()["table"]["id"]
        # as the table names them: a bot by its level ("Bot 2 · Novice")
        self.names = [
            f"Bot {s + 1} · {i18n.level_name(seat['bot'], 'en')}" if seat["bot"] else seat["name"]
            for s, seat in enumerate(r.json()["table"]["seats"])
        ]
        page.goto(f"{server}/table/{self.id}")
        page.wait_for_selector(".felt[data-v]", timeout=15_000)

    def _heard(self, frame: Any) -> None:
        message = json.loads(frame)
        events = message.get("events", []) + ([message["event"]] if "event" in message else [])
        self.ends += [e for e in events if e.get("t") == "round_end"]

    def play_to_a_round_end(self) -> dict[str, Any]:
        """Click tiles (on their first end) and the lone buttons until the result sheet shows;
        the round_end event it shows."""
        page = self.page
        deadline = time.monotonic() + 90
        while not page.locator("#result-heading").count():
            assert time.monotonic() < deadline, "the round did not end"
            # the hand's tiles; Kolbasa's, which has no hand, on the board
            playable = page.locator("#hand button.tile.playable, svg#board g.tile.playable")
            buttons = page.locator(".felt .actions button")
            # the page redraws as the bots move: what was there to click may be gone
            with contextlib.suppress(sync_api.Error):
                if playable.count():
                    playable.first.click(timeout=2_000)
                    ends = page.locator("svg#board g.end")
                    if ends.count():
                        ends.first.click(timeout=2_000)
                elif buttons.count():
                    buttons.first.click(timeout=2_000)
            page.wait_for_timeout(50)
        assert self.ends
        return self.ends[-1]


def laid_last(end: dict[str, Any]) -> str:
    """The last tile the round laid, as the board names it ("6|4")."""
    tiles = [move.split(" ")[-1].split(":")[0] for _, move, _ in end["final"]["view"]["history"]]
    last = next(t for t in reversed(tiles) if "-" in t)
    return last.replace("-", "|")


def test_kozel_keeps_the_final_board_and_labels_the_result(server: str) -> None:
    with chromium() as browser:
        table = Table(browser, server, game="kozel", players=4)
        page = table.page
        end = table.play_to_a_round_end()
        names = table.names
        # the board is the round's last position, dimmed under the sheet
        a, b = laid_last(end).split("|")
        last = page.locator(
            f"svg#board g.layout g.tile[data-tile='{a}|{b}'], "
            f"svg#board g.layout g.tile[data-tile='{b}|{a}']"
        )
        assert last.count() == 1
        assert page.locator(".board-wrap.ended").count() == 1
        heading = page.locator("#result-heading")
        assert heading.inner_text().startswith(f"Round {end['number']} · ")
        assert heading.evaluate("(h) => document.activeElement === h")
        # every hand, with its pips; the one who went out marked
        hands = page.locator(".end-hands li")
        assert hands.count() == 4
        for s, hand in enumerate(end["final"]["hands"]):
            item = hands.nth(s)
            assert item.locator(".end-name").inner_text() == names[s]
            assert item.locator(".tile-svg").count() == len(hand)
        # the totals: a column per player, a row per stage of the count
        scores = page.locator("#scoretable")
        heads = scores.locator("thead th[scope=col]").all_inner_texts()
        assert heads == names
        rows = scores.locator("tbody th[scope=row]").all_inner_texts()
        assert rows == ["Before", "This round's points", "Total"]
        assert "remembered points" in page.locator(".end-legend").inner_text()
        # on a phone the sheet fits the width, and its buttons are thumb-sized
        page.set_viewport_size({"width": 360, "height": 740})
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        for button in ("#next-round", "#show-board"):
            box = page.locator(button).bounding_box()
            assert box is not None and round(box["height"]) >= 44 and box["x"] + box["width"] <= 360
        page.set_viewport_size({"width": 1280, "height": 800})
        # the sheet goes, the board stays, and comes back
        page.click("#show-board")
        assert page.locator("#result-heading").count() == 0
        assert last.count() == 1
        page.click("#show-result")
        # next: nobody else to wait for, the next round begins at once
        page.click("#next-round")
        sync_api.expect(page.locator("#result")).to_be_hidden()
        sync_api.expect(page.locator(".board-wrap.ended")).to_have_count(0)
        assert not table.errors


@pytest.mark.parametrize("server", [2], indirect=True)
def test_fives_counts_the_points_of_play_and_the_bonus_and_goes_on_by_itself(server: str) -> None:
    with chromium() as browser:
        table = Table(browser, server, game="fives", players=2)
        page = table.page
        end = table.play_to_a_round_end()
        rows = page.locator("#scoretable tbody th[scope=row]").all_inner_texts()
        if end["outcome"]["scoring"]:
            assert rows == ["Before", "Scored in play", "Bonus", "Total"]
        else:
            assert rows == ["Before", "Bonus", "Total"]
        totals = page.locator("#scoretable tr.total td").all_inner_texts()
        assert totals == [str(x) for x in end["after"]["scores"]]
        # the countdown runs, and the pause ends without anyone pressing next
        assert page.locator("#next-round").inner_text().startswith("Next round (")
        sync_api.expect(page.locator("#result")).to_be_hidden(timeout=8_000)
        assert not table.errors


def test_a_fish_is_said_in_the_players_language(server: str) -> None:
    """A fish is rare in random play: the sheet is drawn from a made-up fish's event."""
    with chromium() as browser:
        table = Table(browser, server, lang="ru", game="kozel", players=4)
        page = table.page
        end = table.play_to_a_round_end()
        fish = {**end, "v": end["v"] + 1000}
        fish["outcome"] = {**end["outcome"], "reason": "fish", "out_seat": None, "fisher": 1}
        text = page.evaluate(
            """async (event) => {
              const { renderRoundEnd } = await import("/static/result.js");
              const box = document.createElement("section");
              document.body.append(box);
              const names = (s) => ["Оля", "Ваня", "Петя", "Маша"][s];
              renderRoundEnd(box, { state: { roundEnd: event, end: null, clock: null },
                rules: event.final.view.rules, names, onNext() {}, onShowBoard() {} });
              return box.innerText;
            }""",
            fish,
        )
        assert f"Раунд {end['number']} · Рыба" in text
        assert "Последняя кость — Ваня" in text
        assert "До раунда" in text and "Итого" in text
        assert not table.errors


#: a short match of each family: its game, players and options (one round where the game has
#: a mark that low; Mexican Train's shortest schedule is the seven rounds of double-6, Texas 42
#: plays to 250), played on the player's socket in a few seconds
MATCHES = {
    "line": ("kozel", 4, {"limit": 1}),
    "cross": ("fives", 2, {"target": 1}),
    "trains": ("mexican-train", 2, {"set_max": 6, "hand_size": 7}),
    "tree": ("chicken-foot", 2, {"match_end": "limit", "limit": 1}),
    "kolbasa": ("kolbasa", 2, {}),
    "poker": ("poker", 4, {"deals": 1}),
    "trick": ("texas-42", 4, {}),
}
DESKTOP, PHONE, SMALL_PHONE = (1280, 800), (360, 740), (360, 640)

#: the events a table's pages hear, as a route of their socket may change them on the way
Edit = Callable[[dict[str, Any]], None]


class Watched:
    """A guest's table with bots, played by random legal moves on a socket of his own (the
    gallery's seat, tools/screenshots.py) while a page of his at each size looks on: the
    round_end and match_end events his socket heard. With ``edit``, the pages' sockets are
    routed through the test, and each round_end passed through ``edit`` on its way."""

    def __init__(
        self,
        browser: Any,
        server: str,
        lang: str,
        match: tuple[str, int, dict[str, Any]],
        sizes: tuple[tuple[int, int], ...],
        edit: Edit | None = None,
    ) -> None:
        name, players, options = match
        self.server, self.edit = server, edit
        self.context = browser.new_context(locale=lang)
        self.context.add_init_script(f"localStorage.setItem('bazar.lang', '{lang}')")
        screenshots.post(self.context, server, "/api/guest", {"name": "Masha"})
        self.id = screenshots.new_table(
            self.context, server, name, players, options=options, bots="random"
        )
        self.ends: list[dict[str, Any]] = []
        self.match_end: dict[str, Any] | None = None
        self.errors: list[str] = []
        self.pages: dict[tuple[int, int], Any] = {}
        for width, height in sizes:
            page = self.context.new_page()
            page.set_viewport_size({"width": width, "height": height})
            page.on("pageerror", lambda e: self.errors.append(str(e)))
            if edit is not None:
                page.route_web_socket(re.compile(rf"/ws/{self.id}$"), self._route)
            page.goto(f"{server}/table/{self.id}")
            page.wait_for_selector(".felt[data-v]", timeout=15_000)
            self.pages[(width, height)] = page

    def _route(self, ws: Any) -> None:
        """The page's socket to the table, every round's end edited on its way."""
        table = ws.connect_to_server()

        def heard(message: str | bytes) -> None:
            if isinstance(message, str) and self.edit is not None:
                data = json.loads(message)
                events = data.get("events", []) + ([data["event"]] if "event" in data else [])
                for event in events:
                    if event.get("t") == "round_end":
                        self.edit(event)
                message = json.dumps(data)
            ws.send(message)

        table.on_message(heard)

    def _heard(self, event: dict[str, Any]) -> None:
        if event.get("t") == "round_end":
            self.ends.append(event)
        if event.get("t") == "match_end":
            self.match_end = event

    def play(self, rounds: int | None = None) -> None:
        """Her moves until ``rounds`` rounds have ended (None: the match), and every page
        showing the end."""
        cookie = screenshots.cookie_of(self.context)
        with screenshots.seated(self.server, self.id, cookie, 1) as seat:
            # what her socket hears, the pages hear: the events as the table sent them
            told = seat._heard
            seat._heard = lambda event: (self._heard(event), told(event))  # type: ignore[method-assign]
            seat.play(rounds=rounds, seconds=90)
        for page in self.pages.values():
            page.wait_for_selector("#result-heading", timeout=30_000)
            if rounds is None:
                sync_api.expect(page.locator("#rematch")).to_be_visible(timeout=10_000)
            page.wait_for_timeout(300)

    def close(self) -> None:
        self.context.close()


#: "You won", "You are the goat", "2nd of 4": what the page's player is told first
VERDICTS = {
    "en": {
        "won": "You won",
        "side won": "Your side won",
        "goat": "You are the goat",
        "donkey": "You are the donkey",
        "lost": "You lost",
        "side lost": "Your side lost",
    },
    "ru": {
        "won": "Вы выиграли",
        "side won": "Ваша команда выиграла",
        "goat": "Вы — козёл",
        "donkey": "Вы — осёл",
        "lost": "Вы проиграли",
        "side lost": "Ваша команда проиграла",
    },
}


def verdict(end: dict[str, Any], rules: dict[str, Any], seat: int, lang: str) -> str:
    """What the match's end tells the player of ``seat`` first, by the event's places."""
    words = VERDICTS[lang]
    team = "side " if rules["options"].get("teams") else ""
    if seat in end["winners"]:
        return words[f"{team}won"]
    if seat in end["losers"]:
        return words.get(rules.get("loser") or "", words[f"{team}lost"])
    place, of = end["places"][seat], len(end["scores"]["scores"])
    if lang == "ru":
        return f"{place}-е место из {of}"
    return f"{place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place, 'th') } of {of}"


#: the controls of a match's end, by id, that every player must reach by touch and keyboard
MATCH_CONTROLS = ("rematch", "replay", "download", "show-board", "how-played")

#: the boxes round ``el`` that clip it yet were scrolled, which no finger nor wheel can do
#: (a script's scrollIntoView can: a control reached so was out of reach)
SCROLLED_CLIPS = """(el) => {
  const clips = [];
  for (let a = el.parentElement; a; a = a.parentElement) {
    const o = getComputedStyle(a).overflowY;
    if ((o === "hidden" || o === "clip") && a.scrollTop > 0) clips.push(a.className || a.tagName);
  }
  return clips;
}"""

#: whether a point at the centre of ``el`` finds it there, on the screen
HIT = """(el) => {
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
  const found = document.elementFromPoint(x, y);
  return found === el || el.contains(found);
}"""

#: whether the elements of these ids come in this order in the page
IN_ORDER = """(ids) => ids.map((id) => document.getElementById(id)).every((el, i, all) =>
  i === 0 || Boolean(all[i - 1].compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING))"""

#: for each plate and board tile under the sheet, whether a point over both finds the sheet
COVERED = """() => {
  const sheet = document.getElementById("result");
  // (inside its rounded corners, which let what lies beside them show)
  const round = parseFloat(getComputedStyle(sheet).borderTopLeftRadius) || 0;
  const b = sheet.getBoundingClientRect();
  const s = { left: b.left + round, right: b.right - round,
    top: b.top + round, bottom: b.bottom - round };
  return [...document.querySelectorAll(".player, svg#board g.tile")].map((p) => {
    const r = p.getBoundingClientRect();
    const x = (Math.max(r.left, s.left) + Math.min(r.right, s.right)) / 2;
    const y = (Math.max(r.top, s.top) + Math.min(r.bottom, s.bottom)) / 2;
    const apart = r.right <= s.left || r.left >= s.right || r.bottom <= s.top || r.top >= s.bottom;
    return apart || y > innerHeight || sheet.contains(document.elementFromPoint(x, y));
  });
}"""

#: the words of ``el``'s text that a line break cuts in two ("remembere/d")
BROKEN_WORDS = """(el) => {
  const broken = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const m of node.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].filter((q) => q.width > 0)
        .map((q) => Math.round(q.top)));
      if (tops.size > 1) broken.push(m[0]);
    }
  }
  return broken;
}"""


def reach_by_touch(page: Any, control: Any) -> bool:
    """Whether a player reaches ``control`` as a finger or a wheel would: scrolling what
    scrolls under the sheet's centre (never a script's scrollIntoView), then a point at its
    centre finds it."""
    sheet = page.locator("#result").bounding_box()
    assert sheet is not None
    page.mouse.move(sheet["x"] + sheet["width"] / 2, sheet["y"] + min(sheet["height"], 200) / 2)
    for _ in range(12):
        if control.evaluate(HIT):
            break
        page.mouse.wheel(0, 120)
        page.wait_for_timeout(60)
    return bool(control.evaluate(HIT)) and not control.evaluate(SCROLLED_CLIPS)


def reach_by_tab(page: Any, ids: tuple[str, ...]) -> set[str]:
    """The controls of ``ids`` that Tab reaches from the sheet's heading."""
    page.locator("#result-heading").focus()
    reached = set()
    for _ in range(40):
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement && document.activeElement.id")
        if focused in ids:
            reached.add(focused)
        if reached == set(ids):
            break
    return reached


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("family", list(MATCHES))
@pytest.mark.parametrize("server", [0], indirect=True)
def test_the_match_end_says_how_the_player_did_first_and_every_control_is_in_reach(
    server: str, family: str, lang: str
) -> None:
    """Played to its end, a match's sheet says first, in words, how the player did, then the
    final table, then what to do (the rematch counted down); it hides what lies under it,
    and on a phone as small as 360x640 a finger and the keyboard reach each of its controls."""
    with chromium() as browser:
        watched = Watched(browser, server, lang, MATCHES[family], (DESKTOP, PHONE, SMALL_PHONE))
        watched.play()
        end, last = watched.match_end, watched.ends[-1]
        assert end is not None and end["places"] is not None
        rules = last["final"]["view"]["rules"]
        said = verdict(end, rules, 0, lang)
        for size, page in watched.pages.items():
            where = f"{family} {lang} {size}"
            heading = page.locator("#result-heading")
            assert heading.inner_text() == said, where
            assert page.locator("#result").inner_text().startswith(said), where
            # the verdict, then the final table, then the actions
            assert page.evaluate(IN_ORDER, ["result-heading", "scoretable", "rematch"]), where
            totals = page.locator("#scoretable tr.total td").all_inner_texts()
            assert [t.strip() for t in totals if t.strip().lstrip("+-").isdigit()] or totals, where
            left = re.compile(r"[0-2]:\d\d left to ask|осталось [0-2]:\d\d")
            sync_api.expect(page.locator("#rematch-left")).to_have_text(left)
            assert page.locator("#rematch").is_enabled(), where
            # opaque: no plate shows through the sheet, which is what a point over it finds
            sheet = page.locator("#result")
            colour = sheet.evaluate("(el) => getComputedStyle(el).backgroundColor")
            assert colour.startswith("rgb("), (where, colour)
            covered = page.evaluate(COVERED)
            assert all(covered), where
            # no word of the table cut in two, and nothing wider than the screen
            assert not page.locator("#scoretable").evaluate(BROKEN_WORDS), where
            assert page.evaluate("document.scrollingElement.scrollWidth") <= size[0], where
            for control in MATCH_CONTROLS:
                button = page.locator(f"#{control}")
                assert reach_by_touch(page, button), f"{where}: #{control} out of a finger's reach"
                box = button.bounding_box()
                assert box is not None and round(box["height"]) >= 44, where
            assert reach_by_tab(page, MATCH_CONTROLS) == set(MATCH_CONTROLS), where
            assert not page.locator("#result-heading").evaluate(SCROLLED_CLIPS), where
        assert not watched.errors
        watched.close()


@pytest.mark.parametrize("server", [{"round_pause_s": 0, "rematch_window_s": 5}], indirect=True)
def test_the_rematch_is_counted_down_and_closed_when_its_time_is_over(server: str) -> None:
    with chromium() as browser:
        overs = {"en": "The time for a rematch is over", "ru": "Время для реванша вышло"}
        for lang, over in overs.items():
            watched = Watched(browser, server, lang, MATCHES["line"], (DESKTOP, PHONE))
            watched.play()
            for page in watched.pages.values():
                assert page.locator("#rematch").is_enabled()
                sync_api.expect(page.locator("#rematch-left")).to_have_text(re.compile(r"0:0\d"))
            for page in watched.pages.values():
                sync_api.expect(page.locator("#rematch-left")).to_have_text(over, timeout=8_000)
                sync_api.expect(page.locator("#rematch")).to_be_disabled()
            assert not watched.errors
            watched.close()


def _lone(hand: list[str]) -> Edit:
    """An edit of the first round's end: the second seat is left holding ``hand``, counted
    by the rules as the club counts it."""

    def edit(event: dict[str, Any]) -> None:
        if event["number"] != 1:
            return
        rules = make_rules(event["final"]["view"]["rules"]["name"], players=2)
        event["final"]["hands"][1] = hand
        event["final"]["values"][1] = hand_value(rules, [Tile.parse(t) for t in hand])

    return edit


@pytest.mark.parametrize(
    ("game", "hand", "said"),
    [
        ("kozel", ["0-0"], {"en": "0|0 alone counts 10", "ru": "0|0 в одиночку считается за 10"}),
        ("chicken-foot", ["0-0", "5-0"], {"en": "0|0 counts 50", "ru": "0|0 считается за 50"}),
    ],
)
def test_a_hand_that_counts_other_than_its_pips_says_why(
    server: str, game: str, hand: list[str], said: dict[str, str]
) -> None:
    """A lone 0-0 counts 10 in Kozel, a 0-0 50 in Chicken Foot: the sheet counts it so and
    says why, where it said "Σ 0" beside "+10". (The round's end is edited on its way to the
    page: a dealt 0-0 left alone is rare.)"""
    rules = make_rules(game, players=2)
    worth = hand_value(rules, [Tile.parse(t) for t in hand])
    assert worth != sum(Tile.parse(t).pips for t in hand)
    with chromium() as browser:
        for lang, why in said.items():
            sizes = (DESKTOP, PHONE)
            watched = Watched(browser, server, lang, (game, 2, {}), sizes, edit=_lone(hand))
            watched.play(rounds=1)
            end = watched.ends[0]
            # the other hand counts as the rules count it too: the club's values are theirs
            other = end["final"]["hands"][0]
            for page in watched.pages.values():
                item = page.locator(".end-hands li").nth(1)
                assert item.locator(".end-sum").inner_text() == f"Σ {worth}"
                assert item.locator(".end-why").inner_text() == why
                if other:
                    value = hand_value(rules, [Tile.parse(t) for t in other])
                    mine = page.locator(".end-hands li").nth(0).locator(".end-sum")
                    assert mine.inner_text() == f"Σ {value}"
            assert not watched.errors
            watched.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_board_shown_after_a_round_is_that_round_s_and_its_buttons_cover_nothing(
    server: str, lang: str
) -> None:
    """ "Show board" folds the sheet: the board, the plates and the status line are the
    round's that ended (its number once, no hand of the next round), and the buttons that
    bring the result back or go on lie where they cover no tile."""
    with chromium() as browser:
        watched = Watched(browser, server, lang, ("kozel", 4, {}), (DESKTOP, PHONE))
        watched.play(rounds=1)
        number = watched.ends[0]["number"]
        word = {"en": "Round", "ru": "Раунд"}[lang]
        for size, page in watched.pages.items():
            page.click("#show-board")
            folded = page.locator("#show-result")
            sync_api.expect(folded).to_be_visible()
            assert page.locator("#hand button.tile:visible").count() == 0, size
            assert folded.evaluate(HIT) and page.locator("#next-round").evaluate(HIT), size
            seen = page.locator(".felt .play").inner_text()
            assert seen.count(f"{word} {number}") == 1, (size, seen)
            assert f"{word} {number + 1}" not in seen, size
            # the plates count the tiles the round left, as the board shows them
            sizes = watched.ends[0]["final"]["view"]["hand_sizes"]
            counts = page.locator(".player .count .word").all_text_contents()
            assert [int(re.sub(r"\D", "", c) or 0) for c in counts] == sizes, size
            page.click("#show-result")
            sync_api.expect(page.locator("#result-heading")).to_be_visible()
        assert not watched.errors
        watched.close()
