"""The club's frame round every page, in a real browser (Playwright on the system Chromium):
the PT Sans the club ships, the bar (its size on a phone, its language switch, its menu by
keyboard, the skip link, the page in view marked), the tab's title, the not-found page and
the card of a page that did not load, in Russian and English (bazar/web/app.js, style.css,
index.html and the page's 404 in bazar/club/routes/pages.py)."""

from __future__ import annotations

import itertools
import json
import urllib.error
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


from server_helpers import served  # noqa: E402

from bazar import i18n  # noqa: E402
from bazar.club import create_app  # noqa: E402
from bazar.club.settings import Settings  # noqa: E402

ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--no-first-run"]
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
#: WCAG 2.5.5's target size, the bar's height
THUMB = 44
#: the browser's own line for an answer that is not 200 (the not-found page, a missing player)
NOT_FOUND_LINE = "the server responded with a status of 404"

# every control of the bar a visitor can see, with its box
_BAR_CONTROLS = """() => [...document.querySelectorAll("header.bar a, header.bar button")]
  .map((n) => ({ text: n.textContent.trim(), box: n.getBoundingClientRect().toJSON() }))
  .filter((c) => c.box.width > 0 && c.box.height > 0)"""
# what the bar says and labels, piece by piece, in the order of the page
_BAR_SAID = """() => {
  const said = [document.title];
  const pieces = ".skip, header.bar [data-t], #me, header.bar [aria-label]";
  for (const n of document.querySelectorAll(pieces)) {
    said.push(n.hasAttribute("aria-label") ? n.getAttribute("aria-label") : n.textContent.trim());
  }
  return said;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("club") / "club.sqlite3"
    roomy = Settings(guests_per_address=10_000, open_tables_per_user=10_000)
    app = create_app(f"sqlite:///{db}", secret="chrome", bot_delay=0.01, settings=roomy)
    with served(app) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


class Visitor:
    """A browser of its own in one language and one screen size; ``errors`` gathers every
    script error and console error, and the test fails on any it did not expect."""

    def __init__(self, browser: Any, server: str, lang: str, viewport: dict[str, int]) -> None:
        self.server = server
        self.context = browser.new_context(viewport=viewport, has_touch=viewport == PHONE)
        self.context.add_init_script(f"localStorage.setItem('bazar.lang', '{lang}')")
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.texts = i18n.web(lang)

    def join(self, path: str, body: dict[str, str]) -> str:
        """Logs in through the API (``/api/guest``, ``/api/register``), with the page's
        cookies; the name it is known by."""
        headers = {"content-type": "application/json", "origin": self.server}
        answer = self.page.request.post(self.server + path, data=json.dumps(body), headers=headers)
        assert answer.ok, answer.text()
        return str(answer.json()["user"]["name"])

    def open(self, path: str) -> Any:
        """The page at ``path`` once drawn; the browser's answer (its HTTP status)."""
        answer = self.page.goto(self.server + path)
        self.page.wait_for_selector("#main > *")
        return answer


