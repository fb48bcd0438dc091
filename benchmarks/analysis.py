"""The coach's cost and steadiness: seconds to grade every move of a long 4-player Kozel match,
and how often two analyses from different seeds give a move the same grade.

    PYTHONPATH=. .venv/bin/python benchmarks/analysis.py [--rounds 20] [--jobs 2] [--deals N]

The match is played by the ``heuristic`` bot (``--bot``) from the first seed (from 0 up)
whose match lasts at least ``--rounds`` rounds, so every run grades the same match. Goals
(issue 33): at most 60 s with 2 jobs at the default budget, the same grade on at least 95 %
of the moves.
"""

from __future__ import annotations

import argparse
import sys
import time

import bazar
from bazar import analysis, bots
from bazar.core.play import play


def long_match(
    variant: str, players: int, rounds: int, bot: str = "heuristic"
) -> tuple[bazar.Match, int]:
    """The first match of ``variant`` played by ``bot`` at every seat that lasts ``rounds``
    rounds, and its seed."""
    rules = bazar.rules(variant, players=players)
    for seed in range(10_000):
        match = bazar.Match(rules, seed=seed)
        seats = [bots.make(bot, seed=seed * 10 + i) for i in range(players)]
        play(match, seats)
        if len(match.rounds) >= rounds:
            return match, seed
    raise SystemExit(f"no match of {rounds} rounds in 10,000 seeds")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="kozel")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--deals", type=int, default=analysis.DEALS)
    parser.add_argument("--bot", default="heuristic", help="who plays the match graded")
    parser.add_argument("--seeds", type=int, nargs=2, default=[1, 2])
    args = parser.parse_args(argv)
    match, seed = long_match(args.variant, args.players, args.rounds, args.bot)
    moves = sum(len(r.moves) for r in match.rounds)
    print(
        f"{args.variant} {args.players}p, match seed {seed}: "
        f"{len(match.rounds)} rounds, {moves} moves"
    )
    runs = []
    for analysis_seed in args.seeds:
        start = time.perf_counter()
        report = analysis.analyse(match, deals=args.deals, seed=analysis_seed, jobs=args.jobs)
        took = time.perf_counter() - start
        runs.append(report)
        chosen = [m for m in report.moves if m.grade != "forced"]
        marked = sum(1 for m in chosen if m.symbol)
        print(
            f"seed {analysis_seed}: {took:.1f} s with {args.jobs} jobs at {args.deals} deals; "
            f"{len(chosen)} choices graded, {marked} marked"
        )
    a, b = runs
    pairs = [(x, y) for x, y in zip(a.moves, b.moves, strict=True) if x.grade != "forced"]
    same = sum(1 for x, y in pairs if x.grade == y.grade)
    same_mark = sum(1 for x, y in pairs if x.symbol == y.symbol)
    either = [(x, y) for x, y in pairs if x.symbol or y.symbol]
    both = sum(1 for x, y in either if x.symbol and y.symbol)
    best = sum(1 for x, y in pairs if x.best == y.best)
    spread = [abs(x.loss - y.loss) for x, y in pairs]
    print(
        f"the same grade on {same}/{len(pairs)} choices ({100 * same / len(pairs):.1f} %), "
        f"the same mark on {100 * same_mark / len(pairs):.1f} %, the same best move on "
        f"{100 * best / len(pairs):.1f} %; loss spread: mean {sum(spread) / len(spread):.3f}, "
        f"max {max(spread):.3f}"
    )
    print(f"of the {len(either)} choices either run marked, both marked {both}")
    for seat in range(args.players):
        print(f"seat {seat + 1}: accuracy {a.accuracy(seat):.1f} / {b.accuracy(seat):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
