"""bazar.tournament's standings: place points, byes, the tie-breaks as their definitions say
them on a Swiss worked by hand (the example of docs/tournaments.md), the arena's streak, and
the errors a tournament refuses with."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bazar.tournament import Pairing, Tournament, TournamentError


def worked_swiss() -> Tournament:
    """Five players, three rounds of Block, results by hand (A is rated highest, E lowest).

    Round 1: A-C 1-0, B-D 1-0 (D has the first side), E has the bye.
    Round 2: B-A ½-½, C-E 1-0, D has the bye (the lowest without one).
    Round 3: A-D 1-0, E-B 1-0, C has the bye (E and D had theirs).
    """
    t = Tournament("block", format="swiss", rounds=3)
    for name, rating in zip("ABCDE", (1500, 1400, 1300, 1200, 1100), strict=True):
        t.add(name, rating=rating)
    t.start()
    results = [
        {(0, 2): [1, 2], (3, 1): [2, 1]},
        {(1, 0): [1, 1], (2, 4): [1, 2]},
        {(0, 3): [1, 2], (4, 1): [1, 2]},
    ]
    for byed, played in zip((4, 3, 2), results, strict=True):
        pairings = t.pair()
        assert [p.entries for p in pairings if p.bye] == [(byed,)]
        assert {p.entries for p in pairings if not p.bye} == set(played)
        for p in pairings:
            if not p.bye:
                t.report(p, played[p.entries])
    return t


def test_the_worked_swiss_tie_breaks_are_those_of_their_definitions() -> None:
    t = worked_swiss()
    table = {s.entry.name: s for s in t.standings()}
    # points: A 1 + ½ + 1 = 2.5; B 1 + ½ + 0 = 1.5; C 0 + 1 + bye 1 = 2; D 0 + bye 1 + 0 = 1;
    # E bye 1 + 0 + 1 = 2 (nine in all: three rounds of two games and a bye, 1 each)
    assert {n: s.points for n, s in table.items()} == {
        "A": 2.5,
        "B": 1.5,
        "C": 2.0,
        "D": 1.0,
        "E": 2.0,
    }
    # Buchholz, the opponents' points, a bye counting the entry's own:
    # A: C 2 + B 1.5 + D 1 = 4.5         B: D 1 + A 2.5 + E 2 = 5.5
    # C: A 2.5 + E 2 + (bye) 2 = 6.5     D: B 1.5 + (bye) 1 + A 2.5 = 5
    # E: (bye) 2 + C 2 + B 1.5 = 5.5
    assert {n: s.tiebreaks["buchholz"] for n, s in table.items()} == {
        "A": 4.5,
        "B": 5.5,
        "C": 6.5,
        "D": 5.0,
        "E": 5.5,
    }
    # median Buchholz drops the highest and the lowest round:
    # A: 4.5 - 2 - 1 = 1.5   B: 5.5 - 2.5 - 1 = 2   C: 6.5 - 2.5 - 2 = 2
    # D: 5 - 2.5 - 1 = 1.5   E: 5.5 - 2 - 1.5 = 2
    assert {n: s.tiebreaks["median_buchholz"] for n, s in table.items()} == {
        "A": 1.5,
        "B": 2.0,
        "C": 2.0,
        "D": 1.5,
        "E": 2.0,
    }
    # Sonneborn-Berger, each opponent's points times what was scored against him:
    # A: C 2 x 1 + B 1.5 x ½ + D 1 x 1 = 3.75    B: D 1 x 1 + A 2.5 x ½ + E 2 x 0 = 2.25
    # C: A 2.5 x 0 + E 2 x 1 = 2                 D: B 1.5 x 0 + A 2.5 x 0 = 0
    # E: C 2 x 0 + B 1.5 x 1 = 1.5               (a bye adds nothing)
    assert {n: s.tiebreaks["sonneborn_berger"] for n, s in table.items()} == {
        "A": 3.75,
        "B": 2.25,
        "C": 2.0,
        "D": 0.0,
        "E": 1.5,
    }
    # wins: a draw is a first place shared by two, half a win each
    assert {n: (s.wins, s.played) for n, s in table.items()} == {
        "A": (2.5, 3),
        "B": (1.5, 3),
        "C": (1.0, 2),
        "D": (0.0, 2),
        "E": (1.0, 2),
    }
    # C and E both have 2; C's Buchholz (6.5) is above E's (5.5)
    assert [(s.rank, s.entry.name) for s in t.standings()] == [
        (1, "A"),
        (2, "C"),
        (3, "E"),
        (4, "B"),
        (5, "D"),
    ]
    assert t.over


def test_equal_points_and_tie_breaks_share_a_rank() -> None:
    t = Tournament("block", format="round_robin")
    for name in "AB":
        t.add(name)
    t.start()
    (game,) = t.pair()
    t.report(game, [1, 1])
    assert [(s.rank, s.points, s.wins) for s in t.standings()] == [(1, 0.5, 0.5), (1, 0.5, 0.5)]


def four_kozel(
    place_points: tuple[float, ...] | None = None, bye_points: float | None = None
) -> tuple[Tournament, Pairing]:
    t = Tournament(
        "kozel",
        players=4,
        format="swiss",
        rounds=1,
        place_points=place_points,
        bye_points=bye_points,
    )
    for name in "ABCD":
        t.add(name)
    t.start()
    (table,) = t.pair()
    return t, table


def test_a_four_player_table_gives_3_2_1_0_and_level_places_share_theirs() -> None:
    t, table = four_kozel()
    t.report(table, [1, 2, 2, 4])  # two level on second: (2 + 1) / 2 each; the goat 0
    assert table.points == (3.0, 1.5, 1.5, 0.0)
    by = {s.entry.id: s for s in t.standings()}
    seat = dict(enumerate(table.entries))
    assert by[seat[0]].tiebreaks["sonneborn_berger"] == 1.5 + 1.5 + 0.0
    # level with one opponent: half his points; above the goat: all of his (none)
    assert by[seat[1]].tiebreaks["sonneborn_berger"] == 0.5 * 1.5 + 0.0
    assert [s.rank for s in t.standings()] == [1, 2, 2, 4]


def test_place_points_and_bye_points_can_be_set() -> None:
    t, table = four_kozel(place_points=(5, 3, 1, 0), bye_points=2)
    t.report(table, [4, 3, 2, 1])
    assert table.points == (0.0, 1.0, 3.0, 5.0) and t.bye_points == 2.0


def test_a_forfeit_scores_nothing() -> None:
    t = Tournament("block", format="swiss", rounds=1)
    for name in "AB":
        t.add(name)
    t.start()
    (game,) = t.pair()
    t.report(game, [2, 1], forfeit=[game.entries[0]])
    assert game.points == (0.0, 1.0) and game.forfeit == (game.entries[0],)


def test_an_arena_win_is_two_a_draw_one_and_two_wins_in_a_row_set_it_on_fire() -> None:
    t = Tournament("block", format="arena", duration_s=600)
    for name in "AB":
        t.add(name)
    t.start(now=0.0)
    got = []
    for clock, places in enumerate(([1, 2], [1, 2], [1, 2], [1, 1], [1, 2], [2, 1])):
        (game,) = t.pair_arena(now=float(clock))
        a = game.entries.index(0)
        t.report(game, places if a == 0 else places[::-1])
        assert game.points is not None
        got.append(game.points[a])
    # win 2, win 2, on fire: win 4, a draw on fire 2 (and the fire is out), win 2, loss 0
    assert got == [2.0, 2.0, 4.0, 2.0, 2.0, 0.0]
    a, b = sorted(t.standings(), key=lambda s: s.entry.id)
    assert (a.points, a.wins, a.tiebreaks["streak"]) == (12.0, 4.5, 0.0)
    assert (b.points, b.tiebreaks["streak"]) == (3.0, 1.0)


def test_a_four_player_arena_scales_the_places_so_a_win_is_two() -> None:
    t = Tournament("kozel", players=4, format="arena", duration_s=600)
    for name in "ABCD":
        t.add(name)
    t.start(now=0.0)
    (game,) = t.pair_arena(now=0.0)
    t.report(game, [1, 2, 3, 4])
    assert game.points == pytest.approx((2.0, 4 / 3, 2 / 3, 0.0))


def test_a_knockout_ranks_by_how_far_each_went() -> None:
    t = Tournament("block", format="knockout")
    for i in range(4):
        t.add(f"p{i}", rating=-i)
    t.start()
    for p in t.pair():
        t.report(p, [2, 1])  # the lower seeds win: 3 and 2 go on
    (final,) = t.pair()
    t.report(final, [1, 2])
    table = [(s.rank, s.entry.id, s.out) for s in t.standings()]
    assert table[:2] == [(1, final.entries[0], None), (2, final.entries[1], 2)]
    assert {row[0] for row in table[2:]} == {3} and {row[2] for row in table[2:]} == {1}


# -- refusals ---------------------------------------------------------------------------------


def code(call: Callable[[], object]) -> str | None:
    with pytest.raises(TournamentError) as refused:
        call()
    return refused.value.code


def test_a_tournament_is_refused_an_unknown_format_and_a_format_without_its_length() -> None:
    assert code(lambda: Tournament("block", format="ladder")) == "unknown_format"
    assert code(lambda: Tournament("block", format="swiss")) == "rounds_needed"
    assert code(lambda: Tournament("block", format="swiss", rounds=0)) == "rounds_needed"
    # a length the format does not take is said as such, not as one missing
    assert code(lambda: Tournament("block", format="knockout", rounds=3)) == "rounds_unused"
    assert code(lambda: Tournament("block", format="arena", rounds=3)) == "rounds_unused"
    assert code(lambda: Tournament("block", format="arena")) == "duration_needed"
    assert code(lambda: Tournament("block", format="arena", duration_s=0)) == "duration_needed"
    assert code(lambda: Tournament("block", format="round_robin", duration_s=9)) == (
        "duration_unused"
    )
    assert code(lambda: Tournament("block", format="swiss", rounds=2, duration_s=9)) == (
        "duration_unused"
    )


def test_a_tournament_is_refused_a_bad_game_teams_without_teams_and_bad_place_points() -> None:
    assert code(lambda: Tournament("blok", format="round_robin")) == "tournament_game"
    assert code(lambda: Tournament("kozel", players=7, format="round_robin")) == ("tournament_game")
    assert code(lambda: Tournament("kozel", format="round_robin", teams=True)) == "no_teams"
    assert code(lambda: Tournament("block", format="round_robin", place_points=(1,))) == (
        "place_points"
    )
    team = Tournament("kozel-team", format="round_robin", teams=True)
    assert team.sides == 2
    assert code(lambda: team.add("Masha")) == "team_members"
    assert team.add("Masha & Petya", members=("Masha", "Petya")).members == ("Masha", "Petya")
    assert team.add("greedy", bot="greedy").bot == "greedy"


def test_too_few_entries_cannot_start_and_a_started_field_is_closed() -> None:
    t = Tournament("kozel", players=4, format="round_robin")
    for name in "ABC":
        t.add(name)
    assert code(t.start) == "too_few"
    t.add("D")
    t.start()
    assert code(t.start) == "started"
    assert code(lambda: t.add("E")) == "closed"
    assert code(lambda: t.withdraw(0)) == "closed"
    assert code(lambda: t.withdraw(9)) == "no_entry"


def test_a_round_is_paired_after_the_last_has_its_results_and_none_after_the_end() -> None:
    t = Tournament("block", format="swiss", rounds=1)
    for name in "ABC":
        t.add(name)
    assert code(t.pair) == "not_started"
    t.start()
    game, bye = t.pair()
    assert code(t.pair) == "round_unfinished"
    assert code(lambda: t.report(bye, [1, 2])) == "bye_report"
    assert code(lambda: t.report(game, [1])) == "places_count"
    assert code(lambda: t.report(game, [1, 3])) == "places_range"
    assert code(lambda: t.report(game, [1, 2], forfeit=[bye.entries[0]])) == "forfeit_entry"
    stranger = Pairing(round=5, board=1, entries=(0, 1))
    assert code(lambda: t.report(stranger, [1, 2])) == "not_pairing"
    t.report(game, [1, 2])
    assert code(lambda: t.report(game, [2, 1])) == "reported"
    assert t.over and code(t.pair) == "over"
    assert code(lambda: t.pair_arena(0.0)) == "pair_format"


def test_a_withdrawal_before_the_start_leaves_the_entry_out_of_the_standings() -> None:
    t = Tournament("block", format="round_robin")
    for name in "ABC":
        t.add(name)
    t.withdraw(1)
    assert code(lambda: t.withdraw(1)) == "withdrawn"
    t.start()
    assert [p.entries for p in t.pair()] == [(0, 2)]
    assert [s.entry.name for s in t.standings()] == ["A", "C"]
