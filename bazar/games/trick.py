"""The trick-and-trump game of seed 002: Texas 42 scored in points to 250 (``trick-game.md``).

Four players in two sides (0 and 2 against 1 and 3) each take seven tiles. Each player bids
once (``bid n``, 30 to 42, or ``pass``), the highest bidder names trumps (``trumps s``) and
leads; seven tricks of four follow, every player following suit when he can. A side takes
one point a trick and the count tiles it wins (5-5 and 6-4: 10; 5-0, 4-1 and 3-2: 5), 42 in
all. A side that makes its bid keeps its points, one that fails scores nothing and gives the
other side the bid too.

>>> import bazar
>>> r = bazar.rules("texas-42")
>>> rnd = bazar.Round(r, hands=[
...     ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "6-0"],
...     ["5-5", "5-4", "5-3", "5-2", "5-1", "5-0", "4-4"],
...     ["4-3", "4-2", "4-1", "4-0", "3-3", "3-2", "3-1"],
...     ["3-0", "2-2", "2-1", "2-0", "1-1", "1-0", "0-0"]], dealer=3)
>>> for move in ["bid 42", "pass", "pass", "pass", "trumps 5", "6-5"]:
...     rnd.push(move)
>>> [str(m) for m in rnd.legal_moves()]  # 6-5 is a trump: seat 1 must play one
['5-0', '5-1', '5-2', '5-3', '5-4', '5-5']
>>> count_value(bazar.Tile.parse("6-4")), suit_of(bazar.Tile.parse("5-2"), 4)
(10, 5)
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bazar.core.errors import IllegalMove, InconsistentDeal, invalid
from bazar.core.moves import Move, MoveSpace
from bazar.core.options import HAND
from bazar.core.outcome import Outcome
from bazar.core.round import PASS, Deal, Round, Undo, final_turn, shuffled
from bazar.core.rules import Option, Rules, Traits, Variant, register
from bazar.core.tiles import Tile, TileLike, mask_of, tile_set, tiles_of
from bazar.games.boards import TrickBoard

if TYPE_CHECKING:
    from bazar.core.ledger import Ledger, MatchResult
    from bazar.core.view import View

__all__ = [
    "TARGET",
    "TrickBoard",
    "TrickRound",
    "count_value",
    "decide",
    "settle",
    "suit_of",
    "trick_winner",
]

ALL_PASS: Option[str] = Option(
    "all_pass",
    "enum",
    "when all four pass: the dealer must bid (30 or more), or the "
    "hand is thrown in and the next dealer deals",
    "dealer_forced_30",
    values=("dealer_forced_30", "redeal"),
)
FOLLOW_RULE: Option[str] = Option(
    "follow_rule",
    "enum",
    "which tiles follow the led suit: any non-trump carrying its "
    "number, or only those whose higher half it is",
    "contains_suit",
    values=("contains_suit", "high_half"),
)
ALLOW_FOLLOW_ME: Option[bool] = Option(
    "allow_follow_me", "bool", "the bidder may name no trumps (follow me)", False
)
ALLOW_DOUBLES_TRUMP: Option[bool] = Option(
    "allow_doubles_trump", "bool", "the bidder may name the doubles as trumps", False
)

#: The winning mark of the game (§8).
TARGET = 250
#: The bids (§3).
MIN_BID, MAX_BID = 30, 42
#: The count tiles and their values (§1).
COUNTS = {"5-5": 10, "6-4": 10, "5-0": 5, "4-1": 5, "3-2": 5}
#: ``trumps`` values other than a number (§4).
FOLLOW_ME, DOUBLES = "follow-me", "doubles"

_TILES = tile_set(6)
_BIDDING, _TRUMPS, _PLAY = "bidding", "trumps", "play"
_TOP = 7  # a double's rank in its suit: above every other half


def count_value(tile: Tile) -> int:
    """What a tile counts in a trick beyond the trick's point (§1)."""
    return COUNTS.get(str(tile), 0)


def suit_of(tile: Tile, trumps: int | str | None) -> int:
    """The suit a tile leads: -1 for trumps, else its higher half (a double: its number)."""
    if _is_trump(tile, trumps):
        return -1
    return tile.high


def _is_trump(tile: Tile, trumps: int | str | None) -> bool:
    if trumps == DOUBLES:
        return tile.is_double
    return isinstance(trumps, int) and tile.has(trumps)


