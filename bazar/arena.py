"""The arena: many matches between bots on duplicate deals, and what they show.

>>> import bazar
>>> from bazar import arena
>>> report = arena.run(bazar.rules("block"), ["greedy", "random"], games=4, seed=1)
>>> report.games, [r.bot for r in report.results], [r.games for r in report.results]
(4, ['greedy', 'random'], [4, 4])

Seats are dealt out by rotation: the games of one cycle replay the same match seed (the same
deals, round by round) with the entries moved one place along the table, so every entry sits
in every place equally often. In a team game an entry plays both seats of its side when
there are no more entries than sides. A win shared by several sides counts as a fraction.

The statistics are plain functions:

>>> [round(x, 4) for x in wilson(8, 10)]
[0.4902, 0.9433]
>>> percentile([1.0, 2.0, 3.0, 4.0], 50), percentile([1.0, 2.0, 3.0, 4.0], 95)
(2.5, 3.85)
"""

from __future__ import annotations

import logging
import math
import multiprocessing
import os
import socket
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from . import bots
from .core.errors import invalid
from .core.match import Match
from .core.moves import Move
from .core.play import play
from .core.round import deal_seed
from .core.rules import Rules
from .core.rules import rules as make_rules
from .core.view import View

__all__ = [
    "BotResult",
    "GameResult",
    "Report",
    "cycle_length",
    "entries",
    "lineup",
    "percentile",
    "play_game",
    "ray_cluster",
    "run",
    "summarize",
    "units",
    "wilson",
]

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054

#: Seconds a Ray cluster's address is given to answer before the arena gives up on it.
RAY_ANSWER_S = 5.0


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate of ``wins`` out of ``n`` (``(0, 1)`` for none).

    >>> wilson(0, 0), wilson(5, 5)[1]
    ((0.0, 1.0), 1.0)
    """
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    z2 = z * z
    scale = 1 + z2 / n
    center = (p + z2 / (2 * n)) / scale
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / scale
    return (max(0.0, center - half), min(1.0, center + half))


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0–100) by linear interpolation between the sorted values
    (NumPy's default); 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    low = math.floor(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def entries(names: Sequence[str]) -> list[str]:
    """The entries of a bot list: a name given again is entered as ``name#2``, ``name#3``...

    >>> entries(["random", "greedy", "random"])
    ['random', 'greedy', 'random#2']
    """
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return out


def units(rules: Rules, count: int) -> list[tuple[int, ...]]:
    """The places entries take: the sides of a team game (an entry plays both seats) when
    ``count`` entries fit them, else the seats one by one.

    >>> units(make_rules("block", players=4), 2), units(make_rules("block", players=3), 2)
    ([(0, 2), (1, 3)], [(0,), (1,), (2,)])
    """
    if rules.teams and count <= len(rules.teams):
        return [tuple(side) for side in rules.teams]
    return [(seat,) for seat in range(rules.players)]


def lineup(count: int, places: int, game: int) -> list[int]:
    """The entry in each place in game number ``game``: a cycle of ``max(count, places)``
    games moves every entry one place along each game.

    >>> [lineup(2, 2, g) for g in range(2)], [lineup(2, 3, g) for g in range(3)]
    ([[0, 1], [1, 0]], [[0, 1, 0], [1, 0, 0], [0, 0, 1]])
    """
    cycle = max(count, places)
    shift = game % cycle
    return [((place + shift) % cycle) % count for place in range(places)]


def cycle_length(count: int, places: int) -> int:
    """How many games one duplicate deal is replayed for."""
    return max(count, places)


@dataclass(frozen=True)
class GameResult:
    """One match: who sat where, what each place scored, the time each entry took per move."""

    game: int
    lineup: tuple[int, ...]
    wins: tuple[float, ...]
    margins: tuple[float, ...]
    ms: dict[int, list[float]]
    rounds: int


class _Timed:
    """A bot at the arena's table: its moves are timed, into ``ms``."""

    def __init__(self, bot: bots.Bot, ms: list[float], match: Match) -> None:
        self.bot, self.ms, self.match = bot, ms, match

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        start = time.perf_counter()
        if self.bot.sees_all:  # measurement only: the omniscient bot is given the round
            # a bot that sees_all has choose_round, which the Bot base does not declare
            move: Move = self.bot.choose_round(self.match.round.copy())  # type: ignore[attr-defined]
        else:
            move = self.bot.choose(view, legal)
        self.ms.append((time.perf_counter() - start) * 1000)
        return move


