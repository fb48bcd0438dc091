"""The command line: ``bazar rules | play | arena | replay | bench``.

Typer parses, Rich draws; only this module imports them, so ``import bazar`` stays light.
Bad input of any kind ends with one line on stderr and exit status 2. The game loop of
``bazar play`` is :class:`TableTalk`, which reads and writes through what it is given, so
it can be driven by a script as well as by a person.
"""

from __future__ import annotations

import errno
import json
import random
import re
import sys
import textwrap
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text
from typer.core import TyperGroup

from bazar import arena as arenas
from bazar import bots as botlib
from bazar import i18n
from bazar.bots import Bot
from bazar.core import record
from bazar.core.match import Ledger, Match
from bazar.core.moves import Move
from bazar.core.round import Outcome, Round
from bazar.core.rules import VARIANTS, Rules
from bazar.core.rules import rules as make_rules
from bazar.core.rules import variant as find_variant
from bazar.core.tiles import Tile
from bazar.core.view import View
from bazar.games.poker import ANTE, DEALS, HIGH_HAND, STARTING_CHIPS, STRAIGHT_DEFINITIONS, rank
from bazar.games.trains.chicken_foot import ENGINE_ARMS_REQUIRED
from bazar.games.trick import TARGET as TRICK_TARGET
from bazar.i18n import t

try:
    from typer._click.exceptions import ClickException, NoArgsIsHelpError
except ImportError:  # typer releases that use click itself
    from click.exceptions import (  # type: ignore[no-redef,import-not-found,assignment,unused-ignore]
        ClickException,
        NoArgsIsHelpError,
    )

__all__ = [
    "Narrator",
    "TableTalk",
    "app",
    "bench",
    "main",
    "parse_choice",
    "parse_option",
    "replay_data",
]

#: The language of ``--help`` (the locale's, else English).
HELP_LANG = i18n.env_lang() or "en"


def _h(key: str, **kw: object) -> str:
    return t(key, HELP_LANG, **kw)


class _Group(TyperGroup):
    """Typer's group, with every usage error told in one line (exit 2)."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except NoArgsIsHelpError as error:
            print(error.format_message())
            code = 0
        except ClickException as error:
            message = " ".join(error.format_message().split())
            print(f"bazar: {i18n.line('error.usage', message, _guess_lang(None))}", file=sys.stderr)
            code = error.exit_code
        except typer.Abort:
            print(file=sys.stderr)
            code = 1
        code = code if isinstance(code, int) else 0
        if standalone_mode:
            sys.exit(code)
        return code


app = typer.Typer(
    cls=_Group,
    help=_h("help.app"),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def main() -> None:
    """The console script ``bazar`` (and ``python -m bazar``)."""
    app(prog_name="bazar")


# -- bad input -----------------------------------------------------------------------------


def _fail(message: str) -> NoReturn:
    # print, not Rich: one line, never wrapped at the terminal's width
    print(f"bazar: {message}", file=sys.stderr)
    raise typer.Exit(2)


_OS_ERRORS_RU = {
    FileNotFoundError: "нет такого файла",
    IsADirectoryError: "это папка",
    PermissionError: "нет доступа",
}


@contextmanager
def _bad_input(lang: str) -> Iterator[None]:
    """Turn a library error or a file error into one line on stderr and exit 2."""
    try:
        yield
    except OSError as error:
        path = error.filename if error.filename is not None else ""
        reason = error.strerror or str(error)
        if lang == "ru":
            code = errno.errorcode.get(error.errno or 0, type(error).__name__)
            reason = _OS_ERRORS_RU.get(type(error)) or t("error.os", lang, code=code)
        _fail(f"{t('error.file', lang, path=path)}: {reason}")
    except UnicodeDecodeError as error:
        _fail(i18n.error(i18n.Message("error.not_text", at=error.start), lang))
    except ValueError as error:
        _fail(i18n.error(error, lang))


def _guess_lang(lang: str | None, name: str | None = None) -> str:
    """The language before the variant is known: ``--lang``, the locale, the game's, else
    Russian for a name written in Cyrillic."""
    if lang is not None:
        return lang
    if name is not None:
        try:
            return i18n.default_lang(find_variant(name).name)
        except ValueError:
            pass
        if re.search("[а-яё]", name, re.IGNORECASE):
            return i18n.env_lang() or "ru"
    return i18n.env_lang() or "en"


def parse_option(text: str) -> tuple[str, Any]:
    """``NAME=VALUE`` from ``-o``: the value read as JSON where it can be (``true``, ``50``,
    ``null``), else as a word.

    >>> parse_option("target=50"), parse_option("draw=false"), parse_option("first_lead=low")
    (('target', 50), ('draw', False), ('first_lead', 'low'))
    """
    name, sep, raw = text.partition("=")
    name = name.strip().replace("-", "_")
    if not sep or not name:
        raise i18n.Message("error.option_syntax", text=text)
    raw = raw.strip()
    try:
        value: Any = json.loads(raw.lower() if raw.lower() in ("true", "false", "null") else raw)
    except json.JSONDecodeError:
        value = raw
    return name, value


def _rules(name: str, players: int | None, options: Sequence[str]) -> Rules:
    given = dict(parse_option(o) for o in options)
    return make_rules(name, players=players, **given)


def _lang_option(value: str | None) -> str | None:
    if value is None:
        return None
    lang = value.strip().lower()
    if lang not in i18n.LANGS:
        _fail(i18n.error(i18n.Message("error.lang", value=value), _guess_lang(None)))
    return lang


# -- drawing tiles and moves ---------------------------------------------------------------

_TILE_STYLE = "bold"
_DOUBLE_STYLE = "bold magenta"
_FIT_STYLE = "bold green"


def tile_text(tile: Tile | str, style: str | None = None) -> Text:
    """A domino as ``[6|4]``; ``tile`` is a Tile or a board entry ``"6|4"`` (left half first)."""
    if isinstance(tile, Tile):
        a, b, double = tile.high, tile.low, tile.is_double
    else:
        if tile.startswith("#"):  # a double laid face down («Осёл»)
            return Text("[▒|▒]", style=style or _DOUBLE_STYLE)
        left, _, right = tile.partition("|")
        a, b, double = int(left), int(right), left == right
    return Text(f"[{a}|{b}]", style=style or (_DOUBLE_STYLE if double else _TILE_STYLE))


def _tiles(tiles: Sequence[Tile | str], sep: str = " ") -> Text:
    return Text(sep).join(tile_text(x) for x in tiles) if tiles else Text("—")


def describe_move(move: Move, lang: str, ends: dict[str, int] | None = None) -> Text:
    """A move as a person reads it: ``[6|4] on the right (4)``, ``lead [6|6]``."""
    tile = move.tile
    if move.kind == "play" and tile is not None:
        tile_str = f"[{tile.high}|{tile.low}]"
        if move.end is None:
            text = t("play.lead_move", lang, tile=tile_str)
        elif move.end in ("L", "R"):
            key = "play.on_left" if move.end == "L" else "play.on_right"
            pip = "?" if ends is None else ends.get(move.end, "?")
            text = t(key, lang, tile=tile_str, pip=pip)
        else:
            pip = "?" if ends is None else ends.get(move.end, "?")
            arm = t(_ARM_KEYS.get(move.end, "play.arm_other"), lang, end=move.end)
            text = t("play.on_arm", lang, tile=tile_str, arm=arm, pip=pip)
        return _styled_tiles(text)
    if move.kind == "close" and tile is not None:
        tile_str = f"[{tile.high}|{tile.low}]"
        return _styled_tiles(t("play.close", lang, tile=tile_str, end=move.end or "—"))
    if move.kind in ("draw", "pass", "stop"):
        return Text(t(f"move.{move.kind}", lang))
    return Text(str(move))


_END_KEYS = {"L": "play.end_left", "R": "play.end_right", "S": "play.end_slot"}
_ARM_KEYS = {"U": "play.arm_up", "D": "play.arm_down", "S": "play.arm_slot"}


def _end(end: str, pip: int, lang: str) -> str:
    """An open end in words: ``left 6``; ends without a word go by their id (``U 5``)."""
    key = _END_KEYS.get(end)
    return t(key, lang, pip=pip) if key else f"{end} {pip}"


def _styled_tiles(text: str) -> Text:
    out = Text(text)
    out.highlight_regex(r"\[\d+\|\d+\]", _TILE_STYLE)
    return out


# -- rules ---------------------------------------------------------------------------------


def _title(name: str, lang: str) -> str:
    """A game's name in words: the description up to its colon."""
    game = find_variant(name)
    text = game.description_ru if lang == "ru" else game.description
    return text.split(":")[0].strip()


