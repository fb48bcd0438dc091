"""Mexican Train, and what the train and tree games share: one round per double, the engine
in the centre."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.text import Text

from bazar.cli.console import styled_tiles, tile_str, tile_text, tiles_text
from bazar.core.board import Laid
from bazar.core.moves import Move
from bazar.core.round import Round
from bazar.core.rules import Rules
from bazar.core.view import View
from bazar.games.trains.board import TrainsBoard
from bazar.i18n import t

from .base import MOVE_WORDS, GameTable

if TYPE_CHECKING:
    from bazar.cli.narrator import Narrator


def _rounds_goal(rules: Rules, lang: str) -> str:
    """What a match of one round per double is played for (Mexican Train, Chicken Foot)."""
    top = rules.set_max
    if rules.limit is not None:
        who = t("play.goal.reach", lang, limit=rules.limit)
    elif rules.lower_wins:
        who = t("play.goal.fewest", lang)
    else:
        who = t("play.goal.most", lang)
    return t("play.goal.rounds", lang, rounds=top + 1, top=top, who=who)


def tail(tiles: Sequence[Laid], most: int) -> Text:
    """The last ``most`` tiles of a train or branch, the rest counted: ``…5 [3|4][4|4]``."""
    text = Text()
    if len(tiles) > most:
        text.append(f"…{len(tiles) - most} ", style="dim")
    return text.append_text(tiles_text(tiles[-most:], sep="") if tiles else Text("·", style="dim"))


class RoundsTable(GameTable):
    """What the train and tree games share: one round per double, the engine in the centre."""

    def goal(self, rules: Rules, lang: str) -> str:
        return _rounds_goal(rules, lang)

    def mark(self, rules: Rules, lang: str) -> str | None:
        return t("round.rounds", lang, rounds=rules.set_max + 1)

    def start(self, talk: Narrator, rnd: Round) -> None:
        engine = tile_str(rnd.view(None).extra["engine"])
        name = talk.names[rnd.leader]
        talk.say(styled_tiles(t("trains.engine", talk.lang, tile=engine, name=name)))

    def others(self, talk: Narrator, view: View) -> None:
        """The bazar, the other hands, then the player's own."""
        lang = talk.lang
        parts = [f"{talk.names[s]} {n}" for s, n in enumerate(view.hand_sizes) if s != talk.seat]
        if view.drawable == view.bazar_size:
            bazar = t("play.bazar", lang, n=view.bazar_size)
        else:
            bazar = t("play.bazar_dead", lang, n=view.bazar_size, drawable=view.drawable)
        talk.say(f"{bazar}   {t('play.hands', lang)}: " + " · ".join(parts))
        talk.say(talk.hand_text(view))

    def describe(self, talk: Narrator, move: Move, view: View) -> Text:
        if move.kind in MOVE_WORDS:
            return Text(t(MOVE_WORDS[move.kind], talk.lang))
        return Text(str(move))

    def told(self, talk: Narrator, seat: int, move: Move, view: View, rnd: Round) -> None:
        if move.kind == "draw" and seat == talk.seat:
            drawn = rnd.view(seat).history[-1][2]
            shown = "?" if drawn is None else tile_str(drawn)
            talk.say(styled_tiles(t("play.you_draw", talk.lang, tile=shown)))
            return
        super().told(talk, seat, move, view, rnd)


class TrainTable(RoundsTable):
    """Mexican Train: the engine, a row per train (the latest tiles, the open end), the markers
    (⚑) and the doubles still to satisfy (‼, in the order they are due)."""

    def show(self, talk: Narrator, view: View) -> None:
        lang = talk.lang
        extra = view.extra
        due = extra["unsatisfied"]
        board = view.board
        assert isinstance(board, TrainsBoard)
        trains = board.trains
        names = {
            end: talk.names[int(end)] if end != "M" else t("trains.mexican", lang) for end in trains
        }
        width = max(map(len, names.values()))
        centre = Text(f"{t('trains.centre', lang)} ").append_text(tile_text(board.engine))
        if extra["first_turns"]:
            centre.append(f"   {t('trains.first_turns', lang, n=extra['first_turns'])}")
        talk.say(centre)
        for end, tiles in trains.items():
            line = Text(f" {names[end]:<{width}} ")
            line.append("⚑ " if end in extra["markers"] else "  ", style="bold yellow")
            line.append_text(tail(tiles, 7))
            line.append(f" → {view.ends[end]}", style="bold")
            if end in due:
                order = f" {due.index(end) + 1}" if len(due) > 1 else ""
                line.append(f"  ‼ {t('trains.due', lang)}{order}", style="bold red")
            talk.say(line)
        self.others(talk, view)

    def describe(self, talk: Narrator, move: Move, view: View) -> Text:
        if move.kind != "play" or move.tile is None or move.end is None:
            return super().describe(talk, move, view)
        lang, end = talk.lang, move.end
        tile, pip = tile_str(move.tile), view.ends.get(end, "?")
        if end == "M":
            return styled_tiles(t("trains.on_mexican", lang, tile=tile, pip=pip))
        if int(end) == view.turn:
            return styled_tiles(t("trains.on_own", lang, tile=tile, pip=pip))
        name = talk.names[int(end)]
        return styled_tiles(t("trains.on_train", lang, tile=tile, name=name, pip=pip))