def play_game(rules: Rules, names: Sequence[str], game: int, seed: int = 0) -> GameResult:
    """Play game number ``game`` of an arena of the bots ``names`` (one entry each)."""
    places = units(rules, len(names))
    order = lineup(len(names), len(places), game)
    deal = game // cycle_length(len(names), len(places))
    match = Match(rules, seed=deal_seed(f"arena:{seed}", deal))
    players = {
        entry: bots.make(names[entry], seed=deal_seed(f"arena:{seed}:{game}", entry))
        for entry in set(order)
    }
    at_seat = {seat: order[i] for i, place in enumerate(places) for seat in place}
    ms: dict[int, list[float]] = {entry: [] for entry in players}
    timed = {entry: _Timed(player, ms[entry], match) for entry, player in players.items()}
    result = play(match, [timed[at_seat[seat]] for seat in range(rules.players)])
    for player in players.values():
        close = getattr(player, "close", None)
        if close is not None:
            close()
    scores = match.ledger.scores
    winning = {rules.side_of(s) for s in result.winners}
    sign = rules.better_sign
    wins, margins = [], []
    for seats in places:
        side = rules.side_of(seats[0])
        wins.append(1 / len(winning) if side in winning else 0.0)
        others = [s for i, s in enumerate(scores) if i != side]
        margins.append(sign * (scores[side] - sum(others) / len(others)))
    return GameResult(game, tuple(order), tuple(wins), tuple(margins), ms, len(match.rounds))


def _play_chunk(
    name: str, options: dict[str, Any], names: list[str], games: list[int], seed: int
) -> list[GameResult]:
    opts = dict(options)
    players = opts.pop("players")
    rules = make_rules(name, players=players, **opts)
    return [play_game(rules, names, game, seed) for game in games]


@dataclass(frozen=True)
class BotResult:
    """One entry's record in an arena."""

    bot: str
    level: str
    games: int
    wins: float
    win_rate: float
    ci95: tuple[float, float]
    margin: float
    moves: int
    ms_median: float
    ms_p95: float
    #: the matches it played (as many as ``games`` unless it took several places at once)
    matches: int = 0
    #: the share of those matches it won (with several places: won by any of them)
    match_win_rate: float = 0.0
    match_ci95: tuple[float, float] = (0.0, 1.0)

    def to_json(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "level": self.level,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "ci95": list(self.ci95),
            "matches": self.matches,
            "match_win_rate": self.match_win_rate,
            "match_ci95": list(self.match_ci95),
            "margin": self.margin,
            "moves": self.moves,
            "ms_per_move": {"median": self.ms_median, "p95": self.ms_p95},
        }


@dataclass(frozen=True)
class Report:
    """What an arena found: one :class:`BotResult` per entry, in the order entered."""

    variant: str
    players: int
    games: int
    seed: int
    results: tuple[BotResult, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "results": [r.to_json() for r in self.results],
        }


def summarize(
    rules: Rules, names: Sequence[str], results: Sequence[GameResult], seed: int = 0
) -> Report:
    """The report of the games played: per entry its games (places taken), win rate with a
    Wilson interval, mean margin over the average opponent side and time per move. Where
    an entry takes several places of one match (two bots at a four-seat table without
    teams), ``win_rate`` is per place (even odds: one in the number of places) and
    ``match_win_rate`` the share of matches any of its places won (even odds with two
    entries: one half)."""
    labels = entries(names)
    out = []
    for entry, label in enumerate(labels):
        wins = 0.0
        matches = 0
        match_wins = 0.0
        margins: list[float] = []
        ms: list[float] = []
        for game in results:
            took = [place for place, who in enumerate(game.lineup) if who == entry]
            for place in took:
                wins += game.wins[place]
                margins.append(game.margins[place])
            if took:
                matches += 1
                match_wins += sum(game.wins[place] for place in took)
            ms.extend(game.ms.get(entry, ()))
        n = len(margins)
        out.append(
            BotResult(
                bot=label,
                level=names[entry],
                games=n,
                wins=wins,
                win_rate=wins / n if n else 0.0,
                ci95=wilson(wins, n),
                margin=sum(margins) / n if n else 0.0,
                moves=len(ms),
                ms_median=percentile(ms, 50),
                ms_p95=percentile(ms, 95),
                matches=matches,
                match_win_rate=match_wins / matches if matches else 0.0,
                match_ci95=wilson(match_wins, matches),
            )
        )
    return Report(rules.name, rules.players, len(results), seed, tuple(out))


