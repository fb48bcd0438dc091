"""The compiled hot path (bazar.hotpath): where it was built it is the code that runs, it
plays every game exactly as the pure Python does, and BAZAR_PURE=1 runs the pure Python.

``make test`` runs the suite on the compiled modules, then the engine's tests again with
``BAZAR_PURE=1``; these tests compare the two in one run, a process of each."""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import bazar
from bazar import hotpath
from bazar.core.play import playout

ROOT = Path(__file__).resolve().parent.parent

#: every family's games, and a few of their presets
GAMES = sorted(bazar.VARIANTS)


def digest(names: list[str], rounds: int) -> dict[str, str]:
    """Each game's fingerprint: the moves of ``rounds`` random rounds from fixed seeds, each
    position's legal moves, the outcome, a copy's and a pop's round trip."""
    out = {}
    for name in names:
        rules = bazar.rules(name)
        h = hashlib.sha256()
        for seed in range(rounds):
            rnd = bazar.Round(rules, seed=seed)
            rng = random.Random(seed)
            while not rnd.is_over():
                legal = rnd.legal_moves()
                h.update(" ".join(map(str, legal)).encode())
                move = rng.choice(legal)
                twin = rnd.copy()
                twin.push(move)
                twin.pop()
                assert twin.legal_moves() == legal
                rnd.push(move)
            h.update(repr(rnd.outcome()).encode())
            h.update(str(playout(bazar.Round(rules, seed=seed + 10_000), rng.choice)).encode())
        out[name] = h.hexdigest()
    return out


def _in_another_process(pure: bool, code: str) -> str:
    env = {k: v for k, v in os.environ.items() if k != hotpath.PURE_ENV}
    if pure:
        env[hotpath.PURE_ENV] = "1"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_hot_path_runs_compiled_where_it_was_built() -> None:
    """Every module of the hot path is the compiled one, unless BAZAR_PURE asks otherwise.
    Where nothing could be compiled this is skipped, but not in CI, whose machine has a C
    compiler: there a silent fallback to the pure Python would hide a broken build."""
    if os.environ.get(hotpath.PURE_ENV, "") not in ("", "0"):
        assert hotpath.compiled() == ()
        return
    if hotpath.compiled() != hotpath.MODULES:
        missing = sorted(set(hotpath.MODULES) - set(hotpath.compiled()))
        why = f"the hot path is not compiled ({', '.join(missing)}): run make build"
        if os.environ.get("BAZAR_TEST_SERVICES") == "required":
            pytest.fail(why)
        pytest.skip(why)
    assert hotpath.stale() == ()


def test_bazar_pure_imports_the_sources() -> None:
    code = (
        "import bazar, bazar.hotpath as h; print(len(h.compiled())); print(bazar.Round.__module__)"
    )
    shown = _in_another_process(True, code).split()
    assert shown == ["0", "bazar.core.round"]


def test_the_compiled_and_the_pure_hot_path_play_every_game_alike() -> None:
    """Move for move, outcome for outcome: the same games in a process on the pure Python
    and in one on whatever this run imports (the compiled modules where they were built)."""
    code = (
        "import json, sys; sys.path.insert(0, 'tests'); from test_hotpath import digest, GAMES;"
        " print(json.dumps(digest(GAMES, 6)))"
    )
    pure = json.loads(_in_another_process(True, code))
    here = json.loads(_in_another_process(False, code))
    assert sorted(pure) == GAMES
    assert here == pure


def test_a_source_changed_since_it_was_compiled_runs_as_pure_python(tmp_path: Path) -> None:
    """An edited source is never shadowed by its old compiled module: the whole hot path
    then runs as pure Python (a compiled family cannot mix with a pure one), and says so."""
    if not hotpath.compiled():
        pytest.skip("the hot path is not compiled here")
    source = ROOT / "bazar" / "games" / "poker.py"
    was = source.stat()
    try:
        # newer than its compiled module, however long after the checkout that was built
        built = max(
            (source.with_suffix(s) for s in importlib.machinery.EXTENSION_SUFFIXES),
            key=lambda p: p.stat().st_mtime if p.exists() else 0.0,
        )
        os.utime(source, (was.st_atime, max(was.st_mtime, built.stat().st_mtime) + 3600))
        env = {k: v for k, v in os.environ.items() if k != hotpath.PURE_ENV}
        done = subprocess.run(
            [sys.executable, "-c", "import bazar.hotpath as h; print(len(h.compiled()))"],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
        )
    finally:
        os.utime(source, (was.st_atime, was.st_mtime))
    assert done.stdout.split() == ["0"]
    assert "bazar.games.poker changed since it was compiled" in done.stderr
