"""Mexican Train (``mexican-train.md``): a train for every seat, the public Mexican train,
markers, and doubles that must be satisfied. Double-12, 2 to 10 players, 13 rounds.

Round ``k`` of a match is started by its *engine*, the double ``(13 - k)-(13 - k)``, which
is put in the centre before the first move (by its holder, or found by drawing). Every train
runs out from the engine, so a move names the train it extends: ``"0"`` … ``"9"`` for the
seats' own trains, ``"M"`` for the Mexican train.

>>> import bazar
>>> r = bazar.rules("mexican-train", players=2, set_max=6, hand_size=3)
>>> rnd = bazar.Round(r, hands=[["6-1", "1-1", "5-4"], ["6-2", "3-0", "4-4"]],
...                   bazar=["2-2"], leader=0)
>>> rnd.ends()
{'0': 6, '1': 6, 'M': 6}
>>> rnd.legal_moves()
[Move('6-1:0')]
>>> rnd.push("6-1:0"); rnd.legal_moves()
[Move('1-1:0'), Move('stop')]
>>> rnd.push("1-1:0"); rnd.turn, rnd.board.trains["0"]
(1, (Laid('6|1'), Laid('1|1')))

Seat 0's first turn ended by itself (nothing more fits), leaving the double 1-1 open: from
seat 0's second turn on it must be satisfied before anything else is played.

The module also holds what Chicken Foot (:mod:`bazar.chicken_foot`) shares with it: the
round schedule, finding the engine, and the penalty ledger.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from bazar.core.board import Laid
from bazar.core.errors import invalid
from bazar.core.moves import Move, MoveSpace
from bazar.core.options import HAND
from bazar.core.outcome import Outcome
from bazar.core.round import (
    DRAW,
    PASS,
    STOP,
    Deal,
    Round,
    Setup,
    Tables,
    Undo,
    final_turn,
    shuffled,
)
from bazar.core.rules import Option, Rules, Traits, Variant, register
from bazar.core.scoring import hand_value
from bazar.core.tiles import Tile, TileLike, mask_of, tile_set

from .board import TrainsBoard

if TYPE_CHECKING:
    from bazar.core.ledger import Ledger, MatchResult
    from bazar.core.view import View

__all__ = [
    "HAND_SIZES",
    "TrainRound",
    "deal_size",
    "decide",
    "engine_for",
    "engine_of",
    "find_engine",
    "penalty_totals",
    "round_outcome",
    "settle",
]

ENGINE_SOURCE: Option[str] = Option(
    "engine_source",
    "enum",
    "how the round's double reaches the centre",
    "holder",
    values=("holder", "pre_placed", "search_draw"),
)
FIRST_TURN_MULTI: Option[bool] = Option(
    "first_turn_multi",
    "bool",
    "Mexican Train: the first turn may lay several tiles on one's own train",
    True,
)
MARKER_REMOVAL: Option[str] = Option(
    "marker_removal",
    "enum",
    "Mexican Train: when a train's marker comes off",
    "owner_plays_own",
    values=("owner_plays_own", "any_play_on_train", "owner_plays_anywhere"),
)
MARKER_ON_FAILED_SATISFY: Option[bool] = Option(
    "marker_on_failed_satisfy",
    "bool",
    "Mexican Train: a failed duty to satisfy a double puts the marker on",
    True,
)
DOUBLES_MUST_BE_SATISFIED: Option[bool] = Option(
    "doubles_must_be_satisfied",
    "bool",
    "Mexican Train: an open double must be satisfied before any other play",
    True,
)
SATISFY_ORDER: Option[str] = Option(
    "satisfy_order",
    "enum",
    "Mexican Train: the order in which open doubles are satisfied",
    "played",
    values=("played", "reverse"),
)
MAX_DOUBLES_PER_TURN: Option[int | None] = Option(
    "max_doubles_per_turn",
    "int_or_none",
    "Mexican Train: how many doubles one turn may chain (none: no limit)",
    None,
    values=(1,),
)

#: Tiles dealt to each player from a double-12 set (``mexican-train.md`` §2).
HAND_SIZES = {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 10, 8: 10, 9: 8, 10: 8}


# -- what both train games share ---------------------------------------------------------------


def engine_of(number: int, set_max: int) -> Tile:
    """The double that starts round ``number``: the highest first, 0-0 last, then again from
    the top (a Chicken Foot match played to a limit wraps round).

    >>> [str(engine_of(k, 12)) for k in (1, 2, 12, 13, 14)]
    ['12-12', '11-11', '1-1', '0-0', '12-12']
    """
    if number < 1:
        raise invalid("round_number", number=number)
    pip = set_max - (number - 1) % (set_max + 1)
    return Tile.of(pip, pip)


def find_engine(hands: list[int], bazar: list[Tile], engine: Tile) -> tuple[int | None, int]:
    """Put the engine in the centre: its holder takes it out of his hand; if it lies in the
    bazar, everybody draws in full cycles (seat 0 first) until it turns up, and its finder
    places it (``mexican-train.md`` §4.1). ``hands`` (bit sets) change in place.

    Returns the seat that placed it (None when it is in no hand and not in the bazar: it is
    already in the centre) and how many bazar tiles the search drew.

    >>> hands = [0, 0, 0, 0]
    >>> tiles = [Tile.parse(t) for t in ["3-4", "12-12", "0-9", "5-5", "6-6"]]
    >>> find_engine(hands, tiles, Tile.parse("12-12"))  # seat 1 finds it; the cycle ends
    (1, 4)
    >>> [h.bit_count() for h in hands]
    [1, 0, 1, 1]
    """
    bit = 1 << engine.index
    for seat, hand in enumerate(hands):
        if hand & bit:
            hands[seat] = hand ^ bit
            return seat, 0
    if engine not in bazar:
        return None, 0
    drawn = 0
    finder: int | None = None
    while finder is None:
        for seat in range(len(hands)):
            if drawn == len(bazar):
                break
            tile = bazar[drawn]
            drawn += 1
            if tile is engine:
                finder = seat
            else:
                hands[seat] |= 1 << tile.index
    return finder, drawn


def deal_size(o: dict[str, Any], taken_out: int) -> None:
    """Check that the hands fit in the set less the tiles ``taken_out`` before the deal."""
    tiles = len(tile_set(o["set_max"])) - taken_out
    need = o["players"] * o["hand_size"]
    if need > tiles:
        raise invalid(
            "deal_size",
            players=o["players"],
            size=o["hand_size"],
            need=need,
            high=o["set_max"],
            tiles=tiles,
        )


def penalty_totals(ledger: Ledger, gains: Sequence[int]) -> Ledger:
    """The ledger with ``gains`` added, one round later."""
    return ledger.replace(scores=[s + g for s, g in zip(ledger.scores, gains, strict=True)])


class TrainTables:
    """Per set and number of players (built once per rules, by :class:`TrainSetup`): the
    set's tables and the interned plays on each train."""

    def __init__(self, set_max: int, players: int) -> None:
        common = Tables.of(set_max)
        tiles = self.tiles = common.tiles
        self.fits = common.fits
        self.doubles = sum(common.doubles)
        self.ids = (*(str(s) for s in range(players)), "M")
        #: each train's number by its end id (looked up by a move's ``end``, typed optional)
        self.index: dict[str | None, int] = {end: i for i, end in enumerate(self.ids)}
        self.plays = [[Move.play(t, end) for t in tiles] for end in self.ids]
        #: the trains of each bit set of trains, in id order
        self.trains = [
            tuple(d for d in range(players + 1) if mask >> d & 1) for mask in range(2 << players)
        ]
        #: (tiles << 4 | train) -> the plays of those tiles on that train, in tile order
        self.on: dict[int, tuple[Move, ...]] = {}

    def moves_on(self, train: int, tiles: int) -> tuple[Move, ...]:
        """The plays of the bit set ``tiles`` on ``train``, canonical tile order (cached)."""
        key = tiles << 4 | train
        moves = self.on.get(key)
        if moves is None:
            plays = self.plays[train]
            out = []
            while tiles:
                low = tiles & -tiles
                out.append(plays[low.bit_length() - 1])
                tiles ^= low
            if len(self.on) > 200_000:
                self.on.clear()
            moves = self.on[key] = tuple(out)
        return moves


