"""Environment steps per second for random agents: bazar's PettingZoo env next to
OpenSpiel's own ``python_block_dominoes``, stepped the same way, in the same run.

A *step* is one decision of the agent to move: its observation tensor built, a random legal
action chosen from the mask, the action applied. Both sides build the observation tensor at
every step (OpenSpiel's ``observation_tensor(player)``, bazar's ``env.last()``); OpenSpiel's
deal is chance nodes, sampled and applied as well but not counted as steps (bazar deals in
``reset``, which is timed too).

    python benchmarks/rl.py                      # block (2) and kozel-team (4), 5 s each
    python benchmarks/rl.py --seconds 20 --json

Rows: ``pettingzoo`` (the wrapped AEC env, ``env.last()`` / ``env.step()`` per agent),
``encoding`` (the same decisions straight on a bazar Round through the encoding's
``Observer``, no PettingZoo: what the env costs on top), ``openspiel``
(``python_block_dominoes`` through its state API: ``observation_tensor``,
``legal_actions``, ``apply_action``; the ratios are to this row), ``openspiel
rl_environment`` (the same game through OpenSpiel's RL interface, which builds every
player's tensor at each step), and, when the OpenSpiel adapter is importable,
``bazar_block`` (bazar's block as an OpenSpiel game, stepped like OpenSpiel's own).

CPU time is measured (``time.process_time``) over runs of about a second, the rows taking
turns, and each row's best run is reported (the mean is in the JSON): a change of the
machine's load then falls on every row alike, and disturbs the ratios less.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import bazar
from bazar.rl import pettingzoo as bz
from bazar.rl.encoding import Encoding

GAMES = (("block", 2), ("kozel-team", 4))


def _interleaved(
    loops: list[Callable[[float], tuple[int, int]]], seconds: float
) -> list[dict[str, float]]:
    """Each loop's best rate over runs of about a second, the loops taking turns (one run of
    each, then again): a change of the machine's load then falls on every row alike, and
    the fastest run of a row is the one least disturbed. CPU time."""
    for loop in loops:
        loop(min(0.3, seconds / 4))  # warm the caches
    runs = max(1, round(seconds))
    best = [0.0] * len(loops)
    totals = [[0, 0, 0.0] for _ in loops]
    for k in range(runs):
        print(f"run {k + 1} of {runs} ...", file=sys.stderr)
        for i, loop in enumerate(loops):
            start = time.process_time()
            steps, episodes = loop(seconds / runs)
            spent = time.process_time() - start
            best[i] = max(best[i], steps / spent)
            totals[i][0] += steps
            totals[i][1] += episodes
            totals[i][2] += spent
    return [
        {
            "steps_per_s": rate,
            "episodes_per_s": rate * episodes / steps,
            "mean_steps_per_s": steps / spent,
            "steps": steps,
            "seconds": spent,
        }
        for rate, (steps, episodes, spent) in zip(best, totals, strict=True)
    ]


def pettingzoo_loop(variant: str, players: int) -> Callable[[float], tuple[int, int]]:
    env = bz.env(variant, players=players)
    rng = random.Random(1)

    def loop(seconds: float) -> tuple[int, int]:
        steps = episodes = 0
        seed = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            env.reset(seed=seed)
            seed += 1
            for _agent in env.agent_iter():
                observation, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                legal = np.flatnonzero(observation["action_mask"])
                env.step(int(legal[int(rng.random() * len(legal))]))
                steps += 1
            episodes += 1
        return steps, episodes

    return loop


def encoding_loop(variant: str, players: int) -> Callable[[float], tuple[int, int]]:
    rules = bazar.rules(variant, players=players)
    enc = Encoding.of(rules)
    rng = random.Random(1)

    def loop(seconds: float) -> tuple[int, int]:
        steps = episodes = 0
        seed = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            rnd = bazar.Round(rules, seed=seed)
            seen = enc.observer(rnd)
            seed += 1
            while not rnd.is_over():
                seat = rnd.turn
                assert seat is not None
                seen.observe(seat)
                legal = np.flatnonzero(seen.mask())
                seen.push(int(legal[int(rng.random() * len(legal))]))
                steps += 1
            episodes += 1
        return steps, episodes

    return loop


def openspiel_loop(
    name: str, params: dict[str, Any] | None = None
) -> Callable[[float], tuple[int, int]]:
    import pyspiel

    game = pyspiel.load_game(name, params or {})
    rng = random.Random(1)

    def loop(seconds: float) -> tuple[int, int]:
        steps = episodes = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
                    continue
                player = state.current_player()
                state.observation_tensor(player)
                legal = state.legal_actions(player)
                state.apply_action(legal[int(rng.random() * len(legal))])
                steps += 1
            episodes += 1
        return steps, episodes

    return loop


def openspiel_env_loop(name: str) -> Callable[[float], tuple[int, int]]:
    """OpenSpiel's own RL interface (``rl_environment.Environment``, what its agents are
    trained through): a time step carries every player's observation tensor and legal
    actions; chance nodes are sampled inside it."""
    import pyspiel
    from open_spiel.python import rl_environment

    env = rl_environment.Environment(pyspiel.load_game(name))
    env.seed(1)
    rng = random.Random(1)

    def loop(seconds: float) -> tuple[int, int]:
        steps = episodes = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            step = env.reset()
            while not step.last():
                player = step.observations["current_player"]
                legal = step.observations["legal_actions"][player]
                step = env.step([legal[int(rng.random() * len(legal))]])
                steps += 1
            episodes += 1
        return steps, episodes

    return loop


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per row")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args(argv)

    rows: list[dict[str, Any]] = []
    loops: list[Callable[[float], tuple[int, int]]] = []

    def row(
        library: str, game: str, players: int, loop: Callable[[float], tuple[int, int]]
    ) -> None:
        rows.append({"library": library, "game": game, "players": players})
        loops.append(loop)

    for variant, players in GAMES:
        row("pettingzoo", variant, players, pettingzoo_loop(variant, players))
        row("encoding", variant, players, encoding_loop(variant, players))
    from open_spiel.python.games import block_dominoes  # noqa: F401  (registers it)

    row("openspiel", "python_block_dominoes", 2, openspiel_loop("python_block_dominoes"))
    row(
        "openspiel rl_environment",
        "python_block_dominoes",
        2,
        openspiel_env_loop("python_block_dominoes"),
    )
    try:
        from bazar.rl import openspiel as bos
    except ImportError:
        bos = None
    if bos is not None:
        bos.register()
        row("openspiel", "bazar_block", 2, openspiel_loop("bazar_block"))
    for r, measured in zip(rows, _interleaved(loops, args.seconds), strict=True):
        r.update(measured)
    peer = next(r for r in rows if r["library"] == "openspiel")["steps_per_s"]
    for r in rows:
        r["vs_openspiel"] = r["steps_per_s"] / peer
    if args.json:
        print(json.dumps({"python": platform.python_version(), "rows": rows}, indent=2))
        return 0
    print(
        f"Python {platform.python_version()}, {args.seconds:g} CPU s a row; a step is one "
        "agent's decision with its observation tensor"
    )
    print()
    print("| library | game | players | steps/s | episodes/s | × OpenSpiel's block |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['library']} | {r['game']} | {r['players']} | {r['steps_per_s']:,.0f} | "
            f"{r['episodes_per_s']:,.0f} | {r['vs_openspiel']:.1f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
