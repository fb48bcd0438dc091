"""The arena on a Ray cluster (``arena.run(ray=...)``, ``bazar arena --ray``): the same games
and results as on this process alone, and one clear line where Ray is not installed or no
cluster answers at the address. A bot tournament's games (``bazar.tournament.play``) too."""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run

import bazar
from bazar import arena

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def cluster() -> Iterator[None]:
    """One private Ray cluster of two cores for the module, which this process joins: the
    arena plays on the cluster its process has joined, whatever the address. Where Ray is
    not installed the tests skip, but in CI (``CI`` set, the dev extra installs it) fail."""
    try:
        import ray
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("Ray is not installed (the dev extra installs bazar[ray])")
        pytest.skip("Ray is not installed (pip install 'bazar[ray]')")
    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        logging_level=logging.WARNING,
    )
    yield
    ray.shutdown()


def _outcome(report: dict[str, Any]) -> dict[str, Any]:
    """A report (its JSON) without the time each bot took a move: all the games decided."""
    results = [{k: v for k, v in r.items() if k != "ms_per_move"} for r in report["results"]]
    return {**report, "results": results}


@pytest.mark.parametrize(
    ("players", "names"),
    [(2, ["greedy", "heuristic"]), (4, ["greedy", "random", "heuristic", "greedy"])],
)
def test_a_ray_cluster_plays_the_games_one_process_plays(
    cluster: None, players: int, names: list[str]
) -> None:
    rules = bazar.rules("block", players=players)
    alone = arena.run(rules, names, games=24, seed=5)
    heard: list[int] = []
    spread = arena.run(rules, names, games=24, seed=5, ray="auto", progress=heard.append)
    assert _outcome(spread.to_json()) == _outcome(alone.to_json())
    assert sum(heard) == 24 and len(heard) > 1


def test_the_command_line_plays_on_the_cluster_at_ray(cluster: None) -> None:
    args = ["arena", "block", "--bots", "greedy,random", "-n", "8", "--seed", "4", "--json"]
    code, out, err = run(*args)
    assert code == 0, err
    code, spread, err = run(*args, "--ray", "auto")
    assert code == 0, err
    assert _outcome(json.loads(spread)) == _outcome(json.loads(out))


def test_a_tournament_on_the_cluster_is_the_tournament_one_process_plays(cluster: None) -> None:
    from bazar.tournament import Tournament
    from bazar.tournament.play import run as play_tournament

    def swiss() -> Tournament:
        t = Tournament("block", format="swiss", rounds=2, seed=3)
        for level in ("greedy", "random", "heuristic", "random"):
            t.add(f"{level}#{len(t.entries)}", bot=level)
        return t

    alone = play_tournament(swiss())
    assert play_tournament(swiss(), ray="auto").to_json() == alone.to_json()
    code, out, err = run(
        "tournament", "block", "--rounds", "2", "--bots", "greedy,random,heuristic", "--json"
    )
    assert code == 0, err
    code, spread, err = run(
        "tournament", "block", "--rounds", "2", "--bots", "greedy,random,heuristic", "--json",
        "--ray", "auto",
    )  # fmt: skip
    assert code == 0, err
    assert json.loads(spread) == json.loads(out)


def _bazar(*args: str, lang: str = "C", prelude: str = "") -> subprocess.CompletedProcess[str]:
    """``bazar ARGS`` in a process of its own, after the Python of ``prelude``."""
    code = f"import sys\n{prelude}\nfrom bazar.cli import main\nmain()"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LANG": lang, "LC_ALL": "", "LC_MESSAGES": ""}
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=60
    )


ARENA = ["arena", "block", "--bots", "greedy,random", "-n", "2"]


def test_without_ray_installed_the_command_names_the_extra_in_either_language() -> None:
    # the process that finds no Ray: None in sys.modules makes `import ray` fail
    absent = "sys.modules['ray'] = None"
    done = _bazar(*ARENA, "--ray", "auto", prelude=absent)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.strip().splitlines() == [
        "bazar: Bad value: ray='auto' needs Ray, which is not installed: pip install 'bazar[ray]'"
    ]
    done = _bazar(*ARENA, "--ray", "auto", lang="ru_RU.UTF-8", prelude=absent)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "bazar: Неверное значение: ray='auto': нужен Ray, а он не установлен: "
        "pip install 'bazar[ray]'"
    ]


def test_a_local_arena_and_the_command_line_never_import_ray() -> None:
    check = (
        "import bazar\nfrom bazar import arena\n"
        "arena.run(bazar.rules('block'), ['greedy', 'random'], games=2)\n"
        "import atexit\n"
        "atexit.register(lambda: print('ray' in sys.modules, file=sys.stderr))\n"
    )
    done = _bazar(*ARENA, "--json", prelude=check)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 2
    assert done.stderr.strip() == "False"


def _closed_port() -> int:
    """A loopback port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("form", ["127.0.0.1:{port}", "ray://127.0.0.1:{port}"])
def test_an_address_where_no_cluster_answers_is_one_line_not_a_wait(form: str) -> None:
    address = form.format(port=_closed_port())
    start = time.monotonic()
    done = _bazar(*ARENA, "--ray", address, "--lang", "en")
    assert time.monotonic() - start < 30
    assert (done.returncode, done.stdout) == (2, "")
    [line] = done.stderr.strip().splitlines()
    assert line.startswith(f"bazar: Bad value: ray={address!r}: no Ray cluster can be joined")
