"""Search for bots: hidden deals sampled from a view, playouts, and the searching bots.

A searching bot never sees the round. From its :class:`~bazar.View` it *determinises*: it
deals the tiles it cannot see to the other hands and the bazar, consistently with everything
public (the hand sizes, every tile on the table or in its own hand, and what passes and
forced draws say: a seat that passed or drew held no tile of the open ends at that moment),
rebuilds a full round with :meth:`bazar.Round.from_view`, and plays it out. A search makes
one :class:`Determinizer` a ``choose`` and deals its view from it as often as it likes; a
deal the view contradicts is dealt again (:class:`InconsistentDeal`, the one error a deal
may end in), and any other error propagates: a bug in a family is never a weaker bot.

>>> import random
>>> import bazar
>>> rnd = bazar.Round(bazar.rules("block"), seed=3)
>>> rnd.push(rnd.legal_moves()[0])
>>> view = rnd.view(rnd.turn)
>>> hands, pile = sample_deal(view, random.Random(1))
>>> [len(h) for h in hands] == list(view.hand_sizes), len(pile) == view.bazar_size
(True, True)
>>> sorted(hands[view.seat]) == sorted(view.hand)
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bazar.core.errors import InconsistentDeal, invalid
from bazar.core.moves import Move
from bazar.core.outcome import Outcome
from bazar.core.round import Round
from bazar.core.rules import Rules
from bazar.core.scoring import award
from bazar.core.tiles import Tile
from bazar.core.view import View

if TYPE_CHECKING:
    from bazar.core.ledger import Ledger

__all__ = [
    "Budget",
    "Clock",
    "Constraint",
    "Determinizer",
    "InconsistentDeal",
    "Inference",
    "PlayModel",
    "choices",
    "constraints",
    "determinize",
    "greedy_move",
    "ledger_of",
    "likelihood",
    "match_standing",
    "outcome_value",
    "rollout",
    "sample_deal",
    "satisfies",
    "seen_tiles",
    "solve",
    "weighted_deal",
]


def seen_tiles(view: View) -> set[Tile]:
    """The tiles ``view`` shows: its own hand, the table, every tile a move names."""
    seen = set(view.hand or ())
    for _, move, drawn in view.history:
        if move.tile is not None:
            seen.add(move.tile)
        if drawn is not None:
            seen.add(drawn)
    seen.update(view.board.tiles())
    return seen


@dataclass(frozen=True)
class Constraint:
    """Seat ``seat`` held no tile of the pips ``pips`` at one moment, and has drawn ``draws``
    tiles since (drawn tiles may hold them): at most ``draws`` of its tiles now touch ``pips``."""

    seat: int
    pips: frozenset[int]
    draws: int

    def allows(self, tiles: Iterable[Tile]) -> bool:
        pips = self.pips
        return sum(1 for t in tiles if t.high in pips or t.low in pips) <= self.draws


class Inference:
    """What the passes and draws of a round prove, read one move at a time: the open ends
    followed from the moves (in the games whose passes read them, ``Variant.reads_ends``),
    each pass or forced draw at a known set of ends, and the draws since. A reader that
    follows a round as it is played (``bazar.rl``) reads only the new moves."""

    __slots__ = ("_branches", "_draws_at", "_ends", "_found", "_reads", "_spin", "_sure", "voids")

    def __init__(self, rules: Rules) -> None:
        variant = rules.variant
        self._reads = variant.reads_ends
        self._branches = variant.ends_branch
        self._ends: dict[str, int] = {}
        self._spin = -1
        self._sure = True
        self._found: list[tuple[int, frozenset[int], int]] = []
        self._draws_at: list[tuple[int, int]] = []
        #: per seat, the pips (a bit per pip) it is proved to hold none of now: those of
        #: its passes since its last draw
        self.voids = [0] * rules.players

    def read(self, i: int, seat: int, move: Move) -> None:
        """Read move number ``i`` (0: the first), made by ``seat``."""
        if not self._reads:
            return
        kind = move.kind
        tile = move.tile
        ends = self._ends
        if kind in ("play", "close") and tile is not None:
            end = move.end
            if end is None or not ends:
                ends = self._ends = {"L": tile.high, "R": tile.low}
                if tile.is_double:
                    self._spin = tile.high
            elif end in ends:
                pip = ends[end]
                ends[end] = tile.other(pip) if tile.has(pip) else tile.high
                if tile.is_double and self._spin < 0:
                    self._spin = tile.high
            elif self._spin >= 0 and tile.has(self._spin):
                ends[end] = tile.other(self._spin)
            if kind == "close" and end in ends:
                del ends[end]
            if self._branches and (tile.is_double or kind == "close"):
                self._sure = False  # a spinner's arms and closed ends: no longer followed
        elif kind in ("pass", "draw") and ends and self._sure:
            pips = frozenset(ends.values())
            self._found.append((seat, pips, i))
            if kind == "draw":
                self._draws_at.append((seat, i))
                self.voids[seat] = 0
            else:
                for pip in pips:
                    self.voids[seat] |= 1 << pip
        elif kind == "draw":
            self._draws_at.append((seat, i))
            self.voids[seat] = 0

    @property
    def reads_ends(self) -> bool:
        """Whether the game's passes read the open ends (``Variant.reads_ends``): in the
        other games the moves prove nothing of the hands."""
        return self._reads

    @property
    def open_ends(self) -> Mapping[str, int]:
        """The open ends the moves read so far leave (end id -> pip) while they are
        followed: empty before the lead, in the games whose passes do not read them, and
        once a spinner's arms or a closed end stopped the following."""
        return self._ends if self._sure else {}

    def constraints(self, viewer: int | None) -> list[Constraint]:
        """What the moves read say about the hands of every seat but ``viewer`` now."""
        draws_at = self._draws_at
        return [
            Constraint(seat, pips, sum(1 for s, j in draws_at if s == seat and j >= i))
            for seat, pips, i in self._found
            if seat != viewer
        ]


