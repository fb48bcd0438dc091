"""The spinner games (the Fives family, Telephone, Bergen, Osel): the line through the
spinner and its arms up and down."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from bazar.cli.console import tiles_text
from bazar.core.view import View

from .line import LineTable

if TYPE_CHECKING:
    from bazar.cli.narrator import Narrator


class CrossTable(LineTable):
    """A line table whose board is the line, the spinner on it, and the arms U and D."""

    def show_board(self, talk: Narrator, view: View) -> None:
        layout = view.board
        self.show_line(talk, layout.get("line") or [])
        for arm in ("U", "D"):
            tiles = layout.get(arm) or []
            if tiles:
                talk.say(Text(f"  {arm}: ").append_text(tiles_text(tiles, sep="")))
