"""Why a move was worse, in words: the yard's own advice (the Kozel players' rules of thumb)
checked against the move played and the better one.

Each principle is a test on the player's view and the two moves; the first that applies,
in the order of :data:`PRINCIPLES`, names the advice:

* ``fish``: the move played blocks the table (a fish) and the side loses it, where the better
  move goes on: count the pips before closing a fish;
* ``void``: the better move leaves an end on a pip an opponent has shown he lacks (he passed or
  drew on it and has drawn nothing since), the move played does not: play to what they lack;
* ``score``: the better move scores at once (the games that score in play) more than the one
  played;
* ``double``: the better move sheds a double, which fits only one pip, the one played does
  not: get rid of doubles early;
* ``heavy``: the better move sheds at least :data:`HEAVY` pips more: get rid of the heavy
  tiles early (what is left in the hand is counted against it);
* ``variety``: the better move keeps more different pips in the hand ("keep the
  assortment"): an answer to every end.

An :class:`Advice` is a code and its parameters, never a sentence: the command line and the
club say it in the player's language (``advice.CODE`` in the catalogue).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bazar.bots import sampler
from bazar.core.moves import Move
from bazar.core.round import Round
from bazar.core.tiles import Tile
from bazar.core.view import View

from .equity import equity_of
from .values import end_value

__all__ = ["HEAVY", "PRINCIPLES", "Advice", "advise"]

#: pips by which the better move must be heavier for the ``heavy`` advice
HEAVY = 3


@dataclass(frozen=True)
class Advice:
    """A principle the move played broke (``code``, one of :data:`PRINCIPLES`), with what
    the sentence names (``params``: tiles and pips as text and numbers)."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """The catalogue's key of its sentence."""
        return f"advice.{self.code}"

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, **self.params}


@dataclass
class _After:
    """The position after a move in one deal of the view: its open ends' pips, the points it
    scored at once, how the round ended there (None: it goes on)."""

    ends: set[int]
    scored: int
    fish_lost: bool


def _after(rnd: Round, move: Move, side: int) -> _After:
    before = len(rnd.scoring())
    rnd.push(move)
    try:
        ends = set(rnd.ends().values())
        seat_points = rnd.scoring()[before:]
        scored = sum(p for s, p in seat_points if rnd.rules.side_of(s) == side)
        outcome = rnd.outcome()
        fish_lost = False
        if outcome is not None and outcome.reason == "fish":
            start = rnd.ledger
            _, points = end_value(rnd, side, start, equity_of(rnd.rules), playouts=1)
            fish_lost = points < 0
        return _After(ends, scored, fish_lost)
    finally:
        rnd.pop()


def _suits(tiles: list[Tile]) -> int:
    return len({t.high for t in tiles} | {t.low for t in tiles})


def _without(hand: tuple[Tile, ...], tile: Tile | None) -> list[Tile]:
    rest = list(hand)
    if tile is not None and tile in rest:
        rest.remove(tile)
    return rest


#: the position after a move in one deal, where the view could be dealt
Seen = _After | None
Check = Callable[[View, Move, Move, Seen, Seen], "Advice | None"]


def _fish(
    view: View, played: Move, best: Move, a: _After | None, b: _After | None
) -> Advice | None:
    if a is not None and b is not None and a.fish_lost and not b.fish_lost:
        return Advice("fish", {"played": str(played), "best": str(best)})
    return None


def _void(
    view: View, played: Move, best: Move, a: _After | None, b: _After | None
) -> Advice | None:
    if a is None or b is None or view.seat is None:
        return None
    rules = view.rules
    side = rules.side_of(view.seat)
    for c in sampler.constraints(view):
        if c.draws or rules.side_of(c.seat) == side:
            continue
        for pip in sorted(c.pips):
            if pip in b.ends and pip not in a.ends:
                return Advice(
                    "void",
                    {"best": str(best), "seat": c.seat + 1, "pip": pip, "played": str(played)},
                )
    return None


def _score(
    view: View, played: Move, best: Move, a: _After | None, b: _After | None
) -> Advice | None:
    if a is not None and b is not None and b.scored > a.scored:
        return Advice("score", {"best": str(best), "points": b.scored - a.scored})
    return None


def _double(
    view: View, played: Move, best: Move, a: _After | None, b: _After | None
) -> Advice | None:
    p, q = played.tile, best.tile
    if p is not None and q is not None and q.is_double and not p.is_double:
        return Advice("double", {"best": str(best), "tile": str(q)})
    return None


def _heavy(
    view: View, played: Move, best: Move, a: _After | None, b: _After | None
) -> Advice | None:
    p, q = played.tile, best.tile
    if p is not None and q is not None and q.pips >= p.pips + HEAVY:
        return Advice("heavy", {"best": str(best), "pips": q.pips, "played_pips": p.pips})
    return None


def _variety(
    view: View, played: Move, best: Move, a: _After | None, b: _After | None
) -> Advice | None:
    hand = view.hand
    if hand is None or played.tile is None or best.tile is None:
        return None
    kept = _suits(_without(hand, best.tile))
    left = _suits(_without(hand, played.tile))
    if kept > left:
        return Advice("variety", {"best": str(best), "kept": kept, "left": left})
    return None


#: the principles, in the order they are tried
PRINCIPLES: dict[str, Check] = {
    "fish": _fish,
    "void": _void,
    "score": _score,
    "double": _double,
    "heavy": _heavy,
    "variety": _variety,
}


def advise(view: View, played: Move, best: Move) -> Advice | None:
    """The first principle (:data:`PRINCIPLES`) that ``played`` broke where ``best`` keeps
    it, in the position of ``view``; None where none applies (or the moves are the same)."""
    if played == best:
        return None
    a = b = None
    seat = view.seat
    rnd = sampler.Determinizer(view).round(random.Random(0))
    if rnd is not None and seat is not None:
        side = view.rules.side_of(seat)
        a, b = _after(rnd, played, side), _after(rnd, best, side)
    for check in PRINCIPLES.values():
        advice = check(view, played, best, a, b)
        if advice is not None:
            return advice
    return None
