"""Domino poker: the pot, each stake, the chips left, the hand and its combination."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from bazar.core.moves import Move
from bazar.core.round import Round
from bazar.core.rules import Rules
from bazar.core.view import View
from bazar.games.poker import ANTE, DEALS, HIGH_HAND, STARTING_CHIPS, STRAIGHT_DEFINITIONS, rank
from bazar.i18n import N_, t

from .base import GameTable

if TYPE_CHECKING:
    from bazar.cli.narrator import Narrator


#: the bets, in words
_WORDS = {
    "check": N_("poker.check"),
    "call": N_("poker.call"),
    "bet": N_("poker.bet"),
    "raise": N_("poker.raise"),
    "fold": N_("poker.fold"),
}

#: the combinations, as the engine names them (the web page says them from here too)
RANKS = {
    "No Combination": N_("poker.rank.No Combination"),
    "Pair": N_("poker.rank.Pair"),
    "Flush": N_("poker.rank.Flush"),
    "Three": N_("poker.rank.Three"),
    "Four Straight": N_("poker.rank.Four Straight"),
    "Full Hand": N_("poker.rank.Full Hand"),
    "Five Straight": N_("poker.rank.Five Straight"),
    "Four of a Kind": N_("poker.rank.Four of a Kind"),
    "Six Straight": N_("poker.rank.Six Straight"),
    "Royal Flush": N_("poker.rank.Royal Flush"),
}


class PokerTable(GameTable):
    """The pot, each stake, the chips left, the hand and its combination."""

    def goal(self, rules: Rules, lang: str) -> str:
        return t("play.goal.poker", lang, deals=rules[DEALS], chips=rules[STARTING_CHIPS])

    def mark(self, rules: Rules, lang: str) -> str | None:
        return t("round.chips", lang, deals=rules[DEALS])

    def start(self, talk: Narrator, rnd: Round) -> None:
        extra = rnd.view(None).extra
        talk.say(
            t(
                "poker.dealer",
                talk.lang,
                name=talk.names[extra["dealer"]],
                first=talk.names[extra["leader"]],
                ante=rnd.rules[ANTE],
            )
        )
        for seat in extra["out"]:
            talk.say(t("poker.sits_out", talk.lang, name=talk.names[seat]), style="dim")

    def show(self, talk: Narrator, view: View) -> None:
        lang = talk.lang
        extra = view.extra
        stakes = []
        for seat, put in enumerate(extra["put"]):
            if seat in extra["out"]:
                continue
            folded = f" ({t('poker.folded', lang)})" if seat in extra["folded"] else ""
            stakes.append(f"{talk.names[seat]} {put}{folded}")
        talk.say(f"{t('poker.pot', lang, pot=extra['pot'])} · " + " · ".join(stakes))
        chips = view.scores.get("scores", [])
        puts = extra["put"]
        left = [f"{name} {c - p}" for name, c, p in zip(talk.names, chips, puts, strict=True)]
        talk.say(f"{t('poker.chips', lang)}: " + " · ".join(left))
        text = talk.hand_text(view)
        if view.hand and len(view.hand) == 5:
            rules = view.rules
            worth = rank(view.hand, rules[STRAIGHT_DEFINITIONS], rules[HIGH_HAND]).name
            text.append(f" — {t(RANKS[worth], lang)}", style="bold")
        talk.say(text)
        me = view.seat
        if me is not None and view.turn == me and extra["high"] > extra["put"][me]:
            talk.say(t("poker.to_call", lang, n=extra["high"] - extra["put"][me]))

    def describe(self, talk: Narrator, move: Move, view: View) -> Text:
        lang = talk.lang
        return Text(t(_WORDS[move.kind], lang, n=move.value))

    def over(self, talk: Narrator, rnd: Round) -> None:
        outcome = rnd.outcome()
        assert outcome is not None
        lang = talk.lang
        extra = outcome.extra or {}
        for seat, worth in enumerate(extra["ranks"]):
            if worth is not None:
                talk.say(f"{talk.names[seat]}: {t(RANKS[worth], lang)}")
        names = ", ".join(talk.names[s] for s in extra["winners"])
        talk.say(t("poker.takes", lang, names=names, pot=extra["pot"]), style="bold")
