"""The narrator: a match told in words."""

from __future__ import annotations

import pytest
from cli_helpers import scripted

import bazar
from bazar import cli


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
    ("game", "lang", "said"),
    [
        ("kozel", "ru", "Козёл: B"),
        ("sea-kozel", "en", "Goat: B"),
        ("osel", "ru", "Осёл: B"),
        ("osel", "en", "Donkey: B"),
        ("classic-penalty", "en", "Loser: B"),
    ],
)
def test_the_losers_of_a_match_are_called_as_the_yards_call_them(
    game: str, lang: str, said: str
) -> None:
    out, console = scripted()
    rules = bazar.rules(game, players=2)
    match = bazar.Match(rules, seed=1)
    # B reaches the losing mark, or A the winning one
    scores = [0, rules.limit] if rules.limit is not None else [rules.target, 0]
    match.ledger = bazar.Ledger(rules, scores=scores, opened=[True, True])
    assert match.is_over()
    cli.Narrator(match, ["A", "B"], console, lang).result()
    assert said in out.getvalue()
