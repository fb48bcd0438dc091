"""External bots (``bazar.bots.external``): a program that speaks one JSON line each way, in a
round, in the arena and from the command line."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import bazar
from bazar import arena, bots
from bazar.bots.external import CommandBot, ExternalBotError
from bazar.core.view import View

BOT_SCRIPT = """\
import json, sys
for line in sys.stdin:
    view = json.loads(line)
    legal = view["legal"]
    # the heaviest tile, as greedy plays
    def weight(m):
        tile = m.split(":")[0]
        if "-" not in tile:
            return -1
        a, b = tile.split("-")
        return int(a) + int(b)
    print(max(legal, key=weight), flush=True)
"""


@pytest.fixture
def bot_script(tmp_path: Path) -> str:
    path = tmp_path / "mybot.py"
    path.write_text(BOT_SCRIPT)
    return f"cmd:{sys.executable} {path}"


def test_an_external_bot_plays_a_round_through_the_line_protocol(bot_script: str) -> None:
    player = bots.make(bot_script, seed=1)
    assert isinstance(player, CommandBot)
    rnd = bazar.Round(bazar.rules("draw"), seed=5)
    try:
        while not rnd.is_over():
            view = View.from_json(rnd.view(rnd.turn).to_json())
            rnd.push(player.choose(view, view.legal))
    finally:
        player.close()
    assert rnd.outcome() is not None


def test_an_external_bot_that_breaks_the_protocol_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.py"
    path.write_text("import sys\nfor line in sys.stdin:\n    print('9-9', flush=True)\n")
    player = bots.make(f"cmd:{sys.executable} {path}")
    rnd = bazar.Round(bazar.rules("block"), seed=1)
    view = rnd.view(rnd.turn)
    with pytest.raises(ExternalBotError, match="not one of"):
        player.choose(view, view.legal)
    player.close()


def test_the_arena_runs_an_external_bot(bot_script: str) -> None:
    report = arena.run(bazar.rules("block"), ["random", bot_script], games=4, seed=2)
    assert [r.games for r in report.results] == [4, 4]
    assert report.results[1].bot == bot_script


def test_bazar_arena_runs_an_external_bot_from_the_command_line(bot_script: str) -> None:
    import json

    from typer.testing import CliRunner

    from bazar import cli

    result = CliRunner().invoke(
        cli.app,
        ["arena", "block", "--bots", f"random,{bot_script}", "--games", "2", "--json"],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [r["bot"] for r in report["results"]] == ["random", bot_script]
