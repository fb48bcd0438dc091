"""A tournament in a real browser: a person organises an eight-player Swiss Kozel of two
rounds on the tournament pages, fills the field with seven bots, enters it himself, starts it,
plays his table of each round by clicking, and reads the standings the page shows against the
club's own."""

from __future__ import annotations

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
from test_server_browser import MOVE_OR_END, _guest, _make_a_move, chromium  # noqa: E402

from bazar.club import create_app  # noqa: E402
from bazar.club.settings import Settings  # noqa: E402

#: Kozel's place points at a table of four (the goat last): what each table gives out
PLACE_POINTS = (3, 2, 1, 0)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """A club on a file of its own: quick bots (at the tables nobody watches too), the next
    round of a match at once."""
    app = create_app(
        f"sqlite:///{tmp_path / 'club.sqlite3'}",
        secret="browser",
        bot_delay=0.02,
        settings=Settings(round_pause_s=0, unwatched_bot_delay_s=0),
    )
    with served(app) as url:
        yield url


def _play_the_table(page: sync_api.Page) -> str:
    """Go from the tournament's page to the player's table, play its match through by
    clicking, and come back by the table's link to the tournament; the table's id."""
    page.click("#go-table")
    page.wait_for_url("**/table/*")
    table = page.url.split("/table/")[1].split("?")[0]
    sync_api.expect(page.locator("#to-tournament")).to_contain_text("Yard cup")
    page.wait_for_selector("#hand button.tile", timeout=15_000)
    deadline = time.monotonic() + 90
    while True:
        assert time.monotonic() < deadline, "the match did not end"
        page.wait_for_function(MOVE_OR_END, timeout=20_000)
        if "Match over" in page.locator("#result").inner_text():
            break
        _make_a_move(page, f"bazar.v.{table}")
    page.click("#to-tournament")
    page.wait_for_url("**/tournament/*")
    return table


def test_an_eight_player_swiss_kozel_is_organised_played_and_read_on_its_page(
    server: str, tmp_path: Path
) -> None:
    expect = sync_api.expect
    with chromium() as browser:
        errors: list[str] = []
        page = _guest(browser, server, "Masha", errors)
        # the lobby leads to the tournaments, where the form organises one
        page.click("#lobby-tournaments")
        page.fill("#organise input[name=name]", "Yard cup")
        page.select_option("#organise select[name=game]", "kozel")
        page.select_option("#organise select[name=players]", "4")
        page.select_option("#organise select[name=format]", "swiss")
        page.fill("#organise input[name=rounds]", "2")
        # a short match: the goat is whoever reaches 12 first
        page.fill("#organise input[name=length]", "12")
        page.click("#organise button")
        page.wait_for_url("**/tournament/*")
        tid = page.url.split("/tournament/")[1].split("?")[0]
        expect(page.locator("#tour-progress")).to_contain_text("Open for entries")
        # the organiser fills the field with seven bots and enters it himself
        page.select_option("#tour-bots select[name=level]", "random")
        page.fill("#tour-bots input[name=count]", "7")
        page.click("#tour-bots button")
        expect(page.locator("#standings h2")).to_have_text("Entries (7)")
        page.click("#tour-join")
        expect(page.locator("#standings h2")).to_have_text("Entries (8)")
        page.click("#tour-start")
        tables = []
        for n in (1, 2):
            # the socket brings the round; the page says it and offers the way to his table
            expect(page.locator("#your-table")).to_contain_text(
                f"Your table is ready: round {n}, table", timeout=60_000
            )
            expect(page.locator("#tour-progress")).to_contain_text(f"round {n} of 2")
            mine = page.locator(f'.round[data-round="{n}"] li.pairing.yours')
            expect(mine).to_have_count(1)
            expect(mine).to_contain_text("Masha")
            tables.append(_play_the_table(page))
        expect(page.locator("#tour-progress")).to_contain_text("Finished", timeout=60_000)
        expect(page.locator("#your-table")).to_be_empty()
        # the standings as the page shows them, row by row
        rows = page.locator("#standings-table tbody tr")
        expect(rows).to_have_count(8)
        shown = [
            (
                int(row.locator("td").nth(0).inner_text()),
                row.locator("th").inner_text().strip(),
                float(row.locator("td.points").inner_text().replace(",", ".")),
            )
            for row in rows.all()
        ]
        tour = page.request.get(f"{server}/api/tournaments/{tid}").json()["tournament"]
        assert tour["status"] == "finished" and tour["round"] == 2
        standings = tour["standings"]
        assert [(s["rank"], s["points"]) for s in standings] == [(r, p) for r, _, p in shown]
        assert "Masha" in [name for _, name, _ in shown]
        # each round two tables of four, each giving out its places' points: 3 + 2 + 1 + 0
        played = [p for r in tour["rounds_played"] for p in r["pairings"]]
        assert len(played) == 4 and all(len(p["entries"]) == 4 for p in played)
        assert sum(s["points"] for s in standings) == 4 * sum(PLACE_POINTS)
        assert sum(s["played"] for s in standings) == 16
        # his tables are the tournament's, each linked to its record once finished
        masha = next(e["id"] for e in tour["entries"] if e["name"] == "Masha")
        assert tables == [p["table"] for p in played if masha in p["entries"]]
        for table in tables:
            expect(page.locator(f"li.pairing a[href='/replay/{table}']")).to_have_count(1)
        # the tournament's file, downloaded from its page and imported on the list's, is
        # the same tournament: its standings computed again from its records
        with page.expect_download() as download:
            page.click("a[download]")
        page.click("header a[href='/']")
        page.click("#lobby-tournaments")
        file = tmp_path / download.value.suggested_filename
        download.value.save_as(file)
        page.set_input_files("#tournament-file", file)
        expect(page.locator("#tournament-chosen")).to_have_text(file.name)
        page.click("#import button")
        page.wait_for_url(re.compile(r"/tournament/(?!" + re.escape(tid) + r"$)"))
        again = page.request.get(page.url.replace("/tournament/", "/api/tournaments/")).json()
        assert [(s["name"], s["points"]) for s in again["tournament"]["standings"]] == [
            (s["name"], s["points"]) for s in standings
        ]
        expect(page.locator("#standings-table tbody tr")).to_have_count(8)
        # on a phone the standings scroll in their own box, never the page
        page.set_viewport_size({"width": 360, "height": 740})
        page.wait_for_timeout(100)
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 360
        assert not errors