def _json_value(value: Any) -> str:
    """An option's value as ``-o`` takes it: words bare, the rest as JSON."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _decimal(x: float, lang: str) -> str:
    """Seconds to two places, with the decimal comma in Russian."""
    text = f"{x:.2f}"
    return text.replace(".", ",") if lang == "ru" else text


def _number(n: float, lang: str) -> str:
    """A whole number with its thousands apart: ``12,345`` (en), ``12 345`` (ru)."""
    text = f"{n:,.0f}"
    return text.replace(",", "\u202f") if lang == "ru" else text


@app.command("rules", help=_h("help.rules"))
def rules_command(
    variant: Annotated[str | None, typer.Argument(help=_h("help.variant"))] = None,
    players: Annotated[int | None, typer.Option("--players", "-p", help=_h("help.players"))] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", metavar="NAME=VALUE", help=_h("help.option")),
    ] = None,
    lang: Annotated[str | None, typer.Option("--lang", help=_h("help.lang"))] = None,
) -> None:
    lang = _lang_option(lang)
    console = Console(highlight=False)
    if variant is None:
        language = _guess_lang(lang)
        _list_variants(console, language)
        return
    language = _guess_lang(lang, variant)
    with _bad_input(language):
        game = find_variant(variant)
        language = lang or i18n.default_lang(game.name)
        given = dict(parse_option(o) for o in option or ())
        chosen = make_rules(game.name, players=players, **given)
    _show_rules(console, chosen, language, given)


def _list_variants(console: Console, lang: str) -> None:
    table = Table(title=t("rules.title", lang), title_justify="left", expand=False)
    for key in ("rules.variant", "rules.players", "rules.description", "rules.aliases"):
        table.add_column(t(key, lang))
    for name in VARIANTS:
        game = find_variant(name)
        low, high = game.players
        table.add_row(
            name,
            f"{low}–{high}",
            Text(game.description_ru if lang == "ru" else game.description),
            Text(", ".join(game.aliases)),
        )
    console.print(table)
    if lang == "en":
        # `bazar rules kozel` will answer in Russian (API.md): say so here, in English
        russian = ", ".join(name for name in VARIANTS if find_variant(name).russian)
        console.print(Text(t("rules.russian", lang, names=russian), style="dim"))


def _show_rules(console: Console, chosen: Rules, lang: str, given: dict[str, Any]) -> None:
    game = chosen.variant
    low, high = game.players
    description = game.description_ru if lang == "ru" else game.description
    console.print(Text(f"{game.name} — {description}", style="bold"))
    lines = [
        f"{t('rules.spec', lang)}: {game.spec}",
        t("rules.players_line", lang, low=low, high=high, default=game.default_players),
    ]
    if game.aliases:
        lines.append(f"{t('rules.aliases', lang)}: {', '.join(game.aliases)}")
    with suppress(ValueError):  # only GameColony's games have a listing
        lines.append(t("rules.listing", lang, listing=chosen.notation()))
    for line in lines:
        console.print(Text(line))
    by_players = _options_by_players(chosen, given)
    table = Table(title=t("rules.for_players", lang, players=chosen.players), title_justify="left")
    for key in ("rules.option", "rules.value", "rules.meaning"):
        table.add_column(t(key, lang))
    for name, value in chosen.options().items():
        meaning = i18n.option_doc(name, lang)
        if name in by_players:
            meaning += f" ({t('rules.by_players', lang, values=by_players[name])})"
        table.add_row(name, Text(_json_value(value)), Text(meaning))
    console.print(table)
    defaults = make_rules(game.name).options()
    example = next(
        (f"{key}={defaults[key] + 50}" for key in ("target", "limit") if defaults.get(key)),
        "players=2",
    )
    console.print(Text(t("rules.hint", lang, name=game.name, example=example), style="dim"))


def _options_by_players(chosen: Rules, given: dict[str, Any]) -> dict[str, str]:
    """The options (not ``given``) whose default changes with the player count, as
    ``2→7, 3→5, 4→5``."""
    low, high = chosen.variant.players
    resolved: dict[int, dict[str, Any]] = {}
    for n in range(low, high + 1):
        try:
            resolved[n] = make_rules(chosen.name, players=n, **given).options()
        except ValueError:
            continue
    out = {}
    for name in chosen.options():
        if name in ("players", *given):
            continue
        values = [(n, opts.get(name)) for n, opts in resolved.items()]
        if len({_json_value(v) for _, v in values}) > 1:
            out[name] = ", ".join(f"{n}→{_json_value(v)}" for n, v in values)
    return out


# -- play ----------------------------------------------------------------------------------


class _Quit(Exception):
    """The player asked to leave."""


class _Retry(Exception):
    """Input that is not a move; the message says why."""


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
    bazar.cli._Retry: [6|4] fits both ends: write 6-4:L or 6-4:R.
    """
    text = text.strip()
    word = text.lower()
    if word in _QUIT:
        raise _Quit
    if word in _HELP:
        raise _Retry(t("play.help", lang))
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


