"""Helpers for the command-line tests: ``bazar`` run in-process, its one-line errors, records."""

from __future__ import annotations

import io
import re

from rich.console import Console
from typer.testing import CliRunner

import bazar
from bazar import bots as botlib
from bazar import cli
from bazar.core.rules import declared

runner = CliRunner()


ENV = {"LC_ALL": "", "LC_MESSAGES": "", "LANG": "C"}


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(cli.app, list(args), input=input, env=ENV)
    return result.exit_code, result.stdout, result.stderr


def one_line_error(code: int, err: str) -> str:
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def finished_record(name: str = "classic", seed: int = 5) -> str:
    match = bazar.Match(bazar.rules(name), seed=seed)
    while not match.is_over():
        match.push(match.legal_moves()[0])
    return bazar.record.dumps(match)


def scripted() -> tuple[io.StringIO, Console]:
    out = io.StringIO()
    return out, Console(file=out, width=120, color_system=None)


RU = {**ENV, "LANG": "ru_RU.UTF-8"}


def run_ru(*args: str) -> tuple[int, str, str]:
    """``bazar`` under a Russian locale."""
    result = runner.invoke(cli.app, list(args), env=RU)
    return result.exit_code, result.stdout, result.stderr


#: the words a Russian line may keep in Latin letters: what the user typed or will type
NAMES = {*bazar.VARIANTS, *declared(), *botlib.names(), "cmd", "UTF", "ru", "en"}


def english_words(line: str) -> list[str]:
    """The English words of ``line``, not counting quoted input, options (``--bots``),
    names of games, options and bots, and ``A,B``."""
    line = re.sub(r"'[^']*'|--[\w-]+|\b[A-Z],[A-Z]\b", "", line)
    return [w for w in re.findall(r"[A-Za-z][A-Za-z_-]+", line) if w not in NAMES]