@pytest.fixture
def visit(browser: Any, server: str) -> Iterator[Any]:
    made: list[Visitor] = []

    def visitor(lang: str = "en", viewport: dict[str, int] = DESKTOP) -> Visitor:
        made.append(Visitor(browser, server, lang, viewport))
        return made[-1]

    yield visitor
    for v in made:
        v.context.close()
    assert not [e for v in made for e in v.errors]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_page_is_set_in_the_pt_sans_the_club_ships(visit: Any, lang: str) -> None:
    v = visit(lang)
    v.open("/")
    v.page.evaluate("document.fonts.ready")
    family = v.page.evaluate("getComputedStyle(document.body).fontFamily")
    assert family.startswith('"PT Sans"'), family
    # check() is true too for a family with no face at all: the loaded faces say it is there
    loaded = v.page.evaluate(
        """() => [...document.fonts].filter((f) => f.status === "loaded")
          .map((f) => f.family.replaceAll('"', "") + " " + f.weight)"""
    )
    assert {"PT Sans 400", "PT Sans 700"} <= set(loaded)
    assert v.page.evaluate("""document.fonts.check('16px "PT Sans"', 'Лобби Lobby')""")
    fetched = v.page.evaluate(
        "performance.getEntriesByType('resource').map((r) => new URL(r.name).pathname)"
    )
    script = "cyrillic" if lang == "ru" else "latin"
    assert f"/static/fonts/pt-sans-{script}-400-normal.woff2" in fetched
    answer = v.page.request.get(f"{v.server}/static/fonts/pt-sans-cyrillic-700-normal.woff2")
    assert answer.ok
    assert answer.headers["content-type"] == "font/woff2"
    assert "Open Font License" in v.page.request.get(f"{v.server}/static/fonts/OFL.txt").text()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_bar_fits_a_phone_and_each_of_its_controls_is_a_thumb_high(
    visit: Any, lang: str
) -> None:
    v = visit(lang, PHONE)
    v.join("/api/register", {"name": f"Konstantinopolskiy {lang}", "password": "secret1"})
    v.open("/")
    page = v.page
    bar = page.locator("header.bar").bounding_box()
    assert bar["height"] == THUMB
    for opened in (False, True):
        if opened:
            page.click("#menu")
            page.wait_for_selector("header.bar nav a[href='/history']", state="visible")
        controls = page.evaluate(_BAR_CONTROLS)
        # folded, the bar shows the club's name and the menu; open, the five pages (the
        # tournaments among them), who is here, logging out and both languages besides
        assert len(controls) == (2 if not opened else 2 + 5 + 2 + 2), controls
        for c in controls:
            assert c["box"]["height"] >= THUMB, c
            assert c["box"]["width"] >= THUMB, c
            assert c["box"]["x"] >= 0 and c["box"]["x"] + c["box"]["width"] <= PHONE["width"], c
        assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]


def test_the_language_switch_says_every_text_of_the_bar_in_the_other_language(
    visit: Any,
) -> None:
    v = visit("en")
    name = v.join("/api/guest", {"name": "Olya"})
    v.open("/")
    page = v.page
    english = page.evaluate(_BAR_SAID)
    assert english[0] == "Lobby · bazar"
    assert page.get_attribute("#lang button[lang='en']", "aria-pressed") == "true"
    assert f"{name} (guest)" in page.inner_text("#me")
    page.click("#lang button[lang='ru']")
    page.wait_for_function("() => document.title.startsWith('Лобби')")
    russian = page.evaluate(_BAR_SAID)
    assert russian[0] == "Лобби · базар"
    assert len(russian) == len(english)
    for before, after in zip(english, russian, strict=True):
        assert before != after, before
    ru = i18n.web("ru")
    assert f"{name} ({ru['guestMark']})" in page.inner_text("#me")
    assert ru["logout"] in page.inner_text("#me")
    assert page.get_attribute("#lang button[lang='ru']", "aria-pressed") == "true"
    assert page.get_attribute("#lang button[lang='en']", "aria-pressed") == "false"
    # each language's name is in its own language, and says so to a screen reader
    assert page.inner_text("#lang").split() == ["Русский", "English"]
    assert page.evaluate("localStorage.getItem('bazar.lang')") == "ru"


