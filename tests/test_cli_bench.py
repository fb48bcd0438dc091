"""``bazar bench``: the timed loop of random rounds."""

from __future__ import annotations

import pytest
from cli_helpers import one_line_error, run

import bazar
from bazar import cli


def test_bench_prints_rounds_and_moves_per_second() -> None:
    code, out, _ = run("bench", "--seconds", "0.2")
    assert code == 0
    assert out.startswith("block, 2 players:")
    assert "rounds/s" in out and "moves/s" in out


def test_bench_loop_counts_every_move() -> None:
    games, moves, seconds = cli.bench(bazar.rules("draw", players=3), 0.05)
    assert games >= 1 and moves > games and seconds >= 0.05


@pytest.mark.parametrize(
    "args", [["bench", "nosuch"], ["bench", "-s", "0"], ["bench", "block", "-p", "5"]]
)
def test_bench_bad_input_is_one_line_and_exit_2(args: list[str]) -> None:
    code, _, err = run(*args)
    one_line_error(code, err)