# -- the games off the line: Kolbasa, poker, Texas 42 ----------------------------------------


def _tile_str(tile: Tile | str) -> str:
    tile = Tile.parse(tile)
    return f"[{tile.high}|{tile.low}]"


class GameTable:
    """How the terminal tells a game whose table is no line: what wins, what the scores run
    to, the start of a round, the table, the moves, and the end of a round."""

    def goal(self, rules: Rules, lang: str) -> str:
        raise NotImplementedError

    def mark(self, rules: Rules, lang: str) -> str | None:
        """What the scores run to, or None."""
        return None

    def start(self, talk: Narrator, rnd: Round) -> None:
        """Said when a round begins."""

    def show(self, talk: TableTalk, view: View) -> None:
        raise NotImplementedError

    def describe(self, talk: Narrator, move: Move, view: View) -> Text:
        """A move of the seat to move in ``view``, in words."""
        raise NotImplementedError

    def told(self, talk: Narrator, seat: int, move: Move, view: View, rnd: Round) -> None:
        """Say the move ``seat`` made from ``view``; ``rnd`` is the round after it."""
        said = self.describe(talk, move, view).plain
        talk.say(_styled_tiles(t("table.did", talk.lang, name=talk.names[seat], move=said)))

    def over(self, talk: Narrator, rnd: Round) -> None:
        """Said after the end of a round, below its result."""


class _KolbasaTable(GameTable):
    """The sausage, its open end and joints, the face-down rows, the tile turned over."""

    def goal(self, rules: Rules, lang: str) -> str:
        return t("play.goal.kolbasa", lang)

    def start(self, talk: Narrator, rnd: Round) -> None:
        extra = rnd.view(None).extra
        shown = [f"{talk.names[s]} {_tile_str(tile)}" for s, tile in extra["opening"]]
        talk.say(_styled_tiles(f"{t('kolbasa.opening', talk.lang)}: " + " · ".join(shown)))
        if extra["starter"] is not None:
            start = _tile_str(extra["opening"][-1][1])
            name = talk.names[extra["starter"]]
            talk.say(_styled_tiles(t("kolbasa.starts", talk.lang, name=name, tile=start)))

    def show(self, talk: TableTalk, view: View) -> None:
        lang = talk.lang
        extra = view.extra
        board = Text(f"{t('kolbasa.sausage', lang)}: ").append_text(_tiles(view.board, sep=""))
        talk.say(board)
        joints = " ".join(f"{j}:{pip}" for j, pip in enumerate(extra["joints"], 1)) or "—"
        pip = view.ends.get("R", "—")
        talk.say(t("kolbasa.ends", lang, pip=pip, joints=joints))
        rows = [f"{talk.names[s]} {n}" for s, n in enumerate(view.hand_sizes)]
        talk.say(f"{t('kolbasa.rows', lang)}: " + " · ".join(rows))
        if extra["front"] is not None and view.turn is not None:
            name = talk.names[view.turn]
            front = _tile_str(extra["front"])
            talk.say(_styled_tiles(t("kolbasa.front", lang, name=name, tile=front)))

    def describe(self, talk: Narrator, move: Move, view: View) -> Text:
        lang = talk.lang
        front = view.extra["front"]
        tile = _tile_str(move.tile or front)
        if move.kind == "play":
            return _styled_tiles(t("kolbasa.attach", lang, tile=tile, pip=view.ends.get("R")))
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
            return _styled_tiles(text)
        return _styled_tiles(t(f"kolbasa.{move.kind}", lang, tile=tile))


class _PokerTable(GameTable):
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

    def show(self, talk: TableTalk, view: View) -> None:
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
            text.append(f" — {t('poker.rank.' + worth, lang)}", style="bold")
        talk.say(text)
        me = view.seat
        if me is not None and view.turn == me and extra["high"] > extra["put"][me]:
            talk.say(t("poker.to_call", lang, n=extra["high"] - extra["put"][me]))

    def describe(self, talk: Narrator, move: Move, view: View) -> Text:
        lang = talk.lang
        if move.kind in ("bet", "raise"):
            return Text(t(f"poker.{move.kind}", lang, n=move.value))
        return Text(t(f"poker.{move.kind}", lang))

    def over(self, talk: Narrator, rnd: Round) -> None:
        outcome = rnd.outcome()
        assert outcome is not None
        lang = talk.lang
        for seat, worth in enumerate(outcome.extra["ranks"]):
            if worth is not None:
                talk.say(f"{talk.names[seat]}: {t('poker.rank.' + worth, lang)}")
        names = ", ".join(talk.names[s] for s in outcome.extra["winners"])
        talk.say(t("poker.takes", lang, names=names, pot=outcome.extra["pot"]), style="bold")


