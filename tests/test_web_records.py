"""The club's history, replay, profile and leaderboard pages (``bazar/web/records.js``,
``people.js``), in a real browser: headless Chromium driven by Playwright, on a club whose
stored matches are made here (a few played out by the engine, their players' seats noted as
a table's end notes them)."""

from __future__ import annotations

import itertools
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

import httpx  # noqa: E402
from server_helpers import BROKEN_WORDS, make_app, served  # noqa: E402

import bazar  # noqa: E402
from bazar import i18n  # noqa: E402
from bazar.club.settings import Settings  # noqa: E402
from bazar.club.storage import Played, Rating, RecordRow  # noqa: E402
from bazar.club.summary import summary  # noqa: E402

PASSWORD = "password-1"
#: where the screenshots of the pages go (docs/screens)
SCREENS = Path(__file__).resolve().parent.parent / "docs" / "screens"
#: the matches Masha and Alex played, one a day: more than a page of the history (20), more
#: than two of her own matches (10)
DUELS = 22


def finished(game: str, seed: int, players: int) -> bazar.Match:
    match = bazar.Match(bazar.rules(game, players=players), seed=seed)
    while not match.is_over():
        match.push(match.legal_moves()[0])
    return match


def store(
    storage: Any,
    rid: str,
    match: bazar.Match,
    seats: list[tuple[str, int | None, str | None]],
    created: float,
    ratings: dict[int, float] | None = None,
) -> None:
    """A match stored as a table's end stores it: each seat (name, user id or None, bot
    level or None), the guests among them marked, each person's seat noted."""
    kept = {
        **summary(match),
        "ending": {"normal": True},
        "guests": [i for i, (name, _, _) in enumerate(seats) if name == "Оля"],
        "bots": {str(i): level for i, (_, _, level) in enumerate(seats) if level},
    }
    with storage.session() as db:
        names = [name for name, _, _ in seats]
        db.add(
            RecordRow(
                id=rid,
                table_id=rid,
                game=match.rules.name,
                players=names,
                text=bazar.record.dumps(match),
                summary=kept,
                created=created,
            )
        )
        db.flush()
        for i, (_, user, _) in enumerate(seats):
            if user is not None:
                won = i in kept["winners"]
                rating = (ratings or {}).get(i)
                db.add(
                    Played(
                        record_id=rid,
                        seat=i,
                        user_id=user,
                        game=match.rules.name,
                        won=won,
                        rating=rating,
                        created=created,
                    )
                )
        db.commit()


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The club, and what it holds: Masha's and Alex's rated duels, a four-player match of
    Masha, the guest Olya, Alex and a bot, and an uploaded record."""
    # a quick coach: its analyses are made in seconds here
    app = make_app(
        f"sqlite:///{tmp_path_factory.mktemp('records') / 'club.sqlite3'}",
        settings=Settings(coach_deals=4),
    )
    storage = app.state.club.storage
    with served(app) as url:
        ids = {}
        for name in ("Masha", "Alex", "Newbie"):
            made = httpx.post(
                url + "/api/register",
                json={"name": name, "password": PASSWORD},
                headers={"origin": url},
            )
            ids[name] = made.json()["user"]["id"]
        olya = httpx.post(url + "/api/guest", json={"name": "Оля"}, headers={"origin": url})
        ids["Оля"] = olya.json()["user"]["id"]
        start = time.time() - DUELS * 86400
        for k in range(DUELS):
            store(
                storage,
                f"duel{k}",
                finished("kozel", k, 2),
                [("Masha", ids["Masha"], None), ("Alex", ids["Alex"], None)],
                start + k * 86400,
                ratings={0: 1.0 + k, 1: 5.0 - k / 2},
            )
        for user, mu in ((ids["Masha"], 40.0), (ids["Alex"], 20.0)):
            with storage.session() as db:
                db.add(Rating(user_id=user, game="kozel", mu=mu, sigma=3.0, games=DUELS))
                db.commit()
        four = finished("kozel", 7, 4)
        store(
            storage,
            "four",
            four,
            [
                ("Masha", ids["Masha"], None),
                ("Оля", ids["Оля"], None),
                ("Alex", ids["Alex"], None),
                ("greedy bot 4", None, "greedy"),
            ],
            time.time() - 60,
        )
        upload = httpx.post(
            url + "/api/records",
            content=bazar.record.dumps(finished("fives", 3, 2)),
            headers={"origin": url, "content-type": "application/json"},
        )
        yield {"url": url, "four": four, "uploaded": upload.json()["id"]}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox", "--headless"]
        )
        yield chromium
        chromium.close()


def page_of(
    browser: Any,
    club: dict[str, Any],
    lang: str,
    width: int = 1280,
    height: int = 800,
    login: str | None = None,
) -> Any:
    """A page in ``lang`` (the page's own choice, kept locally), logged in as ``login``; it
    keeps the script errors, the console's errors and the failed requests it meets."""
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_init_script(f"localStorage.setItem('bazar.lang', '{lang}')")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on(
        "console",
        lambda m: (
            m.type == "error"
            and "favicon" not in m.location.get("url", "")
            and page.errors.append(f"{m.text} {m.location.get('url', '')}")
        ),
    )
    if login:
        said = context.request.post(
            club["url"] + "/api/login",
            data={"name": login, "password": PASSWORD},
            headers={"origin": club["url"]},
        )
        assert said.ok, said.text()
    return page


def fits(page: Any, width: int) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth") <= width)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_history_says_each_match_in_words(
    browser: Any, club: dict[str, Any], lang: str
) -> None:
    page = page_of(browser, club, lang, login="Masha")
    page.goto(club["url"] + "/history")
    row = page.locator("#all tr[data-id='four']")
    row.wait_for()
    text = row.inner_text()
    four = club["four"]
    scores = four.ledger.scores
    assert i18n.title("kozel", lang) in text
    words = i18n.web(lang)
    assert f"Оля ({words['guestMark']})" in text
    bot = words["botName"].format(n=4, level=i18n.level_name("greedy", lang))
    names = ["Masha", "Оля", "Alex", bot]
    # the goat of Kozel is named as such, and every score beside its player's name
    result = four.result()
    assert result is not None
    assert words["goatIs"].format(names=", ".join(names[s] for s in result.losers)) in text
    assert " · ".join(f"{name} {score}" for name, score in zip(names, scores, strict=True)) in text
    # the date in the page's language, the moment in the markup
    assert row.locator("time").get_attribute("datetime")
    # a registered player links to the profile, a guest does not
    assert row.locator("a[href='/profile/Masha']").count() == 1
    assert row.locator("a[href^='/profile/%D0%9E']").count() == 0
    # her own matches come first, each saying how it went for her; ten at a time
    chip = page.locator("#mine tr[data-id='four'] .chip")
    if 0 in result.winners:
        assert chip.inner_text() == words["youWon"]
    elif 0 in result.losers:
        assert chip.inner_text() == words["youLost"]
    else:
        assert chip.count() == 0
    assert page.locator("#all .chip").count() == 0
    mine = page.locator("#mine tbody tr")
    assert mine.count() == 10
    for shown in (20, DUELS + 1):
        page.click("#mine button.more")
        sync_api.expect(mine).to_have_count(shown)
    assert page.locator("#mine button.more").is_hidden()
    everything = page.locator("main").inner_text()
    for raw in ("[", "seat ", "kozel", "greedy bot", "undefined", "null"):
        assert raw not in everything, raw
    assert not page.errors


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_history_reads_as_cards_on_a_phone(
    browser: Any, club: dict[str, Any], lang: str
) -> None:
    page = page_of(browser, club, lang, 360, 740)
    page.goto(club["url"] + "/history")
    page.locator("#all tr[data-id='four']").wait_for()
    assert fits(page, 360)
    label = (
        page.locator("#all tr[data-id='four'] td")
        .nth(2)
        .evaluate("td => getComputedStyle(td, '::before').content")
    )
    assert i18n.web(lang)["playersCol"] in label
    for link in page.locator("#all tr[data-id='four'] td.links a").all():
        assert link.bounding_box()["height"] >= 44
    assert not page.errors


