"""examples/learn_block.py: its policy's gradient is the derivative it claims, and the script
trains, saves and measures end to end on a tiny budget (its win rate is not asserted: a few
seconds of training prove nothing about strength)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np

import bazar
from bazar.rl.encoding import Encoding

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "examples" / "learn_block.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("learn_block", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _batch(rng: np.random.Generator, n: int, inputs: int, actions: int) -> tuple[np.ndarray, ...]:
    obs = rng.normal(size=(n, inputs))
    mask = (rng.random((n, actions)) < 0.3).astype(np.float64)
    mask[np.arange(n), rng.integers(0, actions, n)] = 1.0
    chosen = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
    returns = rng.normal(size=n)
    return obs, mask, chosen, returns


def test_masked_actions_get_no_probability_and_the_rest_sum_to_one() -> None:
    ex = _example()
    rng = np.random.default_rng(1)
    policy = ex.Policy(6, 5, 4, rng)
    for name in ("w2", "b2"):
        policy.params[name] = rng.normal(size=policy.params[name].shape)
    obs, mask, _, _ = _batch(rng, 8, 6, 5)
    _, probs = policy.probabilities(obs, mask)
    assert np.all(probs[mask == 0] == 0)
    assert np.allclose(probs.sum(axis=1), 1)
    assert all(mask[i, policy.best(obs[i], mask[i])] == 1 for i in range(8))


def test_policy_gradient_is_the_derivative_of_the_advantage_weighted_log_likelihood() -> None:
    ex = _example()
    rng = np.random.default_rng(2)
    policy = ex.Policy(6, 5, 4, rng)
    for name, value in policy.params.items():
        policy.params[name] = rng.normal(size=value.shape)
    obs, mask, chosen, returns = _batch(rng, 8, 6, 5)
    advantage = returns - policy.value(obs)
    grads = policy.gradients(obs, mask, chosen, returns)

    def surrogate() -> float:
        _, probs = policy.probabilities(obs, mask)
        return float(np.mean(advantage * np.log(probs[np.arange(8), chosen])))

    for name in ("w1", "b1", "w2", "b2"):
        param = policy.params[name]
        for index in [tuple(rng.integers(0, s) for s in param.shape) for _ in range(5)]:
            before = param[index]
            param[index] = before + 1e-6
            up = surrogate()
            param[index] = before - 1e-6
            down = surrogate()
            param[index] = before
            assert abs((up - down) / 2e-6 - grads[name][index]) < 1e-5, (name, index)


def test_the_value_steps_towards_the_returns() -> None:
    ex = _example()
    rng = np.random.default_rng(3)
    policy = ex.Policy(6, 5, 4, rng)
    obs, mask, chosen, _ = _batch(rng, 64, 6, 5)
    returns = obs @ rng.normal(size=6) + 0.5
    adam = ex.Adam(policy.params, 0.05)
    first = np.mean((returns - policy.value(obs)) ** 2)
    for _ in range(200):
        grads = policy.gradients(obs, mask, chosen, returns)
        adam.step(policy.params, {"v": grads["v"], "v0": grads["v0"]})
    assert np.mean((returns - policy.value(obs)) ** 2) < first / 100


def test_training_bounded_by_matches_plays_that_many_and_changes_the_policy() -> None:
    ex = _example()
    enc = Encoding.of(bazar.rules("block", players=2))
    policy = ex.Policy(enc.observation_shape[0], enc.num_actions, 8, np.random.default_rng(4))
    figures = ex.train(policy, None, 11, 8, 0.003, 4)
    assert figures["matches"] == 11
    assert figures["rounds"] >= 11 * 2  # a round pays at most 69 points of the 100
    assert np.any(policy.params["w2"] != 0)


def test_the_script_trains_saves_and_measures_against_random(tmp_path: Path) -> None:
    out = tmp_path / "block.npz"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    tiny = ["--minutes", "0.03", "--seed", "5", "--out", str(out), "--games", "4", "--hidden", "8"]
    tiny += ["--against", "random,greedy"]
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *tiny],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "rounds" in done.stderr  # progress goes to stderr
    said = done.stdout.splitlines()
    assert [line.split(" on block: won ")[0] for line in said] == [
        "learned vs random",
        "learned vs greedy",
    ]

    enc = Encoding.of(bazar.rules("block", players=2))
    with np.load(out) as weights:
        assert weights["w1"].shape == (enc.observation_shape[0], 8)
        assert weights["w2"].shape == (8, enc.num_actions)
    report = json.loads(out.with_suffix(".json").read_text())
    assert report["training"]["matches"] > 0 and report["training"]["rounds"] > 0
    for arena, opponent in zip(report["arena"], ["random", "greedy"], strict=True):
        assert arena["variant"] == "block" and arena["games"] == 4
        assert [r["bot"] for r in arena["results"]] == ["learned", opponent]
        assert sum(r["wins"] for r in arena["results"]) == 4
    assert report["summary"] == said
