"""The fixed action ids and observation tensor of one game's rules, for learning agents.

Every move a round of some rules can ever offer has one id in ``range(num_actions)``: the
family declares them (``Round.move_space``), and an id means the same move in every
position where it is legal. An observation is one flat ``float32`` vector of what one seat
may know (its :class:`~bazar.View`): the layout is :meth:`Encoding.sections`, and
``docs/encoding.md`` lists it per family.

>>> import bazar
>>> rnd = bazar.Round(bazar.rules("block"), hands=[["6-6", "6-4"], ["4-1", "3-3"]],
...                   bazar=["2-2"], leader=0)
>>> enc = Encoding.of(rnd.rules)
>>> enc.num_actions, enc.legal_actions(rnd), [enc.action_name(a) for a in enc.legal_actions(rnd)]
(87, [75, 81], ['6-4', '6-6'])
>>> rnd.push(enc.move(81, rnd))
>>> enc.observe_round(rnd, 1).shape == enc.observation_shape
True
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from bazar.bots.sampler import Inference
from bazar.core.moves import Move, MoveSpace
from bazar.core.round import PLACEMENTS, Round
from bazar.core.rules import Rules
from bazar.core.view import View

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["Encoding", "IllegalAction", "Section"]

#: what a position is given as: a round, or the view of the seat to move
State = Round | View


class IllegalAction(ValueError):
    """An action id that is not legal in the position (the message names the legal ids)."""


@dataclass(frozen=True)
class Section:
    """One part of the observation vector: ``size`` numbers from ``start``."""

    name: str
    start: int
    size: int
    #: the shape the part reads as (rows by columns), and what it holds
    shape: tuple[int, ...]
    text: str


class _Tally:
    """What one round's moves showed, read as the round goes (absolute seats): who laid
    which tile, who made which other move, what the passes proved. An observer keeps one per
    round and reads only the moves pushed since."""

    __slots__ = ("count", "inference", "laid", "made", "scores", "stamp")

    def __init__(self, enc: Encoding) -> None:
        players = enc.num_players
        self.count = 0
        self.stamp: object = None
        self.inference = Inference(enc.rules)
        self.laid = np.zeros((players, len(enc.space.tiles)), np.float32)
        self.made = np.zeros((players, max(1, len(enc.space.others))), np.float32)
        self.scores: NDArray[np.float32] | None = None

    def read(self, enc: Encoding, moves: Sequence[tuple[int, Move]]) -> None:
        tile_index = enc._tile_index
        other_index = enc._other_index
        inference = self.inference
        laid = self.laid
        made = self.made
        i = self.count
        for seat, move in moves:
            tile = move.tile
            if tile is not None:
                if move.kind in PLACEMENTS or move.kind == "cut":
                    laid[seat, tile_index[tile]] = 1.0
            else:
                j = other_index.get(move)
                if j is not None:
                    made[seat, j] = 1.0
            inference.read(i, seat, move)
            i += 1
        self.count = i


class Encoding:
    """The action ids and the observation layout of ``rules``; build with :meth:`of`.

    Action ids: the tile moves first, ``(kind × tiles + tile) × ends + end`` in the
    family's order of kinds, tiles (``rules.tiles``) and ends, then the other moves (draw,
    pass, bids, ...) in the family's order. Observations: see :meth:`sections`.
    """

    _cache: ClassVar[dict[int, tuple[Rules, Encoding]]] = {}

    rules: Rules
    space: MoveSpace
    num_actions: int
    num_players: int
    observation_shape: tuple[int]

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        space = self.space = Round.played_by(rules).move_space(rules)
        self.num_players = players = rules.players
        self.num_actions = space.size
        tiles = space.tiles
        self._tile_index = {t: i for i, t in enumerate(tiles)}
        self._other_index = {m: i for i, m in enumerate(space.others)}
        self._kind_index = {k: i for i, k in enumerate(space.kinds)}
        ends = space.ends
        self._end_index = {e: i for i, e in enumerate(ends)}
        # the interned move of every fixed id (positional ends have no fixed move)
        self._ids: dict[Move, int] = {}
        self._names: list[str] = []
        for k in space.kinds:
            for t in tiles:
                for e in ends:
                    if space.positional:
                        self._names.append(f"{k} {t}@{e}" if k != "play" else f"{t}@{e}")
                        continue
                    move = Move(k, t, e)
                    self._ids[move] = len(self._names)
                    self._names.append(str(move))
        for m in space.others:
            self._ids[m] = len(self._names)
            self._names.append(str(m))
        # the observation's layout
        pips = rules.set_max + 1
        self._pips = pips
        # the ends an observation shows: every named end (not "no end"), or every place
        self._shown_ends = tuple(e for e in ends if e is not None)
        self._shown_index = {e: i for i, e in enumerate(self._shown_ends)}
        n_tiles = len(tiles)
        sides = rules.sides
        parts: list[tuple[str, tuple[int, ...], str]] = [
            ("hand", (n_tiles,), "1 where the tile is in the seat's own hand"),
            (
                "laid",
                (players, n_tiles),
                "1 where the seat (0: itself, 1: the next, ...) laid the tile this round",
            ),
            (
                "ends",
                (len(self._shown_ends), pips),
                "the pip of each open end, one-hot (a row of zeros: the end is not open)",
            ),
            ("sizes", (players,), "how many tiles each seat holds, over the tiles in play"),
            (
                "bazar",
                (2,),
                "the tiles left in the bazar, and how many of them may still be "
                "drawn, over the tiles in play",
            ),
            (
                "voids",
                (players, pips),
                "1 where the seat is proved to hold no tile with the "
                "pip: it passed at those ends since it last drew (0 for the seat itself)",
            ),
            ("turn", (players,), "1 at the seat to move"),
            (
                "scores",
                (sides,),
                "each side's score before this round (0: the seat's own), "
                "over the match's target or limit (100 without), clipped to -1..1",
            ),
            (
                "moves",
                (players, len(space.others)),
                "1 where the seat made the move this "
                "round (the moves without a tile: draw, pass, bids, ...)",
            ),
        ]
        self._sections: list[Section] = []
        start = 0
        for name, shape, text in parts:
            size = int(np.prod(shape))
            self._sections.append(Section(name, start, size, shape, text))
            start += size
        self.observation_shape = (start,)
        self._at = {s.name: s.start for s in self._sections}
        # each seat's order of the others: itself first, then the next to its left
        self._order = [
            np.array([(seat + k) % players for k in range(players)]) for seat in range(players)
        ]
        self._side_order = [
            np.array([(rules.side_of(seat) + k) % sides for k in range(sides)])
            for seat in range(players)
        ]
        self._scale = float(rules.target or rules.limit or 100)
        self._pip_rows = np.eye(pips, dtype=np.float32)
        self._void_rows = np.array(
            [[(mask >> p) & 1 for p in range(pips)] for mask in range(1 << pips)]
            if pips <= 13
            else [[0] * pips],
            np.float32,
        )
        self._tallies: weakref.WeakKeyDictionary[Round, _Tally] = weakref.WeakKeyDictionary()

    @classmethod
    def of(cls, rules: Rules) -> Encoding:
        """The encoding of ``rules``, built once per Rules object."""
        entry = cls._cache.get(id(rules))
        if entry is None or entry[0] is not rules:
            if len(cls._cache) > 1000:
                cls._cache.clear()
            entry = cls._cache[id(rules)] = (rules, cls(rules))
        return entry[1]

    # -- actions ---------------------------------------------------------------------------

    def action_name(self, action: int) -> str:
        """The move's notation (``6-4:L``, ``draw``, ``bid 30``); a tile on the ``i``-th
        open end of a positional space reads ``TILE@i``."""
        return self._names[action]

    def action(self, move: Move, state: State) -> int:
        """The id of ``move`` in the position ``state`` (the ends it names are read there)."""
        if not self.space.positional or move.tile is None:
            return self._ids[move]
        space = self.space
        place = list(_ends(state)).index(move.end or "")
        tile = self._tile_index[move.tile]
        return (self._kind_index[move.kind] * len(space.tiles) + tile) * len(space.ends) + place

    def _legal(self, state: State) -> dict[int, Move]:
        legal = state.legal_moves() if isinstance(state, Round) else state.legal
        if not self.space.positional:
            ids = self._ids
            return {ids[m]: m for m in legal}
        return {self.action(m, state): m for m in legal}

    def legal_actions(self, state: State) -> list[int]:
        """The ids of the legal moves, ascending."""
        return sorted(self._legal(state))

    def mask(self, state: State) -> NDArray[np.int8]:
        """1 at each legal id."""
        out = np.zeros(self.num_actions, np.int8)
        out[list(self._legal(state))] = 1
        return out

    def move(self, action: int, state: State) -> Move:
        """The legal move with id ``action``; :class:`IllegalAction` if none is."""
        legal = self._legal(state)
        move = legal.get(int(action))
        if move is None:
            raise IllegalAction(
                f"action {action} is not legal here; the legal actions are "
                f"{sorted(legal) or 'none'}"
            )
        return move

    # -- observations ----------------------------------------------------------------------

    def sections(self) -> list[Section]:
        """The parts of the observation vector, in order."""
        return list(self._sections)

    def observe(self, view: View) -> NDArray[np.float32]:
        """The observation of ``view``'s seat, from the view alone (the reference
        :meth:`observe_round` is held equal to)."""
        if view.seat is None:
            raise ValueError("an observation is a seat's: a spectator's view has none")
        if view.rules is not self.rules and view.rules != self.rules:
            raise ValueError(f"the view is of {view.rules}, not {self.rules}")
        tally = _Tally(self)
        tally.read(self, [(s, m) for s, m, _ in view.history])
        scores = view.scores.get("scores") if view.scores else None
        return self._fill(
            tally,
            view.seat,
            view.hand or (),
            view.ends,
            view.hand_sizes,
            view.bazar_size,
            view.drawable,
            view.turn,
            scores,
        )

    def observe_round(self, rnd: Round, seat: int) -> NDArray[np.float32]:
        """The observation of ``seat`` in ``rnd``: equal to ``observe(rnd.view(seat))``,
        read from the round without building the view (only the moves since the last call
        are read)."""
        tally = self._tallies.get(rnd)
        ply = rnd.ply
        if tally is None or tally.count > ply or rnd.stamp(tally.count) is not tally.stamp:
            tally = self._tallies[rnd] = _Tally(self)
            tally.stamp = rnd.stamp(0)
        if tally.count < ply:
            tally.read(self, rnd.moves_of(tally.count))
            tally.stamp = rnd.stamp(ply)
        if tally.scores is None:
            tally.scores = np.array(rnd.ledger.public()["scores"], np.float32)
        return self._fill(
            tally,
            seat,
            rnd.seen_hand(seat) or (),
            rnd.ends(),
            rnd.hand_sizes(),
            rnd.bazar_size,
            rnd.drawable,
            rnd.turn,
            tally.scores,
        )

    def _fill(
        self,
        tally: _Tally,
        seat: int,
        hand: Sequence[Any],
        ends: dict[str, int],
        sizes: Sequence[int],
        bazar_size: int,
        drawable: int,
        turn: int | None,
        scores: Any,
    ) -> NDArray[np.float32]:
        at = self._at
        n_tiles = len(self.space.tiles)
        obs = np.zeros(self.observation_shape, np.float32)
        tile_index = self._tile_index
        hand_at = at["hand"]
        for tile in hand:
            obs[hand_at + tile_index[tile]] = 1.0
        order = self._order[seat]
        players = self.num_players
        obs[at["laid"] : at["laid"] + players * n_tiles] = tally.laid[order].ravel()
        pips = self._pips
        if ends:
            base = at["ends"]
            if self.space.positional:
                for place, pip in enumerate(ends.values()):
                    obs[base + place * pips + pip] = 1.0
            else:
                shown = self._shown_index
                for end, pip in ends.items():
                    obs[base + shown[end] * pips + pip] = 1.0
        base = at["sizes"]
        for k in range(players):
            obs[base + k] = sizes[order[k]] / n_tiles
        base = at["bazar"]
        obs[base] = bazar_size / n_tiles
        obs[base + 1] = drawable / n_tiles
        voids = tally.inference.voids
        if any(voids):
            base = at["voids"]
            for k in range(1, players):
                mask = voids[order[k]]
                if mask:
                    obs[base + k * pips : base + (k + 1) * pips] = self._void_bits(mask)
        if turn is not None:
            obs[at["turn"] + (turn - seat) % players] = 1.0
        if scores is not None and len(scores):
            values = np.asarray(scores, np.float32)[self._side_order[seat]] / self._scale
            sides = len(values)
            obs[at["scores"] : at["scores"] + sides] = np.clip(values, -1.0, 1.0)
        others = len(self.space.others)
        if others:
            obs[at["moves"] : at["moves"] + players * others] = tally.made[order].ravel()
        return obs

    def _void_bits(self, mask: int) -> NDArray[np.float32]:
        if mask < len(self._void_rows):
            row: NDArray[np.float32] = self._void_rows[mask]
            return row
        return np.array([(mask >> p) & 1 for p in range(self._pips)], np.float32)


def _ends(state: State) -> dict[str, int]:
    return state.ends() if isinstance(state, Round) else state.ends
