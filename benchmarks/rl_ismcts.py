"""bazar's ``ismcts`` against OpenSpiel's ``ISMCTSBot`` on bazar's own games, 2-player Block
(``bazar_block``) unless ``--game`` names another, at the same time per move.

    .venv/bin/python benchmarks/rl_ismcts.py --deals 500 --jobs 2 --ms 100
    .venv/bin/python benchmarks/rl_ismcts.py --game kozel-team --players 4 --deals 100
    .venv/bin/python benchmarks/rl_ismcts.py --deals 20 --json
    .venv/bin/python benchmarks/rl_ismcts.py --deals 20 --budget 100ms --simulations 100

OpenSpiel's bot searches the same OpenSpiel state the game is played on: it resamples the
hidden tiles with :meth:`bazar.rl.openspiel.BazarState.resample_from_infostate` (bazar's
sampler), values leaves with a random rollout (``RandomRolloutEvaluator``) and explores with
``uct_c = sqrt(2) * (max_utility - min_utility)``. bazar's bot chooses from the seat's
:class:`~bazar.View` of the round inside the state.

The same time per move, ``--ms`` milliseconds: both bots search a fixed count, bazar
``ismcts@<playouts>`` and OpenSpiel ``max_simulations``, so that a change in the machine's
load (it is shared) slows both alike; a wall-time budget for one side and a count for the
other drifted apart as the load changed. The counts are calibrated first, under the
run's own load: both bots play ``--calibrate`` deals in every worker, the median time of a
searched move divided by the count gives the time of one playout or simulation, and the
target over it the next count (``--steps`` times: a simulation's time changes with their
number). ``--budget`` and ``--simulations`` skip the calibration. A move with one legal
action is searched by neither bot and not timed.

Duplicate deals: deal ``i`` (its chance actions drawn from seed ``i``) is played twice, the
bots' seats swapped. bazar plays the seats of one parity (seat 0 or 1 of two, a side of a
team game, seats 0 and 2 or 1 and 3 of a game of four for all), OpenSpiel the others. A game
is won by the bot whose seats end with the higher mean return (a tie counts half). Printed:
bazar's win rate with a 95 % Wilson interval over the games and a 95 % interval over the
deals (each deal's mean of its two games), the median time per searched move of each bot,
the simulations OpenSpiel used. Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import bazar
from bazar.arena import wilson
from bazar.rl import openspiel as bos

GAME = "bazar_block"


@dataclass
class Game:
    """One game of a deal: bazar's seat, its return, the timed moves of both bots."""

    deal: int
    bazar_seat: int
    value: float
    bazar_ms: list[float]
    openspiel_ms: list[float]


def _game(name: str = GAME, players: int = 0) -> pyspiel.Game:
    bos.register()
    return pyspiel.load_game(name, {"players": players} if players else {})


def _dealt(game: pyspiel.Game, deal: int) -> pyspiel.State:
    """The state after the chance actions of deal ``deal``."""
    rng = random.Random(deal)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
    return state


def _openspiel_bot(game: pyspiel.Game, simulations: int, seed: int) -> ismcts.ISMCTSBot:
    rs = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    uct_c = math.sqrt(2) * (game.max_utility() - game.min_utility())
    return ismcts.ISMCTSBot(
        game,
        evaluator,
        uct_c,
        max_simulations=simulations,
        random_state=rs,
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    )


def play(
    deal: int, bazar_seat: int, budget: str, simulations: int, name: str = GAME, players: int = 0
) -> Game:
    """Deal ``deal`` played to its end, bazar's ``ismcts@budget`` at the seats of the parity of
    ``bazar_seat`` (seat 0 or 1 of two; a side of a team game; every other seat of a game of
    four), OpenSpiel's bot at the others. The value: the mean return of bazar's seats less
    the mean of the others'."""
    game = _game(name, players)
    encoding = game.encoding
    state = _dealt(game, deal)
    mine = bazar.bots.make(f"ismcts@{budget}", seed=deal * 2 + bazar_seat)
    theirs = _openspiel_bot(game, simulations, seed=deal * 2 + 1 - bazar_seat)
    bazar_ms: list[float] = []
    openspiel_ms: list[float] = []
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
            continue
        start = time.perf_counter()
        if seat % 2 == bazar_seat:
            view = state.view(seat)
            move = mine.choose(view, view.legal)
            action = encoding.action(move, state.round)
            bazar_ms.append((time.perf_counter() - start) * 1000)
        else:
            action = int(theirs.step(state))
            openspiel_ms.append((time.perf_counter() - start) * 1000)
        state.apply_action(action)
    returns = state.returns()
    ours = [r for seat, r in enumerate(returns) if seat % 2 == bazar_seat]
    others = [r for seat, r in enumerate(returns) if seat % 2 != bazar_seat]
    value = statistics.fmean(ours) - statistics.fmean(others)
    return Game(deal, bazar_seat, value, bazar_ms, openspiel_ms)


def calibrate(
    deal: int, budget: str, simulations: int, name: str = GAME, players: int = 0
) -> tuple[list[float], list[float]]:
    """Both bots' times per searched move over one deal played both ways."""
    bazar_ms: list[float] = []
    openspiel_ms: list[float] = []
    for seat in (0, 1):
        result = play(deal, seat, budget, simulations, name, players)
        bazar_ms += result.bazar_ms
        openspiel_ms += result.openspiel_ms
    return bazar_ms, openspiel_ms


def _task(args: tuple[str, int, int, str, int, str, int]) -> Any:
    kind, deal, seat, budget, count, name, players = args
    if kind == "calibrate":
        return calibrate(deal, budget, count, name, players)
    return play(deal, seat, budget, count, name, players)


