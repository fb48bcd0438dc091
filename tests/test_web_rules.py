"""The rules of every game (bazar/i18n/guide.py, bazar/club/routes/rules.py, bazar/web/rules.js):
a how-to-play text per family in both languages that states what the engine plays, the
options said in words, a real position drawn on each page, and the table's help dialog."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("markdown_it")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from server_helpers import served

import bazar
from bazar.club import create_app
from bazar.core.board import Board
from bazar.core.rules import VARIANTS, declared
from bazar.i18n import guide

LANGS = ("en", "ru")
#: what a page must never show: a variant's id (the hyphenated ones cannot be words) and the
#: ids of the choices, the bots' levels and the seats
RAW = [name for name in VARIANTS if "-" in name] + ["greedy", "seat 0", "winner_or_fisher"]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("rules") / "club.sqlite3"
    with TestClient(create_app(f"sqlite:///{db}", secret="rules")) as c:
        yield c


def text_of(name: str, lang: str) -> str:
    return " ".join(guide.how_to_play(name, lang).split())


# -- the texts state the rules the engine plays ------------------------------------------------


def test_every_variant_has_a_text_in_both_languages_and_each_family_its_own() -> None:
    for name in VARIANTS:
        en, ru = guide.how_to_play(name, "en"), guide.how_to_play(name, "ru")
        assert en.startswith("# ") and ru.startswith("# ")
        assert re.search("[а-яё]", ru) and en != ru
    texts = {guide.how_to_play(names[0], "en") for names in guide.families().values()}
    assert len(texts) == len(guide.families())


@pytest.mark.parametrize("name", list(VARIANTS))
def test_the_text_names_the_variants_numbers_the_engine_plays(name: str) -> None:
    """The target or limit of the match and the tiles dealt (at the default player count)
    are stated in the text of the variant's family, in both languages."""
    options = bazar.rules(name).options()
    numbers = [options[k] for k in ("target", "limit", "hand_size") if options.get(k)]
    if options.get("double_blank_value"):
        numbers.append(options["double_blank_value"])
    for lang in LANGS:
        for n in numbers:
            assert re.search(rf"(?<![\d-]){n}(?![\d-])", text_of(name, lang)), (name, lang, n)


#: how each text says who leads, for the lead orders of the engine
LEADS = {
    "kozel": ("1-1", "1-1"),
    "one_one": ("1-1", "1-1"),
    "high": ("highest double", "старший дубль"),
    "low": ("lowest double", "младший дубль"),
    "low_doubles_high_singles": ("lowest (0-0", "младший (0-0"),
    "lot": ("lots", "жребий"),
}


@pytest.mark.parametrize("name", [n for n in VARIANTS if "first_lead" in bazar.rules(n).options()])
def test_the_text_says_who_leads_the_first_round_as_the_engine_does(name: str) -> None:
    lead = bazar.rules(name).options()["first_lead"]
    for lang, said in zip(LANGS, LEADS[lead], strict=True):
        assert said in text_of(name, lang), (name, lead, lang)


def test_kozel_texts_follow_the_presets_special_hand_values() -> None:
    rules = {n: bazar.rules(n).options() for n in VARIANTS if guide.family(n) == "kozel"}
    en, ru = text_of("kozel", "en"), text_of("kozel", "ru")
    assert rules["kozel"]["hand_values"] == "lone_00_10"
    assert "nothing but **0-0** counts 10" in en and "одна **0-0**, стоит 10" in ru
    assert rules["kozel"]["open_threshold"] == 13 and "13 or more opens" in en
    assert rules["kozel-team"]["hand_values"] == "lone_66_50_00_25"
    assert "a lone 6-6 in hand counts 50, a lone 0-0 25" in en
    assert rules["kozel-goat25"]["open_threshold"] == 25 and "below 25 are remembered" in en
    assert rules["kozel-traditional"]["doubles_per_turn"] == 2 and "two doubles" in en


def test_the_block_text_says_nobody_draws_and_the_draw_text_that_one_draws() -> None:
    assert bazar.rules("block").options()["draw"] is False
    assert bazar.rules("draw").options()["draw"] is True
    assert "**Block**: nobody draws" in text_of("block", "en")
    assert "«Блок»**: из базара не берут" in text_of("block", "ru")


