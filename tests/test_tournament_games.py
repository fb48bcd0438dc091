"""Every game on main plays every format of tournament, between bots: for players, and for
2x2 teams where the game has teams. Each match's record replays to the places reported, and
the standings add up to what the matches and the byes gave."""

from __future__ import annotations

import pytest

import bazar
from bazar.core import record
from bazar.tournament import FORMATS, Tournament, places
from bazar.tournament.play import run

GAMES = sorted(bazar.VARIANTS)
TEAM_GAMES = [name for name in GAMES if bazar.rules(name).teams]


def _field(t: Tournament, count: int) -> Tournament:
    for i in range(count):
        t.add(f"random#{i + 1}", bot="random", rating=float(count - i))
    return t


def _tournament(game: str, format: str, teams: bool = False) -> Tournament:
    kind = {"swiss": {"rounds": 2}, "arena": {"duration_s": 600.0}}.get(format, {})
    t = Tournament(game, format=format, teams=teams, seed=7, **kind)  # type: ignore[arg-type]
    # one entry more than a table seats: a bye (or a knock-out's filler bots) every round
    return _field(t, t.sides + 1)


def _checked(t: Tournament) -> None:
    assert t.over
    played = [p for p in t.pairings if not p.bye]
    assert played, "no match was played"
    for pairing in played:
        assert pairing.record is not None and pairing.places is not None
        match = record.loads(pairing.record)
        assert match.is_over()
        assert places(match, t.sides) == pairing.places
    # each round, an entry sits at one table at most
    by_round: dict[int, list[int]] = {}
    for pairing in t.pairings:
        by_round.setdefault(pairing.round, []).extend(pairing.entries)
    if t.format != "arena":
        for entries in by_round.values():
            assert len(entries) == len(set(entries))
    given = sum(sum(p.points or ()) for p in t.pairings)
    assert sum(s.points for s in t.standings()) == pytest.approx(given)


@pytest.mark.parametrize("format", FORMATS)
@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_every_format_between_bots(game: str, format: str) -> None:
    t = run(_tournament(game, format))
    _checked(t)


@pytest.mark.parametrize("format", FORMATS)
@pytest.mark.parametrize("game", TEAM_GAMES)
def test_every_team_game_plays_every_format_for_2x2_teams(game: str, format: str) -> None:
    t = run(_tournament(game, format, teams=True))
    assert t.sides == 2
    _checked(t)
    # a team entry holds both seats of its side in every match
    for pairing in t.pairings:
        if not pairing.bye:
            seats = t.seats(pairing)
            for side, entry in enumerate(pairing.entries):
                assert [seats[s] for s in t.rules.teams[side]] == [entry, entry]
