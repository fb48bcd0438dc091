"""Chicken Foot (``chicken-foot.md``): a tree that grows from the engine, where every double
must get three toes before anything else is played. Three presets after the three seed
descriptions: ``chicken-foot`` (pagat / Domino Plaza), ``chicken-foot-wiki`` (Wikipedia)
and ``chicken-foot-kz`` (the Kazakh page, gamerules.com).

Round ``k`` starts from the double ``(N - k + 1)-(N - k + 1)`` of a double-N set. The engine
needs its arms first (four, or one train per player in the Kazakh rules); a move names the
branch it extends: ``E`` starts the next arm, ``"3"`` is the third arm, and the toes of a
double that ends branch ``3`` are ``3.1``, ``3.2``, ``3.3`` in the order they are played.

>>> import bazar
>>> r = bazar.rules("chicken-foot", players=2, set_max=6, hand_size=3,
...                 engine_arms_required=2)
>>> rnd = bazar.Round(r, hands=[["6-1", "1-1", "5-4"], ["6-2", "1-0", "1-2"]],
...                   bazar=["2-2", "1-3"], leader=0)
>>> rnd.ends(), rnd.legal_moves()
({'E': 6}, [Move('6-1:E')])
>>> for move in ["6-1:E", "6-2:E", "1-1:1"]:
...     rnd.push(move)
>>> rnd.ends(), rnd.legal_moves()
({'1': 1, '2': 2}, [Move('1-0:1'), Move('2-1:1')])

Seat 0 laid 1-1 on the first arm: a foot, so seat 1 may only lay a 1 on its toes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from bazar.core.board import Laid
from bazar.core.errors import InconsistentDeal, invalid
from bazar.core.moves import Move, MoveSpace
from bazar.core.options import HAND
from bazar.core.outcome import Outcome
from bazar.core.round import (
    DRAW,
    PASS,
    STOP,
    Deal,
    HistoryEntry,
    Setup,
    Tables,
    Undo,
    shuffled,
)
from bazar.core.rules import SCORING, Family, Option, Rules, Traits, Variant, register
from bazar.core.scoring import hand_value
from bazar.core.tiles import Tile, TileLike, mask_of

from .board import TreeBoard
from .round import (
    ENGINE_SOURCE,
    HAND_SIZES,
    EngineRound,
    deal_size,
    engine_for,
    find_engine,
    penalty_totals,
)

if TYPE_CHECKING:
    from bazar.core.ledger import Ledger, MatchResult
    from bazar.core.view import View

__all__ = ["PUREMCO", "TreeRound", "decide", "highest_draw", "settle"]

LIGHT_HANDS: Option[bool] = Option(
    "light_hands", "bool", "Chicken Foot A: the seed's lighter hand sizes", False
)
MISSING_ENGINE: Option[str] = Option(
    "missing_engine",
    "enum",
    "Chicken Foot A: what happens when nobody holds the round's double",
    "draw_cycles",
    values=("draw_cycles", "next_lower", "redeal"),
)
FIRST_PLAYER: Option[str] = Option(
    "first_player",
    "enum",
    "with the engine placed before the deal: who plays first in round 1 (then clockwise)",
    "random",
    values=("highest_draw", "random"),
)
ENGINE_ARMS_REQUIRED: Option[int] = Option(
    "engine_arms_required",
    "int",
    "Chicken Foot: the arms the engine needs before anything else may be played",
    4,
    low=1,
    high=18,
)
ENGINE_ARMS_MAX: Option[int] = Option(
    "engine_arms_max", "int", "Chicken Foot: the most arms the engine may carry", 4, low=1, high=18
)
TRAINS_REQUIRED: Option[int] = Option(
    "trains_required",
    "int",
    "Chicken Foot C: the trains the engine needs before free play",
    4,
    low=2,
    high=8,
)
ENGINE_OPEN_AFTER_START: Option[bool] = Option(
    "engine_open_after_start",
    "bool",
    "Chicken Foot C: arms beyond the required ones may still be started",
    False,
)
MUST_PLAY_DRAWN: Option[bool] = Option(
    "must_play_drawn", "bool", "Chicken Foot: a drawn tile that fits must be played", True
)
OUT_ON_DOUBLE_PENALTY: Option[int] = Option(
    "out_on_double_penalty",
    "int",
    "Chicken Foot: points charged for going out with a double",
    0,
    low=0,
)
MATCH_END: Option[str] = Option(
    "match_end",
    "enum",
    "Chicken Foot: the match ends after the scheduled rounds, "
    "when someone reaches the limit, or whichever comes first",
    "schedule",
    values=("schedule", "limit", "either"),
)
ANNOUNCE_LAST_TILE: Option[bool] = Option(
    "announce_last_tile",
    "bool",
    "Chicken Foot A: a player left with one tile must announce it, or may be challenged",
    False,
)

#: Tiles dealt to each player from double-9: Puremco's table, also gamerules.com's (§3).
PUREMCO = {2: 21, 3: 14, 4: 11, 5: 8, 6: 7, 7: 6, 8: 5, 9: 5}
#: Version A's lighter hands on double-9 (option ``light_hands``).
LIGHT_HAND_SIZES = {2: 12, 3: 11, 4: 10}
#: Version A on double-12: Mexican Train's table, and 7 for 11–12 players.
DOUBLE_12 = {**HAND_SIZES, 11: 7, 12: 7}

SKIP = Move("skip")
ANNOUNCE = Move("announce")


def highest_draw(yard: Sequence[TileLike], players: int, rng: random.Random) -> int:
    """Who plays first by drawing (``chicken-foot.md`` §4, version B): every player draws one
    tile from the yard in seat order, the highest pip total starts; players tied for it draw
    again, in seat order, from the tiles that follow. Every drawn tile goes back to the yard
    once the first player is known (the seed: «все возвращают вытянутое домино на кладбище»),
    so a yard that runs out before every contender has drawn takes back the tiles drawn so
    far, reshuffled by ``rng``, and the draws go on from it: seven players on double-9 find
    five tiles in the yard, twelve on double-12 six. A yard that cannot tell the contenders
    apart (empty, or every tile of one pip total) leaves the choice to ``rng``.

    >>> rng = random.Random(1)
    >>> highest_draw(["3-5", "6-6", "2-9"], 3, rng)
    1
    >>> highest_draw(["4-8", "6-6", "2-3", "1-0", "5-5"], 3, rng)
    1
    >>> sorted({highest_draw(["9-8", "0-0"], 3, random.Random(s)) for s in range(20)})
    [0, 2]

    With two tiles for three players, seat 1 draws the 0-0 and cannot start; seat 2 draws
    after both tiles went back, and starts if he too draws the 9-8 and then beats seat 0.
    """
    tiles = [Tile.parse(t) for t in yard]
    contenders = list(range(players))
    if len({t.pips for t in tiles}) < 2:
        return contenders[int(rng.random() * players)]
    left = list(tiles)
    while len(contenders) > 1:
        drawn: list[Tile] = []
        for _ in contenders:
            if not left:
                left = shuffled(tiles, rng)
            drawn.append(left.pop(0))
        best = max(t.pips for t in drawn)
        contenders = [s for s, t in zip(contenders, drawn, strict=True) if t.pips == best]
    return contenders[0]


class TreeTables(Tables):
    """Per set: the set's tables, and the interned plays on each branch id."""

    def __init__(self, set_max: int) -> None:
        super().__init__(set_max)
        self.on: dict[str, list[Move]] = {}
        self.last: dict[str, list[Move]] = {}
        self.challenge = [Move("challenge", value=s) for s in range(18)]

    def plays(self, end: str) -> list[Move]:
        moves = self.on.get(end)
        if moves is None:
            moves = self.on[end] = [Move.play(t, end) for t in self.tiles]
        return moves

    def lasts(self, end: str) -> list[Move]:
        moves = self.last.get(end)
        if moves is None:
            moves = self.last[end] = [Move("last", t, end) for t in self.tiles]
        return moves


