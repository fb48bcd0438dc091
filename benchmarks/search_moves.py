"""The moves the searching bots choose in fixed, seeded positions: a check that a change to
the search that should not change its play (a refactor) chooses exactly the same moves.

    PYTHONPATH=. .venv/bin/python benchmarks/search_moves.py > before.json
    PYTHONPATH=. .venv/bin/python benchmarks/search_moves.py --check before.json

Each position is a match of one variant played from its seed by a seeded ``random`` bot for
a seeded number of moves, stopped at the first later position where the seat to move has
more than one legal move. Every bot is asked from a fresh :class:`~bazar.View` of the
position (so no bot meets a view another bot saw), by counts alone, never a time budget:
``ismcts@200`` and ``ismcts-blind@200`` (iterations), ``pimc@64`` (playouts), ``heuristic``
(which samples deals in Mexican Train), ``omniscient`` given the round
(``choose_round``) and ``omniscient`` given the view (``choose``). The output is one JSON
object: per position its variant, seed and the move of every bot.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

import bazar
from bazar import bots
from bazar.core.moves import Move
from bazar.core.view import View

#: the variants the bots play, of every family
VARIANTS = (
    "block",
    "draw",
    "fives",
    "kozel",
    "kozel-team",
    "osel",
    "mexican-train",
    "chicken-foot",
    "kolbasa",
    "poker",
    "texas-42",
    "bergen",
)
#: positions per variant
PER_VARIANT = 6
BOTS = ("ismcts@200", "ismcts-blind@200", "pimc@64", "heuristic")


class _Reached(Exception):
    """The walk reached its position: the match stops there, the move not yet made."""


class _Walker(bots.Bot):
    """A seeded ``random`` bot for every seat that stops the match (:class:`_Reached`) when
    asked, after ``steps`` moves, for a move with a choice."""

    def __init__(self, seed: int, steps: int) -> None:
        super().__init__(seed)
        self.random = bots.make("random", seed=seed)
        self.steps = steps
        self.asked = 0

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        if self.asked >= self.steps and len(legal) > 1:
            raise _Reached
        self.asked += 1
        return self.random.choose(view, legal)


def position(variant: str, seed: int) -> bazar.Match | None:
    """The match of ``variant`` from ``seed``, played on by a random bot to a position with
    a choice (None if the match ends first)."""
    match = bazar.Match(bazar.rules(variant), seed=seed)
    walker = _Walker(seed, random.Random(seed).randrange(0, 10))
    try:
        bazar.play(match, [walker] * match.rules.players)
    except _Reached:
        return match
    return None


def fresh_view(match: bazar.Match) -> View:
    """A new view of the seat to move (not the one the match caches)."""
    turn = match.turn
    assert turn is not None
    return View.of(match.round, turn, scores=match.ledger.public())


def moves(match: bazar.Match, seed: int) -> dict[str, str]:
    """Every bot's move in ``match``'s position."""
    legal = match.legal_moves()
    out: dict[str, str] = {}
    for spec in BOTS:
        bot = bots.make(spec, seed=seed)
        out[spec] = str(bot.choose(fresh_view(match), legal))
    seer = bots.make("omniscient", seed=seed)
    out["omniscient-round"] = str(seer.choose_round(match.round.copy()))  # type: ignore[attr-defined]
    seer = bots.make("omniscient", seed=seed)
    try:
        out["omniscient-view"] = str(seer.choose(fresh_view(match), legal))
    except AttributeError as exc:  # before issue 32 it borrowed pimc's choose, not its margin
        out["omniscient-view"] = f"error: {exc}"
    return out


def run() -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for variant in VARIANTS:
        seed = 0
        found = 0
        while found < PER_VARIANT:
            seed += 1
            match = position(variant, seed)
            if match is None:
                continue
            found += 1
            start = time.perf_counter()
            row = {"variant": variant, "seed": seed, "moves": moves(match, seed)}
            print(f"{variant} {seed}: {time.perf_counter() - start:.1f}s", file=sys.stderr)
            rows.append(row)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", metavar="JSON", help="compare with a saved run")
    args = parser.parse_args()
    rows = run()
    if not args.check:
        json.dump(rows, sys.stdout, indent=1)
        print()
        return 0
    with open(args.check, encoding="utf-8") as f:
        saved = json.load(f)
    compared = same = crashed = 0
    for old, new in zip(saved, rows, strict=True):
        assert (old["variant"], old["seed"]) == (new["variant"], new["seed"])
        for spec, move in old["moves"].items():
            if move.startswith("error:"):  # a move the saved run could not choose
                crashed += 1
                continue
            compared += 1
            if new["moves"][spec] == move:
                same += 1
            else:
                print(f"{old['variant']} {old['seed']} {spec}: {move} -> {new['moves'][spec]}")
    print(
        f"{len(rows)} positions, {compared} moves compared, {same} the same"
        f" ({crashed} moves the saved run failed to choose left out)"
    )
    return 0 if same == compared else 1


if __name__ == "__main__":
    sys.exit(main())
