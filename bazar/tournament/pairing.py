"""How each format seats its entries: pure functions of the entries' order and what they have
played, returning tables (tuples of entry ids in side order; a table of one is a bye).

>>> round_robin([0, 1, 2, 3], 2, seed=0)
[[(0, 3), (1, 2)], [(2, 0), (3, 1)], [(0, 1), (2, 3)]]
>>> bracket(5, 2)
[1, 8, 4, 5, 2, 7, 3, 6]
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations, product

__all__ = [
    "Met",
    "arena",
    "bracket",
    "meet",
    "round_robin",
    "swiss",
    "swiss_first",
]

#: how often each two entries met: ``met[frozenset((a, b))]``
Met = Counter[frozenset[int]]

Table = tuple[int, ...]

#: the nodes the search for a Swiss round without a repeated pairing may visit before it
#: settles for the fewest repeats (a large field almost never needs as many)
SEARCH_BUDGET = 20_000

#: the seatings tried for each round of a round-robin of tables of more than two
ATTEMPTS = 48


def _meetings(table: Sequence[int], other: int, met: Met) -> int:
    return sum(met[frozenset((seated, other))] for seated in table)


def meet(tables: Sequence[Table], met: Met) -> None:
    """Count in ``met`` the meetings of the entries at each of ``tables``."""
    for table in tables:
        for a, b in combinations(table, 2):
            met[frozenset((a, b))] += 1


def round_robin(ids: Sequence[int], sides: int, *, seed: int) -> list[list[Table]]:
    """Every round of a round-robin. Two sides: the circle (Berger) method, the first entry
    fixed and the others turning, ``n - 1`` rounds (``n`` with a bye each when ``n`` is odd).
    More sides: rounds of tables until every two entries met at least once, each round the
    best of several greedy seatings (the most new meetings, then the fewest repeated ones),
    the byes to those who had the fewest."""
    if sides == 2:
        return _circle(list(ids))
    rng = random.Random(f"bazar-tournament:{seed}:round_robin")
    met: Met = Counter()
    byes: Counter[int] = Counter()
    wanted = {frozenset(pair) for pair in combinations(ids, 2)}
    rounds: list[list[Table]] = []
    while any(not met[pair] for pair in wanted) and len(rounds) < len(ids) ** 2:
        best: tuple[tuple[int, int], list[Table]] | None = None
        for _ in range(ATTEMPTS):
            order = list(ids)
            rng.shuffle(order)
            order.sort(key=lambda e: byes[e])
            left = len(order) % sides
            tables = _greedy(order[left:], sides, met, unmet=True)
            pairs = [frozenset(pair) for t in tables for pair in combinations(t, 2)]
            new = sum(1 for pair in pairs if not met[pair])
            repeats = len(pairs) - new
            seating = [*tables, *((e,) for e in order[:left])]
            if best is None or (new, -repeats) > best[0]:
                best = ((new, -repeats), seating)
        assert best is not None
        meet(best[1], met)
        byes.update(t[0] for t in best[1] if len(t) == 1)
        rounds.append(best[1])
    return rounds


def _circle(ids: list[int]) -> list[list[Table]]:
    """The circle method: the first place stays, the others turn one place a round; an odd
    field gets an empty place, whose opponent has the bye."""
    empty = -1
    circle = [*ids, *([empty] if len(ids) % 2 else [])]
    size = len(circle)
    rounds = []
    for number in range(size - 1):
        tables: list[Table] = []
        byes: list[Table] = []
        for board in range(size // 2):
            a, b = circle[board], circle[size - 1 - board]
            if board == 0 and number % 2:
                a, b = b, a
            if empty in (a, b):
                byes.append((max(a, b),))
            else:
                tables.append((a, b))
        rounds.append(tables + byes)
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds


def _greedy(order: Sequence[int], sides: int, met: Met, *, unmet: bool = False) -> list[Table]:
    """Tables of ``sides`` down ``order``: each opened by the first entry left (or, with
    ``unmet``, the one who has the most entries left to meet), then filled with the entry
    that met the table's entries least often, the nearest in order among equals."""
    left = list(order)
    tables: list[Table] = []
    while len(left) >= sides:
        if unmet:
            first = max(left, key=lambda e: sum(1 for o in left if not met[frozenset((e, o))]))
            left.remove(first)
        else:
            first = left.pop(0)
        table = [first]
        while len(table) < sides:
            pick = min(range(len(left)), key=lambda i: (_meetings(table, left[i], met), i))
            table.append(left.pop(pick))
        tables.append(tuple(table))
    return tables


def swiss_first(order: Sequence[int], sides: int) -> list[Table]:
    """The first Swiss round, ``order`` by rating: the top half against the bottom half (with
    more sides, table *j* takes the *j*-th entry of each part), sides alternating down the
    boards; the lowest left over get byes."""
    count = len(order) - len(order) % sides
    boards = count // sides
    tables: list[Table] = []
    for board in range(boards):
        table = tuple(order[board + part * boards] for part in range(sides))
        tables.append(table[::-1] if sides == 2 and board % 2 else table)
    return tables + [(e,) for e in order[count:]]


