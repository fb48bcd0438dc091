"""pytest's collection, for the whole checkout: the doctests of a module of the hot path are
read from its source, which a compiled module is not (bazar.hotpath); where it runs
compiled they are left to ``make test``'s second run, on the pure Python."""

from __future__ import annotations

from pathlib import Path

from bazar import hotpath

ROOT = Path(__file__).resolve().parent
COMPILED_SOURCES = {
    ROOT.joinpath(*name.split(".")).with_suffix(".py") for name in hotpath.compiled()
}


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    return True if collection_path in COMPILED_SOURCES else None
