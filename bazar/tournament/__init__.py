"""Tournaments: the yard's round-robin, Swiss, knock-out and Lichess-style arenas, for
players and for 2x2 teams, on tables of two, three or four sides.

The library pairs and keeps the score; who plays the matches is the caller's (the club's
director, the command line's bots), which reports each table's places:

>>> from bazar.tournament import Tournament
>>> t = Tournament("block", format="swiss", rounds=2)
>>> for name in ("Masha", "Petya", "Vanya", "Olya"):
...     _ = t.add(name)
>>> t.start()
>>> [p.entries for p in t.pair()]
[(0, 2), (3, 1)]
>>> t.report(t.pairings[0], [1, 2]); t.report(t.pairings[1], [1, 1])
>>> [(s.rank, s.entry.name, s.points) for s in t.standings()]
[(1, 'Masha', 1.0), (2, 'Petya', 0.5), (2, 'Olya', 0.5), (4, 'Vanya', 0.0)]

It is its own import (``import bazar`` does not load it). docs/tournaments.md tells the
formats, the points, the byes and the tie-breaks.
"""

from __future__ import annotations

from .model import Entry, Pairing, Standing, TournamentError
from .record import dumps, loads, places
from .tournament import FILLER_BOT, FORMATS, Tournament

__all__ = [
    "FILLER_BOT",
    "FORMATS",
    "Entry",
    "Pairing",
    "Standing",
    "Tournament",
    "TournamentError",
    "dumps",
    "loads",
    "places",
]
