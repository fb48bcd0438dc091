"""``bazar analyse``: a record's moves graded, the accuracy table and the worst moves, in both
languages, as JSON, and bad input refused in one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from test_analysis import played_match

from bazar import analysis
from bazar.core import record


def test_bazar_analyse_prints_the_moves_the_accuracy_and_the_worst(tmp_path: Path) -> None:
    match = played_match("block", 2, target=20)
    path = tmp_path / "match.json"
    path.write_text(record.dumps(match), encoding="utf-8")
    run = [sys.executable, "-m", "bazar", "analyse", str(path), "--budget", "4"]
    out = subprocess.run([*run, "--lang", "en"], capture_output=True, text=True, check=True)
    assert "Accuracy" in out.stdout and "Player 1" in out.stdout and "Player 2" in out.stdout
    ru = subprocess.run([*run, "--lang", "ru"], capture_output=True, text=True, check=True)
    assert "Точность" in ru.stdout and "Игрок 1" in ru.stdout and "Accuracy" not in ru.stdout
    data = json.loads(
        subprocess.run(
            [*run, "--json", "--seat", "1"], capture_output=True, text=True, check=True
        ).stdout
    )
    assert [p["seat"] for p in data["players"]] == [1]
    assert {m["seat"] for m in data["moves"]} == {1}
    assert all(m["grade"] in analysis.GRADES for m in data["moves"])
    bad = subprocess.run([*run, "--seat", "5"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("bazar: ") and "5" in bad.stderr
    bad = subprocess.run([*run, "--budget", "0"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--budget" in bad.stderr
