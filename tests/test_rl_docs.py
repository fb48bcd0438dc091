"""docs/rl.md: every Python example of the researchers' page runs as written, each in its
own interpreter (a pyspiel game left alive at an interpreter's exit can abort it, so none
is run in the test process)."""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "rl.md").read_text()
#: each example with the heading of the section it is in
EXAMPLES = {
    heading: code
    for heading, body in re.findall(r"^## (.+?)\n(.*?)(?=^## |\Z)", PAGE, re.M | re.S)
    for code in re.findall(r"```python\n(.*?)```", body, re.S)
}


def _run(code: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_page_has_an_example_for_each_library() -> None:
    assert sorted(EXAMPLES) == ["Gymnasium", "OpenSpiel", "PettingZoo"]


def test_the_pettingzoo_loop_plays_a_round_to_its_end_and_renders_it() -> None:
    shown = _run(EXAMPLES["PettingZoo"])
    assert shown.startswith("kozel-team · round 1 · move ")
    assert " · over (" in shown.splitlines()[0]


def test_the_openspiel_game_is_played_out_by_ismcts_and_pays_zero_sum_returns() -> None:
    returns = [float(x) for x in _run(EXAMPLES["OpenSpiel"]).strip().strip("[]").split(",")]
    assert len(returns) == 2 and returns[0] == -returns[1]


def test_the_gymnasium_episode_ends_with_a_reward_for_the_learner() -> None:
    assert math.isfinite(float(_run(EXAMPLES["Gymnasium"])))
