"""Kolbasa («Колбаса», "sausage", ``kolbasa.md``): the blind one-sided game of Perm's yards.

Every player's tiles lie face down in a row that nobody sees, not even its owner. The first
double turned over starts the sausage; then each player turns over the front tile of his
row and lays it on the one open end (``TILE:R``), or cuts the sausage with it at a joint
(``cut TILE:J``, joints numbered from the start) and hands the cut-off start to the next
player, or sends it to the back of his row (``pass``; ``stop`` for a tile that could only
cut: the cut is his choice). Using a tile keeps the turn. The first to empty his row wins.

>>> import bazar
>>> rnd = bazar.Round(bazar.rules("kolbasa"), hands=[["2-5", "4-4", "6-5", "0-4"],
...                                                  ["1-3", "4-1", "1-6", "2-3"]])
>>> rnd.board.sausage, rnd.turn, rnd.view(1).hand, rnd.view(0).extra["front"]
((Laid('4|4'),), 1, None, '4-1')
>>> [str(m) for m in rnd.legal_moves()]
['4-1:R']
>>> rnd.push("4-1:R"); rnd.push("1-6:R"); rnd.board.sausage, rnd.ends(), rnd.legal_moves()
((Laid('4|4'), Laid('4|1'), Laid('1|6')), {'R': 6}, [Move('pass')])
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bazar.core.board import Laid
from bazar.core.errors import invalid
from bazar.core.moves import Move, MoveSpace
from bazar.core.options import HAND
from bazar.core.outcome import Outcome
from bazar.core.round import PASS, STOP, Deal, Round, Undo, shuffled
from bazar.core.rules import Option, Rules, Traits, Variant, register
from bazar.core.tiles import Tile, TileLike, mask_of, tile_set
from bazar.games.boards import KolbasaBoard

if TYPE_CHECKING:
    from bazar.core.ledger import Ledger, MatchResult
    from bazar.core.view import View

__all__ = ["KolbasaBoard", "KolbasaRound", "decide", "settle"]

OPENING: Option[str] = Option(
    "opening",
    "enum",
    "how the start double is found: the players turn over their front tiles in turn",
    "alternate_reveal",
    values=("alternate_reveal",),
)
CUTTING: Option[bool] = Option(
    "cutting", "bool", "a tile that fits a joint may cut the sausage", True
)
CUT_WITH_SINGLES: Option[bool] = Option(
    "cut_with_singles", "bool", "a non-double carrying a joint's number may cut too", True
)
USE_IS_COMPULSORY: Option[bool] = Option(
    "use_is_compulsory",
    "bool",
    "a tile that attaches must be used, by attaching or cutting (else sending it back is the"
    " move stop)",
    True,
)
CUT_IS_COMPULSORY: Option[bool] = Option(
    "cut_is_compulsory",
    "bool",
    "a tile that fits only a joint must cut (else declining the cut is the move stop)",
    False,
)
CONTINUE_AFTER_CUT: Option[bool] = Option(
    "continue_after_cut",
    "bool",
    "after a cut the same player turns over his next tile and goes on",
    True,
)
CUT_PIECE_TO: Option[str] = Option(
    "cut_piece_to",
    "enum",
    "who receives the cut-off part of the sausage",
    "opponent",
    values=("opponent", "next_player"),
)
STOP_AT: Option[int] = Option(
    "stop_at", "int", "a player whose row has this many tiles or fewer wins", 0, low=0
)
DEADLOCK_RULE: Option[str] = Option(
    "deadlock_rule",
    "enum",
    "who wins a blocked game: the fewest tiles",
    "fewest_tiles",
    values=("fewest_tiles",),
)
MAX_REVEALS: Option[int] = Option(
    "max_reveals",
    "int",
    "the reveals (opening included) after which the round ends as a deadlock",
    10000,
    low=1,
)

#: attaching: the sausage's one open end
OPEN_END = "R"


#: a stretch of the sausage: each tile with its back and front half
_Piece = tuple[tuple[Tile, int, int], ...]


class KolbasaUndo(Undo):
    """A Kolbasa move taken back: each player's count of tiles turned over unused before
    it, and the piece a cut handed on."""

    __slots__ = ("piece", "unused")

    unused: tuple[int, ...]
    piece: _Piece

    def __init__(self, move: Move, seat: int, unused: tuple[int, ...], piece: _Piece) -> None:
        self.move = move
        self.seat = seat
        self.unused = unused
        self.piece = piece


class KolbasaRound(Round):
    """One game of Kolbasa (a match is this one game).

    The state: each row front to back, the sausage from its start (each tile with its back
    and front half: joint ``j`` shows the front of tile ``j``), how many tiles each player
    has turned over without using one since the last tile was used, and the reveals so far.
    ``leader`` is the player who turns over first in the opening; the opening is carried out
    when the round is built, and the first move belongs to the player after the one who laid
    the start double. ``legal_moves()`` lists, for the front tile of the player to move,
    ``TILE:R`` (attach), then ``cut TILE:J`` by joint, then ``stop`` (a usable tile sent back:
    one that only cuts, unless ``cut_is_compulsory``, and any with ``use_is_compulsory``
    off) or ``pass`` (an unusable one).
    """

    _stack: list[KolbasaUndo]
    #: the seat the lot chose to turn over first, and the rows as dealt
    _lot: int
    _dealt: tuple[tuple[Tile, ...], ...]
    #: each seat's row, front first: its hand, in an order
    _rows: list[list[Tile]]
    #: the sausage, first tile to open end: each tile with its back and front pips
    _sausage: list[tuple[Tile, int, int]]
    #: the usable tiles each seat sent back since a tile was last used
    _unused: list[int]
    #: the tiles sent back, in order
    _sent_back: list[Tile]
    #: the opening: each tile turned over until a double starts the sausage, by seat
    _opening_reveals: list[tuple[int, Tile]]
    #: the seat that laid the start double (None before)
    _starter: int | None
    #: how the game ended (``""``: not over) and its winner
    _end: str
    _winner: int | None

    def _deal(
        self,
        rng: random.Random,
        dealt: Deal | None,
        leader: int | None,
        lead: Sequence[TileLike] | None,
    ) -> None:
        if lead is not None:
            raise invalid("kolbasa_lead")
        self._start()
        players = self.players
        if dealt is None:
            # the lot for the first reveal is drawn before the deal
            self._lot = int(rng.random() * players) if leader is None else 0
            deck = shuffled(tile_set(6), rng)
            size = self.rules.hand_size
            rows = [deck[i * size : (i + 1) * size] for i in range(players)]
            aside = deck[players * size :]
        else:
            self._lot = 0
            rows, aside = dealt
        self._dealt = tuple(tuple(r) for r in rows)
        self._rows = [list(r) for r in rows]
        self._bazar = list(aside)

    def _lead(
        self,
        rng: random.Random,
        leader: int | None,
        lead: Sequence[TileLike] | None,
        seeded: bool,
    ) -> int:
        """The first to turn over: as given, else by lot (seat 0 for an explicit deal); then
        the opening is played out."""
        self.leader = self._lot if leader is None else leader
        self._open()
        return self.leader

    def _start(self) -> None:
        """The state before the deal: an empty table, no move made."""
        self._sausage = []
        self._unused = [0] * self.players
        self._sent_back = []
        self._opening_reveals = []
        self._starter = None
        self._turn = None
        self._finish(None, "")

    def _check_deal(
        self, hands: Sequence[Sequence[TileLike]], bazar: Sequence[TileLike] | None
    ) -> Deal:
        """Rows of the set, none empty."""
        rows, aside = super()._check_deal(hands, bazar)
        for seat, row in enumerate(rows):
            if not row:
                raise invalid("empty_row", seat=seat)
        return rows, aside

    def _hand_masks(self) -> list[int]:
        """The rows as bit sets: what a hand is to the base (a row is ordered, a set not)."""
        return [mask_of(row) for row in self._rows]

    def _open(self) -> None:
        """The opening (§2): from the leader, each player turns over his front tile; a
        non-double goes to the back, the first double starts the sausage."""
        seat = self.leader
        self._turn = seat
        if not any(t.is_double for row in self._rows for t in row):
            self._finish("deadlock", "no_double")
            return
        cap = self.rules[MAX_REVEALS]
        while len(self._opening_reveals) < cap:
            row = self._rows[seat]
            tile = row.pop(0)
            self._opening_reveals.append((seat, tile))
            if tile.is_double:
                self._sausage.append((tile, tile.high, tile.high))
                self._starter = seat
                self._turn = (seat + 1) % self.players
                if len(row) <= self.rules[STOP_AT]:
                    self._finish("out", "empty" if not row else "stop_at", seat)
                return
            row.append(tile)
            seat = (seat + 1) % self.players
        self._finish("deadlock", "cap")

    def _finish(self, reason: str | None, end: str, winner: int | None = None) -> None:
        """End the game (``reason`` None: not over)."""
        self._over, self._end, self._winner = reason, end, winner

    # -- the state ---------------------------------------------------------------------------

    @property
    def hands(self) -> list[tuple[Tile, ...]]:
        """Every row, front to back (the full state: nobody sees these)."""
        return [tuple(row) for row in self._rows]

    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(len(row) for row in self._rows)

    def ends(self) -> dict[str, int]:
        """The one open end, ``{"R": pip}``; ``{}`` with no sausage."""
        if not self._sausage:
            return {}
        return {OPEN_END: self._sausage[-1][2]}

    def joints(self) -> list[int]:
        """The value of each joint, from the start of the sausage (joint 1 first)."""
        return [front for _, _, front in self._sausage[:-1]]

    @property
    def board(self) -> KolbasaBoard:
        """The sausage from its (dead) start to its open end."""
        made = self._board
        if not isinstance(made, KolbasaBoard):
            made = self._board = self._make_board()
        return made

    def _make_board(self) -> KolbasaBoard:
        return KolbasaBoard(tuple(Laid(back, front) for _, back, front in self._sausage))

    def played(self) -> tuple[Tile, ...]:
        """The tiles in the sausage, from its start."""
        return tuple(tile for tile, _, _ in self._sausage)

    def front(self) -> Tile | None:
        """The tile the player to move has turned over (face up: everybody sees it)."""
        if self._over is not None or self._turn is None:
            return None
        return self._rows[self._turn][0]

    @property
    def reveals(self) -> int:
        """The tiles turned over and dealt with so far, the opening's included (the tile face
        up now counts once it is used or sent back); ``max_reveals`` caps them."""
        return len(self._opening_reveals) + len(self._base) + len(self._stack)

    # -- moves -------------------------------------------------------------------------------

    @classmethod
    def move_space(cls, rules: Rules) -> MoveSpace:
        """The tile turned over laid on the open end ``R``, or cut in at a joint (``"1"`` the
        first from the start); a pass, a stop."""
        joints = tuple(str(j) for j in range(1, len(rules.tiles)))
        return MoveSpace(rules.tiles, ("play", "cut"), (OPEN_END, *joints), (PASS, STOP))

    def _generate(self) -> tuple[Move, ...]:
        tile = self.front()
        if tile is None:
            return ()
        rules = self.rules
        out = []
        attaches = tile.has(self._sausage[-1][2])
        if attaches:
            out.append(Move.play(tile, OPEN_END))
        if rules[CUTTING] and (tile.is_double or rules[CUT_WITH_SINGLES]):
            out += [
                Move("cut", tile, str(j)) for j, x in enumerate(self.joints(), 1) if tile.has(x)
            ]
        if not out:
            return (PASS,)
        # the seed: a tile that fits is laid, while the sausage «можно разрезать» (may be cut)
        if not rules[USE_IS_COMPULSORY] or not (attaches or rules[CUT_IS_COMPULSORY]):
            out.append(STOP)
        return tuple(out)

    def _apply(self, move: Move) -> None:
        seat = self._turn
        assert seat is not None  # only a round with a seat to move is moved
        rules = self.rules
        row = self._rows[seat]
        tile = row.pop(0)
        unused = tuple(self._unused)
        piece: _Piece = ()
        if move.kind == "play":
            pip = self._sausage[-1][2]
            self._sausage.append((tile, pip, tile.other(pip)))
        elif move.kind == "cut":
            assert move.end is not None  # a cut names its joint
            joint = int(move.end)
            pip = self._sausage[joint - 1][2]
            piece = tuple(self._sausage[:joint])
            self._sausage[:joint] = [(tile, tile.other(pip), pip)]
            self._rows[self._receiver(seat)].extend(t for t, _, _ in piece)
        else:
            row.append(tile)
            self._sent_back.append(tile)
            self._unused[seat] += 1
        self._stack.append(KolbasaUndo(move, seat, unused, piece))
        if move.kind in ("play", "cut"):
            self._unused = [0] * self.players
            if len(row) <= rules[STOP_AT]:
                self._finish("out", "empty" if not row else "stop_at", seat)
                return
            if move.kind == "cut" and not rules[CONTINUE_AFTER_CUT]:
                self._turn = (seat + 1) % self.players
        elif all(n >= len(r) for n, r in zip(self._unused, self._rows, strict=True)):
            self._finish("deadlock", "blocked")
            return
        else:
            self._turn = (seat + 1) % self.players
        if self.reveals >= rules[MAX_REVEALS]:
            self._finish("deadlock", "cap")

    def _receiver(self, seat: int) -> int:
        """Who receives a cut-off piece: the opponent, or with three or four players the next
        player in turn (``cut_piece_to``; the rules allow ``opponent`` only for two)."""
        return (seat + 1) % self.players

    def _undo(self, record: KolbasaUndo) -> None:
        move, seat, piece = record.move, record.seat, record.piece
        self._turn = seat
        self._unused = list(record.unused)
        self._finish(None, "")
        row = self._rows[seat]
        if move.kind == "play":
            row.insert(0, self._sausage.pop()[0])
        elif move.kind == "cut":
            receiver = self._rows[self._receiver(seat)]
            del receiver[len(receiver) - len(piece) :]
            row.insert(0, self._sausage[0][0])
            self._sausage[:1] = piece
        else:
            row.insert(0, row.pop())
            self._sent_back.pop()

    # -- the end -----------------------------------------------------------------------------

    def winners(self) -> list[int]:
        """Who won once the game is over: the player out, else the fewest tiles (a tie is a
        draw between those tied)."""
        if self._over is None:
            return []
        if self._winner is not None:
            return [self._winner]
        return fewest([len(r) for r in self._rows])

    def _outcome(self) -> Outcome:
        """``"out"`` for a row emptied (or down to ``stop_at``), ``"deadlock"`` for a blocked
        game or the reveal cap (``extra["end"]`` says which). The rows are shown."""
        assert self._over is not None
        start = next((t for _, t in self._opening_reveals if t.is_double), None)
        return Outcome(
            self._over,
            out_seat=self._winner,
            remaining=self.hands,
            points=(0,) * self.players,
            leader=self._starter,
            lead=start,
            extra={"end": self._end, "reveals": self.reveals},
        )

    # -- what seats may know -----------------------------------------------------------------

    def seen_hand(self, seat: int) -> tuple[Tile, ...] | None:
        """Nobody sees his own row: None."""
        return None

    def hand_mask(self, seat: int) -> int | None:
        return None

    def deal(self) -> dict[str, Any]:
        """The deal as a record stores it: each row front to back, the tiles set aside, the
        player who turns over first."""
        return {
            "hands": [[str(t) for t in row] for row in self._dealt],
            "bazar": [str(t) for t in self._bazar],
            "leader": self.leader,
        }

    def public_extra(self, seat: int | None) -> dict[str, Any]:
        """What the table sees: the opening's reveals, who laid the start double, the tile
        the player to move has turned over, the tiles sent back (in order), the joints, the
        reveals and each player's tiles turned over unused since the last tile was used."""
        front = self.front()
        return {
            "leader": self.leader,
            "number": self.number,
            "opening": [[s, str(t)] for s, t in self._opening_reveals],
            "starter": self._starter,
            "front": None if front is None else str(front),
            "sent_back": [str(t) for t in self._sent_back],
            "joints": self.joints(),
            "reveals": self.reveals,
            "unused": list(self._unused),
        }

    @classmethod
    def from_view(
        cls,
        view: View,
        hands: Sequence[Sequence[TileLike]],
        bazar: Sequence[TileLike] = (),
    ) -> KolbasaRound:
        """A full game consistent with ``view``: its sausage, turn and history, the given rows
        (front to back; the tile turned over must be the front of the mover's row) and the
        tiles set aside."""
        rules = view.rules
        if len(hands) != rules.players:
            raise invalid("view_rows", players=rules.players, given=len(hands))
        if len(bazar) != view.bazar_size:
            raise invalid("view_aside", size=view.bazar_size, given=len(bazar))
        for seat, size in enumerate(view.hand_sizes):
            if len(hands[seat]) != size:
                raise invalid("view_hand_size", seat=seat, size=size, given=len(hands[seat]))
        rnd = cls.__new__(cls, rules)
        rnd._begin(rules, None, view.extra["number"], None, None, None)
        rnd._start()
        rnd._rows = [[Tile.parse(t) for t in h] for h in hands]
        rnd._dealt = tuple(tuple(r) for r in rnd._rows)
        rnd._bazar = [Tile.parse(t) for t in bazar]
        extra = view.extra
        rnd.leader = extra["leader"]
        rnd._opening_reveals = [(s, Tile.parse(t)) for s, t in extra["opening"]]
        rnd._starter = extra["starter"]
        rnd._sent_back = [Tile.parse(t) for t in extra["sent_back"]]
        rnd._unused = list(extra["unused"])
        rnd._sausage = []
        board = view.board
        assert isinstance(board, KolbasaBoard)
        for laid in board.sausage:
            rnd._sausage.append((laid.tile, laid.first, laid.second))
        rnd._base = tuple(view.history)
        rnd._turn = view.turn
        front_tile = extra["front"]
        front_row = rnd._rows[view.turn] if view.turn is not None else None
        if front_tile is not None and (not front_row or str(front_row[0]) != front_tile):
            raise invalid("view_row_front", seat=view.turn, tile=front_tile)
        if view.turn is None and view.outcome is not None:
            out = view.outcome
            rnd._finish(out.reason, (out.extra or {}).get("end", ""), out.out_seat)
        return rnd


