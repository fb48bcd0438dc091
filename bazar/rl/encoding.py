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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from bazar.bots.sampler import Inference
from bazar.core.moves import Move, MoveSpace
from bazar.core.round import PLACEMENTS, Round
from bazar.core.rules import Rules
from bazar.core.tiles import mask_of
from bazar.core.view import View

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["Encoding", "IllegalAction", "Observer", "Section"]

#: the kinds of move that lay a tile on the table (a cut lays it inside the sausage)
LAYING = (*PLACEMENTS, "cut")

#: what a position is given as: a round, or the view of the seat to move
State = Round | View


#: how many rounds' tallies an encoding keeps (an environment observes one round at a time)
TALLIES = 64


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
    """Each seat's observation of one round, kept up to date as the round goes: one row
    per seat. What the moves showed (who laid which tile, who made which other move, what
    the passes proved) is read once per move; the position (the hand, the ends, the sizes,
    the turn) is written where it changed since the seat's last observation, which
    :meth:`Encoding._fill` then copies. An observer keeps one per round."""

    __slots__ = (
        "count",
        "ends",
        "hands",
        "inference",
        "points",
        "rows",
        "sizes",
        "stamp",
        "turns",
    )

    def __init__(self, enc: Encoding, scores: Sequence[float] | None) -> None:
        players = enc.num_players
        self.count = 0
        self.stamp: object = None
        self.inference = Inference(enc.rules)
        self.rows = np.zeros((players, enc.observation_shape[0]), np.float32)
        # what each row shows of the position: the hand's bits, the ends' columns, the
        # counts, the turn's column (-1: none)
        self.hands = [0] * players
        self.ends: list[list[int]] = [[] for _ in range(players)]
        self.sizes: list[tuple[int, ...]] = [()] * players
        self.turns = [-1] * players
        self.points: list[Sequence[tuple[int, int]]] = [()] * players
        if scores is not None and any(scores):
            at = enc._at["scores"]
            values = np.asarray(scores, np.float32)
            for seat in range(players):
                side = values[enc._side_order[seat]] / enc._scale
                self.rows[seat, at : at + len(side)] = np.clip(side, -1.0, 1.0)

    def read(self, enc: Encoding, moves: Sequence[tuple[int, Move]]) -> None:
        """Read the moves that follow those read (each as seat, move)."""
        tile_index = enc._tile_index
        other_index = enc._other_index
        laid_cols = enc._laid_cols
        made_cols = enc._made_cols
        inference = self.inference
        voids = inference.voids
        rows = self.rows
        seats = range(enc.num_players)
        i = self.count
        for seat, move in moves:
            tile = move.tile
            if tile is not None:
                if move.kind in LAYING:
                    t = tile_index[tile]
                    for viewer, col in zip(seats, laid_cols[seat], strict=True):
                        rows[viewer, col + t] = 1.0
            else:
                j = other_index.get(move)
                if j is not None:
                    for viewer, col in zip(seats, made_cols[seat], strict=True):
                        rows[viewer, col + j] = 1.0
            before = voids[seat]
            inference.read(i, seat, move)
            if voids[seat] != before:
                bits = enc._void_bits(voids[seat])
                pips = enc._pips
                for viewer, col in zip(seats, enc._void_cols[seat], strict=True):
                    if viewer != seat:
                        rows[viewer, col : col + pips] = bits
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
        seats = range(players)
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
                "points",
                (sides,),
                "the points each side scored during this round so far (0: the seat's own), "
                "over the same, clipped to 1 (0 in the games that score only at the end)",
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
        self._order = [tuple((seat + k) % players for k in range(players)) for seat in seats]
        self._side_order = [
            np.array([(rules.side_of(seat) + k) % sides for k in range(sides)]) for seat in seats
        ]
        self._scale = float(rules.target or rules.limit or 100)
        # where a move of seat s is written in each viewer's row: s sits (s - viewer) % n
        # places after the viewer
        at = self._at

        def columns(name: str, width: int) -> list[tuple[int, ...]]:
            return [tuple(at[name] + (s - v) % players * width for v in seats) for s in seats]

        self._laid_cols = columns("laid", n_tiles)
        self._made_cols = columns("moves", len(space.others))
        self._void_cols = columns("voids", pips)
        self._hand_at = at["hand"]
        self._ends_at = at["ends"]
        self._sizes_at = at["sizes"]
        assert at["bazar"] == self._sizes_at + players  # the bazar follows the sizes
        self._turn_at = at["turn"]
        self._points_at = at["points"]
        self._positional = space.positional
        # a hand's bit set (bit tile.index) read in the order of the tiles in play
        self._n_tiles = n_tiles
        #: the observation's column of each tile by its bit in a hand (tile.index)
        self._hand_column = [-1] * (max(t.index for t in tiles) + 1)
        for i, t in enumerate(tiles):
            self._hand_column[t.index] = self._hand_at + i
        # the tallies of the rounds observed lately, by id (the round kept with its tally, so
        # that an id reused by a later round is told apart), the oldest forgotten past
        # TALLIES: a compiled round takes no weak reference
        self._tallies: dict[int, tuple[Round, _Tally]] = {}
        # the round observed last and its tally, and the last round's legal moves by id
        # (what an environment asks again and again of one round)
        self._last: tuple[Round | None, _Tally | None] = (None, None)
        self._legal_of: tuple[Round | None, object, dict[int, Move]] = (None, None, {})

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
        """The legal moves by id (the last round's kept until a move is pushed or popped)."""
        if state.__class__ is not View and isinstance(state, Round):
            stamp = state.stamp()
            cached = self._legal_of
            if cached[0] is state and cached[1] is stamp:
                return cached[2]
            found = self._ids_of(state.legal_moves(), state)
            self._legal_of = (state, stamp, found)
            return found
        assert isinstance(state, View)
        return self._ids_of(state.legal, state)

    def _ids_of(self, legal: Sequence[Move], state: State) -> dict[int, Move]:
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
        tally = _Tally(self, view.scores.get("scores") if view.scores else None)
        tally.read(self, [(s, m) for s, m, _ in view.history])
        hand = None if view.hand is None else mask_of(view.hand)
        return self._fill(
            tally,
            view.seat,
            hand,
            view.ends,
            view.hand_sizes,
            view.bazar_size,
            view.drawable,
            view.turn,
            [tuple(event) for event in view.extra.get("scoring", ())],
        )

    def observe_round(self, rnd: Round, seat: int) -> NDArray[np.float32]:
        """The observation of ``seat`` in ``rnd``: equal to ``observe(rnd.view(seat))``,
        read from the round without building the view (only the moves since the last call
        are read)."""
        last = self._last
        found = last[1] if last[0] is rnd else self._tally_of(rnd)
        if found is None or rnd.stamp() is not found.stamp:
            moves = None if found is None else rnd.moves_since(found.count, found.stamp)
            if found is None or moves is None:  # a new round, or moves taken back
                found = _Tally(self, rnd.ledger.public()["scores"])
                self._keep_tally(rnd, found)
                moves = rnd.moves_of(0)
            found.read(self, moves)
            found.stamp = rnd.stamp()
        tally: _Tally = found
        self._last = (rnd, tally)
        return self._fill_round(tally, rnd, seat)

    def _tally_of(self, rnd: Round) -> _Tally | None:
        kept = self._tallies.get(id(rnd))
        return kept[1] if kept is not None and kept[0] is rnd else None

    def _keep_tally(self, rnd: Round, tally: _Tally) -> None:
        tallies = self._tallies
        tallies.pop(id(rnd), None)
        if len(tallies) >= TALLIES:
            del tallies[next(iter(tallies))]
        tallies[id(rnd)] = (rnd, tally)

    def _fill_round(self, tally: _Tally, rnd: Round, seat: int) -> NDArray[np.float32]:
        """:meth:`_fill` with the position read from ``rnd``."""
        return self._fill(
            tally,
            seat,
            rnd.hand_mask(seat),
            rnd.ends(),
            rnd.hand_sizes(),
            rnd.bazar_size,
            rnd.drawable,
            rnd.turn,
            rnd.scoring(),
        )

    def _fill(
        self,
        tally: _Tally,
        seat: int,
        hand: int | None,
        ends: dict[str, int],
        sizes: Sequence[int],
        bazar_size: int,
        drawable: int,
        turn: int | None,
        points: Sequence[tuple[int, int]],
    ) -> NDArray[np.float32]:
        """The seat's row of ``tally`` brought up to the position, copied. Only what
        changed since the seat's last observation is written: one numpy call costs far
        more than the Python that finds what changed."""
        row = tally.rows[seat]
        hand = hand or 0
        old = tally.hands[seat]
        if hand != old:
            column = self._hand_column
            diff = old ^ hand
            while diff:
                low = diff & -diff
                row[column[low.bit_length() - 1]] = 1.0 if hand & low else 0.0
                diff ^= low
            tally.hands[seat] = hand
        if ends:
            base = self._ends_at
            pips = self._pips
            if self._positional:
                cols = [base + place * pips + pip for place, pip in enumerate(ends.values())]
            else:
                shown = self._shown_index
                cols = [base + shown[end] * pips + pip for end, pip in ends.items()]
        else:
            cols = []
        was = tally.ends[seat]
        if cols != was:
            for col in was:
                row[col] = 0.0
            for col in cols:
                row[col] = 1.0
            tally.ends[seat] = cols
        counts = (*sizes, bazar_size, drawable)
        if counts != tally.sizes[seat]:
            scale = self._n_tiles
            values = [sizes[other] / scale for other in self._order[seat]]
            values += (bazar_size / scale, drawable / scale)
            row[self._sizes_at : self._sizes_at + len(values)] = values
            tally.sizes[seat] = counts
        col = -1 if turn is None else self._turn_at + (turn - seat) % self.num_players
        was_turn = tally.turns[seat]
        if col != was_turn:
            if was_turn >= 0:
                row[was_turn] = 0.0
            if col >= 0:
                row[col] = 1.0
            tally.turns[seat] = col
        if points and points != tally.points[seat]:
            sides = [0.0] * len(self._side_order[seat])
            side_of = self.rules.side_of
            for scorer, scored in points:
                sides[side_of(scorer)] += scored
            values = np.asarray(sides, np.float32)[self._side_order[seat]] / self._scale
            row[self._points_at : self._points_at + len(sides)] = np.minimum(values, 1.0)
            tally.points[seat] = points
        obs: NDArray[np.float32] = row.copy()
        return obs

    def observer(self, rnd: Round) -> Observer:
        """An :class:`Observer` of ``rnd``: what an environment that makes the round's moves
        itself uses, the cheapest way to the observations."""
        return Observer(self, rnd)

    def _void_bits(self, mask: int) -> NDArray[np.float32]:
        return np.array([(mask >> p) & 1 for p in range(self._pips)], np.float32)


