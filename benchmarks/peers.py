"""Time bazar's random-play loop against its peers on the same block game.

    python benchmarks/peers.py [--seconds S]

Every engine plays random legal moves from a fresh deal until the round is over,
as many games as fit in S seconds (default 3):

* bazar: exactly the loop of ``bazar bench`` (API.md), ``bazar.core.play.playout``:
  ``Round(rules, seed=i)``, then ``push(random.choice(legal_moves()))`` until
  ``is_over()``; moves include passes. Block for 2 players (14 tiles dead) and for 4
  (teams, all 28 dealt).
* OpenSpiel's ``python_block_dominoes`` (2 players): the deal is 14 chance nodes,
  each sampled from ``chance_outcomes()``; then random legal actions until
  terminal. It has no pass action (it skips a stuck player), so its moves are plays.
* the PyPI ``dominoes`` package (4 players, teams, all dealt): ``Game.new`` with
  6-6 forced, as bazar's first round, then ``make_move(*random.choice(valid_moves))``
  until ``result``. Its moves are ``len(game.moves)``: plays and the passes it
  records, the same count as bazar's for the same game.

The ratios compare games/s with OpenSpiel (its moves carry no passes) and moves/s
with dominoes. A peer that is not installed is skipped with a message.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

try:
    import bazar
except ImportError:  # not installed: use the checkout this script lives in
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import bazar
from bazar.core.play import playout

#: One game from index i; returns the number of moves made.
Game = Callable[[int], int]


@dataclass(frozen=True)
class Timing:
    engine: str
    game: str
    players: int
    games: int
    moves: int
    seconds: float

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def moves_per_s(self) -> float:
        return self.moves / self.seconds


def measure(engine: str, game: str, players: int, play: Game, seconds: float) -> Timing:
    random.seed(0)
    play(0)  # warm up imports and caches outside the clock
    games = moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        moves += play(games)
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            return Timing(engine, game, players, games, moves, now - start)


def bazar_game(players: int) -> Game:
    rules = bazar.rules("block", players=players)
    choice = random.choice

    def play(i: int) -> int:
        return playout(bazar.Round(rules, seed=i), choice)

    return play


def openspiel_game() -> Game | None:
    try:
        import pyspiel
        from open_spiel.python.games import block_dominoes  # noqa: F401  (registers it)
    except ImportError:
        return None
    game = pyspiel.load_game("python_block_dominoes")
    choice, choices = random.choice, random.choices

    def play(i: int) -> int:
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(choices(actions, probabilities)[0])
            else:
                state.apply_action(choice(state.legal_actions()))
                moves += 1
        return moves

    return play


def dominoes_game() -> Game | None:
    try:
        import dominoes
    except ImportError:
        return None
    double_six = dominoes.Domino(6, 6)
    choice = random.choice

    def play(i: int) -> int:
        game = dominoes.Game.new(starting_domino=double_six)
        while game.result is None:
            game.make_move(*choice(game.valid_moves))
        return len(game.moves)

    return play


def ratio(ours: Timing | None, theirs: Timing | None, per: str) -> str | None:
    if ours is None or theirs is None:
        return None
    if per == "games":
        value = ours.games_per_s / theirs.games_per_s
    else:
        value = ours.moves_per_s / theirs.moves_per_s
    return f"bazar / {theirs.engine}, {theirs.players} players, {per}/s: {value:.2f}x"


def report(timings: list[Timing], ratios: list[str]) -> None:
    headers = ("engine", "game", "players", "games", "games/s", "moves/s", "moves/game")
    rows = [
        (
            t.engine,
            t.game,
            str(t.players),
            f"{t.games:,}",
            f"{t.games_per_s:,.0f}",
            f"{t.moves_per_s:,.0f}",
            f"{t.moves / t.games:.1f}",
        )
        for t in timings
    ]
    try:
        from rich import box
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        widths = [max(len(str(c)) for c in column) for column in zip(headers, *rows, strict=True)]
        for i, row in enumerate((headers, *rows)):
            cells = [
                cell.ljust(width) if j < 2 else cell.rjust(width)
                for j, (cell, width) in enumerate(zip(row, widths, strict=True))
            ]
            print("  ".join(cells))
            if i == 0:
                print("  ".join("-" * w for w in widths))
        for line in ratios:
            print(line)
        return
    table = Table(box=box.SIMPLE_HEAD)
    for j, header in enumerate(headers):
        table.add_column(header, justify="left" if j < 2 else "right", no_wrap=True)
    for row in rows:
        table.add_row(*row)
    console = Console()
    if not console.is_terminal:  # a pipe or a file: no need to squeeze into 80 columns
        console = Console(width=120)
    console.print(table)
    for line in ratios:
        console.print(line)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--seconds", type=float, default=3.0, help="time per measurement (default 3)"
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")

    print(f"Python {sys.version.split()[0]}, {args.seconds:g} s per measurement", flush=True)
    two = measure("bazar", "block", 2, bazar_game(2), args.seconds)
    four = measure("bazar", "block, teams", 4, bazar_game(4), args.seconds)
    timings = [two, four]

    openspiel = None
    play = openspiel_game()
    if play is None:
        print(
            "open_spiel is not installed: skipping python_block_dominoes (pip install open_spiel)"
        )
    else:
        openspiel = measure("open_spiel", "python_block_dominoes", 2, play, args.seconds)
        timings.insert(1, openspiel)

    package = None
    play = dominoes_game()
    if play is None:
        print("dominoes is not installed: skipping the dominoes package (pip install dominoes)")
    else:
        package = measure("dominoes", "Game, 6-6 leads", 4, play, args.seconds)
        timings.append(package)

    ratios = [
        line
        for line in (ratio(two, openspiel, "games"), ratio(four, package, "moves"))
        if line is not None
    ]
    report(timings, ratios)
    return 0


if __name__ == "__main__":
    sys.exit(main())