class _TrickTable(GameTable):
    """The auction or the contract, the trick on the table, the hand's points so far."""

    def goal(self, rules: Rules, lang: str) -> str:
        return t("play.goal.target", lang, target=TRICK_TARGET)

    def mark(self, rules: Rules, lang: str) -> str | None:
        return t("round.target", lang, target=TRICK_TARGET)

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
        return t(f"trick.trumps.{value}", lang) if isinstance(value, str) else str(value)

    def show(self, talk: TableTalk, view: View) -> None:
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
            trick = [f"{talk.names[s]} {_tile_str(tile)}" for s, tile in extra["trick"]]
            talk.say(_styled_tiles(f"{t('trick.trick', lang)}: " + (" · ".join(trick) or "—")))
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
        return _styled_tiles(t("trick.play", lang, tile=_tile_str(move.tile or "0-0")))

    def told(self, talk: Narrator, seat: int, move: Move, view: View, rnd: Round) -> None:
        super().told(talk, seat, move, view, rnd)
        after = rnd.view(None).extra
        if move.kind == "play" and not after["trick"]:
            _, winner, _, points = after["tricks"][-1]
            talk.say(t("trick.takes", talk.lang, name=talk.names[winner], n=points), style="bold")

    def over(self, talk: Narrator, rnd: Round) -> None:
        outcome = rnd.outcome()
        assert outcome is not None
        if outcome.reason != "tricks":
            return
        rules = rnd.rules
        bid, bidder = outcome.extra["bid"], outcome.extra["bidder"]
        side = rules.side_of(bidder)
        took = sum(p for s, p in enumerate(outcome.points) if rules.side_of(s) == side)
        key = "trick.made" if took >= bid else "trick.set"
        talk.say(t(key, talk.lang, name=talk.names[bidder], bid=bid, took=took), style="bold")


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


def _tail(tiles: Sequence[str], most: int) -> Text:
    """The last ``most`` tiles of a train or branch, the rest counted: ``…5 [3|4][4|4]``."""
    text = Text()
    if len(tiles) > most:
        text.append(f"…{len(tiles) - most} ", style="dim")
    return text.append_text(_tiles(tiles[-most:], sep="") if tiles else Text("·", style="dim"))


class _RoundsTable(GameTable):
    """What the train and tree games share: one round per double, the engine in the centre."""

    def goal(self, rules: Rules, lang: str) -> str:
        return _rounds_goal(rules, lang)

    def mark(self, rules: Rules, lang: str) -> str | None:
        return t("round.rounds", lang, rounds=rules.set_max + 1)

    def start(self, talk: Narrator, rnd: Round) -> None:
        engine = _tile_str(rnd.view(None).extra["engine"])
        name = talk.names[rnd.leader]
        talk.say(_styled_tiles(t("trains.engine", talk.lang, tile=engine, name=name)))

    def others(self, talk: TableTalk, view: View) -> None:
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
        if move.kind in ("draw", "pass", "stop"):
            return Text(t(f"move.{move.kind}", talk.lang))
        return Text(str(move))

    def told(self, talk: Narrator, seat: int, move: Move, view: View, rnd: Round) -> None:
        if move.kind == "draw" and seat == talk.seat:
            drawn = rnd.view(seat).history[-1][2]
            shown = "?" if drawn is None else _tile_str(drawn)
            talk.say(_styled_tiles(t("play.you_draw", talk.lang, tile=shown)))
            return
        super().told(talk, seat, move, view, rnd)


class _TrainTable(_RoundsTable):
    """Mexican Train: the engine, a row per train (the latest tiles, the open end), the markers
    (⚑) and the doubles still to satisfy (‼, in the order they are due)."""

    def show(self, talk: TableTalk, view: View) -> None:
        lang = talk.lang
        extra = view.extra
        due = extra["unsatisfied"]
        trains: dict[str, list[str]] = view.board["trains"]
        names = {
            end: talk.names[int(end)] if end != "M" else t("trains.mexican", lang) for end in trains
        }
        width = max(map(len, names.values()))
        centre = Text(f"{t('trains.centre', lang)} ").append_text(tile_text(view.board["engine"]))
        if extra["first_turns"]:
            centre.append(f"   {t('trains.first_turns', lang, n=extra['first_turns'])}")
        talk.say(centre)
        for end, tiles in trains.items():
            line = Text(f" {names[end]:<{width}} ")
            line.append("⚑ " if end in extra["markers"] else "  ", style="bold yellow")
            line.append_text(_tail(tiles, 7))
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
        tile, pip = _tile_str(move.tile), view.ends.get(end, "?")
        if end == "M":
            return _styled_tiles(t("trains.on_mexican", lang, tile=tile, pip=pip))
        if int(end) == view.turn:
            return _styled_tiles(t("trains.on_own", lang, tile=tile, pip=pip))
        name = talk.names[int(end)]
        return _styled_tiles(t("trains.on_train", lang, tile=tile, name=name, pip=pip))


def _branch_key(branch: str) -> list[int]:
    return [int(part) for part in branch.split(".")]