@contextmanager
def ray_cluster(address: str) -> Iterator[None]:
    """This process joined to the Ray cluster at ``address`` for the ``with`` block, so that
    every :func:`run` given a ``ray`` address inside it plays there without joining again:
    ``auto`` (the cluster ``ray start --head`` started on this machine, or ``RAY_ADDRESS``),
    ``host:6379`` (a cluster's head), ``ray://host:10001`` (its Ray Client server), or
    ``local`` (a private cluster of this machine's cores, stopped at the end). A process
    that has joined a cluster already (``ray.init``) stays on it, whatever the address.

    Every node runs the arena's games with its own bazar, so each needs this version of
    ``bazar[ray]`` installed (and the programs of any ``cmd:`` bot)."""
    try:
        import ray
    except ImportError:
        raise invalid("ray_extra", address=address) from None
    if ray.is_initialized():
        yield
        return
    _answers(address)
    quiet: dict[str, Any] = {"logging_level": logging.WARNING, "log_to_driver": False}
    if address == "local":
        quiet["include_dashboard"] = False
    try:
        ray.init(address=address, **quiet)
    except Exception as error:  # Ray fails in many ways: each is said as one reason
        reason = str(error).strip().splitlines()[0] if str(error).strip() else ""
        raise invalid(
            "ray_unreachable", address=address, reason=reason or type(error).__name__
        ) from error
    try:
        yield
    finally:
        ray.shutdown()


def _answers(address: str) -> None:
    """Refuse, within :data:`RAY_ANSWER_S`, an address where nothing listens: ``ray.init``
    would wait for it for ever."""
    named = os.environ.get("RAY_ADDRESS", "") if address == "auto" else address
    host, _, port = named.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        return  # 'local', or 'auto' finding the clusters of this machine: Ray answers at once
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=RAY_ANSWER_S):
            pass
    except OSError as error:
        reason = error.strerror or str(error) or type(error).__name__
        raise invalid("ray_unreachable", address=address, reason=reason) from None


def _chunks(games: int, workers: int) -> list[list[int]]:
    """The game numbers in chunks of at most 64 games, about eight or more for each worker."""
    size = max(1, min(64, games // (workers * 8)))
    return [list(range(i, min(i + size, games))) for i in range(0, games, size)]


def _on_pool(
    rules: Rules, names: list[str], games: int, seed: int, jobs: int
) -> Iterator[list[GameResult]]:
    """The games played by ``jobs`` worker processes, a chunk at a time as each finishes."""
    options = rules.options()
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = [
            pool.submit(_play_chunk, rules.name, options, names, chunk, seed)
            for chunk in _chunks(games, jobs)
        ]
        for future in as_completed(futures):
            yield future.result()


def _on_ray(rules: Rules, names: list[str], games: int, seed: int) -> Iterator[list[GameResult]]:
    """The games played as tasks of the Ray cluster this process has joined, a chunk at a
    time as each finishes."""
    import ray

    options = rules.options()
    task = ray.remote(_play_chunk)
    cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call]  # ray: untyped
    workers = max(1, int(cpus))
    pending = [
        task.remote(rules.name, options, names, chunk, seed) for chunk in _chunks(games, workers)
    ]
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        yield ray.get(ready[0])


def _gather(
    chunks: Iterable[list[GameResult]], progress: Callable[[int], None] | None
) -> list[GameResult]:
    """The games of ``chunks`` in the order they were numbered, ``progress`` told of each
    chunk as it comes."""
    done: list[GameResult] = []
    for finished in chunks:
        done.extend(finished)
        if progress is not None:
            progress(len(finished))
    done.sort(key=lambda g: g.game)
    return done


def run(
    rules: Rules,
    names: Sequence[str],
    games: int,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    ray: str | None = None,
) -> Report:
    """Play ``games`` matches between the bots ``names`` and summarise them. ``jobs`` > 1
    spreads the games over worker processes, ``ray`` (an address, as :func:`ray_cluster`
    takes it) over the cores of a Ray cluster instead; the games and their results are the
    same either way. ``progress(n)`` hears of each ``n`` finished."""
    names = [n.strip() if n.strip().startswith("cmd:") else n.strip().lower() for n in names]
    if not names:
        raise ValueError("an arena needs at least one bot")
    for name in names:
        if not name.startswith("cmd:"):
            bots.make(name)
    if games < 1:
        raise ValueError(f"an arena plays at least one game, not {games}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    if ray is not None:
        with ray_cluster(ray):
            done = _gather(_on_ray(rules, names, games, seed), progress)
    elif jobs > 1:
        done = _gather(_on_pool(rules, names, games, seed, jobs), progress)
    else:
        done = _gather(([play_game(rules, names, game, seed)] for game in range(games)), progress)
    return summarize(rules, names, done, seed)
