"""Block against its peers, deal by deal.

A peer deals, bazar gets the same deal, and the two play one random game in
lockstep. At every turn the legal plays must agree, compared as sets of
``(tile, pip of the end it covers)`` with the lead as ``(tile, None)``: the peers
offer a tile once when both ends show its pip, bazar offers ``L`` and ``R``. A
peer moves on past a stuck player by itself; bazar records that player's lone
``pass``. At the end both must agree on who went out or that the round is a
fish, and on what is left in every hand (DESIGN.md, "Comparing with the peers").
Scoring differs and is compared only where the spec states the difference
(classic-draw-block.md §8 item 9, §9 example 11).

The peers are OpenSpiel's ``python_block_dominoes`` (2 players, 7 each, 14 dead)
and ``python_team_dominoes`` (4 players, partners 0+2 and 1+3), where seat 0
leads any tile, and the PyPI ``dominoes`` package (4 players, partners), whose
``Game.new(starting_domino=6-6)`` is our forced 6-6 lead and whose
``Game.new(starting_player=s)`` is our ``leader=s``.
"""

from __future__ import annotations

import importlib
import random
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from typing import Any

import pytest

import bazar
from bazar import Tile

Play = tuple[Tile, int | None]
Chooser = Callable[[bazar.Round], Any]

BLOCK_GAMES = 3000
TEAM_GAMES = 1000
DOMINOES_GAMES = 1000


def peer(name: str, package: str) -> Any:
    """The peer module ``name``: a cross-check that cannot run is a failure, not a skip
    (``make test`` installs the peers with the dev extra)."""
    try:
        return importlib.import_module(name)
    except ImportError:
        pytest.fail(f"{package} is not installed: pip install -e '.[dev]' (make test does)")


@pytest.fixture(scope="module")
def pyspiel() -> Any:
    module = peer("pyspiel", "open_spiel")
    # Importing a Python game registers it with pyspiel.
    peer("open_spiel.python.games.block_dominoes", "open_spiel")
    peer("open_spiel.python.games.team_dominoes", "open_spiel")
    return module


@pytest.fixture(scope="module")
def dominoes() -> Any:
    return peer("dominoes", "the PyPI dominoes package")


# --- the bazar side -----------------------------------------------------------


class Trace:
    """The deal and the moves so far, to make a failure reproducible by hand."""

    def __init__(self, peer: str, hands: Sequence[Sequence[Tile]], leader: int | None) -> None:
        self.peer = peer
        self.hands = [[str(t) for t in hand] for hand in hands]
        self.leader = leader
        self.moves: list[str] = []

    def __str__(self) -> str:
        return (
            f"\n  peer: {self.peer}\n  hands: {self.hands}\n  leader: {self.leader}"
            f"\n  moves: {' '.join(self.moves)}"
        )


def bazar_plays(rnd: bazar.Round, trace: Trace) -> set[Play]:
    legal = rnd.legal_moves()
    assert legal and all(m.kind == "play" for m in legal), f"bazar offers {legal}{trace}"
    ends = rnd.ends()
    return {(m.tile, None if m.end is None else ends[m.end]) for m in legal}


def push(rnd: bazar.Round, move: Any, trace: Trace) -> None:
    rnd.push(move)
    trace.moves.append(str(move))


def push_pass(rnd: bazar.Round, trace: Trace) -> None:
    """The peer skipped the seat to move: in bazar that seat's only move is ``pass``."""
    legal = rnd.legal_moves()
    assert [m.kind for m in legal] == ["pass"], (
        f"the peer skips seat {rnd.turn}, bazar offers {[str(m) for m in legal]}{trace}"
    )
    push(rnd, legal[0], trace)


def pass_until(rnd: bazar.Round, seat: int, trace: Trace) -> None:
    while rnd.turn != seat:
        assert not rnd.is_over(), f"bazar is over, the peer has seat {seat} to move{trace}"
        push_pass(rnd, trace)


def check_plays(rnd: bazar.Round, peer: set[Play], trace: Trace) -> None:
    ours = bazar_plays(rnd, trace)
    assert ours == peer, (
        f"legal plays of seat {rnd.turn} differ, ends {rnd.ends()}"
        f"\n  bazar only: {sorted(_show(ours - peer))}\n  peer only: {sorted(_show(peer - ours))}"
        f"{trace}"
    )


