"""The terminal table of each family: every game has the one of its board's class, and every
game can be played at the terminal to its end."""

from __future__ import annotations

import pytest
from cli_helpers import scripted

import bazar
from bazar import Match, Round
from bazar.cli import TableTalk
from bazar.cli.narrator import Narrator
from bazar.cli.tables import (
    CrossTable,
    GameTable,
    KolbasaTable,
    LineTable,
    PokerTable,
    TrainTable,
    TreeTable,
    TrickTable,
    table_of,
)

#: the table that tells the games of each family
TABLES: dict[str, type[GameTable]] = {
    "line": LineTable,
    "cross": CrossTable,
    "trains": TrainTable,
    "tree": TreeTable,
    "kolbasa": KolbasaTable,
    "trick": TrickTable,
    "poker": PokerTable,
}


@pytest.mark.parametrize("name", bazar.rules.names())
def test_every_game_is_told_by_the_table_of_its_board(name: str) -> None:
    rules = bazar.rules(name)
    assert type(table_of(Round(rules, seed=1).board)) is TABLES[rules.variant.family]


def test_a_closed_double_lies_face_down_on_the_terminal() -> None:
    rules = bazar.rules("osel", players=2)
    rnd = Round(rules, hands=[["5-2", "1-0", "2-3"], ["2-2", "5-5", "4-3"]], leader=0)
    for move in ["5-2", "close 5-5:L", "2-2:R"]:
        rnd.push(move)
    out, console = scripted()
    talk = Narrator(Match(rules, seed=1), ["You", "Bot"], console, "en")
    CrossTable().show_board(talk, rnd.view(0))
    assert out.getvalue().splitlines()[0].endswith("[▒|▒][5|2][2|2]")


@pytest.mark.parametrize("name", list(bazar.VARIANTS))
def test_every_game_is_played_at_the_terminal_to_the_end_of_the_match(name: str) -> None:
    out, console = scripted()
    feed = iter(["1"] * 5000)
    match = bazar.Match(bazar.rules(name), seed=4)
    table = TableTalk(match, 0, "greedy", console, lambda prompt: next(feed), "en", seed=4)
    assert table.play().is_over()
    text = out.getvalue()
    assert "Round 1" in text and "Round 1 is over" in text and "The match is over." in text
