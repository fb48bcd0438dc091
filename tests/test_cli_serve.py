"""``bazar serve``: what it refuses before the club starts, what it hands the club, and its
processes with ``--workers``."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from cli_helpers import one_line_error, run, run_ru

import bazar


def _not_served(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """What ``bazar serve`` asks uvicorn to serve, noted instead of served: the options of
    each run."""
    uvicorn = pytest.importorskip("uvicorn")
    served: list[object] = []
    monkeypatch.setattr(uvicorn, "run", lambda club, **options: served.append(options))
    return served


def test_serve_refuses_a_port_out_of_range_instead_of_printing_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    served = _not_served(monkeypatch)
    db = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    for port in ("99999", "0", "-1"):
        code, out, err = run("serve", "--db", db, "--port", port)
        assert one_line_error(code, err) == (
            f"bazar: Bad value: --port takes a number from 1 to 65535, not {port}"
        )
        assert out == ""
    code, out, err = run_ru("serve", "--db", db, "--port", "65536")
    assert one_line_error(code, err) == (
        "bazar: Неверное значение: --port принимает число от 1 до 65535, не 65536"
    )
    assert served == []
    code, out, _ = run_ru("serve", "--db", db, "--port", "65535")
    assert code == 0 and served[0]["port"] == 65535
    assert out.startswith("клуб bazar: http://127.0.0.1:65535/")


def test_serve_says_which_limit_of_the_environment_is_wrong(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    uvicorn = pytest.importorskip("uvicorn")
    served: list[object] = []
    monkeypatch.setattr(uvicorn, "run", lambda club, **options: served.append(club))
    db = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    monkeypatch.setenv("BAZAR_MAX_BODY", "lots")
    code, _, err = run("serve", "--db", db)
    line = one_line_error(code, err)
    assert line.startswith("bazar: a limit set in the environment is not valid: BAZAR_MAX_BODY:")
    code, _, err = run_ru("serve", "--db", db)
    assert one_line_error(code, err).startswith(
        "bazar: ограничение, заданное в окружении, неверно: BAZAR_MAX_BODY:"
    )
    assert served == []
    # the limits the environment sets are the club's
    monkeypatch.setenv("BAZAR_MAX_BODY", "8192")
    code, _, err = run("serve", "--db", db)
    assert code == 0, err
    assert served[0].state.settings.max_body == 8192


def test_serve_refuses_more_than_one_process_without_redis(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The processes of one club share its tables through Redis: without it each would run
    the tables on its own."""
    served = _not_served(monkeypatch)
    monkeypatch.delenv("BAZAR_REDIS_URL", raising=False)
    db = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    code, out, err = run("serve", "--db", db, "--workers", "2")
    assert one_line_error(code, err) == (
        "bazar: Bad value: --workers 2 needs --redis URL: "
        "the processes share the club's tables only through a Redis server"
    )
    code, out, err = run_ru("serve", "--db", db, "--workers", "3")
    assert one_line_error(code, err) == (
        "bazar: Неверное значение: --workers 3 требует --redis URL: "
        "процессы делят столы клуба только через сервер Redis"
    )
    assert out == "" and served == []


def test_serve_says_so_when_its_redis_server_does_not_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    served = _not_served(monkeypatch)
    db = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    nobody = f"redis://127.0.0.1:{_free_port()}/0"
    code, _, err = run("serve", "--db", db, "--redis", nobody, "--workers", "2")
    assert one_line_error(code, err).startswith(f"bazar: cannot reach the Redis server {nobody}: ")
    code, _, err = run_ru("serve", "--db", db, "--redis", nobody)
    assert one_line_error(code, err).startswith(
        f"bazar: не удаётся связаться с сервером Redis {nobody}: "
    )
    # a password in the URL is never printed
    code, _, err = run("serve", "--db", db, "--redis", nobody.replace("//", "//:secret@"))
    line = one_line_error(code, err)
    assert "secret" not in line and nobody.replace("//", "//:***@") in line
    assert served == []


def test_serve_hands_its_redis_server_and_rematch_window_to_the_club(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, redis_url: str
) -> None:
    uvicorn = pytest.importorskip("uvicorn")
    served: list[object] = []
    monkeypatch.setattr(uvicorn, "run", lambda club, **options: served.append(club))
    db = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    code, out, err = run("serve", "--db", db, "--redis", redis_url, "--rematch-window", "7")
    assert code == 0, err
    assert out == f"bazar club on http://127.0.0.1:8000/  (database {db}, Redis {redis_url})\n"
    (club,) = served
    assert club.state.settings.redis_url == redis_url  # type: ignore[attr-defined]
    assert club.state.club.rematch_window_s == 7  # type: ignore[attr-defined]