def _rank(tile: Tile, suit: int, trumps: int | str | None) -> int:
    """A tile's rank within ``suit`` (-1: trumps): the double highest, then the other half."""
    if suit == -1:
        if trumps == DOUBLES:
            return tile.high
        assert trumps is not None  # a trick is led only once trumps are named
        suit = int(trumps)
    return _TOP if tile.is_double else tile.other(suit)


@functools.cache
def _follow_masks(trumps: int | str | None, rule: str) -> tuple[int, ...]:
    """For each led suit 0..6 and trumps (index 7), the tiles that follow it."""
    trump = mask_of(t for t in _TILES if _is_trump(t, trumps))
    masks = []
    for suit in range(7):
        if rule == "high_half":
            follow = mask_of(t for t in _TILES if t.high == suit)
        else:
            follow = mask_of(t for t in _TILES if t.has(suit))
        masks.append(follow & ~trump)
    masks.append(trump)
    return tuple(masks)


def follows(tile: Tile, led: Tile, trumps: int | str | None, rule: str = "contains_suit") -> bool:
    """Whether ``tile`` follows the suit ``led`` leads (§5, ``follow_rule``)."""
    return bool(_follow_masks(trumps, rule)[suit_of(led, trumps)] >> tile.index & 1)


def trick_winner(
    tiles: Sequence[Tile], trumps: int | str | None, rule: str = "contains_suit"
) -> int:
    """The index in ``tiles`` (led first) of the tile that takes the trick: the highest trump,
    else the highest tile of the led suit (§5).

    >>> trick_winner([Tile.parse(t) for t in ["5-2", "5-3", "4-0", "6-6"]], 4)
    2
    """
    led = tiles[0]
    masks = _follow_masks(trumps, rule)
    trumped = [i for i, t in enumerate(tiles) if masks[7] >> t.index & 1]
    if trumped:
        return max(trumped, key=lambda i: _rank(tiles[i], -1, trumps))
    suit = suit_of(led, trumps)
    candidates = [0, *(i for i in range(1, len(tiles)) if masks[suit] >> tiles[i].index & 1)]
    return max(candidates, key=lambda i: _rank(tiles[i], suit, trumps))


class TrickUndo(Undo):
    """A Texas 42 move taken back: the phase, the high bid and its bidder, the trumps, the
    trick on the table and how many tricks were taken, as they were before it."""

    __slots__ = ("bidder", "high", "phase", "trick", "tricks", "trumps")

    phase: str
    high: int
    bidder: int
    trumps: int | str | None
    trick: tuple[tuple[int, Tile], ...]
    tricks: int

    def __init__(
        self,
        move: Move,
        seat: int,
        phase: str,
        high: int,
        bidder: int,
        trumps: int | str | None,
        trick: tuple[tuple[int, Tile], ...],
        tricks: int,
    ) -> None:
        self.move = move
        self.seat = seat
        self.phase = phase
        self.high = high
        self.bidder = bidder
        self.trumps = trumps
        self.trick = trick
        self.tricks = tricks


