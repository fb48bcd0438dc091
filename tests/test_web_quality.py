"""What every page of the club owes a player, in a real browser (Playwright on the system
Chromium), in Russian and English, on a desktop (1280x800) and a phone (360x740): no raw id
or untranslated key in what it shows or labels, Russian counts in their plural form, no
sideways scroll, no word broken across lines, cut short or run out of its box, at the table
the hand whole on a phone's first screen and tap targets a thumb can hit (44 px, WCAG
2.5.5), and no script or console error. Every family's live table is looked at mid-round
(the player's turn) and after a round's end; the lobby, the rules, the history, the
profile, the leaderboard, the replay of a finished match and the tournaments as they come."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
sync_api = pytest.importorskip("playwright.sync_api")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import screenshots  # noqa: E402  (the gallery's club, player and seat serve the tests too)
from server_helpers import BROKEN_WORDS  # noqa: E402

from bazar.core.rules import VARIANTS  # noqa: E402
from bazar.i18n import LEVELS  # noqa: E402

LANGS = screenshots.LANGS
VIEWPORTS = screenshots.VIEWPORTS
GAMES = screenshots.GAMES
#: the smallest tap target at the table (WCAG 2.5.5's aim; UX.md §4)
THUMB = 44

#: the variant ids that are also plain English words ("Draw" is a button): raw only in Russian
_ENGLISH_WORDS = {"draw", "block", "classic", "fives", "poker", "telephone"}


def raw_ids(lang: str) -> re.Pattern[str]:
    """What a page must never show in ``lang``: a variant's or a bot level's id, a seat by
    its number from 0, what a script says of a missing value, a catalogue key."""
    ids = [n for n in VARIANTS if lang == "ru" or n not in _ENGLISH_WORDS] + list(LEVELS)
    words = "|".join(re.escape(n) for n in sorted(ids, key=len, reverse=True))
    return re.compile(
        rf"(?<![\w-])(?:{words})(?![\w-])"  # kozel, mexican-train, greedy
        r"|\bseat \d\b|(?<![\w])место 0\b"  # seats by their index
        r"|\b(?:undefined|null|NaN)\b|\[object"  # a script's missing values
        r"|\b(?:web|error|title|level|poker\.rank)\.\w"  # a catalogue key
        r"|\b[a-z]+[A-Z]\w*\b"  # an untranslated page key: roundResult, yourTurn
        r"|\b[a-z]+_[a-z_]+\b"  # for_everyone, invitation_link
    )


#: Russian counted nouns and their forms for 1, 2-4, 5 (one, few, many)
_NOUNS = {
    "кость": ("кость", "кости", "костей"),
    "очко": ("очко", "очка", "очков"),
    "раунд": ("раунд", "раунда", "раундов"),
    "партия": ("партия", "партии", "партий"),
    "игрок": ("игрок", "игрока", "игроков"),
    "ход": ("ход", "хода", "ходов"),
    "фишка": ("фишка", "фишки", "фишек"),
    "секунда": ("секунда", "секунды", "секунд"),
}
_COUNTED = re.compile(
    r"(?<![\d,.])(\d+)\s("
    + "|".join(f for forms in _NOUNS.values() for f in forms)
    + r")(?![а-яё])"
)


#: the Latin words a Russian page may show: the club's name, the other language's name (its
#: button says it in its own language), the names of a rating system and a hash, the
#: notation's ends, the poker ranks' letters, the site whose rules some presets follow (a
#: name, as "OpenSkill" is)
_LATIN_OK = {"bazar", "English", "OpenSkill", "sha256", "JSON", "GameColony"}
_LATIN = re.compile(r"(?<![\w#])[A-Za-z][A-Za-z]{2,}(?![\w])")


def english_words(text: str) -> list[str]:
    """The Latin words of a Russian page's text that are no name of the club's (an English
    text left untranslated: "Language", "Choose File"); a hash is no word."""
    words = set(_LATIN.findall(text)) - _LATIN_OK - set(screenshots.PLAYER.values())
    return sorted(w for w in words if not re.fullmatch(r"[0-9a-f]+", w))


def russian_form(n: int) -> int:
    """The catalogue's Plural-Forms for Russian: 0 one, 1 few, 2 many."""
    if n % 10 == 1 and n % 100 != 11:
        return 0
    return 1 if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else 2


def wrong_counts(text: str) -> list[str]:
    """The counts of ``text`` whose noun is not in the form its number takes ("5 кости")."""
    wrong = []
    for number, word in _COUNTED.findall(text):
        forms = next(f for f in _NOUNS.values() if word in f)
        if forms[russian_form(int(number))] != word:
            wrong.append(f"{number} {word}")
    return wrong


