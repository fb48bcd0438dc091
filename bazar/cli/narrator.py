"""The narrator: a match told in words, for a player (``bazar play``) or a spectator
(``bazar replay``)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.text import Text

from bazar.core.ledger import Ledger
from bazar.core.match import Match
from bazar.core.outcome import Outcome
from bazar.core.round import Round
from bazar.core.tiles import Tile
from bazar.core.view import View
from bazar.i18n import N_, t

from .console import FIT_STYLE, tile_text, tiles_text
from .tables import table_of

#: how a round ends, beyond going out and the fish, in words
_REASONS = {
    "out": N_("reason.out"),
    "fish": N_("reason.fish"),
    "redeal": N_("reason.redeal"),
    "deadlock": N_("reason.deadlock"),
    "target": N_("reason.target"),
    "tricks": N_("reason.tricks"),
    "showdown": N_("reason.showdown"),
    "fold": N_("reason.fold"),
}


#: the name of a match's losers where the yards give them one (``Traits.loser``)
_LOSERS = {
    "goat": (N_("match.goat"), N_("match.goats")),
    "donkey": (N_("match.donkey"), N_("match.donkeys")),
}


class Narrator:
    """Tells a match in words: who is who, the scores, how each round ended, who won."""

    def __init__(self, match: Match, names: Sequence[str], console: Console, lang: str) -> None:
        self.match = match
        self.names = list(names)
        self.console = console
        self.lang = lang
        #: the person the story is told to (None: a spectator)
        self.seat: int | None = None
        #: how the game of this family is drawn and told
        self.table = table_of(match.round.board)

    def say(self, *parts: str | Text, style: str | None = None) -> None:
        """Print plain text (never read as Rich markup: a tile's brackets stay brackets)."""
        texts = [Text(p) if isinstance(p, str) else p for p in parts]
        self.console.print(*texts, style=style, highlight=False)

    def side_names(self) -> list[str]:
        """Who scores in each ledger entry: a player, or two partners."""
        rules = self.match.rules
        if not rules.teams:
            return list(self.names)
        return [t("side", self.lang, a=self.names[a], b=self.names[b]) for a, b in rules.teams]

    def hand_text(self, view: View) -> Text:
        """The player's tiles; those that fit an end in green, marked ← (left), → (right)."""
        text = Text(f"{t('play.your_hand', self.lang)}: ")
        fits: dict[Tile, set[str | None]] = {}
        for move in view.legal:
            if move.kind == "play" and move.tile is not None:
                fits.setdefault(move.tile, set()).add(move.end)
        for i, tile in enumerate(view.hand or ()):
            if i:
                text.append(" ")
            ends = fits.get(tile)
            text.append_text(tile_text(tile, FIT_STYLE if ends is not None else None))
            if ends:
                mark = ("←" if "L" in ends else "") + ("→" if "R" in ends else "")
                text.append(mark, style=FIT_STYLE)
        return text

    def scores_line(self, ledger: Ledger, label: str) -> Text:
        """The scores as the table shows them. In Kozel an open account is shown plain (red),
        remembered points of a closed one with a "+" (yellow), as the seeds describe; the fish
        pot ("eggs") follows."""
        rules = self.match.rules
        mark = self.table.mark(rules, self.lang)
        remembering = rules.keeps_accounts
        holder = ledger.get("record_holder")
        line = Text(f"{label}: ")
        for side, name in enumerate(self.side_names()):
            if side:
                line.append(" · ")
            line.append(f"{name} ")
            score, held = ledger.scores[side], ledger.remembered[side]
            if remembering and not ledger.opened[side] and held:
                line.append(f"+{held}", style="yellow")
            elif remembering and ledger.opened[side]:
                line.append(str(score), style="red")
            else:
                line.append(str(score))
            if holder == side:
                line.append(f" ({t('play.record', self.lang)})")
        if ledger.pot:
            line.append(" · ")
            line.append(t("play.pot", self.lang, n=ledger.pot), style="cyan")
        if mark:
            line.append(f" ({mark})")
        return line

    def how(self, outcome: Outcome) -> str:
        """How a round ended: who went out, or the fish «рыба»."""
        lang = self.lang
        if outcome.reason == "out" and outcome.out_seat is not None:
            if outcome.out_seat == self.seat:
                return t("round.you_out", lang)
            return t("round.out", lang, name=self.names[outcome.out_seat])
        if outcome.reason == "fish":
            if outcome.fisher is not None and outcome.fisher == self.seat:
                return t("round.you_fish", lang)
            if outcome.fisher is not None:
                return t("round.fish", lang, name=self.names[outcome.fisher])
            return t("round.fish_plain", lang)
        key = _REASONS.get(outcome.reason)
        return t(key, lang) if key else outcome.reason

    def round_over(self, rnd: Round, before: Ledger, after: Ledger) -> None:
        lang = self.lang
        outcome = rnd.outcome()
        assert outcome is not None
        self.say("")
        self.say(
            Text(t("round.over", lang, number=rnd.number, how=self.how(outcome)), style="bold")
        )
        hands = Text(f"{t('round.remaining', lang)}: ")
        for seat, hand in enumerate(outcome.remaining):
            if seat:
                hands.append(" · ")
            hands.append(f"{self.names[seat]}: ")
            hands.append_text(tiles_text(hand or ()))
        self.say(hands)
        self.table.over(self, rnd)
        # what each side took this round: its account and its remembered points together
        gains = [
            (name, after.scores[s] + after.remembered[s] - before.scores[s] - before.remembered[s])
            for s, name in enumerate(self.side_names())
        ]
        self.say(f"{t('round.points', lang)}: " + " · ".join(f"{n} {g:+d}" for n, g in gains))
        self.say(self.scores_line(after, t("round.total", lang)))

    def result(self) -> None:
        """The end of the match, or that it is unfinished."""
        lang = self.lang
        result = self.match.result()
        self.say("")
        if result is None:
            self.say(t("match.unfinished", lang))
            return
        self.say(Text(t("match.over", lang), style="bold"))
        for seats, one, many in (
            (result.winners, N_("match.winner"), N_("match.winners")),
            (result.losers, N_("match.loser"), N_("match.losers")),
        ):
            title = _LOSERS.get(self.match.rules.variant.traits.loser or "")
            if title is not None and seats is result.losers:
                one, many = title
            if seats:
                key = one if len(seats) == 1 else many
                self.say(t(key, lang, names=", ".join(self.names[s] for s in seats)))
