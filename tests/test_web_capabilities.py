"""The web page asks the capabilities the club sends with the rules, never a game's name: no
script of ``bazar/web`` holds a variant's or a family's name as a string, outside the board
renderer's table of layouts (keyed by the board's kind, the type tag of its JSON); and the club
sends the capabilities wherever the page reads rules (the view, the games on offer, the rules
page), with the club's default game and whether a player has the club's Kozel points."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_helpers import make_app
from starlette.testclient import TestClient

import bazar
from bazar.club.storage import Rating
from bazar.core.rules import variant
from bazar.core.view import View

WEB = Path(bazar.__file__).parent / "web"

#: every variant's name and every family's, from the registry
NAMES = frozenset(bazar.rules.names()) | {variant(n).family for n in bazar.rules.names()}

#: the words before a string that make it other than a game's name: an SVG element's tag
#: (``el("line", ...)``, which the line family shares) and the move ``draw`` (which the Draw
#: game shares) where a move or its word or key is compared or named, each as ``(what comes
#: just before the string, the string)``
OTHER_MEANINGS = (
    (re.compile(r"\bel\($"), "line"),
    (re.compile(r"(?:\bN_\(|\b(?:word|legal\[\d\]) ===|\bKeyD:)$"), "draw"),
)

#: the keywords after which a slash starts a regular expression, not a division
_BEFORE_REGEX = frozenset(("return", "typeof", "case", "of", "in", "delete", "void", "throw"))


class _Lexer:
    """The string literals of a script (its template literals' text parts too), each with the
    code just before it on its line: comments, regular expressions and code are skipped."""

    def __init__(self, source: str) -> None:
        self.s = source
        self.i = 0
        self.found: list[tuple[int, str, str]] = []

    def _at(self, start: int, text: str) -> None:
        line_start = self.s.rfind("\n", 0, start) + 1
        line = self.s.count("\n", 0, start) + 1
        self.found.append((line, text, self.s[line_start:start].rstrip()))

    def code(self, in_template: bool = False) -> None:
        """Read code up to its end, or up to the ``}`` that closes a template's ``${``."""
        s, depth, last = self.s, 0, ""
        while self.i < len(s):
            c = s[self.i]
            if s.startswith("//", self.i):
                self.i = s.find("\n", self.i) if "\n" in s[self.i :] else len(s)
            elif s.startswith("/*", self.i):
                self.i = s.index("*/", self.i) + 2
            elif c in "'\"":
                self._quoted(c)
                last = ")"
            elif c == "`":
                self._template()
                last = ")"
            elif c == "/" and (not last or last in "(,=:[!&|?{};+-*%<>~^" or last in _BEFORE_REGEX):
                self._regex()
                last = ")"
            elif c.isalnum() or c in "_$":
                word = re.match(r"[\w$]+", s[self.i :])
                assert word is not None
                last = word.group()
                self.i += len(last)
            else:
                if c == "{":
                    depth += 1
                elif c == "}":
                    if in_template and depth == 0:
                        self.i += 1
                        return
                    depth -= 1
                if not c.isspace():
                    last = c
                self.i += 1

    def _quoted(self, quote: str) -> None:
        start = self.i
        self.i += 1
        out = []
        while self.s[self.i] != quote:
            if self.s[self.i] == "\\":
                self.i += 1
            out.append(self.s[self.i])
            self.i += 1
        self.i += 1
        self._at(start, "".join(out))

    def _template(self) -> None:
        self.i += 1
        start, out = self.i, []
        while self.s[self.i] != "`":
            if self.s[self.i] == "\\":
                self.i += 1
                out.append(self.s[self.i])
                self.i += 1
            elif self.s.startswith("${", self.i):
                self._at(start, "".join(out))
                self.i += 2
                self.code(in_template=True)
                start, out = self.i, []
            else:
                out.append(self.s[self.i])
                self.i += 1
        self._at(start, "".join(out))
        self.i += 1

    def _regex(self) -> None:
        self.i += 1
        in_class = False
        while in_class or self.s[self.i] != "/":
            if self.s[self.i] == "\\":
                self.i += 1
            elif self.s[self.i] == "[":
                in_class = True
            elif self.s[self.i] == "]":
                in_class = False
            self.i += 1
        self.i += 1


def literals(source: str) -> list[tuple[int, str, str]]:
    """Each string of ``source`` as (its line, its text, the code before it on its line)."""
    lexer = _Lexer(source)
    lexer.code()
    return lexer.found


