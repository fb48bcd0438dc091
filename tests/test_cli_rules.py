"""``bazar rules``: the variants, and one variant's rules and options."""

from __future__ import annotations

import pytest
from cli_helpers import one_line_error, run

import bazar


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


def test_rules_of_a_variant_print_how_to_play_above_the_options() -> None:
    """The same text as the web's rules page (bazar/i18n/rules), as Markdown in the terminal."""
    code, out, _ = run("rules", "kozel-team", "--lang", "en")
    assert code == 0
    flat = " ".join(out.split())
    assert "Who leads" in flat and "goat (козёл)" in flat
    assert flat.index("Who leads") < flat.index("hand_size")
    code, out, _ = run("rules", "kolbasa", "--lang", "ru")
    assert code == 0 and "Кто первым останется без костей" in " ".join(out.split())
    # a choice is said in words beside the id -o takes (the table wraps its cells)
    code, out, _ = run("rules", "kozel", "--lang", "en")
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if "later_lead" in line)
    meaning = " ".join(line.split("│")[3].strip() for line in lines[at : at + 4])
    assert "winner_or_fisher" in lines[at] and "who went out, or who made the fish" in meaning
