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
from typer.core import TyperGroup

from bazar import i18n
from bazar.core.rules import Rules
from bazar.core.rules import rules as make_rules
from bazar.core.rules import variant as find_variant
from bazar.i18n import t

try:
    from typer._click.exceptions import ClickException, NoArgsIsHelpError
except ImportError:  # typer releases that use click itself
    from click.exceptions import (  # type: ignore[no-redef,import-not-found,assignment,unused-ignore]
        ClickException,
        NoArgsIsHelpError,
    )

#: The language of ``--help`` (the locale's, else English).
HELP_LANG = i18n.env_lang() or "en"


def h(key: str, **kw: object) -> str:
    """A help text, in the language of ``--help``."""
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
            print(f"bazar: {i18n.line('error.usage', message, guess_lang(None))}", file=sys.stderr)
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


def chosen_rules(name: str, players: int | None, options: Sequence[str]) -> Rules:
    """The rules of ``name`` for ``players`` with the ``-o`` options."""
    given = dict(parse_option(o) for o in options)
    return make_rules(name, players=players, **given)
