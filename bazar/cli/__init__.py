"""The command line: ``bazar rules | play | arena | tournament | replay | analyse | serve | db |
verify | bench``.

Typer parses, Rich draws; only this package imports them, so ``import bazar`` stays light.
One module per command; :mod:`~bazar.cli.app` holds the app and what the commands share,
:mod:`~bazar.cli.narrator` tells a match, and :mod:`bazar.cli.tables` draws each family's
table. Bad input of any kind ends with one line on stderr and exit status 2.
"""

from __future__ import annotations

from .analyse import analyse_command
from .app import Command, app, h, parse_option
from .arena import arena_command
from .bench import bench, bench_command
from .db import db_app
from .narrator import Narrator
from .play import TableTalk, parse_choice, play_command
from .replay import replay_command, replay_data
from .rules import rules_command
from .serve import serve_command
from .tournament import tournament_command
from .verify import verify_command

# in the order ``bazar --help`` lists them
app.command("rules", cls=Command, help=h("help.rules"))(rules_command)
app.command("play", cls=Command, help=h("help.play"))(play_command)
app.command("arena", cls=Command, help=h("help.arena"))(arena_command)
app.command("tournament", cls=Command, help=h("help.tournament"))(tournament_command)
app.command("replay", cls=Command, help=h("help.replay"))(replay_command)
app.command("analyse", cls=Command, help=h("help.analyse"))(analyse_command)
app.command("serve", cls=Command, help=h("help.serve"))(serve_command)
app.add_typer(db_app, name="db", help=h("help.db_app"))
app.command("verify", cls=Command, help=h("help.verify"))(verify_command)
app.command("bench", cls=Command, help=h("help.bench"))(bench_command)


def main() -> None:
    """The console script ``bazar`` (and ``python -m bazar``)."""
    app(prog_name="bazar")


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