class TreeSetup(Setup):
    """What a TreeRound reads from its rules, looked up once per Rules object."""

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        self.tables = TreeTables.of(rules.set_max)
        self.hand_size: int = rules.hand_size
        self.source: str = rules[ENGINE_SOURCE]
        self.missing = rules[MISSING_ENGINE]
        self.first_player: str = rules[FIRST_PLAYER]
        self.required: int = rules[ENGINE_ARMS_REQUIRED]
        self.most: int = rules[ENGINE_ARMS_MAX]
        self.must_play_drawn: bool = rules[MUST_PLAY_DRAWN]
        self.reserve: int = rules.bazar_reserve
        self.announce: bool = rules[ANNOUNCE_LAST_TILE]


#: An open destination of the tree: (branch id, open pip, toes laid on its double or -1).
Dest = tuple[str, int, int]


class TreeUndo(Undo):
    """A Chicken Foot move taken back: the tree and the turn state as they were before it,
    the tile it laid or drew (``index``, -1 for none) and who drew it (``drawer``: the mover,
    or the offender of a challenge; -1 for a tile laid). A legal move is never made once the
    round is over, so the round was not over before it."""

    __slots__ = ("acted", "arms", "dests", "drawer", "drew", "foot", "index", "skips", "windows")

    index: int
    drawer: int
    arms: int
    dests: tuple[Dest, ...]
    foot: int
    drew: bool
    acted: bool
    windows: int
    skips: int

    def __init__(
        self,
        move: Move,
        seat: int,
        arms: int,
        dests: tuple[Dest, ...],
        foot: int,
        drew: bool,
        acted: bool,
        windows: int,
        skips: int,
    ) -> None:
        self.move = move
        self.seat = seat
        self.index = self.drawer = -1
        self.arms = arms
        self.dests = dests
        self.foot = foot
        self.drew = drew
        self.acted = acted
        self.windows = windows
        self.skips = skips


