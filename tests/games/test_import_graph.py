"""The site's modules import each other in one direction only: no loop, no import in a function.

Issue 10 found nine modules (services, clocks, notify, tasks, standing, emails, pages, rematch,
undo) importing each other in a loop held together by imports inside functions. The lifecycle
layer (games/services/) sits in the middle: leaves below it (models, errors, access, jobs,
live…), what players see and send above it. The app's ready() is the one allowed late import:
it registers the job handlers and signals, as Django intends.
"""

from __future__ import annotations

import ast
from pathlib import Path

GAMES = Path(__file__).resolve().parents[2] / "games"
LATE_IMPORTS_ALLOWED = {"games.apps", "games.templatetags.chancery"}


def _module(path: Path) -> str:
    parts = path.relative_to(GAMES.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(tree: ast.AST) -> list[tuple[str, bool]]:
    """(imported games module, whether the import sits inside a function)."""
    found: list[tuple[str, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.ImportFrom) and (child.module or "").startswith("games"):
                assert not child.level, "the site uses absolute imports"
                base = str(child.module)
                for alias in child.names:
                    found.append((f"{base}.{alias.name}", inner))
                    found.append((base, inner))
            elif isinstance(child, ast.Import):
                found.extend((a.name, inner) for a in child.names if a.name.startswith("games"))
            visit(child, inner)

    visit(tree, False)
    return found


def _graph() -> tuple[dict[str, set[str]], list[str]]:
    modules = {_module(p): p for p in GAMES.rglob("*.py") if "migrations" not in p.parts}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    late: list[str] = []
    for name, path in modules.items():
        for target, inner in _imports(ast.parse(path.read_text())):
            if target in modules and target != name:
                if inner:
                    late.append(f"{name} -> {target}")
                else:
                    graph[name].add(target)
    return graph, late


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle, if there is any (a package importing its own submodules is not one)."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(node: str) -> list[str]:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if node.startswith(nxt + "."):
                continue  # a submodule reading its package's __init__ re-exports
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if not state.get(nxt):
                found = walk(nxt)
                if found:
                    return found
        state[node] = 2
        stack.pop()
        return []

    for node in sorted(graph):
        if not state.get(node):
            found = walk(node)
            if found:
                return found
    return []


def test_the_site_modules_import_each_other_without_a_loop() -> None:
    graph, _ = _graph()
    assert _cycle(graph) == []


def test_no_site_module_imports_another_inside_a_function() -> None:
    _, late = _graph()
    allowed = [edge for edge in late if edge.split(" -> ")[0] in LATE_IMPORTS_ALLOWED]
    assert sorted(set(late) - set(allowed)) == []


def test_only_the_lifecycle_layer_saves_games() -> None:
    """Game rows are written in games/services/ only (ARCHITECTURE §5: one service changes a game)."""
    writers = []
    for path in GAMES.rglob("*.py"):
        if "services" in path.parts or "migrations" in path.parts:
            continue
        source = path.read_text()
        for needle in (
            "select_for_update()",
            "game.save(",
            "Game.objects.filter(pk=game_id).update",
        ):
            if needle in source:
                writers.append(f"{path.relative_to(GAMES)}: {needle}")
    assert writers == []