def test_a_replay_lists_the_moves_by_round_and_the_scores_after_each(
    browser: Any, club: dict[str, Any]
) -> None:
    four = club["four"]
    page = page_of(browser, club, "en")
    page.goto(club["url"] + "/replay/four")
    page.wait_for_selector(".felt[data-ply='0']")
    first = four.rounds[0]
    # a move in words, by its player: clicking it shows the position after it
    third = page.locator("#replay-moves button.move[data-ply='3']")
    seat = first.history()[2][0]
    assert third.inner_text().startswith(["Masha", "Оля", "Alex", "Bot 4 · Easy"][seat] + ": ")
    third.click()
    page.wait_for_selector(".felt[data-ply='3']")
    assert third.get_attribute("aria-current") == "step"
    assert page.url.endswith("/replay/four?ply=3")
    # the last move of a round shows that round's end, with how it ended
    n = len(first.moves)
    page.click(f"#replay-moves button.move[data-ply='{n}']")
    page.wait_for_selector(f".felt[data-ply='{n}']")
    status = page.locator("#replay-status").inner_text()
    assert "Round 1" in status
    outcome = first.outcome()
    assert outcome is not None
    said = "Fish (blocked)" if outcome.reason == "fish" else "went out"
    assert said in status
    # the address names it: opened again, it is the same position
    assert page.url.endswith(f"?ply={n}&end=1")
    page.reload()
    sync_api.expect(page.locator("#replay-status")).to_contain_text(said)
    # the next step is the next deal, at the same ply
    page.keyboard.press("ArrowRight")
    sync_api.expect(page.locator("#replay-status")).to_contain_text("Round 2")
    assert page.locator(".felt").get_attribute("data-ply") == str(n)
    # the scores after each round: a labelled column per player, a row per round
    table = page.locator("#replay-scores")
    heads = table.locator("thead th").all_inner_texts()
    assert heads[:5] == ["Round", "Masha", "Оля", "Alex", "Bot 4 · Easy"]
    assert table.locator("tbody tr").count() == len(four.rounds)
    last = table.locator("tbody tr").last.locator("td").all_inner_texts()
    assert last[:4] == [str(s) for s in four.ledger.scores]
    # a jump to a round: its deal
    page.select_option("#replay-round", "3")
    start = sum(len(r.moves) for r in four.rounds[:2])
    page.wait_for_selector(f".felt[data-ply='{start}']")
    assert "Round 3" in page.locator("#replay-status").inner_text()
    table.locator("tbody tr").nth(1).locator("button").click()
    sync_api.expect(page.locator("#replay-status")).to_contain_text("Round 2")
    # End goes to the match's last position; the deals' proofs are folded away
    page.keyboard.press("End")
    page.wait_for_selector(f".felt[data-ply='{sum(len(r.moves) for r in four.rounds)}']")
    verify = page.locator("details#replay-verify")
    assert verify.get_attribute("open") is None
    assert not verify.locator(".small").first.is_visible()
    verify.locator("summary").click()
    assert verify.locator(".small").count() == len(four.rounds)
    assert not page.errors


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_an_uploaded_record_numbers_its_players(
    browser: Any, club: dict[str, Any], lang: str
) -> None:
    page = page_of(browser, club, lang, 360, 740)
    page.goto(f"{club['url']}/replay/{club['uploaded']}")
    page.wait_for_selector(".felt[data-ply='0']")
    player = i18n.web(lang)["playerN"]
    text = page.locator("main").inner_text()
    assert player.format(n=1) in text and player.format(n=2) in text
    assert "seat" not in text and "место" not in text
    assert fits(page, 360)
    assert not page.errors


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_record_is_uploaded_from_the_history_in_the_page_s_language(
    browser: Any, club: dict[str, Any], lang: str, tmp_path: Path
) -> None:
    """The browser's own file button (its language, not the page's) is hidden behind the
    page's label; the file chosen is named, and uploading it opens its replay."""
    page = page_of(browser, club, lang, 360, 740)
    page.goto(club["url"] + "/history")
    label = page.locator("label[for=record-file]")
    label.wait_for()
    texts = i18n.web(lang)
    assert label.inner_text() == texts["chooseRecord"]
    assert page.locator("#record-chosen").inner_text() == texts["noFileChosen"]
    assert label.bounding_box()["height"] >= 44
    # the browser's own button, clipped out of sight (a screen reader still finds it)
    hidden = (
        "e => getComputedStyle(e).position === 'absolute'"
        " && getComputedStyle(e).clip.startsWith('rect(0')"
    )
    assert page.eval_on_selector("#record-file", hidden)
    saved = tmp_path / "match.json"
    saved.write_text(bazar.record.dumps(finished("block", 5, 2)))
    page.set_input_files("#record-file", str(saved))
    assert page.locator("#record-chosen").inner_text() == "match.json"
    page.locator("form:has(#record-file) button").click()
    page.wait_for_url("**/replay/*")
    page.wait_for_selector(".felt[data-ply='0']")
    assert fits(page, 360)
    assert not page.errors


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_profile_charts_the_rating_and_fits_a_phone(
    browser: Any, club: dict[str, Any], lang: str
) -> None:
    page = page_of(browser, club, lang, 360, 740)
    page.goto(club["url"] + "/profile/Masha")
    chart = page.locator("svg#rating-chart")
    chart.wait_for()
    # a line per game, a dot per rated match, rising as her rating rose
    assert chart.locator("polyline").count() == 1
    assert chart.locator("circle").count() == DUELS
    ys = [float(c.get_attribute("cy")) for c in chart.locator("circle").all()]
    assert ys == sorted(ys, reverse=True)
    games = page.locator("#profile-games tbody tr")
    assert games.count() == 1
    row = games.first.locator("td").all_inner_texts()
    assert row[0] == i18n.title("kozel", lang) and row[1] == str(DUELS + 1)
    assert page.locator("#profile-total").inner_text() == str(DUELS + 1)
    # her last matches, each marked as a win or a loss of hers (not "yours": she is not here)
    matches = page.locator("#profile-matches tbody tr")
    assert matches.count() == 10
    words = i18n.web(lang)
    marks = set(page.locator("#profile-matches .chip").all_inner_texts())
    assert marks and marks <= {words["aWin"], words["aLoss"]}
    assert fits(page, 360)
    assert not page.errors


