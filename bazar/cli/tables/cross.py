"""The spinner games (the Fives family, Telephone, Bergen, Osel): the line through the
spinner and its arms up and down."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from bazar.cli.console import tiles_text
from bazar.core.view import View
from bazar.games.cross.board import CrossBoard

from .line import LineTable

if TYPE_CHECKING:
    from bazar.cli.narrator import Narrator


class CrossTable(LineTable):
    """A line table whose board is the line, the spinner on it, and the arms U and D."""

    def show_board(self, talk: Narrator, view: View) -> None:
        board = view.board
        assert isinstance(board, CrossBoard)
        self.show_line(talk, board.line, board.closed)
        for arm, tiles in (("U", board.up), ("D", board.down)):
            if tiles:
                line = tiles_text(tiles, sep="", face_down=board.closed)
                talk.say(Text(f"  {arm}: ").append_text(line))