class _TreeTable(_RoundsTable):
    """Chicken Foot: the engine and its arms, every branch under the foot it grows from (the
    latest tiles, the open end), and what must be played on first."""

    def show(self, talk: TableTalk, view: View) -> None:
        lang = talk.lang
        extra = view.extra
        branches: dict[str, list[str]] = view.board["branches"]
        arms = sum(1 for b in branches if "." not in b)
        required = view.rules[ENGINE_ARMS_REQUIRED]
        engine = tile_text(view.board["engine"])
        talk.say(
            _styled_tiles(t("tree.engine", lang, tile=engine.plain, arms=arms, required=required))
        )
        pending = extra["pending"]
        toes = {b: sum(1 for c in branches if c.rpartition(".")[0] == b) for b in branches}
        for branch in sorted(branches, key=_branch_key):
            tiles = branches[branch]
            line = Text("  " * branch.count(".") + f" {branch}: ").append_text(_tail(tiles, 7))
            if branch in view.ends:
                line.append(f" → {view.ends[branch]}", style="bold")
            if tiles and _is_double(tiles[-1]):
                style = "bold red" if branch == pending else "dim"
                line.append(f"  {t('tree.foot', lang, toes=toes[branch])}", style=style)
            talk.say(line)
        if pending == "E":
            pip = view.board["engine"].partition("|")[0]
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
        if move.kind in ("announce", "skip"):
            return Text(t(f"tree.{move.kind}", lang))
        if move.kind == "challenge":
            return Text(t("tree.challenge", lang, name=talk.names[int(move.value or 0)]))
        if move.kind not in ("play", "last") or move.tile is None or move.end is None:
            return super().describe(talk, move, view)
        end, tile = move.end, _tile_str(move.tile)
        pip = view.ends.get(end, "?")
        if end == "E":
            said = t("tree.new_arm", lang, tile=tile, pip=pip)
        elif end == view.extra["pending"]:
            said = t("tree.toe", lang, tile=tile, end=end, pip=pip)
        else:
            said = t("tree.on_branch", lang, tile=tile, end=end, pip=pip)
        if move.kind == "last":
            said = t("tree.last", lang, move=said)
        return _styled_tiles(said)


def _is_double(board_tile: str) -> bool:
    a, _, b = board_tile.partition("|")
    return a == b