# -- the result (§5) ------------------------------------------------------------------------


def fewest(counts: Sequence[int]) -> list[int]:
    """The seats with the fewest tiles."""
    low = min(counts)
    return [s for s, n in enumerate(counts) if n == low]


def settle(ledger: Ledger, outcome: Outcome) -> Ledger:
    """No points: the winner (or every player tied for the fewest tiles) scores one win."""
    if outcome.reason == "out" and outcome.out_seat is not None:
        winners = [outcome.out_seat]
    else:
        winners = fewest([len(h or ()) for h in outcome.remaining])
    scores = [s + (seat in winners) for seat, s in enumerate(ledger.scores)]
    return ledger.replace(scores=scores)


def decide(ledger: Ledger) -> MatchResult | None:
    """A match is one game: after it, its winners win and the others lose."""
    if ledger.rounds < 1:
        return None
    return ledger.by_totals(highest=True)


def _check(o: dict[str, Any]) -> None:
    if o["set_max"] != 6:
        raise invalid("set_only", game="kolbasa", only=6, high=o["set_max"])
    if o["cut_piece_to"] == "opponent" and o["players"] > 2:
        raise invalid("cut_piece_to")


register(
    Variant(
        "kolbasa",
        "Kolbasa: blind rows, one open end, cut the sausage and hand its start to the next player",
        "kolbasa.md",
        (2, 4),
        2,
        {
            "players": 2,
            "set_max": 6,
            "hand_size": {2: 14, 3: 9, 4: 7},
            "opening": "alternate_reveal",
            "cutting": True,
            "cut_with_singles": True,
            "use_is_compulsory": True,
            "cut_is_compulsory": False,
            "continue_after_cut": True,
            "cut_piece_to": lambda o: "opponent" if o["players"] == 2 else "next_player",
            "stop_at": 0,
            "deadlock_rule": "fewest_tiles",
            "max_reveals": 10_000,
        },
        family="kolbasa",
        traits=Traits(
            end_names="joint",
            seat_rows="blind",
            hand_counts="tiles",
            russian=True,
            determinizable=False,
            reads_ends=False,
        ),
        checks=(_check,),
        aliases=("колбаса",),
        settle=settle,
        decide=decide,
        round=KolbasaRound,
        options=(
            *HAND,
            OPENING,
            CUTTING,
            CUT_WITH_SINGLES,
            USE_IS_COMPULSORY,
            CUT_IS_COMPULSORY,
            CONTINUE_AFTER_CUT,
            CUT_PIECE_TO,
            STOP_AT,
            DEADLOCK_RULE,
            MAX_REVEALS,
        ),
        title="Kolbasa",
    )
)
