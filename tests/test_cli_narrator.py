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
