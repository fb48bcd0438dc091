"""The hot path: the modules compiled to C by mypyc where the machine that installed bazar
could build them, and the switch back to their pure Python.

The move generator, push and pop of every family and the playout loop are ordinary typed
Python (mypy --strict checks them). ``pip install`` compiles the modules of :data:`MODULES`
with mypyc when it finds a C compiler (``setup.py``); where it does not, or where a build
fails, it installs them as they are and bazar runs the same code, slower. Both are the same
program: the test suite runs on each, and a record made by one replays on the other.

``BAZAR_PURE=1`` in the environment makes a process import the pure Python even where the
compiled modules are installed (to compare the two, or to debug). So does a source file
changed since its module was compiled (an editable install, edited): bazar says so once and
runs the sources as they are, all of them, until they are compiled again (``make build``,
or ``python setup.py build_ext --inplace``); a compiled family's class cannot be mixed with
a pure one.

>>> import bazar.hotpath
>>> "bazar.core.round" in bazar.hotpath.MODULES
True

This module imports nothing of bazar: ``setup.py`` reads :data:`MODULES` from it before bazar
is built, and :mod:`bazar` installs the switch before it imports anything else.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

__all__ = ["MODULES", "PURE_ENV", "compiled", "install_pure", "stale"]

#: the modules mypyc compiles, by import name, in the order of their layers
MODULES: tuple[str, ...] = (
    "bazar.core.tiles",
    "bazar.core.moves",
    "bazar.core.round",
    "bazar.core.play",
    "bazar.games.line.round",
    "bazar.games.cross.round",
    "bazar.games.trains.round",
    "bazar.games.trains.chicken_foot",
    "bazar.games.kolbasa",
    "bazar.games.poker",
    "bazar.games.trick",
)

#: the environment variable that asks for the pure Python
PURE_ENV = "BAZAR_PURE"


def compiled() -> tuple[str, ...]:
    """The modules of :data:`MODULES` this process runs compiled (each imported by then)."""
    return tuple(
        name
        for name in MODULES
        if (module := sys.modules.get(name)) is not None and _is_extension(module)
    )


def _is_extension(module: ModuleType) -> bool:
    spec = module.__spec__
    return spec is not None and isinstance(spec.loader, importlib.machinery.ExtensionFileLoader)


class _PureFinder(importlib.abc.MetaPathFinder):
    """Finds each module of :data:`MODULES` as its source file, passing over the compiled
    extension that the normal finder would prefer."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MODULES or not path:
            return None
        leaf = fullname.rpartition(".")[2]
        for folder in path:
            source = os.path.join(folder, leaf + ".py")
            if os.path.exists(source):
                return importlib.util.spec_from_file_location(fullname, source)
        return None


def stale() -> tuple[str, ...]:
    """The modules of :data:`MODULES` whose source is newer than their compiled extension
    beside it (none where nothing is compiled)."""
    root = Path(__file__).resolve().parent.parent
    found = []
    for name in MODULES:
        source = root.joinpath(*name.split(".")).with_suffix(".py")
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            built = source.with_suffix(suffix)
            if built.exists():
                if source.exists() and source.stat().st_mtime > built.stat().st_mtime:
                    found.append(name)
                break
    return tuple(found)


def install_pure() -> bool:
    """Import the pure Python of the hot path from here on, where :data:`PURE_ENV` asks for
    it or a compiled module is older than its source; whether it does."""
    if os.environ.get(PURE_ENV, "") in ("", "0"):
        changed = stale()
        if not changed:
            return False
        print(
            f"bazar: {', '.join(changed)} changed since it was compiled: running the pure "
            "Python of the hot path (make build compiles it again)",
            file=sys.stderr,
        )
    if not any(isinstance(finder, _PureFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _PureFinder())
    return True


# before any module of the hot path is imported: bazar imports this module first
install_pure()
