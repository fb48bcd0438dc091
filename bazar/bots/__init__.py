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
from .base import BOTS, HIDDEN, Bot, UnknownBot, register, think
from .external import CommandBot
from .heuristic import HeuristicBot
from .mcts import IsmctsBot, OmniscientBot, PimcBot, RoundIsmctsBot
from .simple import GreedyBot, RandomBot

HIDDEN["omniscient"] = OmniscientBot
HIDDEN["ismcts-round"] = RoundIsmctsBot

__all__ = [
    "BOTS",
    "HIDDEN",
    "Bot",
    "CommandBot",
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


def names() -> list[str]:
    """The names of every bot offered to players, weakest first."""
    return list(BOTS)


def make(name: str, seed: int | None = None) -> Bot:
    """A new bot called ``name`` (``random``, ``greedy``, ...) with its own seed.
    ``level@budget`` gives a searching bot a budget (``pimc@200`` playouts, ``pimc@50ms``);
    ``cmd:PROGRAM ARGS`` runs an external bot (:mod:`bazar.bots.external`).

    >>> make("greedy", seed=3)
    GreedyBot(seed=3)
    """
    if isinstance(name, str) and name.strip().startswith("cmd:"):
        return CommandBot(name.strip()[4:], seed)
    key, _, budget = name.strip().lower().partition("@") if isinstance(name, str) else ("", "", "")
    cls = BOTS.get(key) or HIDDEN.get(key)
    if cls is None:
        raise UnknownBot(f"unknown bot {name!r}; bots: {', '.join(BOTS)}")
    if budget:
        if not getattr(cls, "takes_budget", False):
            raise UnknownBot(f"bot {key!r} takes no budget: {name!r}")
        try:
            return cls(seed, budget)  # type: ignore[call-arg]
        except ValueError as exc:
            raise UnknownBot(f"bad budget in {name!r}: {exc}") from None
    return cls(seed)
