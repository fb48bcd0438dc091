"""The lobby and the waiting room in a real browser (headless Chromium, launched by path,
driven by Playwright): the game cards and their remembered settings, "play now", the list
of tables kept live by the lobby's socket, the invitation link copied, and the lobby on a
phone."""

from __future__ import annotations

import re
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

from bazar.club import create_app  # noqa: E402
from bazar.club.settings import Settings  # noqa: E402
from bazar.core.rules import VARIANTS  # noqa: E402

ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--no-first-run"]
expect = sync_api.expect


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("club") / "club.sqlite3"
    roomy = Settings(guests_per_address=10_000, open_tables_per_user=10_000)
    # slow bots: a table of bots stays in play while a test looks at it
    app = create_app(f"sqlite:///{db}", secret="lobby", bot_delay=2.0, settings=roomy)
    with served(app) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def _lobby(
    browser: Any,
    server: str,
    name: str,
    errors: list[str],
    locale: str = "en-US",
    viewport: tuple[int, int] = (1280, 800),
) -> Any:
    """A browser of its own in the lobby, logged in as the guest ``name``; its page errors and
    console errors (but the club's missing favicon) go to ``errors``."""
    width, height = viewport
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(f"{name}: {e}"))
    page.on(
        "console",
        lambda m: (
            m.type == "error"
            and "favicon" not in m.location.get("url", "")
            and errors.append(f"{name}: {m.text}")
        ),
    )
    page.goto(server + "/")
    page.fill("input[name=name]", name)
    # the lobby is drawn anew once the guest is in: wait for his login itself
    with page.expect_response(lambda r: r.url.endswith("/api/guest") and r.ok):
        page.click("#guest")
    page.wait_for_selector("#create button:not([disabled])")
    page.wait_for_selector(".live:not(.off):has-text('●')")
    return page


def _other(browser: Any, server: str, name: str) -> Any:
    """Another player, who acts through the API alone."""
    request = browser.new_context().request
    assert request.post(server + "/api/guest", data={"name": name}).ok
    return request


def test_a_table_made_elsewhere_appears_in_the_lobby_and_goes_without_a_reload(
    browser: Any, server: str
) -> None:
    errors: list[str] = []
    masha = _lobby(browser, server, "Masha", errors)
    masha.evaluate("window.notReloaded = true")
    olya = _other(browser, server, "Olya")
    made = olya.post(server + "/api/tables", data={"game": "mexican-train", "players": 3})
    tid = made.json()["table"]["id"]
    row = masha.locator("#tables tr", has=masha.locator(f"a[href='/table/{tid}']"))
    expect(row).to_contain_text("Mexican Train")
    expect(row).to_contain_text("Olya (guest)")
    expect(row.locator(".seat.free")).to_have_count(2)
    expect(row.locator("a")).to_have_text("Join")
    # a bot level said in words, a table in play offered to watch
    assert olya.post(f"{server}/api/tables/{tid}/bots", data={"level": "heuristic"}).ok
    expect(row.locator(".seat.bot")).to_have_text(["Bot · Medium", "Bot · Medium"])
    expect(row.locator("a")).to_have_text("Watch")
    other = olya.post(server + "/api/tables", data={"game": "fives", "players": 2})
    gone = other.json()["table"]["id"]
    expect(masha.locator(f"#tables a[href='/table/{gone}']")).to_have_count(1)
    assert olya.post(f"{server}/api/tables/{gone}/leave").ok
    expect(masha.locator(f"#tables a[href='/table/{gone}']")).to_have_count(0)
    assert masha.evaluate("window.notReloaded") is True
    assert not errors