class Observer:
    """One round followed by the environment that plays it: the moves are made through
    :meth:`push` (or made by the caller and told with :meth:`played`), so the observer reads
    each once, as it is made, and knows the position without asking the round what changed.
    Its observations are :meth:`Encoding.observe_round`'s, its masks and moves
    :meth:`Encoding.mask`'s and :meth:`Encoding.move`'s, each computed once per position.

    >>> import bazar
    >>> rules = bazar.rules("block")
    >>> seen = Encoding.of(rules).observer(bazar.Round(rules, seed=1))
    >>> seen.push(seen.legal_actions()[0])
    Move('6-6')
    >>> bool((seen.observe(0) == seen.encoding.observe(seen.round.view(0))).all())
    True
    """

    __slots__ = ("_ids", "_mask", "_tally", "encoding", "round")

    def __init__(self, enc: Encoding, rnd: Round) -> None:
        self.encoding = enc
        self.round = rnd
        self._tally = _Tally(enc, rnd.ledger.public()["scores"])
        self._tally.read(enc, rnd.moves_of(0))
        self._ids: dict[int, Move] | None = None
        self._mask: NDArray[np.int8] | None = None

    def legal(self) -> dict[int, Move]:
        """The legal moves by action id."""
        ids = self._ids
        if ids is None:
            rnd = self.round
            ids = self._ids = self.encoding._ids_of(rnd.legal_moves(), rnd)
        return ids

    def legal_actions(self) -> list[int]:
        """The ids of the legal moves, ascending."""
        return sorted(self.legal())

    def mask(self) -> NDArray[np.int8]:
        """1 at each legal id (a fresh array: the caller may keep it)."""
        mask = self._mask
        if mask is None:
            mask = self._mask = np.zeros(self.encoding.num_actions, np.int8)
            for action in self.legal():
                mask[action] = 1
        return mask.copy()

    def move(self, action: int) -> Move:
        """The legal move of id ``action``; :class:`IllegalAction` if none is."""
        move = self.legal().get(action)
        if move is None:
            return self.encoding.move(action, self.round)  # raises, naming the legal ids
        return move

    def push(self, action: int | Move) -> Move:
        """Make the move of id ``action`` (or the move itself) on the round."""
        move = action if isinstance(action, Move) else self.move(action)
        rnd = self.round
        seat = rnd.turn
        rnd.push(move)
        assert seat is not None  # the move was legal: the round was not over
        self.played(seat, move)
        return move

    def played(self, seat: int, move: Move) -> None:
        """Tell the observer that ``seat`` made ``move`` on the round, which was pushed."""
        self._tally.read(self.encoding, ((seat, move),))
        self._ids = None
        self._mask = None

    def observe(self, seat: int) -> NDArray[np.float32]:
        """What ``seat`` may know now: ``Encoding.observe(round.view(seat))``."""
        return self.encoding._fill_round(self._tally, self.round, seat)


