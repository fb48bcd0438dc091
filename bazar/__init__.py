"""bazar: a domino club. One rules engine for every game, bots, a terminal client, a server.

>>> import bazar
>>> rnd = bazar.Round(bazar.rules("block"), seed=7)
>>> while not rnd.is_over():
...     rnd.push(rnd.legal_moves()[0])
>>> rnd.outcome().reason in ("out", "fish")
True

The package is layered (lower layers never import upper ones): :mod:`bazar.core` (tiles,
moves, rules, the round, views, matches, records), :mod:`bazar.games` (each family of
games), :mod:`bazar.bots`, then the arena and ratings, and on top the terminal
(:mod:`bazar.cli`) and the club server (:mod:`bazar.club`).
"""

from __future__ import annotations

# first: where BAZAR_PURE asks for it, the hot path's pure Python is found before any of it
# is imported (bazar.hotpath)
from . import hotpath

# isort: split
from . import bots, games, rating
from .core import record
from .core.errors import BadRecord, IllegalMove, MatchOver, UnknownOption, UnknownVariant
from .core.ledger import Ledger, MatchResult
from .core.match import Match
from .core.moves import Move
from .core.outcome import Outcome
from .core.play import play
from .core.round import Round
from .core.rules import ALIASES, VARIANTS, Rules, rules
from .core.tiles import Tile, tile_set
from .core.view import View

__all__ = [
    "ALIASES",
    "VARIANTS",
    "BadRecord",
    "IllegalMove",
    "Ledger",
    "Match",
    "MatchOver",
    "MatchResult",
    "Move",
    "Outcome",
    "Round",
    "Rules",
    "Tile",
    "UnknownOption",
    "UnknownVariant",
    "View",
    "bots",
    "games",
    "hotpath",
    "play",
    "rating",
    "record",
    "rules",
    "tile_set",
]

__version__ = "0.1.0"
