"""The table in a real browser: headless Chromium (Debian's, launched by path) driven by
Playwright creates a Kozel table with three bots and plays a whole round by clicking, and
shows a player who goes away and the bot that takes his seat."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

import uvicorn  # noqa: E402

from bazar.server import create_app  # noqa: E402

ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    options = getattr(request, "param", {})
    app = create_app(
        f"sqlite:///{tmp_path / 'club.sqlite3'}", secret="browser", bot_delay=0.02, **options
    )
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)


def test_a_round_of_kozel_against_three_bots_is_played_by_clicking(server: str) -> None:
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 900, "height": 900}, locale="en-US")
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(server + "/")
            page.fill("input[name=name]", "Masha")
            page.click("#guest")
            page.wait_for_selector("#create button:not([disabled])")
            page.select_option("select[name=game]", "kozel")
            page.select_option("select[name=players]", "4")
            page.select_option("select[name=level]", "random")
            page.click("#create button")
            page.wait_for_selector("svg#hand g.tile", timeout=15_000)
            clicks = 0
            deadline = time.monotonic() + 120
            while page.locator("#scoretable").count() == 0:
                assert time.monotonic() < deadline, "the round did not end"
                playable = page.locator("svg#hand g.tile.playable")
                if playable.count():
                    playable.first.click()
                    clicks += 1
                    ends = page.locator("svg#board g.end")
                    if ends.count():
                        ends.first.click()
                page.wait_for_timeout(60)
            table = page.locator("#scoretable")
            assert table.locator("th").count() == 4
            assert "Masha" in table.inner_text()
            assert clicks > 0
            assert "hash matches" in page.locator("#fair").inner_text()
            assert not errors
        finally:
            browser.close()


@pytest.mark.parametrize("server", [{"grace_s": 2.0}], indirect=True)
def test_a_player_who_goes_away_is_announced_then_replaced_by_a_bot(server: str) -> None:
    httpx = pytest.importorskip("httpx")
    client = pytest.importorskip("websockets.sync.client")
    expect = sync_api.expect
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 900, "height": 900}, locale="en-US")
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(server + "/")
            page.fill("input[name=name]", "Masha")
            page.click("#guest")
            page.wait_for_selector("#create button:not([disabled])")
            page.select_option("select[name=game]", "kozel")
            page.select_option("select[name=players]", "2")
            page.uncheck("input[name=bots]")
            page.click("#create button")
            page.wait_for_url("**/table/*")
            tid = page.url.split("/table/")[1].split("?")[0]
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
        finally:
            browser.close()