# -- the options in words ----------------------------------------------------------------------


def test_every_choice_of_every_option_is_said_in_words_in_both_languages() -> None:
    for name, option in declared().items():
        if option.kind != "enum":
            continue
        for value in option.values:
            for lang in LANGS:
                said = guide.value_text(name, value, lang)
                assert said != value and "_" not in said, (name, value, lang)


def test_what_an_option_decides_is_said_without_the_ids_of_its_choices() -> None:
    """The meaning sits beside the value in words: it names no choice by its id."""
    for name, option in declared().items():
        for lang in LANGS:
            said = bazar.i18n.option_doc(name, lang)
            assert "_" not in said and "§" not in said, (name, lang, said)
            for value in option.values if option.kind == "enum" else ():
                assert f"({value})" not in said and f"{value}:" not in said, (name, value, lang)


def test_an_options_value_reads_as_yes_no_a_number_or_a_pair() -> None:
    assert guide.value_text("teams", True, "en") == "yes"
    assert guide.value_text("teams", False, "ru") == "нет"
    assert guide.value_text("lead_bonus", (50, 25), "ru") == "50 / 25"
    assert guide.value_text("starting_chips", 10_000, "ru") == "10\xa0000"


def test_the_options_rows_tell_what_changes_with_the_players() -> None:
    rows = {r.name: r for r in guide.option_rows(bazar.rules("fives"), "en")}
    assert rows["target"].by_players == "2→250, 3→200, 4→200"
    assert rows["hand_size"].said == "9" and rows["teams"].said == "no"
    fixed = {r.name: r for r in guide.option_rows(bazar.rules("fives"), "en", {"target": 150})}
    assert fixed["target"].by_players == ""


# -- the API ---------------------------------------------------------------------------------


def test_the_index_lists_every_variant_once_by_family_in_either_language(client: Any) -> None:
    for lang in LANGS:
        families = client.get(f"/api/rules?lang={lang}").json()["families"]
        names = [v["name"] for f in families for v in f["variants"]]
        assert names == list(VARIANTS)
        kozel = next(f for f in families if f["family"] == "kozel")
        assert kozel["heading"] == ("Козёл" if lang == "ru" else "Kozel")
        titles = {v["name"]: v["title"] for f in families for v in f["variants"]}
        assert titles["mexican-train"] == bazar.i18n.title("mexican-train", lang)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_a_variants_rules_say_every_option_in_words_and_show_a_real_position(
    client: Any, name: str
) -> None:
    for lang in LANGS:
        data = client.get(f"/api/rules/{name}?lang={lang}").json()
        assert data["name"] == name and "<h2>" in data["html"]
        assert len(data["options"]) == len(bazar.rules(name).options())
        for row in data["options"]:
            assert row["meaning"] and row["meaning"] != row["name"], row
            assert row["value"] and not re.fullmatch(r"[a-z0-9]+(_[a-z0-9]+)+", row["value"]), row
        view = data["diagram"]["view"]
        assert view["rules"]["name"] == name and data["diagram"]["moves"] > 0
        if view["board"]["kind"] != "poker":
            assert Board.from_json(view["board"]).tiles()
        hands = data["diagram"]["hands"]
        assert [len(h) for h in hands] == view["hand_sizes"]
        assert all(s["name"] != name for s in data["siblings"])


def test_a_game_is_found_by_its_alias_and_an_unknown_one_is_refused(client: Any) -> None:
    assert client.get("/api/rules/козёл?lang=ru").json()["name"] == "kozel"
    response = client.get("/api/rules/nosuch")
    assert response.status_code == 404 and response.json()["code"] == "unknown_game"


def test_the_rules_pages_are_pages_of_the_client(client: Any) -> None:
    for path in ("/rules", "/rules/kozel"):
        response = client.get(path)
        assert response.status_code == 200 and "/static/rules.css" in response.text


def test_the_markdown_texts_pass_no_raw_html() -> None:
    from bazar.club.routes.rules import _MARKDOWN

    assert "<script" not in _MARKDOWN.render("<script>alert(1)</script>")