class TrainSetup(Setup):
    """What a TrainRound reads from its rules, looked up once per Rules object."""

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        self.tables = TrainTables(rules.set_max, rules.players)
        self.hand_size: int = rules.hand_size
        self.pre_placed = rules[ENGINE_SOURCE] == "pre_placed"
        self.first_turn_multi: bool = rules[FIRST_TURN_MULTI]
        self.removal: str = rules[MARKER_REMOVAL]
        self.marker_on_failed: bool = rules[MARKER_ON_FAILED_SATISFY]
        self.must_satisfy: bool = rules[DOUBLES_MUST_BE_SATISFIED]
        self.newest_first = rules[SATISFY_ORDER] == "reverse"
        limit = rules[MAX_DOUBLES_PER_TURN]
        self.max_doubles: int = 1_000 if limit is None else limit


class TrainUndo(Undo):
    """A Mexican Train move taken back: the turn state as it was before it. What the move
    itself changed is read back from the move: the train its tile went on and that train's
    pip before, or the tile it drew (the last one drawn). A legal move is never made once the
    round is over, so the round was not over before it."""

    __slots__ = ("drew", "first_left", "markers", "opened", "played", "queue", "tops")

    markers: int
    queue: tuple[int, ...]
    first_left: int
    played: int
    drew: bool
    opened: tuple[int, ...]
    tops: int

    def __init__(
        self,
        move: Move,
        seat: int,
        markers: int,
        queue: tuple[int, ...],
        first_left: int,
        played: int,
        drew: bool,
        opened: tuple[int, ...],
        tops: int,
    ) -> None:
        self.move = move
        self.seat = seat
        self.markers = markers
        self.queue = queue
        self.first_left = first_left
        self.played = played
        self.drew = drew
        self.opened = opened
        self.tops = tops


