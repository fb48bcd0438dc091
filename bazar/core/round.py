"""One deal: hands, bazar, layout, whose move. The mutable state of every game.

>>> import bazar
>>> rnd = bazar.Round(bazar.rules("block"), hands=[["6-6", "6-4"], ["4-1", "3-3"]],
...                   bazar=["2-2"], leader=0)
>>> [str(m) for m in rnd.legal_moves()]
['6-4', '6-6']
>>> rnd.push("6-6"); rnd.push("pass"); rnd.push("6-4:R")
>>> rnd.ends(), rnd.is_over(), rnd.outcome().reason
({'L': 6, 'R': 4}, True, 'out')

A round is fully defined by its rules, its deal and its move list. ``push`` changes the
state by one atomic move, ``pop`` takes it back exactly.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import Any, ClassVar

from .board import Line
from .errors import IllegalMove
from .ledger import Ledger
from .moves import Move
from .outcome import Outcome
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
from .rules import Rules
from .scoring import fish_winner, hand_value
from .tiles import Tile, mask_of, tile_set, tiles_of
from .view import View

__all__ = ["Outcome", "Round", "deal_seed", "final_turn", "lead_order", "needs_redeal"]

TileLike = Tile | str


def deal_seed(match_seed: int | str, number: int) -> int:
    """The seed of round ``number`` of a match: the first 8 bytes of sha256("{seed}:{number}")."""
    import hashlib

    digest = hashlib.sha256(f"{match_seed}:{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def shuffled(tiles: Sequence[Tile], rng: random.Random) -> list[Tile]:
    """Fisher–Yates driven by ``rng.random()``, the same on every Python version."""
    out = list(tiles)
    rand = rng.random
    for i in range(len(out) - 1, 0, -1):
        j = int(rand() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


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
    raise ValueError(f"unknown lead order {order!r}")


def lowest_tile_key(tile: Tile) -> tuple[int, int]:
    """The "lowest tile" of a lot: fewer pips, then the smaller half (``fives.md`` §3)."""
    return (tile.pips, tile.low)


class _Tables:
    """Per-set lookup tables of the hot path: which tiles fit a pip, the interned plays."""

    _cache: ClassVar[dict[int, _Tables]] = {}

    def __init__(self, set_max: int) -> None:
        tiles = tile_set(set_max)
        self.tiles = tiles
        self.fits = [mask_of(t for t in tiles if t.has(p)) for p in range(set_max + 1)]
        self.leads = [Move.play(t) for t in tiles]
        self.on_left = [Move.play(t, "L") for t in tiles]
        self.on_right = [Move.play(t, "R") for t in tiles]
        self.double_index = [Tile.of(p, p).index for p in range(set_max + 1)]
        self.moves_cache: dict[int, tuple[Move, ...]] = {}

    @classmethod
    def of(cls, set_max: int) -> _Tables:
        tables = cls._cache.get(set_max)
        if tables is None:
            tables = cls._cache[set_max] = cls(set_max)
        return tables


class _Setup:
    """What a Round reads from its rules, looked up once per Rules object."""

    _cache: ClassVar[dict[int, tuple[Rules, _Setup]]] = {}

    def __init__(self, rules: Rules) -> None:
        self.players: int = rules.players
        self.hand_size: int = rules.hand_size
        self.draw: bool = rules.draw
        self.reserve: int = rules.bazar_reserve if self.draw else 0
        self.tables = _Tables.of(rules.set_max)
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
        set_max = rules.set_max
        #: the non-double tiles of each suit, for the dead-layout test
        self.suit_singles = [
            mask_of(t for t in self.tables.tiles if t.has(p) and not t.is_double)
            for p in range(set_max + 1)
        ]
        self.doubles = [1 << Tile.of(p, p).index for p in range(set_max + 1)]

    @classmethod
    def of(cls, rules: Rules) -> _Setup:
        entry = cls._cache.get(id(rules))
        if entry is None or entry[0] is not rules:
            if len(cls._cache) > 10_000:
                cls._cache.clear()
            entry = cls._cache[id(rules)] = (rules, cls(rules))
        return entry[1]


#: a deal the redeal rule rejects this many times in a row means the rule cannot be met
_MAX_REDEALS = 1000

DRAW = Move("draw")
PASS = Move("pass")
STOP = Move("stop")
#: the move kinds that lay a tile on the table (``last``: Chicken Foot's play that announces
#: the last tile)
PLACEMENTS = ("play", "close", "last")

# undo record fields: (move, seat, left, right, tile index or -1, doubles laid this turn,
# ends used this turn); the mover had the turn
_Undo = tuple[Move, int, int, int, int, int, int]


class Round:
    """One deal of a layout game. ``Round(rules, seed=7)`` deals from a seed;
    ``Round(rules, hands=..., bazar=..., leader=...)`` plays an explicit deal.

    ``Round(rules, ...)`` builds the class registered in :attr:`families` for
    ``rules.variant.family``; this class itself plays the line games. A family with another
    layout (trains, a tree, a sausage, tricks, a showdown) subclasses it and keeps the same
    public interface, so views, records, bots, the arena and the server treat every game
    alike. Such a subclass provides: ``__init__`` (same signature; deal with
    :func:`shuffled` from ``random.Random(seed)``), ``turn``, ``hands``, ``bazar``,
    ``bazar_size``, ``drawable``, ``ends()``, ``legal_moves()``, ``push()`` (raising
    :class:`IllegalMove` with the state unchanged), ``pop()``, ``copy()``, ``moves``,
    ``history()`` (every move as ``(seat, move, tile drawn or None)``), ``board``
    (JSON-safe), ``is_over()``, ``outcome()``, ``deal()`` (what a record stores; the
    constructor must accept it back as keywords), ``seen_hand()``, ``public_extra()`` and
    ``from_view()``; :class:`~bazar.core.view.View` is built from these alone.
    """

    #: the Round class of each layout family (``Rules.variant.family``)
    families: ClassVar[dict[str, type[Round]]] = {}

    def __new__(cls, rules: Rules, *args: Any, **kwargs: Any) -> Round:
        if cls is Round and isinstance(rules, Rules):
            cls = Round.families.get(rules.variant.family, Round)
        return object.__new__(cls)

    def __init__(
        self,
        rules: Rules,
        seed: int | None = None,
        *,
        hands: Sequence[Sequence[TileLike]] | None = None,
        bazar: Sequence[TileLike] | None = None,
        leader: int | None = None,
        number: int = 1,
        previous: Outcome | None = None,
        ledger: Ledger | None = None,
        dealer: int | None = None,
        lead: Sequence[TileLike] | None = None,
    ) -> None:
        self._begin(rules, seed, number, previous, ledger, dealer)
        setup = _Setup.of(rules)
        players = self.players = setup.players
        t = self._t = setup.tables
        self._fits = t.fits
        rng = random.Random(seed)
        lot: list[Tile] | None = None
        if hands is None:
            if bazar is not None:
                raise ValueError("give hands with bazar, or a seed alone")
            lot = self._lot(rng) if leader is None else None
            size = setup.hand_size
            for attempt in range(_MAX_REDEALS + 1):
                if attempt == _MAX_REDEALS:
                    raise ValueError(
                        "the redeal rule (redeal_min_doubles / redeal_min_suit) rejected "
                        f"{_MAX_REDEALS} deals in a row: it can hardly ever be met"
                    )
                deck = shuffled(t.tiles, rng)
                masks = []
                for i in range(players):
                    mask = 0
                    for tile in deck[i * size : (i + 1) * size]:
                        mask |= 1 << tile.index
                    masks.append(mask)
                if not self._must_redeal(setup, masks):
                    break
            self._hands = masks
            self._bazar = deck[players * size :]
        else:
            hand_lists, self._bazar = self._check_deal(hands, bazar)
            self._hands = [mask_of(h) for h in hand_lists]
        self._drawable = max(0, len(self._bazar) - setup.reserve) if setup.draw else 0
        self._drawn = 0
        inhand = 0
        for h in self._hands:
            inhand |= h
        self._inhand = inhand
        self._left = -1
        self._right = -1
        self._table = 0
        self._chain = 0
        self._used = 0
        self._dpt = setup.doubles_per_turn
        self._dead_layout = setup.dead_layout
        self._suit_singles = setup.suit_singles
        self._stack: list[_Undo] = []
        self._over: str | None = None
        self._legal: tuple[Move, ...] | None = None
        self._base: tuple[tuple[int, Move, Tile | None], ...] = ()
        free_lead = lead is None and leader is not None
        if lead is not None:
            if leader is None:
                raise ValueError("a forced lead needs a leader")
            lead_mask = mask_of(Tile.parse(t) for t in lead)
        elif leader is None:
            leader, lead_mask = self._choose_leader(rng, lot, hands is not None)
        else:
            lead_mask = -1
        if isinstance(leader, bool) or not isinstance(leader, int) or not 0 <= leader < players:
            raise ValueError(f"leader must be a seat from 0 to {players - 1}, not {leader!r}")
        if free_lead:
            # API.md: a chosen leader leads any tile except those an option forbids
            lead_mask = self._free_lead_mask(leader)
        if not self._hands[leader]:
            raise ValueError(f"seat {leader} leads but holds no tile")
        self.leader = leader
        self._lead_mask = lead_mask
        self._privileged = self._privileged_side()
        self._opening = self._opening0 = self._opening_seat()
        self._turn: int | None = leader if self._opening < 0 else self._opening

    # -- construction helpers --------------------------------------------------------------

    def _begin(
        self,
        rules: Rules,
        seed: int | None,
        number: int,
        previous: Outcome | None,
        ledger: Ledger | None,
        dealer: int | None,
    ) -> None:
        """What every family's constructor records first: the round's inputs (DESIGN.md)."""
        if not isinstance(rules, Rules):
            raise TypeError(f"Round needs a Rules object (bazar.rules(...)), not {rules!r}")
        self.rules = rules
        self.seed = seed
        self.number = number
        self.previous = previous
        self.dealer = dealer
        self._ledger = ledger

    def _check_deal(
        self, hands: Sequence[Sequence[TileLike]], bazar: Sequence[TileLike] | None
    ) -> tuple[list[list[Tile]], list[Tile]]:
        if len(hands) != self.players:
            raise ValueError(
                f"{self.rules.name} with {self.players} players needs "
                f"{self.players} hands, not {len(hands)}"
            )
        hand_lists = [[Tile.parse(t) for t in h] for h in hands]
        bazar_list = [Tile.parse(t) for t in (bazar or ())]
        seen: set[Tile] = set()
        set_max = self.rules.set_max
        for tile in (t for h in [*hand_lists, bazar_list] for t in h):
            if tile.high > set_max:
                raise ValueError(f"tile {tile} is not in double-{set_max}")
            if tile in seen:
                raise ValueError(f"tile {tile} is dealt twice")
            seen.add(tile)
        return hand_lists, bazar_list

    def _lot(self, rng: random.Random) -> list[Tile] | None:
        """Before the deal, when a lot decides the lead: one tile drawn by each player."""
        if not _Setup.of(self.rules).may_lot or self._lead_rule() != "lot":
            return None
        return shuffled(self._t.tiles, rng)[: self.players]

    def _lead_rule(self) -> str:
        """The rule that chooses this round's leader (``common.md`` §10)."""
        r = self.rules
        prev = self.previous
        if prev is None or self.number <= 1:
            return _Setup.of(r).first_lead
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
                    raise ValueError("the previous round's fisher is needed to choose the leader")
                return prev.fisher
            return out if rule == "winner_or_fisher" else (out + 2) % players
        raise ValueError(f"lead rule {rule!r} is not played by {self.rules.name}")

    def _free_lead_mask(self, seat: int) -> int:
        """What a leader who may lead any tile may lead: not 0-0 where it may not lead, a
        double other than 0-0 and 6-6 where the later leader must lead one (``kozel.md`` §3)."""
        hand = self._hands[seat]
        mask = -1
        if not _Setup.of(self.rules).zero_zero_may_lead and hand & ~1:
            mask &= ~1
        if self.rules[LATER_LEAD_MUST_DOUBLE] and self.number > 1:
            doubles = _Setup.of(self.rules).doubles
            plain = sum(doubles[1:-1]) & hand
            if plain:
                mask = plain | (hand & (doubles[0] | doubles[-1]) & mask)
        # a restriction is a set of tiles in the hand: lead_tiles() and deal() list it
        return mask if mask == -1 else mask & hand

    def _privileged_side(self) -> int | None:
        """The side that may open with a "hundred" (Sea Kozel, ``sea-kozel.md`` §2)."""
        if not _Setup.of(self.rules).hundred_privilege or self.number <= 1:
            return None
        key = "record_holder" if self.rules[SINGLE_RECORD] else "first_recorded"
        side: int | None = self.ledger.get(key)
        return side

    def _opening_seat(self) -> int:
        """The seat whose decision opens the round (a hundred or ``stop``), or -1."""
        side = self._privileged
        if side is None:
            return -1
        six = _Setup.of(self.rules).doubles[6]
        for seat, hand in enumerate(self._hands):
            if hand & six and self.rules.side_of(seat) == side and seat != self.leader:
                return seat
        return -1

    @staticmethod
    def _must_redeal(setup: _Setup, hands: list[int]) -> bool:
        """Whether a hand holds too many doubles or too many tiles of one suit (``kozel.md`` §2)."""
        most_doubles, most_suit = setup.redeal_min_doubles, setup.redeal_min_suit
        if most_doubles is None and most_suit is None:
            return False
        all_doubles = sum(setup.doubles)
        fits = setup.tables.fits
        for hand in hands:
            if most_doubles is not None and (hand & all_doubles).bit_count() >= most_doubles:
                return True
            if most_suit is not None and any((hand & f).bit_count() >= most_suit for f in fits):
                return True
        return False

    def _first_held(self, order: str) -> tuple[int, Tile]:
        """The first tile of a lead order that is in a hand, and its holder."""
        inhand = self._inhand
        if not _Setup.of(self.rules).zero_zero_may_lead:
            inhand &= ~1
        for tile in lead_order(order, self.rules.set_max):
            if inhand >> tile.index & 1:
                bit = 1 << tile.index
                return next(s for s, h in enumerate(self._hands) if h & bit), tile
        raise ValueError("nobody holds a tile to lead")

    def _block_winner_seat(self, prev: Outcome) -> int:
        side = fish_winner(self.rules, prev)
        if not self.rules.teams:
            assert side is not None
            return side
        fisher = prev.fisher if prev.fisher is not None else 0
        return fisher if self.rules.side_of(fisher) == side else (fisher + 1) % self.players

    # -- the state -------------------------------------------------------------------------

    @property
    def turn(self) -> int | None:
        """The seat to move; None once the round is over."""
        return None if self._over else self._turn

    @property
    def hands(self) -> list[tuple[Tile, ...]]:
        """Every hand (the full state, not a view)."""
        return [tiles_of(h) for h in self._hands]

    @property
    def bazar(self) -> tuple[Tile, ...]:
        """The tiles not yet drawn, in draw order (hidden from every seat)."""
        return tuple(self._bazar[self._drawn :])

    @property
    def bazar_size(self) -> int:
        return len(self._bazar) - self._drawn

    @property
    def drawable(self) -> int:
        return max(0, self._drawable - self._drawn)

    @property
    def ledger(self) -> Ledger:
        """The scores before this round."""
        if self._ledger is None:
            self._ledger = Ledger.new(self.rules)
        return self._ledger

    def ends(self) -> dict[str, int]:
        """The open ends, end id -> pip; ``{}`` before the lead."""
        if self._left < 0:
            return {}
        return {"L": self._left, "R": self._right}

    @property
    def moves(self) -> list[Move]:
        """The moves pushed, first to last."""
        return [m for _, m, _ in self._base] + [u[0] for u in self._stack]

    def history(self) -> list[tuple[int, Move, Tile | None]]:
        """Every move as (seat, move, tile drawn or None), the full state."""
        tiles = self._t.tiles
        out = list(self._base)
        for move, seat, _, _, index, _, _ in self._stack:
            out.append((seat, move, tiles[index] if move is DRAW else None))
        return out

    @property
    def board(self) -> Any:
        """The line on the table, left to right, each tile as ``a|b`` (``a`` faces left)."""
        return self.layout().row()

    def layout(self) -> Line:
        """The layout built from the plays so far."""
        line = Line()
        for _, move, _ in self.history():
            if move.kind in PLACEMENTS and move.tile is not None:
                line.place(move.tile, move.end)
        return line

    def played(self) -> tuple[Tile, ...]:
        """The tiles on the table, in the order they were played."""
        return tuple(m.tile for _, m, _ in self.history() if m.kind in PLACEMENTS and m.tile)

    def is_over(self) -> bool:
        return self._over is not None

    # -- moves -----------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move of the seat to move, in order: plays by tile (canonical order), for
        each tile the lead, then ``L``, then ``R``; else ``draw``; else ``pass``."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return list(legal)

    def _generate(self) -> tuple[Move, ...]:
        if self._over is not None:
            return ()
        hand = self._hands[self._turn]  # type: ignore[index]
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

    def push(self, move: Move | str) -> None:
        """Make a move (a Move or its notation). An illegal move raises :class:`IllegalMove`
        and leaves the round as it was."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        if move.__class__ is not Move:
            move = self._parse(move)
        if move not in legal:
            raise IllegalMove(self._illegal_message(move))
        self._apply(move)

    def _parse(self, move: Any) -> Move:
        try:
            return Move.parse(move)
        except ValueError as error:
            raise IllegalMove(str(error)) from None

    def _illegal_message(self, move: Move) -> str:
        if self._over is not None:
            return f"illegal move {move}: the round is over"
        allowed = ", ".join(map(str, self._legal or ())) or "none"
        why = ""
        if move.tile is not None and move.tile.high > self.rules.set_max:
            why = f" (no tile {move.tile} in double-{self.rules.set_max})"
        return f"illegal move {move} for seat {self._turn}{why}; legal moves: {allowed}"

    def _apply(self, move: Move) -> None:
        seat: int = self._turn  # type: ignore[assignment]
        left, right = self._left, self._right
        self._legal = None
        kind = move.kind
        if kind == "play":
            tile: Tile = move.tile  # type: ignore[assignment]
            index = tile.index
            bit = 1 << index
            end = move.end
            if end is None:
                self._left, self._right = tile.high, tile.low
                self._opening = -1
            elif end == "L":
                self._left = tile.low if left == tile.high else tile.high
            else:
                self._right = tile.low if right == tile.high else tile.high
            self._stack.append((move, seat, left, right, index, self._chain, self._used))
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
            ) or (self._dead_layout and self._is_dead()):
                self._over = "fish"
            elif (
                self._dpt > 1 and tile.is_double and end is not None and self._keeps_turn(hand, end)
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
            self._stack.append((move, seat, left, right, tile.index, 0, 0))
            if self._drawn >= self._drawable and not self._inhand & (
                self._fits[left] | self._fits[right]
            ):
                self._over = "fish"
        else:  # pass, stop
            self._stack.append((move, seat, left, right, -1, self._chain, self._used))
            self._chain = self._used = 0
            if left < 0:  # the opening decision declined: the normal leader leads
                self._opening = -1
                self._turn = self.leader
            else:
                self._turn = (seat + 1) % self.players

    def _keeps_turn(self, hand: int, end: str) -> bool:
        """After a double on ``end``: whether the turn stays for a further double."""
        chain = self._chain + 1
        if chain >= self._dpt:
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
        singles = self._suit_singles[left]
        return self._table & singles == singles

    def pop(self) -> Move:
        """Take back the last move and return it."""
        if not self._stack:
            raise IndexError("no move to take back")
        move, seat, left, right, index, chain, used = self._stack.pop()
        self._left, self._right, self._turn = left, right, seat
        self._chain, self._used = chain, used
        if not self._stack:
            self._opening = self._opening0
        self._over = None
        self._legal = None
        if move.kind == "play":
            bit = 1 << index
            self._hands[seat] |= bit
            self._inhand |= bit
            self._table ^= bit
        elif move is DRAW:
            bit = 1 << index
            self._drawn -= 1
            self._hands[seat] ^= bit
            self._inhand ^= bit
        return move

    def copy(self) -> Round:
        """An independent copy of the round, its move stack included."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin._hands = list(self._hands)
        twin._stack = list(self._stack)
        return twin

    # -- the end ---------------------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        """How the round ended, once it is over."""
        if self._over is None:
            return None
        hist = self.history()
        plays = [(s, m) for s, m, _ in hist if m.kind in PLACEMENTS]
        last_seat = plays[-1][0] if plays else None
        last_turn = final_turn(hist)
        lead = plays[0][1].tile if plays else None
        out_seat = last_seat if self._over == "out" else None
        fisher = last_seat if self._over == "fish" else None
        extra: dict[str, Any] = {}
        if out_seat is not None and self.rules[GENERAL_OFFICER]:
            mine = [m.tile for s, m in plays if s == out_seat]
            title = _title(mine, last_turn)  # type: ignore[arg-type]
            if title:
                extra["title"] = title
        if (
            self._privileged is not None
            and plays
            and str(lead) == "6-6"
            and self.rules.side_of(plays[0][0]) == self._privileged
        ):
            extra["hundred"] = self._privileged
        return Outcome(
            self._over,
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

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know (``None``: the spectators' view). Holds no reference to the
        round, no other seat's tile and not the bazar order."""
        return View.of(self, seat)

    def deal(self) -> dict[str, Any]:
        """The deal as a record stores it: hands, bazar in draw order, leader, forced lead."""
        first = [h for h in self._initial_hands()]
        data: dict[str, Any] = {
            "hands": [[str(t) for t in h] for h in first],
            "bazar": [str(t) for t in self._bazar],
            "leader": self.leader,
        }
        if self._lead_mask != -1:
            data["lead"] = [str(t) for t in tiles_of(self._lead_mask)]
        return data

    def _initial_hands(self) -> list[tuple[Tile, ...]]:
        hands = list(self._hands)
        for move, seat, _, _, index, _, _ in reversed(self._stack):
            if move.kind in PLACEMENTS:
                hands[seat] |= 1 << index
            elif move is DRAW:
                hands[seat] ^= 1 << index
        return [tiles_of(h) for h in hands]

    @classmethod
    def from_view(
        cls,
        view: View,
        hands: Sequence[Sequence[TileLike]],
        bazar: Sequence[TileLike] = (),
    ) -> Round:
        """A full round consistent with ``view``: the layout and history of the view, the given
        hands (the viewer's own must match) and the given bazar in draw order. Its moves can
        be pushed and popped back to this position, not before it."""
        rules = view.rules
        family = Round.families.get(rules.variant.family, Round)
        if cls is Round and family is not Round:  # the family's own from_view
            return family.from_view(view, hands, bazar)
        if len(hands) != rules.players:
            raise ValueError(f"the view has {rules.players} seats; {len(hands)} hands were given")
        if len(bazar) != view.bazar_size:
            raise ValueError(f"the view's bazar holds {view.bazar_size} tiles, not {len(bazar)}")
        rnd = cls(rules, hands=hands, bazar=bazar, leader=view.extra.get("leader", 0))
        if view.seat is not None and view.hand is not None:
            mine = tuple(sorted(Tile.parse(t) for t in hands[view.seat]))
            if mine != tuple(sorted(view.hand)):
                raise ValueError("the hands given do not hold the viewer's own hand")
        for seat, size in enumerate(view.hand_sizes):
            if len(hands[seat]) != size:
                raise ValueError(
                    f"seat {seat} holds {size} tiles in the view, not {len(hands[seat])}"
                )
        rnd._restore(view)
        if rnd._over is None and rnd._left >= 0 and rnd._nobody_can_move():
            # hidden tiles chosen for a search can leave nobody a move: that is a fish
            rnd._over = "fish"
        return rnd

    def _nobody_can_move(self) -> bool:
        """Whether no hand can play on the ends and nothing can be drawn (a standard fish)."""
        if self._drawn < self._drawable:
            return False
        return not self._inhand & (self._fits[self._left] | self._fits[self._right])

    def _restore(self, view: View) -> None:
        ends = view.ends
        if "L" in ends and "R" in ends:  # a closed end («Осёл») is not listed
            self._left, self._right = ends["L"], ends["R"]
        self._base = tuple(view.history)
        self._lead_mask = (
            -1 if not view.extra.get("lead") else mask_of(Tile.parse(t) for t in view.extra["lead"])
        )
        self._turn = view.turn
        self._drawable = view.drawable
        self._table = mask_of(m.tile for _, m, _ in view.history if m.kind in PLACEMENTS and m.tile)
        self._chain = view.extra.get("turn_doubles", 0)
        self._opening = view.extra.get("opening", -1)
        self._used = sum(
            bit for end, bit in (("L", 1), ("R", 2)) if end in view.extra.get("turn_ends", ())
        )
        self._over = None if view.turn is not None or view.outcome is None else view.outcome.reason

    def scoring(self) -> list[tuple[int, int]]:
        """The points scored during play so far, as ``(seat, points)`` (none in line games)."""
        return []

    def seen_hand(self, seat: int) -> tuple[Tile, ...] | None:
        """The hand ``seat`` sees of its own (a game with blind rows shows None)."""
        return tiles_of(self._hands[seat])

    def public_extra(self, seat: int | None) -> dict[str, Any]:
        """The game-specific public state a view of ``seat`` carries (``View.extra``): the
        leader, the round's number, a turn of several moves; the forced lead to the leader."""
        extra: dict[str, Any] = {"leader": self.leader, "number": self.number}
        extra.update(self.turn_state())
        lead = self.lead_tiles()
        if lead is not None and seat == self.leader and not self._stack and not self._base:
            extra["lead"] = [str(t) for t in lead]
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

    def lead_tiles(self) -> tuple[Tile, ...] | None:
        """The tiles the leader must choose from when the rules force the lead, else None."""
        return None if self._lead_mask == -1 else tiles_of(self._lead_mask)

    def hand_value(self, seat: int) -> int:
        return hand_value(self.rules, tiles_of(self._hands[seat]))


def needs_redeal(rules: Rules, hands: Sequence[Sequence[TileLike]]) -> bool:
    """Whether the rules would deal again: a hand with ``redeal_min_doubles`` doubles or
    ``redeal_min_suit`` tiles of one suit (a double is one tile of its suit)."""
    masks = [mask_of(Tile.parse(t) for t in hand) for hand in hands]
    return Round._must_redeal(_Setup.of(rules), masks)


def final_turn(history: Sequence[tuple[int, Move, Tile | None]]) -> list[Tile]:
    """The tiles of the turn that laid the round's last tile, in order (``Outcome.last_turn``).

    A turn is the run of consecutive moves of one seat: it ends at any move of another seat,
    a knock or a draw included, and at the seat's own ``stop``. Reading only the tiles would
    merge a player's earlier turns into his last one whenever the others only knock or draw.

    >>> from bazar.core.moves import Move
    >>> moves = [(0, "6-6"), (1, "pass"), (0, "6-1:R"), (1, "draw"), (1, "pass"),
    ...          (0, "3-3:L"), (0, "1-1:R")]
    >>> [str(t) for t in final_turn([(s, Move.parse(m), None) for s, m in moves])]
    ['3-3', '1-1']
    """
    tiles: list[Tile] = []
    seat: int | None = None
    for mover, move, _ in reversed(history):
        laid = move.kind in PLACEMENTS and move.tile is not None
        if seat is None:  # the moves after the last tile (a fish on a draw) are not its turn
            if laid:
                seat = mover
                tiles.append(move.tile)  # type: ignore[arg-type]
            continue
        if mover != seat or move.kind == "stop":
            break
        if laid:
            tiles.append(move.tile)  # type: ignore[arg-type]
    tiles.reverse()
    return tiles


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


Round.families["line"] = Round
