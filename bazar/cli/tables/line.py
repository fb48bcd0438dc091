"""The line games (block, draw, classic, Kozel): the line of tiles and its two ends."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from rich.text import Text

from bazar.cli.console import styled_tiles, tiles_text
from bazar.core.board import Laid
from bazar.core.moves import Move
from bazar.core.round import Round
from bazar.core.rules import Rules
from bazar.core.tiles import Tile
from bazar.core.view import View
from bazar.games.line.board import LineBoard
from bazar.i18n import N_, t

from .base import MOVE_WORDS, GameTable

if TYPE_CHECKING:
    from bazar.cli.narrator import Narrator

_END_KEYS = {"L": N_("play.end_left"), "R": N_("play.end_right"), "S": N_("play.end_slot")}
_ARM_KEYS = {"U": N_("play.arm_up"), "D": N_("play.arm_down"), "S": N_("play.arm_slot")}


def describe_move(move: Move, lang: str, ends: dict[str, int] | None = None) -> Text:
    """A move as a person reads it: ``[6|4] on the right (4)``, ``lead [6|6]``."""
    tile = move.tile
    if move.kind == "play" and tile is not None:
        tile_str = f"[{tile.high}|{tile.low}]"
        if move.end is None:
            text = t("play.lead_move", lang, tile=tile_str)
        elif move.end in ("L", "R"):
            key = N_("play.on_left") if move.end == "L" else N_("play.on_right")
            pip = "?" if ends is None else ends.get(move.end, "?")
            text = t(key, lang, tile=tile_str, pip=pip)
        else:
            pip = "?" if ends is None else ends.get(move.end, "?")
            arm = t(_ARM_KEYS.get(move.end, N_("play.arm_other")), lang, end=move.end)
            text = t("play.on_arm", lang, tile=tile_str, arm=arm, pip=pip)
        return styled_tiles(text)
    if move.kind == "close" and tile is not None:
        tile_str = f"[{tile.high}|{tile.low}]"
        return styled_tiles(t("play.close", lang, tile=tile_str, end=move.end or "—"))
    if move.kind in MOVE_WORDS:
        return Text(t(MOVE_WORDS[move.kind], lang))
    return Text(str(move))


def _end(end: str, pip: int, lang: str) -> str:
    """An open end in words: ``left 6``; ends without a word go by their id (``U 5``)."""
    key = _END_KEYS.get(end)
    return t(key, lang, pip=pip) if key else f"{end} {pip}"


class LineTable(GameTable):
    """The line on the table, the open ends, the bazar, the hands."""

    def goal(self, rules: Rules, lang: str) -> str:
        if rules.target is not None:
            return t("play.goal.target", lang, target=rules.target)
        return t("play.goal.limit", lang, limit=rules.limit)

    def mark(self, rules: Rules, lang: str) -> str | None:
        if rules.target is not None:
            return t("round.target", lang, target=rules.target)
        return t("round.limit", lang, limit=rules.limit)

    def start(self, talk: Narrator, rnd: Round) -> None:
        if rnd.leader == talk.seat:
            talk.say(t("play.you_lead", talk.lang))

    def show_line(
        self, talk: Narrator, line: Sequence[Laid], face_down: Collection[Tile] = ()
    ) -> None:
        """The line of tiles, or that the table is empty."""
        board = Text(f"{t('play.table', talk.lang)}: ")
        if line:
            board.append_text(tiles_text(line, sep="", face_down=face_down))
        else:
            board.append(t("play.table_empty", talk.lang))
        talk.say(board)

    def show_board(self, talk: Narrator, view: View) -> None:
        """The tiles on the table."""
        board = view.board
        assert isinstance(board, LineBoard)
        self.show_line(talk, board.line)

    def show(self, talk: Narrator, view: View) -> None:
        lang = talk.lang
        self.show_board(talk, view)
        parts = []
        if view.ends:
            ends = [_end(end, pip, lang) for end, pip in view.ends.items()]
            parts.append(f"{t('play.ends', lang)}: " + " · ".join(ends))
        if view.bazar_size and not view.rules.draw:
            parts.append(t("play.out_of_play", lang, n=view.bazar_size))
        elif view.bazar_size:
            if view.drawable == view.bazar_size:
                parts.append(t("play.bazar", lang, n=view.bazar_size))
            else:
                parts.append(t("play.bazar_dead", lang, n=view.bazar_size, drawable=view.drawable))
        if parts:
            talk.say("   ".join(parts))
        others = [
            f"{talk.names[s]}: {t('tiles', lang, n=n)}"
            for s, n in enumerate(view.hand_sizes)
            if s != talk.seat
        ]
        talk.say(f"{t('play.hands', lang)}: " + " · ".join(others))
        talk.say(talk.hand_text(view))

    def describe(self, talk: Narrator, move: Move, view: View) -> Text:
        return describe_move(move, talk.lang, view.ends)

    def told(self, talk: Narrator, seat: int, move: Move, view: View, rnd: Round) -> None:
        lang = talk.lang
        name = talk.names[seat]
        said = describe_move(move, lang, view.ends).plain
        if seat == talk.seat:
            if move.kind == "draw":
                drawn = rnd.view(seat).history[-1][2]
                tile = "?" if drawn is None else f"[{drawn.high}|{drawn.low}]"
                talk.say(styled_tiles(t("play.you_draw", lang, tile=tile)))
            elif move.kind == "pass":
                talk.say(t("play.you_pass", lang))
            elif move.kind == "stop":
                talk.say(t("play.you_stop", lang))
            elif move.kind == "play" and move.end is None and move.tile is not None:
                tile_str = f"[{move.tile.high}|{move.tile.low}]"
                talk.say(styled_tiles(t("play.you_lead_tile", lang, tile=tile_str)))
            else:
                talk.say(styled_tiles(t("play.you_play", lang, move=said)))
        elif move.kind == "draw":
            talk.say(t("play.bot_draw", lang, name=name), style="dim")
        elif move.kind == "pass":
            talk.say(t("play.bot_pass", lang, name=name), style="dim")
        elif move.kind == "stop":
            talk.say(t("play.bot_stop", lang, name=name), style="dim")
        elif move.kind == "play" and move.end is None and move.tile is not None:
            tile_str = f"[{move.tile.high}|{move.tile.low}]"
            talk.say(styled_tiles(t("play.bot_lead", lang, name=name, tile=tile_str)))
        else:
            talk.say(styled_tiles(t("play.bot_play", lang, name=name, move=said)))