def test_play_now_takes_a_waiting_seat_else_makes_a_table_with_bots(
    browser: Any, server: str
) -> None:
    errors: list[str] = []
    olya = _other(browser, server, "Olya")
    waiting = olya.post(server + "/api/tables", data={"game": "bergen", "players": 2})
    tid = waiting.json()["table"]["id"]
    masha = _lobby(browser, server, "Masha", errors)
    masha.click(".game-card[data-game=bergen] .play")
    masha.wait_for_url(f"**/table/{tid}")
    info = olya.get(f"{server}/api/tables/{tid}").json()["table"]
    assert info["status"] == "playing"
    assert [s["name"] for s in info["seats"]] == ["Olya", "Masha"]
    # nobody waits at Muggins: a table of hers with bots of the level she left, in play
    masha.goto(server + "/")
    masha.click(".game-card[data-game=muggins] .pick")
    masha.select_option("#create select[name=players]", "3")
    masha.select_option("#create select[name=level]", "random")
    masha.click(".game-card[data-game=muggins] .play")
    masha.wait_for_url(re.compile(r"/table/[\w-]+$"))
    made = masha.url.rsplit("/", 1)[1]
    info = olya.get(f"{server}/api/tables/{made}").json()["table"]
    assert (info["game"], info["status"]) == ("muggins", "playing")
    assert [s["bot"] for s in info["seats"]] == [None, "random", "random"]
    assert not errors


def test_a_games_settings_are_remembered_and_given_back_when_it_is_chosen_again(
    browser: Any, server: str
) -> None:
    errors: list[str] = []
    page = _lobby(browser, server, "Masha", errors)
    page.click(".game-card[data-game=fives] .pick")
    expect(page.locator("#chosen")).to_have_text("New table: All Fives")
    expect(page.locator(".game-card.chosen")).to_have_attribute("data-game", "fives")
    # Fives has no fish to choose: the choice is not offered
    expect(page.locator("select[name=fish_mode]")).to_be_hidden()
    page.select_option("select[name=players]", "4")
    page.select_option("select[name=move_time_s]", "60")
    page.uncheck("input[name=bots]")
    page.click(".game-card[data-game=kozel] .pick")
    expect(page.locator("select[name=fish_mode]")).to_be_visible()
    page.reload()
    page.wait_for_selector("#create button:not([disabled])")
    # the game chosen last is chosen again, as it was left
    expect(page.locator("select[name=game]")).to_have_value("kozel")
    page.click(".game-card[data-game=fives] .pick")
    expect(page.locator("select[name=players]")).to_have_value("4")
    expect(page.locator("select[name=move_time_s]")).to_have_value("60")
    expect(page.locator("input[name=bots]")).not_to_be_checked()
    # a game offers only its own numbers of players
    page.click(".game-card[data-game=five-up] .pick")
    assert page.locator("select[name=players] option").all_inner_texts() == ["2"]
    # Goat-25 counts a fish for one by default; a game that scores a fish its own way (the
    # beginners' lowest hand wins) offers no choice, and its table is made as it plays
    page.click(".game-card[data-game=kozel-goat25] .pick")
    expect(page.locator("select[name=fish_mode]")).to_have_value("for_one")
    page.click(".game-card[data-game=kozel-beginner] .pick")
    expect(page.locator("select[name=fish_mode]")).to_be_hidden()
    page.click("#create button")
    page.wait_for_url(re.compile(r"/table/[\w-]+$"))
    tid = page.url.rsplit("/", 1)[1]
    info = page.request.get(f"{server}/api/tables/{tid}").json()["table"]
    assert (info["game"], info["options"]["fish_mode"]) == ("kozel-beginner", "lowest_wins")
    assert not errors


@pytest.mark.parametrize("locale", ["en-US", "ru-RU"])
def test_the_lobby_names_every_game_and_bot_level_and_never_its_id(
    browser: Any, server: str, locale: str
) -> None:
    errors: list[str] = []
    olya = _other(browser, server, "Olya")
    made = olya.post(server + "/api/tables", data={"game": "chicken-foot", "players": 3})
    tid = made.json()["table"]["id"]
    assert olya.post(f"{server}/api/tables/{tid}/bots", data={"level": "greedy"}).ok
    page = _lobby(browser, server, "Masha", errors, locale=locale)
    expect(page.locator(f"#tables a[href='/table/{tid}']")).to_have_count(1)
    games = page.request.get(f"{server}/api/games?lang={locale[:2]}").json()["games"]
    cards = page.locator(".game-card .title").all_inner_texts()
    assert [c.removesuffix(" ✓") for c in cards] != [] and len(cards) == len(VARIANTS)
    assert {c.removesuffix(" ✓") for c in cards} == {g["title"] for g in games}
    text = page.locator("main").inner_text() + " ".join(
        page.locator("select option").all_inner_texts()
    )
    ids = [name for name in VARIANTS if "-" in name] + ["greedy", "heuristic", "ismcts", "pimc"]
    for raw in [*ids, "seat 0", "bot 2"]:
        assert not re.search(rf"\b{re.escape(raw)}\b", text), raw
    if locale == "ru-RU":
        assert "Куриная лапка" in text and "Бот · Лёгкий" in text and "Играть сейчас" in text
    assert not errors


