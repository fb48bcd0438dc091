"""``bazar play`` and the terminal game (TableTalk): answers, forced moves, the match's end."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_helpers import one_line_error, run, scripted

import bazar
from bazar import cli
from bazar.cli import play


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
    assert "Bot 1 · Novice" in text and "Bot 3 · Novice" in text
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
    assert "Your partner: Bot 3 · Easy." in text
    assert "You and Bot 3 · Easy" in text


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


def _played(
    name: str, seat: int, lang: str, first: list[str], players: int = 2
) -> tuple[str, list[str]]:
    """A whole match told at ``seat``, answered ``first`` then 1 to every question; what it
    said and the questions it asked."""
    asked: list[str] = []
    feed = iter([*first, *["1"] * 5000])

    def ask(prompt: str) -> str:
        asked.append(prompt)
        return next(feed)

    out, console = scripted()
    match = bazar.Match(bazar.rules(name, players=players), seed=2)
    cli.TableTalk(match, seat, "greedy", console, ask, lang).play()
    return out.getvalue(), asked


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "en",
            [
                "Help",
                "Dominoes in a line",
                "Who leads",
                "Scores: You 0 · Bot 2 · Easy 0",
                "Keys",
                "draw from the bazar",
                "leave the match",
                "bazar rules block",
            ],
        ),
        (
            "ru",
            [
                "Помощь",
                "Кто заходит",
                "Счёт: Вы 0 · Бот 2 · Лёгкий 0",
                "Клавиши",
                "взять из базара",
                "выйти из партии",
                "bazar rules block",
            ],
        ),
    ],
)
def test_a_question_mark_shows_the_rules_in_short_the_scores_and_the_keys(
    lang: str, words: list[str]
) -> None:
    text, _ = _played("block", 0, lang, ["?"])
    help_screen = text[text.index(words[0]) :]
    for word in words[1:]:
        assert word in help_screen, word
    assert "Words at the table" not in text and "Слова за столом" not in text
    # after the help the moves are listed again and the same question is asked
    assert help_screen.index("Keys" if lang == "en" else "Клавиши") < help_screen.index("1  [5|2]")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_lone_move_is_made_for_the_player_and_said(lang: str) -> None:
    text, asked = _played("block", 0, lang, [])
    assert not any("[1-1]" in prompt for prompt in asked)
    said = (
        "Your only move, made for you:\nYou play ["
        if lang == "en"
        else "Единственный ход, делается за вас:\nВы "
    )
    assert said in text
    assert any("[1-2]" in prompt for prompt in asked)  # a choice is still asked


@pytest.mark.parametrize(
    ("lang", "names"),
    [
        ("en", ["Bot 1 · Easy", "Bot 3 · Easy", "Bot 4 · Easy"]),
        ("ru", ["Бот 1 · Лёгкий", "Бот 3 · Лёгкий", "Бот 4 · Лёгкий"]),
    ],
)
def test_bots_are_named_as_the_club_names_them_seats_counted_from_1(
    lang: str, names: list[str]
) -> None:
    text, _ = _played("block", 1, lang, [], players=4)
    for name in names:
        assert name in text
    assert ("seat 2." if lang == "en" else "место — 2.") in text