# what the page shows and what it labels: its text, the SVG's, the names a screen reader reads
_SEEN = """() => {
  const said = [document.title, document.body.innerText];
  for (const n of document.querySelectorAll("svg text")) said.push(n.textContent);
  for (const n of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
    for (const a of ["aria-label", "title", "placeholder", "alt"]) {
      if (n.hasAttribute(a)) said.push(n.getAttribute(a));
    }
  }
  return said.join("\\n");
}"""
_WIDE = "() => [document.scrollingElement.scrollWidth, window.innerWidth]"
# every visible target of the hand and the moves at the table, with its height in CSS px
_TARGETS = """() => {
  const felt = document.querySelector(".felt") || document.querySelector("main");
  const found = [...felt.querySelectorAll("button, a[href], input, select, [role=button]")];
  return found.map((n) => {
    const box = n.getBoundingClientRect();
    const name = n.getAttribute("aria-label") || n.getAttribute("data-tile")
      || n.textContent.trim() || n.tagName;
    return { name: name.slice(0, 40), width: box.width, height: box.height };
  }).filter((b) => b.width > 0 && b.height > 0);
}"""


def problems(eyes: Any, lang: str, where: str) -> list[str]:
    """What is wrong with the page as it stands, on each device."""
    eyes.settle()
    found = []
    for device, page in eyes.pages.items():
        text = page.evaluate(_SEEN)
        for raw in sorted(set(raw_ids(lang).findall(text))):
            found.append(f"{where} {device}: a raw id or key {raw!r}")
        if lang == "ru":
            found += [f"{where} {device}: «{count}»" for count in wrong_counts(text)]
            found += [f"{where} {device}: English {w!r}" for w in english_words(text)]
        found += [f"{where} {device}: {said}" for said in page.evaluate(BROKEN_WORDS)]
        scroll, inner = page.evaluate(_WIDE)
        if scroll > inner:
            found.append(f"{where} {device}: scrolls sideways ({scroll} px in {inner})")
    return found


# the hand's box in the phone's first screen, where there is a hand to show (not Kolbasa's)
_HAND = """() => {
  window.scrollTo(0, 0);
  const hand = document.querySelector("#hand");
  const box = hand && hand.getBoundingClientRect();
  return box && box.width > 0 ? [box.top, box.bottom, window.innerHeight] : null;
}"""


def hand_below_the_fold(eyes: Any, where: str) -> list[str]:
    """The hand whole on a phone's first screen, without scrolling (UX.md §8)."""
    box = eyes.pages["phone"].evaluate(_HAND)
    if box is None or (box[0] >= 0 and box[1] <= box[2]):
        return []
    return [f"{where} phone: the hand spans {box[0]:.0f}-{box[1]:.0f} px of a {box[2]} px screen"]


def small_targets(eyes: Any, where: str) -> list[str]:
    """The targets at the table a thumb would miss on a phone."""
    return [
        f"{where} phone: {b['name']!r} is {b['height']:.0f} px tall"
        for b in eyes.pages["phone"].evaluate(_TARGETS)
        if b["height"] < THUMB
    ]


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with screenshots.club(bot_delay=0.01) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=screenshots.ARGS)
        yield chromium
        chromium.close()


class Player:
    """The registered player of one language: her browser context (her session), and the
    match she finished for the history, the profile and the replay."""

    def __init__(self, browser: Any, server: str, lang: str) -> None:
        self.server, self.lang, self.name = server, lang, screenshots.PLAYER[lang]
        width, height = VIEWPORTS["desktop"]
        self.context = browser.new_context(
            viewport={"width": width, "height": height},
            locale="ru-RU" if lang == "ru" else "en-US",
        )
        self.context.add_init_script(f"localStorage.setItem('bazar.lang', '{lang}')")
        body = {"name": self.name, "password": screenshots.PASSWORD}
        screenshots.post(self.context, server, "/api/register", body)
        self.finished = self.table("draw", 2, options={"target": 1})
        with self.seat(self.finished) as seat:
            seat.play()  # to the match's end: a tied fish or a lone 0-0 left scores nothing

    def table(self, game: str, players: int, **extra: Any) -> str:
        return screenshots.new_table(self.context, self.server, game, players, **extra)

    def seat(self, table: str) -> Any:
        return screenshots.seated(self.server, table, screenshots.cookie_of(self.context), 7)

    def eyes(self, path: str, errors: list[str]) -> Any:
        """Her pages at ``path``, one per device."""
        return screenshots.Eyes.open(self.context, self.server + path, errors, self.lang)


@pytest.fixture(scope="module")
def players(browser: Any, server: str) -> Iterator[dict[str, Player]]:
    made: dict[str, Player] = {}
    yield made
    for player in made.values():
        player.context.close()


