"""The bot ladder's strength table: each level against the one below it, on duplicate deals,
in the games issue 7 names (2-player Block, 4-player team Kozel, 2-player All Fives, 4-player
Mexican Train).

    .venv/bin/python benchmarks/strength.py --deals 1000 --jobs 2
    .venv/bin/python benchmarks/strength.py --only block:pimc --deals 200
    .venv/bin/python benchmarks/strength.py --deals 1000 --ray auto   # on a Ray cluster

Each pair plays ``--deals`` duplicate deals: a deal is one match seed, replayed with the
entries moved round the table (two games at a two-seat table, four at Mexican Train's four
seats), so ``--deals 1000`` is 2,000 or 4,000 matches. Every result is written to
``benchmarks/bot_strength/<game>_<pair>.json`` (the ``bazar arena --json`` shape) and a line
with the time taken is appended to ``benchmarks/bot_strength/runs.txt``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from contextlib import nullcontext
from pathlib import Path

import bazar
from bazar import arena

OUT = Path(__file__).parent / "bot_strength"

#: (game label, variant, players)
GAMES = [
    ("block", "block", 2),
    ("kt", "kozel-team", 4),
    ("fives", "fives", 2),
    ("mt", "mexican-train", 4),
]

#: (pair label, the stronger level, the one below it)
PAIRS = [
    ("gr", "greedy", "random"),
    ("hg", "heuristic", "greedy"),
    ("ph", "pimc", "heuristic"),
    ("ip", "ismcts", "pimc"),
]


class _Progress:
    """Prints ``name: done/total`` on one line of stderr as the games finish."""

    def __init__(self, name: str, total: int) -> None:
        self.name, self.total, self.done = name, total, 0

    def __call__(self, count: int) -> None:
        self.done += count
        print(f"\r{self.name}: {self.done}/{self.total}", end="", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="play on the Ray cluster at ADDRESS (auto, host:6379, ray://host:10001, local)",
    )
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        help="GAME or GAME:LEVEL (block, kt, fives, mt; the stronger level of a pair)",
    )
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    # one connection to the cluster for the whole ladder, not one per pair
    with arena.ray_cluster(args.ray) if args.ray else nullcontext():
        _ladder(args)


def _ladder(args: argparse.Namespace) -> None:
    spread = f"ray={args.ray}" if args.ray else f"jobs={args.jobs}"
    for label, variant, players in GAMES:
        rules = bazar.rules(variant, players=players)
        for pair, strong, weak in PAIRS:
            if args.only and not any(want in (label, f"{label}:{strong}") for want in args.only):
                continue
            names = [strong, weak]
            places = len(arena.units(rules, len(names)))
            games = args.deals * arena.cycle_length(len(names), places)
            progress = _Progress(f"{label}_{pair}", games)

            start = time.perf_counter()
            report = arena.run(
                rules, names, games, seed=args.seed, jobs=args.jobs, progress=progress, ray=args.ray
            )
            took = time.perf_counter() - start
            print(file=sys.stderr)
            name = f"{label}_{pair}"
            (OUT / f"{name}.json").write_text(json.dumps(report.to_json(), indent=1) + "\n")
            with (OUT / "runs.txt").open("a") as log:
                log.write(
                    f"{name} {variant} p={players} deals={args.deals} games={games} "
                    f"bots={strong},{weak} seed={args.seed} {spread} took {took:.0f}s\n"
                )
            top = report.results[0]
            rate, (low, high) = top.match_win_rate, top.match_ci95
            print(
                f"{name}: {strong} won {rate:.1%} ({low:.1%}-{high:.1%}) of the matches "
                f"against {weak}; {strong} {top.ms_median:.1f} ms/move median, "
                f"{top.ms_p95:.1f} p95; {took:.0f} s",
                flush=True,
            )


if __name__ == "__main__":
    main()