def grow(
    dests: tuple[Dest, ...], arms: int, engine: int, end: str, tile: Tile
) -> tuple[tuple[Dest, ...], int, int, str]:
    """The tree after ``tile`` is laid on ``end``: its destinations, arms, the index of the
    pending foot (or -1) and the id of the branch the tile now ends.

    >>> dests, arms, foot, branch = grow((), 0, 9, "E", Tile.parse("9-3"))
    >>> dests, arms, foot, branch
    ((('1', 3, -1),), 1, -1, '1')
    >>> grow(dests, arms, 9, "1", Tile.parse("3-3"))[:3]
    ((('1', 3, 0),), 1, 0)
    """
    if end == "E":
        arms += 1
        branch = str(arms)
        return (*dests, (branch, tile.other(engine), -1)), arms, -1, branch
    i = next(k for k, d in enumerate(dests) if d[0] == end)
    _, pip, toes = dests[i]
    if toes >= 0:
        toes += 1
        branch = f"{end}.{toes}"
        toe = (branch, tile.other(pip), -1)
        if toes == 3:
            return (*dests[:i], *dests[i + 1 :], toe), arms, -1, branch
        return (*dests[:i], (end, pip, toes), *dests[i + 1 :], toe), arms, i, branch
    if tile.is_double:
        return (*dests[:i], (end, pip, 0), *dests[i + 1 :]), arms, i, end
    return (*dests[:i], (end, tile.other(pip), -1), *dests[i + 1 :]), arms, -1, end


