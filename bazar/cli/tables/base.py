"""What the terminal asks of a family's table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from bazar.cli.console import styled_tiles
from bazar.core.moves import Move
from bazar.core.round import Round
from bazar.core.rules import Rules
from bazar.core.view import View
from bazar.i18n import N_, t

if TYPE_CHECKING:
    from bazar.cli.narrator import Narrator


#: the moves that lay no tile, in words
MOVE_WORDS = {"draw": N_("move.draw"), "pass": N_("move.pass"), "stop": N_("move.stop")}


class GameTable:
    """How the terminal tells one family's game: what wins, what the scores run to, the start
    of a round, the table, the moves, and the end of a round."""

    def goal(self, rules: Rules, lang: str) -> str:
        raise NotImplementedError

    def mark(self, rules: Rules, lang: str) -> str | None:
        """What the scores run to, or None."""
        return None

    def start(self, talk: Narrator, rnd: Round) -> None:
        """Said when a round begins."""

    def show(self, talk: Narrator, view: View) -> None:
        raise NotImplementedError

    def describe(self, talk: Narrator, move: Move, view: View) -> Text:
        """A move of the seat to move in ``view``, in words."""
        raise NotImplementedError

    def told(self, talk: Narrator, seat: int, move: Move, view: View, rnd: Round) -> None:
        """Say the move ``seat`` made from ``view``; ``rnd`` is the round after it."""
        said = self.describe(talk, move, view).plain
        talk.say(styled_tiles(t("table.did", talk.lang, name=talk.names[seat], move=said)))

    def over(self, talk: Narrator, rnd: Round) -> None:
        """Said after the end of a round, below its result."""
