"""The end of a round in a real browser (bazar/web/result.js): the final position stays on the
board, every hand is turned face up, and a sheet over it says how the round ended and how the
points were counted in a table with labelled columns and rows; "Next round" (or the end of
the pause) goes on to the next round. Headless Chromium driven by Playwright, as in
test_server_browser.py."""

from __future__ import annotations

import contextlib
import json
import time
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
from test_server_browser import chromium  # noqa: E402

from bazar import i18n  # noqa: E402
from bazar.club import create_app  # noqa: E402
from bazar.club.settings import Settings  # noqa: E402


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """A club whose tables pause ``request.param`` seconds between rounds (30 by default)."""
    settings = Settings(round_pause_s=getattr(request, "param", 30))
    app = create_app(
        f"sqlite:///{tmp_path / 'club.sqlite3'}", secret="result", bot_delay=0.01, settings=settings
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
