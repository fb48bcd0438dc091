"""Domino Poker (``domino-poker.md``): hands of five from a 20-tile set, ranked like cards.

The set is double-six without the blanks and without 1-1. A hand is worth its best
combination; :func:`rank` returns a value that compares like the hands (a better hand is
greater) and names the combination:

>>> rank(["2-2", "3-3", "4-4", "5-5", "6-6"]).name
'Royal Flush'
>>> five = rank(["3-1", "3-2", "3-3", "3-4", "3-5"])
>>> five.name, five > rank(["6-6", "3-3", "2-2", "2-4", "2-1"])
('Five Straight', True)

A deal is one round: every player still at the table pays the ante, takes five tiles, and
one betting round (``check``, ``bet n``, ``call``, ``raise n``, ``fold``) ends in a showdown
or with one player left. Chips live in the ledger: ``Ledger.new(rules).scores`` holds the
starting chips and each deal settles the pot into it.

>>> import bazar
>>> rnd = bazar.Round(bazar.rules("poker", players=2), hands=[
...     ["6-6", "5-5", "1-2", "3-4", "2-6"], ["1-3", "2-5", "4-6", "1-6", "3-5"]], dealer=1)
>>> [str(m) for m in rnd.legal_moves()][:3], rnd.turn
(['check', 'bet 1', 'bet 2'], 0)
>>> rnd.push("bet 2"); rnd.push("call")
>>> out = rnd.outcome()
>>> out.reason, out.out_seat, out.points
('showdown', 0, (3, -3))
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bazar.core.errors import invalid
from bazar.core.ledger import Ledger
from bazar.core.moves import Move, MoveSpace
from bazar.core.options import HAND
from bazar.core.outcome import Outcome
from bazar.core.round import Deal, Round, Undo, shuffled
from bazar.core.rules import Option, Rules, Traits, Variant, register
from bazar.core.tiles import Tile, TileLike, mask_of, tile_set, tiles_of
from bazar.games.boards import PokerBoard

if TYPE_CHECKING:
    from bazar.core.ledger import MatchResult
    from bazar.core.rules import Rules
    from bazar.core.view import View

__all__ = ["COMBINATIONS", "POKER_SET", "PokerBoard", "PokerRound", "Rank", "is_flush", "rank"]

#: The 20 tiles of Domino Poker: double-six without 1-1 and without the blanks (§1).
POKER_SET: tuple[Tile, ...] = tuple(t for t in tile_set(6) if t.low > 0 and str(t) != "1-1")
_IN_SET = mask_of(POKER_SET)

#: The combinations, weakest first (§3): a :class:`Rank`'s ``value`` indexes this tuple.
COMBINATIONS = (
    "No Combination",
    "Pair",
    "Flush",
    "Three",
    "Four Straight",
    "Full Hand",
    "Five Straight",
    "Four of a Kind",
    "Six Straight",
    "Royal Flush",
)
_PAIR, _FLUSH, _THREE, _FOUR_STRAIGHT, _FULL = 1, 2, 3, 4, 5
_FIVE_STRAIGHT, _FOUR_KIND, _SIX_STRAIGHT, _ROYAL = 6, 7, 8, 9

BETTING: Option[str] = Option(
    "betting",
    "enum",
    "one betting round, or antes only and an immediate showdown",
    "straight",
    values=("straight", "none"),
)
ANTE: Option[int] = Option(
    "ante", "int", "each player's stake paid into the pot before a deal", 1, low=0
)
BET_MIN: Option[int] = Option("bet_min", "int", "the smallest bet or raise", 1, low=1)
BET_MAX: Option[int] = Option("bet_max", "int", "the largest bet or raise", 5, low=1)
MAX_RAISES: Option[int] = Option("max_raises", "int", "raises per hand", 3, low=0)
STARTING_CHIPS: Option[int] = Option(
    "starting_chips", "int", "each player's chips at the start", 100, low=1
)
STRAIGHT_DEFINITIONS: Option[str] = Option(
    "straight_definitions",
    "enum",
    "which runs count as straights: the club's, or "
    "pagat's five-tile runs in the suits of four, five and six",
    "seed",
    values=("seed", "pagat"),
)
HIGH_HAND: Option[str] = Option(
    "high_hand",
    "enum",
    "how hands with no combination compare: total pips, or the highest tile first",
    "total_pips",
    values=("total_pips", "highest_tile"),
)
DEALS: Option[int] = Option("deals", "int", "deals in a match", 10, low=1)


# -- ranking hands (§3-5) -------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Rank:
    """The worth of a poker hand: the combination (``value``, an index of
    :data:`COMBINATIONS`) then its tie-break ``key``. Ranks compare like the hands."""

    value: int
    key: tuple[int, ...]
    name: str = field(compare=False)

    def __str__(self) -> str:
        return self.name


def _tile_key(tile: Tile) -> int:
    """The tile order of §5: more pips, then the larger half."""
    return tile.pips * 8 + tile.high


def _suit_rank(tile: Tile, suit: int) -> int:
    """A tile's rank within ``suit``: its other half (the double: the suit itself)."""
    return tile.other(suit)