def game_names(name: str, source: str) -> Iterator[str]:
    """Where the script ``name`` holds a game's name as a string: ``file:line: 'name' ...``."""
    for line, text, before in literals(source):
        if text not in NAMES:
            continue
        if any(pattern.search(before) and text == word for pattern, word in OTHER_MEANINGS):
            continue
        yield f"{name}:{line}: {text!r} after {before[-40:]!r}"


def test_the_lexer_finds_strings_and_skips_comments_and_regular_expressions() -> None:
    source = (
        "// a 'line' in a comment\n"
        "const a = /\"kozel\"/.test(x) ? 'fives' : `to ${b ? \"osel\" : c} and`; /* 'tree' */\n"
        "const d = e / 2 + 'poker';\n"
    )
    assert [(line, text) for line, text, _ in literals(source)] == [
        (2, "fives"),
        (2, "to "),
        (2, "osel"),
        (2, " and"),
        (3, "poker"),
    ]
    assert literals('el("line", {})')[0][2] == "el("


def test_no_script_of_the_page_names_a_game_or_a_family() -> None:
    scripts = sorted(WEB.glob("*.js"))
    assert len(scripts) > 10
    found = [
        where
        for path in scripts
        for where in game_names(path.name, path.read_text(encoding="utf-8"))
    ]
    assert found == [], "\n".join(found)


def test_a_game_s_name_in_a_script_is_found() -> None:
    """The check is not blind: a comparison with a family's name, or a variant's name given
    as a default, is caught."""
    source = (WEB / "board.js").read_text(encoding="utf-8")
    planted = (
        'const shown = view.board.kind === "trains";\n'
        'const g = x || "kozel";\n'
        'if (kind === "line") el("line", {});\n'
        'if (rules.name === "draw" && word === "draw") send("pass");\n'
    )
    found = list(game_names("board.js", source + planted))
    lines = source.count("\n") + 1
    # the SVG tag and the move's word are not the games' names: the comparisons are
    assert [f.split(" after ")[0] for f in found] == [
        f"board.js:{lines}: 'trains'",
        f"board.js:{lines + 1}: 'kozel'",
        f"board.js:{lines + 2}: 'line'",
        f"board.js:{lines + 3}: 'draw'",
    ]


# ---- what the club sends -------------------------------------------------------------------


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(make_app(db)) as c:
        yield c


def test_the_view_s_rules_carry_their_capabilities() -> None:
    for name in bazar.rules.names():
        rules = bazar.rules(name)
        data = View.of(bazar.Round(rules, seed=1), None).to_json()
        assert data["rules"]["capabilities"] == rules.capabilities().to_json()
        # what was there before is all still there, and the view reads back
        assert {"name", "family", "loser", "options"} <= set(data["rules"])
        assert View.from_json(data).rules == rules


def test_the_games_on_offer_and_the_rules_page_carry_capabilities(client: TestClient) -> None:
    listing = client.get("/api/games").json()
    assert listing["default_game"] == "kozel" in {g["name"] for g in listing["games"]}
    for game in listing["games"]:
        assert game["capabilities"] == bazar.rules(game["name"]).capabilities().to_json()
    fives = client.get("/api/rules/fives").json()
    assert fives["capabilities"]["scored_in_play"] is True
    assert fives["capabilities"] == fives["diagram"]["view"]["rules"]["capabilities"]
    assert client.get("/api/leaderboard").json()["game"] == listing["default_game"]


def test_a_profile_says_whether_the_player_has_the_club_s_kozel_points(client: TestClient) -> None:
    r = client.post("/api/register", json={"name": "Masha", "password": "password-Masha"})
    assert r.status_code == 200
    assert client.get("/api/profile/Masha").json()["kozel_rated"] is False
    storage = client.app.state.storage  # type: ignore[attr-defined]
    user = storage.accounts.registered("Masha")
    with storage.session() as db:
        db.add(Rating(user_id=user.id, game="fives", mu=25.0, sigma=8.0, games=1))
        db.commit()
    # a rating in a game that keeps no Kozel points gives none
    assert client.get("/api/profile/Masha").json()["kozel_rated"] is False
    with storage.session() as db:
        db.add(Rating(user_id=user.id, game="osel", mu=25.0, sigma=8.0, games=1))
        db.commit()
    assert client.get("/api/profile/Masha").json()["kozel_rated"] is True
