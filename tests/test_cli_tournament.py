"""``bazar tournament``: a tournament between bots from the command line, its standings
table, its files (``--out``, ``--from``, ``--records``) and its refusals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import english_words, one_line_error, run, run_ru

import bazar
from bazar.tournament import loads


def _json(*args: str) -> dict[str, Any]:
    code, out, err = run("tournament", *args, "--json")
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def _rows(table: str) -> list[list[str]]:
    """The body rows of a Rich table, cell by cell."""
    rows = [line for line in table.splitlines() if line.startswith("│")]
    return [[cell.strip() for cell in row.strip("│").split("│")] for row in rows]


def test_a_swiss_of_four_bots_prints_a_table_whose_points_add_up_to_the_games() -> None:
    args = ["block", "--format", "swiss", "--rounds", "3", "--seed", "2"]
    code, out, err = run("tournament", *args, "--bots", "random,greedy,heuristic,random")
    assert code == 0, err
    assert out.splitlines()[0].rstrip() == "Swiss: Block, 4 entries, 3 rounds, 6 matches, seed 2"
    header = out.splitlines()[2]
    for column in ("entry", "points", "games", "wins", "Buchholz", "Sonneborn–Berger"):
        assert column in header
    rows = _rows(out)
    assert sorted(row[1] for row in rows) == ["greedy", "heuristic", "random", "random#2"]
    # two games a round, each giving one point between its two sides
    assert sum(float(row[2]) for row in rows) == 6
    assert [int(row[3]) for row in rows] == [3, 3, 3, 3]
    ranks = [int(row[0]) for row in rows]
    assert ranks == sorted(ranks) and ranks[0] == 1


def test_the_same_seed_gives_the_same_standings_on_one_process_and_on_two() -> None:
    args = ["block", "--format", "swiss", "--rounds", "2", "--bots", "greedy,random,heuristic"]
    alone = _json(*args, "--seed", "7")
    spread = _json(*args, "--seed", "7", "--jobs", "2")
    assert spread == alone
    assert _json(*args, "--seed", "8") != alone


def _points_add_up(path: Path) -> Any:
    """The exported tournament, checked: the standings' points are the matches' and byes'."""
    t = loads(path.read_text(encoding="utf-8"))
    given = sum(sum(p.points or ()) for p in t.pairings)
    assert sum(s.points for s in t.standings()) == pytest.approx(given)
    for s in t.standings():
        games = [p for p in t.pairings if s.entry.id in p.entries and not p.bye]
        assert s.played == len(games)
    return t


@pytest.mark.parametrize("format", ["round_robin", "knockout", "arena"])
@pytest.mark.parametrize(
    ("game", "bots", "sides"),
    [
        (["kozel", "-p", "4"], "greedy,random,heuristic,greedy,random", 4),
        (["block"], "greedy,random,heuristic,greedy,random", 2),
    ],
)
def test_every_format_runs_for_a_four_player_game_and_a_two_player_one(
    tmp_path: Path, format: str, game: list[str], bots: str, sides: int
) -> None:
    out = tmp_path / "t.json"
    extra = ["--minutes", "40"] if format == "arena" else []
    data = _json(*game, "--format", format, *extra, "--bots", bots, "--out", str(out))
    assert data["format"] == format and len(data["standings"]) == 5
    t = _points_add_up(out)
    assert t.over and t.sides == sides
    for p in t.pairings:
        assert p.places is None if p.bye else len(p.places or ()) == sides
    if format == "round_robin":
        met = {frozenset(p.entries) for p in t.pairings if not p.bye}
        assert all(any({a, b} <= m for m in met) for a in range(5) for b in range(a))
    if format == "knockout":
        assert [s["out"] for s in data["standings"]].count(None) == 1


def test_a_two_by_two_team_event_enters_teams_that_stay_together(tmp_path: Path) -> None:
    out = tmp_path / "teams.json"
    data = _json(
        "kozel-team", "--teams", "--format", "swiss", "--rounds", "2",
        "--bots", "greedy,random,heuristic,greedy", "--out", str(out),
    )  # fmt: skip
    assert [len(row["name"]) > 0 for row in data["standings"]] == [True] * 4
    t = _points_add_up(out)
    assert t.teams and t.sides == 2
    assert all(len(e.members) == 2 for e in t.entries)
    for p in t.pairings:
        assert len(p.entries) == 2
        assert bazar.record.loads(p.record or "").rules.teams == ((0, 2), (1, 3))