# -- in the browser --------------------------------------------------------------------------

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--no-first-run"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if not CHROMIUM.exists():
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    pytest.importorskip("uvicorn")
    db = tmp_path_factory.mktemp("club") / "club.sqlite3"
    app = create_app(f"sqlite:///{db}", secret="rules", bot_delay=0.01)
    with served(app) as url:
        yield url


@pytest.fixture(scope="module")
def browser(server: str) -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(params=LANGS)
def page(request: pytest.FixtureRequest, browser: Any, server: str) -> Iterator[Any]:
    """A phone-sized page in each language; the test fails on any script or console error."""
    lang = request.param
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
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
    page.goto(server + "/")
    page.evaluate(f"localStorage.setItem('bazar.lang', '{lang}')")
    page.lang = lang
    yield page
    context.close()
    assert not errors


def no_raw_ids(page: Any) -> None:
    shown = page.inner_text("body")
    for raw in RAW:
        assert raw not in shown, raw


def test_the_index_links_every_game_from_the_bar(server: str, page: Any) -> None:
    page.goto(server + "/")
    page.click("#menu")  # a phone's bar folds its pages under the menu
    page.click("header nav a[href='/rules']")
    page.wait_for_selector(".rules-index")
    assert page.locator(".rules-index li a").count() == len(VARIANTS)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    no_raw_ids(page)
    page.click(".rules-index a[href='/rules/kozel-team']")
    page.wait_for_selector(".rules-page svg.board g.tile")
    assert page.url.endswith("/rules/kozel-team")


@pytest.mark.parametrize("names", list(guide.families().values()), ids=list(guide.families()))
def test_a_games_page_shows_how_to_play_a_position_and_its_options(
    server: str, page: Any, names: list[str]
) -> None:
    name = names[0]
    page.goto(f"{server}/rules/{name}")
    page.wait_for_selector(".rules-page .rules-diagram svg.board")
    assert page.locator(".rules-text h2").count() >= 3
    heading = guide.how_to_play(name, page.lang).splitlines()[2][:40]
    assert heading in " ".join(page.inner_text(".rules-text").split())
    family = bazar.rules(name).variant.family
    if family != "poker":
        assert page.locator(".rules-diagram svg.board g.layout g.tile").count() > 0
    if family in ("poker", "trick"):  # the hands are the game: shown face up
        seats = page.locator(".rules-diagram svg.board g.seats g.tile")
        assert seats.count() > 0 and page.locator("g.seats g.tile.back").count() == 0
    shown = len(bazar.rules(name).options()) - 1  # the players are said above the table
    assert page.locator(".rules-options tbody tr").count() == shown
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    no_raw_ids(page)


def test_the_help_opens_over_the_page_keeps_the_focus_and_closes_on_escape(
    server: str, page: Any
) -> None:
    page.goto(f"{server}/rules/kozel")
    page.wait_for_selector(".rules-page")
    page.focus(".crumbs a")
    page.evaluate("import('/static/rules.js').then((m) => m.openHelp('kozel'))")
    dialog = page.locator("dialog.rules-help[open]")
    dialog.wait_for()
    assert page.evaluate("document.activeElement.id") == "help-title"
    legend = " ".join(dialog.locator("dl.legend").first.inner_text().split())
    assert "+9" in legend and "13" in legend  # Kozel's remembered points and its threshold
    for _ in range(dialog.locator("a[href], button").count() + 2):
        page.keyboard.press("Tab")
        assert page.evaluate("!!document.activeElement.closest('dialog')")
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog.rules-help", state="detached")
    assert page.evaluate("document.activeElement.getAttribute('href')") == "/rules"


def test_the_help_of_a_train_game_explains_its_markers(server: str, page: Any) -> None:
    page.goto(f"{server}/rules")
    page.wait_for_selector(".rules-index")
    page.evaluate("import('/static/rules.js').then((m) => m.openHelp('mexican-train'))")
    dialog = page.locator("dialog.rules-help[open]")
    dialog.wait_for()
    assert dialog.locator("svg circle.marker").count() == 1
    assert dialog.locator(".legend-unsatisfied").count() == 1
    assert dialog.locator(".badge.yellow").count() == 0  # no Kozel accounts on a train table
    dialog.locator(".rules-close").click()
    page.wait_for_selector("dialog.rules-help", state="detached")