class TreeRound(EngineRound):
    """One round of Chicken Foot. ``Round(rules, ...)`` builds it for the ``tree`` family.

    The state is a bit set per hand, the engine's arms, the open destinations of the tree in
    the order they appeared (chain ends and the one foot whose toes are still free), the
    turn's progress (drew, acted) and, with ``announce_last_tile``, who left a last tile
    unannounced and whose next turn is skipped.

    An explicit deal is the position after the set-up: an engine in no hand and not in the
    bazar lies in the centre and ``leader`` moves first; an engine in a hand is laid by its
    holder as his turn (the next seat moves first); one in the bazar is handled by
    ``missing_engine``. ``lead=[tile]`` names an engine other than the round's double.
    """

    _stack: list[TreeUndo]
    #: what the round reads from its rules, and the tables of its set (shared, read only)
    _opts: TreeSetup
    _tab: TreeTables
    #: the double in the centre, and its pip
    _engine_tile: Tile
    _engine: int
    #: the tiles still in a hand (a bit set)
    _inhand: int
    #: how many of the engine's arms are laid
    _arms: int
    #: the open destinations of the tree, in the order they appeared
    _dests: tuple[Dest, ...]
    #: the foot whose toes are still free (-1: none)
    _foot: int
    #: the turn's progress: whether the seat to move drew, and whether it acted
    _drew: bool
    _acted: bool
    #: the seats that left a last tile unannounced (a bit set), and those whose next turn
    #: is skipped (``announce_last_tile``)
    _windows: int
    _skips: int

    def _deal(
        self,
        rng: random.Random,
        dealt: Deal | None,
        leader: int | None,
        lead: Sequence[TileLike] | None,
    ) -> None:
        rules = self.rules
        setup = self._opts = TreeSetup.of(rules)
        t = self._tab = setup.tables
        n = self.players
        engine = engine_for(rules, self.number, lead)
        previous = self.previous
        start = 0 if previous is None or previous.leader is None else (previous.leader + 1) % n
        finder = start
        if dealt is None:
            if setup.source == "search_draw":
                finder = (start + shuffled(t.tiles, rng).index(engine)) % n
            taken = setup.source != "holder"
            pool = [x for x in t.tiles if x is not engine] if taken else list(t.tiles)
            size = setup.hand_size
            while True:
                deck = shuffled(pool, rng)
                masks = [mask_of(deck[i * size : (i + 1) * size]) for i in range(n)]
                rest = deck[n * size :]
                placed = self._place(masks, rest, engine)
                if placed is not None:
                    break
        else:
            masks, rest = [mask_of(h) for h in dealt[0]], dealt[1]
            if engine.high > rules.set_max:
                raise invalid("engine_not_in_set", engine=engine, high=rules.set_max)
            placed = self._place(masks, rest, engine)
            if placed is None:
                raise invalid("missing_engine", engine=engine, missing=setup.missing)
        placer, engine, searched = placed
        # who plays first when the set-up decides it, for _lead (None: the rules choose):
        # the seat after the engine's placer, else the engine's finder
        if placer is not None:
            self._turn = (placer + 1) % n
        else:
            self._turn = finder if setup.source == "search_draw" else None
        self._engine_tile = engine
        self._engine = engine.high
        self._bazar = rest[searched:]
        self._hands = masks
        self._drawable = max(0, len(self._bazar) - setup.reserve)
        inhand = 0
        for h in masks:
            inhand |= h
        self._inhand = inhand
        self._arms = 0
        self._dests = ()
        self._foot = -1
        self._drew = False
        self._acted = False
        self._windows = 0
        self._skips = 0
        if self._is_blocked():  # an explicit deal may leave nobody a tile to start with
            self._over = "fish"

    def _lead(
        self,
        rng: random.Random,
        leader: int | None,
        lead: Sequence[TileLike] | None,
        seeded: bool,
    ) -> int:
        """After the engine's placer; the engine's finder (``search_draw``); after the last
        round's first player; seat 0 of an explicit deal; else by ``first_player``."""
        if leader is None:
            n = self.players
            previous = self.previous
            if self._turn is not None:  # the set-up's first player (_deal)
                leader = self._turn
            elif previous is not None and previous.leader is not None:
                leader = (previous.leader + 1) % n
            elif not seeded:
                leader = 0
            elif self._opts.first_player == "highest_draw":
                leader = highest_draw(shuffled(self._bazar, rng), n, rng)
            else:
                leader = int(rng.random() * n)
        self._turn = leader
        return leader

    def _place(
        self, hands: list[int], bazar: list[Tile], engine: Tile
    ) -> tuple[int | None, Tile, int] | None:
        """Put the engine in the centre (§4): (the seat that laid it or None, the engine, the
        bazar tiles a search drew); None when the rules deal again."""
        bit = 1 << engine.index
        if any(h & bit for h in hands) or engine not in bazar:
            placer, _ = find_engine(hands, bazar, engine)
            return placer, engine, 0
        missing = self._opts.missing
        if missing == "draw_cycles":
            placer, searched = find_engine(hands, bazar, engine)
            return placer, engine, searched
        if missing == "next_lower":
            for pip in range(engine.high - 1, -1, -1):
                lower = Tile.of(pip, pip)
                for seat, hand in enumerate(hands):
                    if hand >> lower.index & 1:
                        hands[seat] = hand ^ (1 << lower.index)
                        return seat, lower, 0
        return None

    # -- the state -------------------------------------------------------------------------

    @property
    def engine(self) -> Tile:
        """The double in the centre."""
        return self._engine_tile

    @property
    def pending(self) -> str | None:
        """What must be played on before anything else: ``E`` (the engine's arms), the id of
        a foot still short of its three toes, or None."""
        if self._arms < self._opts.required:
            return "E"
        if self._foot >= 0:
            return self._dests[self._foot][0]
        return None

    def ends(self) -> dict[str, int]:
        """Open ends, id -> pip: ``E`` while the engine may take another arm, then every
        branch end and the pending foot, in the order they appeared."""
        out = {"E": self._engine} if self._arms < self._opts.most else {}
        for end, pip, _ in self._dests:
            out[end] = pip
        return out

    def history(self) -> list[HistoryEntry]:
        tiles = self._tab.tiles
        out = list(self._base)
        for u in self._stack:
            # a challenge's penalty tile is the offender's: the challenger's entry shows none
            shown = tiles[u.index] if u.move is DRAW and u.drawer == u.seat else None
            out.append((u.seat, u.move, shown))
        return out

    @property
    def board(self) -> TreeBoard:
        """The engine and every branch from its start outward (``first`` toward the engine):
        the arms ``1``, ``2``, … and the toes ``3.1``, ``3.2``, …"""
        made = self._board
        if not isinstance(made, TreeBoard):
            made = self._board = self._make_board()
        return made

    def _make_board(self) -> TreeBoard:
        branches: dict[str, list[Laid]] = {}
        pips: dict[str, int] = {}
        toes: dict[str, int] = {}  # the feet: a double ends the branch, its toes so far
        arms = 0
        for _, move, _ in self.history():
            tile, end = move.tile, move.end
            if tile is None or end is None or move.kind not in ("play", "last"):
                continue
            if end == "E":
                arms += 1
                branch, pip = str(arms), self._engine
            elif end in toes:
                toes[end] += 1
                branch, pip = f"{end}.{toes[end]}", pips[end]
            else:
                branch, pip = end, pips[end]
                if tile.is_double:
                    toes[end] = 0
            outer = tile.other(pip)
            branches.setdefault(branch, []).append(Laid(pip, outer))
            pips[branch] = outer
        engine = Tile.of(self._engine, self._engine)
        return TreeBoard(engine, {branch: tuple(tiles) for branch, tiles in branches.items()})

    # -- moves -----------------------------------------------------------------------------

    def _open(self) -> list[tuple[str, int]]:
        """Where a tile may go now: the pending structure alone, else every open end."""
        if self._arms < self._opts.required:
            return [("E", self._engine)]
        if self._foot >= 0:
            end, pip, _ = self._dests[self._foot]
            return [(end, pip)]
        out = [("E", self._engine)] if self._arms < self._opts.most else []
        out += [(end, pip) for end, pip, _ in self._dests]
        return out

    @classmethod
    def move_space(cls, rules: Rules) -> MoveSpace:
        """A tile laid, or laid as the last but one announced (``last``), on one of the open
        ends counted in :meth:`ends`' order: the engine's new arm and at most two more ends
        per double (a foot's three toes replace the end it covers); a draw, a pass, a stop,
        a skipped turn, an announcement, a challenge of each seat."""
        places = 1 + rules[ENGINE_ARMS_MAX] + 2 * (rules.set_max + 1)
        others = (DRAW, PASS, STOP, SKIP, ANNOUNCE)
        challenges = tuple(Move("challenge", value=s) for s in range(rules.players))
        ends = tuple(str(i) for i in range(1, places + 1))
        return MoveSpace(rules.tiles, ("play", "last"), ends, others + challenges, True)

    def _generate(self) -> tuple[Move, ...]:
        if self._over is not None:
            return ()
        seat = self._turn
        assert seat is not None  # only a round with a seat to move is moved
        if self._skips >> seat & 1:
            return (SKIP,)
        hand = self._hands[seat]
        t = self._tab
        fits = t.fits
        announce = self._opts.announce
        last = announce and hand.bit_count() == 2
        out: list[Move] = []
        for end, pip in self._open():
            mask = hand & fits[pip]
            if mask:
                plays = t.plays(end)
                lasts = t.lasts(end) if last else None
                while mask:
                    low = mask & -mask
                    index = low.bit_length() - 1
                    mask ^= low
                    out.append(plays[index])
                    if lasts is not None:
                        out.append(lasts[index])
        if out:
            if self._drew and not self._opts.must_play_drawn:
                out.append(STOP)
        elif not self._drew and self._drawn < self._drawable:
            out.append(DRAW)
        else:
            out.append(PASS)
        if announce and not self._acted and self._windows:
            if self._windows >> seat & 1 and hand.bit_count() == 1:
                out.append(ANNOUNCE)
            out += [
                t.challenge[s] for s in range(self.players) if s != seat and self._windows >> s & 1
            ]
        return tuple(out)

    def _apply(self, move: Move) -> None:
        seat = self._turn
        assert seat is not None  # only a round with a seat to move is moved
        undo = TreeUndo(
            move,
            seat,
            self._arms,
            self._dests,
            self._foot,
            self._drew,
            self._acted,
            self._windows,
            self._skips,
        )
        self._stack.append(undo)
        kind = move.kind
        bit = 1 << seat
        if kind == "play" or kind == "last":
            tile = move.tile
            assert tile is not None  # a play names its tile
            end = move.end
            assert end is not None  # a play names its end
            index = undo.index = tile.index
            self._dests, self._arms, self._foot, _ = grow(
                self._dests, self._arms, self._engine, end, tile
            )
            hand = self._hands[seat] ^ (1 << index)
            self._hands[seat] = hand
            self._inhand ^= 1 << index
            if self._opts.announce:
                if kind == "play" and hand.bit_count() == 1:
                    self._windows |= bit
                else:
                    self._windows &= ~bit
            if not hand:
                self._over = "out"
            elif self._is_blocked():
                self._over = "fish"
            else:
                self._next(seat)
        elif kind == "draw":
            undo.index, undo.drawer = self._draw(seat), seat
            self._drew = self._acted = True
            self._windows &= ~bit
            if self._is_blocked():
                self._over = "fish"
        elif kind == "challenge":
            offender = move.value
            assert isinstance(offender, int)
            undo.drawer = offender
            self._windows &= ~(1 << offender)
            if self._drawn < self._drawable:
                undo.index = self._draw(offender)
            else:
                self._skips |= 1 << offender
            if self._is_blocked():
                self._over = "fish"
        elif kind == "announce":
            self._windows &= ~bit
        else:  # pass, stop, skip
            self._skips &= ~bit
            self._next(seat)

    def _draw(self, seat: int) -> int:
        tile = self._bazar[self._drawn]
        self._drawn += 1
        self._hands[seat] |= 1 << tile.index
        self._inhand |= 1 << tile.index
        return tile.index

    def _next(self, seat: int) -> None:
        self._turn = (seat + 1) % self.players
        self._drew = self._acted = False

    def _is_blocked(self) -> bool:
        """Nothing drawable and no hand holds a tile for any place one may go (§6)."""
        if self._drawn < self._drawable:
            return False
        fits = self._tab.fits
        need = 0
        for _, pip in self._open():
            need |= fits[pip]
        return not self._inhand & need

    def _undo(self, record: TreeUndo) -> None:
        seat = self._turn = record.seat
        self._arms = record.arms
        self._dests = record.dests
        self._foot = record.foot
        self._drew = record.drew
        self._acted = record.acted
        self._windows = record.windows
        self._skips = record.skips
        self._over = None
        index = record.index
        if index >= 0:
            bit = 1 << index
            if record.drawer >= 0:
                self._drawn -= 1
                self._hands[record.drawer] ^= bit
                self._inhand ^= bit
            else:
                self._hands[seat] |= bit
                self._inhand |= bit

    # -- the end ---------------------------------------------------------------------------

    def public_extra(self, seat: int | None) -> dict[str, Any]:
        """The engine, the first player and round number, what is pending (``E`` or a foot:
        the "chicken" call), whether the player to move has drawn; with
        ``announce_last_tile`` the unannounced last tiles and the skipped turns."""
        extra: dict[str, Any] = {
            "leader": self.leader,
            "number": self.number,
            "engine": str(self._engine_tile),
            "pending": self.pending,
            "drew": self._drew,
        }
        if self._opts.announce:
            players = range(self.players)
            extra["acted"] = self._acted
            extra["unannounced"] = [s for s in players if self._windows >> s & 1]
            extra["skips"] = [s for s in players if self._skips >> s & 1]
        return extra

    def _restore(self, view: View) -> None:
        """The tree grown from the view's plays, the drawable tiles, the turn in progress
        and the challenge windows."""
        extra = view.extra
        for _, move, _ in view.history:
            if move.tile is not None and move.kind in ("play", "last") and move.end is not None:
                self._dests, self._arms, self._foot, _ = grow(
                    self._dests, self._arms, self._engine, move.end, move.tile
                )
        self._drawable = view.drawable
        self._drew = extra["drew"]
        self._acted = extra.get("acted", False)
        self._windows = sum(1 << s for s in extra.get("unannounced", ()))
        self._skips = sum(1 << s for s in extra.get("skips", ()))
        self._turn = view.turn if view.turn is not None else self.leader
        over = view.turn is None and view.outcome is not None
        self._over = view.outcome.reason if over and view.outcome is not None else None
        if self._over is None and self._is_blocked():
            # the view goes on, so some hand holds a tile for a place one may go: these
            # hands are not the view's (a search's deal), and would have ended the round
            raise InconsistentDeal(
                "the hands dealt leave nobody a tile for the tree and nothing to draw, "
                "where the view's round goes on"
            )

    @classmethod
    def pips_to_go_on(cls, view: View) -> frozenset[int] | None:
        """Nothing left to draw, a round in play has a hand with a tile for the pending
        structure, else for an open end (:meth:`_open`)."""
        ends = view.ends
        if view.turn is None or view.drawable or not ends:
            return None
        pending = view.extra.get("pending")
        if pending is not None:
            return frozenset((ends[pending],)) if pending in ends else None
        return frozenset(ends.values())


