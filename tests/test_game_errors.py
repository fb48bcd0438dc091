"""Every error a game raises carries a code and its parameters, and is said in the player's
language at the club and in the terminal by that code (issue 32): no module of
``bazar/games`` raises a ValueError of its own making, every code a game raises has its
English in ``MESSAGES`` and its Russian in the catalogue, and the errors a player meets
through the public API come with their code and are told in Russian."""

from __future__ import annotations

import ast
import gettext
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import one_line_error, run

import bazar
from bazar import i18n
from bazar.club.errors import ServerError
from bazar.core.errors import MESSAGES, code_of

GAMES = Path(bazar.__file__).parent / "games"

#: the errors that take a bare message when called themselves; ``Kind.of(code, ...)`` and
#: ``invalid(code, ...)`` are how a game raises one with a code
_UNCODED = {"ValueError", "BazarError", "IllegalMove", "BadRecord", "UnknownOption"}
_UNCODED |= {"UnknownVariant", "MatchOver"}


def uncoded_raises(source: str) -> list[int]:
    """The lines of ``source`` that raise a ValueError (or one of bazar's errors) built from
    a bare message, or none at all, rather than from a code."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Raise) or node.exc is None:
            continue
        made = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        name = made.id if isinstance(made, ast.Name) else getattr(made, "attr", None)
        if name in _UNCODED:
            lines.append(node.lineno)
    return lines


def codes_raised(source: str) -> set[str]:
    """The codes ``source`` raises by name: ``invalid("code", ...)``, ``Kind.of("code", ...)``."""
    codes = set()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func, first = node.func, node.args[0]
        named = (isinstance(func, ast.Name) and func.id == "invalid") or (
            isinstance(func, ast.Attribute) and func.attr == "of"
        )
        if named and isinstance(first, ast.Constant) and isinstance(first.value, str):
            codes.add(first.value)
    return codes


def modules() -> list[Path]:
    return sorted(GAMES.rglob("*.py"))


# -- the source ----------------------------------------------------------------------------------


def test_no_module_of_the_games_raises_a_bare_value_error() -> None:
    found = {
        str(path.relative_to(GAMES)): lines
        for path in modules()
        if (lines := uncoded_raises(path.read_text(encoding="utf-8")))
    }
    assert found == {}


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        ('raise ValueError("the moon is not a domino")', [1]),
        ("if x:\n    raise ValueError\n", [2]),
        ('raise IllegalMove("bad move")', [1]),
        ('raise errors.BadRecord(f"round {k}")', [1]),
        ('raise invalid("no_tile", a=7, b=1, high=6)', []),
        ('raise IllegalMove.of("illegal_move_over", move=move)', []),
        ("raise IndexError('no move to take back')", []),
    ],
)
def test_the_check_finds_every_bare_value_error_and_lets_a_coded_one_be(
    source: str, lines: list[int]
) -> None:
    assert uncoded_raises(source) == lines


def test_the_games_raise_codes_that_have_an_english_and_a_russian_message() -> None:
    ru = gettext.translation("bazar", i18n.LOCALE, ["ru"])
    codes = set().union(*(codes_raised(path.read_text(encoding="utf-8")) for path in modules()))
    assert len(codes) > 50
    assert sorted(codes - set(MESSAGES)) == []
    assert [code for code in sorted(codes) if ru.gettext(f"error.{code}") == f"error.{code}"] == []


# -- the errors a player meets -------------------------------------------------------------------


def raised(call: Callable[[], Any]) -> ValueError:
    with pytest.raises(ValueError) as caught:
        call()
    return caught.value


POKER_HAND = ["6-5", "6-4", "6-3", "6-2", "6-1"]

CASES: list[tuple[str, Callable[[], Any], str, dict[str, Any], str]] = [
    (
        "classic without a target",
        lambda: bazar.rules("classic", target=None),
        "positive_target",
        {},
        "Неверное значение: при счёте на очки (scoring=positive) нужен target",
    ),
    (
        "poker's bets the wrong way round",
        lambda: bazar.rules("poker", bet_min=5, bet_max=2),
        "bet_range",
        {"low": 5, "high": 2},
        "Неверное значение: bet_min 5 больше, чем bet_max 2",
    ),
    (
        "texas-42 on double-9",
        lambda: bazar.rules("texas-42", set_max=9),
        "set_only",
        {"game": "texas-42", "only": 6, "high": 9},
        "Неверное значение: в texas-42 играют набором дубль-6, а не дубль-9",
    ),
    (
        "mexican-train on double-9 with no hand size",
        lambda: bazar.rules("mexican-train", set_max=9),
        "hand_size_table",
        {"game": "mexican-train", "table": 12, "high": 9},
        "Неверное значение: в mexican-train сдают по таблице из набора дубль-12; "
        "с набором дубль-9 задайте hand_size",
    ),
    (
        "a GameColony listing of 99 points",
        lambda: bazar.rules.from_notation("99pt/Drw"),
        "listing_points",
        {"text": "99pt/Drw", "points": 99},
        "Неверное значение: объявление стола '99pt/Drw': очки от 100 до 500, а не 99",
    ),
    (
        "a poker deal of one hand for two players",
        lambda: bazar.Round(bazar.rules("poker", players=2), hands=[POKER_HAND]),
        "hands_count",
        {"game": "poker", "players": 2, "hands": 1},
        "Неверное значение: в poker на 2 игроков нужно рук: 2, а не 1",
    ),
    (
        "a blank in a poker hand",
        lambda: bazar.Round(
            bazar.rules("poker", players=2), hands=[POKER_HAND, ["5-4", "5-3", "5-2", "5-1", "5-0"]]
        ),
        "poker_tile",
        {"tile": bazar.Tile.parse("5-0")},
        "Неверное значение: кости 5-0 нет в покерном наборе из 20 костей (без пустышек и без 1-1)",
    ),
    (
        "a forced lead in kolbasa",
        lambda: bazar.Round(bazar.rules("kolbasa"), seed=1, lead=["6-6"]),
        "kolbasa_lead",
        {},
        "Неверное значение: в колбасе нет обязательного захода: колбасу начинает первый дубль",
    ),
]


@pytest.mark.parametrize(
    ("call", "code", "params", "russian"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_an_error_a_player_meets_carries_its_code_and_is_said_in_russian(
    call: Callable[[], Any], code: str, params: dict[str, Any], russian: str
) -> None:
    error = raised(call)
    assert code_of(error) == (code, params)
    assert str(error) == MESSAGES[code].format(**params)
    assert i18n.error(error, "ru") == russian


def test_the_club_passes_a_games_error_on_in_russian() -> None:
    error = raised(lambda: bazar.rules("poker", bet_min=5, bet_max=2))
    refusal = ServerError.passing_on("rules", error)
    assert refusal.params == {
        "reason": "bet_min 5 is above bet_max 2",
        "reason_ru": "bet_min 5 больше, чем bet_max 2",
    }
    # what the page says of the refusal, from the catalogue it is served
    assert i18n.web("ru")["error.rules"].format(**refusal.params) == refusal.params["reason_ru"]


def test_the_terminal_tells_a_games_error_in_russian() -> None:
    code, _, err = run("rules", "texas-42", "-o", "set_max=9", "--lang", "ru")
    assert one_line_error(code, err) == (
        "bazar: Неверное значение: в texas-42 играют набором дубль-6, а не дубль-9"
    )
    code, _, err = run("rules", "texas-42", "-o", "set_max=9", "--lang", "en")
    assert one_line_error(code, err) == (
        "bazar: Bad value: texas-42 is played with double-6, not double-9"
    )