def swiss(
    order: Sequence[int],
    sides: int,
    met: Met,
    *,
    score: dict[int, float],
    had_bye: set[int],
    balance: dict[int, int],
) -> list[Table]:
    """A later Swiss round, ``order`` by score (best first).

    The byes go to the lowest in the order who had none (the next lowest when the rest
    cannot then be paired without a repeat; once everyone had one, from the lowest again).
    Two sides: within each score group the top half meets the bottom half, an entry left
    over floats down, and no two entries meet again while any pairing avoids it (a search
    that backtracks); of the two, the one that played the first side less often plays it.
    More sides: tables down the order, each opened by the best left with the nearest it has
    met none of (the same search); where no round avoids a repeat, tables filled with the
    entries that met theirs least, then entries swapped between tables while that lessens
    the repeats.
    """
    left = len(order) % sides
    lowest = list(reversed(order))
    # those without a bye first, each kind from the lowest up
    turn = [e for e in lowest if e not in had_bye] + [e for e in lowest if e in had_bye]
    candidates = [turn[i : i + left] for i in range(len(turn) - left + 1)] if left else [[]]
    found: list[Table] | None = None
    for byes in candidates:
        rest = [e for e in order if e not in byes]
        if sides == 2:
            found = _pairs(rest, score, met, [SEARCH_BUDGET])
        else:
            found = _tables(rest, sides, met, [SEARCH_BUDGET])
        if found is not None:
            break
    else:
        byes = candidates[0]
        rest = [e for e in order if e not in byes]
        found = _fewer_repeats(_greedy(rest, sides, met), met, rest)
    if sides == 2:
        found = [_sided(t, balance) for t in found]
    return found + [(e,) for e in byes]


def _repeats(table: Sequence[int], met: Met) -> int:
    return sum(met[frozenset(pair)] for pair in combinations(table, 2))


def _fewer_repeats(tables: list[Table], met: Met, order: list[int]) -> list[Table]:
    """``tables`` with two entries of two tables swapped as long as a swap lessens their
    repeated meetings; each table's entries then in ``order``."""
    seated = [list(t) for t in tables]
    better = True
    while better:
        better = False
        for one, other in combinations(seated, 2):
            for a, b in product(range(len(one)), range(len(other))):
                before = _repeats(one, met) + _repeats(other, met)
                one[a], other[b] = other[b], one[a]
                if _repeats(one, met) + _repeats(other, met) < before:
                    better = True
                else:
                    one[a], other[b] = other[b], one[a]
    place = {e: i for i, e in enumerate(order)}
    return [tuple(sorted(t, key=place.__getitem__)) for t in seated]


def _tables(rest: list[int], sides: int, met: Met, budget: list[int]) -> list[Table] | None:
    """Tables of ``sides`` of ``rest`` (best first) where no two met before, each opened by
    the best left with the nearest in the order it can sit with (None when none is found
    within the budget)."""
    if not rest:
        return []
    if any(sum(1 for o in rest if o != e and not met[frozenset((e, o))]) < sides - 1 for e in rest):
        return None  # someone cannot fill a table with entries he has not met
    top, others = rest[0], rest[1:]
    fresh = [o for o in others if not met[frozenset((top, o))]]
    for company in combinations(fresh, sides - 1):
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if any(met[frozenset(pair)] for pair in combinations(company, 2)):
            continue
        after = _tables([e for e in others if e not in company], sides, met, budget)
        if after is not None:
            return [(top, *company), *after]
        if budget[0] < 0:
            return None
    return None


def _sided(table: Table, balance: dict[int, int]) -> Table:
    a, b = table
    return (b, a) if balance.get(a, 0) > balance.get(b, 0) else (a, b)


def _pairs(
    rest: list[int], score: dict[int, float], met: Met, budget: list[int]
) -> list[Table] | None:
    """Pairs of ``rest`` (best first) of whom none met before, each first entry left with
    its preferred opponent: the one half its score group below it, then the rest of its
    group, then the lower groups (None when no such pairing is found within the budget)."""
    if not rest:
        return []
    budget[0] -= 1
    if budget[0] < 0:
        return None
    if any(all(met[frozenset((e, o))] for o in rest if o != e) for e in rest):
        return None  # someone has nobody left to meet
    top, others = rest[0], rest[1:]
    group = [e for e in others if score[e] == score[top]]
    half = max(0, (len(group) + 1) // 2 - 1)
    preferred = [*group[half:], *reversed(group[:half]), *others[len(group) :]]
    for opponent in preferred:
        if met[frozenset((top, opponent))]:
            continue
        after = _pairs([e for e in others if e != opponent], score, met, budget)
        if after is not None:
            return [(top, opponent), *after]
        if budget[0] < 0:
            return None
    return None


def arena(order: Sequence[int], sides: int, last: dict[int, set[int]]) -> list[Table]:
    """Tables of the entries waiting in an arena, ``order`` by score (best first): each
    opened by the best left, then filled with the nearest in the order that none of the
    table just played, when there is one."""
    left = list(order)
    tables: list[Table] = []
    while len(left) >= sides:
        table = [left.pop(0)]
        while len(table) < sides:
            fresh = [
                i
                for i, e in enumerate(left)
                if not any(e in last.get(s, set()) or s in last.get(e, set()) for s in table)
            ]
            table.append(left.pop(fresh[0] if fresh else 0))
        tables.append(tuple(table))
    return tables


def bracket(count: int, sides: int) -> list[int]:
    """The seeds (1 = the best) in the order the first round seats them, in a bracket of the
    smallest power of ``sides`` that holds ``count`` (at least one table). Seeds above
    ``count`` are empty seats: so the byes go to the top seeds. Each seed *x* of a bracket
    of *s* becomes a table with the seeds that mirror it in each next part, the best seed
    meets the worst and the two best can only meet in the final.
    """
    order, size = [1], 1
    while size < count or size == 1:
        order = [
            x if part == 0 else part * size + ((size + 1 - x) if part % 2 else x)
            for x in order
            for part in range(sides)
        ]
        size *= sides
    return order