def constraints(view: View) -> list[Constraint]:
    """What the passes and draws of ``view.history`` say about the hands now (in the games
    whose passes read the open ends, ``Variant.reads_ends``; none in others). The open ends
    are followed move by move."""
    inference = Inference(view.rules)
    for i, (seat, move, _) in enumerate(view.history):
        inference.read(i, seat, move)
    return inference.constraints(view.seat)


def satisfies(hands: Sequence[Sequence[Tile]], rules: Iterable[Constraint]) -> bool:
    """Whether ``hands`` keep every constraint."""
    return all(c.allows(hands[c.seat]) for c in rules)


#: the quick deals :func:`sample_deal` tries before it searches for a tight fit
QUICK_DEALS = 30


def sample_deal(
    view: View, rng: random.Random, use_constraints: bool = True, tries: int = QUICK_DEALS
) -> tuple[list[list[Tile]], list[Tile]]:
    """Hands for every seat and a bazar (in draw order) consistent with ``view``: the sizes
    it shows, its own hand, no tile seen on the table and, where the layout has open ends,
    the passes and forced draws (:func:`constraints`) and, where nothing is left to draw, a
    hand with a tile to play (the view goes on: :meth:`Round.pips_to_go_on`). Raises
    :class:`InconsistentDeal` where the tiles left cannot fill the hands the view shows."""
    return _dealt(view, _prepare(view, use_constraints), rng, tries)


def _dealt(
    view: View, prepared: _Prepared, rng: random.Random, tries: int
) -> tuple[list[list[Tile]], list[Tile]]:
    """:func:`sample_deal`, from what :func:`_prepare` made of the view: ``tries`` quick
    deals that fill one seat after another, a search for a tight fit, and a last deal that
    keeps the counts alone."""
    me = view.seat
    own, pool, by_seat, order, need = prepared
    for attempt in range(tries + 1):
        relax = attempt == tries  # the last try keeps the counts alone
        left = list(pool)
        rng.shuffle(left)
        hands: list[list[Tile]] = [[] for _ in range(view.rules.players)]
        if own is not None and me is not None:
            hands[me] = list(own)
        ok = True
        for seat in order:
            size = view.hand_sizes[seat]
            mine = [] if relax else by_seat.get(seat, [])
            if not mine:
                hands[seat] = left[:size]
                left = left[size:]
                continue
            counts = [0] * len(mine)
            taken: list[Tile] = []
            rest: list[Tile] = []
            for tile in left:
                if len(taken) < size:
                    hits = [
                        k for k, c in enumerate(mine) if tile.high in c.pips or tile.low in c.pips
                    ]
                    if all(counts[k] < mine[k].draws for k in hits):
                        for k in hits:
                            counts[k] += 1
                        taken.append(tile)
                        continue
                rest.append(tile)
            if len(taken) < size:
                ok = False
                break
            hands[seat] = taken
            left = rest
        if ok and need and not relax:
            # the view goes on with nothing to draw: a hidden hand holds a tile to play
            ok = any(_touches(tile, need) for seat in order for tile in hands[seat])
        if ok and len(left) >= view.bazar_size:
            # tiles beyond the bazar are out of play (never dealt)
            return hands, left[: view.bazar_size]
        if attempt == tries - 1:
            # the quick deals keep missing a tight fit: search for one before relaxing
            found = _constrained_deal(view, pool, by_seat, order, hands, rng, need)
            if found is not None:
                return found
    raise InconsistentDeal("no deal fits the view")  # pragma: no cover - the last try fits


