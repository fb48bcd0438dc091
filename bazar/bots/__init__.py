"""Bots: players that are programs, weakest first. Each module registers its levels here.

>>> import bazar
>>> from bazar import bots
>>> rnd = bazar.Round(bazar.rules("block"), seed=1)
>>> players = [bots.make("greedy", seed=1), bots.make("random", seed=2)]
>>> while not rnd.is_over():
...     view = rnd.view(rnd.turn)
...     rnd.push(players[rnd.turn].choose(view, view.legal))
>>> rnd.outcome().reason in ("out", "fish")
True
"""

from __future__ import annotations

from . import heuristic, mcts, simple
from .base import BOTS, HIDDEN, Bot, UnknownBot, make, names, register, think
from .heuristic import HeuristicBot
from .mcts import IsmctsBot, OmniscientBot, PimcBot, RoundIsmctsBot
from .simple import GreedyBot, RandomBot

HIDDEN["omniscient"] = OmniscientBot
HIDDEN["ismcts-round"] = RoundIsmctsBot

__all__ = [
    "BOTS",
    "HIDDEN",
    "Bot",
    "GreedyBot",
    "HeuristicBot",
    "IsmctsBot",
    "OmniscientBot",
    "PimcBot",
    "RandomBot",
    "UnknownBot",
    "heuristic",
    "make",
    "mcts",
    "names",
    "register",
    "simple",
    "think",
]
