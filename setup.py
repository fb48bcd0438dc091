"""bazar's build: pyproject.toml says what bazar is; this file compiles its hot path.

The modules ``bazar.hotpath.MODULES`` names are compiled to C by mypyc where the build finds
mypyc and a C compiler. Where it finds neither, or a compilation fails, the build says so in
one line and installs those modules as the pure Python they are: bazar works the same, slower.
``BAZAR_PURE=1`` at install time skips the compilation.
"""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
MODULES: tuple[str, ...] = runpy.run_path(str(HERE / "bazar" / "hotpath.py"))["MODULES"]


def say(line: str) -> None:
    print(f"bazar: {line}", file=sys.stderr)


def extensions() -> list[Any]:
    """The compiled modules, or none where they cannot or should not be built."""
    if os.environ.get("BAZAR_PURE", "") not in ("", "0"):
        say("BAZAR_PURE is set: the hot path is installed as pure Python")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        say("mypyc is not available: the hot path is installed as pure Python")
        return []
    paths = [str(Path(*name.split(".")).with_suffix(".py")) for name in MODULES]
    try:
        # the build checks the hot path alone, without the project's mypy plugins (pydantic)
        # one C file: split a file a module (multi_file), the compiled code ran a third
        # slower (calls across files are not inlined), for a build a few seconds shorter
        return list(mypycify(["--config-file=", *paths], opt_level="3", group_name="bazar_hotpath"))
    except Exception as error:  # mypyc's own refusal: install the pure Python, and say why
        say(f"mypyc could not compile the hot path ({error}): installed as pure Python")
        return []


class OptionalBuildExt(build_ext):
    """Builds the compiled modules all or none: where a C compiler fails (none installed, no
    Python headers), what was built is removed and the pure Python stays."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:
            for built in self.get_outputs():
                Path(built).unlink(missing_ok=True)
            say(f"the hot path could not be compiled ({error}): installed as pure Python")


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
