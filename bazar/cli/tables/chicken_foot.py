"""Chicken Foot: the engine and its arms, every branch under the foot it grows from."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from bazar.cli.console import styled_tiles, tile_str, tile_text
from bazar.core.moves import Move
from bazar.core.view import View
from bazar.games.trains.board import TreeBoard
from bazar.games.trains.chicken_foot import ENGINE_ARMS_REQUIRED
from bazar.i18n import N_, t

from .trains import RoundsTable, tail

if TYPE_CHECKING:
    from bazar.cli.narrator import Narrator


def _branch_key(branch: str) -> list[int]:
    return [int(part) for part in branch.split(".")]


#: the last tile's calls, in words
_WORDS = {"announce": N_("tree.announce"), "skip": N_("tree.skip")}


class TreeTable(RoundsTable):
    """Chicken Foot: the engine and its arms, every branch under the foot it grows from (the
    latest tiles, the open end), and what must be played on first."""

    def show(self, talk: Narrator, view: View) -> None:
        lang = talk.lang
        extra = view.extra
        board = view.board
        assert isinstance(board, TreeBoard)
        branches = board.branches
        arms = sum(1 for b in branches if "." not in b)
        required = view.rules[ENGINE_ARMS_REQUIRED]
        engine = tile_text(board.engine)
        talk.say(
            styled_tiles(t("tree.engine", lang, tile=engine.plain, arms=arms, required=required))
        )
        pending = extra["pending"]
        toes = {b: sum(1 for c in branches if c.rpartition(".")[0] == b) for b in branches}
        for branch in sorted(branches, key=_branch_key):
            tiles = branches[branch]
            line = Text("  " * branch.count(".") + f" {branch}: ").append_text(tail(tiles, 7))
            if branch in view.ends:
                line.append(f" → {view.ends[branch]}", style="bold")
            if tiles and tiles[-1].is_double:
                style = "bold red" if branch == pending else "dim"
                line.append(f"  {t('tree.foot', lang, toes=toes[branch])}", style=style)
            talk.say(line)
        if pending == "E":
            pip = board.engine.high
            talk.say(t("tree.pending_engine", lang, pip=pip), style="bold red")
        elif pending is not None:
            pip = view.ends[pending]
            talk.say(
                t("tree.pending_foot", lang, end=pending, toes=toes[pending], pip=pip),
                style="bold red",
            )
        if extra.get("unannounced"):
            names = ", ".join(talk.names[s] for s in extra["unannounced"])
            talk.say(t("tree.unannounced", lang, names=names), style="yellow")
        self.others(talk, view)

    def describe(self, talk: Narrator, move: Move, view: View) -> Text:
        lang = talk.lang
        if move.kind in _WORDS:
            return Text(t(_WORDS[move.kind], lang))
        if move.kind == "challenge":
            return Text(t("tree.challenge", lang, name=talk.names[int(move.value or 0)]))
        if move.kind not in ("play", "last") or move.tile is None or move.end is None:
            return super().describe(talk, move, view)
        end, tile = move.end, tile_str(move.tile)
        pip = view.ends.get(end, "?")
        if end == "E":
            said = t("tree.new_arm", lang, tile=tile, pip=pip)
        elif end == view.extra["pending"]:
            said = t("tree.toe", lang, tile=tile, end=end, pip=pip)
        else:
            said = t("tree.on_branch", lang, tile=tile, end=end, pip=pip)
        if move.kind == "last":
            said = t("tree.last", lang, move=said)
        return styled_tiles(said)
