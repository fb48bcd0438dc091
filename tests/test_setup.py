"""The set-up a newcomer meets first: ``pyproject.toml``'s metadata, the Makefile's targets,
and what ``make test`` says of the tests it could not run (``conftest.py``)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_license_is_an_spdx_string_for_a_setuptools_that_reads_it() -> None:
    # a table ({text = "MIT"}) makes setuptools 77 and later print a deprecation warning on
    # every install, `make run` included; the string needs setuptools 77 to build
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["license"] == "MIT"
    assert "setuptools>=77" in project["build-system"]["requires"]


def _make(*args: str) -> str:
    """What ``make -n ARGS`` would run, run nowhere."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    done = subprocess.run(
        ["make", "-n", "-C", str(ROOT), *args], capture_output=True, text=True, check=True
    )
    return done.stdout


@pytest.mark.parametrize(
    ("args", "command"),
    [
        ((), "bazar serve --host 127.0.0.1 --port 8000"),
        (("PORT=8080",), "bazar serve --host 127.0.0.1 --port 8080"),
        (("PORT=9000", "HOST=0.0.0.0"), "bazar serve --host 0.0.0.0 --port 9000"),
    ],
)
def test_make_run_takes_a_port_and_a_host(args: tuple[str, ...], command: str) -> None:
    assert command in _make("run", *args)


def test_make_run_port_is_documented() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make run PORT=8080" in readme


def test_skipped_browser_tests_say_once_how_to_get_chromium(tmp_path: Path) -> None:
    shutil.copy(ROOT / "tests" / "conftest.py", tmp_path / "conftest.py")
    skip = (
        "import pytest\n"
        "pytest.skip('Chromium is not installed (apt-get install chromium)',"
        " allow_module_level=True)\n"
    )
    for name in ("test_web_a.py", "test_web_b.py"):
        (tmp_path / name).write_text(skip, encoding="utf-8")
    (tmp_path / "test_other.py").write_text("def test_one():\n    pass\n", encoding="utf-8")
    done = _pytest(tmp_path)
    said = [line for line in done.stdout.splitlines() if "apt-get install chromium" in line]
    assert said == [
        "2 browser test files skipped: they need Chromium at /usr/bin/chromium"
        " (apt-get install chromium)"
    ]


def test_a_run_without_browser_skips_says_nothing_of_chromium(tmp_path: Path) -> None:
    shutil.copy(ROOT / "tests" / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_other.py").write_text("def test_one():\n    pass\n", encoding="utf-8")
    done = _pytest(tmp_path)
    assert "Chromium" not in done.stdout


def _pytest(folder: Path) -> subprocess.CompletedProcess[str]:
    """pytest run in ``folder`` on its files, which must pass."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(folder)],
        capture_output=True,
        text=True,
        cwd=folder,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done