#: how many tile placements :func:`_constrained_deal` tries before it gives up
_SEARCH_NODES = 20_000


def _constrained_deal(
    view: View,
    pool: list[Tile],
    by_seat: dict[int, list[Constraint]],
    order: list[int],
    hands: list[list[Tile]],
    rng: random.Random,
    need: int = 0,
) -> tuple[list[list[Tile]], list[Tile]] | None:
    """A deal of ``pool`` to the hidden seats that meets every constraint, found by a
    randomised depth-first search (None if there is none within :data:`_SEARCH_NODES`): the
    quick deals of :func:`sample_deal` fill one seat after another and can keep missing the
    few deals a tight set of constraints leaves. With ``need`` (pips, a bit a pip), a hidden
    hand holds a tile of one of them (the view goes on with nothing to draw): those tiles
    are placed first, and a branch that leaves every one of them out fails at once."""
    left = list(pool)
    rng.shuffle(left)
    if need:
        left.sort(key=lambda tile: not _touches(tile, need))  # stable: still shuffled
    needed = sum(1 for tile in left if _touches(tile, need))  # the need tiles lead `left`
    held = 0  # the need tiles placed in a hidden hand
    room = {seat: view.hand_sizes[seat] for seat in order}
    spare = len(left) - sum(room.values())  # the bazar and the tiles out of play
    if spare < view.bazar_size:
        return None
    counts = {seat: [0] * len(by_seat.get(seat, ())) for seat in order}
    placed: dict[int, list[Tile]] = {seat: [] for seat in order}
    pile: list[Tile] = []
    nodes = 0

    def fits(seat: int, tile: Tile) -> list[int] | None:
        hits = [
            k
            for k, c in enumerate(by_seat.get(seat, ()))
            if tile.high in c.pips or tile.low in c.pips
        ]
        mine = by_seat.get(seat, [])
        return hits if all(counts[seat][k] < mine[k].draws for k in hits) else None

    def place(i: int) -> bool:
        nonlocal nodes, spare, held
        if need and not held and i >= needed:
            return False  # every tile that could give a hand a move is in the bazar
        if i == len(left):
            return True
        nodes += 1
        if nodes > _SEARCH_NODES:
            return False
        tile = left[i]
        seats = [s for s in order if room[s]]
        rng.shuffle(seats)
        for seat in seats:
            hits = fits(seat, tile)
            if hits is None:
                continue
            room[seat] -= 1
            placed[seat].append(tile)
            held += i < needed
            for k in hits:
                counts[seat][k] += 1
            if place(i + 1):
                return True
            for k in hits:
                counts[seat][k] -= 1
            held -= i < needed
            placed[seat].pop()
            room[seat] += 1
        if spare:
            spare -= 1
            pile.append(tile)
            if place(i + 1):
                return True
            pile.pop()
            spare += 1
        return False

    if not place(0):
        return None
    dealt = [list(h) for h in hands]
    for seat in order:
        dealt[seat] = placed[seat]
    return dealt, pile[: view.bazar_size]


_Prepared = tuple[list[Tile] | None, list[Tile], dict[int, list[Constraint]], list[int], int]