def check_ends(rnd: bazar.Round, peer: Sequence[int], trace: Trace) -> None:
    assert sorted(rnd.ends().values()) == sorted(peer), f"ends {rnd.ends()} vs {peer}{trace}"


def check_end(
    rnd: bazar.Round, out_seat: int | None, fisher: int, hands: list[list[Tile]], trace: Trace
) -> None:
    assert rnd.is_over(), f"the peer's game is over, bazar's is not{trace}"
    outcome = rnd.outcome()
    if out_seat is not None:
        assert (outcome.reason, outcome.out_seat) == ("out", out_seat), f"{outcome}{trace}"
    else:
        assert (outcome.reason, outcome.fisher) == ("fish", fisher), f"{outcome}{trace}"
    assert [sorted(h) for h in rnd.hands] == [sorted(h) for h in hands], trace


def random_chooser(rng: random.Random) -> Chooser:
    return lambda rnd: rng.choice(rnd.legal_moves())


def scripted_chooser(moves: str) -> Chooser:
    """Plays ``moves`` (bazar notation) in order; the passes come by themselves."""
    plays = iter(m for m in moves.split() if m != "pass")

    def choose(rnd: bazar.Round) -> Any:
        text = next(plays)
        return next(m for m in rnd.legal_moves() if str(m) == text)

    return choose


def chosen_play(rnd: bazar.Round, choose: Chooser) -> tuple[Any, Play]:
    ends = rnd.ends()
    move = choose(rnd)
    return move, (move.tile, None if move.end is None else ends[move.end])


def _show(plays: set[Play]) -> list[str]:
    return [f"{t}@{'lead' if pip is None else pip}" for t, pip in plays]


# --- OpenSpiel ------------------------------------------------------------------
# Tiles are tuples of floats, low half first: (2.0, 6.0). An action is one id per
# (player, tile, edge), edge being the pip of the end it covers, None for the lead;
# its string is "p1 tile:(2.0, 6.0) pip:6.0". Chance actions deal the tiles: block
# gives the first 7 to seat 0 and the next 7 to seat 1, team deals round-robin from
# seat 0. Seat 0 then leads any tile. After a play the next seat that can play is
# to move; the game ends when a hand is empty or nobody can play.

_OPENSPIEL_ACTION = re.compile(r"p(\d+) tile:\((\d)\.0, (\d)\.0\) pip:(None|\d\.0)")


@cache
def openspiel_play(text: str) -> Play:
    match = _OPENSPIEL_ACTION.fullmatch(text)
    assert match, text
    _, a, b, pip = match.groups()
    return Tile.of(int(a), int(b)), None if pip == "None" else int(float(pip))


def openspiel_tile(pair: Sequence[float]) -> Tile:
    return Tile.of(int(pair[0]), int(pair[1]))


def openspiel_hands(state: Any) -> list[list[Tile]]:
    return [[openspiel_tile(pair) for pair in hand] for hand in state.hands]


def openspiel_plays(state: Any) -> dict[Play, int]:
    player = state.current_player()
    return {openspiel_play(state.action_to_string(player, a)): a for a in state.legal_actions()}


def openspiel_random_deal(game: Any, rng: random.Random) -> Any:
    state = game.new_initial_state()
    while state.is_chance_node():
        actions, probabilities = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(actions, probabilities)[0])
    return state


def openspiel_deal(pyspiel: Any, game: Any, order: Sequence[Tile]) -> Any:
    """Deal ``order`` tile by tile (the chance outcomes' strings are "Deal (2.0, 6.0)")."""
    state = game.new_initial_state()
    for tile in order:
        wanted = f"Deal ({float(tile.low)}, {float(tile.high)})"
        state.apply_action(
            next(
                a
                for a, _ in state.chance_outcomes()
                if state.action_to_string(pyspiel.PlayerId.CHANCE, a) == wanted
            )
        )
    assert not state.is_chance_node()
    return state


