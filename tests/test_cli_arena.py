"""``bazar arena``: matches between bots from the command line."""

from __future__ import annotations

import json

import pytest
from cli_helpers import english_words, one_line_error, run, run_ru

import bazar
from bazar import arena


def test_arena_json_has_the_documented_shape() -> None:
    code, out, err = run(
        "arena", "block", "--bots", "greedy,random,random", "--games", "6", "-p", "3", "--json"
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["games"] == 6
    assert [r["bot"] for r in data["results"]] == ["greedy", "random", "random#2"]
    for r in data["results"]:
        lo, hi = r["ci95"]
        assert 0 <= lo <= r["win_rate"] <= hi <= 1
        assert set(r["ms_per_move"]) == {"median", "p95"}
        assert r["ms_per_move"]["median"] <= r["ms_per_move"]["p95"]
        assert r["games"] == 6
    assert sum(r["wins"] for r in data["results"]) == pytest.approx(6)


def test_arena_table_and_worker_processes_agree_with_one_process() -> None:
    code, out, err = run("arena", "classic", "--bots", "greedy,random", "-n", "4", "--lang", "en")
    assert code == 0, err
    assert "greedy" in out and "95% CI" in out and "ms/move" in out
    rules = bazar.rules("block")
    alone = arena.run(rules, ["greedy", "random"], games=6, seed=2)
    spread = arena.run(rules, ["greedy", "random"], games=6, seed=2, jobs=2)
    assert [(r.wins, r.margin, r.moves) for r in alone.results] == [
        (r.wins, r.margin, r.moves) for r in spread.results
    ]


def test_arena_team_game_seats_an_entry_on_both_seats_of_a_side() -> None:
    report = arena.run(bazar.rules("block", players=4), ["greedy", "random"], games=4, seed=1)
    assert [r.games for r in report.results] == [4, 4]
    assert sum(r.wins for r in report.results) == pytest.approx(4)


@pytest.mark.parametrize(
    ("args", "word"),
    [
        (["arena", "block", "--bots", "greedy,wizard", "-n", "2"], "wizard"),
        (["arena", "block", "--bots", "greedy,random", "-n", "0"], "--games"),
        (["arena", "block", "--bots", "greedy,random", "-n", "2", "-j", "0"], "--jobs"),
        (["arena", "nosuch", "--bots", "greedy,random", "-n", "2"], "nosuch"),
        (["arena", "block", "-n", "2"], "--bots"),
        (["arena", "block", "--bots", "greedy", "-n", "two"], "--games"),
    ],
)
def test_arena_bad_input_is_one_line_and_exit_2(args: list[str], word: str) -> None:
    code, _, err = run(*args, "--lang", "en")
    assert word in one_line_error(code, err)


def test_arena_with_one_bot_is_refused_not_played_against_itself() -> None:
    """`bazar arena kozel --bots greedy` filled every seat with greedy and reported 100 %."""
    code, out, err = run("arena", "kozel", "--bots", "greedy", "-n", "2", "--lang", "en")
    assert "--bots names two entries or more" in one_line_error(code, err)
    assert out == ""
    code, out, err = run_ru("arena", "kozel", "--bots", " greedy, ", "-n", "2")
    line = one_line_error(code, err)
    assert "не меньше двух участников" in line and english_words(line[7:]) == []
    code, out, _ = run("arena", "kozel", "--bots", "greedy,greedy", "-n", "2", "--json")
    assert code == 0 and [r["bot"] for r in json.loads(out)["results"]] == ["greedy", "greedy#2"]