#: The terminal tables of the games that are not played on a line, by ``Variant.family``.
GAME_TABLES: dict[str, GameTable] = {
    "trains": _TrainTable(),
    "tree": _TreeTable(),
    "kolbasa": _KolbasaTable(),
    "poker": _PokerTable(),
    "trick": _TrickTable(),
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
        #: how a game that is not played on a line is told (None: a line game)
        self.table = GAME_TABLES.get(match.rules.variant.family)

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

    def scores_line(self, ledger: Ledger, label: str) -> Text:
        """The scores as the table shows them. In Kozel an open account is shown plain (red),
        remembered points of a closed one with a "+" (yellow), as the seeds describe; the fish
        pot ("eggs") follows."""
        rules = self.match.rules
        mark: str | None
        if self.table is not None:
            mark = self.table.mark(rules, self.lang)
        elif rules.target is not None:
            mark = t("round.target", self.lang, target=rules.target)
        else:
            mark = t("round.limit", self.lang, limit=rules.limit)
        remembering = "open_threshold" in rules.options() and "single_record" not in rules.options()
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
        key = f"reason.{outcome.reason}"
        return t(key, lang) if i18n.has(key) else outcome.reason

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
            hands.append_text(_tiles(hand or ()))
        self.say(hands)
        if self.table is not None:
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
            (result.winners, "match.winner", "match.winners"),
            (result.losers, "match.loser", "match.losers"),
        ):
            if self.match.rules.variant.goat and seats is result.losers:
                one, many = "match.goat", "match.goats"
            if seats:
                key = one if len(seats) == 1 else many
                self.say(t(key, lang, names=", ".join(self.names[s] for s in seats)))


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
            raise i18n.Message("error.seat", seat=seat, last=players - 1)
        level_name = i18n.bot_name(level, lang)
        names = [
            t("you", lang) if s == seat else t("bot", lang, seat=s, level=level_name)
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
        if self.table is not None:
            goal = self.table.goal(rules, lang)
        elif rules.target is not None:
            goal = t("play.goal.target", lang, target=rules.target)
        else:
            goal = t("play.goal.limit", lang, limit=rules.limit)
        players = t("players", lang, n=rules.players)
        game = _title(rules.name, lang)
        self.say(
            Text(
                t("play.welcome", lang, game=game, players=players, seat=self.seat, goal=goal),
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
        if self.table is not None:
            self.table.start(self, rnd)
        elif rnd.leader == self.seat:
            self.say(t("play.you_lead", lang))

    def show_table(self, view: View) -> None:
        """The line on the table, the open ends, the bazar, the hands."""
        if self.table is not None:
            self.table.show(self, view)
            return
        lang = self.lang
        board = Text(f"{t('play.table', lang)}: ")
        layout = view.board
        arms: dict[str, list[str]] = {}
        if isinstance(layout, dict):  # a cross: the line, the spinner, the arms U and D
            arms = {arm: layout.get(arm) or [] for arm in ("U", "D")}
            layout = layout.get("line") or []
        if layout:
            board.append_text(_tiles(layout, sep=""))
        else:
            board.append(t("play.table_empty", lang))
        self.say(board)
        for arm, tiles in arms.items():
            if tiles:
                self.say(Text(f"  {arm}: ").append_text(_tiles(tiles, sep="")))
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
            self.say("   ".join(parts))
        others = [
            f"{self.names[s]}: {t('tiles', lang, n=n)}"
            for s, n in enumerate(view.hand_sizes)
            if s != self.seat
        ]
        self.say(f"{t('play.hands', lang)}: " + " · ".join(others))
        self.say(self.hand_text(view))

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
            text.append_text(tile_text(tile, _FIT_STYLE if ends is not None else None))
            if ends:
                mark = ("←" if "L" in ends else "") + ("→" if "R" in ends else "")
                text.append(mark, style=_FIT_STYLE)
        return text

    def show_moves(self, view: View) -> None:
        self.say(f"{t('play.moves', self.lang)}:")
        for n, move in enumerate(view.legal, start=1):
            line = Text(f"  {n:>2}  ")
            if self.table is not None:
                line.append_text(self.table.describe(self, move, view))
            else:
                line.append_text(describe_move(move, self.lang, view.ends))
            line.append(f"   {move}", style="dim")
            self.say(line)

    def told(
        self, seat: int, move: Move, rnd: Round, ends: dict[str, int], view: View | None = None
    ) -> None:
        """Say the move ``seat`` just made in ``rnd`` (``ends``: the ends it was made on;
        ``view``: the seat's view before it)."""
        if self.table is not None and view is not None:
            self.table.told(self, seat, move, view, rnd)
            if seat != self.seat and self.pause:
                time.sleep(self.pause)
            return
        lang = self.lang
        name = self.names[seat]
        said = describe_move(move, lang, ends).plain
        if seat == self.seat:
            if move.kind == "draw":
                drawn = rnd.view(seat).history[-1][2]
                tile = "?" if drawn is None else f"[{drawn.high}|{drawn.low}]"
                self.say(_styled_tiles(t("play.you_draw", lang, tile=tile)))
            elif move.kind == "pass":
                self.say(t("play.you_pass", lang))
            elif move.kind == "stop":
                self.say(t("play.you_stop", lang))
            elif move.kind == "play" and move.end is None and move.tile is not None:
                tile_str = f"[{move.tile.high}|{move.tile.low}]"
                self.say(_styled_tiles(t("play.you_lead_tile", lang, tile=tile_str)))
            else:
                self.say(_styled_tiles(t("play.you_play", lang, move=said)))
            return
        if move.kind == "draw":
            self.say(t("play.bot_draw", lang, name=name), style="dim")
        elif move.kind == "pass":
            self.say(t("play.bot_pass", lang, name=name), style="dim")
        elif move.kind == "stop":
            self.say(t("play.bot_stop", lang, name=name), style="dim")
        elif move.kind == "play" and move.end is None and move.tile is not None:
            tile_str = f"[{move.tile.high}|{move.tile.low}]"
            self.say(_styled_tiles(t("play.bot_lead", lang, name=name, tile=tile_str)))
        else:
            self.say(_styled_tiles(t("play.bot_play", lang, name=name, move=said)))
        if self.pause:
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

    def choose(self, view: View) -> Move:
        """Ask until the player names a legal move."""
        self.say("")
        self.show_table(view)
        self.show_moves(view)
        while True:
            answer = self.ask(f"{t('play.prompt', self.lang)} [1-{len(view.legal)}]: ")
            try:
                return parse_choice(answer, view.legal, self.lang)
            except _Retry as retry:
                if str(retry):
                    self.say(_styled_tiles(str(retry)), style="yellow")

    def play(self) -> Match:
        """Play until the match ends; the player may leave (:class:`_Quit`, EOFError)."""
        match = self.match
        self.welcome()
        shown = 0
        while not match.is_over():
            rnd = match.round
            if rnd.number != shown:
                shown = rnd.number
                self.round_start(rnd)
            seat = match.turn
            assert seat is not None
            view = match.view(seat)
            legal = view.legal
            if seat != self.seat:
                move = self.bots[seat].choose(view, legal)
            elif len(legal) == 1 and legal[0].kind in ("draw", "pass"):
                move = legal[0]  # forced: made for the player, and said
            else:
                move = self.choose(view)
            before = rnd.ledger
            scored = len(rnd.scoring())
            match.push(move)
            self.told(seat, move, rnd, view.ends, view)
            for who, points in rnd.scoring()[scored:]:
                self.say(
                    t("play.scored", self.lang, name=self.names[who], n=points), style="bold yellow"
                )
            if rnd.is_over():
                self.round_over(rnd, before, match.ledger)
                answer = "" if match.is_over() else self.ask(f"{t('play.continue', self.lang)} ")
                if answer.strip().lower() in _QUIT:
                    raise _Quit
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


@app.command("play", help=_h("help.play"))
def play_command(
    variant: Annotated[str | None, typer.Argument(help=_h("help.variant"))] = None,
    players: Annotated[int | None, typer.Option("--players", "-p", help=_h("help.players"))] = None,
    seat: Annotated[int, typer.Option("--seat", help=_h("help.seat"))] = 0,
    bots: Annotated[
        str, typer.Option("--bots", help=_h("help.bots", levels=", ".join(botlib.names())))
    ] = "greedy",
    seed: Annotated[int | None, typer.Option("--seed", help=_h("help.seed"))] = None,
    lang: Annotated[str | None, typer.Option("--lang", help=_h("help.lang"))] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", metavar="NAME=VALUE", help=_h("help.option")),
    ] = None,
    record_path: Annotated[Path | None, typer.Option("--record", help=_h("help.record"))] = None,
) -> None:
    lang = _lang_option(lang)
    name = variant or _default_variant()
    language = _guess_lang(lang, name)
    with _bad_input(language):
        chosen = _rules(name, players, option or ())
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
        _fail(t("play.no_tty", language))
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
        with _bad_input(language):
            record_path.write_text(record.dumps(match) + "\n", encoding="utf-8")
        table.say(t("play.saved", language, path=record_path))
    table.say(t("play.bye", language))
    if code:
        raise typer.Exit(code)


# -- arena ---------------------------------------------------------------------------------


@app.command("arena", help=_h("help.arena"))
def arena_command(
    variant: Annotated[str, typer.Argument(help=_h("help.variant"))],
    bots: Annotated[
        str,
        typer.Option("--bots", help=_h("help.arena_bots", levels=", ".join(botlib.names()))),
    ],
    games: Annotated[int, typer.Option("--games", "-n", help=_h("help.games"))],
    players: Annotated[int | None, typer.Option("--players", "-p", help=_h("help.players"))] = None,
    seed: Annotated[int, typer.Option("--seed", help=_h("help.seed"))] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help=_h("help.jobs"))] = 1,
    as_json: Annotated[bool, typer.Option("--json", help=_h("help.json"))] = False,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", metavar="NAME=VALUE", help=_h("help.option")),
    ] = None,
    lang: Annotated[str | None, typer.Option("--lang", help=_h("help.lang"))] = None,
) -> None:
    lang = _lang_option(lang)
    language = _guess_lang(lang, variant)
    names = [
        b.strip() if b.strip().startswith("cmd:") else b.strip().lower()
        for b in bots.split(",")
        if b.strip()
    ]
    with _bad_input(language):
        chosen = _rules(variant, players, option or ())
        language = lang or i18n.default_lang(chosen.name)
        for name in names:
            botlib.make(name)
        if len(names) < 2:
            # one entry would fill every seat with itself and "win" every match
            raise i18n.Message("error.arena_bots", given=bots.strip() or "''")
        if games < 1:
            raise i18n.Message("error.at_least", option="--games", low=1, value=games)
        if jobs < 1:
            raise i18n.Message("error.at_least", option="--jobs", low=1, value=jobs)
    report = _run_arena(chosen, names, games, seed, jobs, language)
    if as_json:
        print(json.dumps(report.to_json(), ensure_ascii=False))
        return
    _show_report(Console(highlight=False), report, language)


