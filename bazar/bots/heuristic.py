"""The ``heuristic`` bot: the human strategy of the seeds, as a score for each legal move.

For the games with open ends (the line and cross layouts, and the ends of trains and trees)
it weighs, move by move, what the Kozel and All Fives tips say:

* shed heavy tiles and doubles first (a double is hard to place later; pips left count
  against you, and in Kozel being left with heavy tiles makes the goat);
* keep suits varied and keep tiles that fit the ends you leave (options next turn);
* count what is out: an end whose pip nobody else can still hold (every other tile of that
  pip is on the table or in your hand) is an end you control, and when the count favours
  you (fewer pips in hand than the opponents can hold) play to block;
* in the scored games (All Fives and its kin) take the largest immediate score and avoid
  leaving the next opponent a multiple of five (estimated over a few sampled deals).

In Mexican Train it plans its own train (:func:`train_scores`). In Kolbasa, where nobody
sees a tile before it is turned over, it attaches rather than cuts, and cuts as little as it
can: cutting to hand the opponent the most tiles measured worse (45% of 400 matches against
a bot that attaches first), so there it plays like ``greedy``. Every other game falls back to
the generic rule: the heaviest tile that keeps the most legal options next turn. The bot
sees only its view; its samples come from a :class:`bazar.bots.sampler.Determinizer`.
"""

from __future__ import annotations

from collections.abc import Sequence

from bazar.core.moves import Move
from bazar.core.round import Round
from bazar.core.tiles import Tile
from bazar.core.view import View

from . import sampler as search
from .base import Bot, register

__all__ = ["HeuristicBot", "move_scores", "plan_train", "train_scores"]

#: sampled deals used to guess the next opponent's best reply in the scored games
THREAT_SAMPLES = 4


def _suits(tiles: Sequence[Tile]) -> set[int]:
    return {p for t in tiles for p in (t.high, t.low)}


def _fits(tiles: Sequence[Tile], pips: set[int]) -> int:
    return sum(1 for t in tiles if t.high in pips or t.low in pips)


def _scored(rnd: Round, seat: int, before: int) -> int:
    side = rnd.rules.side_of(seat)
    return sum(p for s, p in rnd.scoring()[before:] if rnd.rules.side_of(s) == side)


def move_scores(
    view: View, legal: Sequence[Move], rnd: Round | None, samples: list[Round]
) -> list[float]:
    """The heuristic's score of each legal move (higher is better). ``rnd`` is one sampled
    round consistent with ``view`` (None where the game cannot be rebuilt), ``samples``
    further ones to estimate the next opponent's reply."""
    me = view.seat
    assert me is not None
    rules = view.rules
    hand = list(view.hand or ())
    seen = search.seen_tiles(view)
    top = rules.set_max
    # how many tiles of each pip another seat (or the bazar) may still hold
    unseen = [0] * (top + 1)
    for t in rules.tiles:
        if t not in seen:
            unseen[t.high] += 1
            if not t.is_double:
                unseen[t.low] += 1
    voids: set[int] = set()  # pips the next seat is known to lack
    nxt = (me + 1) % rules.players
    for c in search.constraints(view):
        if c.seat == nxt and c.draws == 0:
            voids |= c.pips
    scored = bool(rnd is not None and (rnd.scoring() or rules.variant.scored_in_play))
    my_pips = sum(t.pips for t in hand)
    goat = rules.variant.traits.goat
    out: list[float] = []
    for move in legal:
        tile = move.tile
        if tile is None or tile not in hand:
            # draw, pass, stop, bids: nothing to weigh but keep the order stable
            out.append(-1000.0 if move.kind in ("draw", "pass") else 0.0)
            continue
        rest = [t for t in hand if t != tile]
        score = 1.0 * tile.pips + (4.0 if tile.is_double else 0.0)
        if goat and tile.pips >= 9:
            score += 2.0
        score += 1.5 * len(_suits(rest))
        ends: set[int] = set()
        gained = 0
        if rnd is not None:
            before = len(rnd.scoring())
            try:
                rnd.push(move)
            except ValueError:
                out.append(score)
                continue
            ends = set(rnd.ends().values())
            gained = _scored(rnd, me, before)
            over = rnd.is_over()
            rnd.pop()
            if over:
                out.append(1e6 + gained)
                continue
        elif move.end is None and not view.ends:
            ends = {tile.high, tile.low}
        if ends:
            options = _fits(rest, ends)
            score += 2.0 * options
            for pip in ends:
                mine = sum(1 for t in rest if t.has(pip))
                if unseen[pip] == 0 and mine:
                    score += 5.0  # an end only I can answer
                if pip in voids:
                    score += 3.0  # the next seat is known to lack it
            # play to block when the count favours me: leave ends the others lack
            if my_pips - tile.pips <= 10 and all(unseen[p] <= 1 for p in ends):
                score += 4.0
        if scored:
            score += 6.0 * gained
            threat = 0.0
            for sample in samples:
                threat += _threat(sample, move, me)
            if samples:
                score -= 4.0 * threat / len(samples)
        out.append(score)
    return out


#: how much a tile kept for one's own train weighs against a tile with nowhere planned
PLANNED_WEIGHT = 0.4
#: nodes the search for the longest own train may visit
PLAN_NODES = 6000