class TrickRound(Round):
    """One hand of Texas 42: the auction, the trumps, seven tricks.

    ``leader`` is the first to bid, left of the dealer. Moves, in the order
    ``legal_moves()`` lists them: in the auction ``bid n`` from the lowest allowed up, then
    ``pass`` (not offered to a dealer forced to bid); then ``trumps 0`` … ``trumps 6``,
    ``trumps follow-me``, ``trumps doubles``; then the tiles that may be played, in the
    canonical order.
    """

    _stack: list[TrickUndo]
    #: the stage of the hand: the auction, the trumps named, or the tricks
    _phase: str
    #: the highest bid so far and its bidder (-1: none), and how many seats have bid
    _high: int
    _bidder: int
    _bids: int
    #: the trumps named (a suit's pip, ``follow-me`` or ``doubles``; None before)
    _trumps: int | str | None
    #: the trick on the table: each seat's tile in the order laid
    _trick: tuple[tuple[int, Tile], ...]
    #: the tricks taken: (their leader, their winner, the tiles, the points)
    _tricks: list[tuple[int, int, tuple[Tile, ...], int]]

    def _deal(
        self,
        rng: random.Random,
        dealt: Deal | None,
        leader: int | None,
        lead: Sequence[TileLike] | None,
    ) -> None:
        """The dealer: as given; before the given first bidder; left of the last hand's
        dealer; else at random (seat 3 for an explicit deal). Seven tiles each."""
        if lead is not None:
            raise invalid("texas_lead")
        players = self.players
        dealer = self.dealer
        for name, seat in (("dealer", dealer), ("leader", leader)):
            if seat is not None:
                self._check_seat(name, seat)
        previous = self.previous
        last = (previous.extra or {}).get("dealer") if previous is not None else None
        if dealer is None and leader is not None:
            dealer = (leader - 1) % players
        elif dealer is None and isinstance(last, int) and not isinstance(last, bool):
            dealer = (last + 1) % players
        if dealt is None:
            if dealer is None:
                dealer = int(rng.random() * players)
            deck = shuffled(_TILES, rng)
            hands = [deck[i * 7 : (i + 1) * 7] for i in range(players)]
            self._bazar = deck[players * 7 :]
        else:
            hands, self._bazar = dealt
            if dealer is None:
                dealer = players - 1
        self.dealer = dealer
        self._hands = [mask_of(h) for h in hands]
        self._phase = _BIDDING
        self._high = 0
        self._bidder = -1
        self._bids = 0
        self._trumps = None
        self._trick = ()
        self._tricks = []

    def _lead(
        self,
        rng: random.Random,
        leader: int | None,
        lead: Sequence[TileLike] | None,
        seeded: bool,
    ) -> int:
        """Left of the dealer bids first."""
        dealer = self.dealer
        assert dealer is not None
        first = (dealer + 1) % self.players
        if leader is not None and leader != first:
            raise invalid("first_to_bid", leader=leader, dealer=dealer)
        self._turn = first
        return first

    def _check_deal(
        self, hands: Sequence[Sequence[TileLike]], bazar: Sequence[TileLike] | None
    ) -> Deal:
        """A deal of the set in hands of one size (seven in a full deal)."""
        dealt, rest = super()._check_deal(hands, bazar)
        sizes = {len(h) for h in dealt}
        if len(sizes) != 1 or not dealt[0]:
            raise invalid("hand_sizes_equal", sizes=[len(h) for h in dealt])
        return dealt, rest

    # -- the state ---------------------------------------------------------------------------

    def ends(self) -> dict[str, int]:
        return {}

    @property
    def trumps(self) -> int | str | None:
        """The trumps named (a number, ``"follow-me"`` or ``"doubles"``), None before."""
        return self._trumps

    @property
    def bid(self) -> tuple[int, int] | None:
        """The contract: (bidder, bid), None while nobody has bid."""
        return None if self._bidder < 0 else (self._bidder, self._high)

    @property
    def board(self) -> TrickBoard:
        """The trick on the table, in the order it was played."""
        made = self._board
        if not isinstance(made, TrickBoard):
            made = self._board = self._make_board()
        return made

    def _make_board(self) -> TrickBoard:
        return TrickBoard(self._trick)

    def played(self) -> tuple[Tile, ...]:
        """Every tile played, first to last."""
        done = tuple(t for trick in self._tricks for t in trick[2])
        return done + tuple(t for _, t in self._trick)

    def points(self) -> list[int]:
        """The hand points each side has taken so far (§6)."""
        sides = [0, 0]
        for _, winner, _, points in self._tricks:
            sides[self.rules.side_of(winner)] += points
        return sides

    # -- moves -------------------------------------------------------------------------------

    @classmethod
    def move_space(cls, rules: Rules) -> MoveSpace:
        """A tile played to the trick; a pass or a bid of 30 to 42, a trump suit named
        (a pip, follow-me, doubles)."""
        bids = tuple(Move("bid", value=n) for n in range(MIN_BID, MAX_BID + 1))
        trumps = tuple(Move("trumps", value=s) for s in (*range(7), FOLLOW_ME, DOUBLES))
        return MoveSpace(rules.tiles, ("play",), (None,), (PASS, *bids, *trumps))

    def _generate(self) -> tuple[Move, ...]:
        if self._over is not None or self._turn is None:
            return ()
        rules = self.rules
        if self._phase == _BIDDING:
            low = max(MIN_BID, self._high + 1)
            out = [Move("bid", value=n) for n in range(low, MAX_BID + 1)]
            forced = self._bids == 3 and self._bidder < 0 and rules[ALL_PASS] == "dealer_forced_30"
            if not forced:
                out.append(PASS)
            return tuple(out)
        if self._phase == _TRUMPS:
            out = [Move("trumps", value=s) for s in range(7)]
            if rules[ALLOW_FOLLOW_ME]:
                out.append(Move("trumps", value=FOLLOW_ME))
            if rules[ALLOW_DOUBLES_TRUMP]:
                out.append(Move("trumps", value=DOUBLES))
            return tuple(out)
        hand = self._hands[self._turn]
        if self._trick:
            led = self._trick[0][1]
            follow = _follow_masks(self._trumps, rules[FOLLOW_RULE])[suit_of(led, self._trumps)]
            hand = hand & follow or hand
        return tuple(Move.play(t) for t in tiles_of(hand))

    def _apply(self, move: Move) -> None:
        seat = self._turn
        assert seat is not None  # only a round with a seat to move is moved
        self._stack.append(
            TrickUndo(
                move,
                seat,
                self._phase,
                self._high,
                self._bidder,
                self._trumps,
                self._trick,
                len(self._tricks),
            )
        )
        players = self.players
        kind = move.kind
        if kind in ("bid", "pass"):
            self._bids += 1
            if kind == "bid":
                assert move.value is not None  # a bid names its points
                self._high, self._bidder = int(move.value), seat
            if self._bids < players:
                self._turn = (seat + 1) % players
            elif self._bidder < 0:
                self._over = "redeal"
            else:
                self._phase = _TRUMPS
                self._turn = self._bidder
        elif kind == "trumps":
            self._trumps = move.value
            self._phase = _PLAY
        else:
            tile = move.tile
            assert tile is not None  # a play names its tile
            self._hands[seat] ^= 1 << tile.index
            trick = (*self._trick, (seat, tile))
            if len(trick) < players:
                self._trick = trick
                self._turn = (seat + 1) % players
                return
            tiles = tuple(t for _, t in trick)
            winner = trick[trick_winner(tiles, self._trumps, self.rules[FOLLOW_RULE])][0]
            points = 1 + sum(count_value(t) for t in tiles)
            self._tricks.append((trick[0][0], winner, tiles, points))
            self._trick = ()
            self._turn = winner
            if not self._hands[winner]:
                self._over = "tricks"

    def _undo(self, record: TrickUndo) -> None:
        seat = self._turn = record.seat
        move = record.move
        self._phase = record.phase
        self._high = record.high
        self._bidder = record.bidder
        self._trumps = record.trumps
        self._trick = record.trick
        del self._tricks[record.tricks :]
        if move.kind in ("bid", "pass"):
            self._bids -= 1
        elif move.kind == "play":
            tile = move.tile
            assert tile is not None  # a play names its tile
            self._hands[seat] |= 1 << tile.index
        self._over = None

    # -- the end -----------------------------------------------------------------------------

    def _outcome(self) -> Outcome:
        """``"tricks"`` after the seventh trick: ``points`` are the hand points each seat took
        (``scoring`` trick by trick), ``extra`` holds the bid, the bidder and the trumps.
        ``"redeal"`` when all passed under ``all_pass = "redeal"``: nothing is scored."""
        n = self.players
        extra: dict[str, Any] = {"dealer": self.dealer}
        if self._over == "redeal":
            return Outcome(
                "redeal", remaining=[None] * n, points=(0,) * n, leader=self.leader, extra=extra
            )
        points = [0] * n
        for _, winner, _, p in self._tricks:
            points[winner] += p
        extra.update(bid=self._high, bidder=self._bidder, trumps=self._trumps)
        return Outcome(
            "tricks",
            remaining=self.hands,
            points=points,
            leader=self._bidder,
            lead=self._tricks[0][2][0],
            last_turn=final_turn(self.history()),
            scoring=[(winner, p) for _, winner, _, p in self._tricks],
            extra=extra,
        )

    # -- what seats may know -----------------------------------------------------------------

    def deal(self) -> dict[str, Any]:
        """The deal as a record stores it: the hands, the first to bid and the dealer."""
        return {**super().deal(), "dealer": self.dealer}

    def public_extra(self, seat: int | None) -> dict[str, Any]:
        """The dealer, the phase, the contract, the trumps, the trick on the table (seat and
        tile), the tricks taken (leader, winner, tiles, points) and each side's points."""
        return {
            "leader": self.leader,
            "dealer": self.dealer,
            "number": self.number,
            "phase": self._phase,
            "bid": self._high or None,
            "bidder": None if self._bidder < 0 else self._bidder,
            "trumps": self._trumps,
            "trick": [[s, str(t)] for s, t in self._trick],
            "tricks": [
                [lead, win, [str(t) for t in tiles], p] for lead, win, tiles, p in self._tricks
            ],
            "points": self.points(),
        }

    @classmethod
    def from_view(
        cls,
        view: View,
        hands: Sequence[Sequence[TileLike]],
        bazar: Sequence[TileLike] = (),
    ) -> TrickRound:
        """A full hand consistent with ``view``: the given hands (the viewer's own must match)
        with the tiles each seat has played, and the view's moves replayed. Raises
        :class:`~bazar.core.errors.InconsistentDeal` where a move of the view is not legal
        with those hands (a seat that did not follow suit held none of it)."""
        seat, held = view.seat, view.hand
        mine = None if seat is None else sorted(map(Tile.parse, hands[seat]))
        if held is not None and mine is not None and mine != sorted(held):
            raise invalid("view_own_hand")
        dealt = [[Tile.parse(t) for t in h] for h in hands]
        for seat, move, _ in view.history:
            if move.kind == "play" and move.tile is not None:
                dealt[seat].append(move.tile)
        rnd = cls(
            view.rules,
            hands=dealt,
            bazar=bazar,
            dealer=view.extra["dealer"],
            number=view.extra["number"],
        )
        for _, move, _ in view.history:
            try:
                rnd.push(move)
            except IllegalMove as illegal:  # the hands break a trick the view shows
                raise InconsistentDeal.from_error(illegal) from illegal
        return rnd