def openspiel_lockstep(state: Any, rules: bazar.Rules, choose: Chooser) -> bazar.Round:
    hands = openspiel_hands(state)
    dealt = {t for hand in hands for t in hand}
    leader = state.current_player()
    rnd = bazar.Round(
        rules,
        hands=hands,
        bazar=[t for t in bazar.tile_set(6) if t not in dealt],
        leader=leader,
    )
    trace = Trace(f"open_spiel {state.get_game().get_type().short_name}", hands, leader)
    while not state.is_terminal():
        pass_until(rnd, state.current_player(), trace)
        peer = openspiel_plays(state)
        check_plays(rnd, set(peer), trace)
        move, play = chosen_play(rnd, choose)
        state.apply_action(peer[play])
        push(rnd, move, trace)
        check_ends(rnd, [int(pip) for pip in state.open_edges], trace)
    final = openspiel_hands(state)
    out = [seat for seat, hand in enumerate(final) if not hand]
    check_end(rnd, out[0] if out else None, state.actions_history[-1].player, final, trace)
    return rnd


def test_block_dominoes_agrees_over_random_deals(pyspiel: Any) -> None:
    game = pyspiel.load_game("python_block_dominoes")
    rules = bazar.rules("block", players=2)
    reasons = {"out": 0, "fish": 0}
    for seed in range(BLOCK_GAMES):
        rng = random.Random(seed)
        rnd = openspiel_lockstep(openspiel_random_deal(game, rng), rules, random_chooser(rng))
        reasons[rnd.outcome().reason] += 1
    assert reasons["out"] and reasons["fish"], reasons


def test_team_dominoes_agrees_over_random_deals(pyspiel: Any) -> None:
    game = pyspiel.load_game("python_team_dominoes")
    rules = bazar.rules("block", players=4)
    reasons = {"out": 0, "fish": 0}
    for seed in range(TEAM_GAMES):
        rng = random.Random(10_000 + seed)
        rnd = openspiel_lockstep(openspiel_random_deal(game, rng), rules, random_chooser(rng))
        reasons[rnd.outcome().reason] += 1
    assert reasons["out"] and reasons["fish"], reasons


# --- the PyPI dominoes package ----------------------------------------------------
# Dominoes are Domino(first, second), deals come from random.shuffle, and a move is
# (domino, left): True for the left end, False for the right. valid_moves offers
# (d, True) when the left end's pip is on d and (d, False) when the right end's is,
# the latter only when the two ends differ; the lead is (d, True). make_move moves
# on to the next seat that can play and records each skipped seat as None in
# game.moves, except when nobody can play: then the game is over (result.won False,
# result.player the one who blocked it). result.won True: result.player went out.


@contextmanager
def seeded_global_random(seed: int) -> Iterator[None]:
    """The package shuffles with the global generator: seed it, then put it back."""
    saved = random.getstate()
    random.seed(seed)
    try:
        yield
    finally:
        random.setstate(saved)


def dominoes_tile(d: Any) -> Tile:
    return Tile.of(d.first, d.second)


def dominoes_ends(game: Any) -> list[int]:
    return [game.board.left_end(), game.board.right_end()] if game.board else []


def dominoes_plays(game: Any) -> dict[Play, tuple[Any, bool]]:
    if not game.board:
        return {(dominoes_tile(d), None): (d, left) for d, left in game.valid_moves}
    left_end, right_end = game.board.left_end(), game.board.right_end()
    return {
        (dominoes_tile(d), left_end if left else right_end): (d, left)
        for d, left in game.valid_moves
    }


def dominoes_lockstep(
    game: Any, hands: list[list[Tile]], forced: bool, choose: Chooser
) -> bazar.Round:
    """``game`` as dealt; with ``forced`` it has made the 6-6 lead already."""
    rules = bazar.rules("block", players=4)
    leader = None if forced else game.starting_player
    rnd = bazar.Round(rules, hands=hands, bazar=[], leader=leader)
    trace = Trace("dominoes", hands, leader)
    assert rnd.turn == game.starting_player, f"bazar's leader is {rnd.turn}{trace}"
    seen = 0
    if forced:
        check_plays(rnd, {(Tile.of(6, 6), None)}, trace)
        push(rnd, rnd.legal_moves()[0], trace)
        seen = 1
    while True:
        for entry in game.moves[seen:]:
            assert entry is None, entry
            push_pass(rnd, trace)
        seen = len(game.moves)
        check_ends(rnd, dominoes_ends(game), trace)
        if game.result is not None:
            break
        assert rnd.turn == game.turn, (
            f"bazar has seat {rnd.turn} to move, the peer {game.turn}{trace}"
        )
        peer = dominoes_plays(game)
        check_plays(rnd, set(peer), trace)
        move, play = chosen_play(rnd, choose)
        game.make_move(*peer[play])
        push(rnd, move, trace)
        seen += 1
    final = [[dominoes_tile(d) for d in hand] for hand in game.hands]
    result = game.result
    check_end(rnd, result.player if result.won else None, result.player, final, trace)
    return rnd