# -- scoring and the match (§6) -------------------------------------------------------------


def settle(ledger: Ledger, outcome: Outcome) -> Ledger:
    """Everyone adds the pips left in his hand (0-0 worth ``double_blank_value``); going out
    with a double costs ``out_on_double_penalty``.

    >>> import bazar
    >>> r = bazar.rules("chicken-foot-wiki", players=3)
    >>> out = bazar.Outcome("out", out_seat=2, remaining=[["0-0", "0-5"], ["4-3"], []],
    ...                     last_turn=["7-7"])
    >>> bazar.Ledger.new(r).settle(out).scores
    (55, 7, 50)
    """
    rules = ledger.rules
    gains = [hand_value(rules, h or ()) for h in outcome.remaining]
    penalty = rules[OUT_ON_DOUBLE_PENALTY]
    if (
        penalty
        and outcome.reason == "out"
        and outcome.out_seat is not None
        and outcome.last_turn
        and outcome.last_turn[-1].is_double
    ):
        gains[outcome.out_seat] += penalty
    return penalty_totals(ledger, gains)


def decide(ledger: Ledger) -> MatchResult | None:
    """The match ends once a total reaches ``limit`` (``limit``), after the round of 0-0
    (``schedule``), or at whichever comes first (``either``). At the limit only the players
    at or past it lose (§6, CF-10); after the schedule the highest total loses. The lowest
    total wins, equal totals share the win."""
    rules = ledger.rules
    result = ledger.at_limit()  # None under ``schedule``, which takes no limit
    if result is None and rules[MATCH_END] != "limit" and ledger.rounds >= rules.set_max + 1:
        result = ledger.by_totals(highest=False)
    return result


