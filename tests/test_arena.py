"""The arena: seats dealt out by rotation, duplicate deals, the statistics of a report, the
omniscient bot given the round."""

from __future__ import annotations

import pytest

import bazar
from bazar import arena


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


def test_the_arena_gives_the_omniscient_bot_the_round() -> None:
    report = arena.run(bazar.rules("block"), ["omniscient@8", "random"], games=4, seed=1)
    assert report.results[0].games == 4


def test_the_arena_statistics_on_a_known_case() -> None:
    """Two entries of the same deterministic bot share every duplicate deal: every deal is
    played with the seats both ways, so the wins split exactly in half."""
    report = arena.run(bazar.rules("block"), ["greedy", "greedy"], games=40, seed=3)
    first, second = report.results
    assert first.games == second.games == 40
    assert first.wins + second.wins == pytest.approx(40)
    assert first.win_rate == pytest.approx(0.5)
    assert first.margin == pytest.approx(0.0)
    assert first.ci95 == pytest.approx(arena.wilson(20, 40))


def test_the_arena_counts_matches_won_by_an_entry_holding_several_seats() -> None:
    """Two entries at a four-seat table without teams each hold two seats a match: even
    odds are a quarter per seat and a half per match."""
    rules = bazar.rules("block", players=4, teams=False)
    report = arena.run(rules, ["greedy", "greedy"], games=8, seed=2)
    first, second = report.results
    assert first.games == second.games == 16 and first.matches == second.matches == 8
    assert first.win_rate + second.win_rate == pytest.approx(0.5)
    assert first.match_win_rate + second.match_win_rate == pytest.approx(1.0)
    assert first.match_win_rate == pytest.approx(first.win_rate * 2)