def _best_run(ranks: set[int], length: int) -> int | None:
    """The top rank of the highest run of ``length`` consecutive ranks, if there is one."""
    tops = [top for top in ranks if all(top - i in ranks for i in range(length))]
    return max(tops) if tops else None


def _parse_hand(hand: Iterable[Tile | str]) -> list[Tile]:
    tiles = [Tile.parse(t) for t in hand]
    if len(tiles) != 5 or len(set(tiles)) != 5:
        raise invalid("poker_hand", tiles=[str(t) for t in tiles])
    for tile in tiles:
        if not _IN_SET >> tile.index & 1:
            raise invalid("poker_tile", tile=tile)
    return tiles


def is_flush(hand: Iterable[Tile | str]) -> bool:
    """Whether the five tiles all carry one number (the pattern of a Flush, §7.2), whatever
    the hand ranks as.

    >>> hand = ["6-1", "6-3", "6-4", "6-5", "6-6"]
    >>> is_flush(hand), rank(hand).name
    (True, 'Four Straight')
    """
    tiles = _parse_hand(hand)
    return any(all(t.has(suit) for t in tiles) for suit in range(1, 7))


def rank(
    hand: Iterable[Tile | str],
    straights: str = "seed",
    high_hand: str = "total_pips",
) -> Rank:
    """The rank of a five-tile hand: its best combination and the tie-break of §4 (doubles
    from the highest down; a flush's number; a straight's number then its top rank), or for
    no combination the pips (``high_hand``) of §5. ``straights`` is the rules'
    ``straight_definitions``.

    >>> rank(["6-6", "5-5", "4-4", "1-2", "1-3"]).name
    'Full Hand'
    >>> none = rank(["1-2", "3-4", "5-6", "1-4", "2-6"])
    >>> none.name, none.key[0]
    ('No Combination', 34)
    """
    tiles = _parse_hand(hand)
    doubles = tuple(sorted((t.high for t in tiles if t.is_double), reverse=True))
    found: list[tuple[int, tuple[int, ...]]] = []
    if len(doubles) == 5:
        found.append((_ROYAL, ()))
    elif len(doubles) == 4:
        found.append((_FOUR_KIND, doubles))
    elif len(doubles) == 3:
        a, b = (t for t in tiles if not t.is_double)
        shared = a.has(b.high) or a.has(b.low)
        found.append((_FULL if shared else _THREE, doubles))
    elif len(doubles) == 2:
        found.append((_PAIR, doubles))
    for suit in range(1, 7):
        ranks = {_suit_rank(t, suit) for t in tiles if t.has(suit)}
        five = len(ranks) == 5
        if straights == "pagat":
            top = _best_run(ranks, 5) if five else None
            if top is not None and suit >= 4:
                value = {4: _FOUR_STRAIGHT, 5: _FIVE_STRAIGHT, 6: _SIX_STRAIGHT}[suit]
                found.append((value, (suit, top)))
            elif five:
                found.append((_FLUSH, (suit,)))
            continue
        if five:
            top = _best_run(ranks, 5)
            if top is not None:
                found.append((_SIX_STRAIGHT if suit == 6 else _FIVE_STRAIGHT, (suit, top)))
            found.append((_FLUSH, (suit,)))
        if len(ranks) >= 4:
            top = _best_run(ranks, 4)
            if top is not None:
                found.append((_FOUR_STRAIGHT, (suit, top)))
    if found:
        value, key = max(found)
        return Rank(value, key, COMBINATIONS[value])
    keys = tuple(sorted((_tile_key(t) for t in tiles), reverse=True))
    if high_hand == "total_pips":
        keys = (sum(t.pips for t in tiles), *keys)
    return Rank(0, keys, COMBINATIONS[0])