def test_the_leaderboard_names_the_games_and_links_the_players(
    browser: Any, club: dict[str, Any]
) -> None:
    page = page_of(browser, club, "ru", 360, 740)
    page.goto(club["url"] + "/leaderboard?game=kozel")
    page.wait_for_selector("#skill")
    options = page.locator("#leaderboard-game option").all_inner_texts()
    assert i18n.title("mexican-train", "ru") in options and "mexican-train" not in options
    rows = page.locator("#skill tbody tr")
    assert [r.locator("td").nth(1).inner_text() for r in rows.all()] == ["Masha", "Alex"]
    assert rows.first.locator("td").first.inner_text() == "1"
    rows.first.locator("a").click()
    page.wait_for_selector("svg#rating-chart")
    assert fits(page, 360)
    assert not page.errors


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("size", [(1280, 800), (360, 740)], ids=["desktop", "phone"])
def test_a_profile_with_no_rated_match_says_so_and_shows_no_rating(
    browser: Any, club: dict[str, Any], lang: str, size: tuple[int, int]
) -> None:
    page = page_of(browser, club, lang, *size)
    page.goto(club["url"] + "/profile/Newbie")
    page.locator("#profile-total").wait_for()
    words = i18n.web(lang)
    assert page.locator("#profile-total").inner_text() == "0"
    # no rating of 0 beside "no rated matches yet": the words say there is none yet
    kozel = page.locator("#profile-kozel")
    assert kozel.inner_text() == words["notRatedYet"]
    assert not any(c.isdigit() for c in kozel.inner_text())
    assert words["noRatedGames"] in page.locator("main").inner_text()
    # a player with rated matches shows his points
    page.goto(club["url"] + "/profile/Masha")
    page.locator("#profile-total").wait_for()
    assert page.locator("#profile-kozel").inner_text() == "0"
    assert fits(page, size[0])
    assert not page.errors


