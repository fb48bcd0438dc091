"""The match ledger (``bazar.core.ledger``): what ``MatchResult.winners`` and ``losers`` mean,
in every game and every way a match ends (the ``MatchResult`` docstring), over a table of
finished ledgers and random matches of every variant; a decided ledger settles no more."""

from __future__ import annotations

from typing import Any

import pytest
from invariants import finished, matches_end

import bazar
from bazar import Ledger, MatchOver

# (variant, options, ledger fields, winners, losers)
ENDINGS: list[tuple[str, dict[str, Any], dict[str, Any], tuple[int, ...], tuple[int, ...]]] = [
    # a target: the side that reached it wins, every other side loses
    ("classic", {"players": 3}, {"scores": [104, 20, 30]}, (0,), (1, 2)),
    ("block", {"players": 4}, {"scores": [40, 100]}, (1, 3), (0, 2)),
    ("fives", {"players": 3}, {"scores": [90, 205, 150]}, (1,), (0, 2)),
    ("telephone", {"players": 3}, {"scores": [61, 60, 10]}, (0,), (1, 2)),
    ("bergen", {"players": 3}, {"scores": [9, 4, 10]}, (2,), (0, 1)),
    ("texas-42", {}, {"scores": [251, 200]}, (0, 2), (1, 3)),
    ("kozel-beginner", {"players": 3}, {"scores": [300, 200, 0]}, (0,), (1, 2)),
    ("sea-kozel", {"players": 3}, {"scores": [125, 0, 0]}, (0,), (1, 2)),
    # an outright win or loss: that side wins (loses), every other side loses (wins)
    ("sea-kozel", {"players": 3}, {"scores": [0, 30, 0], "extra": {"won_by": 2}}, (2,), (0, 1)),
    ("sea-kozel", {"players": 3}, {"scores": [0, 30, 0], "extra": {"lost_by": 1}}, (0, 2), (1,)),
    ("kozel", {"players": 3}, {"scores": [0, 30, 50], "extra": {"general": 1}}, (1,), (0, 2)),
    # a limit: exactly the sides at or past it lose, the fewest points below it win
    ("kozel", {"players": 4}, {"scores": [30, 101, 60, 90]}, (0,), (1,)),
    ("kozel", {"players": 4}, {"scores": [30, 101, 30, 105]}, (0, 2), (1, 3)),
    ("kozel", {"players": 2}, {"scores": [101, 103]}, (), (0, 1)),
    ("kozel-team", {}, {"scores": [101, 50]}, (1, 3), (0, 2)),
    ("kozel-goat25", {"players": 3}, {"scores": [124, 125, 0]}, (2,), (1,)),
    ("osel", {"players": 3}, {"scores": [60, 20, 101]}, (1,), (2,)),
    ("classic-penalty", {"players": 3}, {"scores": [40, 104, 69]}, (0,), (1,)),
    (
        "chicken-foot",
        {"players": 4, "limit": 150},
        {"scores": [70, 152, 40, 99], "rounds": 4},
        (2,),
        (1,),
    ),
    # the rounds played out: the best total wins, the worst loses
    ("chicken-foot", {"players": 3}, {"scores": [88, 88, 120], "rounds": 10}, (0, 1), (2,)),
    ("mexican-train", {"players": 4}, {"scores": [50, 80, 120, 200], "rounds": 13}, (0,), (3,)),
    (
        "mexican-train",
        {"players": 3, "scoring": "positive"},
        {"scores": [50, 80, 20], "rounds": 13},
        (1,),
        (2,),
    ),
    ("kolbasa", {"players": 3}, {"scores": [0, 1, 0], "rounds": 1}, (1,), (0, 2)),
    ("kolbasa", {"players": 2}, {"scores": [1, 1], "rounds": 1}, (0, 1), ()),
    ("poker", {"players": 4}, {"scores": [120, 100, 100, 80], "rounds": 10}, (0,), (3,)),
    ("poker", {"players": 3}, {"scores": [100, 100, 100], "rounds": 10}, (0, 1, 2), ()),
    # poker's last chips: fewer than two can pay the ante
    ("poker", {"players": 4}, {"scores": [400, 0, 0, 0], "rounds": 6}, (0,), (1, 2, 3)),
]


@pytest.mark.parametrize(("name", "options", "fields", "winners", "losers"), ENDINGS)
def test_winners_and_losers_mean_the_same_in_every_game(
    name: str,
    options: dict[str, Any],
    fields: dict[str, Any],
    winners: tuple[int, ...],
    losers: tuple[int, ...],
) -> None:
    result = Ledger(bazar.rules(name, **options), **fields).result
    assert result is not None
    assert (result.winners, result.losers) == (winners, losers)


def every_game() -> list[tuple[str, int, dict[str, Any]]]:
    """Each variant at its fewest and its default players; Chicken Foot with a limit too."""
    games = []
    for name in bazar.rules.names():
        variant = bazar.rules.variant(name)
        for players in sorted({variant.players[0], variant.default_players}):
            games.append((name, players, {}))
    games += [("chicken-foot", 3, {"limit": 60}), ("chicken-foot-wiki", 4, {"limit": 90})]
    return games


@pytest.mark.parametrize(("name", "players", "options"), every_game())
@pytest.mark.parametrize("seed", [1, 2])
def test_a_random_match_of_every_game_ends_with_a_result_that_means_what_it_says(
    name: str, players: int, options: dict[str, Any], seed: int
) -> None:
    matches_end(bazar.rules(name, players=players, **options), seed, seed, 100_000)


def test_a_decided_ledger_settles_nothing_more() -> None:
    match = finished(bazar.Match(bazar.rules("block"), seed=6))
    outcome = match.round.outcome()
    with pytest.raises(MatchOver, match="already decided"):
        match.ledger.settle(outcome)
