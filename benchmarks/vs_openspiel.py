"""A bazar bot against OpenSpiel's ``ISMCTSBot`` on OpenSpiel's own game, 2-player Block
(``python_block_dominoes``), at the same time per move.

    PYTHONPATH=. .venv/bin/python benchmarks/vs_openspiel.py --deals 100 --ms 100 --jobs 2
    PYTHONPATH=. .venv/bin/python benchmarks/vs_openspiel.py --deals 10 --json

bazar's bot (``--bot``, ``ismcts@<ms>ms`` unless told) chooses from the seat's
:class:`~bazar.View` of a bazar Round of ``block`` rebuilt from the OpenSpiel state: the same
hands, the 14 undealt tiles as the bazar, seat 0 leading, the moves replayed (a seat
OpenSpiel skips passes in bazar). Its move goes back as OpenSpiel's action.

OpenSpiel's bot (:func:`rl_ismcts._openspiel_bot`: random rollouts, ``uct_c = sqrt(2) *``
the utility range, the most visited move, UCT) searches over states dealt by
:func:`resample`: the opponent's hand drawn uniformly from the tiles the player has not
seen that carry no pip the opponent was skipped on. OpenSpiel's game has no resampler of
its own, and without the skips the opponent's hand would often be one he could not hold.

The time: bazar's budget is wall time, ``--ms`` a move. OpenSpiel's ``max_simulations`` is
calibrated to it under the run's own load: ``--calibrate`` deals a worker, bazar's median
time per searched move first, then OpenSpiel's time per simulation, their ratio the next
count (``--steps`` times). A move with one legal action is searched by neither and not timed.

Duplicate deals: deal ``i`` is played twice, the seats swapped. A hand is won by the seat
ending with more points (a tie counts half). Each row reports bazar's share with a 95 %
Wilson interval over the hands and one over the deals, the median time per searched move
of both bots (:func:`rl_ismcts.summary`). The ceiling row plays bazar's ``omniscient``
(``--ceiling``: it sees both hands, a measuring bot; its playouts counted for ``--ms`` a
move the same way) against the same OpenSpiel bot on the same deals: about what a bot that
has to guess the hidden hand could at best reach. Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import re
import statistics
import sys
import time
from functools import cache, partial
from itertools import combinations_with_replacement
from typing import Any

import pyspiel
from open_spiel.python.games import block_dominoes  # noqa: F401 (registers the game)
from rl_ismcts import Game, _dealt, _openspiel_bot, report, summary

import bazar
from bazar import Tile, bots
from bazar.core.moves import Move

GAME = "python_block_dominoes"
#: tiles a hand is dealt; OpenSpiel deals the first seven to seat 0, the next to seat 1
HAND = 7
#: an OpenSpiel play: its player, the tile, the pip of the end it covers (None: the lead)
Play = tuple[int, Tile, int | None]

_PLAY = re.compile(r"p(\d) tile:\((\d)\.0, (\d)\.0\) pip:(None|\d)(?:\.0)?")
_DEAL = re.compile(r"Deal \((\d)\.0, (\d)\.0\)")
TILES = tuple(Tile.of(a, b) for a, b in combinations_with_replacement(range(7), 2))


@cache
def game() -> pyspiel.Game:
    return pyspiel.load_game(GAME)


@cache
def plays() -> dict[int, Play]:
    """Every play action of the game, read from its own action strings."""
    state = game().new_initial_state()
    table: dict[int, Play] = {}
    for action in range(game().num_distinct_actions()):
        match = _PLAY.fullmatch(state.action_to_string(0, action))
        assert match, state.action_to_string(0, action)
        player, a, b, pip = match.groups()
        table[action] = (int(player), Tile.of(int(a), int(b)), None if pip == "None" else int(pip))
    return table


@cache
def actions() -> dict[Play, int]:
    return {play: action for action, play in plays().items()}


@cache
def chance_actions() -> dict[Tile, int]:
    """The chance action that deals each tile."""
    state = game().new_initial_state()
    table = {}
    for action, _ in state.chance_outcomes():
        match = _DEAL.fullmatch(state.action_to_string(pyspiel.PlayerId.CHANCE, action))
        assert match
        table[Tile.of(int(match[1]), int(match[2]))] = action
    return table


def moves(state: pyspiel.State) -> list[Play]:
    """The plays made so far, in order (public: both players see every play)."""
    return [plays()[a] for a in state.history()[2 * HAND :]]


def hand(state: pyspiel.State, player: int) -> list[Tile]:
    return [Tile.of(int(a), int(b)) for a, b in state.hands[player]]


def _ends(ends: list[int], play: Play) -> list[int]:
    _, tile, pip = play
    if pip is None:
        return [tile.high, tile.low]
    rest = list(ends)
    rest.remove(pip)
    return [*rest, tile.other(pip)]


def skipped_pips(state: pyspiel.State, player: int) -> set[int]:
    """The pips ``player``'s opponent was skipped on. OpenSpiel records no pass: after a
    play the opponent moves if he can, else the same player moves again, so a play followed
    by another of the same player means the opponent held nothing for the open ends."""
    history = moves(state)
    following = [p for p, _, _ in history[1:]]
    if history and not state.is_terminal():
        following.append(state.current_player())
    pips: set[int] = set()
    ends: list[int] = []
    # a finished game's last play has no one after it
    for play, mover in zip(history, following, strict=False):
        ends = _ends(ends, play)
        if play[0] == mover == player:
            pips.update(ends)
    return pips


def unseen(state: pyspiel.State, player: int) -> list[Tile]:
    """The tiles ``player`` has not seen: the opponent's hand and the 14 undealt ones."""
    seen = set(hand(state, player)) | {tile for _, tile, _ in moves(state)}
    return [t for t in TILES if t not in seen]


