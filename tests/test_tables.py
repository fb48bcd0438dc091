"""The terminal table of each family (``bazar/cli/tables``), chosen by the class of the board."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

import bazar
from bazar import Match, Round
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
def test_every_variant_is_told_by_the_table_of_its_board(name: str) -> None:
    rules = bazar.rules(name)
    assert type(table_of(Round(rules, seed=1).board)) is TABLES[rules.variant.family]


def test_a_closed_double_lies_face_down_on_the_terminal() -> None:
    rules = bazar.rules("osel", players=2)
    rnd = Round(rules, hands=[["5-2", "1-0", "2-3"], ["2-2", "5-5", "4-3"]], leader=0)
    for move in ["5-2", "close 5-5:L", "2-2:R"]:
        rnd.push(move)
    out = io.StringIO()
    talk = Narrator(Match(rules, seed=1), ["You", "Bot"], Console(file=out, width=100), "en")
    CrossTable().show_board(talk, rnd.view(0))
    assert out.getvalue().splitlines()[0].endswith("[▒|▒][5|2][2|2]")