# -- a deal (§2, §6) ------------------------------------------------------------------------

CHECK = Move("check")
CALL = Move("call")
FOLD = Move("fold")


class PokerUndo(Undo):
    """A betting action taken back: the seat's stake, the highest stake, whether a bet was
    made, the raises and the players still to act, as they were before it."""

    __slots__ = ("bet", "high", "raises", "stake", "to_act")

    stake: int
    high: int
    bet: bool
    raises: int
    to_act: int

    def __init__(
        self, move: Move, seat: int, stake: int, high: int, bet: bool, raises: int, to_act: int
    ) -> None:
        self.move = move
        self.seat = seat
        self.stake = stake
        self.high = high
        self.bet = bet
        self.raises = raises
        self.to_act = to_act


class PokerRound(Round):
    """One deal of Domino Poker: antes, five tiles each, one betting round, the showdown.

    Only the players who can pay the ante take part (the others hold no tiles and never
    move). The eldest, left of the dealer, acts first; the betting goes round until every
    player still in has put in the same and has acted since the last bet or raise.
    ``legal_moves()`` lists ``check``, ``call``, then ``bet n`` and ``raise n`` by ``n``
    ascending, then ``fold``.
    """

    _stack: list[PokerUndo]
    #: the seats dealt in (those that could pay the ante), and each seat's chips before it
    _active: tuple[bool, ...]
    _chips: tuple[int, ...]
    #: the seats still in the hand (not folded), and what each has put in the pot
    _in: list[bool]
    _put: list[int]
    #: the highest stake put in, whether anyone has bet, how many raises there were, and
    #: how many seats still have to act before the betting ends
    _high: int
    _bet: bool
    _raises: int
    _to_act: int

    def _deal(
        self,
        rng: random.Random,
        dealt: Deal | None,
        leader: int | None,
        lead: Sequence[TileLike] | None,
    ) -> None:
        if lead is not None:
            raise invalid("poker_lead")
        players = self.players
        chips = self.ledger.scores
        ante: int = self.rules[ANTE]
        if dealt is None:
            active = [c >= ante for c in chips]
            self.dealer = self._find_dealer(active, self.dealer, leader, rng)
            deck = shuffled(POKER_SET, rng)
            hands: list[list[Tile]] = [[] for _ in range(players)]
            for seat in (s for s in range(players) if active[s]):
                hands[seat], deck = deck[:5], deck[5:]
            rest = deck
        else:
            hands, rest = dealt
            active = [bool(h) for h in hands]
            for seat in range(players):
                if active[seat] and chips[seat] < ante:
                    raise invalid("ante", seat=seat, chips=chips[seat], ante=ante)
            self.dealer = self._find_dealer(active, self.dealer, leader, None)
        self._active = tuple(active)
        self._chips = tuple(chips)
        self._hands = [mask_of(h) for h in hands]
        self._bazar = rest
        self._in = list(active)
        self._put = [ante if a else 0 for a in active]
        self._high = ante
        self._bet = False
        self._raises = 0
        self._to_act = sum(active)
        if sum(active) < 2:
            self._over = "fold"
        elif self.rules[BETTING] == "none":
            self._over = "showdown"

    def _lead(
        self,
        rng: random.Random,
        leader: int | None,
        lead: Sequence[TileLike] | None,
        seeded: bool,
    ) -> int:
        """The eldest, left of the dealer, acts first."""
        dealer = self.dealer
        assert dealer is not None
        eldest = self._next(dealer, self._active)
        if leader is not None and leader != eldest:
            raise invalid("first_to_act", leader=leader, dealer=dealer)
        self._turn = eldest
        return eldest

    def _check_deal(
        self, hands: Sequence[Sequence[TileLike]], bazar: Sequence[TileLike] | None
    ) -> Deal:
        """Five tiles a hand (none for a player out of the deal), from the 20-tile set; the
        bazar, when not given, is the tiles nobody holds."""
        players = self.players
        if len(hands) != players:
            raise invalid("hands_count", game="poker", players=players, hands=len(hands))
        dealt = [[Tile.parse(t) for t in h] for h in hands]
        seen: set[Tile] = set()
        for seat, hand in enumerate(dealt):
            if hand and len(hand) != 5:
                raise invalid("poker_hand_size", seat=seat, size=len(hand))
        rest = [Tile.parse(t) for t in bazar] if bazar is not None else None
        for tile in (t for h in [*dealt, rest or []] for t in h):
            if not _IN_SET >> tile.index & 1:
                raise invalid("poker_tile", tile=tile)
            if tile in seen:
                raise invalid("tile_twice", tile=tile)
            seen.add(tile)
        if rest is None:
            rest = [t for t in POKER_SET if t not in seen]
        return dealt, rest

    def _next(self, seat: int, active: Sequence[bool]) -> int:
        """The next seat after ``seat`` that takes part (``seat`` itself if none other)."""
        n = self.players
        for step in range(1, n + 1):
            if active[(seat + step) % n]:
                return (seat + step) % n
        return seat

    def _find_dealer(
        self,
        active: Sequence[bool],
        dealer: int | None,
        leader: int | None,
        rng: random.Random | None,
    ) -> int:
        """The dealer: as given; before the given first actor; left of the last deal's
        dealer; at random for a first deal from a seed; else the seat before the first one
        in the deal (so that seat 0 acts first when it plays)."""
        n = self.players
        for name, seat in (("dealer", dealer), ("leader", leader)):
            if seat is not None:
                self._check_seat(name, seat)
        if dealer is not None:
            return dealer
        if leader is not None:
            return self._before(leader, active)
        last = (self.previous.extra or {}).get("dealer") if self.previous else None
        if isinstance(last, int) and not isinstance(last, bool) and 0 <= last < n:
            return self._next(last, active)
        if rng is not None:
            return self._next(int(rng.random() * n) - 1, active)
        return self._before(self._next(n - 1, active), active)

    def _before(self, seat: int, active: Sequence[bool]) -> int:
        """The nearest seat before ``seat`` that takes part (``seat`` itself if none other)."""
        n = self.players
        for step in range(1, n + 1):
            if active[(seat - step) % n]:
                return (seat - step) % n
        return seat

    # -- the state ---------------------------------------------------------------------------

    def ends(self) -> dict[str, int]:
        return {}

    @property
    def board(self) -> PokerBoard:
        """Nothing lies on the table in poker."""
        made = self._board
        if not isinstance(made, PokerBoard):
            made = self._board = self._make_board()
        return made

    def _make_board(self) -> PokerBoard:
        return PokerBoard()

    @property
    def pot(self) -> int:
        """The chips in the pot."""
        return sum(self._put)

    # -- moves -------------------------------------------------------------------------------

    @classmethod
    def move_space(cls, rules: Rules) -> MoveSpace:
        """No tile is played: a check, a call, a fold, a bet or a raise of ``bet_min`` to
        ``bet_max``."""
        sizes = range(rules[BET_MIN], rules[BET_MAX] + 1)
        bets = (*(Move("bet", value=n) for n in sizes), *(Move("raise", value=n) for n in sizes))
        return MoveSpace(rules.tiles, (), (), (CHECK, CALL, FOLD, *bets))

    def _generate(self) -> tuple[Move, ...]:
        if self._over is not None or self._turn is None:
            return ()
        seat = self._turn
        rules = self.rules
        purse = self._chips[seat]
        out: list[Move] = []
        if not self._bet:
            out.append(CHECK)
            top = min(rules[BET_MAX], purse - self._put[seat])
            out += [Move("bet", value=n) for n in range(rules[BET_MIN], top + 1)]
        else:
            if purse >= self._high:
                out.append(CALL)
            if self._raises < rules[MAX_RAISES]:
                top = min(rules[BET_MAX], purse - self._high)
                out += [Move("raise", value=n) for n in range(rules[BET_MIN], top + 1)]
        out.append(FOLD)
        return tuple(out)

    def _apply(self, move: Move) -> None:
        seat = self._turn
        assert seat is not None  # only a round with a seat to move is moved
        put = self._put
        self._stack.append(
            PokerUndo(move, seat, put[seat], self._high, self._bet, self._raises, self._to_act)
        )
        kind = move.kind
        if kind in ("bet", "raise"):
            assert move.value is not None  # a bet or a raise names its stake
            put[seat] = self._high + int(move.value)
            self._high = put[seat]
            self._raises += kind == "raise"
            self._bet = True
            self._to_act = sum(self._in) - 1
        else:
            if kind == "call":
                put[seat] = self._high
            elif kind == "fold":
                self._in[seat] = False
            self._to_act -= 1
        if sum(self._in) == 1:
            self._over = "fold"
        elif self._to_act == 0:
            self._over = "showdown"
        else:
            self._turn = self._next(seat, self._in)

    def _undo(self, record: PokerUndo) -> None:
        seat = self._turn = record.seat
        self._put[seat] = record.stake
        self._high = record.high
        self._bet = record.bet
        self._raises = record.raises
        self._to_act = record.to_act
        self._in[seat] = True
        self._over = None

    # -- the end -----------------------------------------------------------------------------

    def ranks(self) -> list[Rank | None]:
        """Each seat's rank (None for a seat out of the deal)."""
        rules = self.rules
        return [
            rank(tiles_of(h), rules[STRAIGHT_DEFINITIONS], rules[HIGH_HAND]) if h else None
            for h in self._hands
        ]

    def _outcome(self) -> Outcome:
        """The showdown, or the pot taken by the last player in. ``points`` are each seat's
        chips won or lost; ``scoring`` is every stake paid (negative) and every share of the
        pot taken; a folded hand, and a hand that wins unchallenged, is never shown."""
        n = self.players
        contenders = [s for s in range(n) if self._in[s]]
        pot = self.pot
        showdown = self._over == "showdown"
        ranks = self.ranks()
        if showdown:
            best = max(r for s in contenders if (r := ranks[s]) is not None)
            winners = [s for s in contenders if ranks[s] == best]
        else:
            winners = contenders
        shares = [0] * n
        if winners:
            dealer = self.dealer
            assert dealer is not None
            order = [(dealer + k) % n for k in range(1, n + 1)]
            first = next(s for s in order if s in winners)
            for s in winners:
                shares[s] = pot // len(winners)
            shares[first] += pot - len(winners) * (pot // len(winners))
        scoring = [(s, -self._put[s]) for s in range(n) if self._put[s]]
        scoring += [(s, shares[s]) for s in range(n) if shares[s]]
        remaining: list[tuple[Tile, ...] | None] = []
        for seat, hand in enumerate(self._hands):
            if not self._active[seat]:
                remaining.append(())
            elif showdown and self._in[seat]:
                remaining.append(tiles_of(hand))
            else:
                remaining.append(None)
        shown = [str(ranks[s]) if showdown and self._in[s] else None for s in range(n)]
        return Outcome(
            "showdown" if showdown else "fold",
            out_seat=winners[0] if len(winners) == 1 else None,
            remaining=remaining,
            points=[shares[s] - self._put[s] for s in range(n)],
            leader=self.leader,
            scoring=scoring,
            extra={"dealer": self.dealer, "pot": pot, "winners": winners, "ranks": shown},
        )

    # -- what seats may know -----------------------------------------------------------------

    def deal(self) -> dict[str, Any]:
        """The deal as a record stores it: the hands, the undealt tiles, the first to act and
        the dealer."""
        return {**super().deal(), "dealer": self.dealer}

    def public_extra(self, seat: int | None) -> dict[str, Any]:
        """The dealer, the first to act, the pot, each seat's stake, the highest stake, the
        raises made, the seats that folded and those out of the deal."""
        n = self.players
        return {
            "leader": self.leader,
            "dealer": self.dealer,
            "number": self.number,
            "pot": self.pot,
            "put": list(self._put),
            "high": self._high,
            "raises": self._raises,
            "folded": [s for s in range(n) if self._active[s] and not self._in[s]],
            "out": [s for s in range(n) if not self._active[s]],
        }

    @classmethod
    def from_view(
        cls,
        view: View,
        hands: Sequence[Sequence[TileLike]],
        bazar: Sequence[TileLike] = (),
    ) -> PokerRound:
        """A full deal consistent with ``view``: the given hands (the viewer's own must match)
        and undealt tiles, the view's chips, dealer and betting."""
        seat, held = view.seat, view.hand
        mine = None if seat is None else sorted(map(Tile.parse, hands[seat]))
        if held is not None and mine is not None and mine != sorted(held):
            raise invalid("view_own_hand")
        rnd = cls(
            view.rules,
            hands=hands,
            bazar=bazar,
            dealer=view.extra["dealer"],
            number=view.extra["number"],
            ledger=Ledger.from_public(view.rules, view.scores),
        )
        for _, move, _ in view.history:
            rnd.push(move)
        return rnd


# -- the match (§6) ---------------------------------------------------------------------------


def settle(ledger: Ledger, outcome: Outcome) -> Ledger:
    """The chips after a deal: each seat's ``points`` (won or lost) added to its chips."""
    chips = [c + p for c, p in zip(ledger.scores, outcome.points, strict=True)]
    return ledger.replace(scores=chips)


def decide(ledger: Ledger) -> MatchResult | None:
    """After ``deals`` deals, or once fewer than two players can pay the ante: the players
    with the most chips win, those with the fewest lose (ties share; nobody loses when all
    are equal)."""
    rules = ledger.rules
    payers = sum(c >= rules[ANTE] for c in ledger.scores)
    if ledger.rounds < rules[DEALS] and payers >= 2:
        return None
    return ledger.by_totals(highest=True)


def _check(o: dict[str, Any]) -> None:
    if o["players"] * 5 > len(POKER_SET):
        raise invalid("poker_players", players=o["players"])
    if o["set_max"] != 6:
        raise invalid("poker_set", high=o["set_max"])
    if o["bet_min"] > o["bet_max"]:
        raise invalid("bet_range", low=o["bet_min"], high=o["bet_max"])


register(
    Variant(
        "poker",
        "Domino Poker: five tiles from a 20-tile set, nine combinations, one betting round",
        "domino-poker.md",
        (2, 4),
        4,
        {
            "players": 4,
            "set_max": 6,
            "betting": "straight",
            "ante": 1,
            "bet_min": 1,
            "bet_max": 5,
            "max_raises": 3,
            "starting_chips": 100,
            "straight_definitions": "seed",
            "high_hand": "total_pips",
            "deals": 10,
        },
        family="poker",
        traits=Traits(
            end_names=None, seat_rows="open", has_bazar=False, stakes=True, reads_ends=False
        ),
        checks=(_check,),
        aliases=("покер", "domino poker"),
        settle=settle,
        decide=decide,
        round=PokerRound,
        options=(
            *HAND,
            BETTING,
            ANTE,
            BET_MIN,
            BET_MAX,
            MAX_RAISES,
            STARTING_CHIPS,
            STRAIGHT_DEFINITIONS,
            HIGH_HAND,
            DEALS,
        ),
        starting_score=lambda r: r[STARTING_CHIPS],
        tiles=POKER_SET,
        title="Domino Poker",
    )
)
