"""One deal: hands, bazar, table, whose move. The abstract round every family plays.

>>> import bazar
>>> rnd = bazar.Round(bazar.rules("block"), hands=[["6-6", "6-4"], ["4-1", "3-3"]],
...                   bazar=["2-2"], leader=0)
>>> type(rnd).__name__, [str(m) for m in rnd.legal_moves()]
('LineRound', ['6-4', '6-6'])
>>> rnd.push("6-6"); rnd.push("pass"); rnd.push("6-4:R")
>>> rnd.ends(), rnd.is_over(), rnd.outcome().reason
({'L': 6, 'R': 4}, True, 'out')

A round is fully defined by its rules, its deal and its move list. ``push`` changes the
state by one atomic move, ``pop`` takes it back exactly. :class:`Round` owns what every
game shares; each family (``bazar.games``) fills its hooks.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Self, cast

from mypy_extensions import mypyc_attr

from .board import Board
from .errors import IllegalMove, Names, invalid
from .ledger import Ledger
from .moves import Move, MoveSpace
from .outcome import Outcome
from .rules import Rules
from .tiles import Tile, TileLike, mask_of, tile_set, tiles_of
from .view import View

__all__ = [
    "DRAW",
    "PASS",
    "PLACEMENTS",
    "STOP",
    "Deal",
    "HistoryEntry",
    "Outcome",
    "Round",
    "Setup",
    "Tables",
    "Undo",
    "deal_seed",
    "final_turn",
    "shuffled",
]

#: one move of :meth:`Round.history`: the seat, the move, the tile drawn (None otherwise)
HistoryEntry = tuple[int, Move, Tile | None]
#: a checked explicit deal: the hands and the bazar in draw order
Deal = tuple[list[list[Tile]], list[Tile]]


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


def _copied(value: object) -> object:
    """``value`` copied by its kind, as :func:`copy_plan` would by its declared type: a list,
    a dict or a set anew, and so each list, dict or set it holds; anything else is shared."""
    cls = value.__class__
    if cls is list:
        items = cast("list[object]", value)
        if items and items[0].__class__ in (list, dict, set):
            return [_copied(item) for item in items]
        return list(items)
    if cls is dict:
        table = cast("dict[object, object]", value)
        for first in table.values():
            if first.__class__ in (list, dict, set):
                return {key: _copied(item) for key, item in table.items()}
            break
        return dict(table)
    if cls is set:
        return set(cast("set[object]", value))
    return value


def _native_state(cls: type) -> tuple[str, ...]:
    """The attributes a compiled class keeps outside any ``__dict__`` (none in pure Python)."""
    names: tuple[str, ...] = getattr(cls, "__mypyc_attrs__", ())
    return names


DRAW = Move("draw")
PASS = Move("pass")
STOP = Move("stop")
#: the move kinds that lay a tile on the table (``last``: Chicken Foot's play that announces
#: the last tile)
PLACEMENTS = ("play", "close", "last")


class Tables:
    """Per-set lookup tables of the hot path, built once per set: the tiles, which of them
    fit each pip, the interned leads and the bit of each double. A family that needs more
    subclasses it; ``of`` caches each class apart."""

    _cache: ClassVar[dict[int, Tables]]

    def __init_subclass__(cls) -> None:
        cls._cache = {}

    def __init__(self, set_max: int) -> None:
        tiles = tile_set(set_max)
        self.tiles = tiles
        self.fits = tuple(mask_of(t for t in tiles if t.has(p)) for p in range(set_max + 1))
        self.leads = tuple(Move.play(t) for t in tiles)
        self.double_index = tuple(Tile.of(p, p).index for p in range(set_max + 1))
        self.doubles = tuple(1 << i for i in self.double_index)

    @classmethod
    def of(cls, set_max: int) -> Self:
        tables = cls._cache.get(set_max)
        if tables is None:
            tables = cls._cache[set_max] = cls(set_max)
        assert isinstance(tables, cls)  # each class caches its own (__init_subclass__)
        return tables


Tables._cache = {}


class Setup:
    """What a round reads from its rules, looked up once per Rules object (a round is built
    many times from the same rules in a search or a benchmark). A family subclasses it with
    its own options; ``of`` caches each class apart."""

    _cache: ClassVar[dict[int, tuple[Rules, Setup]]]

    def __init_subclass__(cls) -> None:
        cls._cache = {}

    def __init__(self, rules: Rules) -> None:
        self.players: int = rules.players

    @classmethod
    def of(cls, rules: Rules) -> Self:
        entry = cls._cache.get(id(rules))
        if entry is None or entry[0] is not rules:
            if len(cls._cache) > 10_000:
                cls._cache.clear()
            entry = cls._cache[id(rules)] = (rules, cls(rules))
        setup = entry[1]
        assert isinstance(setup, cls)  # each class caches its own (__init_subclass__)
        return setup


Setup._cache = {}


class Undo:
    """What :meth:`Round.pop` needs to take one move back: the move and its mover. Each
    family's record adds the state the move overwrote. A record is a plain class with
    slots, not a dataclass: one is built per move, and a plain ``__init__`` is the cheapest
    named record Python has."""

    __slots__ = ("move", "seat")

    move: Move
    seat: int

    def __init__(self, move: Move, seat: int) -> None:
        self.move = move
        self.seat = seat


#: how :meth:`Round.copy` copies a container of each kind: by its outer type, then by
#: the type of what it holds where that is a container too
_COPIERS: dict[str, Callable[[Any], Any]] = {
    "list": list,
    "dict": dict,
    "set": set,
    "list[list": lambda v: [list(x) for x in v],
    "list[set": lambda v: [set(x) for x in v],
    "list[dict": lambda v: [dict(x) for x in v],
    "dict[list": lambda v: {k: list(x) for k, x in v.items()},
    "dict[set": lambda v: {k: set(x) for k, x in v.items()},
}


def _kind(annotation: str) -> str | None:
    """The copier's key of a declared type (``"list[list[Tile]] | None"`` -> ``"list[list"``),
    None where it is no container (an ``int``, a ``tuple``, a frozen record, a class-level
    constant).

    >>> _kind("list[int]"), _kind("dict[int | None, View] | None"), _kind("tuple[int, ...]")
    ('list', 'dict', None)
    >>> _kind("list[list[Tile]]"), _kind("dict[str, set[int]]"), _kind("ClassVar[list[int]]")
    ('list[list', 'dict[set', None)
    """
    text = annotation.replace(" ", "")
    if text.startswith("ClassVar"):
        return None
    depth, parts, start = 0, [], 0
    for i, char in enumerate(text):  # the union's members, split where no bracket is open
        depth += (char == "[") - (char == "]")
        if char == "|" and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    for part in parts:
        outer, _, inner = part.partition("[")
        if outer not in ("list", "dict", "set"):
            continue
        if outer == "dict":
            inner = _after_key(inner)
        nested = inner.partition("[")[0].partition(",")[0].rstrip("]")
        if f"{outer}[{nested}" in _COPIERS:
            return f"{outer}[{nested}"
        if nested in ("list", "dict", "set"):
            raise TypeError(f"Round.copy copies no {annotation}: declare a flatter state")
        return outer
    return None


def _after_key(inner: str) -> str:
    """The values' type of a dict's parameters ``K,V]``: after the comma no bracket holds."""
    depth = 0
    for i, char in enumerate(inner):
        depth += (char == "[") - (char == "]")
        if char == "," and depth == 0:
            return inner[i + 1 :]
    return ""


def copy_plan(cls: type[Round]) -> dict[str, Callable[[Any], Any]]:
    """The attributes :meth:`Round.copy` copies on a round of ``cls``, each with its copier:
    every attribute a class of the round declares (its annotations, up the classes) of a
    container type; made once a class. A test plays every variant and fails on an attribute
    a round sets without declaring it, and on a container a copy shares with its original."""
    plan = _PLANS.get(cls)
    if plan is not None:
        return plan
    kinds: dict[str, str | None] = {}
    for klass in reversed(cls.__mro__):
        for name, annotation in inspect.get_annotations(klass).items():
            kinds[name] = _kind(annotation if isinstance(annotation, str) else str(annotation))
    plan = {name: _COPIERS[kind] for name, kind in kinds.items() if kind is not None}
    _PLANS[cls] = plan
    return plan


_PLANS: dict[type[Round], dict[str, Callable[[Any], Any]]] = {}


# a family may be defined in Python: a subclass of the compiled Round
@mypyc_attr(allow_interpreted_subclasses=True)
class Round:
    """One deal of any game. ``Round(rules, seed=7)`` deals from a seed;
    ``Round(rules, hands=..., bazar=..., leader=...)`` plays an explicit deal.

    ``Round(rules, ...)`` builds the class that plays ``rules.variant`` (``Variant.round``,
    set by the family that registers the variant), so views, records, bots, the arena and the
    club treat every game alike. This class owns what every game shares: the constructor
    (the inputs, then the deal checked, then the leader checked), the move stack, ``push``
    (an identity check against the cached legal tuple, then :meth:`_apply`), ``pop``, the
    history, the views, ``copy`` and :meth:`from_view`. A family fills these hooks:

    ``_deal(rng, dealt, leader, lead)``
        Deal from ``rng`` (``dealt`` None) or take the checked explicit deal; set the hands,
        the bazar and the family's state.
    ``_lead(rng, leader, lead, seeded)``
        The seat that moves first: ``leader`` when given (already checked to be a seat),
        else the one the rules choose (``seeded``: whether the deal came from the seed).
    ``_generate()``
        The legal moves of the position, as a tuple of interned moves in the documented
        order; ``()`` once over.
    ``_apply(move)``
        Make a legal move: push the family's :class:`Undo` record, change the state.
    ``_undo(record)``
        Take back the move of ``record``, just popped off the stack.
    ``_outcome()``
        The :class:`Outcome`, once the round is over.
    ``ends()``, ``board``
        The open ends and the table as the family draws it (``View.ends``, ``View.board``).
    ``move_space(rules)``
        Every move a round of the rules can offer (:class:`~bazar.core.moves.MoveSpace`),
        which ``bazar.rl`` numbers as its fixed action space.
    ``_inputs(view)``, ``_restore(view)``
        For :meth:`from_view`: the constructor's keywords that rebuild the view's round
        (the base's: its leader and number), then the public state of ``view`` set on the
        round built from them and the view's hands; the base then gives it the match's
        ledger the view shows, as it stood before the round. A family whose round cannot be
        built that way (a view replayed move by move, blind rows) overrides
        :meth:`from_view` instead.

    The state the base reads: ``_hands`` (one bit set per seat), ``_bazar`` (the undealt
    tiles in draw order; a draw takes ``_bazar[_drawn]``), ``_drawn``, ``_drawable``,
    ``_turn``, ``_over`` (None or the reason), ``_lead_mask`` (-1: no forced lead) and
    ``_stack`` of :class:`Undo` records. A family whose state is not of that shape (blind
    rows, a showdown) overrides the public method that reads it.

    A family declares every attribute its round sets, typed, on its class: :meth:`copy`
    copies each one declared a container by its kind (:func:`copy_plan`) and shares the
    rest, which must be immutable.
    """

    rules: Rules
    seed: int | None
    number: int
    previous: Outcome | None
    dealer: int | None
    leader: int
    players: int
    _hands: list[int]
    _bazar: list[Tile]
    _drawn: int
    _drawable: int
    _turn: int | None
    _over: str | None
    #: the tiles the leader must choose from (a bit set), -1 where any tile may lead; set
    #: by the families that force a lead
    _lead_mask: int = -1
    #: the :class:`Undo` records of the moves made; each family declares it a list of its
    #: own record (``list[LineUndo]``), which a ``list[Undo]`` here would forbid (a list is
    #: invariant), and its ``_undo`` takes that record
    _stack: list[Any]
    _legal: tuple[Move, ...] | None
    #: the board of the position now, made once (each family's ``board`` property)
    _board: Board | None
    #: the match's views of the position now, by seat (:meth:`Match.view`), made once
    _views: dict[int | None, View] | None
    #: the moves made before the stack's, in a round rebuilt from a view (:meth:`from_view`)
    _base: tuple[HistoryEntry, ...] = ()
    _first_hands: tuple[int, ...]
    _ledger: Ledger | None

    def __new__(cls, rules: Rules, *args: Any, **kwargs: Any) -> Self:
        """``Round(rules, ...)`` makes the round of the family that plays ``rules``; a family's
        own class makes its own (Python then calls its ``__init__``)."""
        if cls is Round and isinstance(rules, Rules):
            family = cls.played_by(rules)
            # the family's own __new__ (this one, through it) allocates it as compiled
            # code must: object.__new__ of a compiled class is refused outside its own
            return cast(Self, family.__new__(family, rules))
        return object.__new__(cls)

    @staticmethod
    def played_by(rules: Rules) -> type[Round]:
        """The family's class that plays ``rules`` (its variant's ``round``)."""
        family = rules.variant.round
        if family is None:
            raise TypeError(f"variant {rules.name} names no Round class (Variant.round)")
        return family

    def __init__(
        self,
        rules: Rules,
        seed: int | None = None,
        *,
        hands: Sequence[Sequence[TileLike]] | None = None,
        bazar: Sequence[TileLike] | None = None,
        leader: object = None,
        number: int = 1,
        previous: Outcome | None = None,
        ledger: Ledger | None = None,
        dealer: int | None = None,
        lead: Sequence[TileLike] | None = None,
    ) -> None:
        # ``leader`` is a seat or None; anything else is refused in words (a compiled round
        # would refuse a typed parameter with a bare TypeError)
        self._begin(rules, seed, number, previous, ledger, dealer)
        first = None if leader is None else self._check_seat("leader", leader)
        rng = random.Random(seed)
        if hands is None:
            if bazar is not None:
                raise invalid("hands_with_bazar")
            self._deal(rng, None, first, lead)
        else:
            self._deal(rng, self._check_deal(hands, bazar), first, lead)
        self.leader = self._lead(rng, first, lead, hands is None)
        self._first_hands = tuple(self._hand_masks())

    def _begin(
        self,
        rules: Rules,
        seed: int | None,
        number: int,
        previous: Outcome | None,
        ledger: Ledger | None,
        dealer: int | None,
    ) -> None:
        """What the constructor records first: the round's inputs (DESIGN.md), an empty
        move stack."""
        if not isinstance(rules, Rules):
            raise TypeError(f"Round needs a Rules object (bazar.rules(...)), not {rules!r}")
        self.rules = rules
        self.seed = seed
        self.number = number
        self.previous = previous
        self.dealer = dealer
        self.players = rules.players
        self._ledger = ledger
        self._drawn = 0
        self._drawable = 0
        self._over = None
        self._stack = []
        self._legal = None
        self._board = None
        self._views = None

    def _check_seat(self, name: str, seat: object) -> int:
        """A seat given by the caller (``leader``, ``dealer``) must be one of the table's."""
        players = self.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            if name == "leader":
                raise invalid("leader_seat", last=players - 1, leader=seat)
            raise invalid("seat_of", name=name, last=players - 1, seat=seat)
        return seat

    def _check_deal(
        self, hands: Sequence[Sequence[TileLike]], bazar: Sequence[TileLike] | None
    ) -> Deal:
        """An explicit deal checked: one hand per seat, distinct tiles of the rules' set."""
        if len(hands) != self.players:
            raise invalid(
                "hands_count", game=self.rules.name, players=self.players, hands=len(hands)
            )
        hand_lists = [[Tile.parse(t) for t in h] for h in hands]
        bazar_list = [Tile.parse(t) for t in (bazar or ())]
        seen: set[Tile] = set()
        set_max = self.rules.set_max
        for tile in (t for h in [*hand_lists, bazar_list] for t in h):
            if tile.high > set_max:
                raise invalid("tile_not_in_set", tile=tile, high=set_max)
            if tile in seen:
                raise invalid("tile_twice", tile=tile)
            seen.add(tile)
        return hand_lists, bazar_list

    # -- the hooks -------------------------------------------------------------------------

    def _deal(
        self,
        rng: random.Random,
        dealt: Deal | None,
        leader: int | None,
        lead: Sequence[TileLike] | None,
    ) -> None:
        raise NotImplementedError

    def _lead(
        self,
        rng: random.Random,
        leader: int | None,
        lead: Sequence[TileLike] | None,
        seeded: bool,
    ) -> int:
        raise NotImplementedError

    def _generate(self) -> tuple[Move, ...]:
        raise NotImplementedError

    def _apply(self, move: Move) -> None:
        raise NotImplementedError

    def _undo(self, record: Any) -> None:
        raise NotImplementedError

    def _outcome(self) -> Outcome:
        raise NotImplementedError

    def ends(self) -> dict[str, int]:
        """The open ends, end id -> pip; ``{}`` before the lead and in games without ends."""
        raise NotImplementedError

    @property
    def board(self) -> Board:
        """What lies on the table, as the family's typed :class:`~bazar.core.board.Board`."""
        raise NotImplementedError

    def _restore(self, view: View) -> None:
        """Set the public state of ``view`` (the table, the turn, the turn in progress) on a
        round built from the view's hands and bazar (:meth:`from_view`)."""
        raise NotImplementedError

    # -- the state -------------------------------------------------------------------------

    @property
    def turn(self) -> int | None:
        """The seat to move; None once the round is over."""
        return None if self._over else self._turn

    @property
    def hands(self) -> list[tuple[Tile, ...]]:
        """Every hand (the full state, not a view)."""
        return [tiles_of(h) for h in self._hand_masks()]

    @property
    def bazar(self) -> tuple[Tile, ...]:
        """The tiles not yet drawn, in draw order (hidden from every seat)."""
        return tuple(self._bazar[self._drawn :])

    @property
    def bazar_size(self) -> int:
        """The tiles in no hand and not on the table (reserve and dead tiles included)."""
        return len(self._bazar) - self._drawn

    @property
    def drawable(self) -> int:
        """How many of the bazar's tiles may still be drawn."""
        return max(0, self._drawable - self._drawn)

    @property
    def ledger(self) -> Ledger:
        """The scores before this round."""
        if self._ledger is None:
            self._ledger = Ledger.new(self.rules)
        return self._ledger

    @property
    def moves(self) -> list[Move]:
        """The moves pushed, first to last."""
        # read off the stack, not history(): the benchmark loop asks it once a round
        return [move for _, move, _ in self._base] + [record.move for record in self._stack]

    def history(self) -> list[HistoryEntry]:
        """Every move as (seat, move, tile drawn or None), the full state."""
        out = list(self._base)
        drawn = 0
        for record in self._stack:
            move = record.move
            if move is DRAW:
                out.append((record.seat, move, self._bazar[drawn]))
                drawn += 1
            else:
                out.append((record.seat, move, None))
        return out

    def moves_of(self, start: int = 0) -> list[tuple[int, Move]]:
        """The moves from number ``start`` (0: the first) as (seat, move): the public part
        of :meth:`history`, cheap to read near its end (an observer that follows a round
        reads only what is new)."""
        base = self._base
        if start < len(base):
            out = [(seat, move) for seat, move, _ in base[start:]]
            start = len(base)
        else:
            out = []
        out += [(record.seat, record.move) for record in self._stack[start - len(base) :]]
        return out

    @property
    def ply(self) -> int:
        """How many moves were made (those before a view's too, in a round rebuilt from it)."""
        return len(self._base) + len(self._stack)

    def stamp(self, ply: int | None = None) -> object:
        """An object that stays the same exactly while the first ``ply`` moves (None: all)
        stand: an observer that read them keeps it to know they were not taken back."""
        stack = self._stack
        if ply is None:
            return stack[-1] if stack else self._base
        k = ply - len(self._base)
        return stack[k - 1] if k > 0 else self._base

    def moves_since(self, ply: int, stamp: object) -> list[tuple[int, Move]] | None:
        """The moves after the first ``ply`` as (seat, move) if those still stand (their
        :meth:`stamp` is ``stamp``), else None: what an observer that read them reads next."""
        if ply > self.ply or self.stamp(ply) is not stamp:
            return None
        return self.moves_of(ply)

    def hand_sizes(self) -> tuple[int, ...]:
        """How many tiles each seat holds (what every seat sees)."""
        return tuple(map(int.bit_count, self._hand_masks()))

    @classmethod
    def move_space(cls, rules: Rules) -> MoveSpace:
        """Every move a round of ``rules`` can ever offer: the family's declaration, which
        ``bazar.rl`` numbers as its fixed action space."""
        raise NotImplementedError

    def played(self) -> tuple[Tile, ...]:
        """The tiles on the table, in the order they were played."""
        return tuple(m.tile for _, m, _ in self.history() if m.kind in PLACEMENTS and m.tile)

    def scoring(self) -> list[tuple[int, int]]:
        """The points scored during play so far, as ``(seat, points)`` in order (none in
        the games that score only at the end)."""
        return []

    def lead_tiles(self) -> tuple[Tile, ...] | None:
        """The tiles the leader must choose from when the rules force the lead, else None."""
        return None if self._lead_mask == -1 else tiles_of(self._lead_mask)

    def is_over(self) -> bool:
        return self._over is not None

    def outcome(self) -> Outcome | None:
        """How the round ended, once it is over."""
        return None if self._over is None else self._outcome()

    # -- moves -----------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move of the seat to move, in the family's documented order."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return list(legal)

    def push(self, move: Move | str | object) -> None:
        """Make a move (a Move or its notation). An illegal move raises :class:`IllegalMove`
        and leaves the round as it was, and so does anything else (``object``: a compiled
        round would refuse it with a bare TypeError)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        made = move if isinstance(move, Move) else self._parse(move)
        if made not in legal:
            raise self._illegal(made)
        self._legal = self._board = self._views = None
        self._apply(made)

    def _parse(self, move: object) -> Move:
        try:
            return Move.parse(move)
        except ValueError as error:
            raise IllegalMove.from_error(error) from None

    def _illegal(self, move: Move) -> IllegalMove:
        if self._over is not None:
            return IllegalMove.of("illegal_move_over", move=move)
        legal = Names(self._legal or ()) or "none"
        high = self.rules.set_max
        if move.tile is not None and move.tile.high > high:
            return IllegalMove.of(
                "illegal_move_tile",
                move=move,
                seat=self._turn,
                tile=move.tile,
                high=high,
                legal=legal,
            )
        return IllegalMove.of("illegal_move", move=move, seat=self._turn, legal=legal)

    def pop(self) -> Move:
        """Take back the last move and return it."""
        try:
            record = self._stack.pop()
        except IndexError:
            raise IndexError("no move to take back") from None
        self._legal = self._board = self._views = None
        self._undo(record)
        move: Move = record.move
        return move

    def copy(self) -> Self:
        """An independent copy of the round, its move stack included: each attribute that
        its class declares a container (a list, a dict, a set, a list of lists ...) is
        copied by its kind (:func:`copy_plan`); the rest (numbers, tiles, records, tuples,
        the shared tables) is immutable and shared."""
        cls = type(self)
        twin = cls.__new__(cls, self.rules)
        plan = _PLANS.get(cls)
        if plan is None:
            plan = copy_plan(cls)
        # a compiled class keeps its attributes where __mypyc_attrs__ names them, an
        # interpreted one (and what an interpreted subclass adds) in its __dict__
        for name in _native_state(cls):
            try:
                value = getattr(self, name)
            except AttributeError:  # never set in this round
                continue
            # (a compiled class keeps no annotations to plan by: each value by its kind)
            setattr(twin, name, _copied(value))
        state = getattr(self, "__dict__", None)
        if state:
            copied = twin.__dict__
            copied.update(state)
            for name, copier in plan.items():
                value = copied.get(name)
                if value is not None:
                    copied[name] = copier(value)
        return twin

    # -- what seats may know -----------------------------------------------------------------

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know (``None``: the spectators' view). Holds no reference to the
        round, no other seat's tile and not the bazar order."""
        return View.of(self, seat)

    def seen_hand(self, seat: int) -> tuple[Tile, ...] | None:
        """The hand ``seat`` sees of its own (a game with blind rows shows None)."""
        return tiles_of(self._hand_masks()[seat])

    def hand_mask(self, seat: int) -> int | None:
        """:meth:`seen_hand` as a bit set (bit ``tile.index`` for each tile)."""
        return self._hand_masks()[seat]

    def _hand_masks(self) -> list[int]:
        """Every hand as a bit set (a family that keeps its hands otherwise says them so)."""
        return self._hands

    def public_extra(self, seat: int | None) -> dict[str, Any]:
        """The game-specific public state a view of ``seat`` carries (``View.extra``): the
        leader and the round's number; the forced lead, to the leader before his lead."""
        extra: dict[str, Any] = {"leader": self.leader, "number": self.number}
        lead = self.lead_tiles()
        if lead is not None and seat == self.leader and not self._stack and not self._base:
            extra["lead"] = [str(t) for t in lead]
        return extra

    def deal(self) -> dict[str, Any]:
        """The deal as a record stores it: hands, bazar in draw order, leader, forced lead;
        the constructor takes it back as keywords."""
        data: dict[str, Any] = {
            "hands": [[str(t) for t in tiles_of(h)] for h in self._first_hands],
            "bazar": [str(t) for t in self._bazar],
            "leader": self.leader,
        }
        if self._lead_mask != -1:
            data["lead"] = [str(t) for t in tiles_of(self._lead_mask)]
        return data

    @classmethod
    def from_view(
        cls,
        view: View,
        hands: Sequence[Sequence[TileLike]],
        bazar: Sequence[TileLike] = (),
    ) -> Round:
        """A full round consistent with ``view``: the table and history of the view, the given
        hands (the viewer's own must match) and the given bazar in draw order. Its moves can
        be pushed and popped back to this position, not before it."""
        rules = view.rules
        if cls is Round:
            return cls.played_by(rules).from_view(view, hands, bazar)
        cls._check_view(view, hands, bazar)
        rnd = cls(rules, hands=hands, bazar=bazar, **cls._inputs(view))
        rnd._base = tuple(view.history)
        rnd._restore(view)
        if "scores" in view.scores:  # the match's scores, which the rules may read in play
            public = Ledger.from_public(rules, view.scores)
            rnd._ledger = public.before_play(rnd.scoring())
        rnd._board = rnd._views = None  # (the position the view set)
        return rnd

    @classmethod
    def pips_to_go_on(cls, view: View) -> frozenset[int] | None:
        """The pips of which some hand must hold a tile for the round of ``view`` to go on
        as it shows, or None where the view asks nothing of the hands (the default: a round
        over, tiles left to draw, a family that does not end so). Where nothing is left to
        draw, a round in which no hand holds a tile for a place a tile may go is over (a
        fish): hands dealt for a view still in play (:mod:`bazar.bots.sampler`) hold one,
        and :meth:`from_view` rejects those that do not
        (:class:`~bazar.core.errors.InconsistentDeal`)."""
        return None

    def redealt(self, hands: Sequence[Sequence[Tile]], bazar: Sequence[Tile] = ()) -> Self | None:
        """A copy of this round, built by :meth:`from_view` and still at its view's position,
        with other hands and bazar in the same sizes (the viewer's own unchanged): what a
        search deals many times from one view, without rebuilding the public state each
        time. None where the family rebuilds each deal from the view (the default)."""
        return None

    @property
    def rewards_long_plans(self) -> bool:
        """Whether the game rewards plans that pay off over many turns, further than a
        playout laying the heaviest tile first can see (one's own train in Mexican Train).
        A searching bot then keeps the heuristic's planned move unless its search shows
        another clearly better. False unless the family says otherwise."""
        return False

    @classmethod
    def _inputs(cls, view: View) -> dict[str, Any]:
        """The constructor's keywords, besides the deal, that rebuild the round of ``view``
        (:meth:`from_view`): the leader and the round's number (a later round's rules may
        differ: Sea Kozel's hundred), and what else the family's deal reads."""
        return {"leader": view.extra.get("leader", 0), "number": view.extra.get("number", 1)}

    @staticmethod
    def _check_view(
        view: View, hands: Sequence[Sequence[TileLike]], bazar: Sequence[TileLike]
    ) -> None:
        """Hands and bazar against what ``view`` shows: a hand a seat, of the size shown, the
        viewer's own among them, and a bazar of the size shown."""
        rules = view.rules
        if len(hands) != rules.players:
            raise invalid("view_hands", players=rules.players, given=len(hands))
        if len(bazar) != view.bazar_size:
            raise invalid("view_bazar", size=view.bazar_size, given=len(bazar))
        if view.seat is not None and view.hand is not None:
            mine = tuple(sorted(Tile.parse(t) for t in hands[view.seat]))
            if mine != tuple(sorted(view.hand)):
                raise invalid("view_own_hand")
        for seat, size in enumerate(view.hand_sizes):
            if len(hands[seat]) != size:
                raise invalid("view_hand_size", seat=seat, size=size, given=len(hands[seat]))


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
        laid = move.tile if move.kind in PLACEMENTS else None
        if seat is None:  # the moves after the last tile (a fish on a draw) are not its turn
            if laid is not None:
                seat = mover
                tiles.append(laid)
            continue
        if mover != seat or move.kind == "stop":
            break
        if laid is not None:
            tiles.append(laid)
    tiles.reverse()
    return tiles
