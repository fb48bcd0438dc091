"""``benchmarks/rl.py`` for a moment: every row measured (bazar's PettingZoo env and its
encoding on Block and team Kozel, OpenSpiel's Block through its state API and its RL
interface, bazar's Block as an OpenSpiel game), each rate positive and the ratios to
OpenSpiel's Block those rates' own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_rl_benchmark_measures_every_row() -> None:
    done = subprocess.run(
        [sys.executable, "benchmarks/rl.py", "--seconds", "0.3", "--json"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["rows"]
    assert [(r["library"], r["game"], r["players"]) for r in rows] == [
        ("pettingzoo", "block", 2),
        ("encoding", "block", 2),
        ("pettingzoo", "kozel-team", 4),
        ("encoding", "kozel-team", 4),
        ("openspiel", "python_block_dominoes", 2),
        ("openspiel rl_environment", "python_block_dominoes", 2),
        ("openspiel", "bazar_block", 2),
    ]
    peer = rows[4]["steps_per_s"]
    for row in rows:
        assert row["steps"] > 0 and row["steps_per_s"] > 0 and row["episodes_per_s"] > 0
        assert row["vs_openspiel"] == row["steps_per_s"] / peer
        # a round of either game takes more than one decision
        assert row["episodes_per_s"] < row["steps_per_s"]