@pytest.fixture(params=LANGS)
def player(
    request: pytest.FixtureRequest, players: dict[str, Player], browser: Any, server: str
) -> Player:
    lang = request.param
    if lang not in players:
        players[lang] = Player(browser, server, lang)
    return players[lang]


@pytest.mark.parametrize("game", list(GAMES))
def test_a_live_table_says_no_raw_id_fits_a_phone_and_takes_a_thumb(
    player: Player, game: str
) -> None:
    errors: list[str] = []
    table = player.table(game, GAMES[game])
    eyes = player.eyes(f"/table/{table}", errors)
    found = []
    with player.seat(table) as seat:
        seat.play(moves=screenshots.MID_MOVES)
        found += problems(eyes, player.lang, f"{game} mid-round")
        found += small_targets(eyes, f"{game} mid-round")
        found += hand_below_the_fold(eyes, f"{game} mid-round")
        seat.play(rounds=1)
        found += problems(eyes, player.lang, f"{game} round's end")
    eyes.close()
    assert not found + errors, "\n".join(found + errors)


PAGES = [
    "lobby",
    "rules",
    "rules-kozel",
    "history",
    "profile",
    "leaderboard",
    "replay",
    "tournaments",
]


@pytest.mark.parametrize("shot", PAGES)
def test_a_page_says_no_raw_id_and_fits_the_width(player: Player, shot: str) -> None:
    errors: list[str] = []
    path = {**screenshots.paths(player.name, player.finished), "tournaments": "/tournaments"}[shot]
    status = player.context.request.get(player.server + path).status
    eyes = player.eyes(path, errors)
    for page in eyes.pages.values():
        page.wait_for_load_state("networkidle")
    found = [] if status == 200 else [f"{shot}: HTTP {status}"]
    found += problems(eyes, player.lang, shot)
    eyes.close()
    assert not found + errors, "\n".join(found + errors)


def test_the_raw_ids_and_the_russian_counts_are_caught() -> None:
    """The checks themselves: what they must find, and what they must let be."""
    en, ru = raw_ids("en"), raw_ids("ru")
    for raw in (
        "mexican-train",
        "greedy bot 2",
        "seat 0",
        "undefined",
        "roundResult",
        "web.lobby",
        "for_everyone",
        "[object Object]",
        "kozel · 4",
    ):
        assert en.search(raw), raw
    for fine in ("Draw", "Mexican Train", "Kozel club rating", "Seat 1", "Round 2", "Pot: 5"):
        assert not en.search(fine), fine
    assert ru.search("draw") and ru.search("место 0") and not ru.search("место 1")
    assert wrong_counts("5 кости, 1 кость, 22 кости, 11 костей, 21 кость, 3 костей") == [
        "5 кости",
        "3 костей",
    ]


def test_the_page_counts_in_the_plural_form_of_its_language(player: Player) -> None:
    """i18n.js's tn() takes the form the language's plural rule names for the number."""
    eyes = player.eyes("/", [])
    said = eyes.pages["desktop"].evaluate(
        """async () => {
          const i18n = await import("/static/i18n.js");
          await i18n.loadTexts();
          return [1, 2, 5, 11, 21, 22, 1000].map((n) => i18n.tn("nTiles", n));
        }"""
    )
    eyes.close()
    expected = {
        "ru": ["1 кость", "2 кости", "5 костей", "11 костей", "21 кость", "22 кости"],
        "en": ["1 tile", "2 tiles", "5 tiles", "11 tiles", "21 tiles", "22 tiles"],
    }[player.lang]
    assert said[:-1] == expected
    assert said[-1] in ("1\u00a0000 костей", "1\u202f000 костей", "1,000 tiles")


def test_a_refusal_names_seats_from_one_and_games_by_their_names(player: Player) -> None:
    """The server counts seats from 0 and names a game by its id; the page says neither."""
    eyes = player.eyes("/", [])
    said = eyes.pages["desktop"].evaluate(
        """async () => {
          const i18n = await import("/static/i18n.js");
          await i18n.loadTexts();
          return [
            i18n.errorText({ code: "seat_reserved", message: "",
                             params: { seat: "0", name: "Оля" } }),
            i18n.errorText({ code: "option_range", message: "",
                             params: { option: "target", game: "mexican-train",
                                       low: 1, high: 9 } }),
          ];
        }"""
    )
    eyes.close()
    kept, bounds = said
    assert "1" in kept and "0" not in kept, kept
    assert "mexican-train" not in bounds, bounds
    assert ("Mexican Train" if player.lang == "en" else "Мексиканский поезд") in bounds, bounds
