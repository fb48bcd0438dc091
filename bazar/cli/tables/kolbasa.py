"""Kolbasa: the sausage, its open end and joints, the face-down rows, the tile turned over."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from bazar.cli.console import styled_tiles, tile_str, tiles_text
from bazar.core.moves import Move
from bazar.core.round import Round
from bazar.core.rules import Rules
from bazar.core.view import View
from bazar.games.kolbasa import KolbasaBoard
from bazar.i18n import N_, t

from .base import GameTable

if TYPE_CHECKING:
    from bazar.cli.narrator import Narrator


#: the moves of a tile that joins no sausage, in words
_KINDS = {"pass": N_("kolbasa.pass"), "stop": N_("kolbasa.stop")}


class KolbasaTable(GameTable):
    """The sausage, its open end and joints, the face-down rows, the tile turned over."""

    def goal(self, rules: Rules, lang: str) -> str:
        return t("play.goal.kolbasa", lang)

    def start(self, talk: Narrator, rnd: Round) -> None:
        extra = rnd.view(None).extra
        shown = [f"{talk.names[s]} {tile_str(tile)}" for s, tile in extra["opening"]]
        talk.say(styled_tiles(f"{t('kolbasa.opening', talk.lang)}: " + " · ".join(shown)))
        if extra["starter"] is not None:
            start = tile_str(extra["opening"][-1][1])
            name = talk.names[extra["starter"]]
            talk.say(styled_tiles(t("kolbasa.starts", talk.lang, name=name, tile=start)))

    def show(self, talk: Narrator, view: View) -> None:
        lang = talk.lang
        extra = view.extra
        board = view.board
        assert isinstance(board, KolbasaBoard)
        sausage = tiles_text(board.sausage, sep="")
        talk.say(Text(f"{t('kolbasa.sausage', lang)}: ").append_text(sausage))
        joints = " ".join(f"{j}:{pip}" for j, pip in enumerate(extra["joints"], 1)) or "—"
        pip = view.ends.get("R", "—")
        talk.say(t("kolbasa.ends", lang, pip=pip, joints=joints))
        rows = [f"{talk.names[s]} {n}" for s, n in enumerate(view.hand_sizes)]
        talk.say(f"{t('kolbasa.rows', lang)}: " + " · ".join(rows))
        if extra["front"] is not None and view.turn is not None:
            name = talk.names[view.turn]
            front = tile_str(extra["front"])
            talk.say(styled_tiles(t("kolbasa.front", lang, name=name, tile=front)))

    def describe(self, talk: Narrator, move: Move, view: View) -> Text:
        lang = talk.lang
        front = view.extra["front"]
        tile = tile_str(move.tile or front)
        if move.kind == "play":
            return styled_tiles(t("kolbasa.attach", lang, tile=tile, pip=view.ends.get("R")))
        if move.kind == "cut":
            joint = int(move.end or 0)
            receiver = talk.names[((view.turn or 0) + 1) % len(view.hand_sizes)]
            pip = view.extra["joints"][joint - 1]
            text = t(
                "kolbasa.cut",
                lang,
                tile=tile,
                joint=joint,
                pip=pip,
                name=receiver,
                n=t("tiles", lang, n=joint),
            )
            return styled_tiles(text)
        return styled_tiles(t(_KINDS[move.kind], lang, tile=tile))