def _touches(tile: Tile, pips: int) -> bool:
    """Whether ``tile`` shows one of ``pips`` (a bit a pip)."""
    return bool((1 << tile.high | 1 << tile.low) & pips)


def _prepare(view: View, use_constraints: bool) -> _Prepared:
    """What every deal from ``view`` starts from: the viewer's own hand, the unseen tiles,
    the constraints by seat, the order to fill the hidden seats in (most constrained
    first) and the pips (a bit a pip) of which a hidden hand must hold a tile, 0 for none:
    where the view goes on with nothing to draw and the viewer holds no tile to play, some
    other hand does, or the round would be over (:meth:`Round.pips_to_go_on`). Raises
    :class:`InconsistentDeal` where the unseen tiles cannot fill the places the view
    shows."""
    me = view.seat
    own = list(view.hand) if view.hand is not None and me is not None else None
    hidden = [s for s in range(view.rules.players) if not (s == me and own is not None)]
    pool = sorted(set(view.rules.tiles) - seen_tiles(view))
    need = sum(view.hand_sizes[s] for s in hidden) + view.bazar_size
    if len(pool) < need:
        raise InconsistentDeal(f"the view leaves {len(pool)} unseen tiles for {need} places")
    by_seat: dict[int, list[Constraint]] = {}
    for c in constraints(view) if use_constraints else []:
        by_seat.setdefault(c.seat, []).append(c)
    order = sorted(hidden, key=lambda s: -len(by_seat.get(s, ())))
    need = 0
    family = view.rules.variant.round
    pips = family.pips_to_go_on(view) if use_constraints and family is not None else None
    if pips is not None:
        need = sum(1 << pip for pip in pips)
        if own is not None and any(_touches(tile, need) for tile in own):
            need = 0  # the viewer can play: the others' hands need not
    return own, pool, by_seat, order, need


@dataclass(frozen=True)
class PlayModel:
    """How a seat chooses among the tiles it may lay, as a search models the others: each
    legal tile weighs ``e^(beta * (pips + double))`` (``double`` only for a double), and a
    seat lays one with the probability of its weight among its legal tiles' weights (one
    weight for each open pip a tile fits). It turns the moves the others made into evidence
    about their hands (:func:`weighted_deal`): a deal under which they chose as they did is
    more likely than one under which they passed over heavier tiles.

    The defaults are the most likely ones for OpenSpiel's ``ISMCTSBot`` on 2-player Block
    (265 of its decisions with more than one legal tile, log-likelihood 34 above a uniform
    choice), and what the seeds' advice says of people: shed heavy tiles and doubles first.
    ``beta = 0`` is a seat choosing blindly among its legal tiles."""

    beta: float = 0.25
    double: float = 2.0

    def weights(self, top: int) -> list[tuple[int, float]]:
        """Per tile index up to ``top``-``top``: the pips it carries (a bit a pip) and its
        weight."""
        out = []
        for high in range(top + 1):
            for low in range(high + 1):
                pips = high + low + (self.double if high == low else 0.0)
                out.append(((1 << high) | (1 << low), math.exp(self.beta * pips)))
        return out


#: a choice another seat made: its seat, the open pips then (a bit a pip), the
#: index of the tile it laid, and the tiles it laid later (a bit a tile index)
_Choice = tuple[int, int, int, int]
#: per tile index, the pips it carries (a bit a pip) and its weight (:meth:`PlayModel.weights`)
_Weights = list[tuple[int, float]]


def choices(view: View) -> list[_Choice]:
    """The tiles the other seats laid on open ends, in the games whose passes read the ends
    (``Variant.reads_ends``), each with what the seat held then besides its hand now: the
    tiles it laid later. Leads are left out (a game's rules may force them), and so are a
    seat's choices before its last draw (its hand then held tiles nobody saw)."""
    inference = Inference(view.rules)
    found: list[_Choice] = []
    history = view.history
    if inference.reads_ends:
        later = [0] * view.rules.players
        fresh = [True] * view.rules.players
        points: list[tuple[int, int, int]] = []
        for i, (seat, move, _) in enumerate(history):
            tile = move.tile
            ends = inference.open_ends
            if seat != view.seat and move.kind == "play" and tile and ends:
                bits = 0
                for pip in ends.values():
                    bits |= 1 << pip
                points.append((i, seat, bits))
            inference.read(i, seat, move)
        # walk back: the tiles each seat laid after a choice, up to its last draw
        marks = {i: (seat, bits) for i, seat, bits in points}
        for i in range(len(history) - 1, -1, -1):
            seat, move, _ = history[i]
            if move.kind == "draw":
                fresh[seat] = False
            mark = marks.get(i)
            if mark is not None and fresh[seat] and move.tile is not None:
                found.append((seat, mark[1], move.tile.index, later[seat]))
            if move.tile is not None and move.kind in ("play", "close"):
                later[seat] |= 1 << move.tile.index
        found.reverse()
    return found


