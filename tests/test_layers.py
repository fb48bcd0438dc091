"""The package's layers (DESIGN.md "Layout and layers"): lower layers never import upper ones,
and no module imports itself back through others.

The import graph is read from the source (every ``import`` outside ``if TYPE_CHECKING:``,
those inside functions included), so an import moved into a function to dodge a cycle still
counts as one.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "bazar"

#: what each layer may import besides itself, lowest first (``bazar`` is the package's face)
ALLOWED = {
    "hotpath": set(),
    "core": set(),
    "games": {"core"},
    "bots": {"core"},
    "rating": {"core"},
    "arena": {"core", "bots"},
    "tournament": {"core", "games", "bots", "arena"},
    "i18n": {"core"},
    "cli": {"core", "games", "bots", "arena", "tournament", "rating", "i18n", "club", "analysis"},
    "club": {"core", "games", "bots", "arena", "tournament", "rating", "i18n", "analysis"},
    "rl": {"core", "games", "bots", "arena"},
    "analysis": {"core", "bots"},
    "__main__": {"cli"},
    "bazar": {"hotpath", "core", "games", "bots", "rating"},
}


def _module(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, modules: set[str]) -> set[str]:
    """The package modules ``path`` imports at run time."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for inner in ast.walk(node)
    }
    name = _module(path)
    here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            for alias in node.names:
                full = f"{target}.{alias.name}"
                found.add(full if full in modules else target)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {m for m in found if m in modules and m != name}


def _graph() -> dict[str, set[str]]:
    paths = {_module(p): p for p in PACKAGE.rglob("*.py")}
    modules = set(paths)
    graph = {}
    for name, path in paths.items():
        # importing a module runs its packages' __init__s first anyway: not an edge of ours
        graph[name] = {m for m in _imports(path, modules) if not name.startswith(m + ".")}
    return graph


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "bazar"


def test_the_graph_sees_the_imports_inside_functions() -> None:
    graph = _graph()
    assert "bazar.core.rules" in graph["bazar.games.line.kozel"]
    assert "bazar.cli" in graph["bazar.__main__"]


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_a_layer_imports_only_the_layers_below_it(layer: str) -> None:
    wrong = sorted(
        f"{module} imports {target}"
        for module, targets in _graph().items()
        if _layer(module) == layer
        for target in targets
        if _layer(target) != layer and _layer(target) not in ALLOWED[layer]
    )
    assert not wrong, wrong


def test_every_layer_is_known() -> None:
    assert {_layer(m) for m in _graph()} - {"web"} <= set(ALLOWED)


def test_no_module_imports_itself_back() -> None:
    graph = _graph()
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        path.append(module)
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                cycles.append([*path[path.index(target) :], target])
            elif target not in state:
                visit(target)
        path.pop()
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module)
    assert not cycles, [" -> ".join(c) for c in cycles]