class EngineRound(Round):
    """What the trains and the tree share: a round around an engine double (``_engine_tile``),
    recorded as the position after the set-up."""

    _engine_tile: Tile

    def _outcome(self) -> Outcome:
        """How the round ended: ``out`` or ``fish`` (blocked; ``fisher`` laid the last tile);
        ``last_turn`` holds the tiles of the turn that went out, for the double penalty."""
        assert self._over is not None
        return round_outcome(self, self._over, self._engine_tile)

    # -- what seats may know ---------------------------------------------------------------

    @classmethod
    def _inputs(cls, view: View) -> dict[str, Any]:
        """The leader, the round's number and its engine (:meth:`~bazar.Round.from_view`)."""
        extra = view.extra
        return {"leader": extra["leader"], "number": extra["number"], "lead": [extra["engine"]]}

    def deal(self) -> dict[str, Any]:
        """The deal after the set-up: hands and bazar as play began, the first player; the
        engine as ``lead`` when it is not the round's scheduled double."""
        data = super().deal()
        if self._engine_tile is not engine_of(self.number, self.rules.set_max):
            data["lead"] = [str(self._engine_tile)]
        return data


class TrainRound(EngineRound):
    """One round of Mexican Train. ``Round(rules, ...)`` builds it for the ``trains`` family.

    Trains are numbered by seat, the Mexican train last (id ``"M"``). The state is a bit set
    per hand, the open pip of every train, the markers (a bit per seat), the queue of trains
    whose last tile is an unsatisfied double (in the order they were played), how many first
    turns are still to come, and the current turn's progress.

    An explicit deal is the position after the set-up: a deal whose engine is in no hand and
    not in the bazar has it in the centre already, and ``leader`` moves first. An engine still
    in a hand is placed by its holder, one in the bazar is searched for (§4.1); ``lead=[tile]``
    names an engine other than the round's scheduled double.

    ``legal_moves()`` lists the plays first, train by train in the order of :meth:`ends`
    (the seats' trains, then ``M``), each train's tiles in canonical order; then ``draw``,
    ``pass`` or ``stop``. A turn of several moves: the first turn's chain (§6.1), the tile
    after a double, a draw and the drawn tile (§6.2–6.3).
    """

    _stack: list[TrainUndo]
    #: what the round reads from its rules, and the tables of its set (shared, read only)
    _opts: TrainSetup
    _tab: TrainTables
    #: the double in the centre
    _engine_tile: Tile
    #: the tiles still in a hand (a bit set)
    _inhand: int
    #: each train's open pip: the seats' trains, then the Mexican train
    _ends: list[int]
    #: the seats whose marker is on (a bit set)
    _markers: int
    #: the trains ending in an unsatisfied double, the oldest first
    _queue: tuple[int, ...]
    #: the seats still to play their first turn's chain (``first_turn_multi``), and the
    #: tiles the seat to move laid this turn
    _first_left: int
    _played: int
    #: whether the seat to move drew this turn
    _drew: bool
    #: the doubles laid this turn, by train
    _opened: tuple[int, ...]
    #: the trains whose last tile is a double (a bit set)
    _tops: int

    @property
    def rewards_long_plans(self) -> bool:
        """True: one's own train is a plan of a dozen turns, kept open for one's own tiles,
        that heaviest-first playouts never see (:attr:`bazar.Round.rewards_long_plans`)."""
        return True

    def _deal(
        self,
        rng: random.Random,
        dealt: Deal | None,
        leader: int | None,
        lead: Sequence[TileLike] | None,
    ) -> None:
        rules = self.rules
        setup = self._opts = TrainSetup.of(rules)
        t = self._tab = setup.tables
        n = self.players
        engine = self._engine_tile = engine_for(rules, self.number, lead)
        if dealt is None:
            pool = [x for x in t.tiles if x is not engine] if setup.pre_placed else t.tiles
            deck = shuffled(pool, rng)
            size = setup.hand_size
            masks = [mask_of(deck[i * size : (i + 1) * size]) for i in range(n)]
            rest = deck[n * size :]
        else:
            masks, rest = [mask_of(h) for h in dealt[0]], dealt[1]
            if engine.high > rules.set_max:
                raise invalid("engine_not_in_set", engine=engine, high=rules.set_max)
        # the seat that placed the engine moves first: _lead finds him in _turn
        self._turn, searched = find_engine(masks, rest, engine)
        self._bazar = rest[searched:]
        self._drawable = len(self._bazar)
        self._hands = masks
        inhand = 0
        for h in masks:
            inhand |= h
        self._inhand = inhand
        self._ends = [engine.high] * (n + 1)
        self._markers = 0
        self._queue = ()
        self._first_left = n if setup.first_turn_multi else 0
        self._played = 0
        self._drew = False
        self._opened = ()
        self._tops = 0

    def _lead(
        self,
        rng: random.Random,
        leader: int | None,
        lead: Sequence[TileLike] | None,
        seeded: bool,
    ) -> int:
        """The seat that placed the engine, else the rotation (§4.2)."""
        if leader is None:
            leader = self._turn if self._turn is not None else self._rotation(rng, seeded)
        self._turn = leader
        return leader

    def _rotation(self, rng: random.Random, seeded: bool) -> int:
        """Who moves first when nobody placed the engine: round 1 a random seat (seat 0 for
        an explicit deal), then the seat after the previous round's first (§4.2)."""
        prev = self.previous
        if prev is not None and prev.leader is not None:
            return (prev.leader + 1) % self.players
        return int(rng.random() * self.players) if seeded else 0

    # -- the state -------------------------------------------------------------------------

    @property
    def engine(self) -> Tile:
        """The double in the centre."""
        return self._engine_tile

    @property
    def _engine(self) -> int:
        """The engine's pip, where every train starts (asked, not kept: an attribute fewer
        keeps the round on CPython's fast attribute path)."""
        return self._engine_tile.high

    @property
    def markers(self) -> tuple[str, ...]:
        """The personal trains whose marker is on (open to everybody)."""
        return tuple(str(s) for s in range(self.players) if self._markers >> s & 1)

    @property
    def unsatisfied(self) -> tuple[str, ...]:
        """The trains ending in an unsatisfied double, the one to satisfy first first."""
        ids = self._tab.ids
        order = reversed(self._queue) if self._opts.newest_first else self._queue
        return tuple(ids[d] for d in order)

    @property
    def first_turns_left(self) -> int:
        """How many first turns (§6.1) are still to be played, the current one included."""
        return self._first_left

    def ends(self) -> dict[str, int]:
        """Every train's open pip, by train id: the seats' trains, then ``M``."""
        return dict(zip(self._tab.ids, self._ends, strict=True))

    @property
    def board(self) -> TrainsBoard:
        """The engine and every train from the engine out (``first`` toward the engine)."""
        made = self._board
        if not isinstance(made, TrainsBoard):
            made = self._board = self._make_board()
        return made

    def _make_board(self) -> TrainsBoard:
        ids = self._tab.ids
        ends = [self._engine] * len(ids)
        trains: dict[str, list[Laid]] = {end: [] for end in ids}
        for _, move, _ in self.history():
            if move.kind == "play" and move.tile is not None and move.end is not None:
                d = self._tab.index[move.end]
                pip = ends[d]
                ends[d] = move.tile.other(pip)
                trains[move.end].append(Laid(pip, ends[d]))
        engine = Tile.of(self._engine, self._engine)
        return TrainsBoard(engine, {end: tuple(tiles) for end, tiles in trains.items()})

    # -- moves -----------------------------------------------------------------------------

    @classmethod
    def move_space(cls, rules: Rules) -> MoveSpace:
        """A tile laid on a seat's train (``"0"``, ``"1"``, ...) or the Mexican train ``M``;
        a draw, a pass, a stop."""
        trains = (*(str(s) for s in range(rules.players)), "M")
        return MoveSpace(rules.tiles, ("play",), trains, (DRAW, PASS, STOP))

    def _generate(self) -> tuple[Move, ...]:
        if self._over is not None:
            return ()
        seat = self._turn
        assert seat is not None  # only a round with a seat to move is moved
        hand = self._hands[seat]
        t = self._tab
        fits = t.fits
        ends = self._ends
        if self._first_left:
            mask = hand & fits[ends[seat]]
            if not self._played:
                return t.moves_on(seat, mask) if mask else (PASS,)
            return (*t.moves_on(seat, mask), STOP)
        queue = self._queue
        if queue:
            due = queue[-1] if self._opts.newest_first else queue[0]
            mask = hand & fits[ends[due]]
            if mask:
                return t.moves_on(due, mask)
        else:
            if len(self._opened) >= self._opts.max_doubles:
                hand &= ~t.doubles
            out: tuple[Move, ...] = ()
            cached = t.on.get
            for d in t.trains[self._markers | (1 << seat) | (1 << self.players)]:
                mask = hand & fits[ends[d]]
                if mask:
                    out += cached(mask << 4 | d) or t.moves_on(d, mask)
            if out:
                return out
        if not self._drew and self._drawn < len(self._bazar):
            return (DRAW,)
        return (PASS,)

    def _apply(self, move: Move) -> None:
        seat = self._turn
        assert seat is not None  # only a round with a seat to move is moved
        self._stack.append(
            TrainUndo(
                move,
                seat,
                self._markers,
                self._queue,
                self._first_left,
                self._played,
                self._drew,
                self._opened,
                self._tops,
            )
        )
        kind = move.kind
        if kind == "play":
            tile = move.tile
            assert tile is not None  # a play names its tile
            d = self._tab.index[move.end]
            index = tile.index
            bit = 1 << index
            ends = self._ends
            before = ends[d]
            ends[d] = tile.low if before == tile.high else tile.high
            hand = self._hands[seat] ^ bit
            self._hands[seat] = hand
            self._inhand ^= bit
            self._drew = False
            self._played += 1
            double = tile.is_double
            if double:
                self._tops |= 1 << d
            else:
                self._tops &= ~(1 << d)
            if self._markers:
                self._unmark(seat, d)
            if self._first_left:
                if double:
                    self._opened += (d,)
                if not hand or not hand & self._tab.fits[ends[seat]]:
                    self._end_turn(seat)
                return
            queue = self._queue
            if queue:  # a satisfying tile: never a double, and it ends the turn
                self._queue = queue[:-1] if self._opts.newest_first else queue[1:]
            if not hand:
                self._over = "out"
            elif double:
                self._opened += (d,)
            else:
                self._end_turn(seat)
        elif kind == "draw":
            tile = self._bazar[self._drawn]
            self._drawn += 1
            bit = 1 << tile.index
            self._hands[seat] |= bit
            self._inhand |= bit
            self._drew = True
        else:  # pass, stop
            if kind == "pass":
                failed_duty = self._queue and not self._first_left
                if not failed_duty or self._opts.marker_on_failed:
                    self._markers |= 1 << seat
            self._end_turn(seat)

    def _unmark(self, seat: int, d: int) -> None:
        """Take markers off after a play by ``seat`` on train ``d`` (§6.5)."""
        rule = self._opts.removal
        if rule == "owner_plays_own":
            if d == seat:
                self._markers &= ~(1 << seat)
        elif rule == "any_play_on_train":
            self._markers &= ~(1 << d)
        else:
            self._markers &= ~(1 << seat)

    def _end_turn(self, seat: int) -> None:
        """Queue the doubles this turn left open, then pass the turn (or end the round)."""
        if self._opened:
            if self._opts.must_satisfy:
                queue = self._queue
                for d in dict.fromkeys(self._opened):
                    if self._tops >> d & 1 and d not in queue:
                        queue += (d,)
                self._queue = queue
            self._opened = ()
        self._played = 0
        self._drew = False
        self._turn = (seat + 1) % self.players
        if self._first_left:
            self._first_left -= 1
            if self._first_left:
                return
            if not all(self._hands):
                self._over = "out"
                return
        if self._drawn == len(self._bazar) and self._is_blocked():
            self._over = "fish"

    def _is_blocked(self) -> bool:
        """The exact blocked test of §7, once nothing is left to draw: no hand holds a tile
        for the double due (if any), else for any train, counting every train as marked."""
        fits = self._tab.fits
        queue = self._queue
        if queue:
            due = queue[-1] if self._opts.newest_first else queue[0]
            return not self._inhand & fits[self._ends[due]]
        need = 0
        for pip in self._ends:
            need |= fits[pip]
        return not self._inhand & need

    def _undo(self, record: TrainUndo) -> None:
        move = record.move
        seat = self._turn = record.seat
        self._markers = record.markers
        self._queue = record.queue
        self._first_left = record.first_left
        self._played = record.played
        self._drew = record.drew
        self._opened = record.opened
        self._tops = record.tops
        self._over = None
        tile = move.tile
        if tile is not None:
            ends = self._ends
            d = self._tab.index[move.end]
            ends[d] = tile.low if ends[d] == tile.high else tile.high
        elif move is DRAW:
            self._drawn -= 1
            tile = self._bazar[self._drawn]
        else:
            return
        bit = 1 << tile.index
        self._hands[seat] ^= bit
        self._inhand ^= bit

    # -- the end ---------------------------------------------------------------------------

    def public_extra(self, seat: int | None) -> dict[str, Any]:
        """The engine, the first player and round number, the markers, the doubles to
        satisfy (first due first), the first turns to come and the turn in progress."""
        ids = self._tab.ids
        return {
            "leader": self.leader,
            "number": self.number,
            "engine": str(self._engine_tile),
            "markers": list(self.markers),
            "unsatisfied": list(self.unsatisfied),
            "first_turns": self._first_left,
            "turn_tiles": self._played,
            "turn_doubles": 0 if self._first_left else len(self._opened),
            "drew": self._drew,
            "turn_opened": [ids[d] for d in self._opened],
        }

    def _restore(self, view: View) -> None:
        """The trains' ends, the markers, the doubles to satisfy and the turn in progress."""
        extra = view.extra
        ids = self._tab.index
        self._ends = [view.ends[end] for end in self._tab.ids]
        self._markers = sum(1 << ids[m] for m in extra["markers"])
        queue = tuple(ids[d] for d in extra["unsatisfied"])
        self._queue = queue[::-1] if self._opts.newest_first else queue
        self._first_left = extra["first_turns"]
        self._played = extra["turn_tiles"]
        self._drew = extra["drew"]
        self._opened = tuple(ids[d] for d in extra["turn_opened"])
        board = view.board
        assert isinstance(board, TrainsBoard)
        self._tops = sum(
            1 << ids[end] for end, tiles in board.trains.items() if tiles and tiles[-1].is_double
        )
        self._turn = view.turn if view.turn is not None else self.leader
        if view.turn is None and view.outcome is not None:
            self._over = view.outcome.reason


