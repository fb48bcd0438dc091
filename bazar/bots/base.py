"""The bot protocol and registry: :class:`Bot`, :func:`make`, :func:`names`.

Every bot answers :meth:`Bot.choose` with one of the legal moves of a :class:`~bazar.View`,
and draws whatever chance it needs from its own seeded :class:`random.Random`, so the same
seed and the same views give the same moves.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar, TypeVar

from bazar.core.errors import UnknownBot
from bazar.core.moves import Move
from bazar.core.view import View

__all__ = [
    "BOTS",
    "HIDDEN",
    "Bot",
    "UnknownBot",
    "register",
    "think",
]


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
    #: a bot whose move costs about a microsecond, in every game (the random one, the
    #: greedy one): the server asks it on its event loop, since handing it to a thread and
    #: back would cost a hundred times its answer
    quick: ClassVar[bool] = False

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