def test_dominoes_package_agrees_over_random_deals(dominoes: Any) -> None:
    double_six = dominoes.Domino(6, 6)
    reasons = {"out": 0, "fish": 0}
    for seed in range(DOMINOES_GAMES):
        # Even seeds: its first game of a series, 6-6 forced (our leader=None).
        # Odd seeds: a given seat leads any tile (our leader=seat).
        forced = seed % 2 == 0
        with seeded_global_random(20_000 + seed):
            if forced:
                game = dominoes.Game.new(starting_domino=double_six)
            else:
                game = dominoes.Game.new(starting_player=seed // 2 % 4)
        hands = [[dominoes_tile(d) for d in hand] for hand in game.hands]
        if forced:
            hands[game.starting_player].append(Tile.of(6, 6))
        rng = random.Random(seed)
        rnd = dominoes_lockstep(game, hands, forced, random_chooser(rng))
        reasons[rnd.outcome().reason] += 1
    assert reasons["out"] and reasons["fish"], reasons


# --- classic-draw-block.md §9 example 11 in all three -------------------------------

EXAMPLE_11_HANDS = [
    "6-6 4-3 0-0 1-0 1-1 3-1 5-5",
    "6-5 6-0 2-1 2-0 3-0 4-4 5-4",
    "6-3 6-4 6-1 2-2 4-0 4-1 3-3",
    "5-0 6-2 3-2 4-2 5-2 5-1 5-3",
]
EXAMPLE_11_MOVES = "6-6 6-5:L 6-3:R 5-0:L 4-3:R 6-0:L 6-4:R 6-2:L pass 2-1:L 6-1:L"
EXAMPLE_11_REMAINING = [
    "0-0 1-0 1-1 3-1 5-5",
    "2-0 3-0 4-4 5-4",
    "2-2 4-0 4-1 3-3",
    "3-2 4-2 5-2 5-1 5-3",
]


def _tiles(text: str) -> list[Tile]:
    return [Tile.parse(t) for t in text.split()]


def _check_example_11(rnd: bazar.Round) -> None:
    assert [str(m) for m in rnd.moves] == EXAMPLE_11_MOVES.split()
    outcome = rnd.outcome()
    assert (outcome.reason, outcome.fisher) == ("fish", 2)
    assert [sorted(h) for h in rnd.hands] == [sorted(_tiles(h)) for h in EXAMPLE_11_REMAINING]


def test_example_11_team_dominoes_blocks_alike_and_scores_54(pyspiel: Any) -> None:
    hands = [_tiles(h) for h in EXAMPLE_11_HANDS]
    order = [hands[i % 4][i // 4] for i in range(28)]  # round-robin from seat 0
    state = openspiel_deal(pyspiel, pyspiel.load_game("python_team_dominoes"), order)
    assert [sorted(h) for h in openspiel_hands(state)] == [sorted(h) for h in hands]
    rnd = openspiel_lockstep(
        state, bazar.rules("block", players=4), scripted_chooser(EXAMPLE_11_MOVES)
    )
    _check_example_11(rnd)
    assert state.returns() == [54, -54, 54, -54]


def test_example_11_dominoes_package_blocks_alike_and_scores_90(dominoes: Any) -> None:
    hands = [_tiles(h) for h in EXAMPLE_11_HANDS]
    double_six = dominoes.Domino(6, 6)
    peer_hands = [dominoes.Hand(dominoes.Domino(t.high, t.low) for t in h) for h in hands]
    # What Game.new(starting_domino=6-6) does, with this deal instead of a shuffled one.
    game = dominoes.Game(dominoes.Board(), peer_hands, [], 0, ((double_six, True),), 0, None)
    game.make_move(double_six, True)
    after_lead = EXAMPLE_11_MOVES.split(" ", 1)[1]
    rnd = dominoes_lockstep(game, hands, True, scripted_chooser(after_lead))
    _check_example_11(rnd)
    assert (game.result.won, game.result.player, game.result.points) == (False, 2, 90)
