"""``bazar play``: a match against bots at the terminal. The game is :class:`TableTalk`, which
reads and writes through what it is given, so a script can drive it as well as a person."""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import suppress
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.text import Text

from bazar import bots as botlib
from bazar import i18n
from bazar.bots import Bot
from bazar.core import record
from bazar.core.errors import invalid
from bazar.core.match import Match
from bazar.core.moves import Move
from bazar.core.play import Event, Moved, RoundEnded, RoundStarted, Seat
from bazar.core.play import play as play_match
from bazar.core.round import Round
from bazar.core.rules import VARIANTS
from bazar.core.view import View
from bazar.i18n import N_, t

from .app import Lang, Options, Players, bad_input, chosen_rules, fail, guess_lang, h, lang_option
from .console import styled_tiles, title
from .narrator import Narrator
from .rules import summary


class _Quit(Exception):
    """The player asked to leave."""


class _Retry(Exception):
    """Input that is not a move; the message says why."""


class _Help(Exception):
    """The player asked for the help screen."""


_QUIT = ("q", "quit", "exit", "в", "выход", "выйти")
_HELP = ("?", "h", "help", "помощь")
_WORDS = {"d": "draw", "взять": "draw", "беру": "draw", "p": "pass", "пас": "pass"}


def parse_choice(text: str, legal: Sequence[Move], lang: str) -> Move:
    """The move a player typed: a number from the list, or notation (``6-4:R``, ``6-4 r``,
    ``6-4`` when the tile fits one end only, ``draw``, ``pass``).

    >>> legal = [Move.parse("6-4:L"), Move.parse("6-4:R"), Move.parse("5-3:R")]
    >>> str(parse_choice("2", legal, "en")), str(parse_choice("5-3", legal, "en"))
    ('6-4:R', '5-3:R')
    >>> parse_choice("6-4", legal, "en")
    Traceback (most recent call last):
    ...
    bazar.cli.play._Retry: [6|4] fits both ends: write 6-4:L or 6-4:R.
    """
    text = text.strip()
    word = text.lower()
    if word in _QUIT:
        raise _Quit
    if word in _HELP:
        raise _Help
    if word.isdigit():
        n = int(word)
        if not 1 <= n <= len(legal):
            raise _Retry(t("play.bad_number", lang, n=n, count=len(legal)))
        return legal[n - 1]
    text = _WORDS.get(word, text)
    notation = re.sub(r"^([\[\]\d|:\s-]+?)\s*[: ]\s*([lrLR])$", r"\1:\2", text)
    tile_part, sep, end = notation.rpartition(":")
    if sep and end.lower() in ("l", "r"):
        notation = f"{tile_part}:{end.upper()}"
    try:
        move = Move.parse(notation)
    except ValueError as error:
        raise _Retry(i18n.error(error, lang)) from None
    if move in legal:
        return move
    if move.kind == "play" and move.end is None and move.tile is not None:
        fits = [m for m in legal if m.kind == "play" and m.tile is move.tile]
        if len(fits) == 1:
            return fits[0]
        if fits:
            tile = move.tile
            raise _Retry(t("play.which_end", lang, shown=f"[{tile.high}|{tile.low}]", tile=tile))
    raise _Retry(t("play.illegal", lang, move=move, legal=", ".join(map(str, legal))))


