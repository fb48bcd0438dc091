"""Deals that differ only in what one seat cannot see, for the view-leak tests of the train and
tree games."""

from __future__ import annotations

import random

from bazar import Move, Round
from bazar.core.tiles import Tile


def reshuffled(
    rnd: Round, seat: int, moves: list[Move], rng: random.Random
) -> tuple[list[list[Tile]], list[Tile]]:
    """The deal of ``rnd`` with the tiles ``seat`` never sees while ``moves`` are played (in
    the other hands and the bazar, never laid by another seat, never in the hand of ``seat``)
    shuffled among their places. A tile may reach that hand on another seat's move, which
    the history does not give to it (a Chicken Foot challenge's penalty tile, drawn by the
    offender on the challenger's move): the hand is read after every move."""
    game = rnd.copy()
    fixed: set[Tile] = set()
    for move in moves:
        game.push(move)
        fixed |= set(game.hands[seat])
    history = game.history()
    fixed |= {m.tile for s, m, _ in history if s != seat and m.tile is not None}
    fixed |= {t for s, _, t in history if s == seat and t is not None}
    hands = [list(h) for h in rnd.hands]
    pool = list(rnd.bazar)
    places = [(h, i) for s, h in enumerate(hands) if s != seat for i in range(len(h))]
    places += [(pool, i) for i in range(len(pool))]
    free = [(where, i) for where, i in places if where[i] not in fixed]
    tiles = [where[i] for where, i in free]
    rng.shuffle(tiles)
    for (where, i), tile in zip(free, tiles, strict=True):
        where[i] = tile
    return hands, pool