def likelihood(
    model: PlayModel, found: Sequence[_Choice], hands: Sequence[Sequence[Tile]], top: int
) -> float:
    """How likely, under ``model``, the others' ``found`` choices (:func:`choices`) were had
    they held ``hands``: the product of each choice's probability."""
    return _likelihood(model.weights(top), found, hands)


def _likelihood(
    table: _Weights, found: Sequence[_Choice], hands: Sequence[Sequence[Tile]]
) -> float:
    """:func:`likelihood`, with the model's weights already tabled."""
    masks = [-1] * len(hands)
    p = 1.0
    for seat, bits, laid, later in found:  # bits: the open pips (a lead is never found)
        if masks[seat] < 0:
            mask = 0
            for tile in hands[seat]:
                mask |= 1 << tile.index
            masks[seat] = mask
        held = masks[seat] | later | (1 << laid)
        total = 0.0
        while held:
            low = held & -held
            held ^= low
            pips, weight = table[low.bit_length() - 1]
            fit = pips & bits
            if fit:  # a tile that fits two open pips is two moves
                total += weight + weight if fit & (fit - 1) else weight
        p *= table[laid][1] / total
    return p


class Determinizer:
    """Full rounds consistent with one view, dealt as often as a search asks: what a
    searching bot makes once a ``choose``, and deals from many times.

    It keeps what every deal of its view shares, so that only the first deal pays for it:
    the unseen tiles and what passes and draws say of each seat (:func:`sample_deal`), the
    others' choices a deal is weighed by (:func:`choices`, under ``model``), and the first
    round rebuilt from the view (:meth:`bazar.Round.from_view`), which the next deals are
    redealt from (:meth:`bazar.Round.redealt`) instead of rebuilt. A deal that contradicts
    the view (:class:`InconsistentDeal`) is dealt again; any other error propagates.

    >>> import random
    >>> import bazar
    >>> rnd = bazar.Round(bazar.rules("block"), seed=3)
    >>> rnd.push(rnd.legal_moves()[0])
    >>> dealer = Determinizer(rnd.view(rnd.turn), PlayModel())
    >>> dealt = dealer.deal(random.Random(1))
    >>> dealt is not None and dealt[0].turn == rnd.turn and 0.0 < dealt[1] <= 1.0
    True
    """

    def __init__(self, view: View, model: PlayModel | None = None) -> None:
        self.view = view
        #: how the others choose, to weigh each deal by (None: every deal alike)
        self.model = model
        self._prepared: _Prepared | None = None
        self._choices: list[_Choice] | None = None
        self._weights: _Weights | None = None
        self._base: Round | None = None

    @property
    def can_deal(self) -> bool:
        """Whether the view can be dealt: a seat's view, of a game whose family rebuilds a
        round from a view (``Variant.determinizable``; not Kolbasa's blind rows)."""
        return self.view.rules.variant.determinizable and self.view.seat is not None

    @property
    def choices(self) -> list[_Choice]:
        """The others' choices in the view (:func:`choices`), read once."""
        if self._choices is None:
            self._choices = choices(self.view)
        return self._choices

    def hands(self, rng: random.Random) -> tuple[list[list[Tile]], list[Tile]]:
        """Hands for every seat and a bazar in draw order, consistent with the view (see
        :func:`sample_deal`). Raises :class:`InconsistentDeal` where no hands fit."""
        if self._prepared is None:
            self._prepared = _prepare(self.view, True)
        return _dealt(self.view, self._prepared, rng, QUICK_DEALS)

    def round(self, rng: random.Random, tries: int = 8) -> Round | None:
        """A full round consistent with the view (see :meth:`deal`), or None."""
        dealt = self.deal(rng, tries)
        return None if dealt is None else dealt[0]

    def deal(self, rng: random.Random, tries: int = 8) -> tuple[Round, float] | None:
        """A full round consistent with the view, and how likely the others' choices were
        had they held its hands (:func:`likelihood` under :attr:`model`; 1.0 without one).
        A family whose ``from_view`` replays the history (tricks: a seat that did not follow
        suit is void in it) rejects some deals (:class:`InconsistentDeal`), as do the
        tile families a deal that leaves nobody a move where the view's round goes on (the
        sampler's last, relaxed try can deal one); they are dealt again, ``tries`` deals in
        all. None
        where every try failed, or where the view cannot be dealt (:attr:`can_deal`)."""
        if not self.can_deal:
            return None
        for _ in range(tries):
            try:
                hands, pile = self.hands(rng)
                rnd = self._rebuilt(hands, pile)
            except InconsistentDeal:
                continue
            if rnd.turn == self.view.turn:
                return rnd, self._likelihood(hands)
        return None

    def _rebuilt(self, hands: list[list[Tile]], pile: list[Tile]) -> Round:
        """The view's round with ``hands`` and ``pile``: redealt from the first round rebuilt
        (where the family redeals, ``Round.redealt``), else rebuilt from the view."""
        base = self._base
        rnd = base.redealt(hands, pile) if base is not None else None
        if rnd is None:
            rnd = Round.from_view(self.view, hands=hands, bazar=pile)
            if base is None:
                self._base = rnd.copy()  # kept at the view's position, to redeal from
        return rnd

    def _likelihood(self, hands: Sequence[Sequence[Tile]]) -> float:
        """How likely the others' choices were had they held ``hands`` (1.0 without a model
        or without choices to weigh)."""
        model = self.model
        if model is None or not self.choices:
            return 1.0
        if self._weights is None:
            self._weights = model.weights(self.view.rules.set_max)
        return _likelihood(self._weights, self.choices, hands)


