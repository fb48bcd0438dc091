"""bazar: a domino club. One rules engine for every game, bots, a terminal client, a server.

>>> import bazar
>>> rnd = bazar.Round(bazar.rules("block"), seed=7)
>>> while not rnd.is_over():
...     rnd.push(rnd.legal_moves()[0])
>>> rnd.outcome().reason in ("out", "fish")
True
"""

from __future__ import annotations

# the game modules register their variants (and the bots their levels)
from . import (  # noqa: F401
    bergen,
    bots,
    chicken_foot,
    cross,
    fives,
    kolbasa,
    kozel,
    osel,
    poker,
    rating,
    record,
    sea_kozel,
    telephone,
    trains,
    trick,
)
from .errors import BadRecord, IllegalMove, MatchOver, UnknownOption, UnknownVariant
from .match import Ledger, Match, MatchResult
from .notation import Move
from .round import Outcome, Round
from .rules import ALIASES, VARIANTS, Rules, rules
from .tiles import Tile, tile_set
from .view import View

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
    "rating",
    "record",
    "rules",
    "tile_set",
]

__version__ = "0.1.0"