def test_the_lobby_fits_a_phone_with_tap_targets_a_finger_can_hit(
    browser: Any, server: str
) -> None:
    errors: list[str] = []
    for locale in ("en-US", "ru-RU"):
        page = _lobby(browser, server, "Masha", errors, locale=locale, viewport=(360, 740))
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        targets = page.locator(
            ".lobby button, .lobby select, .lobby a.button, .lobby input:not([type=checkbox])"
        )
        small = [
            (i, box["height"])
            for i in range(targets.count())
            if (box := targets.nth(i).bounding_box()) is not None and box["height"] < 44
        ]
        assert not small, small
        # the chosen card opens its settings, under the cards on a phone
        page.click(".game-card[data-game=telephone] .pick")
        expect(page.locator("#setup")).to_be_in_viewport()
        page.context.close()
    assert not errors


def test_the_waiting_room_copies_the_invitation_and_fills_with_bots_by_level_name(
    browser: Any, server: str
) -> None:
    errors: list[str] = []
    page = _lobby(browser, server, "Masha", errors, locale="ru-RU")
    page.select_option("select[name=game]", "kozel")
    page.select_option("select[name=players]", "3")
    page.select_option("select[name=access]", "invitation_link")
    page.uncheck("input[name=bots]")
    page.click("#create button")
    page.wait_for_selector(".waiting")
    expect(page.locator(".waiting")).to_contain_text("Ждём игроков · свободных мест: 2")
    link = page.locator(".waiting .invite input").input_value()
    assert re.search(r"/table/[\w-]+\?invite=[\w-]+$", link), link
    page.click("#copy-invite")
    expect(page.locator(".waiting .copied")).to_have_text("Скопировано: отправьте другу")
    assert page.evaluate("navigator.clipboard.readText()") == link
    levels = page.locator(".waiting .fill select option").all_inner_texts()
    assert levels[:2] == ["Новичок", "Лёгкий"], levels
    page.select_option(".waiting .fill select", "random")
    page.click(".waiting .fill button")
    page.wait_for_selector("#hand button.tile", timeout=15_000)
    expect(page.locator(".waiting")).to_have_count(0)
    assert not errors


def test_a_visitor_who_asks_to_play_now_is_asked_a_name_then_seated(
    browser: Any, server: str
) -> None:
    errors: list[str] = []
    page = browser.new_context(viewport={"width": 1280, "height": 800}, locale="ru-RU").new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    page.click(".game-card[data-game=telephone] .play")
    expect(page.locator(".welcome .error")).to_have_text(
        "Сначала назовитесь: имени достаточно, чтобы играть гостем"
    )
    expect(page.locator(".welcome input[name=name]")).to_be_focused()
    page.keyboard.type("Маша")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/table/[\w-]+$"))
    info = page.request.get(server + "/api/tables/" + page.url.rsplit("/", 1)[1]).json()
    assert info["table"]["game"] == "telephone" and info["table"]["seats"][0]["name"] == "Маша"
    assert not errors


#: the page's websockets, kept where the test can close them
SOCKETS = """(() => {
  window.sockets = [];
  const Socket = window.WebSocket;
  window.WebSocket = function (...args) {
    const socket = new Socket(...args);
    window.sockets.push(socket);
    return socket;
  };
})();"""


def test_the_lobby_comes_back_live_after_its_socket_drops(browser: Any, server: str) -> None:
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    context.add_init_script(SOCKETS)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    live = page.locator(".tables .live")
    expect(live).to_have_text("● live")
    page.evaluate("window.sockets[0].close()")
    expect(live).to_have_text("reconnecting…")
    expect(live).to_have_text("● live")
    assert page.evaluate("window.sockets.length") == 2
    olya = _other(browser, server, "Olya")
    made = olya.post(server + "/api/tables", data={"game": "telephone", "players": 2})
    tid = made.json()["table"]["id"]
    expect(page.locator(f"#tables a[href='/table/{tid}']")).to_have_text("Join")
    assert not errors
