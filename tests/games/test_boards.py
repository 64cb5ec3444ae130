"""One board package per game, behind the engines' public surface (views and metadata modules)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

from games import boards
from rules.core.registry import GAME_PACKAGES

ROOT = Path(__file__).resolve().parents[2]
SITE = ("games", "config")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
    return found


def test_the_site_reads_an_engine_only_through_core_and_its_metadata_module() -> None:
    """rules.<game>.metadata is an engine's whole surface for the site, beside its view.

    The contract (rules.core) and the bots (rules.bots, which work over that contract) are
    shared by every game and may be imported anywhere."""
    offenders = []
    for folder in SITE:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for module in _imports(path):
                parts = module.split(".")
                if parts[0] != "rules" or parts[1:2] in (["core"], ["bots"]):
                    continue
                if len(parts) != 3 or parts[2] != "metadata":
                    offenders.append(f"{path.relative_to(ROOT)}: {module}")
    assert offenders == []


def test_every_shipped_engine_has_a_board_package_and_nothing_else_does() -> None:
    """Adding a game: an engine package in GAME_PACKAGES and a board in games.boards.BOARDS."""
    engines = {importlib.import_module(p).ENGINE.game_id for p in GAME_PACKAGES}
    assert set(boards.BOARDS) == engines
    for game, board in boards.BOARDS.items():
        assert board.game == game
        assert (ROOT / "templates" / board.template).is_file(), board.template
        assert board.summaries.is_file(), board.summaries
        assert importlib.import_module(f"games.boards.{game}").BOARD is board


def test_a_game_without_a_board_draws_nothing_and_takes_the_common_forms() -> None:
    assert not boards.has_board("toy") and boards.find("toy") is None
    assert boards.board_context("toy", {}, None) == {}
    assert boards.forms("toy") is None and boards.forms("hre") is None
    assert boards.forms("feudal") is not None