def plan_train(end: int, tiles: Sequence[Tile], nodes: int = PLAN_NODES) -> tuple[Tile, ...]:
    """The longest run of ``tiles`` that can be laid one after another from the pip
    ``end`` (the heavier of equally long runs): the train a player plans to lay on their
    own train, one turn at a time. A depth-first search, stopped after ``nodes`` steps.

    >>> hand = [Tile.of(6, 1), Tile.of(1, 3), Tile.of(5, 5), Tile.of(6, 2)]
    >>> [str(t) for t in plan_train(6, hand)]
    ['6-1', '3-1']
    """
    by_pip: dict[int, list[Tile]] = {}
    for t in tiles:
        by_pip.setdefault(t.high, []).append(t)
        if not t.is_double:
            by_pip.setdefault(t.low, []).append(t)
    best: tuple[Tile, ...] = ()
    best_key = (0, 0)
    path: list[Tile] = []
    used: set[Tile] = set()
    budget = [nodes]

    def walk(pip: int, pips: int) -> None:
        nonlocal best, best_key
        key = (len(path), pips)
        if key > best_key:
            best, best_key = tuple(path), key
        budget[0] -= 1
        if budget[0] <= 0:
            return
        for t in by_pip.get(pip, ()):
            if t in used:
                continue
            used.add(t)
            path.append(t)
            walk(t.other(pip), pips + t.pips)
            path.pop()
            used.discard(t)

    walk(end, 0)
    return best


def _train_standing(tiles: Sequence[Tile], end: int) -> float:
    """How well a hand stands with its own train ending on ``end``: the tiles it cannot
    plan to lay there count in full, the planned ones at :data:`PLANNED_WEIGHT`."""
    planned = plan_train(end, tiles)
    kept = set(planned)
    loose = sum(t.pips for t in tiles if t not in kept)
    return -loose - PLANNED_WEIGHT * sum(t.pips for t in planned) + 0.5 * len(planned)


def train_scores(view: View, legal: Sequence[Move]) -> list[float]:
    """Mexican Train's strategy (the seeds' "plan your own train"): keep the longest run
    of the hand that fits one's own train for that train, and shed everything else -- the
    heaviest first -- on the Mexican train and the open trains of the others; take one's
    marker off when one can; play a double only with a tile to satisfy it."""
    me = view.seat
    assert me is not None
    hand = list(view.hand or ())
    own = str(me)
    ends = view.ends
    own_end = ends.get(own)
    marked = own in (view.extra.get("markers") or ())
    out: list[float] = []
    for move in legal:
        tile = move.tile
        if tile is None:
            if move.kind == "stop":
                out.append(_train_standing(hand, own_end) if own_end is not None else 0.0)
            else:
                out.append(-1000.0)
            continue
        rest = [t for t in hand if t != tile]
        if not rest:
            out.append(1e6)
            continue
        end = own_end
        if move.end == own and own_end is not None:
            end = tile.other(own_end) if tile.has(own_end) else own_end
        score = _train_standing(rest, end) if end is not None else -sum(t.pips for t in rest)
        if move.end == own and marked:
            score += 4.0  # the marker comes off: the others can no longer play there
        if tile.is_double and not any(t.has(tile.high) for t in rest):
            score -= 15.0  # a double nobody satisfies at once: a draw and a marker
        out.append(score)
    return out


def _threat(rnd: Round, move: Move, me: int) -> float:
    """The most the next seat can score in reply to ``move`` in the sampled ``rnd``."""
    try:
        rnd.push(move)
    except ValueError:
        return 0.0
    best = 0
    try:
        turn = rnd.turn
        if turn is not None and rnd.rules.side_of(turn) != rnd.rules.side_of(me):
            before = len(rnd.scoring())
            for reply in rnd.legal_moves():
                if reply.tile is None:
                    continue
                rnd.push(reply)
                best = max(best, _scored(rnd, turn, before))
                rnd.pop()
    finally:
        rnd.pop()
    return float(best)


@register
class HeuristicBot(Bot):
    """The seeds' strategy (see the module's doc); greedy where a game gives it nothing."""

    name = "heuristic"

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        if len(legal) == 1:
            return legal[0]
        if view.hand is None:  # blind rows (Kolbasa): attach rather than cut (see above),
            # and cut rather than keep the tile (a stop empties nothing of the row)
            return max(legal, key=lambda m: (m.kind not in ("pass", "stop"), -_handed(m), str(m)))
        if view.rules.variant.own_trains:
            scores = train_scores(view, legal)
            best = max(range(len(legal)), key=lambda i: (scores[i], _tiebreak(legal[i])))
            return legal[best]
        dealer = search.Determinizer(view)
        rnd = dealer.round(self.rng)
        samples: list[Round] = []
        if rnd is not None and (rnd.scoring() or view.rules.variant.scored_in_play):
            for _ in range(THREAT_SAMPLES):
                sample = dealer.round(self.rng)
                if sample is not None:
                    samples.append(sample)
        scores = move_scores(view, legal, rnd, samples)
        best = max(range(len(legal)), key=lambda i: (scores[i], _tiebreak(legal[i])))
        return legal[best]


def _handed(move: Move) -> int:
    """Kolbasa: how many tiles a cut at joint ``n`` hands over (the ``n`` before it)."""
    if move.kind == "cut" and move.end is not None and move.end.isdigit():
        return int(move.end)
    return 0


def _weight(move: Move) -> tuple[int, bool]:
    tile = move.tile
    return (-1, False) if tile is None else (tile.pips, tile.is_double)


def _tiebreak(move: Move) -> tuple[int, bool, str]:
    tile = move.tile
    return (-1, False, str(move)) if tile is None else (tile.pips, tile.is_double, str(move))