def engine_for(rules: Rules, number: int, lead: Sequence[TileLike] | None) -> Tile:
    """The engine of round ``number``: the scheduled double, or the one ``lead`` names."""
    if lead is None:
        return engine_of(number, rules.set_max)
    tiles = [Tile.parse(t) for t in lead]
    if len(tiles) != 1 or not tiles[0].is_double:
        raise invalid("engine_lead", tiles=[str(t) for t in tiles])
    return tiles[0]


def round_outcome(rnd: Round, reason: str, engine: Tile) -> Outcome:
    """The Outcome of a finished train or tree round: the first to empty his hand is
    ``out_seat``; the last to lay a tile the ``fisher`` of a blocked round; ``lead`` the
    engine; ``last_turn`` the tiles of the final turn (:func:`~bazar.core.round.final_turn`)."""
    history = rnd.history()
    hands = rnd.hands
    last_play: dict[int, int] = {}
    fisher = None
    for i, (seat, move, _) in enumerate(history):
        if move.tile is not None and move.kind in ("play", "last"):
            last_play[seat] = i
            fisher = seat
    out_seat = None
    if reason == "out":
        emptied = [s for s, h in enumerate(hands) if not h]
        out_seat = min(emptied, key=lambda s: last_play.get(s, -1))
    return Outcome(
        reason,
        out_seat=out_seat,
        remaining=hands,
        points=(0,) * rnd.players,
        fisher=fisher if reason == "fish" else None,
        leader=rnd.leader,
        lead=engine,
        last_turn=final_turn(history),
    )