# each cell of the replay's score table's head: its text's boxes (Range.getClientRects)
_HEAD_TEXTS = """() => [...document.querySelectorAll("#replay-scores thead th")]
  .filter((th) => th.getClientRects().length && getComputedStyle(th).display !== "none")
  .map((th) => { const r = document.createRange(); r.selectNodeContents(th);
    return { text: th.innerText.trim(), cell: th.getBoundingClientRect().toJSON(),
      boxes: [...r.getClientRects()].map((b) => b.toJSON()) }; })"""


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("size", [(1280, 800), (360, 740)], ids=["desktop", "phone"])
def test_a_jump_to_a_round_shows_its_deal_and_the_scores_head_reads_cell_by_cell(
    browser: Any, club: dict[str, Any], lang: str, size: tuple[int, int]
) -> None:
    four = club["four"]
    assert len(four.rounds) >= 3
    words = i18n.web(lang)
    page = page_of(browser, club, lang, *size)
    page.goto(club["url"] + "/replay/four")
    page.wait_for_selector(".felt[data-ply]")
    for n in range(2, len(four.rounds) + 1):
        page.select_option("#replay-round", str(n))
        start = sum(len(r.moves) for r in four.rounds[: n - 1])
        page.wait_for_selector(f".felt[data-ply='{start}']")
        status = page.locator("#replay-status").inner_text()
        assert words["round"].format(n=n) in status
        # the deal of round n: an empty line, and no last move of the round before over it
        assert words["lastMove"] not in status, status
        assert page.locator("#board g.layout g.tile").count() == 0
        assert page.locator("#board g.tile.last").count() == 0
        assert page.get_attribute("#board", "data-last") == ""
        # its first move is its own, marked on its board
        page.keyboard.press("ArrowRight")
        page.wait_for_selector(f".felt[data-ply='{start + 1}']")
        assert page.locator("#board g.layout g.tile").count() == 1
        assert words["lastMove"] in page.locator("#replay-status").inner_text()
    # the scores' head: each cell's words within its cell, apart from the next cell's
    heads = page.evaluate(_HEAD_TEXTS)
    assert [h["text"] for h in heads][:2] == [words["roundCol"], "Masha"]
    for head in heads:
        for box in head["boxes"]:
            assert box["left"] >= head["cell"]["left"] - 0.5, head
            assert box["right"] <= head["cell"]["right"] + 0.5, head
    for left, right in itertools.pairwise(heads):
        gap = min(b["left"] for b in right["boxes"]) - max(b["right"] for b in left["boxes"])
        assert gap >= 8, (left["text"], right["text"], gap)
    assert fits(page, size[0])
    assert not page.errors


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("size", [(1280, 800), (360, 740)], ids=["desktop", "phone"])
def test_the_records_pages_break_no_word_across_lines(
    browser: Any, club: dict[str, Any], lang: str, size: tuple[int, int]
) -> None:
    """The history's columns, the replay's scores and moves, a profile and the leaderboard
    wrap between words: none is broken mid-word, cut short or run out of its box."""
    page = page_of(browser, club, lang, *size, login="Masha")
    found = []
    for path, ready in (
        ("/history", "#all tr[data-id='four']"),
        ("/replay/four", ".felt[data-ply]"),
        ("/profile/Masha", "#profile-games"),
        ("/leaderboard", "#skill"),
    ):
        page.goto(club["url"] + path)
        page.wait_for_selector(ready)
        page.evaluate("document.fonts.ready")
        found += [f"{path}: {said}" for said in page.evaluate(BROKEN_WORDS)]
    assert not found, "\n".join(found)
    assert not page.errors


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize(
    ("device", "width", "height"), [("desktop", 1280, 800), ("phone", 360, 740)]
)
def test_the_coach_grades_her_own_moves_on_the_replay_with_a_graph_and_marks(
    browser: Any, club: dict[str, Any], lang: str, device: str, width: int, height: int
) -> None:
    page = page_of(browser, club, lang, width, height, login="Masha")
    page.goto(club["url"] + "/replay/duel1")
    page.wait_for_selector(".felt[data-ply]")
    words = i18n.web(lang)
    analyse = page.locator("#coach-analyse")
    assert analyse.inner_text() == words["analyseMatch"]
    assert analyse.bounding_box()["height"] >= 44
    analyse.click()
    page.wait_for_selector("#coach-graph", timeout=120_000)
    # her own moves: Alex's hand was hidden from her
    assert page.locator("#coach-status").inner_text() == words["coachYours"]
    rows = page.locator("#coach-accuracy tbody tr")
    assert rows.count() == 1 and rows.first.get_attribute("data-seat") == "0"
    assert "%" in rows.first.inner_text() or "—" in rows.first.inner_text()
    assert page.locator("#coach-graph polyline").count() == 1
    # the marks of the list are the analysis's, each on its move
    made = page.request.post(club["url"] + "/api/records/duel1/analysis", data={})
    graded = made.json()["analysis"]["moves"]
    marked = [m for m in graded if m["symbol"]]
    assert page.locator("#replay-moves .mark").count() == len(marked)
    for m in marked[:3]:
        button = page.locator(f"#replay-moves button.move[data-ply='{m['at'] + 1}']")
        assert m["symbol"] in button.inner_text()
    # at a position, what the last move gave up; the best move here, when asked
    first = graded[0]
    page.locator(f"#replay-moves button.move[data-ply='{first['at'] + 1}']").click()
    page.wait_for_selector(f".felt[data-ply='{first['at'] + 1}']")
    sync_api.expect(page.locator("#coach-here")).to_contain_text("Masha")
    page.locator(f"#replay-moves button.round-start[data-start='{first['at']}']").click()
    page.wait_for_selector(f".felt[data-ply='{first['at']}']")
    if first["grade"] != "forced":
        page.click("#coach-show-best")
        sync_api.expect(page.locator("#coach-best")).to_be_visible()
    # within a round the best move is laid on its end as a ghost, gone with the next step
    later = next(m for m in graded if m["ply"] > 0 and m["grade"] != "forced" and ":" in m["best"])
    page.locator(f"#replay-moves button.move[data-ply='{later['at']}']").click()
    page.wait_for_selector(f".felt[data-ply='{later['at']}']")
    page.click("#coach-show-best")
    ghost = page.locator("#coach-ghost")
    sync_api.expect(ghost).to_have_count(1)
    assert ghost.get_attribute("data-ghost") == later["best"].split(":")[0]
    assert ghost.get_attribute("aria-label").startswith(words["ghostLabel"].split("{")[0])
    assert page.locator("#coach-best").is_visible()
    page.locator(".replay-main").screenshot(path=str(SCREENS / f"coach-best-{lang}-{device}.png"))
    page.keyboard.press("ArrowRight")
    sync_api.expect(ghost).to_have_count(0)
    # a click on the graph goes to the move under it
    page.locator("#coach-graph").scroll_into_view_if_needed()
    box = page.locator("#coach-graph").bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.8, box["y"] + box["height"] / 2)
    felt = page.locator(".felt")
    sync_api.expect(felt).not_to_have_attribute("data-ply", str(later["at"] + 1))
    assert int(felt.get_attribute("data-ply") or 0) > len(graded) // 2
    assert fits(page, width)
    page.evaluate("() => scrollTo(0, 0)")
    page.screenshot(path=str(SCREENS / f"coach-replay-{lang}-{device}.png"), full_page=True)
    assert not page.errors
