"""Bot tournaments played out: every pairing a bazar match between bots, round after round.

>>> from bazar.tournament import Tournament
>>> from bazar.tournament.play import run
>>> t = Tournament("block", format="swiss", rounds=2, seed=1)
>>> for level in ("greedy", "random", "heuristic", "random"):
...     _ = t.add(level, bot=level)
>>> t = run(t)
>>> t.over, sum(s.points for s in t.standings())
(True, 4.0)

Each game is the one seat loop (:func:`bazar.core.play.play`) with each entry's bot on its
side's seats, the match seeded from the tournament's seed, the round and the board, and each
bot from the same and its side: a game is the same wherever it is played, so the games of a
round may run on worker processes or on a Ray cluster and the tournament comes out the same.

The arena runs on a virtual clock, not the wall's: a game lasts its number of moves times
``move_s`` seconds, the clock jumps from one game's end to the next, and whoever finishes is
paired again at once, until the duration is up. A game paired before then is played to its
end and counts. So one seed gives one arena on any machine, however fast.
"""

from __future__ import annotations

import heapq
import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bazar import bots
from bazar.arena import ray_cluster
from bazar.core import record
from bazar.core.match import Match
from bazar.core.play import play
from bazar.core.round import deal_seed
from bazar.core.rules import rules as make_rules

from . import FILLER_BOT, Pairing, Tournament, places

__all__ = ["MOVE_S", "Game", "Played", "game_of", "play_game", "record_name", "run"]

#: virtual seconds one move takes in an arena
MOVE_S = 2.0


@dataclass(frozen=True)
class Game:
    """One pairing's match as a worker is given it: plain data, the same on every machine.
    ``bots`` are the players (the entries' bots, then any fillers), ``seats`` the player at
    each seat."""

    game: str
    options: dict[str, Any]
    seed: int
    bots: tuple[str, ...]
    seats: tuple[int, ...]
    sides: int


@dataclass(frozen=True)
class Played:
    """A finished game: each side's place, the match's record and its number of moves."""

    places: tuple[int, ...]
    record: str
    moves: int


def game_of(t: Tournament, pairing: Pairing) -> Game:
    """The match of ``pairing``: seeded by the tournament's seed, the round and the board;
    side *i*'s entry at the seats of side *i*, a filling bot where no entry is."""
    rules = t.rules
    names = [_bot(t, entry) for entry in pairing.entries]
    names += [FILLER_BOT] * (t.sides - len(names))
    return Game(
        game=rules.name,
        options=rules.options(),
        # a record holds a seed below 2**63, as the club's database does
        seed=deal_seed(f"tournament:{t.seed}:{pairing.round}", pairing.board) % 2**63,
        bots=tuple(names),
        seats=tuple(rules.side_of(seat) for seat in range(rules.players)),
        sides=t.sides,
    )


def _bot(t: Tournament, entry: int) -> str:
    level = t.entries[entry].bot
    if level is None:
        raise ValueError(f"entry {t.entries[entry].name!r} has no bot to play it")
    return level


def play_game(game: Game) -> Played:
    """Play ``game`` through the seat loop; each bot seeded by the match seed and its side."""
    options = dict(game.options)
    rules = make_rules(game.game, players=options.pop("players"), **options)
    match = Match(rules, seed=game.seed)
    players = [bots.make(name, seed=deal_seed(game.seed, n)) for n, name in enumerate(game.bots)]
    try:
        play(match, [players[side] for side in game.seats])
    finally:
        for player in players:
            close = getattr(player, "close", None)
            if close is not None:
                close()
    moves = sum(len(rnd.moves) for rnd in match.rounds)
    return Played(places(match, game.sides), record.dumps(match), moves)


def record_name(pairing: Pairing) -> str:
    """The file a game's record is written to: ``r03-b02.json``, round 3 board 2."""
    return f"r{pairing.round:02d}-b{pairing.board:02d}.json"


