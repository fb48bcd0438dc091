"""The line round: one line of tiles with two ends, ``L`` and ``R`` (``common.md`` §3.1).

>>> import bazar
>>> rnd = bazar.Round(bazar.rules("block"), hands=[["6-6", "6-4"], ["4-1", "3-3"]],
...                   bazar=["2-2"], leader=0)
>>> [str(m) for m in rnd.legal_moves()]
['6-4', '6-6']
>>> rnd.push("6-6"); rnd.push("pass"); rnd.push("6-4:R")
>>> rnd.board, rnd.outcome().reason
(LineBoard(line=(Laid('6|6'), Laid('6|4'))), 'out')

Block, Draw, the classic games, Kozel and Sea Kozel play it; the cross round
(:mod:`bazar.games.cross.round`) builds on it. The hot state is bit sets: a hand per seat,
the tiles in hands, the tiles on the table, and the pip of each end.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Self

from bazar.core.board import Board, Line
from bazar.core.errors import InconsistentDeal, invalid
from bazar.core.moves import Move, MoveSpace
from bazar.core.outcome import Outcome
from bazar.core.round import (
    DRAW,
    PASS,
    PLACEMENTS,
    STOP,
    Deal,
    Round,
    Setup,
    Tables,
    Undo,
    final_turn,
    shuffled,
)
from bazar.core.rules import Rules
from bazar.core.scoring import fish_winner
from bazar.core.tiles import Tile, TileLike, mask_of, tile_set

from .board import LineBoard
from .options import (
    DOUBLES_PER_TURN,
    EARLY_FISH,
    GENERAL_OFFICER,
    HUNDRED_PRIVILEGE,
    LATER_LEAD_MUST_DOUBLE,
    REDEAL_MIN_DOUBLES,
    REDEAL_MIN_SUIT,
    SINGLE_RECORD,
    ZERO_ZERO_MAY_LEAD,
)

if TYPE_CHECKING:
    from bazar.core.view import View

__all__ = ["LineRound", "LineSetup", "LineUndo", "lead_order", "lowest_tile_key", "needs_redeal"]

#: a deal the redeal rule rejects this many times in a row means the rule cannot be met
_MAX_REDEALS = 1000


@functools.cache
def lead_order(order: str, set_max: int = 6) -> tuple[Tile, ...]:
    """The tiles of a lead order of ``common.md`` §5, first to last.

    >>> [str(t) for t in lead_order("kozel")[:8]]
    ['1-1', '2-2', '3-3', '4-4', '5-5', '6-6', '0-0', '6-5']
    """
    tiles = tile_set(set_max)
    doubles = [t for t in tiles if t.is_double]
    singles = [t for t in tiles if not t.is_double]
    down = sorted(singles, key=lambda t: (-t.pips, -t.high))
    up = sorted(singles, key=lambda t: (t.pips, t.low))
    if order == "high":
        return (*doubles[::-1], *down)
    if order == "low":
        return (*doubles, *up)
    if order == "low_doubles_high_singles":
        return (*doubles, *down)
    if order in ("kozel", "one_one"):
        return (*doubles[1:], doubles[0], *down)
    raise invalid("lead_order", order=order)


def lowest_tile_key(tile: Tile) -> tuple[int, int]:
    """The "lowest tile" of a lot: fewer pips, then the smaller half (``fives.md`` §3)."""
    return (tile.pips, tile.low)


class LineTables(Tables):
    """The per-set tables of the line: the interned plays on each end, and the legal moves
    already generated for a (playable tiles, left pip, right pip) position."""

    def __init__(self, set_max: int) -> None:
        super().__init__(set_max)
        tiles = self.tiles
        self.on_left = [Move.play(t, "L") for t in tiles]
        self.on_right = [Move.play(t, "R") for t in tiles]
        #: the non-double tiles of each suit, for the dead-layout test
        self.suit_singles = [
            mask_of(t for t in tiles if t.has(p) and not t.is_double) for p in range(set_max + 1)
        ]
        self.moves_cache: dict[int, tuple[Move, ...]] = {}


class LineSetup(Setup):
    """What a line round reads from its rules."""

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        self.hand_size: int = rules.hand_size
        self.draw: bool = rules.draw
        self.reserve: int = rules.bazar_reserve if self.draw else 0
        self.tables = LineTables.of(rules.set_max)
        self.doubles_per_turn = rules[DOUBLES_PER_TURN]
        self.dead_layout = rules[EARLY_FISH] == "dead_layout"
        self.zero_zero_may_lead = rules[ZERO_ZERO_MAY_LEAD]
        self.redeal_min_doubles = rules[REDEAL_MIN_DOUBLES]
        self.redeal_min_suit = rules[REDEAL_MIN_SUIT]
        self.first_lead = rules.first_lead
        self.hundred_privilege = rules[HUNDRED_PRIVILEGE]
        #: whether any lead rule of the game draws lots (then a lot is drawn before the deal)
        self.may_lot = "lot" in (
            self.first_lead,
            rules.later_lead,
            rules.after_block_lead,
            rules.after_tie_lead,
        )

    def must_redeal(self, hands: Sequence[int]) -> bool:
        """Whether a hand holds too many doubles or too many tiles of one suit
        (``kozel.md`` §2)."""
        most_doubles, most_suit = self.redeal_min_doubles, self.redeal_min_suit
        if most_doubles is None and most_suit is None:
            return False
        all_doubles = sum(self.tables.doubles)
        fits = self.tables.fits
        for hand in hands:
            if most_doubles is not None and (hand & all_doubles).bit_count() >= most_doubles:
                return True
            if most_suit is not None and any((hand & f).bit_count() >= most_suit for f in fits):
                return True
        return False


class LineUndo(Undo):
    """A line move taken back: the turn's doubles and used ends before it. The ends before
    it follow from the move, so the record leaves them out (one field less to build a move):
    none before the lead, the tile's other pip on the end it went on, and a draw, a pass or
    a stop leaves them as they were."""

    __slots__ = ("chain", "used")

    chain: int
    used: int

    def __init__(self, move: Move, seat: int, chain: int, used: int) -> None:
        self.move = move
        self.seat = seat
        self.chain = chain
        self.used = used


class LineRound(Round):
    """A round on one line. ``legal_moves()`` lists plays by tile (canonical order), for each
    tile the lead, then ``L``, then ``R``; else ``draw``; else ``pass``. A turn of several
    doubles (``doubles_per_turn``) is several moves ending in ``stop``; a side with the
    hundred's privilege (Sea Kozel) decides first whether to open with 6-6."""

    _stack: list[LineUndo]
    #: whether the first open double is a spinner (the cross games set it from their rules)
    _cross: bool = False
    #: what the round reads from its rules, and the tables of its set (shared, read only)
    _conf: LineSetup
    _t: LineTables
    #: the tiles that fit each pip (``_t.fits``)
    _fits: tuple[int, ...]
    #: the tiles drawn by lot before the deal, one a seat, until the lead is chosen
    _lots: list[Tile] | None
    #: the tiles still in a hand (a bit set)
    _inhand: int
    #: the open ends' pips (-1 before the lead), and the tiles on the table (a bit set)
    _left: int
    _right: int
    _table: int
    #: the doubles laid in the turn so far, and the ends they used (bit 1: left, 2: right)
    _chain: int
    _used: int
    #: the seat still to decide whether to open with 6-6 (the hundred's privilege), else -1
    _opening: int
    #: how the view a round was rebuilt from stood (:meth:`from_view`; :meth:`redealt`)
    _viewed_over: str | None
    #: the opening seat (:meth:`_opening_seat`) before the first move of the stack: at the
    #: deal, or the one a view shows (:meth:`from_view`); a pop back to it opens it again
    _start_opening: int = -1

    # -- the deal and the lead -------------------------------------------------------------

    def _deal(
        self,
        rng: random.Random,
        dealt: Deal | None,
        leader: int | None,
        lead: Sequence[TileLike] | None,
    ) -> None:
        setup = self._conf = LineSetup.of(self.rules)
        players = self.players
        t = self._t = setup.tables
        self._fits = t.fits
        self._lots = None
        if dealt is None:
            if leader is None:
                self._lots = self._draw_lots(rng)
            size = setup.hand_size
            for attempt in range(_MAX_REDEALS + 1):
                if attempt == _MAX_REDEALS:
                    raise invalid("redeal_rejected", tries=_MAX_REDEALS)
                deck = shuffled(t.tiles, rng)
                masks = []
                for i in range(players):
                    mask = 0
                    for tile in deck[i * size : (i + 1) * size]:
                        mask |= 1 << tile.index
                    masks.append(mask)
                if not setup.must_redeal(masks):
                    break
            self._hands = masks
            self._bazar = deck[players * size :]
        else:
            hand_lists, self._bazar = dealt
            self._hands = [mask_of(h) for h in hand_lists]
        self._drawable = max(0, len(self._bazar) - setup.reserve) if setup.draw else 0
        inhand = 0
        for h in self._hands:
            inhand |= h
        self._inhand = inhand
        self._left = -1
        self._right = -1
        self._table = 0
        self._chain = 0
        self._used = 0

    def _lead(
        self,
        rng: random.Random,
        leader: int | None,
        lead: Sequence[TileLike] | None,
        seeded: bool,
    ) -> int:
        if lead is not None:
            if leader is None:
                raise invalid("lead_needs_leader")
            lead_mask = mask_of(Tile.parse(t) for t in lead)
        elif leader is None:
            leader, lead_mask = self._choose_leader(rng, self._lots, not seeded)
        else:
            # API.md: a chosen leader leads any tile except those an option forbids
            lead_mask = self._free_lead_mask(leader)
        self._lots = None
        if not self._hands[leader]:
            raise invalid("leader_empty", seat=leader)
        self.leader = leader
        self._lead_mask = lead_mask
        self._opening = self._start_opening = self._opening_seat()
        self._turn = leader if self._opening < 0 else self._opening
        return leader

    def _draw_lots(self, rng: random.Random) -> list[Tile] | None:
        """Before the deal, when a lot decides the lead: one tile drawn by each player."""
        if not self._conf.may_lot or self._lead_rule() != "lot":
            return None
        return shuffled(self._t.tiles, rng)[: self.players]

    def _lead_rule(self) -> str:
        """The rule that chooses this round's leader (``common.md`` §10)."""
        r = self.rules
        prev = self.previous
        if prev is None or self.number <= 1:
            return self._conf.first_lead
        after_block = r.after_block_lead
        if prev.reason == "fish" and after_block is not None:
            rule = after_block if fish_winner(r, prev) is not None else r.after_tie_lead
        else:
            rule = r.later_lead
        return str(r.first_lead) if rule == "same_rule" else str(rule)

    def _choose_leader(
        self, rng: random.Random, lot: list[Tile] | None, explicit: bool
    ) -> tuple[int, int]:
        """The leader and the mask of tiles he may lead (-1: any tile)."""
        rule = self._lead_rule()
        if rule in ("kozel", "high", "low", "low_doubles_high_singles", "one_one"):
            seat, tile = self._first_held(rule)
            return seat, 1 << tile.index
        if rule == "highest_double_any_tile":
            seat = self._first_held("high")[0]
        elif rule in ("lot", "random"):
            if explicit:
                seat = 0
            elif rule == "random":
                seat = int(rng.random() * self.players)
            else:
                assert lot is not None
                seat = min(range(self.players), key=lambda s: lowest_tile_key(lot[s]))
        else:
            seat = self._later_leader(rule)
        return seat, self._free_lead_mask(seat)

    def _later_leader(self, rule: str) -> int:
        prev = self.previous
        assert prev is not None
        players = self.players
        if rule == "rotate":
            return ((prev.leader or 0) + 1) % players
        out = prev.out_seat if prev.reason == "out" else None
        if rule == "winner":
            if out is not None:
                return out
            if fish_winner(self.rules, prev) is None:  # a tied fish: nobody won
                return self._first_held(str(self.rules.first_lead))[0]
            return self._block_winner_seat(prev)
        if rule in ("winner_or_fisher", "partner_of_winner_or_fisher"):
            if out is None:
                if prev.fisher is None:
                    raise invalid("fisher_needed")
                return prev.fisher
            return out if rule == "winner_or_fisher" else (out + 2) % players
        raise invalid("lead_rule", rule=rule, game=self.rules.name)

    def _free_lead_mask(self, seat: int) -> int:
        """What a leader who may lead any tile may lead: not 0-0 where it may not lead, a
        double other than 0-0 and 6-6 where the later leader must lead one (``kozel.md`` §3)."""
        hand = self._hands[seat]
        mask = -1
        if not self._conf.zero_zero_may_lead and hand & ~1:
            mask &= ~1
        if self.rules[LATER_LEAD_MUST_DOUBLE] and self.number > 1:
            doubles = self._t.doubles
            plain = sum(doubles[1:-1]) & hand
            if plain:
                mask = plain | (hand & (doubles[0] | doubles[-1]) & mask)
        # a restriction is a set of tiles in the hand: lead_tiles() and deal() list it
        return mask if mask == -1 else mask & hand

    def _privileged_side(self) -> int | None:
        """The side that may open with a "hundred" (Sea Kozel, ``sea-kozel.md`` §2)."""
        if not self._conf.hundred_privilege or self.number <= 1:
            return None
        key = "record_holder" if self.rules[SINGLE_RECORD] else "first_recorded"
        side: int | None = self.ledger.get(key)
        return side

    def _opening_seat(self) -> int:
        """The seat whose decision opens the round (a hundred or ``stop``), or -1."""
        side = self._privileged_side()
        if side is None:
            return -1
        six = self._t.doubles[6]
        for seat, hand in enumerate(self._hands):
            if hand & six and self.rules.side_of(seat) == side and seat != self.leader:
                return seat
        return -1

    def _first_held(self, order: str) -> tuple[int, Tile]:
        """The first tile of a lead order that is in a hand, and its holder."""
        inhand = self._inhand
        if not self._conf.zero_zero_may_lead:
            inhand &= ~1
        for tile in lead_order(order, self.rules.set_max):
            if inhand >> tile.index & 1:
                bit = 1 << tile.index
                return next(s for s, h in enumerate(self._hands) if h & bit), tile
        raise invalid("no_lead_tile")

    def _block_winner_seat(self, prev: Outcome) -> int:
        side = fish_winner(self.rules, prev)
        if not self.rules.teams:
            assert side is not None
            return side
        fisher = prev.fisher if prev.fisher is not None else 0
        return fisher if self.rules.side_of(fisher) == side else (fisher + 1) % self.players

    # -- the state -------------------------------------------------------------------------

    # -- the state -------------------------------------------------------------------------

    def ends(self) -> dict[str, int]:
        """The open ends, end id -> pip; ``{}`` before the lead."""
        if self._left < 0:
            return {}
        return {"L": self._left, "R": self._right}

    @property
    def board(self) -> Board:
        """The line on the table, left to right (a :class:`LineBoard`, each tile's ``first``
        half facing ``L``)."""
        made = self._board
        if made is None:
            made = self._board = self._make_board()
        return made

    def _make_board(self) -> Board:
        return LineBoard(self.layout().row())

    def layout(self) -> Line:
        """The layout built from the plays so far: a line, or a cross in the games where the
        first open double is a spinner."""
        line = Line(spinner=self._cross)
        for _, move, _ in self.history():
            if move.kind in PLACEMENTS and move.tile is not None:
                line.place(move.tile, move.end, closed=move.kind == "close")
        return line

    # -- moves -----------------------------------------------------------------------------

    @classmethod
    def move_space(cls, rules: Rules) -> MoveSpace:
        """A tile led (no end) or laid on ``L`` or ``R``; a draw, a pass, a stop."""
        return MoveSpace(rules.tiles, ("play",), (None, "L", "R"), (DRAW, PASS, STOP))

    def _generate(self) -> tuple[Move, ...]:
        if self._over is not None:
            return ()
        turn = self._turn
        assert turn is not None  # a round not over has a seat to move
        hand = self._hands[turn]
        left = self._left
        t = self._t
        if left < 0:
            if self._opening >= 0:
                return (t.leads[t.double_index[6]], STOP)
            mask = hand & self._lead_mask or hand
            leads = t.leads
            out = []
            while mask:
                low = mask & -mask
                out.append(leads[low.bit_length() - 1])
                mask ^= low
            return tuple(out)
        right = self._right
        if self._chain:
            return self._further_doubles(hand)
        fits = self._fits
        playable = hand & (fits[left] | fits[right])
        if playable:
            key = (playable << 10) | (left << 5) | right
            cached = t.moves_cache.get(key)
            if cached is None:
                cached = self._plays(playable, left, right)
                if len(t.moves_cache) > 500_000:
                    t.moves_cache.clear()
                t.moves_cache[key] = cached
            return cached
        if self._drawn < self._drawable:
            return (DRAW,)
        return (PASS,)

    def _further_doubles(self, hand: int) -> tuple[Move, ...]:
        """After a double, while the turn stays (``doubles_per_turn``): the doubles that fit an
        end not yet used this turn, then ``stop``."""
        out = []
        t = self._t
        if not self._used & 1 and hand >> t.double_index[self._left] & 1:
            out.append(t.on_left[t.double_index[self._left]])
        if not self._used & 2 and hand >> t.double_index[self._right] & 1:
            out.append(t.on_right[t.double_index[self._right]])
        out.append(STOP)
        return tuple(out)

    def _plays(self, playable: int, left: int, right: int) -> tuple[Move, ...]:
        t = self._t
        fit_left, fit_right = t.fits[left], t.fits[right]
        out = []
        while playable:
            low = playable & -playable
            index = low.bit_length() - 1
            if fit_left & low:
                out.append(t.on_left[index])
            if fit_right & low:
                out.append(t.on_right[index])
            playable ^= low
        return tuple(out)

    def _apply(self, move: Move) -> None:
        seat = self._turn
        assert seat is not None  # only a round with a seat to move is moved
        left, right = self._left, self._right
        kind = move.kind
        self._stack.append(LineUndo(move, seat, self._chain, self._used))
        if kind == "play":
            tile = move.tile
            assert tile is not None  # a play names its tile
            bit = 1 << tile.index
            end = move.end
            if end is None:
                self._left, self._right = tile.high, tile.low
                self._opening = -1
            elif end == "L":
                self._left = tile.low if left == tile.high else tile.high
            else:
                self._right = tile.low if right == tile.high else tile.high
            hand = self._hands[seat] ^ bit
            self._hands[seat] = hand
            self._inhand ^= bit
            self._table |= bit
            fits = self._fits
            if not hand:
                self._over = "out"
            elif (
                self._drawn >= self._drawable
                and not self._inhand & (fits[self._left] | fits[self._right])
            ) or (self._conf.dead_layout and self._is_dead()):
                self._over = "fish"
            elif (
                self._conf.doubles_per_turn > 1
                and tile.is_double
                and end is not None
                and self._keeps_turn(hand, end)
            ):
                pass
            else:
                self._chain = self._used = 0
                self._turn = (seat + 1) % self.players
        elif kind == "draw":
            tile = self._bazar[self._drawn]
            self._drawn += 1
            bit = 1 << tile.index
            self._hands[seat] |= bit
            self._inhand |= bit
            if self._drawn >= self._drawable and not self._inhand & (
                self._fits[left] | self._fits[right]
            ):
                self._over = "fish"
        else:  # pass, stop
            self._chain = self._used = 0
            if left < 0:  # the opening decision declined: the normal leader leads
                self._opening = -1
                self._turn = self.leader
            else:
                self._turn = (seat + 1) % self.players

    def _keeps_turn(self, hand: int, end: str) -> bool:
        """After a double on ``end``: whether the turn stays for a further double."""
        chain = self._chain + 1
        if chain >= self._conf.doubles_per_turn:
            return False
        used = self._used | (1 if end == "L" else 2)
        t = self._t
        free = [p for e, p in ((1, self._left), (2, self._right)) if not used & e]
        if not any(hand >> t.double_index[p] & 1 for p in free):
            return False
        self._chain, self._used = chain, used
        return True

    def _is_dead(self) -> bool:
        """The dead-layout fish (``common.md`` §6): both ends show ``x`` and every non-double
        ``x`` is on the table."""
        left = self._left
        if left != self._right:
            return False
        singles = self._t.suit_singles[left]
        return self._table & singles == singles

    def _undo(self, record: LineUndo) -> None:
        move, seat = record.move, record.seat
        self._turn = seat
        self._chain, self._used = record.chain, record.used
        self._over = None
        tile = move.tile
        if tile is not None:  # a play
            end = move.end
            if end is None:
                self._left = self._right = -1
            elif end == "L":
                self._left = tile.high + tile.low - self._left
            else:
                self._right = tile.high + tile.low - self._right
            bit = 1 << tile.index
            self._hands[seat] |= bit
            self._inhand |= bit
            self._table ^= bit
        elif move is DRAW:
            self._drawn -= 1
            bit = 1 << self._bazar[self._drawn].index
            self._hands[seat] ^= bit
            self._inhand ^= bit
        if not self._stack:  # back at the start: its opening decision (if any) is open again
            # (the start's own, not one worked out afresh: a round rebuilt from a view
            # starts where the view stands, maybe past the decision)
            self._opening = self._start_opening

    # -- the end ---------------------------------------------------------------------------

    def _outcome(self) -> Outcome:
        reason = self._over
        assert reason is not None  # the outcome of a round over
        hist = self.history()
        plays = [(s, m) for s, m, _ in hist if m.kind in PLACEMENTS]
        last_seat = plays[-1][0] if plays else None
        last_turn = final_turn(hist)
        lead = plays[0][1].tile if plays else None
        out_seat = last_seat if self._over == "out" else None
        fisher = last_seat if self._over == "fish" else None
        extra: dict[str, Any] = {}
        if out_seat is not None and self.rules[GENERAL_OFFICER]:
            mine = [m.tile for s, m in plays if s == out_seat and m.tile is not None]
            title = _title(mine, last_turn)
            if title:
                extra["title"] = title
        privileged = self._privileged_side()
        if (
            privileged is not None
            and plays
            and str(lead) == "6-6"
            and self.rules.side_of(plays[0][0]) == privileged
        ):
            extra["hundred"] = privileged
        return Outcome(
            reason,
            out_seat=out_seat,
            remaining=self.hands,
            points=(0,) * self.players,
            fisher=fisher,
            leader=plays[0][0] if plays else self.leader,
            lead=lead,
            last_turn=last_turn if self._over == "out" or fisher is not None else (),
            extra=extra or None,
        )

    # -- what seats may know -----------------------------------------------------------------

    def _restore(self, view: View) -> None:
        self._read_view(view)
        self._viewed_over = self._over
        if self._over is None and self._left >= 0 and self._nobody_can_move():
            # the view goes on, so some hand holds a tile for the ends: these hands are not
            # the view's (a search's deal), and would have ended the round already (a fish)
            raise InconsistentDeal(_BLOCKED)

    @classmethod
    def pips_to_go_on(cls, view: View) -> frozenset[int] | None:
        """Nothing left to draw, a round in play has a hand with a tile for an end."""
        ends = view.ends
        if view.turn is None or view.drawable or "L" not in ends or "R" not in ends:
            return None
        return frozenset((ends["L"], ends["R"]))

    def redealt(self, hands: Sequence[Sequence[Tile]], bazar: Sequence[Tile] = ()) -> Self:
        if self._stack or not hasattr(self, "_viewed_over"):
            raise invalid("redealt_view")
        twin = self.copy()
        masks = []
        inhand = 0
        for tiles in hands:
            mask = 0
            for tile in tiles:
                mask |= 1 << tile.index
            masks.append(mask)
            inhand |= mask
        if [m.bit_count() for m in masks] != [m.bit_count() for m in self._hands]:
            raise invalid("redealt_sizes")
        twin._hands = masks
        twin._first_hands = tuple(masks)
        twin._bazar = list(bazar)
        twin._inhand = inhand
        twin._legal = twin._board = twin._views = None
        twin._over = self._viewed_over
        if twin._over is None and twin._left >= 0 and twin._nobody_can_move():
            raise InconsistentDeal(_BLOCKED)
        return twin

    def _read_view(self, view: View) -> None:
        """The public state of ``view``: the ends, the forced lead, the turn and its doubles."""
        ends = view.ends
        if "L" in ends and "R" in ends:  # a closed end («Осёл») is not listed
            self._left, self._right = ends["L"], ends["R"]
        self._lead_mask = (
            -1 if not view.extra.get("lead") else mask_of(Tile.parse(t) for t in view.extra["lead"])
        )
        self._turn = view.turn
        self._drawable = view.drawable
        self._table = mask_of(m.tile for _, m, _ in view.history if m.kind in PLACEMENTS and m.tile)
        self._chain = view.extra.get("turn_doubles", 0)
        self._opening = self._start_opening = view.extra.get("opening", -1)
        self._used = sum(
            bit for end, bit in (("L", 1), ("R", 2)) if end in view.extra.get("turn_ends", ())
        )
        self._over = None if view.turn is not None or view.outcome is None else view.outcome.reason

    def _nobody_can_move(self) -> bool:
        """Whether no hand can play on the ends and nothing can be drawn (a standard fish)."""
        if self._drawn < self._drawable:
            return False
        return not self._inhand & (self._fits[self._left] | self._fits[self._right])

    def public_extra(self, seat: int | None) -> dict[str, Any]:
        """The base's public state and the state of a turn of several moves."""
        extra = super().public_extra(seat)
        extra.update(self.turn_state())
        return extra

    def turn_state(self) -> dict[str, Any]:
        """Public state of a turn that holds several moves: doubles laid, ends used; the seat
        whose decision opens the round."""
        if self._opening >= 0:
            return {"opening": self._opening}
        if not self._chain:
            return {}
        ends = [e for e, bit in (("L", 1), ("R", 2)) if self._used & bit]
        return {"turn_doubles": self._chain, "turn_ends": ends}


#: why a deal for a view still in play is rejected where it leaves nobody a move
_BLOCKED = (
    "the hands dealt leave nobody a tile for an open end and nothing to draw, "
    "where the view's round goes on"
)


def needs_redeal(rules: Rules, hands: Sequence[Sequence[TileLike]]) -> bool:
    """Whether the rules would deal again: a hand with ``redeal_min_doubles`` doubles or
    ``redeal_min_suit`` tiles of one suit (a double is one tile of its suit)."""
    masks = [mask_of(Tile.parse(t) for t in hand) for hand in hands]
    return LineSetup.of(rules).must_redeal(masks)


def _title(plays: list[Tile], last_turn: list[Tile]) -> str | None:
    """General: going out having laid 6-6 then 0-0 (in one turn in either order); Officer:
    going out with 0-0 in the final turn (``kozel.md`` §11)."""
    names = [str(t) for t in plays]
    final = {str(t) for t in last_turn}
    if {"6-6", "0-0"} <= final or names[-2:] == ["6-6", "0-0"]:
        return "general"
    if "0-0" in final:
        return "officer"
    return None
