"""The layering of rules/: every module imports, no engine imports another, no import loops.

Imports are read from the source (every `import` and `from`, at any depth, so an import inside
a function does not hide a loop); a package's `__init__` is left out of the loop check since it
imports its modules to fill their tables.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

from rules.core.registry import GAME_PACKAGES

ROOT = Path(__file__).resolve().parents[3]
RULES = ROOT / "rules"


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(RULES.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


MODULES = _modules()


def _imports(path: Path) -> set[str]:
    """The rules modules (or packages) a file imports, at any depth."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                found.add(full if full in MODULES else node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name in MODULES}


def _package(name: str) -> str:
    return ".".join(name.split(".")[:2])


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import loop in the graph, as the modules along it, or [] when there is none."""
    done: set[str] = set()
    path: list[str] = []

    def visit(node: str) -> list[str]:
        if node in path:
            return path[path.index(node) :] + [node]
        if node in done:
            return []
        path.append(node)
        for nxt in sorted(graph[node]):
            loop = visit(nxt)
            if loop:
                return loop
        path.pop()
        done.add(node)
        return []

    for start in sorted(graph):
        loop = visit(start)
        if loop:
            return loop
    return []


def test_every_module_of_rules_imports() -> None:
    for name in MODULES:
        if not name.endswith(".__main__"):  # the command line runs on import
            importlib.import_module(name)


def test_no_engine_imports_another_and_the_core_imports_none() -> None:
    offenders = []
    for name, path in MODULES.items():
        own = _package(name)
        if own != "rules.core" and own not in GAME_PACKAGES:
            continue
        for target in _imports(path):
            other = _package(target)
            if other in GAME_PACKAGES and other != own:
                offenders.append(f"{name} imports {target}")
    assert offenders == []


def test_no_import_loop_within_a_package() -> None:
    graph = {
        name: {t for t in _imports(path) if _package(t) == _package(name) and t != name}
        for name, path in MODULES.items()
        if path.name != "__init__.py"
    }
    graph = {name: {t for t in targets if t in graph} for name, targets in graph.items()}
    assert _cycle(graph) == []


def test_the_loop_finder_finds_a_loop() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