def consistent(state: pyspiel.State, player: int, tiles: list[Tile]) -> bool:
    """Whether the opponent of ``player`` can hold ``tiles`` as far as ``player`` knows:
    tiles ``player`` has not seen, none with a pip the opponent was skipped on, and one for
    an end if the opponent is to move."""
    pips = skipped_pips(state, player)
    return (
        len(tiles) == len(state.hands[1 - player])
        and set(tiles) <= set(unseen(state, player))
        and not any(t.has(pip) for t in tiles for pip in pips)
        and _can_move(state, 1 - player, tiles)
    )


def _can_move(state: pyspiel.State, seat: int, tiles: list[Tile]) -> bool:
    """Whether ``seat`` holding ``tiles`` may be the seat to move: a seat that could not
    play would have been skipped, so the turn itself says it holds a tile for an end."""
    if state.is_terminal() or state.current_player() != seat or not state.open_edges:
        return True
    return any(t.has(int(pip)) for t in tiles for pip in state.open_edges)


def deal(state: pyspiel.State, player: int, tiles: list[Tile]) -> pyspiel.State | None:
    """A new state: ``player``'s hand, ``tiles`` as the opponent's, the same plays replayed.
    None when the turns fall otherwise in it (the opponent could have played where he was
    skipped, or could not play where he moved). The same board and a tile its mover holds
    make every play legal whenever it is its mover's turn, so only the turns are checked
    (OpenSpiel's search deals a state a simulation: this is its hot path)."""
    history = moves(state)
    dealt = [hand(state, 0), hand(state, 1)]
    dealt[1 - player] = list(tiles)
    for mover, tile, _ in history:
        dealt[mover].append(tile)
    fresh = game().new_initial_state()
    for tile in dealt[0] + dealt[1]:
        fresh.apply_action(chance_actions()[tile])
    for play in history:
        if fresh.is_terminal() or play[0] != fresh.current_player():
            return None
        fresh.apply_action(actions()[play])
    if fresh.is_terminal() != state.is_terminal():
        return None
    if not state.is_terminal() and fresh.current_player() != state.current_player():
        return None
    return fresh


def resample(state: pyspiel.State, player: int, rng: random.Random) -> pyspiel.State:
    """A state ``player`` cannot tell from ``state``, the opponent's hand drawn uniformly
    from the hands he can hold (for ``ISMCTSBot.set_resampler``, which asks for the player
    to move; for the other player the opponent to move must also hold a tile for an end)."""
    pips = skipped_pips(state, player)
    candidates = [t for t in unseen(state, player) if not any(t.has(p) for p in pips)]
    tiles = rng.sample(candidates, len(state.hands[1 - player]))
    while not _can_move(state, 1 - player, tiles):  # rejection keeps the draw uniform
        tiles = rng.sample(candidates, len(tiles))
    resampled = deal(state, player, tiles)
    assert resampled is not None, "a hand avoiding every skipped pip replays the game"
    return resampled