def determinize(view: View, rng: random.Random, tries: int = 8) -> Round | None:
    """One full round consistent with ``view`` (:meth:`Determinizer.round`), or None where
    none was found in ``tries`` deals or the game's family cannot rebuild one (Kolbasa's
    blind rows). A search that deals one view many times makes a :class:`Determinizer`."""
    return Determinizer(view).round(rng, tries)


def weighted_deal(
    view: View, rng: random.Random, model: PlayModel | None, tries: int = 8
) -> tuple[Round, float] | None:
    """One deal of ``view`` weighed by ``model`` (:meth:`Determinizer.deal`): a full round
    and how likely the others' choices were had they held its hands (1.0 without a model).
    The deals are drawn as :func:`sample_deal` draws them: a search weighs each one's result
    by its likelihood (importance sampling)."""
    return Determinizer(view, model).deal(rng, tries)


# -- values and playouts -------------------------------------------------------------------


def ledger_of(view: View) -> Ledger | None:
    """The match's ledger as ``view`` shows it (every seat sees the scores), the family
    reading its score state back (:meth:`bazar.Ledger.from_public`), or None where the view
    carries none."""
    from bazar.core.ledger import Ledger

    if "scores" not in view.scores:
        return None
    try:
        return Ledger.from_public(view.rules, view.scores)
    except (TypeError, ValueError):
        return None


def match_standing(ledger: Ledger) -> list[float]:
    """Each side's standing in its match, in points, more being better: what a bot that
    plays for the match (not only the round) maximises.

    Where the match is lost at a ``limit`` (the Kozel family's goat), a point weighs more
    the nearer it brings a side to the limit: the standing is ``-(x + L e^((x-L)/t))`` with
    ``t = L/4``, so 10 points at 20 cost about 11, at 90 about 30; ``x`` is the side's
    points as its family counts them (:meth:`bazar.Ledger.standing`: Kozel's remembered
    points at ``REMEMBERED_WEIGHT`` of their face value). A decided match counts the loser
    at the limit's full weight and the winners at nothing left to fear. Where a ``target``
    is reached first, the winner gains the target again. Otherwise the scores themselves
    (signed by :attr:`Rules.better_sign <bazar.core.rules.Rules.better_sign>`).
    """
    rules = ledger.rules
    limit = rules.limit
    target = rules.target
    result = ledger.result
    won = set()
    if result is not None:
        won = {rules.side_of(s) for s in result.winners}
    if target is None and limit:
        tau = limit / 4
        return [-(x + limit * math.exp(min(50.0, (x - limit) / tau))) for x in ledger.standing()]
    sign = rules.better_sign
    bonus = float(target or 0)
    return [sign * x + (bonus if side in won else 0.0) for side, x in enumerate(ledger.scores)]