# -- the presets (§8) ------------------------------------------------------------------------------


def _hand_size_a(o: dict[str, Any]) -> int:
    n, top = o["players"], o["set_max"]
    if top == 9:
        if o["light_hands"] and n in LIGHT_HAND_SIZES:
            return LIGHT_HAND_SIZES[n]
        return PUREMCO[n]
    if top == 6 and n <= 3:
        return 5
    if top == 12 and n in DOUBLE_12:
        return DOUBLE_12[n]
    raise invalid("hand_size_unknown", players=n, high=top)


def _hand_size_c(o: dict[str, Any]) -> int:
    if o["set_max"] != 9:
        raise invalid("hand_size_table", game="chicken-foot-kz", table=9, high=o["set_max"])
    return PUREMCO[o["players"]]


def _arms_max(o: dict[str, Any]) -> int:
    if o["engine_open_after_start"]:
        return max(int(o["engine_arms_required"]), int(o["set_max"]))
    return int(o["engine_arms_required"])


def _match_end(o: dict[str, Any]) -> str:
    return "schedule" if o["limit"] is None else "either"


def _check(o: dict[str, Any]) -> None:
    required, most, top = o["engine_arms_required"], o["engine_arms_max"], o["set_max"]
    if not required <= most <= top:
        raise invalid("engine_arms", high=top, required=required, most=most)
    if "trains_required" in o and not o["players"] <= o["trains_required"] <= 8:
        raise invalid("trains_required", players=o["players"], value=o["trains_required"])
    if o["match_end"] == "schedule" and o["limit"] is not None:
        raise invalid("limit_match_end")
    if o["match_end"] != "schedule" and o["limit"] is None:
        raise invalid("match_end_limit", match_end=o["match_end"])
    taken = 0 if o["engine_source"] == "holder" else 1
    deal_size(o, taken + o["bazar_reserve"])


