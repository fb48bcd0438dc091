"""``benchmarks/vs_openspiel.py``: the resampler OpenSpiel's ``ISMCTSBot`` searches with on
``python_block_dominoes`` (the same information state, the opponent's hand dealt uniformly
from the hands he can hold, skipped pips avoided), the bazar Round rebuilt from an OpenSpiel
state (the same legal plays, deal by deal), and the harness run for a moment."""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bazar import bots

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import vs_openspiel as vs  # noqa: E402 (the benchmarks folder is no package)


def position(seed: int, plies: int) -> Any:
    """Deal ``seed`` after at most ``plies`` random plays, stopped before the end."""
    rng = random.Random(seed)
    state = vs.game().new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    for _ in range(plies):
        after = state.clone()
        after.apply_action(rng.choice(after.legal_actions()))
        if after.is_terminal():
            break
        state = after
    return state


positions = st.builds(position, st.integers(0, 10**6), st.integers(0, 13))
slow = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@slow
@given(positions, st.integers(0, 1), st.integers(0, 2**32))
def test_every_resampled_state_looks_the_same_to_the_player(
    state: Any, player: int, seed: int
) -> None:
    resampled = vs.resample(state, player, random.Random(seed))
    assert resampled.information_state_string(player) == state.information_state_string(player)
    assert resampled.current_player() == state.current_player()
    if player == state.current_player():
        assert resampled.legal_actions() == state.legal_actions()
    theirs = vs.hand(resampled, 1 - player)
    assert vs.consistent(state, player, theirs)


@slow
@given(positions, st.integers(0, 1), st.randoms(use_true_random=False))
def test_a_hand_is_dealable_exactly_when_it_is_consistent(
    state: Any, player: int, rng: random.Random
) -> None:
    tiles = rng.sample(vs.unseen(state, player), len(state.hands[1 - player]))
    dealt = vs.deal(state, player, tiles)
    assert (dealt is not None) == vs.consistent(state, player, tiles)
    if dealt is not None:
        assert dealt.information_state_string(player) == state.information_state_string(player)


def test_a_blind_hand_is_often_inconsistent() -> None:
    """The property above sees both answers: skips are common, and a hand drawn blindly
    from the unseen tiles often holds a pip its owner was skipped on."""
    answers: Counter[bool] = Counter()
    for seed in range(300):
        state = position(seed, 10)
        player = state.current_player()
        tiles = random.Random(seed).sample(vs.unseen(state, player), len(state.hands[1 - player]))
        answers[vs.deal(state, player, tiles) is not None] += 1
    assert answers[True] > 30 and answers[False] > 30, answers


def test_the_true_hand_is_consistent_and_skips_are_read_from_repeated_turns() -> None:
    for seed in range(200):
        state = position(seed, 13)
        player = state.current_player()
        assert vs.consistent(state, player, vs.hand(state, 1 - player))
        history = vs.moves(state)
        repeated = any(a[0] == b[0] == player for a, b in itertools.pairwise(history))
        repeated |= bool(history) and history[-1][0] == player
        assert bool(vs.skipped_pips(state, player)) == repeated


def small_position() -> tuple[Any, int]:
    """A position where the opponent holds two tiles and was skipped: the consistent hands
    are few enough to count."""
    for seed in itertools.count():
        state = position(seed, 13)
        player = state.current_player()
        if len(state.hands[1 - player]) == 2 and vs.skipped_pips(state, player):
            return state, player
    raise AssertionError


def test_the_opponents_hand_is_uniform_over_the_consistent_hands() -> None:
    state, player = small_position()
    hands = [
        frozenset(pair)
        for pair in itertools.combinations(vs.unseen(state, player), 2)
        if vs.deal(state, player, list(pair)) is not None
    ]
    assert 2 < len(hands) < len(list(itertools.combinations(vs.unseen(state, player), 2)))
    rng = random.Random(19)
    per_hand = 150
    counts = Counter(
        frozenset(vs.hand(vs.resample(state, player, rng), 1 - player))
        for _ in range(per_hand * len(hands))
    )
    assert set(counts) == set(hands)
    chi2 = sum((counts[h] - per_hand) ** 2 / per_hand for h in hands)
    freedom = len(hands) - 1
    # the mean of chi-square is its degrees of freedom, its deviation sqrt(2 df)
    assert chi2 < freedom + 5 * (2 * freedom) ** 0.5, (chi2, freedom)


def test_the_bazar_round_offers_the_same_plays_deal_by_deal() -> None:
    greedy = bots.make("greedy", seed=1)
    for seed in range(300):
        rng = random.Random(seed)
        state = position(seed, 0)
        while not state.is_terminal():
            rnd = vs.to_round(state)
            assert rnd.turn == state.current_player()
            assert sorted(rnd.hands[0]) == sorted(vs.hand(state, 0))
            assert sorted(rnd.hands[1]) == sorted(vs.hand(state, 1))
            legal = {vs.action(rnd, move) for move in rnd.legal_moves()}
            assert legal == set(state.legal_actions()), (seed, str(state))
            chosen, _ = vs.choose(greedy, state)
            assert chosen in legal
            state.apply_action(rng.choice(state.legal_actions()))
        rnd = vs.to_round(state)
        assert rnd.is_over()
        assert [sorted(h) for h in rnd.hands] == [sorted(vs.hand(state, s)) for s in (0, 1)]


#: one deal at 5 ms a move, calibrated from one deal in one step
HARNESS_ARGS = ["--deals", "1", "--ms", "5", "--jobs", "1", "--calibrate", "1", "--steps", "1"]
HARNESS_ARGS += ["--probe", "5", "--json"]


def test_the_harness_calibrates_and_reports_both_rows() -> None:
    done = subprocess.run(
        [sys.executable, "benchmarks/vs_openspiel.py", *HARNESS_ARGS],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "calibrated:" in done.stderr
    rows = json.loads(done.stdout)["rows"]
    assert rows[0]["bazar"] == "ismcts@5ms"
    assert rows[1]["bazar"].startswith("omniscient@")
    for r in rows:
        assert r["game"] == "python_block_dominoes"
        assert (r["deals"], r["games"]) == (1, 2)
        assert r["openspiel_simulations"] == rows[0]["openspiel_simulations"] >= 1
        assert 0 <= r["wilson95"][0] <= r["bazar_win_rate"] <= r["wilson95"][1] <= 1
        assert r["bazar_median_ms"] > 0 and r["openspiel_median_ms"] > 0
