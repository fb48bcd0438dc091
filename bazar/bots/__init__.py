"""Bots: players that are programs, weakest first. Each module registers its levels here.

A bot is a seat of the seat loop (:func:`bazar.play`): it answers its view with a move.

>>> import bazar
>>> from bazar import bots
>>> match = bazar.Match(bazar.rules("block"), seed=1)
>>> result = bazar.play(match, [bots.make("greedy", seed=1), bots.make("random", seed=2)])
>>> result.winners, match.ledger.scores
((1,), (73, 104))
"""

from __future__ import annotations

from bazar.core.errors import Names

from . import heuristic, mcts, simple
from .base import BOTS, HIDDEN, Bot, UnknownBot, register, think
from .external import CommandBot
from .heuristic import HeuristicBot
from .mcts import BlindIsmctsBot, IsmctsBot, OmniscientBot, PimcBot, RoundIsmctsBot
from .simple import GreedyBot, RandomBot

HIDDEN["omniscient"] = OmniscientBot
HIDDEN["ismcts-round"] = RoundIsmctsBot
HIDDEN["ismcts-blind"] = BlindIsmctsBot

__all__ = [
    "BOTS",
    "HIDDEN",
    "BlindIsmctsBot",
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
        raise UnknownBot.of("unknown_bot", name=name, known=Names(BOTS))
    if budget:
        if not getattr(cls, "takes_budget", False):
            raise UnknownBot.of("bot_budget", bot=key, name=name)
        try:
            # only a bot that takes_budget takes one, which Bot.__init__ cannot say
            return cls(seed, budget)  # type: ignore[call-arg]
        except ValueError as exc:
            raise UnknownBot.of("bot_bad_budget", name=name, reason=exc) from None
    return cls(seed)