def outcome_value(
    rules: Rules,
    outcome: Outcome,
    events: Sequence[tuple[int, int]] = (),
    ledger: Ledger | None = None,
) -> list[float]:
    """Each side's value of a finished round in the game's own points: what the ledger's
    settlement gives it (plus in-play ``events``) less the mean of the other sides, signed
    so that more is better. In the games lost at a limit (the Kozel family) the value is
    the change of each side's :func:`match_standing` from the match's ``ledger`` (a fresh
    one if not given): a bot that plays for the match, not only the round."""
    from bazar.core.ledger import Ledger

    standing = rules.limit and rules.target is None
    if rules.variant.settle is None and not standing and not events:
        # the plain settlement adds the award to the scores: no ledger needed
        sign = rules.better_sign
        return _relative([float(sign * g) for g in award(rules, outcome)])
    start = ledger if ledger is not None else Ledger.new(rules)
    after = start.settle(outcome)
    if standing and not events:
        before_standing = match_standing(start)
        return _relative(
            [a - b for a, b in zip(match_standing(after), before_standing, strict=True)]
        )
    gains = [float(a - b) for a, b in zip(after.scores, start.scores, strict=True)]
    if not any(gains) and events:
        for seat, points in events:
            gains[rules.side_of(seat)] += points
    sign = rules.better_sign
    return _relative([sign * g for g in gains])


def _relative(gains: list[float]) -> list[float]:
    n = len(gains)
    if n < 2:
        return gains
    total = sum(gains)
    return [g - (total - g) / (n - 1) for g in gains]


def _weight(move: Move) -> tuple[int, bool]:
    tile = move.tile
    return (-1, False) if tile is None else (tile.pips, tile.is_double)


def greedy_move(legal: Sequence[Move]) -> Move:
    """The heaviest tile (the rollout policy)."""
    return max(legal, key=_weight)


def rollout(rnd: Round, rng: random.Random, eps: float = 0.1, limit: int = 2000) -> int:
    """Play ``rnd`` to its end, heaviest tile first with a little chance; returns the number
    of moves pushed (to pop them back)."""
    pushed = 0
    passes = 0
    players = rnd.players
    scored = rnd.rules.variant.scored_in_play
    scored_moves = 2 * players  # the next turns matter most: score-greedy, then heaviest
    while not rnd.is_over() and pushed < limit and passes < players:
        legal = rnd.legal_moves()
        if len(legal) == 1:
            move = legal[0]
            # a sampled deal can block the table without the round noticing: stop there
            passes = passes + 1 if move.kind == "pass" else 0
        elif rng.random() < eps:
            move = legal[int(rng.random() * len(legal))]
        elif scored and pushed < scored_moves:
            move = scoring_move(rnd, legal)
        else:
            move = greedy_move(legal)
        rnd.push(move)
        pushed += 1
    return pushed


def scoring_move(rnd: Round, legal: Sequence[Move]) -> Move:
    """The move that scores most at once, then the heaviest (the rollout policy of the
    games that score during play)."""
    before = len(rnd.scoring())
    best = legal[0]
    best_key: tuple[int, int, bool] = (-1, -1, False)
    for move in legal:
        gain = 0
        if move.tile is not None:
            rnd.push(move)
            gain = sum(p for _, p in rnd.scoring()[before:])
            rnd.pop()
        key = (gain, *_weight(move))
        if key > best_key:
            best, best_key = move, key
    return best