# --- bazar's side --------------------------------------------------------------------


def to_round(state: pyspiel.State) -> bazar.Round:
    """The bazar Round of ``block`` for 2 that ``state`` is: the hands dealt, the undealt
    tiles as the bazar, seat 0 leading, every play replayed and a skipped seat's pass."""
    dealt = [hand(state, 0), hand(state, 1)]
    history = moves(state)
    for mover, tile, _ in history:
        dealt[mover].append(tile)
    rest = [t for t in TILES if t not in set(dealt[0]) | set(dealt[1])]
    rnd = bazar.Round(bazar.rules("block", players=2), hands=dealt, bazar=rest, leader=0)
    for mover, tile, pip in history:
        _pass_until(rnd, mover)
        rnd.push(next(m for m in rnd.legal_moves() if _play(rnd, m) == (mover, tile, pip)))
    if not state.is_terminal():
        _pass_until(rnd, state.current_player())
    return rnd


def _pass_until(rnd: bazar.Round, seat: int) -> None:
    while rnd.turn != seat:
        (move,) = rnd.legal_moves()
        assert move.kind == "pass", f"seat {rnd.turn} can play, OpenSpiel skipped it"
        rnd.push(move)


def _play(rnd: bazar.Round, move: Move) -> Play:
    assert rnd.turn is not None and move.tile is not None
    return rnd.turn, move.tile, None if move.end is None else rnd.ends()[move.end]


def action(rnd: bazar.Round, move: Move) -> int:
    """OpenSpiel's action for bazar's ``move`` in ``rnd``."""
    return actions()[_play(rnd, move)]


def choose(bot: bots.Bot, state: pyspiel.State) -> tuple[int, float]:
    """``bot``'s action in ``state`` and the milliseconds it thought (the mapping aside)."""
    rnd = to_round(state)
    start = time.perf_counter()
    if bot.sees_all:
        move: Move = bot.choose_round(rnd.copy())  # type: ignore[attr-defined]
    else:
        view = rnd.view(rnd.turn)
        move = bot.choose(view, view.legal)
    ms = (time.perf_counter() - start) * 1000
    return action(rnd, move), ms


# --- the match -------------------------------------------------------------------------


def play(deal_: int, bazar_seat: int, bot: str, simulations: int) -> Game:
    """Deal ``deal_`` played to its end, bazar's ``bot`` at ``bazar_seat``."""
    state = _dealt(game(), deal_)
    mine = bots.make(bot, seed=deal_ * 2 + bazar_seat)
    theirs = _openspiel_bot(game(), simulations, seed=deal_ * 2 + 1 - bazar_seat)
    theirs.set_resampler(partial(resample, rng=random.Random(deal_ * 2 + 1 - bazar_seat)))
    bazar_ms: list[float] = []
    openspiel_ms: list[float] = []
    while not state.is_terminal():
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
            continue
        if state.current_player() == bazar_seat:
            chosen, ms = choose(mine, state)
            bazar_ms.append(ms)
        else:
            start = time.perf_counter()
            chosen = int(theirs.step(state))
            openspiel_ms.append((time.perf_counter() - start) * 1000)
        state.apply_action(chosen)
    return Game(deal_, bazar_seat, state.returns()[bazar_seat], bazar_ms, openspiel_ms)


def _task(args: tuple[int, int, str, int]) -> Game:
    return play(*args)


def calibrated(pool: Any, args: argparse.Namespace, bot: str) -> int:
    """OpenSpiel's simulations a move for the median time of bazar's ``bot``."""
    simulations: int = args.probe
    for step in range(args.steps):
        tasks = [
            (10**6 + step * 1000 + i, seat, bot, simulations)
            for i in range(args.calibrate * args.jobs)
            for seat in (0, 1)
        ]
        games = list(pool.imap_unordered(_task, tasks))
        target = statistics.median(ms for g in games for ms in g.bazar_ms)
        simulation = statistics.median(ms for g in games for ms in g.openspiel_ms) / simulations
        print(
            f"calibration {step + 1}: {bot} {target:.1f} ms a move, "
            f"OpenSpiel {simulation:.3f} ms a simulation at {simulations}",
            file=sys.stderr,
        )
        simulations = max(1, round(target / simulation))
    print(f"calibrated: {simulations} simulations", file=sys.stderr)
    return simulations