def test_the_menu_opens_and_folds_with_the_keyboard_alone(visit: Any) -> None:
    v = visit("ru", PHONE)
    v.open("/")
    page = v.page
    menu = page.locator("#menu")
    nav = page.locator("header.bar nav")
    assert menu.get_attribute("aria-expanded") == "false"
    assert not nav.is_visible()
    # the skip link, the club's name, then the menu
    for _ in range(3):
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "menu"
    assert menu.inner_text() == v.texts["menu"]
    page.keyboard.press("Enter")
    assert menu.get_attribute("aria-expanded") == "true"
    assert nav.is_visible()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.getAttribute('href')") == "/"
    page.keyboard.press("Escape")
    assert menu.get_attribute("aria-expanded") == "false"
    assert not nav.is_visible()
    assert page.evaluate("document.activeElement.id") == "menu"
    # Space opens it too; Enter on a page in it goes there and folds the menu
    page.keyboard.press(" ")
    assert nav.is_visible()
    for _ in range(2):
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.getAttribute('href')") == "/rules"
    page.keyboard.press("Enter")
    page.wait_for_selector(".rules-index")
    assert menu.get_attribute("aria-expanded") == "false"
    # the focus goes on to the page drawn, not back to the top of the document
    assert page.evaluate("document.activeElement.id") == "main"
    assert not nav.is_visible()
    # tabbing on past its last control folds it, as the focus has left it
    menu.focus()
    page.keyboard.press("Enter")
    while page.evaluate("document.querySelector('header.bar').contains(document.activeElement)"):
        page.keyboard.press("Tab")
    assert menu.get_attribute("aria-expanded") == "false"


def test_the_skip_link_comes_first_and_leads_to_the_page_without_redrawing_it(
    visit: Any,
) -> None:
    v = visit("en")
    v.open("/rules")
    page = v.page
    page.evaluate("document.querySelector('#main > *').dataset.kept = 'yes'")
    skip = page.locator("a.skip")
    assert not skip.is_visible() or skip.bounding_box()["y"] < 0
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip"
    box = skip.bounding_box()
    assert box["y"] >= 0 and box["height"] >= THUMB
    assert skip.inner_text() == v.texts["skipToMain"]
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"
    assert page.evaluate("document.querySelector('#main > *').dataset.kept") == "yes"
    assert page.url == v.server + "/rules"
    page.keyboard.press("Tab")
    assert page.evaluate("document.querySelector('main').contains(document.activeElement)")


@pytest.mark.parametrize(
    ("path", "section", "current"),
    [
        ("/", "/", "page"),
        ("/rules", "/rules", "page"),
        ("/rules/kozel", "/rules", "true"),
        ("/history", "/history", "page"),
        ("/leaderboard", "/leaderboard", "page"),
        ("/tournaments", "/tournaments", "page"),
        ("/tournament/nosuch", "/tournaments", "true"),
        ("/replay/nosuch", "/history", "true"),
        ("/profile/nosuch", "/leaderboard", "true"),
    ],
)
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_bar_marks_the_page_in_view_and_the_tab_is_titled_by_it(
    visit: Any, path: str, section: str, current: str, viewport: dict[str, int]
) -> None:
    v = visit("ru", viewport)
    v.open(path)
    if path.count("/") > 1 and not path.startswith("/rules"):
        # a record, a player or a tournament the club does not have: its page says so
        v.errors[:] = [e for e in v.errors if NOT_FOUND_LINE not in e]
    if viewport == PHONE:
        v.page.click("#menu")
        v.page.wait_for_selector("header.bar nav a[href='/tournaments']", state="visible")
    # nobody is logged in: the bar leads to the lobby's forms
    assert v.page.inner_text("#me") == v.texts["login"]
    assert v.page.get_attribute("#me a", "href") == "/"
    marked = v.page.locator("header.bar nav a[aria-current]")
    assert marked.count() == 1
    assert marked.get_attribute("href") == section
    assert marked.get_attribute("aria-current") == current
    title = v.page.title()
    assert title.endswith(" · базар"), title
    assert title.removesuffix(" · базар") in {
        v.texts["lobby"],
        v.texts["rules"],
        v.texts["history"],
        v.texts["leaderboard"],
        v.texts["tournaments"],
        v.texts["loadFailed"],
        v.texts["rulesThisGame"].format(game=i18n.title("kozel", "ru")),
    }


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_an_unknown_address_is_a_page_that_says_so_and_leads_back(
    visit: Any, lang: str, viewport: dict[str, int]
) -> None:
    v = visit(lang, viewport)
    answer = v.open("/no/such/page")
    v.errors.remove(next(e for e in v.errors if NOT_FOUND_LINE in e))
    page = v.page
    assert answer.status == 404
    assert page.inner_text("#not-found h1") == v.texts["notFound"]
    assert v.texts["notFoundText"] in page.inner_text("#not-found")
    assert page.title() == f"{v.texts['notFound']} · {v.texts['siteName']}"
    assert page.locator("header.bar nav a[aria-current]").count() == 0
    assert page.evaluate("document.scrollingElement.scrollWidth") <= viewport["width"]
    page.click(f"#not-found a:has-text('{v.texts['toLobby']}')")
    page.wait_for_function("() => !document.getElementById('not-found')")
    assert page.url == v.server + "/"
    assert page.get_attribute("header.bar nav a[href='/']", "aria-current") == "page"