def round_value(rnd: Round, ledger: Ledger | None = None) -> list[float]:
    """The side values of a round played to its end (a round left blocked: the pips each
    side still holds, fewer being better); with the match's ``ledger``, for the match."""
    outcome = rnd.outcome()
    if outcome is None:
        gains = [0.0] * rnd.rules.sides
        for seat, tiles in enumerate(rnd.hands):
            gains[rnd.rules.side_of(seat)] -= sum(t.pips for t in tiles)
        return _relative(gains)
    return outcome_value(rnd.rules, outcome, rnd.scoring(), ledger)


def unwind(rnd: Round, count: int) -> None:
    for _ in range(count):
        rnd.pop()


# -- exact endgame -------------------------------------------------------------------------


def solve(
    rnd: Round,
    side: int,
    nodes: list[int],
    alpha: float = -math.inf,
    beta: float = math.inf,
    ledger: Ledger | None = None,
) -> float:
    """The value for ``side`` of ``rnd`` with every hand open, by alpha-beta (the other
    sides play against ``side``). ``nodes[0]`` counts down a node budget; when it runs out
    the rest is played greedily."""
    if rnd.is_over():
        return round_value(rnd, ledger)[side]
    nodes[0] -= 1
    if nodes[0] <= 0:
        count = rollout(rnd, random.Random(0), eps=0.0)
        value = round_value(rnd, ledger)[side]
        unwind(rnd, count)
        return value
    turn = rnd.turn
    assert turn is not None
    maximise = rnd.rules.side_of(turn) == side
    legal = sorted(rnd.legal_moves(), key=_weight, reverse=True)
    best = -math.inf if maximise else math.inf
    for move in legal:
        rnd.push(move)
        value = solve(rnd, side, nodes, alpha, beta, ledger)
        rnd.pop()
        if maximise:
            best = max(best, value)
            alpha = max(alpha, value)
        else:
            best = min(best, value)
            beta = min(beta, value)
        if alpha >= beta:
            break
    return best


@dataclass(frozen=True)
class Budget:
    """How long a searching bot thinks: ``playouts`` (a count, reproducible), ``ms`` (wall
    time), or both: a count of playouts cut short at ``ms`` milliseconds (a hard cap, so a
    level keeps its promised time on a slow move; on a loaded machine it plays fewer
    playouts, so only an uncapped count reproduces exactly)."""

    playouts: int = 0
    ms: float = 0.0

    @staticmethod
    def parse(text: str | None, default: Budget) -> Budget:
        """``"200"`` playouts, ``"50ms"`` or ``"1s"``, ``"200/50ms"`` (200 playouts, at most
        50 ms); None: ``default``.

        >>> Budget.parse("50ms", Budget(10)), Budget.parse("300", Budget(10))
        (Budget(playouts=0, ms=50.0), Budget(playouts=300, ms=0.0))
        >>> Budget.parse("200/40ms", Budget(10))
        Budget(playouts=200, ms=40.0)
        """
        if text is None or text == "":
            return default
        text = text.strip().lower()
        count, slash, cap = text.partition("/")
        if slash:
            playouts = Budget.parse(count, default)
            limit = Budget.parse(cap, default)
            if not playouts.playouts or playouts.ms or limit.playouts or not limit.ms:
                raise invalid("budget_form", text=text)
            return Budget(playouts.playouts, limit.ms)
        if text.endswith("ms"):
            budget = Budget(0, float(text[:-2]))
        elif text.endswith("s"):
            budget = Budget(0, float(text[:-1]) * 1000)
        else:
            budget = Budget(int(text), 0.0)
        if budget.playouts < 0 or budget.ms < 0 or not (budget.playouts or budget.ms):
            raise invalid("budget_positive", text=text)
        return budget

    def clock(self) -> Clock:
        """A clock that starts now."""
        return Clock(self)

    def __str__(self) -> str:
        parts = [str(self.playouts)] if self.playouts else []
        if self.ms:
            parts.append(f"{self.ms:g}ms")
        return "/".join(parts)


class Clock:
    """A search's count of playouts against its :class:`Budget`, and the time it started."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.start = time.perf_counter()
        self.used = 0

    def tick(self) -> None:
        """Count one playout."""
        self.used += 1

    def more(self) -> bool:
        """Whether the budget leaves time and playouts for another."""
        b = self.budget
        if b.playouts and self.used >= b.playouts:
            return False
        if b.ms > 0:
            return (time.perf_counter() - self.start) * 1000 < b.ms
        return True
