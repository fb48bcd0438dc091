"""The Typer app and what every command shares: the options they all take, the language, and
bad input of any kind ending with one line on stderr and exit status 2."""

from __future__ import annotations

import errno
import json
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Annotated, Any, NoReturn, TypeAlias

import typer
from typer.core import TyperCommand, TyperGroup

from bazar import i18n
from bazar.core.rules import Rules
from bazar.core.rules import rules as make_rules
from bazar.core.rules import variant as find_variant
from bazar.i18n import N_, t

try:
    from typer._click.exceptions import (
        BadOptionUsage,
        BadParameter,
        ClickException,
        MissingParameter,
        NoArgsIsHelpError,
        NoSuchOption,
        UsageError,
    )
except ImportError:  # typer releases that use click itself (mypy sees one of the two)
    from click.exceptions import (  # type: ignore[no-redef,import-not-found,assignment,unused-ignore]
        BadOptionUsage,
        BadParameter,
        ClickException,
        MissingParameter,
        NoArgsIsHelpError,
        NoSuchOption,
        UsageError,
    )

#: The language of ``--help`` (the locale's, else English).
HELP_LANG = i18n.env_lang() or "en"


def h(key: str, **kw: object) -> str:
    """A help text, in the language of ``--help``."""
    return t(key, HELP_LANG, **kw)


class Usage(UsageError):
    """A usage error the command line finds itself, said from the catalogue key ``key``."""

    def __init__(self, key: str, ctx: Any = None, **fields: object) -> None:
        self.said = i18n.Message(key, **fields)
        super().__init__(str(self.said), ctx)


#: the catalogue key of a missing parameter, by its kind
_MISSING = {"argument": N_("usage.missing_argument"), "option": N_("usage.missing_option")}

#: the catalogue key of a value Typer could not convert, by pydantic's kind of error
_CONVERSIONS = {"int_parsing": N_("usage.whole"), "float_parsing": N_("usage.number")}


def _usage(error: ClickException) -> i18n.Message | None:
    """A usage error of Typer's as a catalogue message, by its kind and the parameter it
    names (never by its English); None where the catalogue has none."""
    if isinstance(error, Usage):
        return error.said
    param = getattr(error, "param", None)
    if isinstance(error, MissingParameter) and param is not None:
        key = _MISSING.get(param.param_type_name)
        return i18n.Message(key, name=repr(param.opts[0])) if key else None
    if isinstance(error, BadParameter) and param is not None:
        errors = getattr(error.__cause__, "errors", None)
        kind = errors()[0]["type"] if callable(errors) else None
        key = _CONVERSIONS.get(kind) if isinstance(kind, str) else None
        return i18n.Message(key, name=repr(param.opts[0])) if key else None
    if isinstance(error, NoSuchOption):
        return i18n.Message("usage.no_option", name=error.option_name)
    if isinstance(error, BadOptionUsage):
        # a flag given a value is refused too, but its parser cannot be reached from here
        return i18n.Message("usage.option_value", name=repr(error.option_name))
    return None


class Command(TyperCommand):
    """Typer's command; extra arguments are refused here, from the catalogue."""

    allow_extra_args = True

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        rest: list[str] = super().parse_args(ctx, args)
        if rest and not ctx.resilient_parsing:
            raise Usage("usage.extra", ctx, args=" ".join(rest))
        return rest


class Group(TyperGroup):
    """Typer's group, with every usage error told in one line (exit 2)."""

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        if args and not args[0].startswith("-") and self.get_command(ctx, args[0]) is None:
            raise Usage("usage.no_command", ctx, name=args[0])
        return super().resolve_command(ctx, args)

    # click declares main overloaded on standalone_mode; one signature answers both
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
            lang, said = guess_lang(None), _usage(error)
            if said is None or lang != "ru":
                # Typer's own English, which names every spelling of an option
                lang, text = "en", " ".join(error.format_message().split())
            else:
                text = said.say(lang)
            print(f"bazar: {i18n.line('error.usage', text, lang)}", file=sys.stderr)
            code = error.exit_code
        except typer.Abort:
            print(file=sys.stderr)
            code = 1
        code = code if isinstance(code, int) else 0
        if standalone_mode:
            sys.exit(code)
        return code


app = typer.Typer(
    cls=Group,
    help=h("help.app"),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# -- the options several commands take -----------------------------------------------------

Players: TypeAlias = Annotated[int | None, typer.Option("--players", "-p", help=h("help.players"))]
Options: TypeAlias = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", metavar="NAME=VALUE", help=h("help.option")),
]
Lang: TypeAlias = Annotated[str | None, typer.Option("--lang", help=h("help.lang"))]
AsJson: TypeAlias = Annotated[bool, typer.Option("--json", help=h("help.json"))]

# -- bad input -----------------------------------------------------------------------------


def fail(message: str) -> NoReturn:
    """End the command with ``message`` on stderr and exit status 2."""
    # print, not Rich: one line, never wrapped at the terminal's width
    print(f"bazar: {message}", file=sys.stderr)
    raise typer.Exit(2)


_OS_ERRORS_RU = {
    FileNotFoundError: "нет такого файла",
    IsADirectoryError: "это папка",
    PermissionError: "нет доступа",
}


@contextmanager
def bad_input(lang: str) -> Iterator[None]:
    """Turn a library error or a file error into one line on stderr and exit 2."""
    try:
        yield
    except OSError as error:
        path = error.filename if error.filename is not None else ""
        reason = error.strerror or str(error)
        if lang == "ru":
            code = errno.errorcode.get(error.errno or 0, type(error).__name__)
            reason = _OS_ERRORS_RU.get(type(error)) or t("error.os", lang, code=code)
        fail(f"{t('error.file', lang, path=path)}: {reason}")
    except UnicodeDecodeError as error:
        fail(i18n.error(i18n.Message("error.not_text", at=error.start), lang))
    except ValueError as error:
        fail(i18n.error(error, lang))


def guess_lang(lang: str | None, name: str | None = None) -> str:
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


def lang_option(value: str | None) -> str | None:
    """``--lang`` checked: a language bazar speaks, or None (not given)."""
    if value is None:
        return None
    lang = value.strip().lower()
    if lang not in i18n.LANGS:
        fail(i18n.error(i18n.Message("error.lang", value=value), guess_lang(None)))
    return lang


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


def bot_names(text: str) -> list[str]:
    """The bots of ``--bots A,B``: each level trimmed and lower-cased, a ``cmd:`` program
    as written.

    >>> bot_names(" Greedy, random,,cmd:./my-bot --Fast")
    ['greedy', 'random', 'cmd:./my-bot --Fast']
    """
    names = (name.strip() for name in text.split(","))
    return [name if name.startswith("cmd:") else name.lower() for name in names if name]


def chosen_rules(name: str, players: int | None, options: Sequence[str]) -> Rules:
    """The rules of ``name`` for ``players`` with the ``-o`` options."""
    given = dict(parse_option(o) for o in options)
    return make_rules(name, players=players, **given)