def test_out_then_from_gives_the_same_standings(tmp_path: Path) -> None:
    out = tmp_path / "swiss.json"
    args = ["kozel", "-p", "4", "--format", "swiss", "--rounds", "2"]
    bots = ["--bots", "greedy,random,heuristic,greedy,random,heuristic,greedy,random"]
    code, table, err = run("tournament", *args, *bots, "--out", str(out), "--lang", "en")
    assert code == 0, err
    code, again, err = run("tournament", "--from", str(out), "--lang", "en")
    assert code == 0, err
    assert again == table
    assert _json(*args, *bots) == _json("--from", str(out))


def test_records_writes_a_record_per_game_of_the_options_given_that_replays(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    out = tmp_path / "t.json"
    args = ["block", "-o", "target=30", "--format", "round_robin", "--bots", "greedy,random,pimc"]
    _json(*args, "--records", str(folder), "--out", str(out))
    t = loads(out.read_text(encoding="utf-8"))
    games = [p for p in t.pairings if not p.bye]
    assert sorted(p.name for p in folder.iterdir()) == sorted(p.table or "" for p in games)
    for p in games:
        text = (folder / (p.table or "")).read_text(encoding="utf-8")
        match = bazar.record.loads(text)
        assert text == p.record and match.is_over() and match.rules.target == 30
    code, _, err = run("replay", str(folder / (games[0].table or "")), "--json")
    assert code == 0, err


def test_a_russian_table_speaks_russian() -> None:
    code, out, err = run(
        "tournament", "kozel", "--format", "knockout", "--bots", "greedy,random,heuristic,pimc",
        "--lang", "ru",
    )  # fmt: skip
    assert code == 0, err
    assert out.startswith("На выбывание: Козёл, участников: 4, туров: 1, партий: 1, зерно 0")
    assert "выбыл в туре" in out and "очки" in out


@pytest.mark.parametrize(
    ("args", "en", "ru"),
    [
        (["block", "--format", "ladder"], "--format takes one of", "--format принимает одно из"),
        (["block", "--format", "swiss"], "needs --rounds", "нужно --rounds"),
        (["block", "--format", "arena"], "needs --minutes", "нужно --minutes"),
        (["kozel", "--teams", "--rounds", "2"], "--teams needs a game", "--teams нужна игра"),
        (["block", "--rounds", "0"], "--rounds takes a number from 1", "--rounds принимает"),
        (["block", "--format", "arena", "--minutes", "0"], "above 0", "больше 0"),
        (["block", "--rounds", "2", "--minutes", "5"], "does not go with", "не задаётся"),
        (["block", "-f", "knockout", "--rounds", "2"], "does not go with", "не задаётся"),
    ],
)
def test_bad_input_is_one_clear_line_in_either_language(args: list[str], en: str, ru: str) -> None:
    bots = ["--bots", "greedy,random,heuristic,greedy"]
    code, out, err = run("tournament", *args, *bots, "--lang", "en")
    assert en in one_line_error(code, err) and out == ""
    code, out, err = run_ru("tournament", *args, *bots)
    line = one_line_error(code, err)
    assert ru in line and out == ""
    assert english_words(line.removeprefix("bazar: ")) == []


def test_too_few_bots_an_unknown_bot_and_a_missing_file_are_refused_in_one_line(
    tmp_path: Path,
) -> None:
    args = ["kozel", "--format", "knockout", "--bots", "greedy,random", "--lang", "en"]
    code, _, err = run("tournament", *args)
    assert "--bots names 4 entries or more" in one_line_error(code, err)
    code, _, err = run("tournament", "block", "--rounds", "2", "--bots", "greedy,wizard")
    assert "wizard" in one_line_error(code, err)
    code, _, err = run("tournament", "--from", str(tmp_path / "none.json"))
    assert "none.json" in one_line_error(code, err)
    (tmp_path / "bad.json").write_text('{"bazar_tournament": 1}', encoding="utf-8")
    code, _, err = run("tournament", "--from", str(tmp_path / "bad.json"))
    assert one_line_error(code, err)
    code, _, err = run("tournament", "block", "--from", str(tmp_path / "bad.json"))
    assert "--from reads a tournament's file" in one_line_error(code, err)
    code, _, err = run("tournament", "--bots", "greedy,random")
    assert "'variant'" in one_line_error(code, err)


def test_the_readme_s_standings_are_what_its_command_prints() -> None:
    """The README shows a real run: its table is the one the command prints (a change of
    pairing or scoring changes it: run the command again and paste its table)."""
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    block = readme.split("$ bazar tournament ", 1)[1].split("```", 1)[0]
    command, table = block.split("\n", 1)[0], block.split("\n", 2)[2]
    args = command.rstrip("\\").split() + block.split("\n", 2)[1].split()
    code, out, err = run("tournament", *args)
    assert code == 0, err
    assert [line.rstrip() for line in out.splitlines()] == table.rstrip("\n").splitlines()
