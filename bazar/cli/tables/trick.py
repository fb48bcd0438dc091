"""Texas 42: the auction or the contract, the trick on the table, the hand's points so far."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from bazar.cli.console import styled_tiles, tile_str
from bazar.core.moves import Move
from bazar.core.round import Round
from bazar.core.rules import Rules
from bazar.core.view import View
from bazar.games.trick import TARGET, TrickBoard
from bazar.i18n import N_, t

from .base import GameTable

if TYPE_CHECKING:
    from bazar.cli.narrator import Narrator


#: the trumps that are no suit, in words
_TRUMPS = {"follow-me": N_("trick.trumps.follow-me"), "doubles": N_("trick.trumps.doubles")}


class TrickTable(GameTable):
    """The auction or the contract, the trick on the table, the hand's points so far."""

    def goal(self, rules: Rules, lang: str) -> str:
        return t("play.goal.target", lang, target=TARGET)

    def mark(self, rules: Rules, lang: str) -> str | None:
        return t("round.target", lang, target=TARGET)

    def start(self, talk: Narrator, rnd: Round) -> None:
        extra = rnd.view(None).extra
        talk.say(
            t(
                "trick.dealer",
                talk.lang,
                name=talk.names[extra["dealer"]],
                first=talk.names[extra["leader"]],
            )
        )

    def _trumps(self, value: int | str, lang: str) -> str:
        return t(_TRUMPS[value], lang) if isinstance(value, str) else str(value)

    def show(self, talk: Narrator, view: View) -> None:
        lang = talk.lang
        extra = view.extra
        if extra["phase"] == "bidding":
            bids = [
                f"{talk.names[s]} {self.describe(talk, m, view).plain}" for s, m, _ in view.history
            ]
            talk.say(f"{t('trick.bids', lang)}: " + (" · ".join(bids) or "—"))
        else:
            trumps = "—" if extra["trumps"] is None else self._trumps(extra["trumps"], lang)
            talk.say(
                t(
                    "trick.contract",
                    lang,
                    name=talk.names[extra["bidder"]],
                    bid=extra["bid"],
                    trumps=trumps,
                )
            )
        if extra["phase"] == "play":
            board = view.board
            assert isinstance(board, TrickBoard)
            trick = [f"{talk.names[s]} {tile_str(tile)}" for s, tile in board.trick]
            talk.say(styled_tiles(f"{t('trick.trick', lang)}: " + (" · ".join(trick) or "—")))
            points = " · ".join(
                f"{n} {p}" for n, p in zip(talk.side_names(), extra["points"], strict=True)
            )
            talk.say(f"{t('trick.points', lang)}: {points}")
        talk.say(talk.hand_text(view))

    def describe(self, talk: Narrator, move: Move, view: View) -> Text:
        lang = talk.lang
        if move.kind == "bid":
            return Text(t("trick.bid", lang, n=move.value))
        if move.kind == "pass":
            return Text(t("trick.pass", lang))
        if move.kind == "trumps":
            return Text(t("trick.trumps", lang, suit=self._trumps(move.value or 0, lang)))
        return styled_tiles(t("trick.play", lang, tile=tile_str(move.tile or "0-0")))

    def told(self, talk: Narrator, seat: int, move: Move, view: View, rnd: Round) -> None:
        super().told(talk, seat, move, view, rnd)
        if move.kind == "play" and not rnd.board.tiles():  # the trick is complete: taken
            _, winner, _, points = rnd.view(None).extra["tricks"][-1]
            talk.say(t("trick.takes", talk.lang, name=talk.names[winner], n=points), style="bold")

    def over(self, talk: Narrator, rnd: Round) -> None:
        outcome = rnd.outcome()
        assert outcome is not None
        if outcome.reason != "tricks":
            return
        rules = rnd.rules
        extra = outcome.extra or {}
        bid, bidder = extra["bid"], extra["bidder"]
        side = rules.side_of(bidder)
        took = sum(p for s, p in enumerate(outcome.points) if rules.side_of(s) == side)
        key = N_("trick.made") if took >= bid else N_("trick.set")
        talk.say(t(key, talk.lang, name=talk.names[bidder], bid=bid, took=took), style="bold")
