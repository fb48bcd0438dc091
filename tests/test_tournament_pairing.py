"""bazar.tournament's pairing: each format seats its entries as docs/tournaments.md says, on
fields made by hand; and on random fields and results, nobody plays twice in a round, the
standings' points are what the tables gave, and the JSON gives the same standings back."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bazar.tournament import FORMATS, Pairing, Tournament, TournamentError


def field(t: Tournament, count: int) -> Tournament:
    """``count`` entries, the first the highest rated (seed 1), then started."""
    for i in range(count):
        t.add(f"p{i}", rating=1000.0 - i, members=("a", "b") if t.teams else ())
    t.start(now=0.0)
    return t


def games(pairings: list[Pairing]) -> list[tuple[int, ...]]:
    return [p.entries for p in pairings if not p.bye]


def byes(pairings: list[Pairing]) -> list[int]:
    return [p.entries[0] for p in pairings if p.bye]


def win(t: Tournament, p: Pairing, winner: int) -> None:
    """``winner`` takes the first place at ``p``, the others share the last."""
    t.report(p, [1 if e == winner else 2 for e in p.entries])


# -- Swiss ------------------------------------------------------------------------------------


def test_the_first_swiss_round_pairs_the_top_half_against_the_bottom_half() -> None:
    t = field(Tournament("block", format="swiss", rounds=3), 8)
    assert games(t.pair()) == [(0, 4), (5, 1), (2, 6), (7, 3)]


def test_swiss_repeats_no_pairing_while_another_is_possible() -> None:
    t = field(Tournament("block", format="swiss", rounds=3), 4)
    first = t.pair()
    assert games(first) == [(0, 2), (3, 1)]
    win(t, first[0], 0)
    win(t, first[1], 1)
    second = t.pair()  # the score groups {0, 1} and {2, 3}
    assert sorted(map(sorted, games(second))) == [[0, 1], [2, 3]]
    t.report(second[0], [1, 1])
    win(t, second[1], 2)
    # 0 and 1 lead with 1.5, but met; 0 met 2 too: the one pairing without a repeat is
    # 0-3 and 1-2, though the score order would put 0 with 1 and 2 with 3
    third = t.pair()
    assert sorted(map(sorted, games(third))) == [[0, 3], [1, 2]]


def test_swiss_gives_the_bye_to_the_lowest_score_without_a_previous_bye() -> None:
    t = field(Tournament("block", format="swiss", rounds=3), 5)
    first = t.pair()
    assert games(first) == [(0, 2), (3, 1)] and byes(first) == [4]
    win(t, first[0], 0)
    win(t, first[1], 1)
    second = t.pair()  # 2 and 3 have nothing; 3 is rated lower
    assert byes(second) == [3]
    for p in second:
        if not p.bye:
            win(t, p, min(p.entries, key=lambda e: {0: 0, 2: 1}.get(e, 2)))
    points = {s.entry.id: s.points for s in t.standings()}
    assert points == {0: 2.0, 1: 1.0, 2: 1.0, 3: 1.0, 4: 1.0}
    # the four on one point, lowest rated first: 4 and 3 had a bye, so 2 has it
    assert byes(t.pair()) == [2]


def test_swiss_between_rounds_takes_a_late_entry_and_lets_one_withdraw() -> None:
    t = field(Tournament("block", format="swiss", rounds=2), 4)
    first = t.pair()
    with pytest.raises(TournamentError) as refused:
        t.add("late")
    assert refused.value.code == "closed"
    for p in first:
        win(t, p, p.entries[0])
    t.withdraw(1)
    late = t.add("late")
    second = t.pair()
    seated = {e for p in second for e in p.entries}
    assert 1 not in seated and late.id in seated and len(seated) == 4
    assert any(s.entry.id == 1 for s in t.standings())  # his game stays


def test_swiss_tables_of_four_avoid_repeated_meetings() -> None:
    t = field(Tournament("kozel", players=4, format="swiss", rounds=2), 8)
    first = t.pair()
    assert games(first) == [(0, 2, 4, 6), (1, 3, 5, 7)]
    for p in first:
        t.report(p, [1, 2, 3, 4])
    second = t.pair()
    met = {frozenset(pair) for p in first for pair in combinations(p.entries, 2)}
    assert all(
        sum(frozenset(pair) in met for pair in combinations(p.entries, 2)) <= 2 for p in second
    )
    # the two winners (0 and 1) open the first table of the second round
    assert set(second[0].entries) >= {0, 1}


def test_swiss_tables_of_four_meet_nobody_twice_while_a_round_can_avoid_it() -> None:
    # sixteen at four tables: three rounds in which no two meet again exist (and more)
    t = field(Tournament("kozel", players=4, format="swiss", rounds=3), 16)
    met: Counter[frozenset[int]] = Counter()
    while not t.over:
        for p in t.pair():
            met.update(frozenset(pair) for pair in combinations(p.entries, 2))
            t.report(p, [1, 2, 3, 4])
    assert len(met) == 3 * 4 * 6 and set(met.values()) == {1}


# -- round-robin ------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [4, 5, 8])
def test_round_robin_meets_everyone_with_everyone_exactly_once(count: int) -> None:
    t = field(Tournament("block", format="round_robin"), count)
    met: Counter[frozenset[int]] = Counter()
    while not t.over:
        pairings = t.pair()
        seated = [e for p in pairings for e in p.entries]
        assert sorted(seated) == list(range(count))
        for p in pairings:
            if not p.bye:
                met[frozenset(p.entries)] += 1
                win(t, p, p.entries[0])
    assert t.round_number() == t.planned_rounds() == (count - 1 if count % 2 == 0 else count)
    assert met == Counter({frozenset(pair): 1 for pair in combinations(range(count), 2)})
    assert t.standings()[0].played == count - 1


def test_round_robin_turns_the_sides_round_by_round() -> None:
    t = field(Tournament("block", format="round_robin"), 6)
    first: Counter[int] = Counter()
    for rnd in t.schedule():
        first.update(table[0] for table in rnd)
    assert set(first.values()) <= {2, 3}  # five games each: two or three on the first side


def test_a_second_cycle_of_round_robin_turns_each_table_round() -> None:
    t = field(Tournament("block", format="round_robin", rounds=6), 4)
    rounds = []
    while not t.over:
        pairings = t.pair()
        rounds.append(games(pairings))
        for p in pairings:
            win(t, p, p.entries[0])
    assert len(rounds) == 6
    assert rounds[3:] == [[g[::-1] for g in r] for r in rounds[:3]]


@pytest.mark.parametrize("count", [8, 10])
def test_round_robin_of_four_player_kozel_meets_every_pair_at_least_once(count: int) -> None:
    t = field(Tournament("kozel", players=4, format="round_robin"), count)
    met: set[frozenset[int]] = set()
    while not t.over:
        pairings = t.pair()
        seated = [e for p in pairings for e in p.entries]
        assert sorted(seated) == list(range(count))
        assert all(len(p.entries) == 4 for p in pairings if not p.bye)
        assert len(byes(pairings)) == count % 4
        for p in pairings:
            met.update(frozenset(pair) for pair in combinations(p.entries, 2))
            if not p.bye:
                t.report(p, [1, 2, 3, 4])
    assert met == {frozenset(pair) for pair in combinations(range(count), 2)}
    assert t.round_number() <= (3 if count == 8 else 6)


def test_a_round_robin_of_tables_is_the_same_for_the_same_seed() -> None:
    def schedule(seed: int) -> list[list[tuple[int, ...]]]:
        return field(Tournament("kozel", players=4, format="round_robin", seed=seed), 10).schedule()

    assert schedule(3) == schedule(3)


# -- knock-out --------------------------------------------------------------------------------


def play_bracket(t: Tournament) -> list[list[tuple[int, ...]]]:
    """The bracket played out, the higher seed (the lower id) winning every game."""
    rounds = []
    while not t.over:
        pairings = t.pair()
        rounds.append([p.entries for p in pairings])
        for p in pairings:
            if not p.bye:
                win(t, p, min(p.entries))
    return rounds


def test_a_knockout_of_eight_has_no_byes_and_the_first_seeds_meet_in_the_final() -> None:
    rounds = play_bracket(field(Tournament("block", format="knockout"), 8))
    assert rounds == [
        [(0, 7), (3, 4), (1, 6), (2, 5)],
        [(0, 3), (1, 2)],
        [(0, 1)],
    ]


def test_a_knockout_of_five_gives_byes_to_the_three_top_seeds() -> None:
    rounds = play_bracket(field(Tournament("block", format="knockout"), 5))
    assert rounds == [[(0,), (3, 4), (1,), (2,)], [(0, 3), (1, 2)], [(0, 1)]]


def test_a_knockout_of_thirteen_fills_a_bracket_of_sixteen() -> None:
    t = field(Tournament("block", format="knockout"), 13)
    assert t.planned_rounds() == 4
    rounds = play_bracket(t)
    assert rounds[0] == [(0,), (7, 8), (3, 12), (4, 11), (1,), (6, 9), (2,), (5, 10)]
    assert rounds[1:] == [[(0, 7), (3, 4), (1, 6), (2, 5)], [(0, 3), (1, 2)], [(0, 1)]]
    table = {s.entry.id: (s.rank, s.out) for s in t.standings()}
    assert table[0] == (1, None) and table[1] == (2, 4)
    assert table[2] == table[3] == (3, 3) and table[12] == (9, 1)


def test_a_drawn_knockout_game_sends_the_higher_seed_on() -> None:
    t = field(Tournament("block", format="knockout"), 2)
    (final,) = t.pair()
    t.report(final, [1, 1])
    assert t.advancing(final) == 0 and t.over
    assert [(s.entry.id, s.out) for s in t.standings()] == [(0, None), (1, 1)]


def test_a_knockout_sends_on_who_showed_up_whatever_the_places_say() -> None:
    t = field(Tournament("block", format="knockout"), 2)
    (final,) = t.pair()
    t.report(final, [1, 2], forfeit=[0])
    assert t.advancing(final) == 1


def test_a_knockout_table_short_of_entries_is_filled_with_bots_who_never_go_on() -> None:
    t = field(Tournament("kozel", players=4, format="knockout"), 5)
    first = t.pair()
    # a bracket of 16: seeds 1, 8, 9, 16 at the first table ... 4, 5, 12, 13 at the last
    assert [p.entries for p in first] == [(0,), (1,), (2,), (3, 4)]
    assert [p.bye for p in first] == [True, True, True, False]
    assert t.seats(first[3]) == (3, 4, None, None) and t.planned_rounds() == 2
    t.report(first[3], [4, 3, 1, 2])  # a bot first, entry 4 above entry 3
    assert t.advancing(first[3]) == 4
    (final,) = t.pair()
    assert final.entries == (0, 1, 2, 4)


# -- arena ------------------------------------------------------------------------------------


def test_an_arena_pairs_whoever_waits_and_not_the_last_opponent_again() -> None:
    t = field(Tournament("block", format="arena", duration_s=60), 3)
    (game,) = t.pair_arena(now=0.0)
    assert game.entries == (0, 1)
    assert t.pair_arena(now=1.0) == []  # 2 waits alone
    win(t, game, 0)
    (again,) = t.pair_arena(now=2.0)
    assert set(again.entries) == {0, 2}  # 0 and 1 just met; 2 waits


def test_an_arena_pairs_nobody_once_its_time_is_up() -> None:
    t = field(Tournament("block", format="arena", duration_s=60), 4)
    pairings = t.pair_arena(now=0.0)
    for p in pairings:
        win(t, p, p.entries[0])
    assert not t.over
    assert t.pair_arena(now=60.0) == [] and t.over
    with pytest.raises(TournamentError) as refused:
        t.add("late")
    assert refused.value.code == "over"


# -- every format, random fields --------------------------------------------------------------

GAMES = [("block", None, False), ("kozel", 3, False), ("kozel", 4, False), ("texas-42", None, True)]


def run(t: Tournament, data: st.DataObject) -> None:
    """Pair and report random places until the tournament is over."""
    clock = 0.0
    for _ in range(40):
        if t.over:
            return
        if t.format == "arena":
            clock += 10.0
            t.pair_arena(now=clock)
        else:
            t.pair()
        for p in t.pairings:
            if not p.done:
                places = data.draw(
                    st.lists(st.integers(1, t.sides), min_size=t.sides, max_size=t.sides)
                )
                t.report(p, places, now=clock)
    assert t.format == "arena" or t.over


@settings(max_examples=60, deadline=None)
@given(
    game=st.sampled_from(GAMES),
    format=st.sampled_from(FORMATS),
    count=st.integers(2, 11),
    seed=st.integers(0, 3),
    data=st.data(),
)
def test_on_random_fields_nobody_plays_twice_a_round_and_the_points_add_up(
    game: tuple[str, int | None, bool], format: str, count: int, seed: int, data: st.DataObject
) -> None:
    name, players, teams = game
    t = Tournament(
        name,
        players=players,
        format=format,
        teams=teams,
        seed=seed,
        rounds=3 if format == "swiss" else None,
        duration_s=100.0 if format == "arena" else None,
    )
    if count < t.sides:
        with pytest.raises(TournamentError):
            field(t, count)
        return
    run(field(t, count), data)
    for number in range(1, t.round_number() + 1):
        seated = [e for p in t.pairings if p.round == number for e in p.entries]
        assert len(seated) == len(set(seated))
        assert all(1 <= len(p.entries) <= t.sides for p in t.pairings)
    standings = t.standings()
    given_out = sum(sum(p.points or ()) for p in t.pairings)
    assert sum(s.points for s in standings) == pytest.approx(given_out)
    assert len(standings) == count
    assert Tournament.from_json(t.to_json()).standings() == standings
    if format == "knockout":
        assert [s.out for s in standings].count(None) == 1 == standings[0].rank
        assert t.round_number() == t.planned_rounds()


def repeat_free_exists(entries: list[int], met: set[frozenset[int]]) -> bool:
    """Whether ``entries`` (an even number) pair off with no two that met: by brute force."""
    if not entries:
        return True
    first, rest = entries[0], entries[1:]
    return any(
        frozenset((first, o)) not in met and repeat_free_exists([e for e in rest if e != o], met)
        for o in rest
    )


@settings(max_examples=80, deadline=None)
@given(count=st.integers(4, 9), rounds=st.integers(2, 8), data=st.data())
def test_swiss_repeats_a_pairing_only_where_every_pairing_would(
    count: int, rounds: int, data: st.DataObject
) -> None:
    t = field(Tournament("block", format="swiss", rounds=rounds), count)
    while not t.over:
        met = {frozenset(p.entries) for p in t.pairings if not p.bye}
        pairings = t.pair()
        if any(not p.bye and frozenset(p.entries) in met for p in pairings):
            ids = list(range(count))
            if count % 2:
                assert not any(repeat_free_exists([e for e in ids if e != bye], met) for bye in ids)
            else:
                assert not repeat_free_exists(ids, met)
        for p in pairings:
            if not p.bye:
                t.report(p, data.draw(st.sampled_from([[1, 2], [2, 1], [1, 1]])))