# -- the match (§7-8) ------------------------------------------------------------------------


def settle(ledger: Ledger, outcome: Outcome) -> Ledger:
    """The points of a hand (§7): a made bid lets both sides keep what they took; a failed
    one gives the bidders nothing and the other side its points and the bid."""
    if outcome.reason != "tricks":
        return ledger.replace()
    rules = ledger.rules
    extra = outcome.extra or {}
    bid, bidder = extra["bid"], extra["bidder"]
    took = [0, 0]
    for seat, points in enumerate(outcome.points):
        took[rules.side_of(seat)] += points
    bidders = rules.side_of(bidder)
    scores = list(ledger.scores)
    if took[bidders] >= bid:
        scores[0] += took[0]
        scores[1] += took[1]
    else:
        scores[1 - bidders] += took[1 - bidders] + bid
    return ledger.replace(scores=scores)


def decide(ledger: Ledger) -> MatchResult | None:
    """The first side to reach 250 wins; both at once, the higher; a tie plays on (§8)."""
    scores = ledger.scores
    best = max(scores)
    if best < TARGET or scores.count(best) > 1:
        return None
    return ledger.decided([scores.index(best)])


def _check(o: dict[str, Any]) -> None:
    if o["players"] != 4 or not o["teams"]:
        raise invalid("texas_players")
    if o["set_max"] != 6:
        raise invalid("set_only", game="texas-42", only=6, high=o["set_max"])


register(
    Variant(
        "texas-42",
        "Texas 42: bid for trumps, seven tricks, 42 points a hand in two sides, to 250",
        "trick-game.md",
        (4, 4),
        4,
        {
            "players": 4,
            "teams": True,
            "set_max": 6,
            "all_pass": "dealer_forced_30",
            "follow_rule": "contains_suit",
            "allow_follow_me": False,
            "allow_doubles_trump": False,
        },
        family="trick",
        traits=Traits(end_names=None, seat_rows="open", has_bazar=False, reads_ends=False),
        checks=(_check,),
        aliases=("42", "forty-two", "техас 42"),
        settle=settle,
        decide=decide,
        round=TrickRound,
        options=(*HAND, ALL_PASS, FOLLOW_RULE, ALLOW_FOLLOW_ME, ALLOW_DOUBLES_TRUMP),
        title="Texas 42",
    )
)
