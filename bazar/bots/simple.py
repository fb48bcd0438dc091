"""The simple bots: ``random`` plays any legal move, ``greedy`` the heaviest tile (or the
largest immediate score where tiles score during play)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bazar.core.moves import Move
from bazar.core.view import View

from .base import Bot, register

__all__ = ["GreedyBot", "RandomBot"]


@register
class RandomBot(Bot):
    """Any legal move, uniformly at random."""

    name = "random"
    quick = True

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
    quick = True

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        if view.rules.variant.score is None or len(legal) == 1:
            return max(legal, key=_weight)
        scores = _immediate_scores(view, legal, self.rng)
        return max(legal, key=lambda move: (scores.get(move, 0), _weight(move)))


def _immediate_scores(view: View, legal: Sequence[Move], rng: random.Random) -> dict[Move, int]:
    """What each move scores at once. The score of a play depends only on the table, so
    any deal consistent with the view gives it (hidden tiles are sampled, never read)."""
    from .sampler import determinize

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
