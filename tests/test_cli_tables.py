"""The terminal table of each family: every game has one, and every game can be played at the
terminal to its end."""

from __future__ import annotations

import pytest
from cli_helpers import scripted

import bazar
from bazar.cli import TableTalk
from bazar.cli.tables import GAME_TABLES, LineTable, table_of


def test_every_family_has_its_own_terminal_table() -> None:
    families = {bazar.rules.variant(name).family for name in bazar.VARIANTS}
    assert families <= GAME_TABLES.keys()


def test_a_family_without_a_table_is_told_as_a_line_game() -> None:
    assert isinstance(table_of("no-such-family"), LineTable)


@pytest.mark.parametrize("name", list(bazar.VARIANTS))
def test_every_game_is_played_at_the_terminal_to_the_end_of_the_match(name: str) -> None:
    out, console = scripted()
    feed = iter(["1"] * 5000)
    match = bazar.Match(bazar.rules(name), seed=4)
    table = TableTalk(match, 0, "greedy", console, lambda prompt: next(feed), "en", seed=4)
    assert table.play().is_over()
    text = out.getvalue()
    assert "Round 1" in text and "Round 1 is over" in text and "The match is over." in text
