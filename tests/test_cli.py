"""The command line: every command's happy path, and bad input ending in one line and exit 2."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import bazar
from bazar import arena, cli, i18n
from bazar import bots as botlib
from bazar.cli import play
from bazar.core.rules import OPTIONS

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


# -- rules --------------------------------------------------------------------------------------


def test_rules_lists_every_variant_with_its_players_and_aliases() -> None:
    code, out, _ = run("rules", "--lang", "en")
    assert code == 0
    for name in bazar.VARIANTS:
        assert name in out
    assert "2–4" in out and "домино" in out


def test_rules_of_a_variant_shows_spec_options_defaults_and_meanings() -> None:
    code, out, _ = run("rules", "classic", "--lang", "en")
    assert code == 0
    assert bazar.rules.variant("classic").spec in out
    assert "hand_size" in out and "the tiles dealt to each player" in out
    assert "2→7" in out  # the default that changes with the player count
    assert "target" in out and "100" in out


def test_rules_takes_aliases_players_and_options() -> None:
    code, out, _ = run("rules", "домино", "-p", "3", "-o", "target=150")
    assert code == 0
    assert "150" in out
    assert "сколько костей сдаётся каждому" in out  # a Russian game speaks Russian


def test_rules_of_block_shows_its_gamecolony_listing() -> None:
    code, out, _ = run("rules", "block", "--lang", "en")
    assert code == 0 and "100pt/Blk" in out


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["rules", "nosuch", "--lang", "en"], ["Unknown variant", "nosuch", "classic"]),
        (["rules", "classic", "-o", "foo=1", "--lang", "en"], ["Unknown option", "foo"]),
        (["rules", "classic", "-o", "target=0", "--lang", "en"], ["target", "0"]),
        (["rules", "classic", "-p", "9", "--lang", "en"], ["2 to 4 players"]),
        (["rules", "classic", "-o", "target", "--lang", "en"], ["NAME=VALUE"]),
        (["rules", "classic", "--lang", "de"], ["--lang"]),
        (["rules", "classic", "-p", "many"], ["--players"]),
    ],
)
def test_rules_bad_input_is_one_line_and_exit_2(args: list[str], words: list[str]) -> None:
    code, out, err = run(*args)
    line = one_line_error(code, err)
    for word in words:
        assert word in line
    assert out == ""


def test_errors_are_told_in_russian_with_a_russian_prefix() -> None:
    code, _, err = run("rules", "nosuch", "--lang", "ru")
    assert "Неизвестная игра" in one_line_error(code, err)
    code, _, err = run("rules", "classic", "-o", "target=0")
    assert "Неверное значение: опция target" in one_line_error(code, err)


# -- play ---------------------------------------------------------------------------------------


def test_play_needs_a_terminal() -> None:
    code, _, err = run("play", "--seed", "1", "--lang", "en", input="1\n")
    assert "needs a terminal" in one_line_error(code, err)


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(play, "_is_terminal", lambda: True)


@pytest.mark.usefixtures("terminal")
def test_play_a_whole_match_and_save_its_record(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    code, out, err = run(
        "play", "block", "--seed", "3", "--record", str(path), "--lang", "en", input="1\n" * 3000
    )
    assert code == 0, err
    assert "Round 1" in out and "The match is over." in out
    assert "You win the match!" in out or "You lose the match." in out
    assert "Record saved to" in out
    match = bazar.record.loads(path.read_text(encoding="utf-8"))
    assert match.is_over() and match.seed == 3


@pytest.mark.usefixtures("terminal")
def test_play_in_russian_by_default_for_classic_and_eof_leaves_cleanly() -> None:
    code, out, err = run("play", "classic", "--seed", "1", input="1\n")
    assert code == 0, err
    assert "Раунд 1" in out and "Ваши кости" in out and "До встречи!" in out


@pytest.mark.usefixtures("terminal")
def test_play_quit_saves_an_unfinished_record(tmp_path: Path) -> None:
    path = tmp_path / "unfinished.json"
    code, _, _ = run("play", "draw", "--seed", "4", "--record", str(path), input="q\n")
    assert code == 0
    match = bazar.record.loads(path.read_text(encoding="utf-8"))
    assert not match.is_over()


@pytest.mark.usefixtures("terminal")
@pytest.mark.parametrize(
    ("args", "word"),
    [
        (["play", "nosuch"], "nosuch"),
        (["play", "block", "--bots", "genius"], "genius"),
        (["play", "block", "--seat", "5"], "seat 5"),
        (["play", "block", "-p", "7"], "7"),
    ],
)
def test_play_bad_input_is_one_line_and_exit_2(args: list[str], word: str) -> None:
    code, _, err = run(*args, "--lang", "en")
    assert word in one_line_error(code, err)


def test_play_default_variant_is_kozel_once_it_exists() -> None:
    expected = "kozel" if "kozel" in bazar.VARIANTS else "classic"
    assert play._default_variant() == expected


def scripted() -> tuple[io.StringIO, Console]:
    out = io.StringIO()
    return out, Console(file=out, width=120, color_system=None)


def test_table_talk_retries_bad_answers_and_shows_moves_one_by_one() -> None:
    def answers() -> Iterator[str]:
        while True:
            yield from ["", "99", "zz", "?", "6-6:Q", "1"]

    feed = answers()
    out, console = scripted()
    match = bazar.Match(bazar.rules("block", players=3), seed=11)
    table = cli.TableTalk(match, 1, "random", console, lambda prompt: next(feed), "en", seed=1)
    assert table.play().is_over()
    text = out.getvalue()
    assert "There is no move 99" in text
    assert "malformed move 'zz'" in text
    assert "Type a move's number" in text
    assert "Bot 0 (random)" in text and "Bot 2 (random)" in text
    assert "Your hand: " in text and "Table: [" in text
    assert "went out" in text or "fish" in text


def test_table_talk_makes_forced_draws_and_passes_for_the_player() -> None:
    feed = iter(["1"] * 5000)
    out, console = scripted()
    match = bazar.Match(bazar.rules("classic"), seed=2)
    cli.TableTalk(match, 0, "greedy", console, lambda prompt: next(feed), "ru").play()
    text = out.getvalue()
    assert "Вы берёте из базара [" in text
    assert "берёт из базара." in text
    assert "Партия окончена." in text


def test_table_talk_in_teams_names_the_partner_and_sides() -> None:
    feed = iter(["1"] * 5000)
    out, console = scripted()
    match = bazar.Match(bazar.rules("block", players=4), seed=2)
    cli.TableTalk(match, 0, "greedy", console, lambda prompt: next(feed), "en").play()
    text = out.getvalue()
    assert "Your partner: Bot 2 (greedy)." in text
    assert "You and Bot 2 (greedy)" in text


def test_parse_choice_reads_numbers_and_notation() -> None:
    legal = [bazar.Move.parse(m) for m in ("6-4:L", "6-4:R", "5-3:R", "2-2:L")]
    assert cli.parse_choice("3", legal, "en") is legal[2]
    assert cli.parse_choice("6-4:R", legal, "en") is legal[1]
    assert cli.parse_choice("4-6 r", legal, "en") is legal[1]
    assert cli.parse_choice("[6|4]:l", legal, "en") is legal[0]
    assert cli.parse_choice("5-3", legal, "en") is legal[2]
    assert cli.parse_choice("2-2", legal, "en") is legal[3]
    with pytest.raises(play._Retry, match="fits both ends"):
        cli.parse_choice("6-4", legal, "en")
    with pytest.raises(play._Retry, match="not a legal move"):
        cli.parse_choice("1-1", legal, "en")
    with pytest.raises(play._Retry, match="Хода 9 нет"):
        cli.parse_choice("9", legal, "ru")
    with pytest.raises(play._Quit):
        cli.parse_choice("q", legal, "en")
    draw = [bazar.Move.parse("draw")]
    assert cli.parse_choice("d", draw, "en") is draw[0]


# -- arena --------------------------------------------------------------------------------------


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


def test_wilson_interval_of_a_known_case() -> None:
    low, high = arena.wilson(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4)
    assert high == pytest.approx(0.9433, abs=1e-4)
    assert arena.wilson(0, 0) == (0.0, 1.0)
    low, high = arena.wilson(0, 20)
    assert low == 0.0 and high == pytest.approx(0.1611, abs=1e-4)


def test_percentile_interpolates_like_numpy() -> None:
    values = [5.0, 1.0, 4.0, 2.0, 3.0]
    assert arena.percentile(values, 50) == 3.0
    assert arena.percentile(values, 95) == pytest.approx(4.8)
    assert arena.percentile([7.0], 95) == 7.0
    assert arena.percentile([], 50) == 0.0


def test_entries_name_a_bot_given_twice_name_2() -> None:
    assert arena.entries(["greedy", "greedy", "random", "greedy"]) == [
        "greedy",
        "greedy#2",
        "random",
        "greedy#3",
    ]


@pytest.mark.parametrize(("count", "places"), [(2, 2), (2, 3), (3, 3), (2, 4), (4, 2), (3, 2)])
def test_every_entry_sits_in_every_place_equally_over_a_cycle(count: int, places: int) -> None:
    cycle = arena.cycle_length(count, places)
    sits = [[0] * places for _ in range(count)]
    for game in range(cycle):
        for place, entry in enumerate(arena.lineup(count, places, game)):
            sits[entry][place] += 1
    for row in sits:
        assert len(set(row)) == 1
        assert row[0] > 0


def test_duplicate_deals_replay_one_seed_with_the_seats_rotated() -> None:
    rules = bazar.rules("block")
    first, second = (arena.play_game(rules, ["greedy", "greedy"], g, seed=9) for g in (0, 1))
    assert first.lineup == (0, 1) and second.lineup == (1, 0)
    # twin bots on the same deals with the seats swapped play the very same match
    assert first.margins == second.margins and first.wins == second.wins


# -- replay -------------------------------------------------------------------------------------


def test_replay_prints_rounds_and_the_ledger(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_text(finished_record(), encoding="utf-8")
    code, out, err = run("replay", str(path), "--lang", "en")
    assert code == 0, err
    assert "Round 1" in out and "Deal:" in out and "Moves:" in out
    assert "Scores:" in out and "Winner: seat" in out


def test_replay_json_has_the_documented_shape(tmp_path: Path) -> None:
    text = finished_record("block", seed=7)
    path = tmp_path / "m.json"
    path.write_text(text, encoding="utf-8")
    code, out, _ = run("replay", str(path), "--json")
    assert code == 0
    data = json.loads(out)
    match = bazar.record.loads(text)
    assert data["ledger"]["scores"] == list(match.ledger.scores)
    result = match.result()
    assert result is not None
    assert data["winners"] == list(result.winners) and data["losers"] == list(result.losers)
    assert len(data["rounds"]) == len(match.rounds)
    for entry, rnd in zip(data["rounds"], match.rounds, strict=True):
        outcome = rnd.outcome()
        assert outcome is not None
        assert entry["reason"] == outcome.reason and entry["out_seat"] == outcome.out_seat
        assert entry["remaining"] == [[str(t) for t in h or ()] for h in outcome.remaining]
    assert data["rounds"][-1]["scores"] == data["ledger"]["scores"]


def test_replay_of_an_unfinished_match(tmp_path: Path) -> None:
    match = bazar.Match(bazar.rules("draw"), seed=1)
    for _ in range(5):
        match.push(match.legal_moves()[0])
    path = tmp_path / "u.json"
    path.write_text(bazar.record.dumps(match), encoding="utf-8")
    code, out, _ = run("replay", str(path), "--json")
    data = json.loads(out)
    assert code == 0 and data["winners"] == [] and data["rounds"][-1]["reason"] is None
    code, out, _ = run("replay", str(path), "--lang", "en")
    assert code == 0 and "unfinished" in out


def test_replay_bad_files_are_one_line_and_exit_2(tmp_path: Path) -> None:
    text = finished_record("block", seed=7)
    data = json.loads(text)
    moves = data["rounds"][0]["moves"]
    moves[1], moves[2] = moves[2], moves[1]
    cases = {
        "tampered.json": json.dumps(data),
        "broken.json": text[:-10],
        "other.json": json.dumps({"format": "pgn"}),
    }
    for name, content in cases.items():
        (tmp_path / name).write_text(content, encoding="utf-8")
        code, _, err = run("replay", str(tmp_path / name), "--lang", "en")
        assert "Bad record" in one_line_error(code, err)
    code, _, err = run("replay", str(tmp_path / "missing.json"), "--lang", "ru")
    assert "Не удаётся прочитать" in one_line_error(code, err)


# -- bench --------------------------------------------------------------------------------------


def test_bench_prints_games_and_moves_per_second() -> None:
    code, out, _ = run("bench", "--seconds", "0.2")
    assert code == 0
    assert out.startswith("block, 2 players:")
    assert "games/s" in out and "moves/s" in out


def test_bench_loop_counts_every_move() -> None:
    games, moves, seconds = cli.bench(bazar.rules("draw", players=3), 0.05)
    assert games >= 1 and moves > games and seconds >= 0.05


@pytest.mark.parametrize(
    "args", [["bench", "nosuch"], ["bench", "-s", "0"], ["bench", "block", "-p", "5"]]
)
def test_bench_bad_input_is_one_line_and_exit_2(args: list[str]) -> None:
    code, _, err = run(*args)
    one_line_error(code, err)


# -- the program as a whole ---------------------------------------------------------------------


def test_python_m_bazar_is_the_same_program() -> None:
    env = {**os.environ, **ENV}
    done = subprocess.run(
        [sys.executable, "-m", "bazar", "rules", "--lang", "en"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0 and "classic" in done.stdout
    done = subprocess.run(
        [sys.executable, "-m", "bazar", "rules", "nosuch"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1


def test_import_bazar_loads_neither_typer_nor_rich() -> None:
    code = "import sys, bazar, bazar.bots, bazar.arena; print(sorted(sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = done.stdout
    assert "'typer'" not in loaded and "'rich'" not in loaded


def test_no_arguments_shows_help() -> None:
    code, out, _ = run()
    assert code == 0 and "play" in out and "arena" in out


# -- languages ----------------------------------------------------------------------------------


def test_a_russian_locale_else_the_game_chooses_the_language() -> None:
    assert i18n.default_lang("block", {"LANG": "ru_RU.UTF-8"}) == "ru"
    assert i18n.default_lang("block", {"LC_ALL": "ru_RU.UTF-8", "LANG": "en_US"}) == "ru"
    assert i18n.default_lang("block", {"LC_ALL": "en_US.UTF-8", "LANG": "ru_RU"}) == "en"
    assert i18n.default_lang("classic", {"LC_ALL": "en_US.UTF-8"}) == "ru"
    assert i18n.default_lang("classic", {"LANG": "C.UTF-8"}) == "ru"
    assert i18n.default_lang("kozel", {}) == "ru"
    assert i18n.default_lang("draw", {}) == "en"


def test_russian_plurals() -> None:
    assert [i18n.t("tiles", "ru", n=n) for n in (1, 2, 5, 11, 21, 22, 25)] == [
        "1 кость",
        "2 кости",
        "5 костей",
        "11 костей",
        "21 кость",
        "22 кости",
        "25 костей",
    ]


def test_every_library_error_kind_has_a_russian_prefix() -> None:
    errors = [
        bazar.UnknownVariant("x"),
        bazar.UnknownOption("x"),
        bazar.IllegalMove("x"),
        bazar.BadRecord("x"),
        bazar.MatchOver("x"),
        ValueError("x"),
    ]
    prefixes = {i18n.t(f"error.{type(e).__name__}", "ru") for e in errors}
    assert len(prefixes) == len(errors)
    assert all(p[0] in "АБВГДЕЖЗИКЛМНОПРСТУФХЦЧШЩЭЮЯ" for p in prefixes)


# -- refusals and languages (issue 12, items 6 and 7) ------------------------------------------

RU = {**ENV, "LANG": "ru_RU.UTF-8"}


def run_ru(*args: str) -> tuple[int, str, str]:
    """``bazar`` under a Russian locale."""
    result = runner.invoke(cli.app, list(args), env=RU)
    return result.exit_code, result.stdout, result.stderr


#: the words a Russian line may keep in Latin letters: what the user typed or will type
NAMES = {*bazar.VARIANTS, *OPTIONS, *botlib.names(), "cmd", "UTF", "ru", "en"}


def english_words(line: str) -> list[str]:
    """The English words of ``line``, not counting quoted input, options (``--bots``),
    names of games, options and bots, and ``A,B``."""
    line = re.sub(r"'[^']*'|--[\w-]+|\b[A-Z],[A-Z]\b", "", line)
    return [w for w in re.findall(r"[A-Za-z][A-Za-z_-]+", line) if w not in NAMES]


def test_english_words_leaves_names_and_input_alone() -> None:
    assert english_words("игры 'kozle' нет (может быть, kozel?); --bots A,B") == []
    assert english_words("Неверное значение: no seat 7") == ["no", "seat"]


@pytest.mark.parametrize(
    ("args", "russian"),
    [
        (["play", "kozel", "--seat", "7"], "места 7 нет: места от 0 до 3"),
        (["rules", "kozel", "-o", "target"], "опция пишется как ИМЯ=ЗНАЧЕНИЕ"),
        (["arena", "kozel", "--bots", "greedy,random", "-n", "0"], "--games принимает число от 1"),
        (["bench", "block", "--seconds", "0"], "--seconds принимает положительное число"),
        (["rules", "kozel", "--lang", "de"], "--lang принимает ru или en, не 'de'"),
        (["arena"], "не хватает аргумента 'variant'"),
        (["arena", "kozel", "--bogus"], "нет опции --bogus"),
        (["arena", "kozel", "--bots", "a,b", "--games", "x"], "'--games' принимает целое число"),
        (["rules", "a", "b"], "лишние аргументы: b"),
        (["nosuch"], "нет команды 'nosuch'"),
    ],
)
def test_an_error_is_told_whole_in_russian(args: list[str], russian: str) -> None:
    """«Неверное значение: no seat 7 ...» was a Russian prefix on an English message."""
    code, _, err = run_ru(*args)
    line = one_line_error(code, err)
    assert russian in line
    assert english_words(line.removeprefix("bazar: ")) == []


def test_an_error_with_no_russian_is_told_whole_in_english() -> None:
    """A library message the catalogue cannot say in Russian keeps its English prefix."""
    code, _, err = run_ru("rules", "classic", "-o", "scoring=penalty", "-o", "target=null")
    line = one_line_error(code, err)
    assert line.startswith("bazar: Bad value: ") and not re.search("[а-яё]", line), line


def test_a_bad_file_is_told_whole_in_russian(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_bytes(b'{"format": "bazar-record", \xff}')
    code, _, err = run_ru("replay", str(broken))
    line = one_line_error(code, err)
    assert line == "bazar: Неверное значение: это не текстовый файл (байт 27 — не UTF-8)"


def test_serve_refuses_a_port_out_of_range_instead_of_printing_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    uvicorn = pytest.importorskip("uvicorn")
    served: list[object] = []
    monkeypatch.setattr(uvicorn, "run", lambda club, **options: served.append(options))
    db = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    for port in ("99999", "0", "-1"):
        code, out, err = run("serve", "--db", db, "--port", port)
        assert one_line_error(code, err) == (
            f"bazar: Bad value: --port takes a number from 1 to 65535, not {port}"
        )
        assert out == ""
    code, out, err = run_ru("serve", "--db", db, "--port", "65536")
    assert one_line_error(code, err) == (
        "bazar: Неверное значение: --port принимает число от 1 до 65535, не 65536"
    )
    assert served == []
    code, out, _ = run_ru("serve", "--db", db, "--port", "65535")
    assert code == 0 and served[0]["port"] == 65535
    assert out.startswith("клуб bazar: http://127.0.0.1:65535/")


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


def test_verify_speaks_the_language_of_its_record_as_replay_does(tmp_path: Path) -> None:
    path = tmp_path / "kozel.json"
    path.write_text(finished_record("kozel"), encoding="utf-8")
    for args, first in (
        ([], "раунд 1: сид "),
        (["--lang", "en"], "round 1: seed "),
    ):
        code, out, _ = run("verify", str(path), *args)
        assert code == 0
        lines = out.splitlines()
        assert lines[0].startswith(first)
        said = "раздача подтверждена" if first.startswith("раунд") else "deal confirmed"
        assert all(line.endswith(said) for line in lines)
        _, replayed, _ = run("replay", str(path), *args)
        assert bool(re.search("[а-яё]", replayed)) == first.startswith("раунд")


def test_verify_and_replay_refuse_a_seed_of_thousands_of_digits_in_one_line(
    tmp_path: Path,
) -> None:
    """Python's int-string limit was a traceback, not the record's fault said plainly."""
    path = tmp_path / "seed.json"
    path.write_text(finished_record().replace('"seed":5,', f'"seed":{"9" * 5000},'))
    for command in ("verify", "replay"):
        code, _, err = run(command, str(path), "--lang", "en")
        assert "a number has 5000 digits (at most 30)" in one_line_error(code, err), command
        code, _, err = run(command, str(path), "--lang", "ru")
        assert "цифр в числе: 5000" in one_line_error(code, err), command


def test_rules_listing_says_which_games_answer_in_russian() -> None:
    """`bazar rules` lists in English, then `bazar rules kozel` answers in Russian (API.md):
    the listing says so, in its own language."""
    code, out, _ = run("rules")
    assert code == 0
    hint = " ".join(out.split()).split("Variants")[-1]
    assert "speak Russian unless --lang en is given" in hint and "kozel" in hint
    assert "block," not in hint.split("speak Russian")[0]
    code, out, _ = run("rules", "kozel")
    assert "по умолчанию" in out
    code, out, _ = run("rules", "--lang", "ru")
    assert "--lang en" not in out


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["rules", "kozle", "--lang", "en"], "variant 'kozle' (did you mean kozel?);"),
        (["rules", "kozle", "--lang", "ru"], "игры 'kozle' нет (может быть, kozel?);"),
        (["rules", "ksel", "--lang", "en"], "(did you mean"),
        (["rules", "kozel", "-o", "fish_mod=x", "--lang", "en"], "(did you mean fish_mode"),
        (["rules", "kozel", "-o", "fish_mod=x", "--lang", "ru"], "(может быть, fish_mode"),
        (["play", "kozle", "--lang", "ru"], "(может быть, kozel?)"),
    ],
)
def test_an_unknown_variant_or_option_suggests_the_nearest_names(
    args: list[str], said: str
) -> None:
    code, _, err = run(*args)
    assert said in one_line_error(code, err)


def test_the_library_suggests_the_nearest_variant_and_option() -> None:
    with pytest.raises(bazar.UnknownVariant, match=r"\(did you mean kozel\?\); known variants"):
        bazar.rules("kozle")
    with pytest.raises(bazar.UnknownVariant, match=r"^unknown variant 'zzzz'; known variants"):
        bazar.rules("zzzz")
    with pytest.raises(bazar.UnknownOption, match=r"'targt' \(did you mean target\?\)"):
        bazar.rules("classic", targt=50)


@pytest.mark.parametrize(
    ("lang", "said"), [("en", "the target is reached"), ("ru", "набран нужный счёт")]
)
def test_a_round_won_on_the_target_is_told_in_the_players_language(lang: str, said: str) -> None:
    _, console = scripted()
    match = bazar.Match(bazar.rules("telephone", players=2), seed=1)
    narrator = cli.Narrator(match, ["A", "B"], console, lang)
    outcome = bazar.Outcome("target", remaining=[["6-6"], ["1-0"]], scoring=[(0, 2)])
    assert narrator.how(outcome) == said


@pytest.mark.parametrize(
    ("seat", "lang", "said", "not_said"),
    [
        (2, "en", "You neither win nor lose", "You lose"),
        (2, "ru", "Вы не выиграли и не проиграли", "Вы проиграли партию"),
        (1, "en", "You lose the match.", "neither"),
        (0, "en", "You win the match!", "lose"),
    ],
)
def test_a_player_between_the_winner_and_the_goat_is_not_told_he_lost(
    seat: int, lang: str, said: str, not_said: str
) -> None:
    out, console = scripted()
    rules = bazar.rules("kozel", players=4)
    match = bazar.Match(rules, seed=1)
    match.ledger = bazar.Ledger(rules, scores=[30, 101, 60, 90], opened=[True] * 4)
    cli.TableTalk(match, seat, "random", console, lambda prompt: "", lang).result()
    text = out.getvalue()
    assert said in text and not_said not in text


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["rules", "kozle", "--lang", "en"],
            "bazar: Unknown variant 'kozle' (did you mean kozel?)",
        ),
        (["play", "kozel", "--seat", "7", "--lang", "en"], "bazar: Bad value: no seat 7"),
    ],
)
def test_an_error_does_not_say_its_kind_twice(args: list[str], said: str) -> None:
    """A library message that already begins with its kind ("unknown variant ...") is the
    whole line, capitalised, not "Unknown variant: unknown variant ..."."""
    line = one_line_error(*run(*args)[::2])
    assert line.startswith(said), line


def test_serve_says_which_limit_of_the_environment_is_wrong(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    uvicorn = pytest.importorskip("uvicorn")
    served: list[object] = []
    monkeypatch.setattr(uvicorn, "run", lambda club, **options: served.append(club))
    db = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    monkeypatch.setenv("BAZAR_MAX_BODY", "lots")
    code, _, err = run("serve", "--db", db)
    line = one_line_error(code, err)
    assert line.startswith("bazar: a limit set in the environment is not valid: BAZAR_MAX_BODY:")
    code, _, err = run_ru("serve", "--db", db)
    assert one_line_error(code, err).startswith(
        "bazar: ограничение, заданное в окружении, неверно: BAZAR_MAX_BODY:"
    )
    assert served == []
    # the limits the environment sets are the club's
    monkeypatch.setenv("BAZAR_MAX_BODY", "8192")
    code, _, err = run("serve", "--db", db)
    assert code == 0, err
    assert served[0].state.settings.max_body == 8192
