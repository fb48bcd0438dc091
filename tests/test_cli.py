"""The command line as a whole: ``python -m bazar``, help, the languages, and bad input of any
kind told in one line (exit 2) in the user's language."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import NoReturn

import pytest
from cli_helpers import ENV, english_words, one_line_error, run, run_ru

import bazar
from bazar import i18n
from bazar.cli import rules as cli_rules


def test_errors_are_told_in_russian_with_a_russian_prefix() -> None:
    code, _, err = run("rules", "nosuch", "--lang", "ru")
    assert "Неизвестная игра" in one_line_error(code, err)
    code, _, err = run("rules", "classic", "-o", "target=0")
    assert "Неверное значение: опция target" in one_line_error(code, err)


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


def test_an_error_with_no_russian_is_told_whole_in_english(monkeypatch: pytest.MonkeyPatch) -> None:
    """A library message the catalogue cannot say in Russian keeps its English prefix. Every
    error a game raises has its Russian (test_game_errors.py), so one without a code stands
    in for what the rules would have said."""

    def uncoded(*args: object, **options: object) -> NoReturn:
        raise ValueError("penalty scoring needs the moon")

    monkeypatch.setattr(cli_rules, "make_rules", uncoded)
    code, _, err = run_ru("rules", "classic", "-o", "scoring=penalty", "-o", "target=null")
    line = one_line_error(code, err)
    assert line.startswith("bazar: Bad value: ") and not re.search("[а-яё]", line), line


def test_a_bad_file_is_told_whole_in_russian(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_bytes(b'{"format": "bazar-record", \xff}')
    code, _, err = run_ru("replay", str(broken))
    line = one_line_error(code, err)
    assert line == "bazar: Неверное значение: это не текстовый файл (байт 27 — не UTF-8)"


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
