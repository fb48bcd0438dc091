"""A bazar bot against the PyPI ``dominoes`` package's ``probabilistic_alphabeta``, on that
package's own rules: four players in two teams (0+2 against 1+3), all 28 tiles dealt, no
drawing, a hand won by the first team out or, blocked, by the fewer pips.

Each deal is played twice with the teams swapped (duplicate). The bazar side sees only its
``View``: a bazar ``Round`` is kept in step with the ``dominoes`` game (passes included) and
the bot is asked through ``round.view(seat)``. The ``dominoes`` side is the package's own
player, which samples the hands the others could hold from its game object.

    .venv/bin/python benchmarks/dominoes_adapter.py --bot ismcts --deals 50 --samples 20 --jobs 2

prints one JSON line: hands won by the bazar bot (a tie counts half), the Wilson interval
and the time per move of each side.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

import dominoes

import bazar
from bazar import arena, bots
from bazar.core.moves import Move
from bazar.core.tiles import Tile

#: the move from which ``probabilistic_alphabeta`` searches (bota_gorda before it)
START_MOVE = 12

RULES = bazar.rules("block", players=4)  # teams 0+2 / 1+3, seven tiles each, no bazar


def _tile(d: Any) -> Tile:
    return Tile.of(d.first, d.second)


def _to_bazar(rnd: bazar.Round, d: Any, left: bool, game_board: Any) -> Move:
    """The bazar move for ``dominoes`` placing ``d`` on its left (or right) end."""
    tile = _tile(d)
    ends = rnd.ends()
    if not ends:
        return Move.play(tile)
    want = game_board.left_end() if left else game_board.right_end()
    for move in rnd.legal_moves():
        if move.tile == tile and ends.get(move.end or "") == want:
            return move
    raise ValueError(f"no bazar move for {d} on the {'left' if left else 'right'}")


def _to_dominoes(rnd: bazar.Round, move: Move, game: Any) -> tuple[Any, bool]:
    tile = move.tile
    assert tile is not None
    d = next(x for x in game.hands[game.turn] if _tile(x) == tile)
    if not rnd.ends():
        return d, True
    pip = rnd.ends()[move.end or "L"]
    left_ok = pip == game.board.left_end() and tile.has(game.board.left_end())
    return d, left_ok


def play_hand(
    seed: int, ours: tuple[int, int], bot_name: str, samples: int, start_move: int = START_MOVE
) -> tuple[float, list[float], list[float]]:
    """One hand: the bazar bot plays the seats ``ours``; returns its score (1, 0.5, 0) and
    the ms per move of each side."""
    random.seed(seed)
    game = dominoes.Game.new(starting_player=seed % 4)
    hands = [[_tile(d) for d in h] for h in game.hands]
    rnd = bazar.Round(RULES, hands=hands, bazar=[], leader=game.turn)
    ours_bots = {s: bots.make(bot_name, seed=seed * 10 + s) for s in ours}
    search = dominoes.players.probabilistic_alphabeta(start_move=start_move, sample_size=samples)

    def theirs(game: Any) -> None:
        # alphabeta to the end of the hand from the first move takes minutes: the package's
        # own heaviest-first player opens, the search takes over from START_MOVE
        if len(game.moves) < start_move:
            dominoes.players.bota_gorda(game)
        else:
            search(game)

    ms_ours: list[float] = []
    ms_theirs: list[float] = []
    synced = 0
    while game.result is None:
        # bring the bazar round level with the dominoes game (passes are explicit here)
        while synced < len(game.moves):
            entry = game.moves[synced]
            if entry is None:
                rnd.push("pass")
            else:
                raise AssertionError("moves are pushed as they are made")
            synced += 1
        seat = game.turn
        start = time.perf_counter()
        if seat in ours:
            view = rnd.view(seat)
            move = ours_bots[seat].choose(view, view.legal)
            d, left = _to_dominoes(rnd, move, game)
            ms_ours.append((time.perf_counter() - start) * 1000)
        else:
            theirs(game)
            d, left = game.valid_moves[0]
            ms_theirs.append((time.perf_counter() - start) * 1000)
            board_before = game.board
            move = _to_bazar(rnd, d, left, board_before)
        rnd.push(move)
        synced = len(game.moves) + 1  # the passes dominoes adds after it are pushed above
        game.make_move(d, left)
    points = game.result.points
    team = 1 if points > 0 else -1 if points < 0 else 0
    our_team = 1 if 0 in ours else -1
    score = 0.5 if team == 0 else 1.0 if team == our_team else 0.0
    return score, ms_ours, ms_theirs


def play_deal(
    seed: int, bot_name: str, samples: int, start_move: int
) -> list[tuple[float, list[float], list[float]]]:
    """One deal, played twice: the bazar bot on seats 0+2, then on 1+3."""
    return [play_hand(seed, ours, bot_name, samples, start_move) for ours in ((0, 2), (1, 3))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bot", default="ismcts")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument(
        "--samples", type=int, default=20, help="probabilistic_alphabeta's sample_size"
    )
    parser.add_argument(
        "--start-move",
        type=int,
        default=START_MOVE,
        help="the move from which probabilistic_alphabeta searches (bota_gorda before)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args()
    wins = 0.0
    ms_ours: list[float] = []
    ms_theirs: list[float] = []
    hands = 0
    seeds = [args.seed * 100_000 + k for k in range(args.deals)]
    work = (args.bot, args.samples, args.start_move)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(play_deal, seed, *work) for seed in seeds]
        for done, future in enumerate(as_completed(futures), 1):
            for score, a, b in future.result():
                wins += score
                hands += 1
                ms_ours += a
                ms_theirs += b
            print(f"\r{done}/{args.deals} deals, {wins / hands:.1%}", end="", file=sys.stderr)
    print(file=sys.stderr)
    print(
        json.dumps(
            {
                "bot": args.bot,
                "opponent": (
                    f"probabilistic_alphabeta(start_move={args.start_move}, "
                    f"sample_size={args.samples})"
                ),
                "deals": args.deals,
                "hands": hands,
                "win_rate": wins / hands,
                "ci95": list(arena.wilson(wins, hands)),
                "ms_per_move": {
                    "ours_median": statistics.median(ms_ours) if ms_ours else 0.0,
                    "ours_p95": arena.percentile(ms_ours, 95),
                    "theirs_median": statistics.median(ms_theirs) if ms_theirs else 0.0,
                    "theirs_p95": arena.percentile(ms_theirs, 95),
                },
            }
        )
    )


if __name__ == "__main__":
    main()
