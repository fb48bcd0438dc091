"""Bots: players that are programs. A bot sees what its seat may know and nothing else.

>>> import bazar
>>> from bazar import bots
>>> rnd = bazar.Round(bazar.rules("block"), seed=1)
>>> players = [bots.make("greedy", seed=1), bots.make("random", seed=2)]
>>> while not rnd.is_over():
...     view = rnd.view(rnd.turn)
...     rnd.push(players[rnd.turn].choose(view, view.legal))
>>> rnd.outcome().reason in ("out", "fish")
True

Every bot answers :meth:`Bot.choose` with one of the legal moves of a :class:`~bazar.View`,
and draws whatever chance it needs from its own seeded :class:`random.Random`, so the same
seed and the same views give the same moves.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar, TypeVar

from .notation import Move
from .view import View

__all__ = [
    "BOTS",
    "HIDDEN",
    "Bot",
    "GreedyBot",
    "RandomBot",
    "UnknownBot",
    "make",
    "names",
    "register",
    "think",
]


class UnknownBot(ValueError):
    """No bot has that name."""


class Bot:
    """The protocol: ``choose(view, legal) -> Move``. ``rng`` is the bot's own generator."""

    #: the name the registry knows the bot by
    name: ClassVar[str] = ""
    #: whether ``make("name@budget")`` may give it a budget
    takes_budget: ClassVar[bool] = False
    #: a bot that must be given the full round (:meth:`choose_round`): measurement only
    sees_all: ClassVar[bool] = False
    #: a bot whose moves cost real CPU (a search): the server thinks them in another process,
    #: so that one searching bot does not slow every other table through the interpreter lock
    searches: ClassVar[bool] = False

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        """One of ``legal``, the moves of ``view.seat`` in the position ``view`` shows."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


def think(bot: Bot, view: View, legal: Sequence[Move]) -> tuple[Move, Bot]:
    """``bot``'s move and the bot after choosing it (its random source moved on): what a
    worker process sends back, so that a bot thought elsewhere goes on exactly as at home."""
    return bot.choose(view, legal), bot


#: Every bot by name.
BOTS: dict[str, type[Bot]] = {}

B = TypeVar("B", bound=type[Bot])


def register(cls: B) -> B:
    """Class decorator: make a bot known to :func:`make` by its ``name``."""
    BOTS[cls.name] = cls
    return cls


#: Bots that :func:`make` builds but no player is offered (``omniscient`` peeks).
HIDDEN: dict[str, type[Bot]] = {}


def names() -> list[str]:
    """The names of every bot offered to players, weakest first."""
    return list(BOTS)


def make(name: str, seed: int | None = None) -> Bot:
    """A new bot called ``name`` (``random``, ``greedy``, ...) with its own seed.
    ``level@budget`` gives a searching bot a budget (``pimc@200`` playouts, ``pimc@50ms``);
    ``cmd:PROGRAM ARGS`` runs an external bot (:mod:`bazar.external`).

    >>> make("greedy", seed=3)
    GreedyBot(seed=3)
    """
    if isinstance(name, str) and name.strip().startswith("cmd:"):
        from .external import CommandBot

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


@register
class RandomBot(Bot):
    """Any legal move, uniformly at random."""

    name = "random"

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        # rng.random() is the one draw Python keeps the same across versions
        return legal[int(self.rng.random() * len(legal))]


def _weight(move: Move) -> tuple[int, bool]:
    tile = move.tile
    return (-1, False) if tile is None else (tile.pips, tile.is_double)


@register
class GreedyBot(Bot):
    """The heaviest tile first (a double before a single of the same weight), to be caught
    with as few pips as possible; a draw or a pass only when nothing can be played. In the
    games scored during play, the largest immediate score first (then the heaviest tile)."""

    name = "greedy"

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        if view.rules.variant.score is None or len(legal) == 1:
            return max(legal, key=_weight)
        scores = _immediate_scores(view, legal, self.rng)
        return max(legal, key=lambda move: (scores.get(move, 0), _weight(move)))


def _immediate_scores(view: View, legal: Sequence[Move], rng: random.Random) -> dict[Move, int]:
    """What each move scores at once. The score of a play depends only on the table, so
    any deal consistent with the view gives it (hidden tiles are sampled, never read)."""
    from .search import determinize

    rnd = determinize(view, rng)
    if rnd is None:
        return {}
    seat = view.seat
    out = {}
    for move in legal:
        before = len(rnd.scoring())
        try:
            rnd.push(move)
        except ValueError:
            continue
        out[move] = sum(p for s, p in rnd.scoring()[before:] if s == seat)
        rnd.pop()
    return out


# the stronger levels live in their own modules and register themselves here
from . import mcts as _mcts  # noqa: E402

HIDDEN["omniscient"] = _mcts.OmniscientBot
HIDDEN["ismcts-round"] = _mcts.RoundIsmctsBot