class TableTalk(Narrator):
    """A match between a person at ``seat`` and bots of one level, told through ``console``
    and answered through ``ask`` (a function from a prompt to a line; EOFError ends it).

    >>> import io, bazar
    >>> out = Console(file=io.StringIO(), width=100)
    >>> lines = iter(["1"] * 500)
    >>> table = TableTalk(bazar.Match(bazar.rules("block"), seed=2), 0, "greedy", out,
    ...                   lambda prompt: next(lines), "en")
    >>> table.play().is_over()
    True
    """

    def __init__(
        self,
        match: Match,
        seat: int,
        level: str,
        console: Console,
        ask: Callable[[str], str],
        lang: str,
        pause: float = 0.0,
        seed: int | None = None,
    ) -> None:
        players = match.rules.players
        if not 0 <= seat < players:
            raise invalid("seat", seat=seat, last=players - 1)
        # as the club's table names them: "Bot 2 · Easy", the seat counted from 1
        level_name = i18n.level_name(level, lang)
        names = [
            t("you", lang) if s == seat else t("bot", lang, seat=s + 1, level=level_name)
            for s in range(players)
        ]
        super().__init__(match, names, console, lang)
        self.seat: int = seat
        self.ask = ask
        self.pause = pause
        self.bots: dict[int, Bot] = {
            s: botlib.make(level, seed=None if seed is None else seed * 16 + s)
            for s in range(players)
            if s != seat
        }

    # -- what the player is shown ----------------------------------------------------------

    def welcome(self) -> None:
        rules = self.match.rules
        lang = self.lang
        goal = self.table.goal(rules, lang)
        players = t("players", lang, n=rules.players)
        game = title(rules.name, lang)
        self.say(
            Text(
                t("play.welcome", lang, game=game, players=players, seat=self.seat + 1, goal=goal),
                style="bold",
            )
        )
        for side in rules.teams:
            if self.seat in side:
                partner = next(s for s in side if s != self.seat)
                self.say(t("play.partner", lang, name=self.names[partner]))
        self.say(t("play.help", lang), style="dim")

    def round_start(self, rnd: Round) -> None:
        lang = self.lang
        self.say("")
        self.console.rule(t("play.round", lang, number=rnd.number))
        self.say(self.scores_line(rnd.ledger, t("play.scores", lang)))
        self.table.start(self, rnd)

    def show_moves(self, view: View) -> None:
        self.say(f"{t('play.moves', self.lang)}:")
        for n, move in enumerate(view.legal, start=1):
            line = Text(f"  {n:>2}  ")
            line.append_text(self.table.describe(self, move, view))
            line.append(f"   {move}", style="dim")
            self.say(line)

    def told(self, seat: int, move: Move, view: View, rnd: Round) -> None:
        """Say the move ``seat`` made from ``view`` (its view before it); ``rnd`` is the round
        after it. A bot's move is followed by the pause."""
        self.table.told(self, seat, move, view, rnd)
        if seat != self.seat and self.pause:
            time.sleep(self.pause)

    def result(self) -> None:
        super().result()
        result = self.match.result()
        if result is None:
            return
        if self.seat in result.losers:
            self.say(Text(t("match.you_lose", self.lang), style="bold red"))
        elif self.seat not in result.winners:  # a limit or the totals decide: he is between
            self.say(Text(t("match.you_between", self.lang), style="bold"))
        elif len({self.match.rules.side_of(s) for s in result.winners}) == 1:
            self.say(Text(t("match.you_win", self.lang), style="bold green"))
        else:
            self.say(Text(t("match.you_share", self.lang), style="bold green"))

    # -- the loop --------------------------------------------------------------------------

    def help_screen(self, view: View) -> None:
        """What ``?`` shows: the game's rules in short, the scores, the keys."""
        lang = self.lang
        self.say("")
        self.console.rule(t("play.help_title", lang))
        self.console.print(Markdown(summary(self.match.rules.name, lang)))
        self.say(t("play.help_more", lang, name=self.match.rules.name), style="dim")
        self.say("")
        self.say(self.scores_line(self.match.ledger, t("play.scores", lang)))
        self.say("")
        self.say(Text(t("play.keys", lang), style="bold"))
        for key, said in (
            (f"1–{len(view.legal)}", N_("play.key_number")),
            ("6-4:R", N_("play.key_notation")),
            ("d, draw", N_("play.key_draw")),
            ("p, pass", N_("play.key_pass")),
            ("?", N_("play.key_help")),
            ("q", N_("play.key_quit")),
        ):
            self.say(Text(f"  {key:<9} ").append(t(said, lang)))
        self.console.rule()
        self.show_moves(view)

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        """Ask until the player names one of ``legal``; a lone move is made for him, and
        said (the lone draws and passes are made before he is asked, :func:`play`)."""
        self.say("")
        self.table.show(self, view)
        if len(legal) == 1:
            self.say(t("play.forced", self.lang), style="cyan")  # what it is, the move says
            return legal[0]
        self.show_moves(view)
        while True:
            answer = self.ask(f"{t('play.prompt', self.lang)} [1-{len(legal)}]: ")
            try:
                return parse_choice(answer, legal, self.lang)
            except _Help:
                self.help_screen(view)
            except _Retry as retry:
                if str(retry):
                    self.say(styled_tiles(str(retry)), style="yellow")

    def hear(self, event: Event) -> None:
        """Say what the seat loop did: a move and what it scored, the end of a round (the
        player may leave there), the next round."""
        if isinstance(event, Moved):
            self.told(event.seat, event.move, event.view, event.round)
            for who, points in event.scored:
                self.say(
                    t("play.scored", self.lang, name=self.names[who], n=points), style="bold yellow"
                )
        elif isinstance(event, RoundEnded):
            self.round_over(event.round, event.before, event.after)
            if not self.match.is_over():
                answer = self.ask(f"{t('play.continue', self.lang)} ")
                if answer.strip().lower() in _QUIT:
                    raise _Quit
        elif isinstance(event, RoundStarted):
            self.round_start(event.round)

    def play(self) -> Match:
        """Play until the match ends, the player's lone draws and passes made for him and
        said; he may leave (:class:`_Quit`, EOFError)."""
        match = self.match
        self.welcome()
        self.round_start(match.round)
        seats: list[Seat] = [
            self if s == self.seat else self.bots[s] for s in range(match.rules.players)
        ]
        play_match(match, seats, self.hear, auto={self.seat})
        self.result()
        return match