def _ends(state: State) -> dict[str, int]:
    ends: dict[str, int] = state.ends() if isinstance(state, Round) else state.ends
    return ends


def describe(rules: Rules) -> str:
    """The encoding of ``rules`` as Markdown: its action ids, then its observation's parts."""
    enc = Encoding.of(rules)
    space = enc.space
    lines = ["| actions | moves |", "|---|---|"]
    if space.tile_moves:
        ends = ", ".join("no end" if e is None else f"`{e}`" for e in space.ends)
        if space.positional:
            ends = f"the open ends in the order of `ends()` (at most {len(space.ends)})"
        per_kind = len(space.tiles) * len(space.ends)
        for k, kind in enumerate(space.kinds):
            first = k * per_kind
            lines.append(
                f"| {first}–{first + per_kind - 1} | `{kind}` of tile *t* on end *e*: "
                f"{first} + {len(space.ends)}*t* + *e*, with *t* the tile's index in "
                f"`rules.tiles` ({len(space.tiles)} tiles) and *e* the end's among {ends} |"
            )
    for i, move in enumerate(space.others, space.tile_moves):
        lines.append(f"| {i} | `{move}` |")
    lines += ["", "| part | from | shape | holds |", "|---|---|---|---|"]
    for section in enc.sections():
        shape = " × ".join(str(n) for n in section.shape)
        lines.append(f"| `{section.name}` | {section.start} | {shape} | {section.text} |")
    return "\n".join(lines)


def document() -> str:
    """``docs/encoding.md``'s tables: each family's encoding at its first variant's
    defaults, then every variant's sizes."""
    from bazar.core.rules import VARIANTS
    from bazar.core.rules import rules as make_rules

    families: dict[type[Round], list[Rules]] = {}
    for name in VARIANTS:
        rules = make_rules(name)
        families.setdefault(Round.played_by(rules), []).append(rules)
    out: list[str] = []
    for family, members in families.items():
        first = members[0]
        names = ", ".join(f"`{r.name}`" for r in members)
        out += [
            f"### {family.__name__}: {names}",
            "",
            f"As dealt for `{first.name}` with {first.players} players:",
            "",
            describe(first),
            "",
        ]
    out += [
        "### Sizes of every variant, at its default players",
        "",
        "| variant | players | actions | observation |",
        "|---|---|---|---|",
    ]
    for name in VARIANTS:
        enc = Encoding.of(make_rules(name))
        out.append(
            f"| `{name}` | {enc.num_players} | {enc.num_actions} | {enc.observation_shape[0]} |"
        )
    return "\n".join(out) + "\n"