def _run_arena(
    chosen: Rules, names: list[str], games: int, seed: int, jobs: int, lang: str
) -> arenas.Report:
    errors = Console(stderr=True)
    if not errors.is_terminal:
        return arenas.run(chosen, names, games, seed=seed, jobs=jobs)
    from rich.progress import Progress

    with Progress(console=errors, transient=True) as bar:
        task = bar.add_task(t("arena.progress", lang), total=games)
        return arenas.run(
            chosen, names, games, seed=seed, jobs=jobs, progress=lambda n: bar.advance(task, n)
        )


def _show_report(console: Console, report: arenas.Report, lang: str) -> None:
    title = t(
        "arena.title",
        lang,
        game=report.variant,
        players=t("players", lang, n=report.players),
        games=t("games", lang, n=report.games),
    )
    table = Table(title=title, title_justify="left")
    # an entry holding several seats of one match: its share of the matches is shown too
    shared = any(r.matches != r.games for r in report.results)
    table.add_column(t("arena.bot", lang))
    keys = ["arena.games", "arena.win_rate", "arena.ci"]
    if shared:
        keys += ["arena.match_win_rate", "arena.ci"]
    for key in (*keys, "arena.margin", "arena.median", "arena.p95"):
        table.add_column(t(key, lang), justify="right")
    for r in report.results:
        cells = [i18n.bot_name(r.bot, lang), str(r.games), f"{r.win_rate:.1%}", _interval(r.ci95)]
        if shared:
            cells += [f"{r.match_win_rate:.1%}", _interval(r.match_ci95)]
        cells += [f"{r.margin:+.1f}", f"{r.ms_median:.4f}", f"{r.ms_p95:.4f}"]
        table.add_row(*cells)
    console.print(table)


def _interval(ci: tuple[float, float]) -> str:
    low, high = ci
    return f"{low * 100:.0f}–{high * 100:.0f}%"


# -- replay --------------------------------------------------------------------------------


def replay_data(match: Match) -> dict[str, Any]:
    """What ``bazar replay --json`` prints: every round's deal, moves and result, the ledger
    after it, and the match's winners and losers (empty while unfinished)."""
    rules = match.rules
    ledger = Ledger.new(rules)
    rounds = []
    for rnd in match.rounds:
        outcome = rnd.outcome()
        entry: dict[str, Any] = {
            "number": rnd.number,
            "deal": rnd.deal(),
            "moves": [str(m) for m in rnd.moves],
        }
        if outcome is None:
            entry.update(reason=None, out_seat=None, remaining=None, scores=None)
        else:
            before = ledger
            ledger = ledger.settle(outcome)
            entry.update(outcome.to_json())
            entry["award"] = [b - a for a, b in zip(before.scores, ledger.scores, strict=True)]
            entry["scores"] = list(ledger.scores)
        rounds.append(entry)
    result = match.result()
    return {
        "variant": rules.name,
        "players": rules.players,
        "options": rules.options(),
        "seed": match.seed,
        "rounds": rounds,
        "ledger": match.ledger.public(),
        "over": match.is_over(),
        "winners": list(result.winners) if result else [],
        "losers": list(result.losers) if result else [],
    }


@app.command("replay", help=_h("help.replay"))
def replay_command(
    file: Annotated[Path, typer.Argument(help=_h("help.file"))],
    as_json: Annotated[bool, typer.Option("--json", help=_h("help.json"))] = False,
    lang: Annotated[str | None, typer.Option("--lang", help=_h("help.lang"))] = None,
) -> None:
    lang = _lang_option(lang)
    language = _guess_lang(lang)
    with _bad_input(language):
        match = record.loads(file.read_text(encoding="utf-8"))
    language = lang or i18n.default_lang(match.rules.name)
    if as_json:
        print(json.dumps(replay_data(match), ensure_ascii=False))
        return
    _show_replay(Console(highlight=False), match, language)


def _wrap(label: str, items: Sequence[str], width: int) -> list[str]:
    """``label`` and ``items`` joined by "; " in lines of ``width``, never splitting an item."""
    # textwrap breaks at plain spaces only, so no-break spaces hold each item together
    words = [item.replace(" ", "\u00a0") for item in items]
    text = f"{label} " + "; ".join(words)
    lines = textwrap.wrap(
        text, width=max(20, width), break_long_words=False, break_on_hyphens=False
    )
    return [line.replace("\u00a0", " ") for line in lines]


def _show_replay(console: Console, match: Match, lang: str) -> None:
    rules = match.rules
    names = [t("seat", lang, seat=s) for s in range(rules.players)]
    talk = Narrator(match, names, console, lang)
    console.print(
        Text(
            t(
                "replay.title",
                lang,
                game=_title(rules.name, lang),
                players=t("players", lang, n=rules.players),
                seed=match.seed,
            ),
            style="bold",
        )
    )
    ledger = Ledger.new(rules)
    for rnd in match.rounds:
        if not rnd.moves and not rnd.is_over():
            continue
        console.rule(t("replay.round", lang, number=rnd.number))
        deal = rnd.deal()
        talk.say(f"{t('replay.deal', lang)}:")
        for seat, hand in enumerate(deal["hands"]):
            held = Text(f"  {names[seat]}: ")
            held.append_text(_tiles([Tile.parse(x) for x in hand]))
            talk.say(held)
        if deal["bazar"]:
            bazar = Text(f"  {t('replay.bazar', lang)}: ")
            bazar.append_text(_tiles([Tile.parse(x) for x in deal["bazar"]]))
            talk.say(bazar)
        talk.say(f"  {t('replay.leader', lang, name=names[rnd.leader])}")
        moves = [f"{names[s]}: {m}" for s, m, _ in rnd.history()]
        for text in _wrap(f"{t('replay.moves', lang)}:", moves, console.width):
            console.print(Text(text), soft_wrap=True, highlight=False)
        if rnd.is_over():
            outcome = rnd.outcome()
            assert outcome is not None
            after = ledger.settle(outcome)
            talk.round_over(rnd, ledger, after)
            ledger = after
        else:
            talk.say(t("replay.unfinished", lang, number=rnd.number))
    talk.say("")
    talk.say(talk.scores_line(match.ledger, t("replay.ledger", lang)))
    talk.result()