# -- scoring and the match (§3, §8) -------------------------------------------------------------


def settle(ledger: Ledger, outcome: Outcome) -> Ledger:
    """One round's scores (§8): everyone his pips (``penalty``), or the player out — every
    player out in the first turns, else the lightest hands — the others' pips, shared
    (``positive``; each takes ``floor(total / k)``).

    >>> import bazar
    >>> r = bazar.rules("mexican-train", players=3, scoring="positive")
    >>> out = bazar.Outcome("fish", remaining=[["1-2"], ["0-3"], ["6-6"]])
    >>> bazar.Ledger.new(r).settle(out).scores
    (6, 6, 0)
    """
    rules = ledger.rules
    values = [hand_value(rules, h or ()) for h in outcome.remaining]
    if rules.scoring == "penalty":
        return penalty_totals(ledger, values)
    winners = [s for s, h in enumerate(outcome.remaining) if h is not None and not h]
    if not winners:
        lightest = min(values)
        winners = [s for s, v in enumerate(values) if v == lightest]
    share = sum(v for s, v in enumerate(values) if s not in winners) // len(winners)
    return penalty_totals(ledger, [share if s in winners else 0 for s in range(len(values))])


def decide(ledger: Ledger) -> MatchResult | None:
    """After the round of 0-0 (``set_max + 1`` rounds): the lowest total wins (``penalty``),
    or the highest (``positive``), and the worst loses; equal totals share."""
    rules = ledger.rules
    if ledger.rounds < rules.set_max + 1:
        return None
    return ledger.by_totals(highest=rules.scoring == "positive")