def _asker(console: Console) -> Callable[[str], str]:
    def ask(prompt: str) -> str:
        return console.input(Text(prompt, style="bold"))

    return ask


def _is_terminal() -> bool:
    return sys.stdin.isatty()


def _default_variant() -> str:
    return "kozel" if "kozel" in VARIANTS else "classic"


def play_command(
    variant: Annotated[str | None, typer.Argument(help=h("help.variant"))] = None,
    players: Players = None,
    seat: Annotated[int, typer.Option("--seat", help=h("help.seat"))] = 0,
    bots: Annotated[
        str, typer.Option("--bots", help=h("help.bots", levels=", ".join(botlib.names())))
    ] = "greedy",
    seed: Annotated[int | None, typer.Option("--seed", help=h("help.seed"))] = None,
    lang: Lang = None,
    option: Options = None,
    record_path: Annotated[Path | None, typer.Option("--record", help=h("help.record"))] = None,
) -> None:
    lang = lang_option(lang)
    name = variant or _default_variant()
    language = guess_lang(lang, name)
    with bad_input(language):
        chosen = chosen_rules(name, players, option or ())
        language = lang or i18n.default_lang(chosen.name)
        level = bots.strip().lower()
        botlib.make(level)
        match = Match(chosen, seed=seed)
        console = Console(highlight=False)
        table = TableTalk(
            match,
            seat,
            level,
            console,
            _asker(console),
            language,
            pause=0.3 if console.is_terminal else 0.0,
            seed=match.seed,
        )
    if not _is_terminal():
        fail(t("play.no_tty", language))
    with suppress(ImportError):  # line editing and history for the answers, where there is one
        import readline  # noqa: F401
    code = 0
    try:
        table.play()
        if record_path is None:
            answer = _asker(console)(f"{t('play.save_prompt', language)}: ").strip()
            record_path = Path(answer) if answer else None
    except (_Quit, EOFError):
        console.print()
    except KeyboardInterrupt:
        console.print()
        code = 130
    if record_path is not None:
        with bad_input(language):
            record_path.write_text(record.dumps(match) + "\n", encoding="utf-8")
        table.say(t("play.saved", language, path=record_path))
    table.say(t("play.bye", language))
    if code:
        raise typer.Exit(code)