# -- bench ---------------------------------------------------------------------------------


def bench(rules: Rules, seconds: float) -> tuple[int, int, float]:
    """Random rounds for about ``seconds``: (rounds, moves, seconds taken). Times exactly the
    loop peers are timed with (DESIGN.md): deal from seed ``i``, push random legal moves."""
    choice = random.Random(0).choice
    games = moves = 0
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds
    while True:
        rnd = Round(rules, seed=games)
        while not rnd.is_over():
            rnd.push(choice(rnd.legal_moves()))
        games += 1
        moves += len(rnd.moves)
        if clock() >= deadline:
            break
    return games, moves, clock() - start


@app.command("serve", help=_h("help.serve"))
def serve_command(
    host: Annotated[str, typer.Option("--host", help=_h("help.host"))] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help=_h("help.port"))] = 8000,
    db: Annotated[str | None, typer.Option("--db", help=_h("help.db"))] = None,
    grace: Annotated[
        float | None,
        typer.Option("--grace", min=0, metavar="SECONDS", help=_h("help.grace")),
    ] = None,
    rematch_window: Annotated[
        float,
        typer.Option("--rematch-window", min=0, metavar="SECONDS", help=_h("help.rematch_window")),
    ] = 120.0,
) -> None:
    lang = _guess_lang(None)
    with _bad_input(lang):
        if not 1 <= port <= 65535:
            # else uvicorn fails after the address is printed, or listens on another port
            raise i18n.Message("error.port", port=port)
    try:
        import uvicorn

        from bazar.club import create_app
        from bazar.club.storage import default_db_url, engine_url
    except ImportError as error:
        _fail(t("error.server_extra", lang, missing=error.name or error))
    from sqlalchemy.exc import SQLAlchemyError

    url = db or default_db_url()
    shown = url
    from pydantic import ValidationError

    from bazar.club.settings import Settings

    try:
        settings = Settings()
    except ValidationError as error:
        # a BAZAR_* limit of the environment that is no such value: say which, and why
        said = "; ".join(
            f"BAZAR_{'.'.join(map(str, e['loc'])).upper()}: {e['msg']}" for e in error.errors()
        )
        _fail(t("error.settings", lang, reason=said))
    try:
        shown = engine_url(url).render_as_string(hide_password=True)
        club = create_app(url, grace_s=grace, rematch_window_s=rematch_window, settings=settings)
    except (SQLAlchemyError, ImportError, OSError) as error:
        # a malformed URL, a driver not installed, a server that does not answer: the reason
        # is the driver's own words, which have no Russian
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        _fail(t("error.database", lang, url=shown, reason=reason))
    print(t("serve.listening", lang, host=host, port=port, url=shown), flush=True)
    uvicorn.run(club, host=host, port=port, ws_max_size=65536, log_level="warning")


@app.command("verify", help=_h("help.verify"))
def verify_command(
    file: Annotated[Path, typer.Argument(help=_h("help.file"))],
    as_json: Annotated[bool, typer.Option("--json", help=_h("help.json"))] = False,
    lang: Annotated[str | None, typer.Option("--lang", help=_h("help.lang"))] = None,
) -> None:
    from bazar.club.fairness import verify

    lang = _lang_option(lang)
    with _bad_input(_guess_lang(lang)):
        text = file.read_text(encoding="utf-8")
        rounds = verify(text)
    if as_json:
        print(json.dumps({"rounds": rounds}))
        return
    # the record's game sets the language, as for replay
    language = lang or i18n.default_lang(json.loads(text)["rules"]["name"])
    for r in rounds:
        if r["seed"] is None:
            print(t("verify.no_seed", language, number=r["number"]))
        else:
            print(
                t(
                    "verify.confirmed",
                    language,
                    number=r["number"],
                    seed=r["seed"],
                    hash=r["seed_hash"],
                )
            )
    if any(r["seed"] is None for r in rounds):
        raise typer.Exit(1)


@app.command("bench", help=_h("help.bench"))
def bench_command(
    variant: Annotated[str, typer.Argument(help=_h("help.variant"))] = "block",
    players: Annotated[int | None, typer.Option("--players", "-p", help=_h("help.players"))] = None,
    seconds: Annotated[float, typer.Option("--seconds", "-s", help=_h("help.seconds"))] = 3.0,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", metavar="NAME=VALUE", help=_h("help.option")),
    ] = None,
    lang: Annotated[str | None, typer.Option("--lang", help=_h("help.lang"))] = None,
) -> None:
    lang = _lang_option(lang)
    language = _guess_lang(lang, variant)
    with _bad_input(language):
        chosen = _rules(variant, players, option or ())
        language = lang or i18n.default_lang(chosen.name)
        if not seconds > 0:
            raise i18n.Message("error.positive", option="--seconds", value=seconds)
    games, moves, taken = bench(chosen, seconds)
    print(
        t(
            "bench.result",
            language,
            game=chosen.name,
            players=t("players", language, n=chosen.players),
            games=t("rounds", language, n=games, shown=_number(games, language)),
            moves=t("moves", language, n=moves, shown=_number(moves, language)),
            seconds=_decimal(taken, language),
            gps=_number(games / taken, language),
            mps=_number(moves / taken, language),
        )
    )