# -- the preset (§9) -----------------------------------------------------------------------------


def _hand_size(o: dict[str, Any]) -> int:
    if o["set_max"] != 12:
        raise invalid("hand_size_table", game="mexican-train", table=12, high=o["set_max"])
    return HAND_SIZES[o["players"]]


def _check(o: dict[str, Any]) -> None:
    if o["engine_source"] not in ("holder", "pre_placed"):
        raise invalid("engine_source", game="mexican-train")
    deal_size(o, 1 if o["engine_source"] == "pre_placed" else 0)


def _defaults() -> dict[str, Any | Callable[[dict[str, Any]], Any]]:
    return {
        "players": 4,
        "set_max": 12,
        "hand_size": _hand_size,
        "engine_source": "holder",
        "first_turn_multi": True,
        "marker_removal": "owner_plays_own",
        "marker_on_failed_satisfy": True,
        "doubles_must_be_satisfied": True,
        "satisfy_order": "played",
        "max_doubles_per_turn": None,
        "scoring": "penalty",
    }


register(
    Variant(
        "mexican-train",
        "Mexican Train: personal trains from a central double, the public Mexican train, "
        "markers, doubles to satisfy; double-12, 13 rounds, fewest pips win",
        "mexican-train.md",
        (2, 10),
        4,
        _defaults(),
        family="trains",
        traits=Traits(end_names="train", satisfies_doubles=True, own_trains=True, reads_ends=False),
        checks=(_check,),
        aliases=("мексиканский поезд", "mexican train", "мексиканский-поезд"),
        settle=settle,
        decide=decide,
        round=TrainRound,
        options=(
            *HAND,
            ENGINE_SOURCE,
            FIRST_TURN_MULTI,
            MARKER_REMOVAL,
            MARKER_ON_FAILED_SATISFY,
            DOUBLES_MUST_BE_SATISFIED,
            SATISFY_ORDER,
            MAX_DOUBLES_PER_TURN,
        ),
        lower_wins=lambda r: r.scoring == "penalty",
        title="Mexican Train",
    )
)