def _common(**preset: Any) -> dict[str, Any | Callable[[dict[str, Any]], Any]]:
    """A preset's options in resolution order: what the later defaults read comes first."""
    options: dict[str, Any] = {
        "players": 4,
        "set_max": 9,
        "light_hands": False,
        "hand_size": _hand_size_a,
        "engine_source": "holder",
        "missing_engine": "draw_cycles",
        "first_player": "random",
        "trains_required": None,
        "engine_arms_required": 4,
        "engine_open_after_start": False,
        "engine_arms_max": _arms_max,
        "must_play_drawn": True,
        "bazar_reserve": 0,
        "double_blank_value": 50,
        "out_on_double_penalty": 0,
        "limit": None,
        "match_end": _match_end,
        "announce_last_tile": False,
    }
    options.update(preset)
    return {k: v for k, v in options.items() if v is not _NOT_HERE}


_NOT_HERE = object()
_FAMILY: Family = {
    "round": TreeRound,
    "family": "tree",
    "traits": Traits(end_names="branch", satisfies_doubles=True, reads_ends=False),
    "checks": (_check,),
    "settle": settle,
    "decide": decide,
    "options": (
        *HAND,
        SCORING,
        ENGINE_SOURCE,
        LIGHT_HANDS,
        MISSING_ENGINE,
        FIRST_PLAYER,
        ENGINE_ARMS_REQUIRED,
        ENGINE_ARMS_MAX,
        TRAINS_REQUIRED,
        ENGINE_OPEN_AFTER_START,
        MUST_PLAY_DRAWN,
        OUT_ON_DOUBLE_PENALTY,
        MATCH_END,
        ANNOUNCE_LAST_TILE,
    ),
    # everyone records his own pips: the fewest win
    "fixed": {"scoring": "penalty"},
    "lower_wins": lambda r: True,
}

