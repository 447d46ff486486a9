"""The architecture's arrows, enforced: rules -> search -> GUI, never backwards.

Nothing outside gui/ (and the GUI's own tests and the frozen entry script) imports PySide6;
games/ imports neither ai/ nor gui/; ai/ never imports gui/. Checked on the source of every
Python file in the repository (every import statement, including ones inside functions and
relative ones, which are resolved against the file's package), so a lazy or relative import
cannot sneak round the rule.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
QT = ("PySide6", "shiboken6")
SKIPPED_DIRS = {".venv", ".git", "build", "dist", ".hypothesis", ".pytest_cache", "__pycache__"}
ALLOWED_QT = ("gui", "tests/gui", "packaging")
"""Where Qt may be imported: the app, its tests, and the executable's entry script."""
GUI_BENCH_PREFIX = "bench/gui_"
"""Benchmarks of the app itself (event-loop latency, screenshots) are named bench/gui_*.py."""


def forbidden_for(relative: Path) -> tuple[str, ...]:
    """The top-level modules a file at ``relative`` (to the repository root) must not import."""
    top = relative.parts[0] if len(relative.parts) > 1 else ""
    posix = relative.as_posix()
    if top == "games":
        return ("ai", "gui", *QT)
    if posix.startswith(GUI_BENCH_PREFIX):
        return ()
    if top in ("ai", "resources", "bench"):
        return ("gui", *QT)
    if any(posix.startswith(allowed + "/") for allowed in ALLOWED_QT):
        return ()
    if posix.startswith(("tests/ai/", "tests/games/")):
        return ("gui", *QT)
    return QT


def python_files() -> list[Path]:
    """Every Python file of the project (not the virtual environment or build output)."""
    found = []
    for path in ROOT.rglob("*.py"):
        relative = path.relative_to(ROOT)
        if not SKIPPED_DIRS.intersection(relative.parts) and not relative.parts[0].startswith("."):
            found.append(path)
    return sorted(found)


def resolve_relative(relative: Path, level: int, module: str | None) -> str:
    """The absolute dotted name of ``from <level dots><module> import ...`` in ``relative``."""
    package = list(relative.parent.parts)
    if level > 1:
        package = package[: len(package) - (level - 1)]
    return ".".join([*package, *([module] if module else [])])


def imported_modules(path: Path, relative: Path | None = None) -> list[tuple[int, str]]:
    """(line, top-level module name) of every import in ``path``.

    ``relative`` is the file's place in the repository (to resolve relative imports); by
    default its path below the repository root.
    """
    relative = path.relative_to(ROOT) if relative is None else relative
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name.split(".")[0]) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            name = resolve_relative(relative, node.level, node.module) if node.level else node.module
            if name:
                found.append((node.lineno, name.split(".")[0]))
            else:  # "from ... import ai" at the top of the tree imports the names themselves
                found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module":
            if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                found.append((node.lineno, node.args[0].value.split(".")[0]))
    return found


def test_every_file_respects_layering() -> None:
    files = python_files()
    tops = {path.relative_to(ROOT).parts[0] for path in files}
    assert {"games", "ai", "gui", "tests"} <= tops
    violations = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in files
        for line, module in imported_modules(path)
        if module in forbidden_for(path.relative_to(ROOT))
    ]
    assert violations == []


@pytest.mark.parametrize(
    ("relative", "forbidden"),
    [
        ("games/chess_game/state.py", ("ai", "gui", *QT)),
        ("ai/search/mcts.py", ("gui", *QT)),
        ("bench/perft_speed.py", ("gui", *QT)),
        ("bench/gui_latency.py", ()),
        ("tests/ai/test_uci.py", ("gui", *QT)),
        ("tests/test_layering.py", QT),
        ("gui/app.py", ()),
        ("tests/gui/test_app_smoke.py", ()),
    ],
)
def test_rules_per_place(relative: str, forbidden: tuple[str, ...]) -> None:
    assert forbidden_for(Path(relative)) == forbidden


def test_checker_sees_imports(tmp_path: Path) -> None:
    """The checker finds plain, from-, function-level, import_module and relative imports."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import os\nfrom PySide6.QtCore import Qt\n"
        "from . import board\nfrom ..base import GameState\nfrom ... import ai\n"
        "def f():\n    import gui.app\n    importlib.import_module('ai.cli')\n"
    )
    modules = sorted(module for _, module in imported_modules(sample, Path("games/probe/sample.py")))
    assert modules == sorted(["os", "PySide6", "games", "games", "ai", "gui", "ai"])
