"""``benchmarks/load.py`` against a real club: one server process, and two meeting at a real
Redis, a few tables for a moment; each cell reports the moves its clients heard, their
latency and the servers' CPU time, in JSON and in the markdown table it appends to a file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_load_benchmark_plays_on_one_process_and_on_two(redis_url: str, tmp_path: Path) -> None:
    runs = tmp_path / "runs.md"
    command = [
        sys.executable,
        "benchmarks/load.py",
        *("--processes", "1", "2", "--tables", "3", "--paces", "flat"),
        *("--seconds", "2", "--warmup", "0.5", "--redis", redis_url, "--json", "--out", str(runs)),
    ]
    done = subprocess.run(
        command,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    cells = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(c["processes"], c["tables"], c["pace"]) for c in cells] == [
        (1, 3, "flat"),
        (2, 3, "flat"),
    ]
    for cell in cells:
        assert cell["client_moves"] > 0 and cell["moves_per_s"] > 0, cell
        assert cell["failed_clients"] == 0 and cell["errors"] == 0, cell
        assert cell["latency_ms"]["median"] <= cell["latency_ms"]["p99"]
        assert cell["cpu_ms_per_1k_moves"]["servers"] > 0
        # a Redis the run was given is not its own: its CPU time is not the run's to count
        assert cell["cpu_ms_per_1k_moves"]["redis"] is None
    rows = [line for line in runs.read_text().splitlines() if line.startswith("| ")]
    cells_told = [row.split(" | ")[:3] for row in rows[1:]]
    assert cells_told == [["| 1", "3", "flat"], ["| 2", "3", "flat"]]