def test_the_api_and_the_files_keep_their_plain_404(server: str) -> None:
    for path in ("/api/nothing", "/static/nothing.js", "/i18n/xx.json"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(server + path)
        assert refused.value.code == 404
        assert "html" not in refused.value.headers["content-type"]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_page_that_fails_to_load_says_why_in_the_language_and_can_be_tried_again(
    visit: Any, lang: str
) -> None:
    v = visit(lang, PHONE)
    v.open("/profile/Nobody")
    page = v.page
    card = page.locator("#load-failed")
    assert card.get_attribute("role") == "alert"
    assert page.inner_text("#load-failed h1") == v.texts["loadFailed"]
    assert v.texts["error.no_player"] in card.inner_text()
    assert page.title() == f"{v.texts['loadFailed']} · {v.texts['siteName']}"
    assert page.get_attribute("header.bar nav a[href='/leaderboard']", "aria-current") == "true"
    page.evaluate("document.getElementById('load-failed').dataset.before = 'yes'")
    page.click(f"#load-failed button:has-text('{v.texts['tryAgain']}')")
    page.wait_for_selector("#load-failed:not([data-before])")
    assert [e for e in v.errors if NOT_FOUND_LINE not in e] == []
    v.errors.clear()


def test_the_page_has_a_domino_for_an_icon_and_the_bars_colour_for_a_theme(
    visit: Any,
) -> None:
    v = visit("en", PHONE)
    v.open("/")
    page = v.page
    icon = page.get_attribute("link[rel=icon]", "href")
    answer = page.request.get(v.server + icon)
    assert answer.headers["content-type"].startswith("image/svg+xml")
    assert "<svg" in answer.text()
    theme = page.get_attribute("meta[name=theme-color]", "content")
    bar = page.evaluate("getComputedStyle(document.querySelector('header.bar')).backgroundColor")
    red, green, blue = (int(theme[i : i + 2], 16) for i in (1, 3, 5))
    assert bar == f"rgb({red}, {green}, {blue})"


# the contrast of two computed colours (WCAG 2's relative luminance), in the page
_CONTRAST = """() => {
  const lum = (css) => {
    const [r, g, b] = css.match(/[\\d.]+/g).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  window.contrast = (a, b) => {
    const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
}"""
# one of each control, as a page would make them, in a card of the page
_CONTROLS = """() => {
  const card = document.createElement("section");
  card.id = "controls";
  card.innerHTML = `<button id="primary">Play</button>
    <button id="secondary" class="secondary">Show board</button>
    <button id="danger" class="danger">Resign</button>
    <button id="disabled" disabled>Create</button>
    <a id="link" class="button" href="/rules">Rules</a>
    <input id="text"> <select id="select"><option>4</option></select>
    <label class="check" id="check"><input type="checkbox"> Rated</label>
    <button id="gone" hidden>More</button> <a id="gone-link" class="button" hidden>More</a>`;
  document.getElementById("main").replaceChildren(card);
}"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_every_control_is_a_thumb_high_legible_and_ringed_when_the_keyboard_is_on_it(
    visit: Any, viewport: dict[str, int]
) -> None:
    v = visit("en", viewport)
    v.open("/rules")
    page = v.page
    page.evaluate(_CONTRAST)
    page.evaluate(_CONTROLS)
    controls = ("primary", "secondary", "danger", "disabled", "link", "text", "select", "check")
    for control in controls:
        box = page.locator(f"#{control}").bounding_box()
        assert box["height"] >= THUMB, control
        if control in ("text", "select", "check"):
            continue
        said = page.evaluate(
            f"""() => {{ const s = getComputedStyle(document.getElementById("{control}"));
              return contrast(s.color, s.backgroundColor); }}"""
        )
        assert said >= 4.5, (control, said)
    # a control's display never shows what its page hid
    assert page.locator("#gone").is_hidden() and page.locator("#gone-link").is_hidden()
    # a control's edge is seen against its card (WCAG 1.4.11)
    edge = page.evaluate(
        """() => contrast(getComputedStyle(document.getElementById("text")).borderTopColor,
          getComputedStyle(document.getElementById("controls")).backgroundColor)"""
    )
    assert edge >= 3
    page.focus("#primary")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    ring = page.evaluate(
        """() => { const s = getComputedStyle(document.activeElement);
          return [document.activeElement.id, s.outlineStyle, s.outlineWidth, s.outlineColor]; }"""
    )
    assert ring == ["primary", "solid", "3px", "rgb(255, 180, 0)"]
    # a click with the mouse draws no ring round a button
    page.click("#secondary")
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") == "none"


def test_a_long_name_is_cut_short_in_the_bar_but_never_the_guests_mark(visit: Any) -> None:
    # the narrowest window that still has the whole bar, in the longer language
    v = visit("ru", {"width": 981, "height": 600})
    name = v.join("/api/guest", {"name": "Константинопольский Кон"})
    v.open("/rules")
    page = v.page
    assert page.locator("header.bar").bounding_box()["height"] == THUMB
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 981
    assert page.get_attribute("#me .name", "title") == name
    shown, whole = page.evaluate(
        "(() => { const n = document.querySelector('#me .name'); "
        "return [n.clientWidth, n.scrollWidth]; })()"
    )
    assert shown < whole
    mark, who = (page.locator(s).bounding_box() for s in ("#me .mark", "#me .who"))
    assert page.inner_text("#me .mark").strip() == f"({v.texts['guestMark']})"
    assert mark["x"] + mark["width"] <= who["x"] + who["width"] + 0.5
    assert who["x"] + who["width"] <= page.locator("#logout").bounding_box()["x"]
    boxes = page.evaluate(_BAR_CONTROLS)
    for left, right in itertools.pairwise(boxes):
        assert left["box"]["x"] + left["box"]["width"] <= right["box"]["x"] + 0.5, (left, right)


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("width", [981, 1024, 1280])
def test_the_bar_holds_its_five_pages_beside_a_long_name_from_the_narrowest_desktop(
    visit: Any, lang: str, width: int
) -> None:
    """Above the phone's menu the bar shows its five pages, who is here and both languages on
    one line: none of them overlaps another or runs past the window."""
    v = visit(lang, {"width": width, "height": 700})
    v.join("/api/register", {"name": f"Konstantinopolska {lang}{width}", "password": "secret1"})
    v.open("/tournaments")
    page = v.page
    assert page.locator("#menu").is_hidden()
    controls = page.evaluate(_BAR_CONTROLS)
    assert len(controls) == 1 + 5 + 2 + 2, controls
    boxes = sorted((c["box"] for c in controls), key=lambda b: b["x"])
    for box in boxes:
        assert box["y"] >= 0 and box["y"] + box["height"] <= THUMB, box
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
    for left, right in itertools.pairwise(boxes):
        assert left["x"] + left["width"] <= right["x"] + 0.5, (left, right)
    marked = page.locator("header.bar nav a[aria-current]")
    assert marked.get_attribute("href") == "/tournaments"
    assert marked.inner_text() == v.texts["tournaments"]
