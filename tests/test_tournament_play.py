"""``bazar.tournament.play``: bot tournaments played out through the seat loop, the same on
one process, on several, and for an arena on its virtual clock."""

from __future__ import annotations

import itertools

import pytest

import bazar
from bazar.tournament import FILLER_BOT, Tournament
from bazar.tournament.play import MOVE_S, game_of, play_game, run


def _field(t: Tournament, *levels: str) -> Tournament:
    for n, level in enumerate(levels):
        t.add(f"{level}#{n}", bot=level)
    return t


def test_each_game_is_seeded_by_the_tournament_the_round_and_the_board() -> None:
    t = _field(Tournament("block", format="swiss", rounds=2, seed=3), "greedy", "random")
    t.start()
    [pairing] = t.pair()
    game = game_of(t, pairing)
    played = play_game(game)
    again = play_game(game_of(t, pairing))
    assert played == again
    match = bazar.record.loads(played.record)
    assert match.seed == bazar.core.round.deal_seed("tournament:3:1", 1) % 2**63
    assert sum(len(r.moves) for r in match.rounds) == played.moves
    other = _field(Tournament("block", format="swiss", rounds=2, seed=4), "greedy", "random")
    other.start()
    assert play_game(game_of(other, other.pair()[0])).record != played.record


def test_a_team_entry_plays_both_seats_of_its_side() -> None:
    t = Tournament("kozel-team", format="round_robin", teams=True)
    for level in ("greedy", "random", "pimc"):
        t.add(level, members=(f"{level} 1", f"{level} 2"), bot=level)
    t.start()
    pairing = next(p for p in t.pair() if not p.bye)
    game = game_of(t, pairing)
    assert game.seats == (0, 1, 0, 1)
    assert game.bots == tuple(t.entries[e].bot for e in pairing.entries)
    assert tuple(pairing.entries[side] for side in game.seats) == t.seats(pairing)


def test_a_knockout_table_short_of_entries_is_filled_with_bots() -> None:
    levels = ("pimc", "heuristic", "random", "greedy", "random")
    t = _field(Tournament("kozel", players=4, format="knockout"), *levels)
    t.start()
    [table] = [p for p in t.pair() if not p.bye]
    game = game_of(t, table)
    assert len(table.entries) == 2
    assert game.bots == (*(levels[e] for e in table.entries), FILLER_BOT, FILLER_BOT)
    assert game.seats == (0, 1, 2, 3)
    run(t)
    assert t.over and len(t.pairings[table.board - 1].places or ()) == 4


def test_every_game_is_told_to_progress_and_the_tournament_ends_over() -> None:
    heard: list[tuple[int, int]] = []
    t = _field(Tournament("block", format="round_robin", seed=1), "greedy", "random", "greedy")
    run(t, progress=lambda done, total: heard.append((done, total)))
    games = [p for p in t.pairings if not p.bye]
    assert t.over and len(games) == 3
    assert [done for done, _ in heard] == [1, 2, 3] and heard[-1] == (3, 3)
    assert all(p.record is not None for p in games)


def test_worker_processes_play_the_tournament_one_process_plays() -> None:
    def swiss() -> Tournament:
        t = Tournament("block", format="swiss", rounds=2, seed=5)
        return _field(t, "greedy", "random", "heuristic", "random")

    alone, spread = run(swiss()), run(swiss(), jobs=2)
    assert spread.to_json() == alone.to_json()


def test_an_arena_runs_on_its_virtual_clock_each_move_two_seconds() -> None:
    def arena() -> Tournament:
        t = Tournament("block", format="arena", duration_s=1800, seed=2)
        return _field(t, "greedy", "random", "heuristic", "random", "greedy")

    t = run(arena())
    assert t.over and t.to_json() == run(arena()).to_json()
    games = [p for p in t.pairings if not p.bye]
    assert len(games) > 5
    for p in games:
        moves = sum(len(r.moves) for r in bazar.record.loads(p.record or "").rounds)
        assert p.started is not None and p.finished is not None
        assert p.started < 1800
        assert p.finished - p.started == pytest.approx(moves * MOVE_S)
    # nobody plays two games at once, and whoever finished waits for nobody else
    for entry in t.entries:
        mine = sorted((p.started or 0, p.finished or 0) for p in games if entry.id in p.entries)
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(mine))


def test_a_person_in_the_field_is_refused_before_any_game() -> None:
    t = _field(Tournament("block", format="swiss", rounds=1), "greedy")
    t.add("Masha")
    with pytest.raises(ValueError, match="Masha"):
        run(t)
    assert not t.pairings