def test_each_worker_builds_its_club_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("uvicorn")
    from bazar.club.app import from_environment

    monkeypatch.setenv("BAZAR_DB_URL", f"sqlite:///{tmp_path / 'club.sqlite3'}")
    monkeypatch.setenv("BAZAR_REMATCH_WINDOW_S", "9")
    monkeypatch.setenv("BAZAR_GRACE_S", "11")
    monkeypatch.setenv("BAZAR_MAX_BODY", "8192")
    club = from_environment()
    assert club.state.club.rematch_window_s == 9
    assert club.state.club.grace_s == 11
    assert club.state.settings.max_body == 8192
    club.state.storage.close()
    assert (tmp_path / "club.sqlite3").exists()


def test_serve_with_workers_answers_from_as_many_processes_on_one_port(
    tmp_path: Path, redis_url: str
) -> None:
    """``--workers 2``: two processes behind one port, which fresh connections reach in
    turn; they stop with the command."""
    server, url = _serve_workers(tmp_path, redis_url, 2)
    try:
        seen = _healths(url, server, until=2)
    finally:
        out, err = _stop(server)
    assert server.returncode == 0, err
    port = url.split(":")[2].split("/")[0]
    db = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    assert out == (
        f"bazar club on http://127.0.0.1:{port}/  (2 processes, database {db}, Redis {redis_url})\n"
    )
    assert len(seen) == 2 and server.pid not in seen
    assert len({health["node"] for health in seen.values()}) == 2
    assert all(health["ok"] is True for health in seen.values())
    # the workers went with their parent
    for pid in seen:
        assert not Path(f"/proc/{pid}").exists()


def test_a_reload_replaces_the_workers_one_at_a_time_while_the_port_answers(
    tmp_path: Path, redis_url: str
) -> None:
    """SIGHUP (``systemctl reload``, docs/deploy.md): each worker is replaced by a new
    process, which serves before the old one stops, so the port never refuses a connection:
    how one unit of ``--workers N`` takes a new version. An old worker may cut off the one
    connection it had taken but not yet read as it stopped (uvicorn closes the idle ones),
    no more."""
    server, url = _serve_workers(tmp_path, redis_url, 2)
    cut: list[OSError] = []
    try:
        old = _healths(url, server, until=2)
        server.send_signal(signal.SIGHUP)
        new: set[int] = set()
        deadline = time.monotonic() + 60
        while len(new) < 2 or any(Path(f"/proc/{pid}").exists() for pid in old):
            assert time.monotonic() < deadline, f"old {sorted(old)}, new {sorted(new)} after 60 s"
            try:
                with urllib.request.urlopen(url, timeout=5) as answer:
                    pid = json.loads(answer.read())["pid"]
            except OSError as error:
                # urllib says a refused connection as a URLError of it
                refused = isinstance(getattr(error, "reason", error), ConnectionRefusedError)
                assert not refused, "the port refused a connection during the reload"
                cut.append(error)
                continue
            if pid not in old:
                new.add(pid)
    finally:
        _stop(server)
    assert len(new) == 2
    assert len(cut) <= len(old), cut


def _serve_workers(
    tmp_path: Path, redis_url: str, workers: int
) -> tuple[subprocess.Popen[str], str]:
    """``bazar serve --workers`` as a real command on a free port, and its health's URL."""
    pytest.importorskip("uvicorn")
    port = _free_port()
    db = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    root = str(Path(bazar.__file__).resolve().parents[1])
    env = {**os.environ, "LANG": "C", "LC_ALL": "", "LC_MESSAGES": ""}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))
    command = [sys.executable, "-m", "bazar", "serve", "--port", str(port), "--db", db]
    server = subprocess.Popen(
        [*command, "--redis", redis_url, "--workers", str(workers)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    return server, f"http://127.0.0.1:{port}/api/health"


def _stop(server: subprocess.Popen[str]) -> tuple[str, str]:
    """Stop ``server`` as systemd does (SIGTERM); what it printed. One that is still there
    30 s later fails the test, its workers killed with it."""
    server.send_signal(signal.SIGTERM)
    try:
        return server.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.communicate()
        raise AssertionError("bazar serve did not stop within 30 s of SIGTERM") from None


def _healths(url: str, server: subprocess.Popen[str], until: int) -> dict[int, dict[str, object]]:
    """The answers of ``/api/health`` by pid, asked on fresh connections (a balancer's) until
    ``until`` processes have answered: bounded, while the server starts and then in all."""
    seen: dict[int, dict[str, object]] = {}
    deadline = time.monotonic() + 60
    while len(seen) < until:
        assert time.monotonic() < deadline, f"only {sorted(seen)} answered within 60 s"
        assert server.poll() is None, server.communicate()[1]
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                health = json.loads(answer.read())
        except OSError:
            time.sleep(0.1)
            continue
        seen[health["pid"]] = health
    return seen


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
