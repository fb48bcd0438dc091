"""The coach at the table in a real browser: the Hint button of a casual game against bots
picks the coach's move on the board and says why, and the round-end sheet's "How did I
play?" grades the player's own moves of the round, under the table. Headless Chromium
driven by Playwright, as in test_web_result.py; both languages, desktop and phone."""

from __future__ import annotations

import contextlib
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
from test_web_result import Table  # noqa: E402

from bazar import i18n  # noqa: E402
from bazar.club import create_app  # noqa: E402
from bazar.club.settings import Settings  # noqa: E402

SCREENS = Path(__file__).resolve().parent.parent / "docs" / "screens"
#: the sizes photographed, as tools/screenshots.py names them
SIZES = {"desktop": (1280, 800), "phone": (360, 740)}
LOOKS = [(lang, device) for lang in ("en", "ru") for device in SIZES]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """A club with a quick coach (few deals a position), whose tables pause 60 s between
    rounds: the sheet stays while the test looks at it."""
    settings = Settings(coach_deals=4, round_pause_s=60)
    app = create_app(
        f"sqlite:///{tmp_path / 'club.sqlite3'}", secret="coach", bot_delay=0.01, settings=settings
    )
    with served(app) as url:
        yield url


def at_a_choice(page: Any) -> None:
    """Play on (a lone tile that fits, a draw, the next round) until the player is to move
    with a choice to make: the Hint button is offered."""
    deadline = time.monotonic() + 90
    while not page.locator("#hint").count():
        assert time.monotonic() < deadline, "no choice came"
        playable = page.locator("#hand button.tile.playable")
        buttons = page.locator(".felt .actions button, #next-round")
        # the page redraws as the bots move: what was there to click may be gone
        with contextlib.suppress(sync_api.Error):
            if playable.count():
                playable.first.click(timeout=1_000)
            elif buttons.count():
                buttons.first.click(timeout=1_000)
        page.wait_for_timeout(50)


def sat_down(browser: Any, server: str, lang: str, device: str) -> Table:
    """Masha's page at a two-player Kozel table of hers with a bot, at ``device``'s size."""
    table = Table(browser, server, lang, game="kozel", players=2)
    table.page.set_viewport_size(dict(zip(("width", "height"), SIZES[device], strict=True)))
    return table


@pytest.mark.parametrize(("lang", "device"), LOOKS)
def test_the_hint_picks_the_coach_s_move_on_the_board_and_says_why(
    server: str, lang: str, device: str
) -> None:
    words = i18n.web(lang)
    with chromium() as browser:
        table = sat_down(browser, server, lang, device)
        page = table.page
        at_a_choice(page)
        button = page.locator("#hint")
        assert button.inner_text() == words["hint"]
        assert button.bounding_box()["height"] >= 44
        with page.expect_response(lambda r: r.url.endswith("/hint"), timeout=60_000) as asked:
            button.click()
        hint = asked.value.json()
        line = page.locator("#hint-text")
        sync_api.expect(line).to_be_visible(timeout=10_000)
        assert line.inner_text().startswith(words["hintSays"] + ":")
        # the hinted tile is the one picked in the hand, its end the one chosen
        tile = hint["move"].split(":")[0]
        picked = page.locator("#hand button.tile[aria-pressed='true']")
        if "-" in tile:
            sync_api.expect(picked).to_have_count(1)
            assert picked.get_attribute("data-tile") == tile
        assert "undefined" not in line.inner_text() and "{" not in line.inner_text()
        size = SIZES[device]
        assert page.evaluate("document.scrollingElement.scrollWidth") <= size[0]
        page.screenshot(path=str(SCREENS / f"coach-hint-{lang}-{device}.png"))
        # the hint is of this position: once a move is made it is gone
        if picked.count():
            page.keyboard.press("Enter")
        else:
            page.locator(".felt .actions button:not(#hint)").first.click()
        sync_api.expect(line).to_be_hidden(timeout=10_000)
        assert not table.errors


@pytest.mark.parametrize(("lang", "device"), LOOKS)
def test_how_did_i_play_grades_the_player_s_own_moves_of_the_round(
    server: str, lang: str, device: str
) -> None:
    words = i18n.web(lang)
    with chromium() as browser:
        table = sat_down(browser, server, lang, device)
        page = table.page
        end = table.play_to_a_round_end()
        mine = [move for seat, move, _ in end["final"]["view"]["history"] if seat == 0]
        button = page.locator("#how-played")
        assert button.inner_text() == words["howDidIPlay"]
        button.click()
        moves = page.locator("#review-moves li")
        sync_api.expect(moves).to_have_count(len(mine), timeout=60_000)
        status = page.locator("#review-status").inner_text()
        head = words["reviewAccuracy"].split("{")[0]
        assert status.startswith(head) or status == words["reviewNone"]
        assert words["reviewTitle"].format(n=end["number"]) in page.locator("#review").inner_text()
        size = SIZES[device]
        assert page.evaluate("document.scrollingElement.scrollWidth") <= size[0]
        page.locator("#review").screenshot(path=str(SCREENS / f"coach-review-{lang}-{device}.png"))
        page.click("#review-close")
        sync_api.expect(page.locator("#review")).to_be_hidden()
        assert not table.errors