def ceiling(pool: Any, args: argparse.Namespace) -> str:
    """The ceiling row's bot: ``--ceiling`` as given when it names a budget, else with the
    playouts that take it a median of ``--ms`` a searched move (``omniscient`` counts
    playouts and has no clock), timed against OpenSpiel at two simulations (its fewest)."""
    if "@" in args.ceiling:
        return str(args.ceiling)
    playouts = 96
    for step in range(args.steps):
        tasks = [
            (2 * 10**6 + step * 1000 + i, seat, f"{args.ceiling}@{playouts}", 2)
            for i in range(args.calibrate * args.jobs)
            for seat in (0, 1)
        ]
        games = list(pool.imap_unordered(_task, tasks))
        median = statistics.median(ms for g in games for ms in g.bazar_ms)
        print(
            f"ceiling calibration {step + 1}: {args.ceiling}@{playouts} {median:.1f} ms a move",
            file=sys.stderr,
        )
        playouts = max(1, round(playouts * args.ms / median))
    print(f"ceiling: {args.ceiling}@{playouts}", file=sys.stderr)
    return f"{args.ceiling}@{playouts}"


def row(
    pool: Any, deals: int, bot: str, simulations: int, record: str | None = None
) -> dict[str, Any]:
    """``bot`` against OpenSpiel's bot at ``simulations`` over ``deals`` duplicate deals."""
    began = time.perf_counter()
    tasks = [(deal_, seat, bot, simulations) for deal_ in range(deals) for seat in (0, 1)]
    games: list[Game] = []
    for result in pool.imap_unordered(_task, tasks):
        games.append(result)
        if len(games) % 20 == 0:
            won = sum(1.0 if g.value > 0 else 0.5 if g.value == 0 else 0.0 for g in games)
            print(
                f"{bot}: {len(games)}/{len(tasks)} hands, bazar {won / len(games):.3f}, "
                f"{time.perf_counter() - began:.0f} s",
                file=sys.stderr,
            )
    games.sort(key=lambda g: (g.deal, g.bazar_seat))
    if record:
        with open(record, "a", encoding="utf-8") as out:
            for g in games:
                print(
                    json.dumps(
                        {
                            "bot": bot,
                            "deal": g.deal,
                            "seat": g.bazar_seat,
                            "value": g.value,
                            "simulations": simulations,
                        }
                    ),
                    file=out,
                )
    result = summary(games, simulations, bot, time.perf_counter() - began)
    return {**result, "game": GAME, "bazar": bot}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--deals", type=int, default=100, help="deals, each played twice with the seats swapped"
    )
    parser.add_argument("--ms", type=float, default=100.0, help="bazar's time a move")
    parser.add_argument("--bot", help="bazar's bot (ismcts@<ms>ms unless told)")
    parser.add_argument("--ceiling", default="omniscient", help="the ceiling row's bot, or ''")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--calibrate", type=int, default=4, help="deals a worker times")
    parser.add_argument("--probe", type=int, default=100, help="simulations first timed")
    parser.add_argument("--steps", type=int, default=3, help="calibration steps")
    parser.add_argument(
        "--simulations",
        type=int,
        default=0,
        help="OpenSpiel's simulations a move, given: no calibration",
    )
    parser.add_argument("--record", help="append each hand (deal, seat, value) as JSON lines")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args(argv)
    bot = args.bot or f"ismcts@{args.ms:g}ms"
    context = multiprocessing.get_context("spawn")
    with context.Pool(args.jobs) as pool:
        simulations = args.simulations or calibrated(pool, args, bot)
        rows = [row(pool, args.deals, bot, simulations, args.record)]
        if args.ceiling:
            rows.append(row(pool, args.deals, ceiling(pool, args), simulations))
    if args.json:
        print(json.dumps({"rows": rows}, indent=2))
    else:
        print("\n".join(report(r) for r in rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