def summary(
    games: list[Game], simulations: int, budget: str, seconds: float, name: str = GAME
) -> dict[str, Any]:
    def score(value: float) -> float:
        return 1.0 if value > 0 else 0.5 if value == 0 else 0.0

    scores = [score(g.value) for g in games]
    wins = sum(scores)
    n = len(games)
    low, high = wilson(wins, n)
    by_deal: dict[int, list[float]] = {}
    for g, s in zip(games, scores, strict=True):
        by_deal.setdefault(g.deal, []).append(s)
    means = [statistics.fmean(v) for v in by_deal.values()]
    mean = statistics.fmean(means)
    half = 1.96 * statistics.stdev(means) / math.sqrt(len(means)) if len(means) > 1 else 0.0
    bazar_ms = [ms for g in games for ms in g.bazar_ms]
    openspiel_ms = [ms for g in games for ms in g.openspiel_ms]
    return {
        "game": name,
        "deals": len(by_deal),
        "games": n,
        "bazar": f"ismcts@{budget}",
        "openspiel": f"ISMCTSBot({simulations} simulations, random rollouts)",
        "openspiel_simulations": simulations,
        "bazar_win_rate": wins / n,
        "wilson95": [low, high],
        "deal95": [mean - half, mean + half],
        "bazar_points_per_game": statistics.fmean(g.value for g in games),
        "bazar_median_ms": statistics.median(bazar_ms),
        "openspiel_median_ms": statistics.median(openspiel_ms),
        "searched_moves": {"bazar": len(bazar_ms), "openspiel": len(openspiel_ms)},
        "seconds": round(seconds, 1),
    }


def calibrated(pool: Any, args: argparse.Namespace) -> tuple[int, int]:
    """bazar's playouts and OpenSpiel's simulations a move for a median of ``--ms`` each."""
    playouts, simulations = args.probe_playouts, args.probe
    for step in range(args.steps):
        tasks = [
            ("calibrate", 10**6 + step * 1000 + i, 0, str(playouts), simulations, *args.table)
            for i in range(args.calibrate * args.jobs)
        ]
        bazar_ms: list[float] = []
        openspiel_ms: list[float] = []
        for mine, theirs in pool.imap_unordered(_task, tasks):
            bazar_ms += mine
            openspiel_ms += theirs
        playout = statistics.median(bazar_ms) / playouts
        simulation = statistics.median(openspiel_ms) / simulations
        print(
            f"calibration {step + 1}: bazar {playout:.3f} ms a playout at {playouts}, "
            f"OpenSpiel {simulation:.3f} ms a simulation at {simulations}",
            file=sys.stderr,
        )
        playouts = max(1, round(args.ms / playout))
        simulations = max(1, round(args.ms / simulation))
    print(f"calibrated: ismcts@{playouts}, {simulations} simulations", file=sys.stderr)
    return playouts, simulations


def report(result: dict[str, Any]) -> str:
    """The result in words (what the script prints without ``--json``)."""
    low, high = result["wilson95"]
    dlow, dhigh = result["deal95"]
    moves = result["searched_moves"]
    return "\n".join(
        [
            f"{result['game']}: {result['bazar']} against OpenSpiel's {result['openspiel']}",
            f"  {result['deals']} duplicate deals, {result['games']} games",
            f"  bazar wins {result['bazar_win_rate']:.3f} of the hands "
            f"(95 % Wilson {low:.3f}-{high:.3f}; over deals {dlow:.3f}-{dhigh:.3f})",
            f"  bazar's points a game: {result['bazar_points_per_game']:+.2f}",
            f"  median time a searched move: bazar {result['bazar_median_ms']:.1f} ms, "
            f"OpenSpiel {result['openspiel_median_ms']:.1f} ms "
            f"({moves['bazar']} and {moves['openspiel']} moves)",
            f"  {result['seconds']:.0f} s",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument(
        "--game", default="block", help="bazar's variant (its OpenSpiel game bazar_<variant>)"
    )
    parser.add_argument("--players", type=int, default=0, help="players (0: the game's own)")
    parser.add_argument("--ms", type=float, default=100.0, help="the time a move, calibrated")
    parser.add_argument("--budget", help="bazar's ismcts budget, not calibrated")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--calibrate", type=int, default=4, help="deals a worker times")
    parser.add_argument("--probe", type=int, default=60, help="simulations first timed")
    parser.add_argument("--probe-playouts", type=int, default=200, help="playouts first timed")
    parser.add_argument("--steps", type=int, default=3, help="calibration steps")
    parser.add_argument("--simulations", type=int, default=0, help="skip the calibration")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    args.table = (bos.game_name(args.game), args.players)
    began = time.perf_counter()
    context = multiprocessing.get_context("spawn")
    with context.Pool(args.jobs) as pool:
        budget, simulations = args.budget, args.simulations
        if not (budget and simulations):
            playouts, calibrated_sims = calibrated(pool, args)
            budget = budget or str(playouts)
            simulations = simulations or calibrated_sims
        tasks = [
            ("play", deal, seat, budget, simulations, *args.table)
            for deal in range(args.deals)
            for seat in (0, 1)
        ]
        games: list[Game] = []
        for result in pool.imap_unordered(_task, tasks):
            games.append(result)
            if len(games) % 20 == 0:
                rate = sum(1.0 if g.value > 0 else 0.5 if g.value == 0 else 0.0 for g in games)
                print(
                    f"{len(games)}/{len(tasks)} games, bazar {rate / len(games):.3f}, "
                    f"{time.perf_counter() - began:.0f} s",
                    file=sys.stderr,
                )
    games.sort(key=lambda g: (g.deal, g.bazar_seat))
    result = summary(games, simulations, budget, time.perf_counter() - began, args.table[0])
    print(json.dumps(result, indent=2) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
