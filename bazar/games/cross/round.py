"""The cross games' round: a line that grows a cross at its spinner, scored during play.

The spinner ("cross", "house") is kept as its value and its covered arms (``common.md`` §3.2).
Arms are ``L``, ``R``, ``U``, ``D``; while the spinner has both sides covered and fewer than
four covered arms, its free slots are offered as one end ``S`` that starts ``U``, then ``D``
(``fives.md`` §4). A double laid with ``close`` seals its end («Осёл»). After each turn the
game's scorer (``Variant.score``) may award points to the mover; they are recorded as
``Outcome.scoring`` events, and a side reaching the target with ``win_check = immediate``
ends the round (reason ``"target"``) and the match, even with a move that also goes out or
blocks the round: score, then target, then the end of the hand.

>>> import bazar
>>> rnd = bazar.Round(bazar.rules("domino-five"), hands=[["5-5", "3-5", "6-1"], ["5-0", "0-2"]],
...                   bazar=[], leader=0)
>>> rnd.push("5-5"); rnd.push("5-0:L"); rnd.push("3-5:R")
>>> rnd.ends()
{'L': 0, 'R': 3, 'S': 5}
>>> rnd.push("0-2:L"); rnd.scoring()
[(0, 10), (1, 10), (1, 5)]
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from bazar.core.board import ARM_IDS
from bazar.core.moves import Move, MoveSpace
from bazar.core.outcome import Outcome
from bazar.core.round import DRAW, PASS, STOP, Deal
from bazar.core.tiles import Tile, TileLike
from bazar.games.line.round import LineRound, LineUndo

from .board import CrossBoard
from .options import (
    CLOSING,
    CROSS,
    DRAW_MODE,
    EXACT_TARGET,
    LEAD_MAY_BE_CLOSED,
    SEALED_LAYOUT_ENDS_ROUND,
    SPINNER,
    SPINNER_COUNT,
    WIN_CHECK,
)

if TYPE_CHECKING:
    from bazar.core.rules import Rules, Score
    from bazar.core.view import View

__all__ = ["CrossRound", "CrossUndo", "count_ends"]

ARMS = ("L", "R", "U", "D")
_ARM = {"L": 0, "R": 1, "U": 2, "D": 3}
_SLOT = 4  # the free-slot entry S in per-end tables


class CrossUndo(LineUndo):
    """A cross move taken back: the line's record and the layout before it (the line's two
    ends, which a close or a play on an arm does not tell, arm end pips and lengths, doubles
    and closed ends by arm, the spinner), whether the mover had drawn this turn and how many
    scoring events there were."""

    __slots__ = (
        "arm_double",
        "arm_end",
        "arm_len",
        "covered",
        "dead",
        "drew",
        "events",
        "lead_double",
        "left",
        "right",
        "spin",
        "spin_arm",
        "spin_depth",
    )

    left: int
    right: int

    arm_end: tuple[int, ...]
    arm_len: tuple[int, ...]
    arm_double: int
    dead: int
    lead_double: bool
    spin: int
    spin_arm: int
    spin_depth: int
    covered: int
    drew: bool
    events: int

    def __init__(self, move: Move, seat: int, rnd: CrossRound) -> None:
        self.move = move
        self.seat = seat
        self.left = rnd._left
        self.right = rnd._right
        self.chain = rnd._chain
        self.used = rnd._used
        self.arm_end = tuple(rnd._arm_end)
        self.arm_len = tuple(rnd._arm_len)
        self.arm_double = rnd._arm_double
        self.dead = rnd._dead
        self.lead_double = rnd._lead_double
        self.spin = rnd._spin
        self.spin_arm = rnd._spin_arm
        self.spin_depth = rnd._spin_depth
        self.covered = rnd._covered
        self.drew = rnd._drew
        self.events = len(rnd._events)


class CrossRound(LineRound):
    """A round on a line or a single-spinner cross, with closing doubles and in-play scores."""

    # the stack holds :class:`CrossUndo` records, the line's with the layout's state

    #: the rules the round reads on every move
    _closing: bool
    _lead_closable: bool
    _seal: bool
    _one_draw: bool
    #: the points the mover scores at the end of a turn (``Variant.score``), None: none
    _score_turn: Score | None
    #: every double of the set (a bit set)
    _all_doubles: int
    #: the layout's arms ``L R U D``: the open pip of each (-1: no arm) and its length
    _arm_end: list[int]
    _arm_len: list[int]
    #: the arms that end in a double, and the dead arms (bit sets by arm)
    _arm_double: int
    _dead: int
    #: whether the lead was a double
    _lead_double: bool
    #: the spinner: its pip (-1: none), its arm (-1: the centre), its place on that arm,
    #: and how many of its sides are covered
    _spin: int
    _spin_arm: int
    _spin_depth: int
    _covered: int
    #: whether the seat to move drew this turn
    _drew: bool
    #: the points scored in play, as (seat, points), in order
    _events: list[tuple[int, int]]

    def _deal(
        self,
        rng: random.Random,
        dealt: Deal | None,
        leader: int | None,
        lead: Sequence[TileLike] | None,
    ) -> None:
        super()._deal(rng, dealt, leader, lead)
        rules = self.rules
        self._cross = rules[SPINNER] or rules[CROSS] == "first_open_double"
        self._closing = rules[CLOSING]
        self._lead_closable = rules[LEAD_MAY_BE_CLOSED]
        self._seal = rules[SEALED_LAYOUT_ENDS_ROUND]
        self._one_draw = rules[DRAW_MODE] == "one_per_turn"
        self._score_turn = rules.variant.score
        self._all_doubles = sum(self._t.doubles)
        # the layout: arm end pips (-1 no arm), arm lengths, arm ending in a double, dead arms
        self._arm_end = [-1, -1, -1, -1]
        self._arm_len = [0, 0, 0, 0]
        self._arm_double = 0
        self._dead = 0
        self._lead_double = False
        # the spinner: value (-1 none), its arm (-1 the centre), its place on that arm, covered
        self._spin = -1
        self._spin_arm = -1
        self._spin_depth = 0
        self._covered = 0
        self._drew = False
        self._events = []

    # -- state -------------------------------------------------------------------------------

    def _free_slot(self) -> bool:
        if self._spin < 0 or self._covered >= 4:
            return False
        if self._spin_arm < 0:
            return self._arm_len[0] > 0 and self._arm_len[1] > 0
        return self._arm_len[self._spin_arm] > self._spin_depth + 1

    def ends(self) -> dict[str, int]:
        """Open ends in the order ``L R U D S``; a closed end is not open."""
        if self._left < 0:
            return {}
        out = {
            ARMS[a]: pip
            for a, pip in enumerate(self._arm_end)
            if pip >= 0 and not self._dead >> a & 1
        }
        if self._free_slot():
            out["S"] = self._spin
        return out

    def _open(self) -> list[tuple[str, int]]:
        return list(self.ends().items())

    def is_double_end(self, end: str) -> bool:
        """Whether the tile at the end ``end`` (``L R U D``) is a crosswise double whose outer
        side is still free; a lone lead double is at both ``L`` and ``R``."""
        arm = _ARM[end]
        if self._arm_len[arm]:
            return bool(self._arm_double >> arm & 1)
        return arm < 2 and self._lead_double

    def scoring(self) -> list[tuple[int, int]]:
        """The points scored during play so far, as ``(seat, points)`` in order."""
        return list(self._events)

    # -- moves -------------------------------------------------------------------------------

    @classmethod
    def move_space(cls, rules: Rules) -> MoveSpace:
        """A tile led, laid on an arm (``L R U D``) or on the spinner's free side ``S``, or a
        double laid closed («Осёл»); a draw, a pass, a stop."""
        return MoveSpace(rules.tiles, ("play", "close"), (None, *ARM_IDS, "S"), (DRAW, PASS, STOP))

    def _generate(self) -> tuple[Move, ...]:
        if self._over is not None:
            return ()
        if self._left < 0:
            leads = super()._generate()
            if not (self._closing and self._lead_closable) or STOP in leads:
                return leads
            out: list[Move] = []
            for move in leads:
                out.append(move)
                if move.tile is not None and move.tile.is_double:
                    out.append(Move("close", move.tile))
            return tuple(out)
        turn = self._turn
        assert turn is not None  # a round not over has a seat to move
        hand = self._hands[turn]
        open_ends = self._open()
        if self._chain:
            open_ends = [
                (end, pip)
                for end, pip in open_ends
                if end == "S" or not self._used >> _ARM[end] & 1
            ]
            hand &= self._all_doubles
        fits = self._fits
        moves: list[Move] = []
        playable = 0
        for _, pip in open_ends:
            playable |= hand & fits[pip]
        tiles = self._t.tiles
        while playable:
            low = playable & -playable
            tile = tiles[low.bit_length() - 1]
            for end, pip in open_ends:
                if tile.high == pip or tile.low == pip:
                    moves.append(Move.play(tile, end))
                    if self._closing and tile.is_double:
                        moves.append(Move("close", tile, end))
            playable ^= low
        if self._chain:
            moves.append(STOP)
            return tuple(moves)
        if moves:
            return tuple(moves)
        if self._drawn < self._drawable and not (self._one_draw and self._drew):
            return (DRAW,)
        return (PASS,)

    def _apply(self, move: Move) -> None:
        seat = self._turn
        assert seat is not None  # only a round with a seat to move is moved
        self._stack.append(CrossUndo(move, seat, self))
        kind = move.kind
        if kind == "draw":
            bit = 1 << self._bazar[self._drawn].index
            self._drawn += 1
            self._hands[seat] |= bit
            self._inhand |= bit
            self._drew = True
            if self._nobody_can_move():
                self._over = "fish"
            return
        if kind in ("pass", "stop"):
            if self._left < 0:  # the opening decision declined: the normal leader leads
                self._opening = -1
                self._turn = self.leader
                return
            scored = kind == "stop"
            self._end_turn(seat, scored)
            return
        tile = move.tile
        assert tile is not None  # a play names its tile
        closed = kind == "close"
        bit = 1 << tile.index
        hand = self._hands[seat] ^ bit
        self._hands[seat] = hand
        self._inhand ^= bit
        self._table |= bit
        arm = self._place(tile, move.end, closed)
        if not hand:
            self._over = "out"
            self._score(seat)
            return
        if self._seal and not self.ends():
            self._over = "fish"
            self._score(seat)
            return
        if self._nobody_can_move() or (self._conf.dead_layout and self._cross_dead()):
            self._over = "fish"
            self._score(seat)
            return
        if (
            self._conf.doubles_per_turn > 1
            and tile.is_double
            and arm >= 0
            and self._keeps_cross_turn(hand, arm)
        ):
            return
        self._end_turn(seat, True)

    def _end_turn(self, seat: int, scored: bool) -> None:
        if scored:
            self._score(seat)
            if self._over is not None:
                return
        self._chain = self._used = 0
        self._drew = False
        self._turn = (seat + 1) % self.players

    def _score(self, seat: int) -> None:
        """The scorer's points for the turn just ended; a target reached may end the round.

        The order is score, then target, then the end of the hand: a side that reaches the
        target with ``win_check = immediate`` has won, even with the move that goes out or
        blocks the round, so the round ends on the target and no end-of-hand award (a block
        award to another player, a bonus, ``losers_subtract``) is settled after it."""
        if self._score_turn is None:
            return
        points = int(self._score_turn(self))
        if not points:
            return
        rules = self.rules
        side = rules.side_of(seat)
        target = rules.target
        if target is not None:
            now = self.ledger.scores[side] + self._side_points(side)
            if rules[EXACT_TARGET] and now + points > target:
                return
            self._events.append((seat, points))
            if rules[WIN_CHECK] == "immediate" and (now + points >= target):
                self._over = "target"
            return
        self._events.append((seat, points))

    def _side_points(self, side: int) -> int:
        return sum(p for s, p in self._events if self.rules.side_of(s) == side)

    def _place(self, tile: Tile, end: str | None, closed: bool) -> int:
        """Lay ``tile`` on ``end``; returns the arm it went on (-1 for the lead)."""
        if end is None:
            self._left, self._right = tile.high, tile.low
            self._arm_end[0], self._arm_end[1] = tile.high, tile.low
            self._lead_double = tile.is_double
            self._opening = -1
            if tile.is_double and closed:
                self._dead = 0b11
            elif tile.is_double and self._cross:
                self._spin, self._spin_arm, self._covered = tile.high, -1, 0
            return -1
        if end == "S":
            arm = 2 if self._arm_end[2] < 0 else 3
            pip = self._spin
        else:
            arm = _ARM[end]
            pip = self._arm_end[arm]
        outer = tile.low if pip == tile.high else tile.high
        self._arm_end[arm] = outer
        self._arm_len[arm] += 1
        if tile.is_double:
            self._arm_double |= 1 << arm
        else:
            self._arm_double &= ~(1 << arm)
        if closed:
            self._dead |= 1 << arm
        if arm == 0:
            self._left = outer
        elif arm == 1:
            self._right = outer
        length = self._arm_len[arm]
        if self._spin >= 0:
            if self._spin_arm == arm:
                covers = length == self._spin_depth + 2
            else:
                covers = length == 1 and (self._spin_arm < 0 or arm >= 2)
            if covers:
                self._covered += 1
        elif self._cross and tile.is_double and not closed:
            self._spin, self._spin_arm, self._spin_depth = tile.high, arm, length - 1
            self._covered = 1
        return arm

    def _keeps_cross_turn(self, hand: int, arm: int) -> bool:
        chain = self._chain + 1
        if chain >= self._conf.doubles_per_turn:
            return False
        used = self._used | (1 << arm)
        doubles = self._t.doubles
        for end, pip in self._open():
            if (end == "S" or not used >> _ARM[end] & 1) and hand & doubles[pip]:
                self._chain, self._used = chain, used
                return True
        return False

    @classmethod
    def pips_to_go_on(cls, view: View) -> frozenset[int] | None:
        """Nothing left to draw, a round in play has a hand with a tile for an open end."""
        if view.turn is None or view.drawable or not view.ends:
            return None
        return frozenset(view.ends.values())

    def _nobody_can_move(self) -> bool:
        if self._drawn < self._drawable:
            return False
        fits = self._fits
        reach = 0
        for _, pip in self._open():
            reach |= fits[pip]
        return not self._inhand & reach

    def _cross_dead(self) -> bool:
        """The dead-layout test of ``common.md`` §6 for every open end."""
        pips = {pip for _, pip in self._open()}
        if not pips:
            return False
        t = self._t
        for pip in pips:
            need = t.suit_singles[pip]
            if len(pips) > 1:
                need |= t.doubles[pip]
            if self._table & need != need:
                return False
        return True

    def _undo(self, record: LineUndo) -> None:
        # the cross round pushes only its own records
        record = cast(CrossUndo, record)
        super()._undo(record)
        self._left, self._right = record.left, record.right
        self._arm_end, self._arm_len = list(record.arm_end), list(record.arm_len)
        self._arm_double, self._dead = record.arm_double, record.dead
        self._lead_double = record.lead_double
        self._spin, self._spin_arm = record.spin, record.spin_arm
        self._spin_depth, self._covered = record.spin_depth, record.covered
        self._drew = record.drew
        del self._events[record.events :]

    # -- the table ---------------------------------------------------------------------------

    @property
    def board(self) -> CrossBoard:
        """The line ``L`` to ``R`` through the spinner and its arms ``U`` and ``D``."""
        made = self._board
        if not isinstance(made, CrossBoard):
            made = self._board = self._make_board()
        return made

    def _make_board(self) -> CrossBoard:
        line = self.layout()
        return CrossBoard(
            line=line.row(),
            spinner=line.spinner.value if line.spinner is not None else None,
            up=line.branch("U"),
            down=line.branch("D"),
            closed=frozenset(line.closed),
        )

    def count(self) -> int:
        """The sum of the open ends as the fives family counts it (``fives.md`` §5.1)."""
        return count_ends(self)

    def _outcome(self) -> Outcome:
        base = super()._outcome()
        points = [0] * self.players
        for seat, p in self._events:
            points[seat] += p
        return Outcome(
            base.reason,
            out_seat=base.out_seat,
            remaining=base.remaining,
            points=points,
            fisher=base.fisher,
            leader=base.leader,
            lead=base.lead,
            last_turn=base.last_turn,
            scoring=self._events,
            extra=base.extra,
        )

    def public_extra(self, seat: int | None) -> dict[str, Any]:
        extra = super().public_extra(seat)
        extra["scoring"] = [list(e) for e in self._events]
        if self._spin >= 0:
            extra["spinner"] = {"value": self._spin, "covered": self._covered}
        return extra

    def turn_state(self) -> dict[str, Any]:
        state = super().turn_state()
        if self._chain:
            state["turn_ends"] = [ARMS[a] for a in range(4) if self._used >> a & 1]
        if self._drew and self._one_draw:
            state["drew"] = True
        return state

    def _read_view(self, view: View) -> None:
        """Rebuild the layout and the scores of ``view`` (for :meth:`Round.from_view`)."""
        super()._read_view(view)
        self._arm_end, self._arm_len = [-1, -1, -1, -1], [0, 0, 0, 0]
        self._arm_double = self._dead = 0
        self._spin, self._spin_arm, self._covered = -1, -1, 0
        turn, opening = self._turn, self._opening
        for _, move, _ in view.history:
            if move.kind in ("play", "close") and move.tile is not None:
                self._place(move.tile, move.end, move.kind == "close")
        self._turn, self._opening = turn, opening
        self._events = [(int(s), int(p)) for s, p in view.extra.get("scoring", ())]
        self._drew = bool(view.extra.get("drew", False))
        self._used = sum(1 << _ARM[e] for e in view.extra.get("turn_ends", ()))


def count_ends(rnd: CrossRound) -> int:
    """The count of ``fives.md`` §5.1 with the rules' ``spinner_count`` convention: the
    ends of the covered arms, a double at an end counting both halves; a spinner with at
    most one covered arm counts both its halves."""
    if rnd._left < 0:
        return 0
    ends, lens = rnd._arm_end, rnd._arm_len

    def value(arm: int) -> int:
        pip = ends[arm]
        double = rnd._arm_double >> arm & 1 if lens[arm] else rnd._lead_double
        return pip * 2 if double else pip

    if rnd._spin < 0:
        if lens[0] == 0 and lens[1] == 0:  # a lone lead double counts once
            return ends[0] + ends[1]
        return value(0) + value(1)
    if rnd._spin_arm < 0:
        covered = [a for a in range(4) if lens[a] > 0]
    else:
        covered = [1 - rnd._spin_arm]  # the line behind a spinner laid on an end
        if lens[rnd._spin_arm] > rnd._spin_depth + 1:
            covered.append(rnd._spin_arm)
        covered += [a for a in (2, 3) if lens[a] > 0]
    total = sum(value(a) for a in covered)
    if len(covered) <= 1:
        return 2 * rnd._spin + total
    if rnd.rules[SPINNER_COUNT] == "open_arms":
        total += rnd._spin * (4 - len(covered))
    return total
