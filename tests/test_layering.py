"""The architecture's arrows, enforced: rules -> search -> GUI, never backwards.

Nothing outside gui/ imports PySide6; games/ imports neither ai/ nor gui/; ai/ never
imports gui/. Checked on the source (every import statement, including ones inside
functions), so a lazy import cannot sneak round the rule.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "games": ("ai", "gui", "PySide6", "shiboken6"),
    "ai": ("gui", "PySide6", "shiboken6"),
    "resources": ("ai", "gui", "PySide6", "shiboken6"),
    "bench": ("gui", "PySide6", "shiboken6"),
}


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, top-level module name) of every import in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name.split(".")[0]) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module.split(".")[0]))
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module":
            if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                found.append((node.lineno, node.args[0].value.split(".")[0]))
    return found


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_respects_layering(package: str) -> None:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files or package in ("resources", "bench"), f"{package}/ has no Python files"
    violations = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in files
        for line, module in imported_modules(path)
        if module in FORBIDDEN[package]
    ]
    assert violations == []


def test_checker_sees_imports(tmp_path: Path) -> None:
    """The checker itself finds plain, from- and function-level imports."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import os\nfrom PySide6.QtCore import Qt\n"
        "def f():\n    import gui.app\n    importlib.import_module('ai.cli')\n"
    )
    assert [module for _, module in imported_modules(sample)] == ["os", "PySide6", "gui", "ai"]