class _Players:
    """Where the games are played: here, on worker processes, or on a Ray cluster. Games are
    handed over a batch at a time and come back in the batch's order."""

    def __init__(self, stack: ExitStack, jobs: int, ray: str | None) -> None:
        self.ray = ray
        self.pool: Executor | None = None
        if ray is not None:
            stack.enter_context(ray_cluster(ray))
        elif jobs > 1:
            context = multiprocessing.get_context("spawn")
            self.pool = stack.enter_context(ProcessPoolExecutor(jobs, mp_context=context))

    def play(self, games: Sequence[Game]) -> Iterator[Played]:
        if self.ray is not None:
            import ray

            task = ray.remote(play_game)
            yield from ray.get([task.remote(game) for game in games])
        elif self.pool is not None:
            futures: list[Future[Played]] = [self.pool.submit(play_game, g) for g in games]
            for future in futures:
                yield future.result()
        else:
            yield from map(play_game, games)


class _Runner:
    """One tournament being played: its players, records and progress."""

    def __init__(
        self,
        t: Tournament,
        players: _Players,
        progress: Callable[[int, int], None] | None,
        records: Path | None,
    ) -> None:
        self.t, self.players, self.progress, self.records = t, players, progress, records
        self.done = 0
        self.total = 0

    def paired(self, pairings: Sequence[Pairing]) -> list[Pairing]:
        """The pairings that are games (not byes), counted into the total."""
        games = [p for p in pairings if not p.bye]
        self.total += len(games)
        return games

    def report(self, pairing: Pairing, played: Played, now: float | None = None) -> None:
        name = None
        if self.records is not None:
            name = record_name(pairing)
            (self.records / name).write_text(played.record, encoding="utf-8")
        self.t.report(pairing, played.places, table=name, record=played.record, now=now)
        self.done += 1
        if self.progress is not None:
            self.progress(self.done, self.total)

    def unfinished(self) -> list[Pairing]:
        """The games paired before the runner came (a tournament resumed), still to play."""
        return self.paired([p for p in self.t.pairings if not p.done])

    def play(self, games: Sequence[Pairing]) -> Iterator[tuple[Pairing, Played]]:
        batch = [game_of(self.t, p) for p in games]
        return zip(games, self.players.play(batch), strict=True)

    def rounds(self) -> None:
        """Round-robin, Swiss, knock-out: each round paired, played, reported, the next."""
        games = self.unfinished()
        while games or not self.t.over:
            for pairing, played in self.play(games or self.paired(self.t.pair())):
                self.report(pairing, played)
            games = []

    def arena(self, move_s: float) -> None:
        """The arena on its virtual clock: the earliest game to end is reported, and whoever
        waits is paired again at that moment."""
        t = self.t
        assert t.started_at is not None
        now = max([t.started_at, *(p.finished for p in t.pairings if p.finished is not None)])
        ending: list[tuple[float, int, Pairing, Played]] = []
        games = [*self.unfinished(), *self.paired(t.pair_arena(now))]
        order = 0
        while True:
            for pairing, played in self.play(games):
                start = now if pairing.started is None else pairing.started
                order += 1  # games ending at one moment are reported in the order paired
                heapq.heappush(ending, (start + played.moves * move_s, order, pairing, played))
            if not ending:
                return
            now = ending[0][0]
            while ending and ending[0][0] == now:
                _, _, pairing, played = heapq.heappop(ending)
                self.report(pairing, played, now=now)
            games = self.paired(t.pair_arena(now))


def run(
    t: Tournament,
    *,
    jobs: int = 1,
    ray: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    records: Path | None = None,
    move_s: float = MOVE_S,
) -> Tournament:
    """Play every game of ``t``, a tournament of bots, to its end, and return it.

    ``jobs`` > 1 plays the games of a round on that many worker processes, ``ray`` (an
    address, as :func:`bazar.arena.ray_cluster` takes it) on a Ray cluster's cores: the
    tournament is the same either way. ``progress(done, total)`` hears of each finished game
    (``total``: the games paired so far). ``records``: a folder that every game's record is
    written to, named by :func:`record_name`. ``move_s``: an arena's virtual seconds a move.
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    for entry in t.entries:
        if entry.withdrawn:
            continue
        level = _bot(t, entry.id)
        if not level.startswith("cmd:"):
            bots.make(level)  # an unknown level refused before any game, not in a worker
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    with ExitStack() as stack:
        runner = _Runner(t, _Players(stack, jobs, ray), progress, records)
        if not t.started:
            t.start(now=0.0)  # an arena's virtual clock
        if t.format == "arena":
            runner.arena(move_s)
        else:
            runner.rounds()
    return t