register(
    Variant(
        "chicken-foot",
        "Chicken Foot (pagat, Domino Plaza): the engine's four arms first, every double "
        "three toes; double-9, 10 rounds, fewest pips win, 0-0 = 50",
        "chicken-foot.md (preset A)",
        (2, 9),
        4,
        _common(trains_required=_NOT_HERE),
        aliases=("куриная лапка", "куриная нога", "chicken foot", "chickenfoot"),
        **_FAMILY,
        title="Chicken Foot",
    )
)
register(
    Variant(
        "chicken-foot-wiki",
        "Chicken Foot (Wikipedia): the engine in the centre before the deal, 7 tiles each, "
        "going out on a double costs 50; 0-0 = 50",
        "chicken-foot.md (preset B)",
        (2, 12),
        4,
        _common(
            set_max=lambda o: 12 if o["players"] >= 8 else 9,
            light_hands=_NOT_HERE,
            hand_size=7,
            engine_source="pre_placed",
            missing_engine=_NOT_HERE,
            first_player="highest_draw",
            trains_required=_NOT_HERE,
            out_on_double_penalty=50,
        ),
        aliases=("куриная лапка (википедия)",),
        **_FAMILY,
        title="Chicken Foot, long game",
    )
)
register(
    Variant(
        "chicken-foot-kz",
        "Chicken Foot (Kazakh rules, gamerules.com): one train per player from the engine "
        "first, the last yard tiles are never drawn; 0-0 = 0",
        "chicken-foot.md (preset C)",
        (2, 8),
        4,
        _common(
            light_hands=_NOT_HERE,
            hand_size=_hand_size_c,
            engine_source="search_draw",
            missing_engine=_NOT_HERE,
            trains_required=lambda o: o["players"],
            engine_arms_required=lambda o: max(o["players"], o["trains_required"]),
            bazar_reserve=lambda o: 2 if o["players"] == 2 else 1,
            double_blank_value=0,
        ),
        aliases=("тауық табаны", "куриная лапка (казахская)"),
        **_FAMILY,
        title="Chicken Foot, Kazakh yard",
    )
)
